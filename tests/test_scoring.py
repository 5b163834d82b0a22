"""Scoring a path, with the breakdown a page shows."""

import pytest

from ruzzle import Board, InvalidPath, score_breakdown, score_path

COHESIVE = [(2, 0), (1, 0), (1, 1), (1, 2), (0, 2), (1, 3), (2, 3), (3, 3)]


def test_cohesive_scores_224_as_the_spec_checks(en_demo):
    breakdown = score_breakdown(en_demo, COHESIVE)
    assert breakdown.word == "COHESIVE"
    assert [letter.points for letter in breakdown.letters] == [4, 1, 4, 1, 1, 1, 4, 1]
    assert breakdown.letter_sum == 17
    assert breakdown.word_multipliers == (2, 2, 3)
    assert breakdown.word_multiplier == 12
    assert breakdown.length_bonus == 20
    assert breakdown.total == 224 == score_path(en_demo, COHESIVE)


def test_letter_multipliers_multiply_only_their_letter():
    board = Board.parse("Ctl Adl T")  # C4 x3 + A1 x2 + T1
    breakdown = score_breakdown(board, [(0, 0), (0, 1), (0, 2)])
    assert [(t.value, t.letter_multiplier, t.points) for t in breakdown.letters] == [(4, 3, 12), (1, 2, 2), (1, 1, 1)]
    assert breakdown.total == 15


def test_word_multipliers_stack():
    board = Board.parse("Cdw Adw Ttw")
    assert score_path(board, [(0, 0), (0, 1), (0, 2)]) == (4 + 1 + 1) * 12


def test_length_bonus_is_added_after_the_word_multipliers():
    board = Board.parse("Sdw T A R E")
    assert score_path(board, [(0, i) for i in range(5)]) == (1 + 1 + 1 + 1 + 1) * 2 + 5


@pytest.mark.parametrize(
    "path, reason",
    [
        ([(0, 0)], "at least 2 tiles"),
        ([(0, 0), (0, 2)], "are not neighbours"),
        ([(0, 0), (1, 1), (0, 0)], "only once"),
        ([(0, 0), (0, 4)], "not on this 4x4 board"),
        ([(0, 0), (-1, 0)], "not on this 4x4 board"),
        ([(r, c) for r in range(4) for c in range(4)] + [(0, 0)], "at most 16 tiles"),
    ],
)
def test_invalid_paths_are_refused_with_the_reason(en_demo, path, reason):
    with pytest.raises(InvalidPath, match=reason):
        score_breakdown(en_demo, path)
