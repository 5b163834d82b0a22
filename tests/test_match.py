"""Ruzzle's 3-round match (a variant): the bonus tiles grow by round, the letters never change."""

from __future__ import annotations

import pytest

from ruzzle import generate
from ruzzle.match import MatchRound, bonus_counts, match_board
from ruzzle.rules import Multiplier


def counts(board) -> tuple[int, int, int, int]:
    return tuple(sum(tile.multiplier is m for tile in board.tiles) for m in Multiplier)


@pytest.mark.parametrize("seed", ["K7M2QX", "ROOMS7", "2026-11-23"])
def test_rounds_one_two_three_have_the_described_bonus_tiles(seed):
    board = generate("it", seed, 4, 4)
    assert [counts(match_board(board, n)) for n in (1, 2, 3)] == [(1, 1, 0, 0), (1, 1, 1, 0), (1, 2, 2, 1)]
    assert match_board(board, 3) == board
    assert all(match_board(board, n).letters == board.letters for n in (1, 2))


def test_a_round_keeps_the_first_bonus_tiles_in_reading_order():
    board = generate("en", "ROOMS7", 4, 4)
    kept = [i for i, tile in enumerate(match_board(board, 2).tiles) if tile.multiplier is Multiplier.DW]
    assert kept == [next(i for i, tile in enumerate(board.tiles) if tile.multiplier is Multiplier.DW)]


def test_a_bigger_board_keeps_the_same_share():
    board = generate("en", "BIG", 8, 8)
    assert counts(match_board(board, 1)) == (4, 4, 0, 0)


def test_there_are_three_rounds():
    with pytest.raises(ValueError, match="rounds 1, 2, 3"):
        bonus_counts(4)


@pytest.mark.parametrize(
    "number, match, round_, first", [(1, 1, 1, 1), (2, 1, 2, 1), (3, 1, 3, 1), (4, 2, 1, 4), (6, 2, 3, 4), (7, 3, 1, 7)]
)
def test_every_three_rounds_of_a_room_make_a_match(number, match, round_, first):
    place = MatchRound.of(number)
    assert (place.match, place.round) == (match, round_)
    assert place.numbers == range(first, number + 1)
    assert place.last == (round_ == 3)


def test_the_last_round_of_every_match_is_the_whole_board():
    assert [MatchRound.of(n).board_round for n in range(1, 7)] == [1, 2, None, 1, 2, None]


def test_rooms_number_their_rounds_from_one():
    with pytest.raises(ValueError, match="from 1"):
        MatchRound.of(0)
