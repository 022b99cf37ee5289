"""What a draw takes: the sheet, the rows and columns, the header, and what moves with a row.

The rule for what moves is one per run:

* **whole rows** - with no ``--range``, ``--table`` or ``--columns`` (and a sheet that is
  not one Excel table), the data rows of the used range move as whole rows: every cell,
  the row's height, style, hidden flag and outline level;
* **only the selected cells** - with a range, a table or a column list (and in every mode
  but ``rows``), only those cells move; the rest of each row and the row's own formatting
  stay with the position, as when Excel sorts a range.

The used range is measured from the cells the sheet really stores (never its
``<dimension>`` claim), from the first to the last row holding a value or formula. The
default selection then leaves out title rows, total rows and blank rows at the end, and
refuses two header rows and blank rows inside the data (:mod:`.layout`); ``--columns``
leaves out the rows at the end that are blank in its columns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...draw.errors import OptionError, WorkbookError
from ...draw.grid import Mode
from ..package.parts import Book, SheetInfo, TableInfo
from ..scan.refs import MAX_COL, Area, col_letters, parse_area, quote_sheet
from ..scan.rowfind import used_cols, valued_rows
from ..scan.sheet import SheetXml
from .keep import blank_runs_in
from .layout import Excluded, find_data, trim_blank_tail
from .layout_rows import SheetRows
from .options import parse_columns, user_range

__all__ = ["Selection", "choose_sheet", "select"]


@dataclass(kw_only=True)
class Selection:
    """The cells of one draw. Rows ``top..bottom`` include the header row when there is
    one; ``cols`` are the columns that take part; ``excluded`` lists the rows of the used
    range left out (titles, totals, blank rows at the end) and why."""

    sheet: SheetInfo
    kind: str  # "sheet", "range", "table" or "columns"
    top: int
    bottom: int
    cols: list[int]
    header: bool
    whole_rows: bool
    label: str
    table: TableInfo | None = None
    excluded: list[Excluded] = field(default_factory=list)
    #: ``--keep-blank-rows``: the blank data rows that stay in place, as runs
    #: ``(first, last)`` of row numbers.
    kept: list[tuple[int, int]] = field(default_factory=list)

    @property
    def body_top(self) -> int:
        return self.top + 1 if self.header else self.top

    @property
    def n_rows(self) -> int:
        """Rows of the selection, header included."""
        return max(0, self.bottom - self.top + 1)

    @property
    def n_body(self) -> int:
        return max(0, self.bottom - self.body_top + 1)

    def area(self) -> Area:
        return Area((self.top, self.cols[0], self.bottom, self.cols[-1]))

    def moving_top(self, mode: Mode) -> int:
        """The first row a draw by ``mode`` moves: the header row moves with its column
        when whole columns move (``columns``), and stays in place otherwise."""
        return self.top if mode == "columns" else self.body_top

    def moves_nothing(self, mode: Mode) -> bool:
        """Whether a draw by ``mode`` has nothing to move: no column, or no row from
        :meth:`moving_top` down."""
        return not self.cols or (self.n_rows if mode == "columns" else self.n_body) <= 0

    def moves_whole_rows(self, mode: Mode) -> bool:
        """Whether a draw by ``mode`` moves whole rows (every cell, and the row's own
        height and format), not only the selected cells."""
        return self.whole_rows and mode == "rows"

    def moving_area(self, mode: Mode) -> Area:
        """The cells a draw by ``mode`` moves, as one rectangle (every column of the
        sheet when whole rows move). Call it only when not :meth:`moves_nothing`."""
        top = self.moving_top(mode)
        if self.moves_whole_rows(mode):
            return Area((top, 1, self.bottom, MAX_COL))
        return Area((top, self.cols[0], self.bottom, self.cols[-1]))

    def moves_any_of(self, area: Area, mode: Mode) -> bool:
        """Whether a draw by ``mode`` moves a cell of ``area`` - with whole rows, a row of
        it: a merge, table, pivot table or array there would be taken apart."""
        region = self.moving_area(mode)
        return region.overlaps(area) or (self.whole_rows and region.shares_rows(area))


def choose_sheet(
    book: Book, sheet: str | None, table: str | None
) -> tuple[SheetInfo, TableInfo | None]:
    """The sheet to draw on (by name, the table's, or the active one) and the table."""
    if table is not None:
        return _table_named(book, sheet, table)
    if sheet is not None:
        return _sheet_named(book, sheet), None
    worksheets = [s for s in book.sheets if s.kind == "worksheet"]
    if not worksheets:
        raise WorkbookError(f"{book.label}: the workbook has no worksheet to draw from")
    active = book.sheets[book.active_index] if book.sheets else worksheets[0]
    return (active if active.kind == "worksheet" else worksheets[0]), None


def _table_named(book: Book, sheet: str | None, table: str) -> tuple[SheetInfo, TableInfo]:
    """``--table NAME`` (on ``--sheet``, when given): exact name first, then any case."""
    worksheets = [s for s in book.sheets if s.kind == "worksheet"]
    found = [
        (s, t)
        for s in worksheets
        if sheet is None or s.name.lower() == sheet.lower()
        for t in book.tables(s)
        if t.name == table or t.name.lower() == table.lower()
    ]
    if found:
        return found[0]
    names = sorted(t.name for s in worksheets for t in book.tables(s))
    raise OptionError(
        f"{book.label}: no table named {table!r}"
        + (f" on sheet {sheet!r}" if sheet else "")
        + (f": the tables are {', '.join(names)}" if names else ": the workbook has no tables")
    )


def _sheet_named(book: Book, sheet: str) -> SheetInfo:
    """``--sheet NAME``: exact name first, then any case; a worksheet."""
    match = [s for s in book.sheets if s.name == sheet] or [
        s for s in book.sheets if s.name.lower() == sheet.lower()
    ]
    if not match:
        raise OptionError(
            f"{book.label}: no sheet named {sheet!r}: the sheets are "
            + ", ".join(repr(s.name) for s in book.sheets)
        )
    if match[0].kind != "worksheet":
        raise OptionError(
            f"{book.label}: {sheet!r} is a {match[0].kind}, which holds no cells: "
            "choose a worksheet with --sheet"
        )
    return match[0]


def used_rows(sx: SheetXml) -> tuple[int, int] | None:
    """First and last stored row (index) that holds a value or formula."""
    return valued_rows(sx)


def select(
    book: Book,
    sx: SheetXml,
    sheet: SheetInfo,
    table: TableInfo | None,
    *,
    cells: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    whole_rows_allowed: bool,
    keep_blank: bool = False,
) -> Selection:
    """The selection of one draw (see the module docstring for what moves); with
    ``keep_blank``, its blank data rows are listed in ``kept``."""
    sel = _select(
        book,
        sx,
        sheet,
        table,
        cells=cells,
        columns=columns,
        header=header,
        whole_rows_allowed=whole_rows_allowed,
        keep_blank=keep_blank,
    )
    if keep_blank and sel.kind != "sheet" and sel.cols and sel.n_body > 0:
        sel.kept = blank_runs_in(sx, sel.body_top, sel.bottom, sel.cols)
    return sel


def _select(
    book: Book,
    sx: SheetXml,
    sheet: SheetInfo,
    table: TableInfo | None,
    *,
    cells: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    whole_rows_allowed: bool,
    keep_blank: bool,
) -> Selection:
    if sum(x is not None for x in (cells, table, columns)) > 1:
        raise OptionError("give at most one of --range, --table and --columns")
    if table is None and cells is None and columns is None:
        tables = book.tables(sheet)
        if len(tables) == 1:
            table = tables[0]
    if table is not None:
        return _table_selection(book, sheet, table, header)
    used = _used(
        book, sx, sheet, cells=cells, columns=columns, header=header, keep_blank=keep_blank
    )
    if columns is not None:
        return _columns_selection(sheet, parse_columns(columns), used, header)
    if cells is not None:
        return _range_selection(sheet, cells, used, header)
    top, bottom = used.rows
    left, right = used.cols
    return Selection(
        sheet=sheet,
        kind="sheet",
        top=top,
        bottom=bottom,
        cols=list(range(left, right + 1)),
        header=True if header is None else header,
        whole_rows=whole_rows_allowed,
        label=f"{quote_sheet(sheet.name)}!{Area((top, left, max(top, bottom), right)).a1()}",
        excluded=used.excluded,
        kept=used.kept,
    )


@dataclass
class _Used:
    """The used range's rows and columns (numbers), after the layout rules; ``empty``
    when the sheet holds no value or formula."""

    rows: tuple[int, int]
    cols: tuple[int, int]
    empty: bool
    excluded: list[Excluded] = field(default_factory=list)
    kept: list[tuple[int, int]] = field(default_factory=list)


def _used(
    book: Book,
    sx: SheetXml,
    sheet: SheetInfo,
    *,
    cells: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    keep_blank: bool,
) -> _Used:
    """The used range: with ``--columns``, without the rows at the end blank in them;
    with the default selection, as the layout rules find the data (:mod:`.layout`)."""
    used = used_rows(sx)
    if used is None:
        return _Used((1, 0), (1, 1), empty=True)
    first, last = used
    excluded: list[Excluded] = []
    kept: list[tuple[int, int]] = []
    if columns is not None:
        last, excluded = trim_blank_tail(SheetRows(book, sx), first, last, parse_columns(columns))
    elif cells is None and not book.tables(sheet):
        where = f"{book.label}: sheet {sheet.name!r}"
        found = find_data(
            SheetRows(book, sx),
            first,
            last,
            header=header is not False,
            where=where,
            keep_blank=keep_blank,
        )
        first, last, excluded, kept = found.top, found.bottom, found.excluded, found.kept
    rows = (sx.numbers[first], sx.numbers[last])
    return _Used(rows, used_cols(sx, first, last), False, excluded, kept)


def _table_selection(
    book: Book, sheet: SheetInfo, table: TableInfo, header: bool | None
) -> Selection:
    """A table's rows (its totals row left out) and columns."""
    area = parse_area(table.ref)
    if area is None:
        raise WorkbookError(f"{book.label}: table {table.name} has no readable range")
    return Selection(
        sheet=sheet,
        kind="table",
        top=area.top,
        bottom=area.bottom - table.totals_rows,
        cols=list(range(area.left, area.right + 1)),
        header=table.header_rows > 0 if header is None else header,
        whole_rows=False,
        label=f"table {table.name} ({quote_sheet(sheet.name)}!{area.a1()})",
        table=table,
    )


def _columns_selection(
    sheet: SheetInfo, cols: list[int], used: _Used, header: bool | None
) -> Selection:
    """``--columns``: those columns over the used rows."""
    top, bottom = used.rows
    letters = ",".join(col_letters(c) for c in cols)
    return Selection(
        sheet=sheet,
        kind="columns",
        top=top,
        bottom=bottom,
        cols=cols,
        header=True if header is None else header,
        whole_rows=False,
        label=f"{quote_sheet(sheet.name)}!{letters} (rows {top}-{bottom})",
        excluded=used.excluded,
    )


def _range_selection(sheet: SheetInfo, cells: str, used: _Used, header: bool | None) -> Selection:
    """``--range``: whole columns (``A:D``) over the used rows, whole rows (``2:9``) over
    the used columns; refused when it holds none of the sheet's data."""
    top, left, bottom, right = user_range(cells)
    bare = cells.replace("$", "")
    if re.fullmatch(r"\s*[A-Za-z]{1,3}\s*:\s*[A-Za-z]{1,3}\s*", bare):
        top, bottom = used.rows
    if re.fullmatch(r"\s*\d+\s*:\s*\d+\s*", bare):
        left, right = used.cols
    (first, last), (lo, hi) = used.rows, used.cols
    if used.empty or not (top <= last and bottom >= first and left <= hi and right >= lo):
        data = Area((first, lo, last, hi))
        where = "no data" if used.empty else f"its data is in {data.a1()}"
        raise OptionError(
            f"--range {cells!r} holds no data of sheet {sheet.name!r} ({where}): give "
            "a range over the rows to draw"
        )
    return Selection(
        sheet=sheet,
        kind="range",
        top=top,
        bottom=bottom,
        cols=list(range(left, right + 1)),
        header=bool(header),
        whole_rows=False,
        label=f"{quote_sheet(sheet.name)}!{Area((top, left, bottom, right)).a1()}",
    )
