"""A workbook draw's rounds (``xlshuffle redraw`` on the record of ``sample book.xlsx``):
the draw read again from the workbook, and a round's table written the way the draw wrote
its own.

:func:`drawn_again` draws the recorded raffle again from the input (checked by its
SHA-256), as ``verify`` does, and hands the rounds its entrants, the drawn data rows and
each row's values. :func:`write_round` writes a round's table: a CSV/TSV list, or a copy of
the input with one sheet added (the drawn rows copied cell by cell, styles kept, then
Prize, Place, Role and Note), every other part of the package byte for byte, as ``sample``
adds its sheet. :func:`check_round` compares a saved table with the one a round gives.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..common.celltext import text_of
from ..common.names import free_sheet_name
from ..common.record import DrawRecord
from ..draw.errors import OptionError, WorkbookError
from ..tabledraw.entrants import Entrants
from ..tabledraw.raffles import Drawn, replay
from ..tabledraw.winners import delimiter_for, read_saved_table
from .add.datarows import DataRows, recorded_free_rows
from .add.plain_sample import write_csv
from .add.raffle import to_data_rows
from .add.sheetxml import sample_sheet_xml
from .jobs import job_from_record
from .package.readwrite import Changes, read_input, write_workbook
from .scan.sheet import SheetXml
from .values.reader import CellReader

__all__ = ["BookDraw", "check_round", "drawn_again", "write_round"]

PathLike = str | os.PathLike[str]

#: The name of the sheet a round adds (made unique in the workbook as ``sample``'s).
ROUND_SHEET = "Round"


@dataclass
class BookDraw:
    """A workbook raffle drawn again: its entrants (entrant ``i`` is data row
    ``free[i]``), the draw (``drawn.rows`` are data rows), the labels and each data row's
    texts."""

    ents: Entrants
    free: list[int]
    drawn: Drawn
    labels: list[str]
    rows: DataRows

    def texts(self, data_row: int) -> tuple[str, ...]:
        """Data row ``data_row``'s cells as the CSV of a sample writes them."""
        return tuple(text_of(v) for v in self.rows.row(self.rows.job.sel.body_top + data_row))

    def excluded(self) -> frozenset[int]:
        """The entrants the draw's exclusion left out (entrant indexes)."""
        exclusion = self.drawn.spec.get("exclusion") or {}
        where = {d: i for i, d in enumerate(self.free)}
        return frozenset(where[r] for r in exclusion.get("rows", []) if r in where)


def drawn_again(src: PathLike, record: dict[str, Any]) -> BookDraw:
    """The raffle of the workbook ``record`` drawn again from ``src`` (refused unless it is
    the recorded input and the seed draws the recorded rows)."""
    rec = DrawRecord.from_dict(record)
    spec = rec.target.get("draw")
    if not isinstance(spec, dict):
        raise OptionError(
            "a round follows a raffle drawn with --id (and reserves or a prize table); this "
            "record is a plain sample"
        )
    path = os.fspath(src)
    rec.check_input(path)
    job = job_from_record(path, rec)
    free = recorded_free_rows(job, rec)
    rows = DataRows(job, free)
    ents = rows.entrants()
    among = spec
    exclusion = spec.get("exclusion")
    if isinstance(exclusion, dict) and isinstance(exclusion.get("rows"), list):
        where = {d: i for i, d in enumerate(free)}
        numbered = [where.get(r, -1) if isinstance(r, int) else -1 for r in exclusion["rows"]]
        among = {**spec, "exclusion": {**exclusion, "rows": numbered}}  # -1: refused
    drawn = to_data_rows(replay(ents, among, rec.seed), free)
    if drawn.rows != rec.permutation:
        raise WorkbookError(f"record: seed {rec.seed!r} does not draw these rows again")
    labels = [text_of(v) for v in rows.labels()]
    return BookDraw(ents, free, drawn, labels, rows)


def write_round(
    src: PathLike,
    record: dict[str, Any],
    order: Sequence[int],
    added: tuple[Sequence[str], Sequence[Sequence[object]]],
    target: str,
    texts: list[list[str]],
) -> tuple[str, str | None]:
    """Write a round's table to ``target``: ``texts`` as CSV/TSV for such a name, else a
    copy of ``src`` with a sheet added holding the data rows ``order`` (copied cell by
    cell) and the ``added`` columns. Returns the output's SHA-256 and the added sheet's
    name (None for a list)."""
    if target.lower().endswith((".csv", ".tsv", ".tab")):
        written = write_csv(target, [list(r) for r in texts], dry_run=False)
        return str(written.sha256), None
    if not target.lower().endswith((".xlsx", ".xlsm")):
        raise OptionError(f"-o {target}: a round of a workbook writes .xlsx, .csv or .tsv")
    job = job_from_record(os.fspath(src), DrawRecord.from_dict(record))
    book = job.inp.book
    name = free_sheet_name(ROUND_SHEET, {s.name for s in book.sheets})
    xml = sample_sheet_xml(book, job.sx, job.sel, list(order), added=added)
    changed, part = book.add_sheet(name, xml)
    changes = Changes(changed=dict(changed), added=[(part, xml)], like=job.sel.sheet.part)
    written = write_workbook(job.inp, changes, target, in_place=False, backup=False, dry_run=False)
    return str(written.sha256), name


def _trimmed(row: Sequence[object]) -> list[str]:
    out = [text_of(v) for v in row]
    while out and out[-1] == "":
        out.pop()
    return out


def check_round(saved: PathLike, sheet: str | None, texts: list[list[str]]) -> str | None:
    """Why the table ``saved`` (a CSV/TSV list, or the sheet ``sheet`` of a workbook) is
    not ``texts``, value by value (None when it is)."""
    path = os.fspath(saved)
    want = [_trimmed(r) for r in texts]
    if path.lower().endswith((".csv", ".tsv", ".tab")):
        got = [_trimmed(list(row)) for _, row in read_saved_table(path, delimiter_for(path))]
    else:
        inp = read_input(path)
        info = next((s for s in inp.book.sheets if s.name == sheet), None)
        if info is None:
            return f"{path} has no sheet {sheet!r}, the one the round added"
        sx = SheetXml(inp.book.read(info.part), f"{path}: sheet {info.name!r}")
        reader = CellReader.of(inp.book)
        grid: dict[int, list[str]] = {}
        for i in range(len(sx)):
            row = sx.row(i)
            values = {c.col: reader.value(row, c) for c in sx.cells(i)}
            grid[sx.numbers[i]] = _trimmed(
                [values.get(c) for c in range(1, max(values, default=0) + 1)]
            )
        got = [grid.get(n, []) for n in range(1, max([len(want), *grid]) + 1)]
    for n, (a, b) in enumerate(zip(got, want, strict=False), 1):
        if a != b:
            return f"row {n} holds {','.join(a)!r}, the round gives {','.join(b)!r}"
    if len(got) != len(want):
        return f"it holds {len(got)} rows, the round gives {len(want)}"
    return None
