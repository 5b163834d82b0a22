"""The scoring rules of Ruzzle that do not vary by language: multipliers, length bonus, word length."""

from __future__ import annotations

import enum

MIN_WORD_LENGTH = 2

# Length bonus by word length; words of 9 or more letters get the last value.
_LENGTH_BONUS = {5: 5, 6: 10, 7: 15, 8: 20}
MAX_LENGTH_BONUS = 25


def length_bonus(length: int) -> int:
    """Points added, unmultiplied, to a word of this many letters."""
    if length >= 9:
        return MAX_LENGTH_BONUS
    return _LENGTH_BONUS.get(length, 0)


class Multiplier(enum.Enum):
    """A tile multiplier: DL/TL multiply the tile's letter, DW/TW the whole word."""

    DL = ("dl", 2, 1, "double letter")
    TL = ("tl", 3, 1, "triple letter")
    DW = ("dw", 1, 2, "double word")
    TW = ("tw", 1, 3, "triple word")

    def __init__(self, code: str, letter_factor: int, word_factor: int, label: str):
        self.code = code
        self.letter_factor = letter_factor
        self.word_factor = word_factor
        self.label = label

    @classmethod
    def from_code(cls, code: str) -> Multiplier:
        """The multiplier written as `dl`, `tl`, `dw` or `tw` (any case)."""
        return _BY_CODE[code.lower()]

    def __str__(self) -> str:
        return self.name


_BY_CODE = {m.code: m for m in Multiplier}
MULTIPLIER_CODES = tuple(_BY_CODE)

# How many tiles of each multiplier a real 16-cell board carries (seen on all 8 real boards we know).
MULTIPLIERS_PER_16_CELLS = {Multiplier.DL: 1, Multiplier.TL: 2, Multiplier.DW: 2, Multiplier.TW: 1}
