"""``verify``'s check of moved formulas: each reads as its input formula translated to
the cell the draw puts it in (:mod:`.records.formulatext` reads and compares them).

:class:`FormulaCheck` takes each sheet while ``verify`` has it open for the cells
(:meth:`~FormulaCheck.expect` the input's, :meth:`~FormulaCheck.find` the output's), so
no sheet is read twice when all is well. Each side keeps one digest per row, its formulas
compared by their row keys (no translation for a formula moved with its row); only when
a row differs are both sheets read again and the formulas compared by their translated,
canonical text, which also accepts an output re-saved by Excel or openpyxl.
"""

from __future__ import annotations

import os
from array import array

from ...common.record import DrawRecord
from ...draw.errors import WorkbookError
from ...draw.grid import parse_mode
from ..jobs import job_from_record
from ..move.plan import destination
from ..records.formulatext import (
    Text,
    canonical,
    expected_digests,
    first_mismatch,
    formulas_at,
    found_digests,
)
from ..scan.refs import cell_ref
from ..scan.sheet import SheetXml
from ..selection.select import Selection

__all__ = ["FormulaCheck"]

PathLike = str | os.PathLike[str]


class FormulaCheck:
    """The formulas of one shuffle's moving area, input against output."""

    def __init__(self, record: DrawRecord, sel: Selection, src: PathLike, dst: PathLike) -> None:
        mode = parse_mode(record.mode)
        self.record, self.paths = record, (src, dst)
        self.idle = sel.moves_nothing(mode)
        if self.idle:
            return
        self.area = sel.moving_area(mode)
        self.cols = None if sel.moves_whole_rows(mode) else set(sel.cols)
        self.dest = destination(mode, sel.moving_top(mode), sel.cols, record.permutation)
        self.expected: array[int] | None = None
        self.found: array[int] | None = None

    def expect(self, sx: SheetXml) -> None:
        """Digest the input's formulas (its sheet ``sx`` being open)."""
        if not self.idle and self.expected is None:
            self.expected = expected_digests(sx, self.area, self.cols, self.dest)

    def find(self, sx: SheetXml) -> None:
        """Digest the output's formulas (its sheet ``sx`` being open)."""
        if not self.idle and self.found is None:
            self.found = found_digests(sx, self.area, self.cols)

    def check(self) -> None:
        """Raise WorkbookError, naming the cell, unless every moved formula reads as its
        translation (a side not digested yet is read now)."""
        if self.idle:
            return
        if self.expected is None:
            self.expect(job_from_record(self.paths[0], self.record).sx)
        if self.found is None:
            self.find(job_from_record(self.paths[1], self.record).sx)
        if self.expected == self.found:
            return
        area, cols, dest = self.area, self.cols, self.dest
        sx = job_from_record(self.paths[0], self.record).sx
        want = expected_digests(sx, area, cols, dest, "canonical")
        del sx
        out = job_from_record(self.paths[1], self.record).sx
        row = first_mismatch(want, found_digests(out, area, cols, "canonical"), area.top)
        if row is not None:
            sx = job_from_record(self.paths[0], self.record).sx
            self._refuse(row, *formulas_at(sx, out, area, cols, dest, row))

    def _refuse(self, row: int, put: dict[int, Text], found: dict[int, Text]) -> None:
        differ = [c for c in sorted(put.keys() | found.keys()) if not _same(put, found, c)]
        col = differ[0] if differ else self.area.left
        raise WorkbookError(
            f"{os.fspath(self.paths[1])}: sheet {self.record.sheet!r} cell {cell_ref(row, col)} "
            f"holds {_shown(found.get(col))}, not {_shown(put.get(col))}, the input's formula "
            "translated to where the draw puts it: the output was edited after the draw"
        )


def _same(put: dict[int, Text], found: dict[int, Text], col: int) -> bool:
    a, b = put.get(col), found.get(col)
    return (a is None) == (b is None) and (a is None or canonical(a) == canonical(b or ""))


def _shown(text: Text) -> str:
    return "no formula" if text is None else f"={text}"
