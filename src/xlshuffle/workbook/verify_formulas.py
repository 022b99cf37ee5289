"""``verify``'s check of moved formulas: each reads as its input formula translated to
the cell the draw puts it in (:mod:`.records.formulatext` reads and compares them)."""

from __future__ import annotations

import os

from ..draw.errors import WorkbookError
from ..draw.grid import parse_mode
from .jobs import job_from_record
from .move.plan import destination
from .records.formulatext import canonical, first_formula_mismatch, formulas_at
from .records.record import DrawRecord
from .scan.refs import cell_ref
from .scan.sheet import SheetXml

__all__ = ["verify_formulas"]

PathLike = str | os.PathLike[str]


def verify_formulas(record: DrawRecord, src: PathLike, dst: PathLike) -> None:
    """Each moved formula must read as its input formula translated to its new cell."""
    job = job_from_record(src, record)
    sel, mode = job.sel, parse_mode(record.mode)
    if sel.moves_nothing(mode):
        return
    area = sel.moving_area(mode)
    cols = None if sel.moves_whole_rows(mode) else set(sel.cols)
    dest = destination(mode, sel.moving_top(mode), sel.cols, record.permutation)
    held = [job.sx]  # the input's sheet read once already; opened again if needed
    del job

    def before() -> SheetXml:
        return held.pop() if held else job_from_record(src, record).sx

    row = first_formula_mismatch(before, lambda: job_from_record(dst, record).sx, area, cols, dest)
    if row is not None:
        sx_in, sx_out = (job_from_record(p, record).sx for p in (src, dst))
        put, found = formulas_at(sx_in, sx_out, area, cols, dest, row)
        cols_differing = [c for c in sorted(put.keys() | found.keys()) if not _same(put, found, c)]
        col = cols_differing[0] if cols_differing else area.left
        raise WorkbookError(
            f"{os.fspath(dst)}: sheet {record.sheet!r} cell {cell_ref(row, col)} holds "
            f"{_shown(found.get(col))}, not {_shown(put.get(col))}, the input's formula "
            "translated to where the draw puts it: the output was edited after the draw"
        )


def _same(put: dict[int, str | None], found: dict[int, str | None], col: int) -> bool:
    a, b = put.get(col), found.get(col)
    return (a is None) == (b is None) and (a is None or canonical(a) == canonical(b or ""))


def _shown(text: str | None) -> str:
    return "no formula" if text is None else f"={text}"
