"""Ruzzle's 3-round match, a variant of the board rules: round 1 has letter bonuses only, round 2 adds a double
word, round 3 is a full board. The counts are data (`data/match.toml`, with their source)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from .board import Board, Tile
from .rules import Multiplier

MATCH_ROUNDS = (1, 2, 3)
CELLS_PER_COUNT = 16


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
    allowed = {multiplier: round(cells * count / CELLS_PER_COUNT) for multiplier, count in
               bonus_counts(round_number).items()}  # as the generator scales a board's bonus tiles
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
