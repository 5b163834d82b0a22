"""Boards: R x C tiles, each a letter A-Z with at most one multiplier, and their text format."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from .errors import N_, BoardFormatError, Nn_
from .languages import get_language
from .rules import MULTIPLIER_CODES, Multiplier

Cell = tuple[int, int]  # (row, col), 0-based
Path = tuple[Cell, ...]

_CODES = "|".join(MULTIPLIER_CODES)
_TILE_PATTERN = re.compile(rf"([A-Z])({_CODES})?", re.IGNORECASE)
# The compact code of a board for URLs: rows joined by "-", each tile an upper-case letter and an
# optional lower-case multiplier, e.g. "TtlRSNdl-OdwHtwEI-CdwINV-EtlADE".
_CODE_TILE = re.compile(rf"([A-Z])({_CODES})?")
_CODE_ROW_SEPARATOR = "-"


@cache
def grid_adjacency(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each tile index of a rows x cols grid, the indices of its up to 8 neighbours, in (row, col) order: the same
    for every board of that shape, so made once (the generator builds and counts thousands of boards of one shape)."""
    return tuple(
        tuple(
            r * cols + c
            for r in range(max(0, row - 1), min(rows, row + 2))
            for c in range(max(0, col - 1), min(cols, col + 2))
            if (r, c) != (row, col)
        )
        for row in range(rows)
        for col in range(cols)
    )


@dataclass(frozen=True)
class Tile:
    """One board cell's content: a letter and an optional multiplier."""

    letter: str
    multiplier: Multiplier | None = None

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read a tile such as `T`, `Ttl` or `ndl` (letters are folded to upper case, accents dropped)."""
        folded = _strip_accents(text)
        match = _TILE_PATTERN.fullmatch(folded)
        if match is None:
            raise BoardFormatError(
                N_("%(tile)r is not a tile: write one letter A-Z, optionally followed by dl, tl, dw or tw"), tile=text
            )
        letter, code = match.groups()
        return cls(letter.upper(), Multiplier.from_code(code) if code else None)

    def __str__(self) -> str:
        return self.letter + (self.multiplier.code if self.multiplier else "")

    @property
    def letter_factor(self) -> int:
        """How many times this tile's letter counts (DL 2, TL 3, otherwise 1)."""
        return self.multiplier.letter_factor if self.multiplier else 1

    @property
    def word_factor(self) -> int:
        """How many times this tile multiplies the word (DW 2, TW 3, otherwise 1)."""
        return self.multiplier.word_factor if self.multiplier else 1


def _strip_accents(text: str) -> str:
    """Drop combining marks after NFKD, so that a typed `é` reads as `E`."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Board:
    """An R x C Ruzzle board in a language; tiles are stored row by row."""

    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    language: str = "en"

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise BoardFormatError(
                N_("a board needs at least 1 row and 1 column, not %(rows)dx%(cols)d"), rows=self.rows, cols=self.cols
            )
        if len(self.tiles) != self.rows * self.cols:
            raise BoardFormatError(
                N_("a %(rows)dx%(cols)d board needs %(tiles)d tiles"),
                rows=self.rows,
                cols=self.cols,
                tiles=self.rows * self.cols,
            )
        object.__setattr__(self, "language", get_language(self.language).code)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[Tile | str]], language: str = "en") -> Board:
        """A board from a list of rows of tiles (or tile texts such as `Ttl`)."""
        width = len(rows[0]) if rows else 0
        if any(len(row) != width for row in rows):
            raise BoardFormatError(N_("every row of a board needs the same number of tiles"))
        tiles = tuple(t if isinstance(t, Tile) else Tile.parse(t) for row in rows for t in row)
        return cls(len(rows), width, tiles, language)

    @classmethod
    def parse(cls, text: str, language: str = "en") -> Board:
        """Read the board text format: a line per row, tiles separated by white space."""
        grid: list[list[Tile]] = []
        first_line = 0
        for line_number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
            row = [_parse_tile(token, line_number, column) for token, column in _tokens(line)]
            if not row:
                continue  # blank lines (a trailing newline, a blank line between rows) carry nothing
            if grid and len(row) != len(grid[0]):
                raise BoardFormatError(
                    Nn_(
                        "this row has %(num)d tile but line %(first)d has %(width)d: every row needs the same "
                        "number of tiles",
                        "this row has %(num)d tiles but line %(first)d has %(width)d: every row needs the same "
                        "number of tiles",
                    ),
                    line_number,
                    num=len(row),
                    first=first_line,
                    width=len(grid[0]),
                )
            if not grid:
                first_line = line_number
            grid.append(row)
        if not grid:
            raise BoardFormatError(N_("the board is empty: write one line per row, e.g. 'Ttl R S Ndl'"))
        return cls.from_rows(grid, language)

    def __str__(self) -> str:
        width = max(len(str(tile)) for tile in self.tiles)
        return "\n".join(" ".join(str(tile).ljust(width) for tile in self.row(r)).rstrip() for r in range(self.rows))

    def __repr__(self) -> str:
        return f"Board.parse({str(self)!r}, language={self.language!r})"

    def __getitem__(self, cell: Cell) -> Tile:
        row, col = cell
        return self.tiles[row * self.cols + col]

    def row(self, r: int) -> tuple[Tile, ...]:
        """The tiles of row r, left to right."""
        return self.tiles[r * self.cols : (r + 1) * self.cols]

    def cells(self) -> Iterator[Cell]:
        """Every (row, col) of the board, row by row."""
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def contains(self, cell: Cell) -> bool:
        """Whether (row, col) lies on the board."""
        row, col = cell
        return 0 <= row < self.rows and 0 <= col < self.cols

    @property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """For each tile index, the indices of its up to 8 neighbours, in (row, col) order."""
        return grid_adjacency(self.rows, self.cols)

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The cells adjacent to this one, diagonals included, in (row, col) order."""
        return [divmod(i, self.cols) for i in self.adjacency[cell[0] * self.cols + cell[1]]]

    @property
    def letters(self) -> str:
        """The board's letters row by row, without multipliers."""
        return "".join(tile.letter for tile in self.tiles)

    @classmethod
    def from_code(cls, code: str, language: str = "en") -> Board:
        """Read `to_code`'s compact form; BoardFormatError with the row (as line) and tile (as column)."""
        rows: list[list[Tile]] = []
        for line, text in enumerate(code.split(_CODE_ROW_SEPARATOR), start=1):
            tiles: list[Tile] = []
            position = 0
            while position < len(text):
                match = _CODE_TILE.match(text, position)
                if match is None:
                    raise BoardFormatError(
                        N_("%(tile)r is not a tile: an upper-case letter A-Z, then dl, tl, dw or tw"),
                        line,
                        len(tiles) + 1,
                        tile=text[position],
                    )
                letter, multiplier = match.groups()
                tiles.append(Tile(letter, Multiplier.from_code(multiplier) if multiplier else None))
                position = match.end()
            if not tiles:
                raise BoardFormatError(N_("this row has no tiles"), line)
            if rows and len(tiles) != len(rows[0]):
                raise BoardFormatError(
                    Nn_(
                        "this row has %(num)d tile but the first has %(width)d",
                        "this row has %(num)d tiles but the first has %(width)d",
                    ),
                    line,
                    num=len(tiles),
                    width=len(rows[0]),
                )
            rows.append(tiles)
        return cls.from_rows(rows, language)

    def to_code(self) -> str:
        """The board in one URL-safe word: rows joined by "-", tiles as `T`, `Ttl`, ... (`from_code` reads it)."""
        return _CODE_ROW_SEPARATOR.join(
            "".join(tile.letter + (tile.multiplier.code if tile.multiplier else "") for tile in self.row(r))
            for r in range(self.rows)
        )

    def to_json(self) -> list[list[str]]:
        """The board as rows of tile texts, as elzzur's JSON writes it."""
        return [[str(tile) for tile in self.row(r)] for r in range(self.rows)]

    def _repr_html_(self) -> str:
        """A styled table, so that a board shows as a board in a Jupyter notebook."""
        values = get_language(self.language).letter_values
        colours = {"dl": "#4f9fdc", "tl": "#2a6bb0", "dw": "#e07b6a", "tw": "#c0392b"}
        cells = []
        for r in range(self.rows):
            row_html = []
            for tile in self.row(r):
                code = tile.multiplier.code if tile.multiplier else ""
                background = colours.get(code, "#f4ead5")
                colour = "#fff" if code else "#222"
                badge = f'<sup style="font-size:9px">{code.upper()}</sup>' if code else ""
                row_html.append(
                    f'<td style="width:44px;height:44px;text-align:center;background:{background};'
                    f'color:{colour};border:2px solid #fff;border-radius:6px;font:bold 22px sans-serif">'
                    f'{html.escape(tile.letter)}<sub style="font-size:9px">{values[tile.letter]}</sub>'
                    f"{badge}</td>"
                )
            cells.append("<tr>" + "".join(row_html) + "</tr>")
        return '<table style="border-collapse:separate">' + "".join(cells) + "</table>"


def _tokens(line: str) -> Iterator[tuple[str, int]]:
    """The white-space separated tokens of a line with their 1-based columns."""
    for match in re.finditer(r"\S+", line):
        yield match.group(), match.start() + 1


def _parse_tile(token: str, line: int, column: int) -> Tile:
    """A tile token, or a BoardFormatError that points at it."""
    try:
        return Tile.parse(token)
    except BoardFormatError as error:
        raise BoardFormatError(error.template, line, column, **error.values) from None
