"""The solver: every word once, with its best path; checked by hand and against brute force."""

import pytest
from conftest import LANGUAGE_CODES, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from ruzzle import Board, Lexicon, Tile, score_path, solve, sort_found, validate_path
from ruzzle.generator import LATEST_VERSION, generate, richness_words
from ruzzle.rules import Multiplier
from ruzzle.scoring import spell
from ruzzle.solver import count_words


def words(found):
    return {f.word: (f.score, f.path) for f in found}


def test_finds_each_word_once_with_its_best_path(tiny):
    board = Board.parse("T Edw\nA S")
    found = words(solve(board, tiny))
    assert set(found) == {"AT", "TEA", "EAT", "ATE", "SEAT", "EAST", "EATS", "TEAS", "SAT", "SET"}
    assert found["EAT"] == (6, ((0, 1), (1, 0), (0, 0)))  # (1 + 1 + 1) x 2: every path uses the DW


def test_tie_goes_to_smallest_path():
    board = Board.parse("A T A")
    found = words(solve(board, Lexicon.from_words(["at"])))
    assert found["AT"] == (2, ((0, 0), (0, 1)))  # (0,2)->(0,1) scores the same but comes later


def test_best_path_beats_an_earlier_cheaper_one():
    board = Board.parse("A T Adw")
    found = words(solve(board, Lexicon.from_words(["at"])))
    assert found["AT"] == (4, ((0, 2), (0, 1)))


def test_words_need_two_letters_and_a_path():
    board = Board.parse("A X T")  # A and T are not neighbours
    found = solve(board, Lexicon.from_words(["a", "at", "ax"]))
    assert [(f.word, f.path) for f in found] == [("AX", ((0, 0), (0, 1)))]


def test_a_one_cell_board_has_no_words():
    assert solve(Board.parse("A"), Lexicon.from_words(["a", "aa"])) == []


def test_the_english_demo_board(english, en_demo):
    found = solve(en_demo, english)
    assert found[0].word == "COHESIVE" and found[0].score == 224
    assert len(found) >= 200
    for f in found:
        assert spell(en_demo, validate_path(en_demo, f.path)) == f.word
        assert score_path(en_demo, f.path) == f.score


def test_sort_orders(english, en_demo):
    found = solve(en_demo, english)
    by = {order: sort_found(found, order) for order in ("score", "length", "start", "end", "alpha")}
    assert [f.score for f in by["score"]] == sorted((f.score for f in found), reverse=True)
    assert [len(f.word) for f in by["length"]] == sorted((len(f.word) for f in found), reverse=True)
    assert [f.path[0] for f in by["start"]] == sorted(f.path[0] for f in found)
    assert [f.path[-1] for f in by["end"]] == sorted(f.path[-1] for f in found)
    assert [f.word for f in by["alpha"]] == sorted(f.word for f in found)
    assert sort_found(found, "score", reverse=True) == by["score"][::-1]


def test_a_large_board_is_solved_like_its_parts(english, en_demo):
    # The demo board tiled 3x3: every word of the demo board is there, and nothing scores less.
    rows = [[str(en_demo[r % 4, c % 4]) for c in range(12)] for r in range(12)]
    tiled = solve(Board.from_rows(rows), english)
    small = words(solve(en_demo, english))
    big = words(tiled)
    assert set(small) <= set(big)
    assert all(big[word][0] >= score for word, (score, _) in small.items())
    for f in tiled:
        assert score_path(Board.from_rows(rows), f.path) == f.score


# --- property tests against a brute-force enumeration -------------------------------------------------

LETTERS = "AEST"
tiles = st.builds(Tile, st.sampled_from(LETTERS), st.one_of(st.none(), st.sampled_from(list(Multiplier))))


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return Board(rows, cols, tuple(draw(st.lists(tiles, min_size=rows * cols, max_size=rows * cols))))


lexicons = st.lists(st.text(LETTERS, min_size=2, max_size=5), min_size=1, max_size=60)


def brute_force(board, word_list):
    """Every simple path up to the longest word, spelled and scored; best per word, ties to the smallest."""
    wanted = set(word_list)
    longest = max(map(len, wanted))
    best = {}

    def walk(path):
        word = spell(board, path)
        if len(path) >= 2 and word in wanted:
            candidate = (-score_path(board, path), tuple(path))
            best[word] = min(best.get(word, candidate), candidate)
        if len(path) < longest:
            for cell in board.neighbours(path[-1]):
                if cell not in path:
                    walk(path + [cell])

    for cell in board.cells():
        walk([cell])
    return {word: (-negative, path) for word, (negative, path) in best.items()}


@settings(max_examples=examples(300))
@given(boards(), lexicons)
def test_solver_agrees_with_brute_force(board, word_list):
    found = solve(board, Lexicon.from_words(word_list))
    assert words(found) == brute_force(board, word_list)
    assert len(found) == len({f.word for f in found})
    for f in found:
        cells = validate_path(board, f.path)  # adjacent, on the board, no tile twice
        assert spell(board, cells) == f.word


@settings(max_examples=examples(300))
@given(boards(), lexicons)
def test_counting_the_words_finds_as_many_as_brute_force(board, word_list):
    assert count_words(board, Lexicon.from_words(word_list)) == len(brute_force(board, word_list))


@pytest.mark.parametrize("language", LANGUAGE_CODES)
def test_counting_the_words_of_generated_boards_agrees_with_the_solver(language):
    """The generator's count (ruzzle.solver.count_words, a search of its own) on the boards it draws, each as rich as
    the solver says, with the generator's own word list and the whole dictionary."""
    lexicons = (Lexicon.builtin(language), richness_words(LATEST_VERSION, language))
    for seed in ("COUNT1", "COUNT2", "COUNT3"):
        board = generate(language, seed, 5, 5, version=LATEST_VERSION)
        for lexicon in lexicons:
            assert count_words(board, lexicon) == len(solve(board, lexicon)) > 0
