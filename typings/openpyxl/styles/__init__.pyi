"""openpyxl's cell fonts, as far as views/exports.py sets them."""

class Font:
    def __init__(self, *, bold: bool | None = None, italic: bool | None = None) -> None: ...
