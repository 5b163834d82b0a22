"""The score of a path on a board, and its breakdown letter by letter for a page to show."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import prod

from .board import Board, Cell, Path
from .errors import N_, InvalidPath, Nn_
from .languages import get_language
from .rules import MIN_WORD_LENGTH, Multiplier, length_bonus


@dataclass(frozen=True)
class LetterScore:
    """One tile's share of a word's score."""

    cell: Cell
    letter: str
    value: int
    letter_multiplier: int
    points: int
    multiplier: Multiplier | None


@dataclass(frozen=True)
class ScoreBreakdown:
    """How a path scores: letters, their sum, the word multipliers, the length bonus, the total."""

    word: str
    letters: tuple[LetterScore, ...]
    letter_sum: int
    word_multipliers: tuple[int, ...]
    word_multiplier: int
    length_bonus: int
    total: int


def validate_path(board: Board, path: Sequence[Cell]) -> Path:
    """The path as a tuple of cells, or InvalidPath saying why it is not a word path on this board."""
    cells = tuple((int(r), int(c)) for r, c in path)
    if len(cells) < MIN_WORD_LENGTH:
        raise InvalidPath(
            Nn_("a word needs at least %(num)d tile", "a word needs at least %(num)d tiles"), num=MIN_WORD_LENGTH
        )
    if len(cells) > board.rows * board.cols:
        raise InvalidPath(
            Nn_("a path on this board has at most %(num)d tile", "a path on this board has at most %(num)d tiles"),
            num=board.rows * board.cols,
        )
    for cell in cells:
        if not board.contains(cell):
            raise InvalidPath(
                N_("tile %(cell)s is not on this %(rows)dx%(cols)d board"),
                cell=str(cell),
                rows=board.rows,
                cols=board.cols,
            )
    if len(set(cells)) != len(cells):
        raise InvalidPath(N_("a tile can be used only once in a word"))
    for a, b in pairwise(cells):
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            raise InvalidPath(N_("tiles %(first)s and %(second)s are not neighbours"), first=str(a), second=str(b))
    return cells


def spell(board: Board, path: Iterable[Cell]) -> str:
    """The letters along a path."""
    return "".join(board[cell].letter for cell in path)


def score_breakdown(board: Board, path: Sequence[Cell]) -> ScoreBreakdown:
    """The full scoring of a valid path on the board."""
    cells = validate_path(board, path)
    values = get_language(board.language).letter_values
    letters = []
    for cell in cells:
        tile = board[cell]
        factor = tile.letter_factor
        value = values[tile.letter]
        letters.append(LetterScore(cell, tile.letter, value, factor, value * factor, tile.multiplier))
    word_multipliers = tuple(board[cell].word_factor for cell in cells if board[cell].word_factor > 1)
    letter_sum = sum(letter.points for letter in letters)
    word_multiplier = prod(word_multipliers)
    bonus = length_bonus(len(cells))
    return ScoreBreakdown(
        spell(board, cells),
        tuple(letters),
        letter_sum,
        word_multipliers,
        word_multiplier,
        bonus,
        letter_sum * word_multiplier + bonus,
    )


def score_path(board: Board, path: Sequence[Cell]) -> int:
    """The points a valid path scores on the board."""
    return score_breakdown(board, path).total
