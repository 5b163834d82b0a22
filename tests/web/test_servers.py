"""Real gunicorn servers: what one process renders, another renders byte for byte."""

from __future__ import annotations

import re
import urllib.request

from tools.servers import gunicorn

BOARD_TABLE = re.compile(r'<table id="board".*?</table>', re.S)


def board_markup(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return BOARD_TABLE.search(response.read().decode("utf-8")).group()


def test_same_board_url_same_markup_from_two_gunicorn_processes():
    path = "/play/en/SHARED?size=5x5"
    with gunicorn(workers=1) as first, gunicorn(workers=1, PYTHONHASHSEED="12345") as second:
        one, other = board_markup(first + path), board_markup(second + path)
    assert one == other
    assert one.count("<td data-cell=") == 25
