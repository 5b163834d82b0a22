"""A round of play: the board's solution, what a player submits, the clock."""

from __future__ import annotations

import pytest

from ruzzle import Board, InvalidPath, Lexicon
from ruzzle.errors import WordRefused
from ruzzle.game import Round, Solution, parse_path, word_of_path, word_of_text

BOARD = Board.parse("T E A\nS X Q\nE A T", language="en")
WORDS = Lexicon.from_words(["tea", "eat", "ate", "seat", "east", "teas", "sat", "set", "tax", "queen", "at"])


@pytest.fixture
def solution() -> Solution:
    return Solution.of(BOARD, WORDS)


def test_solution_indexes_words_best_first(solution):
    scores = [found.score for found in solution]
    assert scores == sorted(scores, reverse=True)
    assert all(solution.index(found.word) == i for i, found in enumerate(solution))
    assert solution.index("QUEEN") is None and solution.find("QUEEN") is None


def test_solution_statistics(solution):
    assert solution.total_score == sum(found.score for found in solution)
    assert solution.longest.word in {"SEAT", "EAST", "TEAS"}
    assert sum(solution.words_per_length.values()) == len(solution)


def test_words_through_a_cell_are_exactly_those_whose_path_passes_there(solution):
    for cell in BOARD.cells():
        through = solution.through(cell)
        assert {f.word for f in through} == {f.word for f in solution if cell in f.path}


def test_blocked_words_are_not_part_of_the_solution():
    blocked = Solution.of(BOARD, WORDS, blocked=frozenset({"TEA", "EAT"}))
    assert blocked.find("TEA") is None and blocked.find("EAT") is None
    assert blocked.find("SEAT") is not None


@pytest.mark.parametrize("text, cells", [("0,0 0,1 0,2", ((0, 0), (0, 1), (0, 2))), (" 2,2  1,1 ", ((2, 2), (1, 1)))])
def test_a_path_is_read_as_row_comma_column(text, cells):
    assert parse_path(text, BOARD) == cells


@pytest.mark.parametrize(
    "text, reason",
    [
        ("0,0 2,2", "not neighbours"),
        ("0,0 0,1 0,0", "only once"),
        ("0,0 0,3", "not on this 3x3 board"),
        ("a,b c,d", "row,column"),
        ("0,0,0 0,1", "row,column"),
        ("-1,0 0,0", "row,column"),
        ("0,0", "at least 2 tiles"),
        ("", "at least 2 tiles"),
        ("0,0 " * 10, "at most 9 tiles"),
    ],
)
def test_a_forged_path_says_what_is_wrong(text, reason):
    with pytest.raises(InvalidPath, match=reason):
        parse_path(text, BOARD)


def test_a_traced_word_counts_with_its_best_path(solution):
    found = word_of_path(solution, ((0, 0), (0, 1), (0, 2)))
    assert found == solution.find("TEA")


def test_a_traced_non_word_is_refused(solution):
    with pytest.raises(WordRefused, match="XQ is not in the dictionary") as refusal:
        word_of_path(solution, ((1, 1), (1, 2)))
    assert refusal.value.reason == "not-a-word"


@pytest.mark.parametrize(
    "typed, reason",
    [
        ("", "empty"),
        ("  ", "empty"),
        ("te4", "letters"),
        ("t", "too-short"),
        ("teateateat", "too-long"),
        ("zzz", "not-a-word"),
        ("queen", "not-on-board"),
    ],
)
def test_typed_refusals_name_their_rule(solution, typed, reason):
    with pytest.raises(WordRefused) as refusal:
        word_of_text(solution, WORDS, typed)
    assert refusal.value.reason == reason


def test_typed_words_ignore_case_and_accents(solution):
    assert word_of_text(solution, WORDS, " Téa ") == solution.find("TEA")


def test_blocked_words_are_refused_when_typed_or_traced():
    solution = Solution.of(BOARD, WORDS, blocked=frozenset({"TEA"}))
    with pytest.raises(WordRefused) as typed:
        word_of_text(solution, WORDS, "tea")
    with pytest.raises(WordRefused) as traced:
        word_of_path(solution, ((0, 0), (0, 1), (0, 2)))
    assert typed.value.reason == traced.value.reason == "blocked"


def test_a_word_counts_once(solution):
    round_ = Round.timed(100, 120).submit(solution, solution.find("TEA"), now=110, grace=2)
    assert round_.score == solution.find("TEA").score
    with pytest.raises(WordRefused, match="already found"):
        round_.submit(solution, solution.find("TEA"), now=111, grace=2)


@pytest.mark.parametrize("now, accepted", [(219, True), (220, True), (221.9, True), (222, False), (10_000, False)])
def test_words_count_until_the_deadline_plus_the_grace(solution, now, accepted):
    round_ = Round.timed(100, 120)
    if accepted:
        assert round_.submit(solution, solution[0], now=now, grace=2).found == {0}
    else:
        with pytest.raises(WordRefused, match="Time is up"):
            round_.submit(solution, solution[0], now=now, grace=2)


def test_the_clock_shows_whole_seconds_left():
    round_ = Round.timed(100, 120)
    assert round_.remaining(100) == 120 and round_.remaining(219.5) == 1 and round_.remaining(300) == 0
    assert not round_.is_over(219.9) and round_.is_over(220)


def test_an_untimed_round_never_ends_until_given_up(solution):
    round_ = Round.timed(100, 0)
    assert round_.timeline.deadline is None and round_.remaining(10**9) is None and not round_.is_over(10**9)
    assert round_.give_up(101).is_over(101) and round_.give_up(101).remaining(101) == 0
