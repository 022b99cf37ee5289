"""Draws on an openpyxl worksheet you already hold in memory.

For scripts that build or edit a workbook with openpyxl: :func:`shuffle_worksheet` moves
cells of a :class:`openpyxl.worksheet.worksheet.Worksheet` with the same draw protocol,
options and rules as :func:`xlshuffle.workbook.shuffle_workbook` - same seed, same order.
Saving is then yours (``wb.save(...)``), with openpyxl's limits: to shuffle a file on disk
without losing anything openpyxl does not model, use ``shuffle_workbook``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..draw.errors import OptionError, WorkbookError
from ..draw.grid import parse_mode
from ..draw.protocol import as_stream
from .move.plan import destination, draw_permutation, inverse
from .scan.refs import MAX_COL, MAX_ROW, Area, parse_area
from .selection.keep import spread
from .selection.layout import Cell, Rows, find_data, trim_blank_tail
from .selection.select import parse_columns
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
        return [Area((m.min_row, m.min_col, m.max_row, m.max_col))
                for m in self.ws.merged_cells.ranges]  # fmt: skip

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
) -> tuple[int, int, list[int], bool, bool]:
    """``(top, bottom, cols, header, whole_rows)``, as :mod:`xlshuffle.workbook.selection.select`
    chooses them for a file."""
    if sum(x is not None for x in (cells, table, columns)) > 1:
        raise OptionError("give at most one of cells, table and columns")
    if table is None and cells is None and columns is None and len(ws.tables) == 1:
        table = next(iter(ws.tables))
    if table is not None:
        tbl = ws.tables.get(table) or next(
            (t for n, t in ws.tables.items() if n.lower() == table.lower()), None
        )
        if tbl is None:
            raise OptionError(f"sheet {ws.title!r} has no table named {table!r}")
        area = parse_area(tbl.ref)
        if area is None:
            raise WorkbookError(f"table {tbl.name} has no readable range")
        has_head = tbl.headerRowCount != 0
        return (area.top, area.bottom - (tbl.totalsRowCount or 0),
                list(range(area.left, area.right + 1)),
                has_head if header is None else header, False)  # fmt: skip
    used = _used(ws)
    if columns is not None:
        cols = parse_columns(columns)
        bottom = used.bottom
        if used.bottom >= used.top:
            rows = _WorksheetRows(ws, used)
            last, _ = trim_blank_tail(rows, 0, len(rows.numbers) - 1, cols)
            bottom = rows.numbers[last]
        return used.top, bottom, cols, True if header is None else header, False
    if cells is not None:
        area = parse_area(cells.replace("$", ""))
        if area is None:
            raise OptionError(f"cells {cells!r} is not an A1 range such as 'A2:D200'")
        top, left, bottom, right = area
        if bottom - top + 1 == MAX_ROW:
            top, bottom = used.top, used.bottom
        if right - left + 1 == MAX_COL:
            left, right = used.left, used.right
        return top, bottom, list(range(left, right + 1)), bool(header), False
    top, bottom = used.top, used.bottom
    if bottom >= top and not ws.tables:
        rows = _WorksheetRows(ws, used)
        found = find_data(rows, 0, len(rows.numbers) - 1, header=header is not False,
                          where=f"sheet {ws.title!r}", keep_blank=keep_blank)  # fmt: skip
        top, bottom = rows.numbers[found.top], rows.numbers[found.bottom]
        left, right = rows.columns(found.top, found.bottom)
        used = Area((top, left, bottom, right))
    cols = list(range(used.left, used.right + 1))
    return top, bottom, cols, True if header is None else header, True


def _check(ws: Worksheet, top: int, bottom: int, cols: list[int], mode: str,
           whole: bool) -> None:  # fmt: skip
    from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula

    if ws.protection.sheet:
        raise WorkbookError(f"sheet {ws.title!r} is protected: unprotect it first")
    region = Area((top, cols[0], bottom, cols[-1]))
    for rng in ws.merged_cells.ranges:
        area = Area((rng.min_row, rng.min_col, rng.max_row, rng.max_col))
        hit = region.overlaps(area) or (whole and not (area.bottom < top or area.top > bottom))
        if hit and not (mode == "rows" and area.top == area.bottom
                        and (whole or region.contains(area))):  # fmt: skip
            raise WorkbookError(
                f"sheet {ws.title!r}: merged cells {rng.coord} span cells the draw moves "
                "apart: unmerge them or choose a selection without them"
            )
    colset = set(cols)
    for (r, c), cell in ws._cells.items():
        if (
            top <= r <= bottom
            and (whole or c in colset)
            and isinstance(cell._value, ArrayFormula | DataTableFormula)
        ):
            raise WorkbookError(
                f"sheet {ws.title!r}: cell {cell.coordinate} holds an array formula, which "
                "cannot move cell by cell: replace it with its values"
            )


_Checked = tuple[int, int, list[int], bool, int, list[int] | None]


def _checked(ws: Worksheet, options: dict[str, Any], mode: str, keep_blank: bool) -> _Checked:
    """The selection, checked: top, bottom, columns, whole rows, first data row and the
    data rows not kept blank (indexes among the data rows; ``None``: all)."""
    top, bottom, cols, has_header, whole = _selection(ws, keep_blank=keep_blank, **options)
    whole = whole and mode == "rows"
    body_top = top + 1 if has_header else top
    if bottom < body_top or not cols:
        return top, bottom, cols, whole, body_top, None
    _check(ws, top if mode == "columns" else body_top, bottom, cols, mode, whole)
    free: list[int] | None = None
    if keep_blank:
        colset = set(cols)
        valued = {r for (r, c), cell in ws._cells.items()
                  if cell._value is not None and c in colset}  # fmt: skip
        free = [r - body_top for r in range(body_top, bottom + 1) if r in valued]
    return top, bottom, cols, whole, body_top, free


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
    from openpyxl.formula.translate import Translator, TranslatorError

    mode = parse_mode(by)
    if keep_blank_rows and mode != "rows":
        raise OptionError(f"keep_blank_rows works with by='rows', not by={mode!r}")
    stream = as_stream(seed)
    options = {"cells": cells, "table": table, "columns": columns, "header": header}
    try:
        top, bottom, cols, whole, body_top, free = _checked(ws, options, mode, keep_blank_rows)
    except LayoutRefusal as exc:  # name only the options that pass the checks

        def attempt(o: dict[str, Any]) -> object:
            picked = {k: v for k, v in o.items() if k != "keep_blank_rows"}
            return _checked(ws, {**options, **picked}, mode, bool(o.get("keep_blank_rows")))

        refuse(exc, attempt, header=header)
    if bottom < body_top or not cols:  # the rule of the file engine (jobs.refuse_no_data)
        if bottom < top or not cols:
            raise WorkbookError(f"sheet {ws.title!r} holds no data: nothing to draw")
        raise WorkbookError(
            f"sheet {ws.title!r}: the selection is only a header row (row {top}), no data "
            f"rows: nothing to draw; if row {top} is data, pass header=False, or give the "
            "rows with cells="
        )
    n = bottom - body_top + 1
    perm = draw_permutation(mode, n if free is None else len(free), len(cols), stream)
    if free is not None:
        perm = spread(perm, n, free)
    first = top if mode == "columns" else body_top
    dest = destination(mode, first, cols, perm)
    colset = set(cols)
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
        if getattr(cell, "data_type", None) == "f" and isinstance(cell._value, str):
            try:
                cell._value = Translator(cell._value, origin=origin).translate_formula(
                    cell.coordinate
                )
            except TranslatorError as exc:
                raise WorkbookError(
                    f"sheet {ws.title!r}: the formula in {origin} cannot move to "
                    f"{cell.coordinate} ({exc})"
                ) from None
        link = getattr(cell, "_hyperlink", None)  # a MergedCell has none
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
