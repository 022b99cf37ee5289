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

from ...draw.errors import OptionError, WorkbookError
from ...draw.grid import Mode, parse_mode
from ...draw.protocol import as_stream
from ..formulas.translate import FormulaMoveError, FormulaMover
from ..move.plan import destination, draw_permutation, inverse
from ..selection.keep import spread
from ..selection.select import Selection
from ..selection.suggest import LayoutRefusal, refuse
from .rules import check_worksheet, selection_of

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["shuffle_worksheet"]


def _checked(
    ws: Worksheet, options: dict[str, Any], mode: Mode, keep_blank: bool
) -> tuple[Selection, list[int] | None]:
    """The selection, checked, and the data rows not kept blank (indexes among the data
    rows; ``None``: all)."""
    sel = selection_of(ws, keep_blank=keep_blank, **options)
    sel.whole_rows = sel.moves_whole_rows(mode)
    if not sel.cols or sel.n_body <= 0:
        return sel, None
    check_worksheet(ws, sel, mode)
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
    _refuse_no_data(ws, sel)
    n = sel.n_body
    perm = draw_permutation(mode, n if free is None else len(free), len(sel.cols), stream)
    if free is not None:
        perm = spread(perm, n, free)
    _move_cells(ws, sel, mode, perm)
    if sel.whole_rows:
        _move_rows(ws, sel.moving_top(mode), sel.bottom, perm)
    return perm


def _refuse_no_data(ws: Worksheet, sel: Selection) -> None:
    """The rule of the file engine (``jobs.refuse_no_data``): no data rows, no draw."""
    if sel.n_body > 0 and sel.cols:
        return
    if sel.bottom < sel.top or not sel.cols:
        raise WorkbookError(f"sheet {ws.title!r} holds no data: nothing to draw")
    top = sel.top
    raise WorkbookError(
        f"sheet {ws.title!r}: the selection is only a header row (row {top}), no data "
        f"rows: nothing to draw; if row {top} is data, pass header=False, or give the "
        "rows with cells="
    )


def _move_cells(ws: Worksheet, sel: Selection, mode: Mode, perm: list[Any]) -> None:
    """Every moving cell to its place, its formula translated and its hyperlink along."""
    first, bottom, cols, whole = sel.moving_top(mode), sel.bottom, sel.cols, sel.whole_rows
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


def _move_rows(ws: Worksheet, first: int, bottom: int, perm: list[Any]) -> None:
    """Whole rows: each row's height and format, and its one-row merges, go along."""
    inv = inverse(perm)
    dims = ws.row_dimensions
    moved = [(r, dims.pop(r)) for r in list(dims) if first <= r <= bottom]
    for r, dim in moved:
        dim.index = first + inv[r - first]
        dims[dim.index] = dim
    for rng in ws.merged_cells.ranges:
        if first <= rng.min_row <= bottom:
            rng.shift(0, first + inv[rng.min_row - first] - rng.min_row)
