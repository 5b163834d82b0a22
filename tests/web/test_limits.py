"""Limits: the request body, the words a round can hold, absurd boards refused before any work, the cookie."""

from __future__ import annotations

import re

import pytest

import ruzzle.game
import views.boards
from ruzzle import Board
from views.boards import MAX_CODE_LENGTH

from .conftest import HTMX, forget_solutions, solution_of

BOARD = "/play/en/TESTS2"


# --- the request body ---------------------------------------------------------------------------------------------


def form_of_size(size: int) -> bytes:
    """A urlencoded form of exactly `size` bytes."""
    return b"word=" + b"A" * (size - len(b"word="))


@pytest.mark.parametrize("route", ["/words", "/round"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_a_body_up_to_the_limit_is_read_and_one_byte_more_is_refused(app, client, route, headers):
    limit = app.config["MAX_CONTENT_LENGTH"]
    form = {"Content-Type": "application/x-www-form-urlencoded", **headers}
    at_limit = client.post(BOARD + route, data=form_of_size(limit), headers=form)
    assert at_limit.status_code in (200, 303, 400)  # read: a word too long, or no round action
    over = client.post(BOARD + route, data=form_of_size(limit + 1), headers=form)
    assert over.status_code == 413
    page = over.get_data(as_text=True)
    assert 'class="result-message">That request is far bigger than anything this game needs.' in page
    assert ("<html" in page) == (not headers)  # htmx gets the message as a fragment


def test_the_body_limit_is_small():
    from app import create_app

    assert create_app({"SECRET_KEY": "x"}).config["MAX_CONTENT_LENGTH"] <= 64 * 1024


# --- the words a round holds ------------------------------------------------------------------------------------------


def test_a_round_holds_at_most_the_boards_words_since_each_counts_once(client, app):
    """The cap on words per round is the board's word count: found words are a set over the solution's index."""
    solution = solution_of(app)
    client.get(BOARD)
    for found in solution:
        client.post(BOARD + "/words", data={"word": found.word}, headers=HTMX)
    page = client.get(BOARD).get_data(as_text=True)
    assert f'<strong class="score">{solution.total_score:,}</strong>' in page
    assert f'<span class="count">{len(solution)} words</span>' in page
    for found in list(solution)[:20]:  # more submissions are refused and nothing more is stored
        again = client.post(BOARD + "/words", data={"word": found.word}, headers=HTMX).get_data(as_text=True)
        assert f"{found.word} is already found." in again
    with app.app_context(), app.extensions["ruzzle.store"].engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT count(*), count(DISTINCT word) FROM words").one() == (
            len(solution),
            len(solution),
        )


# --- absurd boards are refused before any work ------------------------------------------------------------------------


@pytest.fixture
def work(monkeypatch) -> list[str]:
    """Records each board generated, parsed from a code and solved while the test runs (none solved before it)."""
    forget_solutions()
    done: list[str] = []
    generate, from_code, solve = views.boards.generate, Board.from_code.__func__, ruzzle.game.solve

    def spy_generate(*args, **kwargs):
        done.append("generate")
        return generate(*args, **kwargs)

    def spy_from_code(cls, *args, **kwargs):
        done.append("parse code")
        return from_code(cls, *args, **kwargs)

    def spy_solve(*args, **kwargs):
        done.append("solve")
        return solve(*args, **kwargs)

    monkeypatch.setattr(views.boards, "generate", spy_generate)
    monkeypatch.setattr(Board, "from_code", classmethod(spy_from_code))
    monkeypatch.setattr(ruzzle.game, "solve", spy_solve)
    return done


ABSURD_SIZES = ["999x999", "13x13", "12x13", "0x0", "100000x100000", "9" * 10_000]


@pytest.mark.parametrize("size", ABSURD_SIZES)
@pytest.mark.parametrize(
    "method, route", [("GET", ""), ("POST", "/words"), ("POST", "/round"), ("GET", "/solution"), ("GET", "/projector")]
)
def test_an_absurd_size_is_refused_before_generating(client, work, size, method, route):
    response = client.open(f"{BOARD}{route}?size={size}", method=method, data={"word": "CAT", "action": "again"})
    assert response.status_code == 400 and "rows" in response.get_data(as_text=True)
    assert work == []


@pytest.mark.parametrize(
    "url",
    [f"/new?seed=X&size={size}" for size in ABSURD_SIZES] + [f"/solve?size={size}&l0_0=A" for size in ABSURD_SIZES],
)
def test_an_absurd_size_on_a_form_is_refused_before_any_board(client, work, url):
    assert client.get(url).status_code == 400
    assert work == []


def test_a_code_longer_than_any_12x12_board_is_refused_unread(client, work):
    code = "-".join(["AtlBdw" * 6] * 13)
    assert len(code) > MAX_CODE_LENGTH
    response = client.get(f"/solve/en/{code}")
    assert response.status_code == 400 and "at most 12x12" in response.get_data(as_text=True)
    assert work == []


@pytest.mark.parametrize("code", ["-".join(["A" * 13] * 13), "-".join(["A" * 12] * 13), "A" * 13])
def test_a_typed_board_beyond_12x12_is_refused_before_solving(client, work, code):
    assert len(code) <= MAX_CODE_LENGTH  # read (cheap), measured, refused
    response = client.get(f"/solve/en/{code}")
    assert response.status_code == 400 and "1 to 12 rows and columns" in response.get_data(as_text=True)
    assert work == ["parse code"]


def test_a_pasted_board_beyond_12x12_is_refused_before_solving(client, work):
    text = "\n".join([" ".join("A" * 13)] * 13)
    response = client.get("/solve", query_string={"text": text})
    assert response.status_code == 400 and "at most 12x12" in response.get_data(as_text=True)
    assert "solve" not in work


def test_the_largest_board_is_generated_and_solved_once(client, work):
    assert client.get(f"{BOARD}?size=12x12").status_code == 200
    assert client.get(f"{BOARD}?size=12x12").status_code == 200
    assert work == ["generate", "solve"]  # the second request is served from the solution cache


# --- the cookie holds only the player ---------------------------------------------------------------------------------

SEEDS = ["MANY1", "MANY2", "MANY3", "MANY4", "MANY5", "MANY6"]


def test_the_cookie_holds_only_the_player_however_many_rounds_are_kept(app, client):
    """Rounds live in the store: six boards' rounds, each whole when the player comes back; the cookie never grows."""
    solutions = {seed: solution_of(app, seed=seed) for seed in SEEDS}
    cookies = set()
    for seed, solution in solutions.items():
        client.get(f"/play/en/{seed}")
        for found in list(solution)[:5]:
            client.post(f"/play/en/{seed}/words", data={"word": found.word}, headers=HTMX)
        cookies.add(client.get_cookie("session").value)
    assert len(cookies) == 1 and len(next(iter(cookies))) < 120  # one anonymous id and its seat note, set once
    for seed, solution in solutions.items():
        page = client.get(f"/play/en/{seed}").get_data(as_text=True)
        assert words_counted(page) == min(5, len(solution)), seed
        assert f'<strong class="score">{sum(f.score for f in list(solution)[:5]):,}</strong>' in page


def words_counted(page: str) -> int:
    return int(re.search(r'<span class="count">(\d+) words?</span>', page).group(1))
