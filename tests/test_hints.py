"""Hints: the Spelling Bee grid of the words a player has left on a board, and a reveal with its cost."""

from __future__ import annotations

import pytest
from conftest import DEMO, LANGUAGE_CODES

from ruzzle import Board, Lexicon, common_words
from ruzzle.game import Solution
from ruzzle.hints import hint_grid, next_reveal, reveal_cost
from ruzzle.solver import Found


@pytest.fixture(scope="module", params=LANGUAGE_CODES)
def demo_solution(request) -> Solution:
    """A real board of each language, solved with its built-in dictionary."""
    board = Board.parse((DEMO / f"{request.param}.board").read_text(), language=request.param)
    return Solution.of(board, Lexicon.builtin(request.param))


def counted(words: list[str]) -> tuple[dict[tuple[str, int], int], dict[str, int]]:
    """By first letter and length, and by first two letters: counted one word at a time, as a person would."""
    grid: dict[tuple[str, int], int] = {}
    starts: dict[str, int] = {}
    for word in words:
        grid[word[0], len(word)] = grid.get((word[0], len(word)), 0) + 1
        starts[word[:2]] = starts.get(word[:2], 0) + 1
    return grid, starts


@pytest.mark.parametrize("share_found", [0, 3, 10])
def test_the_grid_counts_the_solvers_words_left(demo_solution, share_found):
    found = [f.word for f in demo_solution][::share_found] if share_found else []
    left = [f.word for f in demo_solution if f.word not in found]
    grid = hint_grid(demo_solution, found)
    by_letter_and_length, by_start = counted(left)
    assert {(letter, n): count for letter, row in grid.by_letter.items() for n, count in row.items()} == (
        by_letter_and_length
    )
    assert grid.by_start == by_start
    assert grid.words_left == len(left) == sum(grid.by_length.values())
    assert grid.points_left == sum(f.score for f in demo_solution if f.word not in found)
    assert grid.lengths == tuple(sorted({len(word) for word in left}))


def test_found_words_leave_the_grid_and_words_not_on_the_board_change_nothing(demo_solution):
    best = demo_solution[0]
    before, after = hint_grid(demo_solution, []), hint_grid(demo_solution, [best.word, "NOTAWORDHERE"])
    assert after.words_left == before.words_left - 1
    assert after.points_left == before.points_left - best.score
    assert after.by_start.get(best.word[:2], 0) == before.by_start[best.word[:2]] - 1


def test_every_word_found_leaves_an_empty_grid(demo_solution):
    grid = hint_grid(demo_solution, [f.word for f in demo_solution])
    assert (grid.words_left, grid.points_left, grid.by_letter, grid.by_start) == (0, 0, {}, {})
    assert next_reveal(demo_solution, [f.word for f in demo_solution]) is None


def test_a_reveal_shows_a_word_left_its_first_letter_and_length_at_half_its_points(demo_solution):
    found = [demo_solution[0].word]
    reveal = next_reveal(demo_solution, found)
    word = demo_solution.find(reveal.word)
    assert word is not None and reveal.word not in found
    assert (reveal.first_letter, reveal.length) == (reveal.word[0], len(reveal.word))
    assert reveal.cost == reveal_cost(word) == (word.score + 1) // 2
    assert set(reveal.to_json()) == {"first_letter", "length", "cost"}  # never the word itself


def test_reveals_prefer_common_words_and_never_show_a_word_twice(demo_solution):
    common = common_words(demo_solution.board.language)
    revealed: list[str] = []
    for _ in range(5):
        reveal = next_reveal(demo_solution, [], revealed, prefer=common)
        assert reveal is not None and reveal.word not in revealed
        preferred = [f.word for f in demo_solution if f.word in common and f.word not in revealed]
        assert reveal.word == (preferred[0] if preferred else reveal.word)
        revealed.append(reveal.word)
    assert next_reveal(demo_solution, [], revealed, prefer=common) == next_reveal(
        demo_solution, [], revealed, prefer=common
    )


@pytest.mark.parametrize(("score", "cost"), [(1, 1), (2, 1), (7, 4), (224, 112)])
def test_a_reveal_costs_half_the_words_points_rounded_up(score, cost):
    assert reveal_cost(Found("AB", score, ((0, 0), (0, 1)))) == cost
