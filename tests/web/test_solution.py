"""The solution explorer, the projector and typed boards, through the Flask client."""

from __future__ import annotations

import re

import pytest
import segno
from flask import request

from ruzzle import Board, solve, sort_found
from views.solution import WORDS_PER_PAGE, WordQuery
from views.translations import LANGUAGE_COOKIE

from .conftest import HTMX, cells_in_order, solution_of
from .helpers import qr_matrix_from_svg

BOARD = "/play/en/TESTS2"
SOLUTION = BOARD + "/solution"
DEMO_CODE = "TtlRSNdl-OdwHtwEI-CdwINV-EtlADE"  # the English demo board from the real app


def listed_words(page: str) -> list[str]:
    """The words of the solution list, in the order shown."""
    table = re.search(r'<table class="word-table">.*?</table>', page, re.S).group()
    return re.findall(r'<a id="w-([A-Z]+)"', table)


# --- the solution explorer --------------------------------------------------------------------------------


def test_statistics_are_the_solvers(client, app):
    page = client.get(SOLUTION).get_data(as_text=True)
    solution = solution_of(app)
    assert f'<dd id="stat-words">{len(solution)}</dd>' in page
    assert f'<dd id="stat-total">{sum(f.score for f in solution):,} points</dd>' in page  # the language's format
    longest = max(solution, key=lambda f: (len(f.word), f.score))
    assert f'<span lang="en">{longest.word}</span> ({len(longest.word)})' in page
    for length in {len(f.word) for f in solution}:
        count = sum(len(f.word) == length for f in solution)
        assert f'<span class="length">{length}</span> letters: <strong>{count}</strong>' in page


@pytest.mark.parametrize(
    "sort, key",
    [
        ("score", lambda f: (-f.score, f.word)),
        ("length", lambda f: (-len(f.word), -f.score, f.word)),
        ("alpha", lambda f: f.word),
        ("start", lambda f: (f.path[0], -f.score, f.word)),
        ("end", lambda f: (f.path[-1], -f.score, f.word)),
    ],
)
def test_every_sort_order_follows_its_rule(client, app, sort, key):
    page = client.get(f"{SOLUTION}?sort={sort}").get_data(as_text=True)
    assert listed_words(page) == [f.word for f in sorted(solution_of(app), key=key)]


@pytest.mark.parametrize("cell", [(0, 0), (1, 2), (3, 3)])
def test_cell_filter_lists_exactly_the_words_through_that_cell(client, app, cell):
    page = client.get(f"{SOLUTION}?cell={cell[0]},{cell[1]}").get_data(as_text=True)
    through = {f.word for f in solution_of(app) if cell in f.path}
    assert set(listed_words(page)) == through and len(listed_words(page)) == len(through)
    assert 'class="tile marked"' in page or 'marked"' in page


def test_prefix_filter_and_sort_combine(client, app):
    solution = solution_of(app)
    prefix = solution[0].word[:2]
    page = client.get(f"{SOLUTION}?prefix={prefix.lower()}&sort=alpha").get_data(as_text=True)
    assert listed_words(page) == sorted(f.word for f in solution if f.word.startswith(prefix))


def test_opening_a_word_draws_its_path_and_breakdown(client, app):
    word = solution_of(app)[5]
    response = client.get(f"{SOLUTION}?word={word.word}", headers={**HTMX, "HX-Target": "solution_word"})
    page = response.get_data(as_text=True)
    assert page.lstrip().startswith('<section id="solution_word"')
    assert f'<span class="breakdown-total">{word.score} points</span>' in page
    assert 'id="solution_board" class="board-frame" hx-swap-oob="true"' in page
    assert cells_in_order(page) == list(word.path)


def test_changing_the_list_swaps_the_list(client):
    page = client.get(f"{SOLUTION}?sort=length", headers={**HTMX, "HX-Target": "solution_words"}).get_data(as_text=True)
    assert page.lstrip().startswith('<section id="solution_words"') and "<html" not in page


@pytest.mark.parametrize(
    "query, message",
    [
        ("sort=random", "The words sort by"),
        ("cell=9,9", "A cell is row,column"),
        ("cell=x", "A cell is row,column"),
        ("prefix=a1", "letters only"),
    ],
)
def test_bad_list_parameters_are_refused(client, query, message):
    response = client.get(f"{SOLUTION}?{query}")
    assert response.status_code == 400 and message in response.get_data(as_text=True)


# --- long lists, in pages ---------------------------------------------------------------------------------

BIG = "/play/es/BENCH2/solution?size=12x12"  # a Spanish 12x12 board: some 4,900 words, ten pages


def test_a_12x12_solution_page_stays_small(client, app):
    solution = solution_of(app, "es", "BENCH2", "12x12")
    assert len(solution) > 2 * WORDS_PER_PAGE  # the board needs pages at all
    client.set_cookie(LANGUAGE_COOKIE, "en")  # a player who chose English, on a Spanish board
    page = client.get(BIG).get_data(as_text=True)
    assert len(page.encode()) < 300_000
    assert listed_words(page) == [f.word for f in sort_found(solution, "score")][:WORDS_PER_PAGE]
    assert f"{len(solution):,} of {len(solution):,} words; 1 to {WORDS_PER_PAGE} shown" in page
    assert f'<dd id="stat-words">{len(solution):,}</dd>' in page  # the statistics count every word


def more_words(client, url: str) -> tuple[list[str], str | None]:
    """The rows a "show more" click adds, and the URL of the next click (None on the last page)."""
    fragment = client.get(url, headers={**HTMX, "HX-Target": "more_words"}).get_data(as_text=True)
    assert "<html" not in fragment and "solution_board" not in fragment
    more = re.search(r'<tr id="more_words".*?hx-get="([^"]+)"', fragment)
    return re.findall(r'<a id="w-([A-Z]+)"', fragment), more and more.group(1).replace("&amp;", "&")


@pytest.mark.parametrize("query", ["sort=alpha", "sort=end&prefix=c", "cell=5,5&sort=length"])
def test_showing_more_words_page_after_page_lists_every_word_in_order(client, app, query):
    solution = solution_of(app, "es", "BENCH2", "12x12")
    page = client.get(f"{BIG}&{query}").get_data(as_text=True)
    words = listed_words(page)
    more = re.search(r'<tr id="more_words".*?hx-get="([^"]+)"', page)
    url = more and more.group(1).replace("&amp;", "&")
    while url:
        rows, url = more_words(client, url)
        words += rows
    with app.test_request_context(f"{BIG}&{query}"):  # the whole list as the query defines it
        wanted = [f.word for f in WordQuery.from_args(request.args, solution.board).words(solution)]
    assert words == wanted and len(wanted) > 0


def test_an_opened_word_shows_the_page_it_is_on(client, app):
    ordered = sort_found(solution_of(app, "es", "BENCH2", "12x12"), "score")
    word = ordered[WORDS_PER_PAGE + 7].word
    client.set_cookie(LANGUAGE_COOKIE, "en")
    page = client.get(f"{BIG}&word={word}").get_data(as_text=True)
    assert listed_words(page) == [f.word for f in ordered[WORDS_PER_PAGE : 2 * WORDS_PER_PAGE]]
    assert f'aria-current="true"><th scope="row"><a id="w-{word}"' in page
    assert "Previous words</a>" in page


@pytest.mark.parametrize(
    "query, status, message",
    [
        ("page=0", 400, "A page of the word list is a whole number"),
        ("page=x", 400, "A page of the word list"),
        ("page=99", 404, "This list has {words} words, {pages} pages of 500: there is no page 99"),
    ],
)
def test_bad_pages_are_refused(client, app, query, status, message):
    words = len(solution_of(app, "es", "BENCH2", "12x12"))
    client.set_cookie(LANGUAGE_COOKIE, "en")
    response = client.get(f"{BIG}&{query}")
    expected = message.format(words=words, pages=-(-words // 500))
    assert response.status_code == status and expected in response.get_data(as_text=True)


def test_a_word_not_on_the_board_is_a_404(client):
    response = client.get(f"{SOLUTION}?word=QQQQ")
    assert response.status_code == 404 and "not one of this board" in response.get_data(as_text=True)


def test_solution_is_hidden_during_a_running_round(client):
    client.get(BOARD)
    locked = client.get(SOLUTION)
    assert locked.status_code == 403
    assert "still running" in locked.get_data(as_text=True)
    given_up = client.post(BOARD + "/round", data={"action": "give-up", "next": "solution"})
    assert given_up.status_code == 303 and given_up.location == SOLUTION
    assert client.get(SOLUTION).status_code == 200


def test_solution_after_the_round_marks_the_players_words(client, app, clock):
    client.get(BOARD)
    mine = solution_of(app)[2]
    client.post(BOARD + "/words", data={"word": mine.word}, headers=HTMX)
    clock.advance(200)
    page = client.get(SOLUTION).get_data(as_text=True)
    assert f'<tr class="word-found"><th scope="row"><a id="w-{mine.word}"' in page
    assert page.count('class="word-found"') == 1
    summary = client.get(BOARD).get_data(as_text=True)
    assert f'href="{SOLUTION}">See all words</a>' in summary


def test_opening_the_solution_first_ends_that_boards_round(client):
    assert client.get(SOLUTION).status_code == 200
    assert "Round over" in client.get(BOARD).get_data(as_text=True)


# --- typed boards -----------------------------------------------------------------------------------------


def test_typed_board_url_reproduces_the_board(client, app, english):
    page = client.get(f"/solve/en/{DEMO_CODE}").get_data(as_text=True)
    board = Board.from_code(DEMO_CODE, "en")
    cells = re.findall(
        r'<td data-cell="(\d+),(\d+)"[^>]*>\s*<button[^>]*>\s*'
        r'<span class="tile-letter">([A-Z])</span>',
        page,
    )
    assert [letter for _, _, letter in cells] == list(board.letters)
    for tile, (r, c, _) in zip(board.tiles, cells, strict=True):
        if tile.multiplier:
            assert re.search(rf'<td data-cell="{r},{c}" class="tile tile-{tile.multiplier.code}', page)
    assert set(listed_words(page)) <= {f.word for f in solve(board, english)}


def test_typed_grid_goes_to_the_boards_own_url(client):
    board = Board.from_code(DEMO_CODE, "en")
    args = {"language": "en", "size": "4x4"}
    for (r, c), tile in zip(board.cells(), board.tiles, strict=True):
        args[f"l{r}_{c}"] = tile.letter.lower()
        args[f"m{r}_{c}"] = tile.multiplier.code if tile.multiplier else ""
    response = client.get("/solve", query_string=args)
    assert response.status_code == 303 and response.location == f"/solve/en/{DEMO_CODE}"


def test_pasted_text_goes_to_the_boards_own_url(client):
    text = "Ttl R S Ndl\r\nOdw Htw E I\nCdw I N V\n\tEtl A D E  \n"
    response = client.get("/solve", query_string={"language": "en", "text": text})
    assert response.status_code == 303 and response.location == f"/solve/en/{DEMO_CODE}"


def test_bad_typed_cells_are_marked_where_they_are(client):
    response = client.get(
        "/solve", query_string={"size": "2x2", "l0_0": "A", "l0_1": "7", "l1_0": "", "l1_1": "ÉT", "m0_0": "xx"}
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "4 tiles need a fix" in page
    assert 'id="problem-0-0">the multiplier is DL, TL, DW, TW or none' in page
    assert 'id="problem-0-1">one letter A to Z' in page
    assert 'id="problem-1-0">type a letter' in page
    assert 'id="problem-1-1">one letter A to Z' in page
    assert page.count('aria-invalid="true"') == 4


@pytest.mark.parametrize(
    "text, message",
    [
        ("A B\nC", "line 2"),
        ("A B\nC 9", "line 2, column 3"),
        ("\n".join(" ".join("A" * 13) for _ in range(13)), "at most 12x12"),
    ],
)
def test_bad_pasted_boards_say_where(client, text, message):
    response = client.get("/solve", query_string={"text": text})
    assert response.status_code == 400 and message in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "code, status, message",
    [
        ("TtlR-S", 400, "Line 2"),
        ("T1", 400, "column 2"),
        ("A" * 500, 400, "at most 12x12"),
        ("-".join(["A" * 13] * 13), 400, "1 to 12 rows and columns"),
    ],
)
def test_bad_board_codes_are_refused(client, code, status, message):
    response = client.get(f"/solve/en/{code}")
    assert response.status_code == status and message in response.get_data(as_text=True)


def test_solve_form_offers_a_grid_of_the_chosen_size(client):
    page = client.get("/solve?size=5x5").get_data(as_text=True)
    assert page.count('class="typing-letter"') == 25


# --- the projector ----------------------------------------------------------------------------------------


def test_projector_qr_code_encodes_the_board_url(client):
    page = client.get(f"{BOARD}/projector?size=5x5").get_data(as_text=True)
    svg = re.search(r"<svg[^>]*class=\"qr\".*?</svg>", page, re.S).group()
    expected = segno.make("http://localhost/play/en/TESTS2?size=5x5", error="m")
    border = 4
    matrix = [[bool(v) for v in row] for row in expected.matrix]
    drawn = qr_matrix_from_svg(svg)
    trimmed = [row[border : border + len(matrix)] for row in drawn[border : border + len(matrix)]]
    assert trimmed == matrix


def test_projector_walks_through_the_words_best_first(client, app):
    solution = solution_of(app)
    for step in (1, 2, 3):
        page = client.get(f"{BOARD}/projector?step={step}", headers={**HTMX, "HX-Target": "walk"}).get_data(
            as_text=True
        )
        word = solution[step - 1]
        assert (
            f'<p class="walk-word"><span lang="en">{word.word}</span> <span class="walk-score">{word.score}</span></p>'
        ) in page
        assert cells_in_order(page) == list(word.path)


def test_projector_by_length_and_without_scores(client, app):
    longest = sort_found(solution_of(app), "length")[0]
    page = client.get(f"{BOARD}/projector?step=1&order=length&scores=0").get_data(as_text=True)
    assert f'<p class="walk-word"><span lang="en">{longest.word}</span></p>' in page and "breakdown-line" not in page


def test_projector_themes(client):
    assert 'class="projector-html theme-dark"' in client.get(f"{BOARD}/projector?theme=dark").get_data(as_text=True)
    assert 'class="projector-html theme-light"' in client.get(f"{BOARD}/projector").get_data(as_text=True)


@pytest.mark.parametrize("query, message", [("step=x", "whole number"), ("order=random", "walk-through goes")])
def test_bad_projector_parameters_are_refused(client, query, message):
    response = client.get(f"{BOARD}/projector?{query}")
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_typed_board_projector_links_to_its_solution(client):
    page = client.get(f"/solve/en/{DEMO_CODE}/projector").get_data(as_text=True)
    assert f"http://localhost/solve/en/{DEMO_CODE}" in page
