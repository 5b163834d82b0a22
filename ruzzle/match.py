"""Ruzzle's 3-round match, a variant of the board rules: round 1 has letter bonuses only, round 2 adds a double
word, round 3 is a full board. The counts are data (`data/match.toml`, with their source). A room that plays matches
numbers its rounds 1, 2, 3, ... for its whole life; every 3 in a row make a match (`MatchRound`)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import ClassVar

from .board import Board, Tile
from .rules import Multiplier

MATCH_ROUNDS = (1, 2, 3)
ROUNDS_PER_MATCH = len(MATCH_ROUNDS)
CELLS_PER_COUNT = 16


@dataclass(frozen=True)
class MatchRound:
    """Where a round of a room that plays matches falls: its match (1, 2, ...) and its round in that match (1-3)."""

    match: int
    round: int
    rounds: ClassVar[int] = ROUNDS_PER_MATCH  # how many rounds a match has (for the pages: "round 2 of 3")

    @classmethod
    def of(cls, number: int) -> MatchRound:
        """The match and round of the room's round `number` (round 4 is round 1 of match 2); ValueError below 1."""
        if number < 1:
            raise ValueError(f"a room's rounds are numbered from 1, not {number}")
        match, index = divmod(number - 1, ROUNDS_PER_MATCH)
        return cls(match + 1, index + 1)

    @property
    def numbers(self) -> range:
        """The room's round numbers of this match so far: its first round up to this one (what its totals add)."""
        first = (self.match - 1) * ROUNDS_PER_MATCH + 1
        return range(first, first + self.round)

    @property
    def last(self) -> bool:
        """Whether this round ends its match (the final podium comes after it)."""
        return self.round == ROUNDS_PER_MATCH

    @property
    def board_round(self) -> int | None:
        """The match round its board names (`match=` of a board URL): None for the last round, the whole board."""
        return None if self.last else self.round


@cache
def bonus_counts(round_number: int) -> dict[Multiplier, int]:
    """How many tiles of each multiplier a 16-cell board keeps in a round of the match; ValueError if no round."""
    text = resources.files(__package__).joinpath("data/match.toml").read_text(encoding="utf-8")
    rounds = tomllib.loads(text)["rounds"]
    if str(round_number) not in rounds:
        raise ValueError(f"a match has rounds {', '.join(map(str, MATCH_ROUNDS))}, not {round_number}")
    return {Multiplier[name]: count for name, count in rounds[str(round_number)]["keep"].items()}


def match_board(board: Board, round_number: int) -> Board:
    """The board of a round of the match: the first bonus tiles of each kind (reading order) kept, as many as
    the round allows for the board's size, the others plain."""
    cells = board.rows * board.cols
    allowed = {
        multiplier: round(cells * count / CELLS_PER_COUNT) for multiplier, count in bonus_counts(round_number).items()
    }  # as the generator scales a board's bonus tiles
    kept: dict[Multiplier, int] = {}
    tiles = []
    for tile in board.tiles:
        multiplier = tile.multiplier
        if multiplier is not None:
            kept[multiplier] = kept.get(multiplier, 0) + 1
            if kept[multiplier] > allowed.get(multiplier, 0):
                multiplier = None
        tiles.append(Tile(tile.letter, multiplier))
    return Board(board.rows, board.cols, tuple(tiles), board.language)
