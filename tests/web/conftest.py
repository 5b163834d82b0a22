"""Fixtures for the web tests: the app with a clock the test moves, its client, helpers to read pages."""

from __future__ import annotations

import re

import pytest

from app import create_app
from views.boards import BoardRequest

HTMX = {"HX-Request": "true"}
START = 1_790_000_000  # a fixed moment (2026-09-21 UTC), so rounds and daily boards are reproducible


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(clock, tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test key, not a secret", "CLOCK": clock})
    app.instance_path = str(tmp_path / "instance")
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def solution_of(app, language="en", seed="TESTS2", size="4x4", safe=True):
    """The solution the app serves for a board URL (the solver itself is tested in tests/test_solver.py)."""
    with app.test_request_context():
        query = {"size": size} if safe else {"size": size, "safe": "0"}
        return BoardRequest.from_url(language, seed, query).solution()


def path_text(path) -> str:
    """A path as the page posts it: `r,c r,c ...`."""
    return " ".join(f"{r},{c}" for r, c in path)


def cells_in_order(html: str) -> list[tuple[int, int]]:
    """The highlighted cells of the board markup, in the order of their step numbers."""
    steps = re.findall(r'<td data-cell="(\d+),(\d+)" class="[^"]*on-path[^"]*">.*?<span class="tile-step">(\d+)</span>',
                       html, flags=re.S)
    return [(int(r), int(c)) for r, c, _ in sorted(steps, key=lambda s: int(s[2]))]
