"""Shuffle a selection of a workbook: the plan of every part a draw changes.

:func:`plan_move` turns a selection and a permutation into :class:`~.output.Changes`: the
drawn sheet rewritten (moved rows or cells, merges and hyperlinks that travel with them),
the sheet's comments, VML note shapes and threaded comments, the calculation chain
removed and full recalculation asked for when formulas may now see other values. Every
other part is left to be copied byte for byte.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from ...draw.errors import WorkbookError
from ...draw.grid import Mode
from ...draw.knuth import permutation
from ...draw.protocol import DrawStream
from ..formulas.translate import FormulaMover
from ..limits import LIMITS
from ..package.parts import Book
from ..package.readwrite import Changes, Input
from ..package.zipread import left_unread
from ..scan.edits import splice
from ..scan.refs import Area
from ..scan.sheet import SheetXml, sheet_label
from ..scan.xmlscan import tag_end
from ..selection.select import Selection
from .anchors import ANCHORED, DestOf, retarget_refs, retarget_vml
from .block import BlockMover
from .cells import (
    Region,
    SharedGroups,
    expand_shared,
    move_cells,
    move_rows,
)
from .cellwrite import has_number, rewrite_row_tag

__all__ = ["destination", "draw_permutation", "inverse", "plan_move"]

Dest = Callable[[int, int], tuple[int, int]]
_ANY_FORMULA = re.compile(rb"<(?:[\w.-]+:)?f[\s>/]")


def draw_permutation(
    mode: Mode, n_rows: int, n_cols: int, stream: DrawStream, label: str = ""
) -> list[Any]:
    """The permutation(s) of one draw, consumed from ``stream`` as ``shuffle_grid`` does
    (``label``, the file and sheet, goes in messages)."""
    if mode in ("cells", "within-rows", "within-columns"):
        draws = n_rows * n_cols
        if draws > LIMITS.max_cell_draws:
            where = f"{label}: " if label else ""
            raise WorkbookError(
                f"{where}the selection spans {draws:,} cells and --by {mode} draws one number "
                f"per cell (at most {LIMITS.max_cell_draws:,}): choose a smaller range, or "
                "raise the limit with --max-cells N"
            )
    if mode == "rows":
        return permutation(n_rows, seed=stream)
    if mode == "columns":
        return permutation(n_cols, seed=stream)
    if mode == "cells":
        return permutation(n_rows * n_cols, seed=stream)
    if mode == "within-rows":
        return [permutation(n_cols, seed=stream) for _ in range(n_rows)]
    return [permutation(n_rows, seed=stream) for _ in range(n_cols)]


def inverse_array(perm: Sequence[int]) -> array[int]:
    """:func:`inverse` as a compact array (8 bytes an item, not 36): for lookups."""
    inv = array("q", bytes(8 * len(perm)))
    for pos, item in enumerate(perm):
        inv[item] = pos
    return inv


class _Inverse:
    """:func:`inverse_array`, computed when first asked: a draw whose sheet has nothing
    that points at its cells (merges, links, comments...) never needs it, and a million
    rows take 0.3 s."""

    def __init__(self, perm: Sequence[int]) -> None:
        self.perm = perm
        self.inv: array[int] | None = None

    def __getitem__(self, i: int) -> int:
        if self.inv is None:
            self.inv = inverse_array(self.perm)
        return self.inv[i]


def inverse(perm: Sequence[int]) -> list[int]:
    """``inverse(p)[p[i]] == i``."""
    inv = [0] * len(perm)
    for pos, item in enumerate(perm):
        inv[item] = pos
    return inv


def destination(mode: Mode, top: int, cols: list[int], perm: Sequence[Any]) -> Dest:
    """Where the cell at ``(row, col)`` of the moving block goes; ``perm[p] = s`` means
    item ``s`` lands at position ``p``."""
    pos = {c: j for j, c in enumerate(cols)}
    width = len(cols)
    if mode in ("rows", "columns", "cells"):
        inv = _Inverse(perm)
        if mode == "rows":
            return lambda r, c: (top + inv[r - top], c)
        if mode == "columns":
            return lambda r, c: (r, cols[inv[pos[c]]])

        def cell_dest(r: int, c: int) -> tuple[int, int]:
            q = inv[(r - top) * width + pos[c]]
            return top + q // width, cols[q % width]

        return cell_dest
    invs = [inverse(p) for p in perm]
    if mode == "within-rows":
        return lambda r, c: (r, cols[invs[r - top][pos[c]]])
    return lambda r, c: (top + invs[pos[c]][r - top], c)


def needs_full_calc(book: Book, sx: SheetXml, part: str) -> bool:
    """Whether anything may hold a cached value computed from the moved cells: a formula
    on any sheet, a defined name, a chart or a pivot table. Another sheet too large to
    read (:func:`.zipio.left_unread`) is assumed to hold formulas."""
    if _ANY_FORMULA.search(sx.data) or re.search(rb"<(?:[\w.-]+:)?definedName[\s>]", book.xml):
        return True
    if any("/charts/" in m.name or "pivotCache" in m.name for m in book.pkg.members):
        return True
    for s in book.sheets:
        other = book.pkg.find(s.part) if s.kind == "worksheet" else None
        if other is None or other == part:
            continue
        if left_unread(book.pkg.by_name[other]):
            return True
        for chunk in book.pkg.chunks(other, limit=LIMITS.max_sheet_bytes):
            if _ANY_FORMULA.search(chunk):
                return True
    return False


def plan_move(
    inp: Input,
    sx: SheetXml,
    sel: Selection,
    mode: Mode,
    perm: Sequence[Any],
    *,
    careful: bool = False,
) -> Changes:
    """Every part a shuffle of ``sel`` by ``perm`` changes, as lazily written content.

    A block of contiguous columns moving with its rows takes the streaming
    :class:`~.block.BlockMover`, which writes what :func:`~.cells.move_cells` writes;
    ``careful`` forces the latter (tests compare the two). Other selections (a column
    list with holes, every other mode) move cell by cell.
    """
    book = inp.book
    changes = Changes(like=sel.sheet.part)
    if sel.moves_nothing(mode):
        return changes
    top = sel.moving_top(mode)
    touched = sel.moving_area(mode)
    _refuse_foreign_between(inp, sx, sel, top)
    mover = FormulaMover()
    shared = SharedGroups(sx, touched)
    dest_of, moved = _moved_rows(sx, sel, mode, perm, mover, shared, careful=careful)
    edits = [moved] if moved is not None else []
    if shared:
        edits += _expanded_shared(sx, top, sel.bottom, mover, shared)
    edits += _next_row_numbered(sx, sel.bottom, edits)
    label = sheet_label(inp.path, sel.sheet.name)
    contiguous = sel.cols[-1] - sel.cols[0] + 1 == len(sel.cols)
    # inside ``touched``, a row move does not look at the column, a column move at the row
    axis = "rows" if mode == "rows" and contiguous else "cols" if mode == "columns" else ""
    tail = retarget_refs(
        sx.data, ANCHORED["sheet"], dest_of, label, sx.content_end, bounds=touched, axis=axis
    )
    if tail is not None:
        edits.append((sx.content_end, len(sx.data), tail[sx.content_end :]))
    changes.changed[sel.sheet.part] = splice(sx.data, edits)
    _plan_comments(book, sel, dest_of, label, changes, touched, axis)
    _plan_recalculation(book, sx, sel, top, bool(shared), changes)
    return changes


def _refuse_foreign_between(inp: Input, sx: SheetXml, sel: Selection, top: int) -> None:
    """Refuse anything but rows (an XML comment aside) between the rows to draw."""
    first, last = sx.index_of(top), sx.index_of(sel.bottom + 1)
    if any(first < i < last for i in sx.foreign):
        raise WorkbookError(
            f"{sheet_label(inp.path, sel.sheet.name)}: the sheet data holds something other "
            "than rows between the rows to draw: open the workbook in Excel, save it again, "
            "and retry"
        )


def _moved_rows(
    sx: SheetXml,
    sel: Selection,
    mode: Mode,
    perm: Sequence[Any],
    mover: FormulaMover,
    shared: SharedGroups,
    *,
    careful: bool,
) -> tuple[DestOf, tuple[int, int, Any] | None]:
    """Where each moving cell goes, and the edit that moves the rows: whole rows
    (:func:`~.cells.move_rows`), a block of columns with its rows (:class:`~.block.BlockMover`)
    or cell by cell (:func:`~.cells.move_cells`)."""
    top, bottom = sel.moving_top(mode), sel.bottom
    first, last = sx.index_of(top), sx.index_of(bottom + 1)
    region = Region(top, bottom, sel.cols)
    if mode == "rows" and sel.whole_rows:
        inv = _Inverse(perm)

        def row_dest(r: int, c: int) -> tuple[int, int] | None:
            return (top + inv[r - top], c) if top <= r <= bottom else None

        if first >= last:
            return row_dest, None
        return row_dest, (
            sx.starts[first],
            sx.ends[last - 1],
            move_rows(sx, region, perm, mover, shared),
        )
    dest = destination(mode, top, sel.cols, perm)
    colset = set(sel.cols)

    def cell_dest(r: int, c: int) -> tuple[int, int] | None:
        return dest(r, c) if top <= r <= bottom and c in colset else None

    contiguous = sel.cols[-1] - sel.cols[0] + 1 == len(sel.cols)
    if mode == "rows" and contiguous and first < last and not careful:
        block = BlockMover(sx, top, bottom, sel.cols, mover, shared)
        return cell_dest, (sx.starts[first], sx.ends[last - 1], block.rows(perm))
    return cell_dest, move_cells(sx, region, dest, mover, shared)


def _expanded_shared(
    sx: SheetXml, top: int, bottom: int, mover: FormulaMover, shared: SharedGroups
) -> list[tuple[int, int, Any]]:
    """Rows outside the draw that hold members of touched shared formulas, written out."""
    outside = [
        i
        for i in range(len(sx))
        if not top <= sx.numbers[i] <= bottom
        and shared.rows
        and shared.rows[0] <= sx.numbers[i] <= shared.rows[-1]
    ]
    return [
        (sx.starts[i], sx.ends[i], row)
        for i, row in expand_shared(sx, outside, mover, shared).items()
    ]


def _next_row_numbered(
    sx: SheetXml, bottom: int, edits: list[tuple[int, int, Any]]
) -> list[tuple[int, int, Any]]:
    """The first row after the drawn ones, when its place is implied by them (no ``r``):
    it says its number now."""
    last = sx.index_of(bottom + 1)
    if last >= len(sx) or has_number(sx.row(last)):
        return []
    if any(s <= sx.starts[last] < e for s, e, _ in edits):
        return []
    row = sx.row(last)
    return [
        (sx.starts[last], sx.ends[last], rewrite_row_tag(row, tag_end(row, 0), sx.numbers[last]))
    ]


def _plan_recalculation(
    book: Book, sx: SheetXml, sel: Selection, top: int, shared: bool, changes: Changes
) -> None:
    """The calculation chain goes when formulas moved; a full recalculation is asked for
    when anything may hold a value computed from the moved cells."""
    i0, i1 = sx.index_of(top), sx.index_of(sel.bottom + 1)
    moved_formulas = i0 < i1 and _ANY_FORMULA.search(sx.data, sx.starts[i0], sx.ends[i1 - 1])
    if moved_formulas or shared:
        changed, removed = book.without_calc_chain()
        changes.changed.update(changed)
        changes.removed.extend(removed)
    if needs_full_calc(book, sx, sel.sheet.part):
        changes.changed[book.part] = book.with_full_calc()


#: A sheet's comment parts by relationship type: their anchors, and what messages call them.
_COMMENTS = {
    "comments": ("comments", "comments"),
    "threadedComment": ("threadedComments", "threaded comments"),
}


def _plan_comments(
    book: Book,
    sel: Selection,
    dest_of: DestOf,
    label: str,
    changes: Changes,
    bounds: Area,
    axis: str,
) -> None:
    """The comments, threaded comments and VML note shapes of the sheet, moved with their
    cells."""
    for rel in book.rels(sel.sheet.part):
        part = None if rel.external else book.pkg.find(rel.target)
        if part is None:
            continue
        if rel.type in _COMMENTS:
            kinds, what = _COMMENTS[rel.type]
            new = retarget_refs(
                book.read(part),
                ANCHORED[kinds],
                dest_of,
                f"{label}: {what}",
                bounds=bounds,
                axis=axis,
            )
        elif rel.type == "vmlDrawing":
            new = retarget_vml(book.read(part), dest_of)
        else:
            continue
        if new is not None:
            changes.changed[part] = new
