"""The board page and its round through the Flask client: every route, every refusal, the cookie, the headers."""

from __future__ import annotations

import gc
import html
import json
import re
import types

import pytest

from ruzzle import common_words, generate, score_breakdown
from views.addresses import same_site_path
from views.boards import BoardRequest
from views.services import services

from .conftest import HTMX, path_text, result_path, solution_of

BOARD = "/play/en/TESTS2"
WORDS = BOARD + "/words"


def board_cells(html: str) -> list[str]:
    return re.findall(r'<td data-cell="(\d+,\d+)"', html)


# --- pages -----------------------------------------------------------------------------------------------


def test_start_page_offers_language_size_time_seed_and_daily_boards(client):
    page = client.get("/").get_data(as_text=True)
    assert '<select id="language" name="language">' in page
    assert '<option value="12x12">' in page and '<option value="4x4" selected>' in page
    assert '<option value="0">No time limit</option>' in page
    assert '<input id="seed" name="seed"' in page
    assert 'href="/daily/it"' in page and 'href="/daily/en"' in page


def test_new_board_without_a_seed_gets_a_fresh_short_one(client):
    response = client.get("/new?language=en&size=4x4&time=120&seed=")
    assert response.status_code == 303
    assert re.fullmatch(r"/play/en/[2-9A-HJKMNP-Z]{6}\?gen=2", response.location)


def test_new_board_keeps_the_typed_seed_and_settings(client):
    response = client.get("/new?language=en&size=5x5&time=60&seed=my+class")
    assert response.status_code == 303
    assert response.location == "/play/en/MY%20CLASS?gen=2&size=5x5&time=60"


def test_the_start_page_names_the_board_code_and_the_room_code_apart(client):
    """Pupils type a room's code into the board code field when both read "code, e.g. K7M2QX": two labels, two
    examples, and the board code's example never looks like a room's code."""
    page = client.get("/").get_data(as_text=True)
    seed_label = re.search(r'<label for="seed">([^<]+)<', page).group(1).strip()
    room_label = re.search(r'<label for="room-code">([^<]+)<', page).group(1).strip()
    assert seed_label == "Board code" and room_label == "Joining a room? Type the room code"
    seed_example = re.search(r'id="seed"[^>]*placeholder="([^"]+)"', page).group(1)
    room_example = re.search(r'id="room-code"[^>]*placeholder="([^"]+)"', page).group(1)
    assert room_example == "e.g. K7M2QX" and seed_example != room_example
    assert not re.search(r"\b[2-9A-HJKMNP-Z]{6}\b", seed_example.removeprefix("e.g. "))


def open_room(client, **form) -> str:
    answer = client.post("/rooms", data={"language": "it", "time": "60", "seed": "TESTS2", **form})
    return answer.headers["Location"].split("/")[2]


def test_a_room_code_typed_as_a_board_code_offers_to_join_the_room(app, client):
    code = open_room(app.test_client())
    response = client.get(f"/new?language=en&size=5x5&time=60&seed=+{code.lower()}+")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    assert f"<strong>{code}</strong> is the code of a room that is open now." in page
    assert f'href="/rooms/{code}">Join room {code}</a>' in page
    assert f'href="/play/en/{code}?gen=2&amp;size=5x5&amp;time=60">Play the board {code} instead</a>' in page
    assert client.get(f"/play/en/{code}?gen=2&size=5x5&time=60").status_code == 200  # the board, if they mean it
    german = client.get(f"/new?language=en&seed={code}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="de">' in german  # the start page's language, not the (Italian) room's


@pytest.mark.parametrize("seed", ["ZZZZZZ", "TIGER", "K7M2QXX", "K7M2Q0"])
def test_a_board_code_that_is_no_open_room_plays_its_board(client, seed):
    response = client.get(f"/new?language=en&seed={seed}")
    assert response.status_code == 303 and response.location.startswith(f"/play/en/{seed}?")


def test_a_closed_rooms_code_plays_its_board(app, client, clock):
    code = open_room(app.test_client())
    clock.advance(2 * 86400)
    response = client.get(f"/new?language=en&seed={code}")
    assert response.status_code == 303 and response.location.startswith(f"/play/en/{code}?")


def test_daily_board_is_the_utc_date(client, clock):
    response = client.get("/daily/en")
    assert response.status_code == 302
    assert response.location == "/play/en/2026-09-21?gen=2"
    assert response.headers["Cache-Control"] == "no-store"


def test_new_boards_name_the_latest_generator_and_old_urls_keep_theirs(client, app):
    # A URL without `gen` is generator 1's board forever (every URL shared before generator 2 has none).
    old = client.get("/play/en/ABC234").get_data(as_text=True)
    new = client.get("/play/en/ABC234?gen=2").get_data(as_text=True)
    with app.app_context():
        v1 = BoardRequest.from_url("en", "ABC234", {}).board()
        v2 = BoardRequest.from_url("en", "ABC234", {"gen": "2"}).board()
    assert v1 == generate("en", "ABC234", version=1) and v2 == generate("en", "ABC234", version=2)
    assert v1.letters != v2.letters
    for page, board in ((old, v1), (new, v2)):
        assert "".join(re.findall(r'<span class="tile-letter">([A-Z])</span>', page)) == board.letters
    assert 'action="/play/en/ABC234/words?gen=2"' in new


@pytest.mark.parametrize("gen", ["0", "3", "x", "-1"])
def test_unknown_generator_versions_are_refused(client, gen):
    response = client.get(f"/play/en/ABC234?gen={gen}")
    assert response.status_code == 400
    assert "generator version" in response.get_data(as_text=True)


def test_board_url_is_canonical(client):
    response = client.get("/play/EN/tests2?size=5x5")
    assert response.status_code == 308
    assert response.location == "/play/en/TESTS2?size=5x5"


def test_board_page_shows_the_board_as_a_table_of_tiles(client, app):
    page = client.get(BOARD).get_data(as_text=True)
    board = solution_of(app).board
    assert '<table id="board"' in page
    assert board_cells(page) == [f"{r},{c}" for r, c in board.cells()]
    for tile in board.tiles:
        if tile.multiplier:  # the multiplier is written on the tile, not only coloured
            assert f'<span class="tile-mult">{tile.multiplier.name}</span>' in page
    assert 'id="timer"' in page and 'data-remaining="120.000"' in page
    assert "TESTS2" in page and "http://localhost/play/en/TESTS2" in page  # the seed and the share URL


@pytest.mark.parametrize("size, cells", [("5x5", 25), ("12x12", 144), ("3x7", 21), ("6", 36)])
def test_board_size_comes_from_the_url(client, size, cells):
    response = client.get(f"{BOARD}?size={size}")
    assert response.status_code == 200
    assert len(board_cells(response.get_data(as_text=True))) == cells


def test_same_board_url_same_board_markup(app, clock):
    one = app.test_client().get(BOARD).get_data(as_text=True)
    clock.advance(30)
    other = app.test_client().get(BOARD).get_data(as_text=True)
    table = re.compile(r'<table id="board".*?</table>', re.S)
    assert table.search(one).group() == table.search(other).group()


@pytest.mark.parametrize(
    "query, message",
    [
        ("size=0x0", "1 to 12 rows and columns"),
        ("size=-1x4", "rows x columns"),
        ("size=13x13", "1 to 12 rows and columns"),
        ("size=999x999", "1 to 12 rows and columns"),
        ("size=4x", "rows x columns"),
        ("size=big", "rows x columns"),
        ("time=-1", "whole number of seconds"),
        ("time=abc", "whole number of seconds"),
        ("time=4", "5 to 3600 seconds"),
        ("time=3601", "5 to 3600 seconds"),
        ("time=99999999999", "whole number of seconds"),
        ("safe=maybe", "The classroom filter (safe=) is 1"),
        ("match=0", "A match round (match=) is one of 1, 2, 3"),
        ("match=4", "A match round (match=) is one of 1, 2, 3"),
        ("gen=3", "A board generator version (gen=) is one of 1, 2"),
    ],
)
def test_bad_board_parameters_are_refused_with_a_message(client, query, message):
    response = client.get(f"{BOARD}?{query}")
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_unknown_language_lists_the_languages(client):
    response = client.get("/play/xx/TESTS2")
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert "no language &#39;xx&#39;" in page
    assert 'href="/daily/it"' in page and "Italiano" in page


@pytest.mark.parametrize(
    "seed, message", [("A" * 65, "at most 64 characters"), ("..", "only dots"), ("a%01b", "control characters")]
)
def test_bad_seeds_are_refused_with_a_message(client, seed, message):
    response = client.get(f"/play/en/{seed}")
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_a_seed_with_markup_is_shown_escaped(client):
    response = client.get("/play/en/%3Cimg%20src=x%20onerror=alert(1)%3E", follow_redirects=True)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<IMG" not in page and "&lt;IMG SRC=X ONERROR=ALERT(1)&gt;" in page


def test_unknown_page_and_wrong_method_get_friendly_pages(client):
    missing = client.get("/nothing/here")
    assert missing.status_code == 404 and "Back to the start page" in missing.get_data(as_text=True)
    assert "There is no page at this address" in missing.get_data(as_text=True)
    wrong = client.get(WORDS)
    assert wrong.status_code == 405 and "Back to the start page" in wrong.get_data(as_text=True)
    assert "use the buttons and links on the pages" in wrong.get_data(as_text=True)


def test_a_refusal_reads_as_a_sentence_under_a_plain_title(client):
    page = client.get(BOARD + "?size=99x99").get_data(as_text=True)
    assert '<h1 class="result-title">That does not work</h1>' in page
    assert '<p class="result-message">A board has 1 to 12 rows and columns, not 99x99.</p>' in page


# --- submitting words ------------------------------------------------------------------------------------


def test_traced_word_shows_its_path_in_order_and_its_breakdown(client, app):
    client.get(BOARD)
    solution = solution_of(app)
    word = solution[0]
    response = client.post(WORDS, data={"path": path_text(word.path)}, headers=HTMX)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.startswith('\n<section id="result"') or page.lstrip().startswith('<section id="result"')
    assert result_path(page) == list(word.path)
    breakdown = score_breakdown(solution.board, word.path)
    assert f'<span class="breakdown-total">{breakdown.total} points</span>' in page
    for letter in breakdown.letters:
        assert f'<tr><th scope="row">{letter.letter}</th><td>{letter.value}</td>' in page
    assert 'id="score" class="score-box" hx-swap-oob="true"' in page
    assert f'<strong class="score">{word.score:,}</strong>' in page
    assert '<template class="found-item" data-before="">' in page and f">{word.word}</a>" in page


def test_typed_word_scores_its_best_path(client, app):
    client.get(BOARD)
    word = solution_of(app)[1]
    page = client.post(WORDS, data={"word": word.word.lower()}, headers=HTMX).get_data(as_text=True)
    assert result_path(page) == list(word.path)
    assert f'<strong class="score">{word.score:,}</strong>' in page


def test_score_adds_up_over_the_round(client, app):
    client.get(BOARD)
    words = solution_of(app)[:5]
    for word in words:
        page = client.post(WORDS, data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    assert f'<strong class="score">{sum(w.score for w in words):,}</strong>' in page
    assert '<span class="count">5 words</span>' in page


def off_board_word(app, solution):
    """A dictionary word that is not on the board."""
    lexicon = app.extensions["ruzzle.lexicons"]["en"]
    return next(w for w in ("QUIZ", "JAZZ", "FJORD", "RHYTHM", "ZEPHYR") if w in lexicon and solution.find(w) is None)


@pytest.mark.parametrize(
    "word, message",
    [
        ("ZZXQ", "ZZXQ is not in the dictionary."),
        ("A", "A word has at least 2 letters."),
        ("   ", "Type a word, or trace one on the board."),
        ("CAT3", "A word is made of letters only"),
        ("ABCDEFGHIJKLMNOPQ", "A word on this board has at most 16 letters."),
    ],
)
def test_typed_refusals_say_why(client, word, message):
    client.get(BOARD)
    response = client.post(WORDS, data={"word": word}, headers=HTMX)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'class="result result-refused"' in page and message in page


def test_a_word_not_on_the_board_is_refused_as_such(client, app):
    client.get(BOARD)
    word = off_board_word(app, solution_of(app))
    page = client.post(WORDS, data={"word": word}, headers=HTMX).get_data(as_text=True)
    assert f"{word} is a word, but it is not on this board." in page


def test_a_word_counts_once(client, app):
    client.get(BOARD)
    word = solution_of(app)[0]
    client.post(WORDS, data={"word": word.word}, headers=HTMX)
    again = client.post(WORDS, data={"path": path_text(word.path)}, headers=HTMX).get_data(as_text=True)
    assert f"{word.word} is already found." in again
    assert f'<strong class="score">{word.score:,}</strong>' in again


def test_a_refused_word_leaves_no_garbage_cycle(client, app):
    """A refused word's answer is freed when it is sent: a kept exception's traceback would hold the request's frames
    (its form, its response) in a cycle that only the cyclic collector frees, for every refused word."""
    client.get(BOARD)
    word = solution_of(app)[0].word
    client.post(WORDS, data={"word": word}, headers=HTMX)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # (what the collector would free is kept in gc.garbage to be looked at)
    try:
        for refused in (word, "QQQQ", "CAT3"):
            assert "result-refused" in client.post(WORDS, data={"word": refused}, headers=HTMX).get_data(as_text=True)
        gc.collect()
        cycles = [type(kept).__name__ for kept in gc.garbage if isinstance(kept, (BaseException, types.FrameType))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert cycles == []


def test_a_traced_non_word_is_refused(client, app):
    client.get(BOARD)
    solution = solution_of(app)
    board = solution.board
    words = {found.word for found in solution}
    path = next(((0, c), (0, c + 1)) for c in range(3) if board[(0, c)].letter + board[(0, c + 1)].letter not in words)
    page = client.post(WORDS, data={"path": path_text(path)}, headers=HTMX).get_data(as_text=True)
    assert "is not in the dictionary" in page


@pytest.mark.parametrize(
    "path, message",
    [
        ("0,0 2,2", "are not neighbours"),
        ("0,0 0,1 0,0", "only once"),
        ("0,0 0,1 4,1", "is not on this 4x4 board"),
        ("0,0 9999,9999", "is not on this 4x4 board"),
        ("zero,one two", "row,column"),
        ("0,0;0,1", "row,column"),
        ("0,0 " * 17, "at most 16 tiles"),
        ("0,0", "at least 2 tiles"),
    ],
)
def test_forged_paths_get_a_4xx_that_says_why(client, path, message):
    client.get(BOARD)
    response = client.post(WORDS, data={"path": path}, headers=HTMX)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_without_javascript_a_word_redirects_back_with_a_message(client, app):
    client.get(BOARD)
    word = solution_of(app)[0]
    response = client.post(WORDS, data={"word": word.word})
    assert response.status_code == 303 and response.location == BOARD
    page = client.get(BOARD).get_data(as_text=True)
    assert f"{word.word}: {word.score} points." in page
    assert f'<strong class="score">{word.score:,}</strong>' in page


def test_without_javascript_a_refusal_redirects_back_with_the_reason(client):
    client.get(BOARD)
    response = client.post(WORDS, data={"word": "ZZXQ"})
    assert response.status_code == 303
    assert "ZZXQ is not in the dictionary" in client.get(BOARD).get_data(as_text=True)


def test_oversized_request_body_is_refused(client):
    response = client.post(WORDS, data={"word": "A" * 100_000}, headers=HTMX)
    assert response.status_code == 413
    assert "Too much sent" in response.get_data(as_text=True)


# --- the round -------------------------------------------------------------------------------------------


def test_round_survives_a_reload_and_keeps_its_deadline(client, app, clock):
    client.get(BOARD)
    word = solution_of(app)[0]
    client.post(WORDS, data={"word": word.word}, headers=HTMX)
    clock.advance(50)
    page = client.get(BOARD).get_data(as_text=True)
    assert f'<strong class="score">{word.score:,}</strong>' in page
    assert 'data-remaining="70.000"' in page


def test_word_after_the_deadline_is_refused_and_the_summary_shows(client, app, clock):
    client.get(BOARD + "?time=30")
    word = solution_of(app)[0]
    clock.advance(30 + 2.5)  # past the deadline and its 2-second grace
    response = client.post(WORDS + "?time=30", data={"word": word.word}, headers=HTMX)
    page = response.get_data(as_text=True)
    assert response.headers["HX-Retarget"] == "#game"
    assert "Time is up: this round is over." in page and "Round over" in page
    assert '<p class="summary-score"><strong>0</strong> points</p>' in page


def test_word_within_the_grace_still_counts(client, app, clock):
    client.get(BOARD + "?time=30")
    word = solution_of(app)[0]
    clock.advance(31)
    page = client.post(WORDS + "?time=30", data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    assert f'<strong class="score">{word.score:,}</strong>' in page


def test_summary_gives_score_share_best_longest_and_missed(client, app, clock):
    client.get(BOARD + "?time=60")
    solution = solution_of(app)
    mine = [solution[3], solution[len(solution) - 1]]
    for word in mine:
        client.post(WORDS + "?time=60", data={"word": word.word}, headers=HTMX)
    clock.advance(61)
    page = client.get(BOARD + "?time=60").get_data(as_text=True)
    assert "Round over" in page
    total = sum(w.score for w in mine)
    assert f'<p class="summary-score"><strong>{total}</strong> points</p>' in page
    assert f"2 of {len(solution)} words found ({round(200 / len(solution))}%)" in page
    common = common_words("en")
    common_total = sum(w.word in common for w in solution)
    common_found = sum(w.word in common for w in mine)
    assert 0 < common_total < len(solution)  # the board has common and rare words
    assert f"{common_found} of the {common_total} common words ({round(100 * common_found / common_total)}%)" in page
    assert f">{mine[0].word}</a> ({mine[0].score})" in page  # best word
    missed = [w.word for w in solution if w not in mine][:10]
    listed = re.findall(r'<ol class="word-list missed">(.*?)</ol>', page, re.S)[0]
    assert re.findall(r">([A-Z]+)</a>", listed) == missed
    assert "Play this board again" in page and "New board" in page


def test_missed_word_path_is_shown_after_the_round_but_not_during_it(client, app):
    client.get(BOARD)
    missed = solution_of(app)[0]
    during = client.get(f"{BOARD}/words/{missed.word}", headers=HTMX)
    assert during.status_code == 403 and "Finish the round (or give up)" in during.get_data(as_text=True)
    client.post(BOARD + "/round", data={"action": "give-up"})
    after = client.get(f"{BOARD}/words/{missed.word}", headers=HTMX)
    assert after.status_code == 200
    assert result_path(after.get_data(as_text=True)) == list(missed.path)


@pytest.mark.parametrize(
    "back, location",
    [
        ("/play/en/TESTS2/projector?step=3", "/play/en/TESTS2/projector?step=3"),
        ("//evil.example/", "/play/en/TESTS2"),
        ("https://evil.example/", "/play/en/TESTS2"),
        ("/\\evil.example", "/play/en/TESTS2"),
        # a browser drops tabs and line breaks from a URL, so these are "//evil.example" (a line break was also a 500)
        ("/\t/evil.example", "/play/en/TESTS2"),
        ("/\r\n/evil.example", "/play/en/TESTS2"),
    ],
)
def test_ending_a_round_for_the_projector_goes_back_only_to_a_page_of_this_site(client, back, location):
    client.get(BOARD)
    answer = client.post(BOARD + "/round", data={"action": "give-up", "next": "projector", "back": back})
    assert (answer.status_code, answer.headers["Location"]) == (303, location)


@pytest.mark.parametrize(
    "target, kept",
    [
        ("/", True),
        ("/play/en/K7M2QX?size=5x5", True),
        ("/play/en/HELLO WORLD", True),
        ("", False),
        (None, False),
        ("play/en", False),
        ("//evil.example", False),
        ("/\\evil.example", False),
        ("https://evil.example", False),
        ("/\t/evil.example", False),
        ("/\n/x", False),
        ("/x\x7f", False),
    ],
)
def test_a_redirect_stays_on_this_site(target, kept):
    assert same_site_path(target) == (target if kept else None)


def test_unknown_word_page_is_a_404(client):
    client.get(BOARD)
    response = client.get(f"{BOARD}/words/NOTAWORDHERE")
    assert response.status_code == 404 and "not one of this board" in response.get_data(as_text=True)


def test_play_again_starts_a_fresh_round(client, app, clock):
    client.get(BOARD)
    client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX)
    clock.advance(10)
    response = client.post(BOARD + "/round", data={"action": "again"})
    assert response.status_code == 303 and response.location == BOARD
    page = client.get(BOARD).get_data(as_text=True)
    assert '<strong class="score">0</strong>' in page and 'data-remaining="120.000"' in page


def test_bad_round_action_is_refused(client):
    response = client.post(BOARD + "/round", data={"action": "cheat"})
    assert response.status_code == 400 and "again" in response.get_data(as_text=True)


def test_untimed_round_never_ends(client, app, clock):
    client.get(BOARD + "?time=0")
    clock.advance(10 * 24 * 3600)
    word = solution_of(app)[0]
    page = client.post(WORDS + "?time=0", data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    assert f'<strong class="score">{word.score:,}</strong>' in page


def test_each_board_url_has_its_own_round(client, app):
    client.get(BOARD)
    client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX)
    other = client.get(BOARD + "?size=5x5").get_data(as_text=True)
    assert '<strong class="score">0</strong>' in other
    back = client.get(BOARD).get_data(as_text=True)
    assert f'<strong class="score">{solution_of(app)[0].score:,}</strong>' in back


def test_tampered_cookie_starts_a_fresh_round_with_a_message(client, app):
    client.get(BOARD)
    client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX)
    cookie = client.get_cookie("session")
    client.set_cookie("session", cookie.value[:-3] + ("AAA" if not cookie.value.endswith("AAA") else "BBB"))
    response = client.get(BOARD)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "could not be read" in page and '<strong class="score">0</strong>' in page


def test_garbage_cookie_is_not_a_500(client):
    client.set_cookie("session", "x" * 3000)
    response = client.post(WORDS, data={"word": "TEST"}, headers=HTMX)
    assert response.status_code == 200


def test_challenge_link_shows_the_score_to_beat(client, app):
    page = client.get(BOARD + "?challenge=1234").get_data(as_text=True)
    assert "A friend scored <strong>1,234</strong> on this board" in page  # numbers in the language's format
    client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX)
    score = solution_of(app)[0].score
    share = client.get(BOARD).get_data(as_text=True)
    assert f'href="http://localhost/play/en/TESTS2?challenge={score}">beat {score} on this board</a>' in share


@pytest.mark.parametrize(
    "margin, says",
    [(-12, "12 short of {challenge}."), (0, "You tied with {challenge}."), (44, "You beat {challenge} by 44!")],
)
def test_the_summary_compares_the_score_with_the_challenge(client, app, margin, says):
    """Ending the round from a challenge link keeps the challenge: the summary says how the player did, offers a
    link to challenge back with their own score, and the banner asking to beat it is gone."""
    word = solution_of(app)[0]
    challenge = word.score - margin
    client.get(f"{BOARD}?challenge={challenge}")
    client.post(f"{WORDS}?challenge={challenge}", data={"word": word.word}, headers=HTMX)
    ended = client.post(BOARD + "/round", data={"action": "give-up", "challenge": str(challenge)})
    assert ended.status_code == 303 and ended.headers["Location"] == f"{BOARD}?challenge={challenge}"
    summary = client.get(ended.headers["Location"]).get_data(as_text=True)
    assert says.format(challenge=challenge) in summary
    assert f'<a href="http://localhost{BOARD}?challenge={word.score}">Challenge back with {word.score}</a>' in summary
    assert "A friend scored" not in summary


def test_a_word_that_ends_the_round_keeps_the_challenge_for_the_summary(client, app, clock):
    """The time-up answer to a word replaces the game with the summary: it compares with the challenge too."""
    client.get(f"{BOARD}?time=30&challenge=5")
    clock.advance(33)
    page = client.post(f"{WORDS}?time=30&challenge=5", data={"word": solution_of(app)[0].word}, headers=HTMX).get_data(
        as_text=True
    )
    assert "Round over" in page and "5 short of 5." in page


def test_a_nonsense_challenge_is_ignored(client):
    page = client.get(BOARD + "?challenge=%3Cb%3E").get_data(as_text=True)
    assert "A friend scored" not in page


# --- standards -------------------------------------------------------------------------------------------


def test_security_headers(client):
    response = client.get(BOARD)
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "HX-Request" in response.headers["Vary"]
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_no_inline_script_or_style_in_pages(client, app):
    pages = [
        client.get(url)
        for url in (
            "/",
            BOARD,
            "/play/xx/A",
            BOARD + "/projector?step=1",
            "/solve",
            "/solve/en/TtlRSNdl-OdwHtwEI-CdwINV-EtlADE?word=COHESIVE",
        )
    ]
    client.post(BOARD + "/round", data={"action": "give-up"})
    pages += [client.get(BOARD), client.get(BOARD + "/solution")]
    for response in pages:
        page = response.get_data(as_text=True)
        assert "style=" not in page
        assert not re.search(r"<script(?![^>]*\bsrc=)", page)
        assert not re.search(r"\son[a-z]+=", page)
        assert "hx-on" not in page


def test_htmx_is_configured_by_meta_tag(client):
    page = client.get("/").get_data(as_text=True)
    assert '"allowEval": false' in page and '"includeIndicatorStyles": false' in page
    assert '"historyRestoreAsHxRequest": false' in page
    assert re.search(r"/static/vendor/htmx-2\.0\.11\.min\.[0-9a-f]{12}\.js", page)


def test_history_restore_gets_the_whole_page(client):
    page = client.get(BOARD, headers={**HTMX, "HX-History-Restore-Request": "true"}).get_data(as_text=True)
    assert page.lstrip().startswith("<!doctype html>")


def test_htmx_board_refresh_gets_only_the_game(client):
    page = client.get(BOARD, headers=HTMX).get_data(as_text=True)
    assert page.lstrip().startswith('<div id="game"') and "<html" not in page


def test_static_urls_are_what_url_for_builds(app):
    from flask import url_for

    from views.pages import static_url

    files = services(app).static_files
    with app.test_request_context("/", environ_base={"SCRIPT_NAME": "/games"}):
        for name in ("css/ruzzle.css", "js/word_queue.js", "vendor/htmx-2.0.11.min.js", "favicon.svg"):
            assert static_url(name) == url_for("static", filename=files.name(name)) != url_for("static", filename=name)


# --- the classroom filter ----------------------------------------------------------------------------------


@pytest.fixture
def board_with_a_blocked_word(app):
    """The first seeded board whose full solution holds a word of the English blocklist, and that word."""
    from ruzzle import blocked_words

    blocked = blocked_words("en")
    for n in range(1, 2000):
        seed = f"F{n}"
        words = [found for found in solution_of(app, seed=seed, safe=False) if found.word in blocked]
        if words:
            return seed, words[0]
    raise AssertionError("no board among 2000 seeds holds a blocked word")


def test_classroom_filter_is_on_by_default(client, app, board_with_a_blocked_word):
    seed, word = board_with_a_blocked_word
    client.get(f"/play/en/{seed}")
    page = client.post(f"/play/en/{seed}/words", data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    traced = client.post(f"/play/en/{seed}/words", data={"path": path_text(word.path)}, headers=HTMX)
    for answer in (page, traced.get_data(as_text=True)):
        # refused without being echoed: the page does not show the word back in big letters
        assert "That word is not allowed on a classroom board." in answer
        assert word.word not in answer.split('id="result"')[1].split("</section>")[0]
    client.post(f"/play/en/{seed}/round", data={"action": "give-up"})
    solution_page = client.get(f"/play/en/{seed}/solution").get_data(as_text=True)
    assert f'id="w-{word.word}"' not in solution_page


def test_classroom_filter_can_be_turned_off_per_board(client, app, board_with_a_blocked_word):
    seed, word = board_with_a_blocked_word
    assert "classroom filter off" in client.get(f"/play/en/{seed}?safe=0").get_data(as_text=True)
    page = client.post(f"/play/en/{seed}/words?safe=0", data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    assert f'<span class="breakdown-total">{word.score} points</span>' in page


def test_start_page_can_turn_the_filter_off_for_a_new_board(client):
    assert client.get("/new?language=en&seed=abc&safe=1").location == "/play/en/ABC?gen=2"
    assert client.get("/new?language=en&seed=abc&safe=0").location == "/play/en/ABC?gen=2&safe=0"


def test_secret_key_is_made_once_into_the_instance_folder_and_shared(tmp_path, monkeypatch):
    from views.settings import instance_secret_key

    monkeypatch.delenv("RUZZLE_SECRET_KEY", raising=False)
    first = instance_secret_key(tmp_path / "instance")
    second = instance_secret_key(tmp_path / "instance")  # another worker, or a restart
    assert first == second and len(first) == 64
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o777 == 0o600
    assert instance_secret_key(tmp_path / "other") != first


def test_words_are_marked_with_the_board_language(client, app):
    """The page is English, the words are not: screen readers read an Italian word as Italian."""
    word = solution_of(app, language="it", seed="LINGUA")[0]
    page = client.get("/play/it/LINGUA").get_data(as_text=True)
    assert '<table id="board" class' in page  # tile names are English sentences: the board keeps the page's lang
    answer = client.post("/play/it/LINGUA/words", data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    assert f'<span class="breakdown-word" lang="it">{word.word}</span>' in answer
    assert 'lang="it" hx-get=' in answer.split('class="found-item"')[1]
    teacher = app.test_client()  # the player's own solution stays hidden while the round runs
    solution = teacher.get("/play/it/LINGUA/solution").get_data(as_text=True)
    assert f'<a id="w-{word.word}" lang="it"' in solution
    projector = teacher.get("/play/it/LINGUA/projector?step=1").get_data(as_text=True)
    assert f'<p class="walk-word"><span lang="it">{word.word}</span>' in projector


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://elsewhere.example"}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}],
    ids=["other-origin", "null", "fetch-site"],
)
def test_a_post_from_another_site_is_refused(client, app, headers):
    client.get(BOARD)
    word = solution_of(app)[0]
    refused = client.post(WORDS, data={"word": word.word}, headers={**HTMX, **headers})
    assert refused.status_code == 403 and "sent from another site" in refused.get_data(as_text=True)
    taken = client.post(
        WORDS, data={"word": word.word}, headers={**HTMX, "Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    )
    assert taken.status_code == 200 and f'<strong class="score">{word.score:,}</strong>' in taken.get_data(as_text=True)


def outcome_of(response) -> dict:
    """What the answer states of the word (the page's script reads this, not the HTML)."""
    return json.loads(response.headers["HX-Trigger"])["ruzzle:word"]


def test_each_answer_to_a_word_states_its_outcome_for_the_script(client, app, clock):
    """The script learns what became of a word from the answer's HX-Trigger, never by reading its HTML: found with
    its points, refused with the reason and the sentence the page shows, too late once the round is over."""
    client.get(BOARD)
    solution = solution_of(app)
    word = solution[0]
    found = client.post(WORDS, data={"path": path_text(word.path)}, headers=HTMX)
    assert outcome_of(found) == {"outcome": "found", "points": word.score}
    assert f'<span class="breakdown-total">{word.score} points</span>' in found.get_data(as_text=True)
    again = outcome_of(client.post(WORDS, data={"word": word.word}, headers=HTMX))
    assert again == {"outcome": "refused", "reason": "already-found", "message": f"{word.word} is already found."}
    assert (
        outcome_of(client.post(WORDS, data={"word": "ZZXQ"}, headers=HTMX))["message"]
        == "ZZXQ is not in the dictionary."
    )
    forged = client.post(WORDS, data={"path": "0,0 2,2"}, headers=HTMX)
    assert forged.status_code == 422 and outcome_of(forged)["outcome"] == "refused"
    assert "are not neighbours" in outcome_of(forged)["message"]
    clock.advance(10_000)
    late = client.post(WORDS, data={"word": solution[1].word}, headers=HTMX)
    assert outcome_of(late)["outcome"] == "too-late" and late.headers["HX-Retarget"] == "#game"


def test_a_word_refused_by_an_error_page_states_it_too(client):
    """A word sent to a board that cannot be (a 4xx page) is a refusal with the page's sentence."""
    response = client.post("/play/xx/TESTS2/words?size=4x4", data={"word": "CAT"}, headers=HTMX)
    assert response.status_code == 404
    detail = outcome_of(response)
    assert detail["outcome"] == "refused" and detail["message"] in html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("mimetype", ["application/json", "text/html"])
def test_an_answer_that_read_the_players_cookie_varies_on_it_once(mimetype):
    """Vary names Cookie once for any answer that read the session (views.security writes the header whole)."""
    from flask import Response, session

    from app import create_app

    app = create_app({"SECRET_KEY": "tests", "DATABASE_URL": "sqlite://", "TESTING": True})

    @app.get("/probe")
    def probe() -> Response:
        return Response(f"{session.get('player')}", mimetype=mimetype)

    vary = app.test_client().get("/probe").headers.getlist("Vary")
    assert len(vary) == 1
    named = [part.strip() for part in vary[0].split(",")]
    assert "HX-Request" in named and named.count("Cookie") == 1
