"""Limits: the request body, the words a round can hold, absurd boards refused before any work, the cookie budget."""

from __future__ import annotations

import random
import re

import pytest

import ruzzle.game
import views.boards
from ruzzle import Board
from ruzzle.game import Round
from views.boards import MAX_CODE_LENGTH, BoardRequest

from .conftest import HTMX, START, loaded_languages, solution_of

BOARD = "/play/en/TESTS2"
COOKIE_LIMIT = 4096  # what browsers keep of one cookie (RFC 6265 asks at least this much; more is not promised)


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
    with client.session_transaction() as session:
        rounds = dict(session["rounds"])
    page = client.get(BOARD).get_data(as_text=True)
    assert f'<strong class="score">{solution.total_score}</strong>' in page
    assert f'<span class="count">{len(solution)} words</span>' in page
    for found in list(solution)[:20]:  # more submissions are refused and the cookie does not grow
        again = client.post(BOARD + "/words", data={"word": found.word}, headers=HTMX).get_data(as_text=True)
        assert f"{found.word} is already found." in again
    with client.session_transaction() as session:  # the same round, the same bits (only the signature's time moves)
        assert session["rounds"] == rounds


# --- absurd boards are refused before any work ------------------------------------------------------------------------

@pytest.fixture
def work(monkeypatch) -> list[str]:
    """Records each board generated, parsed from a code and solved while the test runs."""
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
@pytest.mark.parametrize("method, route", [("GET", ""), ("POST", "/words"), ("POST", "/round"), ("GET", "/solution"),
                                           ("GET", "/projector")])
def test_an_absurd_size_is_refused_before_generating(client, work, size, method, route):
    response = client.open(f"{BOARD}{route}?size={size}", method=method, data={"word": "CAT", "action": "again"})
    assert response.status_code == 400 and "rows" in response.get_data(as_text=True)
    assert work == []


@pytest.mark.parametrize("url", [f"/new?seed=X&size={size}" for size in ABSURD_SIZES]
                         + [f"/solve?size={size}&l0_0=A" for size in ABSURD_SIZES])
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


# --- the cookie budget ------------------------------------------------------------------------------------------------

BIG_SEEDS = ["COOKY1", "COOKY2", "COOKY3", "COOKY4"]
LANGUAGES = loaded_languages()


def every_word(count: int) -> frozenset[int]:
    return frozenset(range(count))


def every_other_word(count: int) -> frozenset[int]:
    return frozenset(range(0, count, 2))


def random_half(count: int) -> frozenset[int]:
    return frozenset(random.Random(count).sample(range(count), count // 2))


def set_cookie_size(response) -> int:
    """Bytes of the session's Set-Cookie header: name, value and attributes."""
    header = next(value for value in response.headers.getlist("Set-Cookie") if value.startswith("session="))
    return len(header.encode("utf-8"))


def plant_rounds(app, client, language: str, seeds: list[str], found) -> list[tuple[BoardRequest, object]]:
    """Put rounds on these 12x12 boards in the player's cookie, with `found(word count)` of each board's words
    found, all but one on the last board (the player finds it over HTTP); the boards and their solutions."""
    boards = []
    with app.test_request_context():
        for seed in seeds:
            board = BoardRequest.from_url(language, seed, {"size": "12x12", "time": "0"})
            boards.append((board, board.solution()))
    with client.session_transaction() as session:
        rounds = {}
        for board, solution in boards:
            indices = found(len(solution))
            if board is boards[-1][0]:
                indices -= {last_index(found, len(solution))}
            rounds[board.round_key] = Round(START, 0, indices).to_token()
        session["rounds"] = rounds
    return boards


def last_index(found, count: int) -> int:
    """The word the player finds over HTTP: the last of the board's words that `found` finds."""
    return max(index for index in found(count) if index < count)


def find_the_last_word(client, language: str, boards, found):
    board, solution = boards[-1]
    word = solution[last_index(found, len(solution))].word
    response = client.post(f"/play/{language}/{board.seed}/words?size=12x12&time=0", data={"word": word}, headers=HTMX)
    assert response.status_code == 200 and "result-refused" not in response.get_data(as_text=True)
    return response


def board_page(client, language: str, board) -> str:
    return client.get(f"/play/{language}/{board.seed}?size=12x12&time=0").get_data(as_text=True)


def words_counted(page: str) -> int:
    return int(re.search(r'<span class="count">(\d+) words?</span>', page).group(1))


@pytest.mark.parametrize("found", [every_word, every_other_word, random_half])
@pytest.mark.parametrize("language", LANGUAGES)
def test_four_12x12_rounds_fit_one_cookie_or_the_oldest_is_let_go_with_a_message(app, client, language, found):
    """Four rounds (ROUNDS_IN_COOKIE) on real 12x12 boards: the last word found over HTTP, the cookie measured."""
    assert app.config["ROUNDS_IN_COOKIE"] == 4
    boards = plant_rounds(app, client, language, BIG_SEEDS, found)
    assert min(len(solution) for _, solution in boards) > 1000  # real 12x12 boards, with many words
    response = find_the_last_word(client, language, boards, found)
    assert set_cookie_size(response) < COOKIE_LIMIT
    pages = [board_page(client, language, board) for board, _ in boards]
    assert words_counted(pages[-1]) == len(found(len(boards[-1][1])))  # the round being played is whole
    for page, (board, solution) in zip(pages[:-1], boards):
        whole = words_counted(page) == len(found(len(solution)))
        let_go = words_counted(page) == 0 and "was let go to make room" in page
        assert whole or let_go, board.seed
        if found is not random_half:  # found words in a run compress to nearly nothing: every round fits
            assert whole, board.seed


# The planted cookie is one that a server without the budget could have written; browsers would drop it.
@pytest.mark.filterwarnings("ignore:The 'session' cookie is too large")
def test_rounds_too_big_for_one_cookie_let_the_oldest_go_and_say_so_on_its_board(app, client):
    """Bit sets of 10,000 words half found (bigger than any board's) cannot all fit: the oldest rounds go first."""
    def huge(count: int) -> frozenset[int]:
        return frozenset(random.Random(count).sample(range(10_000), 5_000)) | {count - 1}

    boards = plant_rounds(app, client, "en", BIG_SEEDS, huge)
    response = find_the_last_word(client, "en", boards, huge)
    assert set_cookie_size(response) < COOKIE_LIMIT
    pages = [board_page(client, "en", board) for board, _ in boards]
    assert words_counted(pages[-1]) == len([i for i in huge(len(boards[-1][1])) if i < len(boards[-1][1])])
    assert "was let go to make room" in pages[0] and words_counted(pages[0]) == 0
    assert "was let go to make room" not in board_page(client, "en", boards[0][0])  # said once, then a new round
