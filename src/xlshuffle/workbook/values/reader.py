"""Cells read as Python values: a workbook's shared strings, number formats and 1904 dates
applied to a cell's XML, and the refusals of a cell a draw cannot read.

:class:`CellReader` is what every draw that reads values uses: a sample's winners, a
raffle's tickets and IDs, groups' balancing columns, ``verify`` and ``restore``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...draw.errors import WorkbookError
from ..limits import LIMITS
from ..package.parts import Book
from ..scan.sheet import Cell
from .cells import (
    CellStyles,
    SharedStrings,
    ValuesError,
    cell_value,
    unsaved_formula,
    workbook_date1904,
)

__all__ = ["UNSAVED_FIX", "CellReader"]


@dataclass
class CellReader:
    """Turns cells into Python values (shared strings, date formats, 1904 dates)."""

    strings: SharedStrings | None
    styles: CellStyles
    date1904: bool
    #: The input's path, which every message names.
    label: str = ""

    @classmethod
    def of(cls, book: Book) -> CellReader:
        rels = book.rels(book.part)
        strings = styles = None
        try:
            for rel in rels:
                part = None if rel.external else book.pkg.find(rel.target)
                if part is None:
                    continue
                if rel.type == "sharedStrings":
                    chunks = book.pkg.chunks(part, limit=LIMITS.max_strings_bytes)
                    strings = SharedStrings.parse(chunks)
                elif rel.type == "styles":
                    styles = book.read(part)
            return cls(strings, CellStyles.parse(styles), workbook_date1904(book.xml), book.label)
        except ValuesError as exc:
            raise _unreadable(book.label, exc) from None

    def value(self, row: bytes, cell: Cell, place: str = "") -> object:
        """The cell's value; ``place`` (``"sheet 'Data', cell B5"``) goes in messages."""
        try:
            return cell_value(
                row[cell.start : cell.end],
                strings=self.strings,
                styles=self.styles,
                date1904=self.date1904,
            )
        except ValuesError as exc:
            raise _unreadable(f"{self.label}: {place}" if place else self.label, exc) from None

    def known(self, row: bytes, cell: Cell, place: str, name: str) -> object:
        """The value of a cell a draw reads (a weight, an ID...): WorkbookError naming
        it by ``name`` (``"book.xlsx: Tickets!B3"``) for a formula without a saved value,
        which would otherwise read as blank."""
        value = self.value(row, cell, place)
        if value is None and unsaved_formula(row[cell.start : cell.end]):
            raise WorkbookError(f"{name} {UNSAVED_FIX}")
        return value


#: What a formula without a saved value is, and how to give it one.
UNSAVED_FIX = (
    "is a formula without a saved value (a file written by a script): open and save it in "
    "Excel or LibreOffice so its values are stored, then draw again"
)


def _unreadable(where: str, exc: ValuesError) -> WorkbookError:
    return WorkbookError(
        f"{where}: {exc.reason}: open the workbook in Excel, save it again, and retry"
    )
