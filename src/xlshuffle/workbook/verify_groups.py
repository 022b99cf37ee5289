"""A workbook groups draw dealt again from its record, and its output checked by cells.

:func:`groups_again` gives each data row's group (or team) in the draw a groups record
describes, dealt again from the input and the seed: the plain split of section 7, or the
balanced teams of section 16. ``verify`` uses it for both kinds, and ``groups --avoid``
for an earlier draw's teams.

A ``groups`` draw adds one column right of every stored cell of the input sheet. An output
re-saved by Excel or LibreOffice has other bytes but the same cells, so
:func:`verify_group_column` reads the output's rows and that column and compares them
with the input's rows and the groups dealt again.
"""

from __future__ import annotations

import os

from ..common.record import DrawRecord
from ..draw.errors import WorkbookError
from ..draw.knuth import group_numbers, permutation
from ..draw.seed import Seed
from ..tabledraw.teams import Teams, draw_teams
from .draws import CellReader, free_column
from .jobs import Job, job_from_record
from .raffle import DataRows, recorded_free_rows
from .scan.refs import cell_ref
from .scan.sheet import SheetXml
from .verify_rows import row_values

__all__ = ["groups_again", "verify_group_column"]

PathLike = str | os.PathLike[str]


def groups_again(record: DrawRecord, job: Job) -> tuple[list[int], list[int], Teams | None]:
    """The data rows (0-based; rows kept in place left out) the groups draw ``record``
    split in ``job``'s selection, each one's group dealt again, and the balanced teams
    (None for a plain split).

    Raises WorkbookError for a record whose ``k``, kept rows or balance spec is damaged.
    """
    free = recorded_free_rows(job, record)
    k = record.k
    if not isinstance(k, int) or k < 1:
        raise WorkbookError(f"record: k {k!r} is not a number of groups: the record was edited")
    spec = record.target.get("balance")
    if spec is None:
        return free, group_numbers(permutation(len(free), seed=record.seed), k), None
    try:
        given = [str(c["column"]) for c in spec["columns"]]
        before = (spec.get("avoid") or {}).get("before")
    except (KeyError, TypeError, AttributeError):
        raise WorkbookError("record: target.balance was edited or damaged") from None
    teams = draw_teams(
        DataRows(job, free).entrants(), given, k, Seed.given(record.seed).stream(), before
    )
    return free, teams.numbers, teams


def verify_group_column(
    record: DrawRecord, before: Job, dst: PathLike, numbers: dict[int, int]
) -> None:
    """The output ``dst`` holds the input's data rows (``before``, the input's selection),
    unchanged in the selection's columns, and in the column the draw added each data row's
    number (``numbers``: by data-row index); raises WorkbookError naming the first row or
    cell that does not."""
    col = free_column(before.sx)
    top, cols = before.sel.body_top, set(before.sel.cols)
    after = job_from_record(dst, record)
    sx, reader = after.sx, CellReader.of(after.inp.book)
    rows = sorted(numbers)
    old = (before.sx, CellReader.of(before.inp.book))

    def selected(side: tuple[SheetXml, CellReader], number: int) -> dict[int, object]:
        return {c: v for c, v in row_values(*side, number).items() if c in cols}

    for d in rows:  # the rows themselves stay as they were: a group belongs to its row
        number = top + d
        # by value, as verify compares any row whose XML differs (formulas aside)
        if selected(old, number) != selected((sx, reader), number):
            raise WorkbookError(
                f"{os.fspath(dst)}: sheet {record.sheet!r} row {number} is not the input's "
                "row: the output was edited after the draw"
            )
    for d in rows:
        number, want = top + d, numbers[d]
        i = sx.index_of(number)
        got: object = None
        if i < len(sx) and sx.numbers[i] == number:
            row = sx.row(i)
            cell = next((c for c in sx.cells(i) if c.col == col), None)
            if cell is not None:
                place = f"sheet {record.sheet!r}, cell {cell_ref(number, col)}"
                got = reader.value(row, cell, place)
        if got != want or isinstance(got, bool):
            raise WorkbookError(
                f"{os.fspath(dst)}: sheet {record.sheet!r} cell {cell_ref(number, col)} holds "
                f"{got!r}, not group {want}: not the groups this draw wrote"
            )
