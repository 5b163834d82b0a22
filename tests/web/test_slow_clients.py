"""A class on one laptop: slow or silent connections must not stop the server answering everyone else.

gunicorn runs as the README runs it (gunicorn.conf.py, its own number of workers); 20 sockets send nothing
and 20 send their headers a byte at a time, and meanwhile an ordinary player's board page must come back
within a second (with one request per worker, as the server ran before, it waited up to 30 s).
"""

from __future__ import annotations

import time
import urllib.request

import pytest

from tools.servers import gunicorn
from tools.slow_clients import slow_clients

PAGE = "/play/en/SLOWWIFI"


def fetch(url: str) -> float:
    """Seconds to load a page (a 200, read to the end); the client gives up after 10 s."""
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200 and b'<table id="board"' in response.read()
    return time.monotonic() - start


@pytest.mark.server
def test_a_page_answers_within_a_second_while_40_connections_idle_or_trickle():
    with gunicorn() as server:
        fetch(server + PAGE)  # the board solved and rendered once: what is measured is waiting, not work
        with slow_clients(server, idle=20, trickle=20) as clients:
            time.sleep(1)  # every slow connection accepted and trickling
            times = []
            for _ in range(16):  # over about 8 s: past the 5 s a silent connection is given to speak
                times.append(fetch(server + PAGE))
                time.sleep(0.5)
            assert sum(clients.sent) > 20 * 20  # they did trickle all along
    assert max(times) < 1, [round(t, 3) for t in times]
