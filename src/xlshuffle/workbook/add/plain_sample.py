"""A plain ``sample`` of a workbook (no tickets, strata or audit): its winners, the table
it prints or writes (``Rank``, then the labels and each winner's values), and that table
as CSV."""

from __future__ import annotations

from collections.abc import Iterable

from ...common.celltext import text_of
from ...common.digest import bytes_sha256
from ...common.files import write_atomically
from ...draw.errors import SizeError
from ...draw.knuth import permutation
from ...draw.protocol import DrawStream
from ...tabledraw.counts import too_many
from ...tabledraw.winners import csv_text, delimiter_for
from ..jobs import Job
from ..package.readwrite import Written
from ..scan.refs import cell_ref, col_letters, quote_sheet
from ..selection.keep import free_indexes
from ..values.cells import unsaved_formula
from ..values.reader import CellReader

__all__ = ["row_values", "unsaved_cells", "winners", "winners_table", "write_csv"]


def row_values(job: Job, reader: CellReader, number: int) -> list[object]:
    """The values of row ``number`` in the selection's columns (None where empty)."""
    sx, cols = job.sx, job.sel.cols
    i = sx.index_of(number)
    got: dict[int, object] = {}
    if i < len(sx) and sx.numbers[i] == number:
        row = sx.row(i)
        wanted = set(cols)
        name = job.sel.sheet.name
        got = {
            c.col: reader.value(row, c, f"sheet {name!r}, cell {cell_ref(number, c.col)}")
            for c in sx.cells(i)
            if c.col in wanted
        }
    return [got.get(c) for c in cols]


def unsaved_cells(job: Job, numbers: Iterable[int]) -> tuple[int, str | None]:
    """How many of the selection's cells in rows ``numbers`` (in output order) are
    formulas without a saved value, which a sample copies as values, so writes empty; and
    the first one's name (``Tickets!B3``)."""
    sx, cols = job.sx, set(job.sel.cols)
    count, first = 0, None
    for number in numbers:
        i = sx.index_of(number)
        if i >= len(sx) or sx.numbers[i] != number:
            continue
        row = sx.row(i)
        for c in sx.cells(i):
            if c.col in cols and unsaved_formula(row[c.start : c.end]):
                count += 1
                first = first or f"{quote_sheet(job.sel.sheet.name)}!{cell_ref(number, c.col)}"
    return count, first


def winners(job: Job, k: int, stream: DrawStream) -> list[int]:
    """The first ``k`` of the shuffled data rows (indexes among all the data rows, blank
    rows kept in place left out)."""
    sel = job.sel
    free = free_indexes(sel.n_body, sel.kept, sel.body_top) if sel.kept else None
    n = sel.n_body if free is None else len(free)
    if k > n:
        raise SizeError(too_many(job.inp.path, k, n, "draw from"))
    order = permutation(n, seed=stream)[:k]
    return order if free is None else [free[i] for i in order]


def winners_table(job: Job, order: list[int]) -> list[list[object]]:
    """``Rank`` and the header's labels (or the column letters), then one row a winner."""
    sel = job.sel
    reader = CellReader.of(job.inp.book)
    labels: list[object] = (
        ["Rank", *row_values(job, reader, sel.top)]
        if sel.header
        else ["Rank", *(col_letters(c) for c in sel.cols)]
    )
    rows = [[rank, *row_values(job, reader, sel.body_top + i)] for rank, i in enumerate(order, 1)]
    return [labels, *rows]


def write_csv(target: str, table: list[list[object]], *, dry_run: bool) -> Written:
    """The winners as CSV (UTF-8, ``\\n``; TSV for a ``.tsv`` or ``.tab`` name), written
    atomically unless ``dry_run``."""
    texts = [[text_of(v) for v in row] for row in table]
    data = csv_text(texts, delimiter_for(target)).encode("utf-8")
    if dry_run:
        return Written(None, None)
    write_atomically(target, data)
    return Written(bytes_sha256(data), None)
