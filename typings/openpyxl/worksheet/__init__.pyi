"""openpyxl's worksheets (openpyxl.worksheet.worksheet)."""
