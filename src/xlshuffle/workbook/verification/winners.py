"""Check the winners a ``sample`` printed to stdout, as the user saved them.

The record of a sample printed to stdout names no output file (nothing was written), so
there is no SHA-256 to compare; the winners are recomputed from the input (the rows the
recorded permutation names, as :func:`~xlshuffle.workbook.sample_workbook` prints them:
``Rank``, then the header's labels or the column letters) and compared field by field
with the saved CSV (:mod:`xlshuffle.tabledraw.winners`).
"""

from __future__ import annotations

import os

from ...common.celltext import text_of
from ...common.record import DrawRecord
from ...draw.errors import ListError, OptionError, WorkbookError
from ...tabledraw.winners import first_difference, read_saved_table
from ..add.plain_sample import row_values
from ..jobs import job_from_record
from ..scan.refs import col_letters
from ..values.reader import CellReader

__all__ = ["verify_printed", "verify_winners"]

PathLike = str | os.PathLike[str]


def verify_printed(record: DrawRecord, src: PathLike | None, saved: PathLike) -> None:
    """Check the saved winners of a sample printed to stdout; refuse, saying what to
    do, when the input is not given or the record is of a CSV/TSV list."""
    if src is None:
        raise OptionError(
            f"{os.fspath(saved)}: the record's winners were printed, not written to a file, "
            "so nothing recorded their bytes: pass --input too, which tells what each "
            "winner must be"
        )
    if record.target.get("kind") == "list":
        raise ListError(
            f"{os.fspath(saved)}: winners printed from a CSV/TSV list are checked by "
            "'xlshuffle verify' (or xlshuffle.lists.winners.verify_winners)"
        )
    verify_winners(record, src, saved)


def verify_winners(record: DrawRecord, src: PathLike, saved: PathLike) -> None:
    """``saved`` must hold the labels row and the ``k`` winners in draw order, each with
    the values the input holds (as the tool prints them); raise naming the first line
    that differs."""
    job = job_from_record(src, record)
    sel = job.sel
    reader = CellReader.of(job.inp.book)
    labels = row_values(job, reader, sel.top) if sel.header else [col_letters(c) for c in sel.cols]
    want = [("the labels row", ["Rank", *(text_of(v) for v in labels)])]
    for rank, i in enumerate(record.permutation, 1):
        row = [str(rank), *(text_of(v) for v in row_values(job, reader, sel.body_top + i))]
        want.append((f"winner {rank} (input row {sel.body_top + i})", row))
    diff = first_difference(read_saved_table(saved), want)
    if diff is not None:
        raise WorkbookError(f"{os.fspath(saved)}: not the winners this draw printed: {diff}")
