"""Draw and lock in Calc: a spreadsheet document, through UNO, as the
:class:`~xlshuffle.lock.Book` the commands of :mod:`xlshuffle.lock` read and write.

:class:`UnoBook` wraps the model of a Calc document (``com.sun.star.sheet.
SpreadsheetDocument``) as LibreOffice hands it to the menu's commands
(:mod:`xlshuffle.calc.dispatch`). It calls only the document's own API, so this module
imports nothing of UNO and LibreOffice's Python is the only one that ever runs it.

How Calc's cells map to the protocol's promises:

- values come from ``getDataArray`` (numbers as floats, texts as texts, an empty cell as
  an empty text, read as None); an error cell, which ``getDataArray`` cannot tell from a
  number, is found by ``queryFormulaCells`` and read as its Excel text (``#DIV/0!``; an
  error Excel has no name for, such as ``Err:502``, as ``#VALUE!``, the text Calc saves it
  as in ``.xlsx``);
- values go back through ``setDataArray``, which takes a text as a text (never a formula,
  a number or a date) and leaves a cell written None empty; an error is written as its
  text, since Calc has no constant error cell;
- the text format is Calc's ``@``; a new sheet is inserted after the others, which leaves
  the active sheet active.

Rows and columns are 1-based here, as the protocol has them; UNO's are 0-based.
"""

from __future__ import annotations

import posixpath
import urllib.parse
from typing import Any

from ..common.a1 import col_letters
from ..functions import arguments
from ..lock.spreadsheet import Rows
from . import calc_value

__all__ = ["UnoBook", "UnoName", "UnoRange", "UnoSheet"]

#: ``com.sun.star.sheet.CellFlags``: VALUE, DATETIME, STRING and FORMULA (what Excel's
#: *Clear Contents* removes: formats, notes and the rest stay).
_CONTENTS = 1 | 2 | 4 | 16
#: ``com.sun.star.sheet.FormulaResult.ERROR``
_ERROR = 4


class UnoRange:
    """A ``com.sun.star.sheet.SheetCellRange`` of the document ``book``."""

    def __init__(self, book: UnoBook, rng: Any) -> None:
        self.book = book
        self.uno = rng
        self.corners = rng.getRangeAddress()

    @property
    def sheet(self) -> UnoSheet:
        return UnoSheet(self.book, self.uno.getSpreadsheet())

    @property
    def row(self) -> int:
        return int(self.corners.StartRow) + 1

    @property
    def column(self) -> int:
        return int(self.corners.StartColumn) + 1

    @property
    def shape(self) -> tuple[int, int]:
        a = self.corners
        return int(a.EndRow - a.StartRow) + 1, int(a.EndColumn - a.StartColumn) + 1

    def address(self) -> str:
        a = self.corners
        first = f"{col_letters(a.StartColumn + 1)}{a.StartRow + 1}"
        if (a.StartRow, a.StartColumn) == (a.EndRow, a.EndColumn):
            return first
        return f"{first}:{col_letters(a.EndColumn + 1)}{a.EndRow + 1}"

    def values(self) -> Rows:
        rows = [[None if v == "" else v for v in row] for row in self.uno.getDataArray()]
        for row, column, text in self._errors():
            rows[row][column] = text
        return rows

    def _errors(self) -> list[tuple[int, int, str]]:
        """The error cells: (row, column) within the range and the error's Excel text."""
        found = []
        top, left = self.corners.StartRow, self.corners.StartColumn
        for block in self.uno.queryFormulaCells(_ERROR).getRangeAddresses():
            for r in range(block.StartRow, block.EndRow + 1):
                for c in range(block.StartColumn, block.EndColumn + 1):
                    shown = self.uno.getCellByPosition(c - left, r - top).getString()
                    text = shown if shown in arguments.ERROR_TEXTS else "#VALUE!"
                    found.append((r - top, c - left, text))
        return found

    def write(self, values: Rows) -> None:
        self.uno.setDataArray(tuple(tuple(calc_value(v) for v in row) for row in values))

    def write_text(self, values: Rows) -> None:
        self.uno.NumberFormat = self.book.text_format()
        self.write(values)

    def clear_contents(self) -> None:
        self.uno.clearContents(_CONTENTS)


class UnoSheet:
    """A ``com.sun.star.sheet.Spreadsheet``."""

    def __init__(self, book: UnoBook, sheet: Any) -> None:
        self.book = book
        self.uno = sheet

    @property
    def name(self) -> str:
        return str(self.uno.getName())

    @property
    def used_range(self) -> UnoRange:
        cursor = self.uno.createCursor()
        cursor.gotoStartOfUsedArea(False)
        cursor.gotoEndOfUsedArea(True)
        return UnoRange(self.book, cursor)

    def range(
        self, top: int, left: int, bottom: int | None = None, right: int | None = None
    ) -> UnoRange:
        bottom, right = top if bottom is None else bottom, left if right is None else right
        return UnoRange(
            self.book, self.uno.getCellRangeByPosition(left - 1, top - 1, right - 1, bottom - 1)
        )

    def at(self, address: str) -> UnoRange:
        return UnoRange(self.book, self.uno.getCellRangeByName(address))

    def delete(self) -> None:
        self.book.uno.getSheets().removeByName(self.name)


class UnoName:
    """A named range of the document (Calc's *Sheet > Named Ranges*)."""

    def __init__(self, book: UnoBook, name: str) -> None:
        self.book = book
        self.name = name

    @property
    def refers_to_range(self) -> UnoRange | None:
        try:
            cells = self.book.uno.NamedRanges.getByName(self.name).getReferredCells()
        except Exception:  # a name that is a constant or a formula, not cells
            return None
        return None if cells is None else UnoRange(self.book, cells)


class UnoBook:
    """A Calc document's model as :class:`xlshuffle.lock.Book`."""

    def __init__(self, document: Any) -> None:
        self.uno = document

    @property
    def name(self) -> str:
        """The file's name, or the document's title when it was never saved."""
        url = str(self.uno.getURL())
        if url:
            return urllib.parse.unquote(posixpath.basename(urllib.parse.urlparse(url).path))
        return str(self.uno.getTitle())

    @property
    def selection(self) -> UnoRange | None:
        chosen = self.uno.getCurrentController().getSelection()
        if chosen is None or not chosen.supportsService("com.sun.star.sheet.SheetCellRange"):
            return None  # several blocks (SheetCellRanges), a shape, a chart
        return UnoRange(self, chosen)

    @property
    def sheets(self) -> list[UnoSheet]:
        sheets = self.uno.getSheets()
        return [UnoSheet(self, sheets.getByIndex(i)) for i in range(sheets.getCount())]

    @property
    def names(self) -> list[UnoName]:
        return [UnoName(self, n) for n in self.uno.NamedRanges.getElementNames()]

    def sheet(self, name: str) -> UnoSheet:
        sheets = self.uno.getSheets()
        if not sheets.hasByName(name):
            raise KeyError(name)
        return UnoSheet(self, sheets.getByName(name))

    def add_sheet(self, name: str) -> UnoSheet:
        sheets = self.uno.getSheets()
        sheets.insertNewByName(name, sheets.getCount())
        return UnoSheet(self, sheets.getByName(name))

    def text_format(self) -> int:
        """The key of the number format ``@`` (text) in this document."""
        formats, locale = self.uno.getNumberFormats(), self.uno.CharLocale
        key = int(formats.queryKey("@", locale, False))
        return key if key >= 0 else int(formats.addNew("@", locale))
