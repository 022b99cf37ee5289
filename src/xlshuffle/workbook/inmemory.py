"""Draws on an openpyxl worksheet you already hold in memory.

For scripts that build or edit a workbook with openpyxl: :func:`shuffle_worksheet` moves
cells of a :class:`openpyxl.worksheet.worksheet.Worksheet` with the same draw protocol,
options and rules as :func:`xlshuffle.workbook.shuffle_workbook` - same seed, same order.
Saving is then yours (``wb.save(...)``), with openpyxl's limits: to shuffle a file on disk
without losing anything openpyxl does not model, use ``shuffle_workbook``.

What is shared with the file engine: the selection's rules of what moves
(:class:`~.selection.select.Selection`), the layout rules (:mod:`.selection.layout`), the
permutation and destinations (:mod:`.move.plan`), the formula translation
(:class:`~.formulas.translate.FormulaMover`, with its documented differences from
openpyxl's ``Translator``) and the refusals of merged cells, tables, pivot tables, array
formulas and data tables in the way, a protected sheet, and whole columns of a table.

Where it differs, because a worksheet in memory is not a file:

* a formula is read as a formula: openpyxl holds no cached value, so a formula counts as
  a value for the layout rules and no cached value is kept or dropped;
* only what openpyxl models moves with a row or cell: values, styles, hyperlinks,
  comments, row heights and formats, merges; there are no VML note shapes, threaded
  comments or calculation chain to rewrite, and what openpyxl does not load is lost on
  save anyway;
* openpyxl has no public API to move a cell object or to list a sheet's pivot tables:
  cells are moved in ``Worksheet._cells`` and pivot tables read from
  ``Worksheet._pivots`` (private attributes of openpyxl 3.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..draw.errors import OptionError, WorkbookError
from ..draw.grid import parse_mode
from ..draw.protocol import as_stream
from .formulas.translate import FormulaMoveError, FormulaMover
from .move.plan import destination, draw_permutation, inverse
from .package.parts import SheetInfo, TableInfo
from .scan.refs import MAX_COL, MAX_ROW, Area, parse_area, quote_sheet
from .selection.keep import spread
from .selection.layout import Cell, Rows, find_data, trim_blank_tail
from .selection.select import Selection, parse_columns
from .selection.suggest import LayoutRefusal, refuse

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["shuffle_worksheet"]


def _used(ws: Worksheet) -> Area:
    keys = [k for k, cell in ws._cells.items() if cell._value is not None]
    if not keys:
        return Area((1, 1, 0, 1))
    rows = [r for r, _ in keys]
    cols = [c for _, c in keys]
    return Area((min(rows), min(cols), max(rows), max(cols)))


class _WorksheetRows(Rows):
    """Rows ``top..bottom`` of a worksheet, for the layout rules of :mod:`.layout`. A
    formula is read as a formula (openpyxl holds no cached value), not as its value."""

    def __init__(self, ws: Worksheet, used: Area) -> None:
        self.ws = ws
        self.numbers = range(used.top, used.bottom + 1)
        self._rows: dict[int, list[tuple[int, Any]]] = {}
        for (r, c), cell in ws._cells.items():
            if cell._value is not None and used.top <= r <= used.bottom:
                self._rows.setdefault(r, []).append((c, cell))

    def cells(self, i: int) -> list[Cell]:
        out: list[Cell] = []
        for c, cell in sorted(self._rows.get(self.numbers[i], []), key=lambda x: x[0]):
            v, t = cell._value, cell.data_type
            if t == "f":
                text = v if isinstance(v, str) else str(getattr(v, "text", "") or "")
                out.append((c, "formula", "", text.lstrip("=")))
            elif t == "e":
                out.append((c, "error", "", ""))
            elif isinstance(v, bool):
                out.append((c, "bool", "", ""))
            elif isinstance(v, str) or t in ("s", "inlineStr"):
                out.append((c, "text", str(v), ""))
            else:
                out.append((c, "number", "", ""))
        return out

    def merges(self) -> list[Area]:
        return [
            Area((m.min_row, m.min_col, m.max_row, m.max_col)) for m in self.ws.merged_cells.ranges
        ]

    def first_blank(self, i0: int, i1: int) -> int | None:
        return next((r for r in self.numbers[i0 : i1 + 1] if r not in self._rows), None)

    def last_blank(self, number: int) -> int:
        while number + 1 <= self.numbers[-1] and number + 1 not in self._rows:
            number += 1
        return number

    def columns(self, i0: int, i1: int) -> tuple[int, int]:
        cols = [c for r in self.numbers[i0 : i1 + 1] for c, _ in self._rows.get(r, [])]
        return (min(cols), max(cols)) if cols else (1, 1)


def _selection(
    ws: Worksheet,
    *,
    cells: str | None,
    table: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    keep_blank: bool = False,
) -> Selection:
    """The selection, as :mod:`xlshuffle.workbook.selection.select` chooses it for a file
    (whole rows only for the default selection of a sheet without tables)."""
    if sum(x is not None for x in (cells, table, columns)) > 1:
        raise OptionError("give at most one of cells, table and columns")
    info = SheetInfo(ws.title, "", "worksheet", ws.sheet_state)
    tables = list(dict.values(ws.tables))  # TableList.items() gives refs, not tables

    def sel(
        kind: str,
        top: int,
        bottom: int,
        cols: list[int],
        head: bool,
        whole: bool,
        tbl: TableInfo | None = None,
    ) -> Selection:
        where = Area((top, cols[0] if cols else 1, max(top, bottom), cols[-1] if cols else 1))
        return Selection(
            sheet=info,
            kind=kind,
            top=top,
            bottom=bottom,
            cols=cols,
            header=head,
            whole_rows=whole,
            label=f"{quote_sheet(ws.title)}!{where.a1()}",
            table=tbl,
        )

    if table is None and cells is None and columns is None and len(tables) == 1:
        table = tables[0].name
    if table is not None:
        tbl = next((t for t in tables if t.name == table), None) or next(
            (t for t in tables if t.name.lower() == table.lower()), None
        )
        if tbl is None:
            raise OptionError(f"sheet {ws.title!r} has no table named {table!r}")
        area = parse_area(tbl.ref)
        if area is None:
            raise WorkbookError(f"table {tbl.name} has no readable range")
        head, totals = tbl.headerRowCount != 0, tbl.totalsRowCount or 0
        info_t = TableInfo(tbl.name, tbl.ref, int(head), totals, "")
        return sel(
            "table",
            area.top,
            area.bottom - totals,
            list(range(area.left, area.right + 1)),
            head if header is None else header,
            False,
            info_t,
        )
    used = _used(ws)
    if columns is not None:
        cols = parse_columns(columns)
        bottom = used.bottom
        if used.bottom >= used.top:
            rows = _WorksheetRows(ws, used)
            last, _ = trim_blank_tail(rows, 0, len(rows.numbers) - 1, cols)
            bottom = rows.numbers[last]
        return sel("columns", used.top, bottom, cols, True if header is None else header, False)
    if cells is not None:
        area = parse_area(cells.replace("$", ""))
        if area is None:
            raise OptionError(f"cells {cells!r} is not an A1 range such as 'A2:D200'")
        top, left, bottom, right = area
        if bottom - top + 1 == MAX_ROW:
            top, bottom = used.top, used.bottom
        if right - left + 1 == MAX_COL:
            left, right = used.left, used.right
        return sel("range", top, bottom, list(range(left, right + 1)), bool(header), False)
    top, bottom = used.top, used.bottom
    if bottom >= top and not tables:
        rows = _WorksheetRows(ws, used)
        found = find_data(
            rows,
            0,
            len(rows.numbers) - 1,
            header=header is not False,
            where=f"sheet {ws.title!r}",
            keep_blank=keep_blank,
        )
        top, bottom = rows.numbers[found.top], rows.numbers[found.bottom]
        left, right = rows.columns(found.top, found.bottom)
        used = Area((top, left, bottom, right))
    cols = list(range(used.left, used.right + 1))
    return sel("sheet", top, bottom, cols, True if header is None else header, True)


def _check(ws: Worksheet, sel: Selection, mode: str) -> None:
    """The refusals of :func:`~.move.refusals.check_movable`, on what openpyxl holds."""
    from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula

    where = f"sheet {ws.title!r}"
    if ws.protection.sheet:
        raise WorkbookError(f"{where} is protected: unprotect it first")
    region = sel.moving_area(mode)
    for rng in ws.merged_cells.ranges:
        area = Area((rng.min_row, rng.min_col, rng.max_row, rng.max_col))
        if region.overlaps(area) and not (
            mode == "rows" and area.top == area.bottom and (sel.whole_rows or region.contains(area))
        ):
            raise WorkbookError(
                f"{where}: merged cells {rng.coord} span cells the draw moves "
                "apart: unmerge them or choose a selection without them"
            )
    for tbl in dict.values(ws.tables):
        ref = parse_area(tbl.ref)
        mine = sel.table is not None and tbl.name == sel.table.name
        if ref is not None and not mine and sel.moves_any_of(ref, mode):
            raise WorkbookError(
                f"{where}: the selection cuts through table {tbl.name} ({tbl.ref}): use "
                f"table={tbl.name!r}, or cells= inside its data rows covering all its columns"
            )
    if sel.table is not None and mode == "columns":
        raise WorkbookError(
            f"{where}: moving whole columns would reorder table {sel.table.name} "
            f"({sel.table.ref}), whose column list Excel keeps separately: shuffle its rows, "
            "or convert it to a range in Excel first"
        )
    for pivot in getattr(ws, "_pivots", ()):  # openpyxl lists them nowhere public
        out = parse_area(str(getattr(pivot.location, "ref", "") or ""))
        if out is not None and sel.moves_any_of(out, mode):
            raise WorkbookError(
                f"{where}: pivot table output {out.a1()} lies in the selection: "
                "choose a range without it (a pivot table refreshes its own cells)"
            )
    for cell in ws._cells.values():
        value = cell.value
        if isinstance(value, ArrayFormula | DataTableFormula):
            spans = parse_area(str(value.ref or "")) or Area((cell.row, cell.column) * 2)
            if sel.moves_any_of(spans, mode):
                raise WorkbookError(
                    f"{where}: cell {cell.coordinate} holds an array formula, which "
                    "cannot move cell by cell: replace it with its values"
                )


def _checked(
    ws: Worksheet, options: dict[str, Any], mode: str, keep_blank: bool
) -> tuple[Selection, list[int] | None]:
    """The selection, checked, and the data rows not kept blank (indexes among the data
    rows; ``None``: all)."""
    sel = _selection(ws, keep_blank=keep_blank, **options)
    sel.whole_rows = sel.moves_whole_rows(mode)
    if not sel.cols or sel.n_body <= 0:
        return sel, None
    _check(ws, sel, mode)
    free: list[int] | None = None
    if keep_blank:
        colset = set(sel.cols)
        valued = {r for (r, c), cell in ws._cells.items() if cell.value is not None and c in colset}
        body_top = sel.body_top
        free = [r - body_top for r in range(body_top, sel.bottom + 1) if r in valued]
    return sel, free


def shuffle_worksheet(
    ws: Worksheet,
    *,
    cells: str | None = None,
    table: str | None = None,
    columns: str | Sequence[str] | None = None,
    header: bool | None = None,
    by: str = "rows",
    seed: object = None,
    keep_blank_rows: bool = False,
) -> list[Any]:
    """Shuffle a selection of an openpyxl worksheet in memory, as ``shuffle_workbook``
    would in a file.

    Options and defaults are those of :func:`xlshuffle.workbook.shuffle_workbook`: the
    sheet's only table, or else the used range with a header row and whole rows moving
    (cells, row heights and row formats); with ``cells``, ``table`` or ``columns`` only
    those cells move. Moved cells keep value, style, hyperlink and comment; formulas are
    translated as Excel translates them when it sorts.

    A layout refusal names only the options whose selection passes the same checks
    (a formula that cannot move is found only while moving, as in a file's dry run it is
    found before anything is written). ``keep_blank_rows`` leaves the rows without a
    value in the selected columns in place, as ``shuffle_workbook`` does.

    Returns
    -------
    list
        The permutation drawn: ``result[p]`` is the 0-based index of the item (data row,
        column or cell) now at position ``p``.

    Examples
    --------
    >>> import openpyxl, xlshuffle
    >>> wb = openpyxl.Workbook()
    >>> for row in [["name", "n"], ["Ann", 1], ["Bob", 2], ["Cid", 3], ["Dee", 4]]:
    ...     wb.active.append(row)
    >>> wb.active["C2"] = "=B2*10"
    >>> shuffle_worksheet(wb.active, seed=42)
    [0, 3, 1, 2]
    >>> [[c.value for c in row] for row in wb.active.iter_rows(min_row=2)]
    [['Ann', 1, '=B2*10'], ['Dee', 4, None], ['Bob', 2, None], ['Cid', 3, None]]
    """
    mode = parse_mode(by)
    if keep_blank_rows and mode != "rows":
        raise OptionError(f"keep_blank_rows works with by='rows', not by={mode!r}")
    stream = as_stream(seed)
    options = {"cells": cells, "table": table, "columns": columns, "header": header}
    try:
        sel, free = _checked(ws, options, mode, keep_blank_rows)
    except LayoutRefusal as exc:  # name only the options that pass the checks

        def attempt(o: dict[str, Any]) -> object:
            picked = {k: v for k, v in o.items() if k != "keep_blank_rows"}
            return _checked(ws, {**options, **picked}, mode, bool(o.get("keep_blank_rows")))

        refuse(exc, attempt, header=header)
    top, bottom, cols, whole = sel.top, sel.bottom, sel.cols, sel.whole_rows
    if sel.n_body <= 0 or not cols:  # the rule of the file engine (jobs.refuse_no_data)
        if bottom < top or not cols:
            raise WorkbookError(f"sheet {ws.title!r} holds no data: nothing to draw")
        raise WorkbookError(
            f"sheet {ws.title!r}: the selection is only a header row (row {top}), no data "
            f"rows: nothing to draw; if row {top} is data, pass header=False, or give the "
            "rows with cells="
        )
    n = sel.n_body
    perm = draw_permutation(mode, n if free is None else len(free), len(cols), stream)
    if free is not None:
        perm = spread(perm, n, free)
    first = sel.moving_top(mode)
    dest = destination(mode, first, cols, perm)
    colset = set(cols)
    mover = FormulaMover()
    store = ws._cells
    keys = [k for k in store if first <= k[0] <= bottom and (whole or k[1] in colset)]
    held = [store.pop(k) for k in keys]
    for cell in held:
        r, c = cell.row, cell.column
        nr, nc = (dest(r, cols[0])[0], c) if whole else dest(r, c)
        store[(nr, nc)] = cell
        if (nr, nc) == (r, c):
            continue
        origin = cell.coordinate
        cell.row, cell.column = nr, nc
        if cell.data_type == "f" and isinstance(cell.value, str):
            try:
                cell.value = "=" + mover.move(cell.value[1:], r, c, nr, nc)
            except FormulaMoveError as exc:
                raise WorkbookError(
                    f"sheet {ws.title!r}: the formula in {origin} cannot move to "
                    f"{cell.coordinate} ({exc.reason}): replace it with its value or choose "
                    "a selection without it"
                ) from None
        link = cell.hyperlink
        if link is not None:
            link.ref = cell.coordinate
    if whole:
        inv = inverse(perm)
        dims = ws.row_dimensions
        moved = [(r, dims.pop(r)) for r in list(dims) if first <= r <= bottom]
        for r, dim in moved:
            dim.index = first + inv[r - first]
            dims[dim.index] = dim
        for rng in ws.merged_cells.ranges:
            if first <= rng.min_row <= bottom:
                rng.shift(0, first + inv[rng.min_row - first] - rng.min_row)
    return perm
