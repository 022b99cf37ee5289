"""A selection's data rows as a table of values: the entrants of a raffle, an audit or
teams, read cell by cell with the engine's own reader (shared strings, dates, a formula's
cached value), and which data rows are entrants (blank rows kept in place are not).

:class:`DataRows` reads a column only when a draw asks for it, and names each cell as
``book.xlsx: Tickets!C7`` in messages. It takes a draw's job
(:class:`~xlshuffle.workbook.jobs.Job`) and uses its input, sheet and selection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...common.celltext import text_of
from ...draw.errors import WorkbookError
from ...tabledraw.entrants import Entrants
from ..scan.refs import cell_ref, col_letters, quote_sheet
from ..selection.keep import free_indexes, parse_kept
from ..values.reader import CellReader

if TYPE_CHECKING:
    from ...tabledraw.raffles import Drawn
    from ..jobs import Job

__all__ = ["DataRows", "free_rows", "recorded_free_rows"]


def free_rows(job: Job, kept: list[tuple[int, int]]) -> list[int]:
    """The data rows (0-based) that are entrants: all, less the blank rows ``kept`` in
    place."""
    sel = job.sel
    return free_indexes(sel.n_body, kept, sel.body_top) if kept else list(range(sel.n_body))


def recorded_free_rows(job: Job, record: Any) -> list[int]:
    """:func:`free_rows` of the rows a draw ``record`` (a ``DrawRecord``) kept in place
    (``target.kept``), found again in ``job``'s selection; WorkbookError for a record whose
    kept rows do not fit it."""
    sel = job.sel
    try:
        return free_rows(job, parse_kept(record.target, sel.body_top, sel.n_body))
    except ValueError as exc:
        raise WorkbookError(f"record: target.kept: {exc}: the record was edited") from None


class DataRows:
    """The selection's data rows ``free`` (0-based data-row indexes) as entrants, read
    column by column when a draw asks for a column, and row by row for the output."""

    def __init__(self, job: Job, free: list[int]) -> None:
        self.job = job
        self.free = free
        self.reader = CellReader.of(job.inp.book)
        self._columns: dict[int, list[object]] = {}

    def _place(self, number: int, col: int) -> str:
        return f"sheet {self.job.sel.sheet.name!r}, cell {cell_ref(number, col)}"

    def row(self, number: int) -> list[object]:
        """Row ``number``'s values in the selection's columns (None for an empty cell)."""
        sx, cols = self.job.sx, self.job.sel.cols
        i = sx.index_of(number)
        got: dict[int, object] = {}
        if i < len(sx) and sx.numbers[i] == number:
            row, wanted = sx.row(i), set(cols)
            got = {
                c.col: self.reader.value(row, c, self._place(number, c.col))
                for c in sx.cells(i)
                if c.col in wanted
            }
        return [got.get(c) for c in cols]

    def column(self, j: int) -> list[object]:
        """The values of the selection's column ``j`` (0-based) over the entrants."""
        if j not in self._columns:
            sx, sel = self.job.sx, self.job.sel
            col, out = sel.cols[j], list[object]()
            for d in self.free:
                number = sel.body_top + d
                i = sx.index_of(number)
                value = None
                if i < len(sx) and sx.numbers[i] == number:
                    row = sx.row(i)
                    cell = next((c for c in sx.cells(i) if c.col == col), None)
                    if cell is not None:
                        name = f"{self.job.inp.path}: {quote_sheet(sel.sheet.name)}!"
                        name += cell_ref(number, col)
                        value = self.reader.known(row, cell, self._place(number, col), name)
                out.append(value)
            self._columns[j] = out
        return self._columns[j]

    def cell(self, i: int, j: int) -> str:
        """``book.xlsx: Tickets!C7``: entrant ``i``'s cell in column ``j``."""
        sel = self.job.sel
        ref = cell_ref(sel.body_top + self.free[i], sel.cols[j])
        return f"{self.job.inp.path}: {quote_sheet(sel.sheet.name)}!{ref}"

    def labels(self) -> list[object]:
        """The header row's values, or the column letters without a header."""
        sel = self.job.sel
        return self.row(sel.top) if sel.header else [col_letters(c) for c in sel.cols]

    def entrants(self) -> Entrants:
        sel = self.job.sel
        return Entrants(
            where=self.job.inp.path,
            labels=[text_of(v) for v in self.labels()] if sel.header else None,
            letters=[col_letters(c) for c in sel.cols],
            n=len(self.free),
            values=self.column,
            cell=self.cell,
            fail=WorkbookError,
        )

    def table(self, drawn: Drawn) -> list[list[object]]:
        """The labels and the drawn rows (``drawn.rows`` are data rows), each followed by
        its added values."""
        top = self.job.sel.body_top
        rows = [
            [*self.row(top + d), *extra] for d, extra in zip(drawn.rows, drawn.extra, strict=True)
        ]
        return [[*self.labels(), *drawn.extra_labels], *rows]
