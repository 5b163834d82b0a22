"""A worksheet's cell as views/exports.py reads and marks it."""

from datetime import datetime

from openpyxl.styles import Font

class Cell:
    value: str | int | float | bool | datetime | None
    data_type: str  # "s" text, "n" number, "f" formula, ...
    quotePrefix: bool | None
    font: Font
