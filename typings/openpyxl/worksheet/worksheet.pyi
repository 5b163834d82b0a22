"""A worksheet as views/exports.py fills it: rows appended, a row's cells read back, panes frozen, columns sized."""

from collections.abc import Iterable

from openpyxl.cell.cell import Cell

class ColumnDimension:
    width: float

class Worksheet:
    title: str
    freeze_panes: str | None
    column_dimensions: dict[str, ColumnDimension]
    @property
    def max_row(self) -> int: ...
    def append(self, iterable: Iterable[object]) -> None: ...
    def __getitem__(self, key: int) -> tuple[Cell, ...]: ...  # a row, by its number (1 is the first)
