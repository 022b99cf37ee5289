"""A workbook groups draw checked: its output's group column by cells, and balanced
teams dealt again with their balance table.

:func:`~xlshuffle.workbook.add.teams.groups_again` gives each data row's group (or team)
again from the input and the seed; :func:`verify_balanced_workbook` checks a balanced
draw's permutation and balance table against it.

A ``groups`` draw adds one column right of every stored cell of the input sheet. An output
re-saved by Excel or LibreOffice has other bytes but the same cells, so
:func:`verify_group_column` reads the output's rows and that column and compares them
with the input's rows and the groups dealt again.
"""

from __future__ import annotations

import os

from ...common.digest import file_sha256
from ...common.record import DrawRecord
from ...draw.errors import OptionError, WorkbookError
from ...draw.knuth import permutation
from ...tabledraw.teams import balance_table
from ..add.sheetxml import free_column
from ..add.teams import groups_again
from ..jobs import Job, job_from_record
from ..scan.refs import cell_ref
from ..scan.sheet import SheetXml
from ..selection.keep import spread
from ..values.reader import CellReader
from .rows import row_values

__all__ = ["verify_balanced_workbook", "verify_group_column"]

PathLike = str | os.PathLike[str]


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


def verify_balanced_workbook(
    record: DrawRecord, src: PathLike | None, saved: PathLike | None = None
) -> None:
    """Deal the balanced teams of ``record`` again from ``src`` and its seed; check the
    record's shuffle and balance table, and ``saved`` (the output) by its SHA-256 or, when
    its bytes differ (re-saved), by the team column's cells.

    Raises
    ------
    WorkbookError
        At the first difference: not the recorded input, a permutation or balance table
        the seed does not give again, an output that is not the one written.
    OptionError
        Without ``src`` (the balancing columns are read from it).
    """
    if src is None:
        raise OptionError(
            f"record: the balanced teams of {record.input} are dealt again from its input, "
            "which holds the balancing columns: pass input= (--input IN) too"
        )
    record.check_protocol()
    path = os.fspath(src)
    record.check_input(path)
    job = job_from_record(path, record)
    sel = job.sel
    free, numbers, teams = groups_again(record, job)
    perm = permutation(len(free), seed=record.seed)
    if free != list(range(sel.n_body)):
        perm = spread(perm, sel.n_body, free)
    if perm != record.permutation:
        raise WorkbookError(f"record: seed {record.seed!r} does not give this permutation")
    k = int(record.k or 0)  # checked by groups_again
    want = record.target["balance"].get("teams")
    if teams is None or balance_table(teams.columns, teams.keys, numbers, k) != want:
        raise WorkbookError("record: target.balance.teams is not what the draw gives again")
    if saved is not None and file_sha256(saved) != record.output_sha256:
        # other bytes (re-saved by Excel?): the team column, cell by cell
        verify_group_column(record, job, saved, dict(zip(free, numbers, strict=True)))
