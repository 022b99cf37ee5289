"""What a draw-and-lock command needs of a spreadsheet: :class:`Book`, :class:`Sheet`,
:class:`Range` and :class:`Name`.

The commands of :mod:`xlshuffle.lock` read and write a workbook only through these
protocols, so one command runs in every spreadsheet that has an adapter: Excel's
(:mod:`xlshuffle.excel.lock`, over xlwings' ``Book``) and LibreOffice Calc's
(:mod:`xlshuffle.calc.unobook`, over UNO). Rows and columns are 1-based, as both
spreadsheets count them; an address is A1 notation without ``$`` (``A2:C6``, ``B3``).

What an adapter promises:

- :meth:`Range.values` gives the cells as rows: an empty cell is None, a number a
  number, a text a text, an error cell its text (``#N/A``);
- :meth:`Range.write` writes plain values so that each cell holds exactly the value given
  (a text stays that text, never a formula, a number or a date); None empties a cell;
- :meth:`Range.write_text` formats the cells as text first, so that a cell typed later
  stays text too, then writes;
- :meth:`Book.add_sheet` adds a sheet after the others and leaves the active sheet active.

Names (the ``SEED`` cell, ``IDS``) are the workbook's defined names; a name that is not a
range (a constant, a formula) has no :attr:`Name.refers_to_range`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .log import Rows

__all__ = ["Book", "Name", "Range", "Rows", "Sheet"]


class Range(Protocol):
    """A block of cells of one sheet."""

    @property
    def sheet(self) -> Sheet: ...

    @property
    def row(self) -> int:
        """The top row (1-based)."""
        ...

    @property
    def column(self) -> int:
        """The left column (1-based)."""
        ...

    @property
    def shape(self) -> tuple[int, int]:
        """Rows and columns."""
        ...

    def address(self) -> str:
        """A1 notation without ``$``: ``A2:C6``, or ``B3`` for one cell."""
        ...

    def values(self) -> Rows: ...

    def write(self, values: Rows) -> None: ...

    def write_text(self, values: Rows) -> None: ...

    def clear_contents(self) -> None:
        """Empty the cells; their formats stay."""
        ...


class Sheet(Protocol):
    """One sheet of a workbook."""

    @property
    def name(self) -> str: ...

    @property
    def used_range(self) -> Range:
        """The block from the first used cell to the last (``A1`` on an empty sheet)."""
        ...

    def range(
        self, top: int, left: int, bottom: int | None = None, right: int | None = None
    ) -> Range:
        """The block from (``top``, ``left``) to (``bottom``, ``right``), or one cell."""
        ...

    def at(self, address: str) -> Range:
        """The block at an A1 address; any exception for one it cannot read."""
        ...

    def delete(self) -> None: ...


class Name(Protocol):
    """A defined name: ``SEED``, or ``Sheet1!SEED`` for a sheet's own."""

    @property
    def name(self) -> str: ...

    @property
    def refers_to_range(self) -> Range | None:
        """The cells it names; None for a constant or a formula."""
        ...


class Book(Protocol):
    """A workbook open in a spreadsheet, with its selection."""

    @property
    def name(self) -> str:
        """The file's name (``Raffle 2026.xlsx``), or the title of an unsaved workbook."""
        ...

    @property
    def selection(self) -> Range | None:
        """The selected block; None for nothing, a shape or several blocks."""
        ...

    @property
    def sheets(self) -> Sequence[Sheet]: ...

    @property
    def names(self) -> Sequence[Name]: ...

    def sheet(self, name: str) -> Sheet:
        """The sheet called ``name``; KeyError when there is none."""
        ...

    def add_sheet(self, name: str) -> Sheet:
        """A new sheet ``name`` after the others; the active sheet stays active."""
        ...
