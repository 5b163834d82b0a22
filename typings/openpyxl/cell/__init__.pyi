"""openpyxl's cells (openpyxl.cell.cell)."""
