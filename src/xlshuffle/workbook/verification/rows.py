"""``verify``'s rows: the output's rows against the input's, by digest first, then
(:class:`RowsAgain`) value by value for a row whose XML differs, naming the first cell
that does not hold what the draw puts there."""

from __future__ import annotations

import os
from array import array

from ...common.a1 import col_letters
from ...common.record import DrawRecord
from ...draw.errors import WorkbookError
from ..jobs import job_from_record
from ..records.rowdigest import norm_general
from ..scan.sheet import SheetXml
from ..values.reader import CellReader

__all__ = ["RowsAgain", "row_values", "verify_rows"]

PathLike = str | os.PathLike[str]


#: A sheet of one side, and the reader of its workbook's values.
_Sheet = tuple[SheetXml, CellReader]


class RowsAgain:
    """Both sheets again, opened only when a row's digest differs: the same values, cell
    by cell, are still the same row (a file re-saved by Excel renumbers shared strings
    and styles; formula cells are skipped, their values are recomputed by design), and
    otherwise the first differing cell is named."""

    def __init__(self, record: DrawRecord, src: PathLike, dst: PathLike) -> None:
        self.record, self.paths = record, (src, dst)
        self.sheets: tuple[_Sheet, ...] | None = None
        self.cached: tuple[dict[int, dict[int, object]], ...] = ({}, {})

    def _open(self) -> tuple[_Sheet, ...]:
        if self.sheets is None:
            jobs = [job_from_record(p, self.record) for p in self.paths]
            self.sheets = tuple((j.sx, CellReader.of(j.inp.book)) for j in jobs)
        return self.sheets

    def cell_value(self, side: int, key: tuple[int, int]) -> object:
        """The value of cell ``key`` (row, column) of the input (side 0) or output (1);
        None for an empty cell or a formula (its value is recomputed by design)."""
        cache = self.cached[side]
        if key[0] not in cache:
            sx, reader = self._open()[side]
            cache[key[0]] = row_values(sx, reader, key[0])
        return cache[key[0]].get(key[1])

    def same(self, src: int, dst: int) -> bool:
        (a, ra), (b, rb) = self._open()
        return row_values(a, ra, src) == row_values(b, rb, dst)

    def difference(self, src: int, dst: int) -> str:
        (a, _), (b, _) = self._open()
        return _first_cell_difference(a, b, src, dst)


def row_values(sx: SheetXml, reader: CellReader, number: int) -> dict[int, object]:
    """Row ``number``'s values by column, as ``verify`` compares a row whose XML differs:
    empty cells and formula cells left out (a formula's value is recomputed by design)."""
    i = sx.index_of(number)
    if i >= len(sx) or sx.numbers[i] != number:
        return {}
    row = sx.row(i)
    values = {c.col: reader.value(row, c) for c in sx.cells(i) if c.f_span is None}
    return {col: v for col, v in values.items() if v not in (None, "")}


def verify_rows(
    record: DrawRecord, ins: array[int], outs: array[int], top: int, rows: RowsAgain
) -> None:
    """Each output row must be the input row the draw puts there: equal digests of the
    rows without references, formula text and cached values; a row that differs is
    compared by its cells' values before the check fails."""
    if array("Q", map(ins.__getitem__, record.permutation)) == outs:
        return
    for p, s in enumerate(record.permutation):
        if ins[s] == outs[p] or rows.same(top + s, top + p):
            continue
        raise WorkbookError(
            f"{os.fspath(rows.paths[1])}: sheet {record.sheet!r} row {top + p} does not hold "
            f"input row {top + s}, which the draw puts there{rows.difference(top + s, top + p)}"
        )


def _first_cell_difference(before: SheetXml, after: SheetXml, src: int, dst: int) -> str:
    """``" (cell B3 differs from input cell B11)"``, or "" when it is the row itself."""

    def cells(sx: SheetXml, number: int) -> dict[int, bytes]:
        i = sx.index_of(number)
        if i >= len(sx) or sx.numbers[i] != number:
            return {}
        row = sx.row(i)
        return {c.col: norm_general(row[c.start : c.end]) for c in sx.cells(i)}

    a, b = cells(before, src), cells(after, dst)
    for col in sorted(set(a) | set(b)):
        if a.get(col) != b.get(col):
            letters = col_letters(col)
            return f" (cell {letters}{dst} differs from input cell {letters}{src})"
    return " (the row's own attributes differ)"
