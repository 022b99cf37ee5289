"""A groups draw's output checked by its cells, when its bytes are not the ones written.

A ``groups`` draw adds one column right of every stored cell of the input sheet: the
group (or team) number of each data row. An output re-saved by Excel or LibreOffice has
other bytes but the same cells, so :func:`verify_group_column` reads that column of the
output and compares each data row's number with the one the draw gives again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..draw.errors import WorkbookError
from ..draw.knuth import group_numbers, permutation
from .draws import CellReader, free_column
from .jobs import job_from_record
from .raffle import DataRows, free_rows
from .records.record import DrawRecord
from .scan.refs import cell_ref
from .selection.keep import parse_kept

__all__ = ["plain_group_numbers", "verify_group_column"]

PathLike = str | os.PathLike[str]


def plain_group_numbers(record: DrawRecord, src: PathLike) -> dict[int, int]:
    """Each data row's group in the plain groups draw ``record`` (rows kept in place have
    none): the protocol's split of the rows drawn, read again from ``src``'s selection."""
    job = job_from_record(src, record)
    sel = job.sel
    try:
        free = free_rows(job, parse_kept(record.target, sel.body_top, sel.n_body))
    except ValueError as exc:
        raise WorkbookError(f"record: target.kept: {exc}: the record was edited") from None
    numbers = group_numbers(permutation(len(free), seed=record.seed), int(record.k or 1))
    return dict(zip(free, numbers, strict=True))


def verify_group_column(
    record: DrawRecord, src: PathLike, dst: PathLike, numbers: dict[int, int] | Sequence[int]
) -> None:
    """The output ``dst`` holds the input's data rows, unchanged in the selection's columns,
    and in the column the draw added each data row's number (``numbers``: by data-row
    index); raises WorkbookError naming the first row or cell that does not."""
    before = job_from_record(src, record)
    col = free_column(before.sx)
    top = before.sel.body_top
    after = job_from_record(dst, record)
    sx, reader = after.sx, CellReader.of(after.inp.book)
    wanted = numbers if isinstance(numbers, dict) else dict(enumerate(numbers))
    rows = sorted(wanted)
    old, new = DataRows(before, rows), DataRows(after, rows)
    for d in rows:  # the rows themselves stay as they were: a group belongs to its row
        number = top + d
        if old.row(number) != new.row(number):
            raise WorkbookError(
                f"{os.fspath(dst)}: sheet {record.sheet!r} row {number} is not the input's "
                "row: the output was edited after the draw"
            )
    for d, want in sorted(wanted.items()):
        number = top + d
        i = sx.index_of(number)
        got: object = None
        if i < len(sx) and sx.numbers[i] == number:
            row = sx.row(i)
            cell = next((c for c in sx.cells(i) if c.col == col), None)
            if cell is not None:
                got = reader.value(
                    row, cell, f"sheet {record.sheet!r}, cell {cell_ref(number, col)}"
                )
        if got != want or isinstance(got, bool):
            raise WorkbookError(
                f"{os.fspath(dst)}: sheet {record.sheet!r} cell {cell_ref(number, col)} holds "
                f"{got!r}, not group {want}: not the groups this draw wrote"
            )
