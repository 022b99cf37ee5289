"""Draw and lock in Excel: xlwings' ``Book`` as the :class:`~xlshuffle.lock.Book` the
commands of :mod:`xlshuffle.lock` read and write.

:class:`XlBook` wraps the Office.js book that xlwings Lite and Server hand a script, or
the COM book of the Windows add-in; every read and write is one call of xlwings' own API
(``options(ndim=2, err_to_str=True).value``, ``.value =``, ``number_format``,
``sheets.add``), so the actions Excel gets back are the ones the commands always made.
"""

from __future__ import annotations

from typing import Any

from ...functions import arguments
from ...lock.spreadsheet import Rows

__all__ = ["XlBook", "XlName", "XlRange", "XlSheet"]

_TEXT = "@"  # the number format that keeps what is written as text


def _entry(value: Any) -> Any:
    """What to write through ``.value`` so that the cell holds exactly ``value``.

    Excel takes a text written through ``.value`` (Office.js and COM alike) as if it were
    typed: ``=1+1`` becomes a live formula, ``007`` the number 7, ``1/2`` a date, ``TRUE``
    a boolean, and a leading apostrophe vanishes. An apostrophe in front (Excel's quote
    prefix, which is not part of the value) keeps any text as it is. The error codes go
    bare, so that an error cell stays that error.
    """
    if isinstance(value, str) and value and value not in arguments.ERROR_TEXTS:
        return "'" + value
    return value


class XlRange:
    """An xlwings ``Range``."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    @property
    def sheet(self) -> XlSheet:
        return XlSheet(self.rng.sheet)

    @property
    def row(self) -> int:
        return int(self.rng.row)

    @property
    def column(self) -> int:
        return int(self.rng.column)

    @property
    def shape(self) -> tuple[int, int]:
        rows, columns = self.rng.shape
        return int(rows), int(columns)

    def address(self) -> str:
        return str(self.rng.get_address(False, False))

    def values(self) -> Rows:
        return [list(row) for row in self.rng.options(ndim=2, err_to_str=True).value]

    def write(self, values: Rows) -> None:
        self.rng.value = [[_entry(v) for v in row] for row in values]

    def write_text(self, values: Rows) -> None:
        self.rng.number_format = _TEXT  # before the values: a cell typed later stays text too
        self.write(values)

    def clear_contents(self) -> None:
        self.rng.clear_contents()


class XlSheet:
    """An xlwings ``Sheet``."""

    def __init__(self, sheet: Any) -> None:
        self.xl = sheet

    @property
    def name(self) -> str:
        return str(self.xl.name)

    @property
    def used_range(self) -> XlRange:
        return XlRange(self.xl.used_range)

    def range(
        self, top: int, left: int, bottom: int | None = None, right: int | None = None
    ) -> XlRange:
        if bottom is None or right is None:
            return XlRange(self.xl.range((top, left)))
        return XlRange(self.xl.range((top, left), (bottom, right)))

    def at(self, address: str) -> XlRange:
        return XlRange(self.xl.range(address))

    def delete(self) -> None:
        self.xl.delete()


class XlName:
    """An xlwings ``Name``."""

    def __init__(self, name: Any) -> None:
        self.xl = name

    @property
    def name(self) -> str:
        return str(self.xl.name)

    @property
    def refers_to_range(self) -> XlRange | None:
        try:
            found = self.xl.refers_to_range
        except Exception:  # a name that is a constant or a formula, not cells
            return None
        return None if found is None else XlRange(found)


class XlBook:
    """An xlwings ``Book`` (Office.js or COM) as :class:`xlshuffle.lock.Book`."""

    def __init__(self, book: Any) -> None:
        self.xl = book

    @property
    def name(self) -> str:
        return str(self.xl.name)

    @property
    def selection(self) -> XlRange | None:
        try:
            rng = self.xl.selection
            if rng is not None:
                rng.get_address(False, False)
        except Exception:  # the Office.js book cannot parse a selection of several areas
            return None
        return None if rng is None else XlRange(rng)

    @property
    def sheets(self) -> list[XlSheet]:
        return [XlSheet(s) for s in self.xl.sheets]

    @property
    def names(self) -> list[XlName]:
        return [XlName(n) for n in self.xl.names]

    def sheet(self, name: str) -> XlSheet:
        return XlSheet(self.xl.sheets[name])

    def add_sheet(self, name: str) -> XlSheet:
        sheets = self.xl.sheets
        active = sheets.active
        added = sheets.add(name=name, after=sheets[len(sheets) - 1])
        active.activate()
        return XlSheet(added)
