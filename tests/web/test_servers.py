"""Real gunicorn servers: any server with the same key and store serves any request; a restart, even kill -9 of
every server process, loses nothing.

The player is an id in the signed cookie and the rounds live in the store (SQLite or PostgreSQL), so a player can
move between processes, servers (hosts) and restarts.
"""

from __future__ import annotations

import math
import os
import re
import signal
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from ruzzle import Lexicon, blocked_words, generate
from ruzzle.game import Solution
from tools.servers import free_port, gunicorn, gunicorn_server

from .helpers import ServerBrowser

BOARD_TABLE = re.compile(r'<table id="board".*?</table>', re.S)
SEED = "SHARED"
BOARD = f"/play/en/{SEED}"
ROUND_SECONDS = 120
KEY = "the key every server of this test shares"
pytestmark = pytest.mark.server  # every test here starts its own


def board_markup(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return BOARD_TABLE.search(response.read().decode("utf-8")).group()


def test_same_board_url_same_markup_from_two_gunicorn_processes():
    path = "/play/en/SHARED?size=5x5"
    with gunicorn(workers=1) as first, gunicorn(workers=1, PYTHONHASHSEED="12345") as second:
        one, other = board_markup(first + path), board_markup(second + path)
    assert one == other
    assert one.count("<td data-cell=") == 25


class Player(ServerBrowser):
    """A browser as far as the round goes: one session cookie, carried to whichever server it talks to."""

    def request(self, url: str, form: dict | None = None, htmx: bool = False) -> tuple[int, str]:
        status, _, body = self.ask(url, form, {"HX-Request": "true"} if htmx else None)
        return status, body

    def page(self, server: str) -> dict:
        """The board page as this player sees it on a server: score, words found, seconds left, notices."""
        status, page = self.request(server + BOARD)
        assert status == 200
        return {
            "score": int(re.search(r'<strong class="score">([\d,]+)</strong>', page).group(1).replace(",", "")),
            "found": re.findall(r'<li><a href="[^"]*/words/([A-Z]+)"', page),
            # whole seconds, as shown
            "remaining": math.ceil(float(re.search(r'data-remaining="([\d.]+)"', page).group(1))),
            "page": page,
        }

    def submit(self, server: str, word: str) -> int:
        """Submit a typed word with htmx; the score the server answers with."""
        status, fragment = self.request(server + BOARD + "/words", {"word": word}, htmx=True)
        assert status == 200 and "result-refused" not in fragment, fragment[:300]
        return int(re.search(r'<strong class="score">([\d,]+)</strong>', fragment).group(1).replace(",", ""))


@pytest.fixture(scope="module")
def words() -> list:
    """The board's words, best first, as every server solves them (classroom filter on, the web default)."""
    return list(Solution.of(generate("en", SEED), Lexicon.builtin("en"), blocked_words("en")))


def seconds_left(started: float) -> float:
    return ROUND_SECONDS - (time.time() - started)


def test_one_round_alternating_between_two_servers_loses_nothing(words, database_url):
    """Two servers (hosts) on one store serve one round in turn."""
    player = Player()
    store = {"RUZZLE_DATABASE_URL": database_url}
    with gunicorn_server(KEY, workers=2, **store) as one, gunicorn_server(KEY, workers=2, **store) as other:
        servers = [one.url, other.url]
        started = time.time()
        player.page(one.url)
        played = words[:20]
        for i, found in enumerate(played):
            score = player.submit(servers[i % 2], found.word)
            assert score == sum(word.score for word in played[: i + 1])  # no word lost on the way
        seen = [player.page(server) for server in servers]
        expected_left = seconds_left(started)  # now, not after the servers took their time to stop
    for view in seen:
        assert view["score"] == sum(found.score for found in played)
        assert sorted(view["found"]) == sorted(found.word for found in played)
        # The deadline is the one the first server set: neither server started the round again.
        assert expected_left - 2 <= view["remaining"] <= expected_left + 2
    assert seen[0]["remaining"] - seen[1]["remaining"] in (0, 1)


def test_a_server_with_another_key_starts_a_fresh_round_with_a_message(words, store_url):
    player = Player()
    store = {"RUZZLE_DATABASE_URL": store_url}
    with (
        gunicorn_server(KEY, workers=1, **store) as one,
        gunicorn_server("another key", workers=1, **store) as stranger,
    ):
        player.page(one.url)
        player.submit(one.url, words[0].word)
        fresh = player.page(stranger.url)
        assert "could not be read" in fresh["page"]
        assert fresh["score"] == 0 and fresh["found"] == [] and fresh["remaining"] == ROUND_SECONDS
        assert player.submit(stranger.url, words[1].word) == words[1].score  # the fresh round goes on


@pytest.mark.parametrize("key", [KEY, None], ids=["RUZZLE_SECRET_KEY", "instance key"])
def test_a_server_restart_in_the_middle_of_a_round_loses_nothing(words, key, store_url):
    player = Player()
    port = free_port()
    store = {"RUZZLE_DATABASE_URL": store_url}
    with gunicorn_server(key, workers=2, port=port, **store) as before:
        started = time.time()
        player.page(before.url)
        for found in words[:5]:
            player.submit(before.url, found.word)
    with gunicorn_server(key, workers=2, port=port, **store) as after:
        view = player.page(after.url)
        assert "could not be read" not in view["page"]
        assert view["score"] == sum(found.score for found in words[:5])
        assert sorted(view["found"]) == sorted(found.word for found in words[:5])
        assert seconds_left(started) - 2 <= view["remaining"] <= seconds_left(started) + 2
        assert player.submit(after.url, words[5].word) == sum(found.score for found in words[:6])


def test_every_word_answered_200_survives_kill_9_of_every_server_process(words, database_url):
    """Three times: words submitted, every gunicorn process (master and workers) killed with SIGKILL right after
    the last 200, a new server started on the same store: every accepted word is there, the clock did not move."""
    player = Player()
    store = {"RUZZLE_DATABASE_URL": database_url}
    accepted = []
    started = None
    for batch in range(3):
        with gunicorn_server(KEY, workers=2, **store) as server:
            view = player.page(server.url)
            assert sorted(view["found"]) == sorted(found.word for found in accepted)
            started = started or time.time()
            for found in words[batch * 4 : (batch + 1) * 4]:
                player.submit(server.url, found.word)  # asserts the 200 and that the word was taken
                accepted.append(found)
            processes = [server.process.pid, *server.worker_pids()]
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=10)
            assert _all_gone(processes)
    with gunicorn_server(KEY, workers=2, **store) as server:
        view = player.page(server.url)
        expected_left = seconds_left(started)
    assert sorted(view["found"]) == sorted(found.word for found in accepted) and len(accepted) == 12
    assert view["score"] == sum(found.score for found in accepted)
    assert expected_left - 2 <= view["remaining"] <= expected_left + 2


def _all_gone(pids: list[int], timeout: float = 10) -> bool:
    """Wait until none of these processes runs any more (SIGKILL is delivered, then the kernel tears down)."""
    deadline = time.monotonic() + timeout
    while any(_alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _alive(pid: int) -> bool:
    """Whether a process is still running (a zombie waiting for its parent to read it counts as gone)."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
