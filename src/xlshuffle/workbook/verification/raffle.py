"""Check a workbook's raffle or audit: draw it again from the input, compare the output.

The tickets, IDs, amounts and strata are in the input, so the record alone cannot be
replayed: :func:`verify_draw_workbook` reads them again (the recorded input, by its
SHA-256), draws again what ``target["draw"]`` says with the recorded seed, and checks the
rows, the record's account of the draw, and, if given, the output: the sheet the draw
added to a copy of the workbook, or the CSV it wrote, value by value (so an output Excel
saved again still verifies; an edited one does not).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from ...common.celltext import text_of
from ...common.record import DrawRecord
from ...draw.errors import ListError, OptionError, WorkbookError
from ...tabledraw.raffles import Drawn, check_exclusion, replay
from ...tabledraw.winners import delimiter_for, first_difference, read_saved_table
from ..add.datarows import DataRows, recorded_free_rows
from ..add.raffle import to_data_rows
from ..add.setaside import set_aside_rows, set_aside_sheet, set_aside_table
from ..jobs import job_from_record
from ..package.parts import SheetInfo
from ..package.readwrite import Input, read_input
from ..scan.sheet import SheetXml
from ..values.reader import CellReader

__all__ = ["verify_draw_record", "verify_draw_workbook"]

PathLike = str | os.PathLike[str]


def verify_draw_workbook(
    record: DrawRecord | dict[str, Any],
    src: PathLike,
    saved: PathLike | None = None,
    *,
    excluded: Sequence[str] | None = None,
    set_aside: PathLike | None = None,
) -> None:
    """Draw again what a workbook ``record`` of a raffle or an audit says from ``src``, and check
    ``saved`` (the output workbook's added sheet, or the CSV the rows went to, or were
    saved in from stdout) row by row, value by value; with ``excluded`` (IDs, as read
    from an earlier record or a list), check that the draw left out exactly those; with
    ``set_aside``, that it holds the labels and the rows a monetary-unit sample set aside
    (its sheet ``Set aside``, or the CSV/TSV).

    Raises
    ------
    WorkbookError
        At the first difference: not the recorded input, a record whose rows or account
        of the draw the seed does not give again, an output whose rows differ.
    """
    rec = record if isinstance(record, DrawRecord) else DrawRecord.from_dict(record)
    spec = rec.target.get("draw")
    if not isinstance(spec, dict):
        raise WorkbookError("record: no target.draw: verify it without --input's replay")
    rec.check_protocol()
    path = os.fspath(src)
    rec.check_input(path)
    rows, drawn = _draw_again(rec, spec, path, excluded)
    if saved is not None:
        _check_saved(rows.table(drawn), saved, "drawn row", lambda out: _added_sheet(rec, out))
    if set_aside is not None:
        _check_set_aside(rows, drawn, set_aside)


def verify_draw_record(rec: DrawRecord, src: PathLike | None, saved: PathLike | None) -> None:
    """:func:`~xlshuffle.workbook.verify_record`'s way to a raffle or an audit: refused
    without ``src``, or for a CSV/TSV list's record (which the lists layer checks)."""
    if rec.target.get("kind") == "list":
        raise ListError(
            f"{rec.input}: a CSV/TSV list's draw by tickets, strata or an audit is checked "
            "by 'xlshuffle verify RECORD --input IN' (xlshuffle.lists.raffle.verify_draw_csv)"
        )
    if src is None:
        raise OptionError(
            f"record: the {rec.target['draw'].get('method')} draw of {rec.input} is drawn "
            "again from its input, which holds its columns: pass input= too"
        )
    verify_draw_workbook(rec, src, saved)


def _draw_again(
    rec: DrawRecord, spec: dict[str, Any], src: str, excluded: Sequence[str] | None
) -> tuple[DataRows, Drawn]:
    job = job_from_record(src, rec)
    free = recorded_free_rows(job, rec)
    rows = DataRows(job, free)
    ents, among = rows.entrants(), _among_entrants(spec, free)
    if excluded is not None:
        why = check_exclusion(ents, among, excluded)
        if why is not None:
            raise WorkbookError(f"record: not a draw that excluded the IDs given: {why}")
    drawn = to_data_rows(replay(ents, among, rec.seed), free)
    if drawn.rows != rec.permutation:
        raise WorkbookError(
            f"record: seed {rec.seed!r} does not draw these rows: recorded "
            f"{rec.permutation[:10]}, drawn again {drawn.rows[:10]}"
        )
    if drawn.spec != spec:
        raise WorkbookError("record: target.draw is not what the draw gives again: it was edited")
    return rows, drawn


def _among_entrants(spec: dict[str, Any], free: list[int]) -> dict[str, Any]:
    """``spec`` with the excluded rows numbered among the entrants (blank rows kept in
    place are none), as :func:`~xlshuffle.tabledraw.raffles.replay` reads them."""
    exclusion = spec.get("exclusion")
    if not isinstance(exclusion, dict) or not isinstance(exclusion.get("rows"), list):
        return spec
    where = {d: i for i, d in enumerate(free)}
    rows = [where.get(r, -1) if isinstance(r, int) else -1 for r in exclusion["rows"]]
    return {**spec, "exclusion": {**exclusion, "rows": rows}}  # -1: refused by replay


def _texts(row: list[object]) -> list[str]:
    out = [text_of(v) for v in row]
    while out and out[-1] == "":
        out.pop()
    return out


def _check_set_aside(data: DataRows, drawn: Drawn, saved: PathLike) -> None:
    job, rows = data.job, set_aside_rows(data.free, drawn)
    if not rows:
        raise WorkbookError(
            f"{os.fspath(saved)}: this draw set aside no row (none of amount 0 or below), so "
            "it wrote no file of them"
        )
    name = set_aside_sheet(job)
    table = set_aside_table(job, rows)
    _check_saved(table, saved, "set-aside row", lambda out: (name, _sheet_grid(out, name)))


def _check_saved(
    table: list[list[object]],
    saved: PathLike,
    what: str,
    sheet: Callable[[str], tuple[str, dict[int, list[str]]]],
) -> None:
    """``saved`` holds ``table``: as CSV/TSV, or in the sheet ``sheet(saved)`` finds."""
    names = ["the labels row", *(f"{what} {n}" for n in range(1, len(table)))]
    want = [(name, _texts(row)) for name, row in zip(names, table, strict=True)]
    path = os.fspath(saved)
    if path.lower().endswith((".csv", ".tsv", ".tab")):
        delimiter = delimiter_for(path)
        got = [(line, _texts(list(row))) for line, row in read_saved_table(path, delimiter)]
        diff = first_difference(got, want, delimiter)
        if diff is not None:
            raise WorkbookError(f"{path}: not the rows this draw wrote: {diff}")
        return
    name, grid = sheet(path)
    for n, (what, fields) in enumerate(want, 1):
        if grid.get(n, []) != fields:
            raise WorkbookError(
                f"{path}: sheet {name!r} row {n} holds {_show(grid.get(n, []))}, but "
                f"{what} is {_show(fields)}: not the rows this draw wrote"
            )
    extra = sorted(set(grid) - set(range(1, len(want) + 1)))
    if extra:
        raise WorkbookError(
            f"{path}: sheet {name!r} row {extra[0]} holds {_show(grid[extra[0]])}, more "
            f"than the draw wrote ({len(want)} rows)"
        )


def _show(fields: list[str]) -> str:
    text = ",".join(fields)
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _added_sheet(rec: DrawRecord, path: str) -> tuple[str, dict[int, list[str]]]:
    """The name and the values (as text, by row number) of the sheet the draw added."""
    added = [p.lstrip("/") for p in (rec.parts or {}).get("added", [])]
    inp = read_input(path)
    info = next((s for s in inp.book.sheets if s.part.lstrip("/") in added), None)
    if info is None:
        raise WorkbookError(
            f"{path}: no sheet of it is the one the draw added ({', '.join(added) or 'none'}"
            "): give the output workbook the record names, or the CSV the rows were saved in"
        )
    return info.name, _grid(inp, info)


def _sheet_grid(path: str, name: str) -> dict[int, list[str]]:
    """The values (as text, by row number) of the sheet ``name`` of the workbook at ``path``."""
    inp = read_input(path)
    info = next((s for s in inp.book.sheets if s.name == name), None)
    if info is None:
        raise WorkbookError(
            f"{path}: no sheet {name!r}, which the draw wrote the rows set aside to: give the "
            "file --set-aside-output wrote"
        )
    return _grid(inp, info)


def _grid(inp: Input, info: SheetInfo) -> dict[int, list[str]]:
    sx = SheetXml(inp.book.read(info.part), f"{inp.path}: sheet {info.name!r}")
    reader = CellReader.of(inp.book)
    grid: dict[int, list[str]] = {}
    for i in range(len(sx)):
        row = sx.row(i)
        values = {c.col: reader.value(row, c) for c in sx.cells(i)}
        width = max(values, default=0)
        texts = _texts([values.get(c) for c in range(1, width + 1)])
        if texts:
            grid[sx.numbers[i]] = texts
    return grid
