"""openpyxl as views/exports.py writes its workbooks: the package (3.1) ships no type information, and types-openpyxl
is not among the pinned tools."""

from typing import IO

from openpyxl.worksheet.worksheet import Worksheet

class Workbook:
    # a new workbook's active sheet is its one worksheet, and the project makes no other kind (openpyxl's own says
    # a worksheet, a chart sheet or None)
    active: Worksheet
    def create_sheet(self, title: str | None = None, index: int | None = None) -> Worksheet: ...
    def save(self, filename: str | IO[bytes]) -> None: ...
