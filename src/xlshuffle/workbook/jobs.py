"""One draw's job: the input, the sheet, the selection, and the record that closes it."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from ..common.record import DrawRecord, RecordCommand
from ..common.request import DrawKind, DrawRequest, Options, Output, Region
from ..draw.errors import OptionError, WorkbookError
from ..draw.grid import Mode
from ..draw.protocol import DrawStream
from .limits import LIMITS
from .package.readwrite import Changes, Input, Written, read_input
from .scan.merges import check_merge_refs
from .scan.refs import Area, col_letters, parse_area, quote_sheet, split_sheet
from .scan.sheet import SheetXml, sheet_label
from .selection.keep import kept_runs
from .selection.layout import Excluded
from .selection.options import parse_columns, user_range
from .selection.select import Selection, choose_sheet, select, used_rows
from .selection.suggest import LayoutRefusal, Suggestion, refuse

__all__ = [
    "Job",
    "dest",
    "file_request",
    "job_from_record",
    "make_record",
    "open_job",
    "open_request",
]

PathLike = str | os.PathLike[str]


@dataclass
class Job:
    inp: Input
    sx: SheetXml
    sel: Selection


def open_job(src: PathLike, options: Region, *, whole_rows: bool) -> Job:
    """The input read, its sheet parsed and the selection ``options`` ask for found in it
    (whole rows move only if ``whole_rows``, the default selection and ``--by rows``);
    refused in one line when it holds no data row."""
    sheet, cells, table = options.sheet, options.cells, options.table
    if cells is not None:  # "Class 7B!A2:C23" or "'Class 7B'!A2:C23", as records print it
        sheet = _range_sheet(cells, sheet)
        cells = split_sheet(cells)[1]
    inp = read_input(src)
    info, tbl = choose_sheet(inp.book, sheet, table)
    label = sheet_label(inp.path, info.name)
    sx = SheetXml(inp.book.read(info.part, limit=LIMITS.max_sheet_bytes), label)
    check_merge_refs(sx)
    sel = select(
        inp.book,
        sx,
        info,
        tbl,
        cells=cells,
        columns=options.columns,
        header=options.header,
        whole_rows_allowed=whole_rows,
        keep_blank=options.keep_blank_rows,
    )
    if sel.n_body <= 0 or not sel.cols:
        refuse_no_data(inp, sel)
    return Job(inp, sx, sel)


def _sheets_with_data(inp: Input, drawn: str, most: int = 3) -> list[str]:
    """The first sheets besides ``drawn`` that hold a value, for the refusal of an empty
    sheet: only on that path, at most 8 MB of each of the first 8 sheets is read."""
    found = []
    for info in [s for s in inp.book.sheets if s.name != drawn][:8]:
        try:
            sx = SheetXml(inp.book.read(info.part, limit=8 << 20), info.name)
        except (WorkbookError, OSError, ValueError):
            continue  # too large, damaged or not a worksheet: not suggested
        if used_rows(sx) is not None:
            found.append(info.name)
            if len(found) == most:
                break
    return found


def refuse_no_data(inp: Input, sel: Selection) -> NoReturn:
    """Refuse a selection without data rows: a draw of nothing would leave a record that
    proves nothing (and that ``verify`` could not replay). One data row draws (the one
    order there is). An empty sheet's refusal offers the sheets that hold data, as
    suggestions that the command tries before it names them (:func:`~.suggest.refuse`)."""
    path = inp.path
    if sel.n_rows == 0 or not sel.cols:
        what = f"sheet {sel.sheet.name!r} holds no data"
        sheets = _sheets_with_data(inp, sel.sheet.name)
        if not sheets:
            raise WorkbookError(
                f"{path}: {what}, and no other sheet was found that does: nothing to draw"
            )
        offers = [Suggestion({"sheet": name}, "its rows") for name in sheets]
        raise LayoutRefusal(path, f"{what}: nothing to draw", offers, "", elsewhere=True)
    raise LayoutRefusal(
        path,
        f"{sel.label} is only a header row (row {sel.top}), no data rows: nothing to draw",
        [Suggestion({"header": False}, "it", when=f"if row {sel.top} ({sel.label}) is data")],
        "or give the rows to draw with --range",
    )


def open_request(
    request: DrawRequest, again: Callable[[DrawRequest], object], *, whole_rows: bool
) -> Job:
    """:func:`open_job` of the request's file and region; a layout refusal names only the
    options that a dry run of the same request with them (``again``, the engine's entry
    for its kind) accepts (:func:`~.suggest.refuse`)."""
    region = request.region
    try:
        return open_job(request.src, region, whole_rows=whole_rows)
    except LayoutRefusal as exc:

        def attempt(suggested: dict[str, Any]) -> object:
            tried = dataclasses.replace(region, **suggested)
            return again(request.replace(region=tried, output=Output(dry_run=True)))

        refuse(exc, attempt, header=region.header)


def file_request(
    kind: DrawKind,
    src: PathLike,
    dst: PathLike | None,
    options: Options,
    *,
    seed: object,
    sheet: str | None,
    cells: str | None,
    table: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    keep_blank_rows: bool,
    in_place: bool,
    backup: bool,
    dry_run: bool,
) -> DrawRequest:
    """The request the public keyword functions stand for."""
    joined = columns if columns is None or isinstance(columns, str) else ",".join(columns)
    region = Region(
        sheet=sheet,
        cells=cells,
        table=table,
        columns=joined,
        header=header,
        keep_blank_rows=keep_blank_rows,
    )
    return DrawRequest.from_keywords(
        kind,
        src,
        dst,
        options,
        seed=seed,
        region=region,
        in_place=in_place,
        backup=backup,
        dry_run=dry_run,
    )


def _range_sheet(cells: str, sheet: str | None) -> str | None:
    """The sheet of a draw whose ``--range`` may name one: it must agree with ``--sheet``."""
    named, ref = split_sheet(cells)
    if named is None:
        return sheet
    try:  # the range itself first: "nonsense!" is a range to fix, not a sheet to look for
        user_range(ref)
    except OptionError as exc:
        raise OptionError(str(exc).replace(repr(ref), repr(cells), 1)) from None
    if sheet is not None and sheet.strip().casefold() != named.strip().casefold():
        raise OptionError(
            f"--range {cells!r} is on sheet {quote_sheet(named)} but --sheet is "
            f"{quote_sheet(sheet)}: give the sheet once (--range {quote_sheet(sheet)}!"
            f"{ref}, or leave out --sheet)"
        )
    return named


def job_from_record(src: PathLike, record: DrawRecord) -> Job:
    """The selection a record describes, found again in ``src``."""
    inp = read_input(src)
    info, _ = choose_sheet(inp.book, record.sheet, None)
    sx = SheetXml(
        inp.book.read(info.part, limit=LIMITS.max_sheet_bytes), sheet_label(inp.path, info.name)
    )
    target = record.target or {}
    area = parse_area(str(target.get("ref", "")))
    if area is None:
        raise WorkbookError(
            f"{inp.path}: the record does not say which cells were drawn (no target.ref): "
            "it was written by xlshuffle 0.1; restore from its backup instead"
        )
    if target.get("columns"):
        cols = parse_columns(str(target["columns"]))
    else:
        cols = list(range(area.left, area.right + 1))
    table = None
    if target.get("table"):
        table = next((t for t in inp.book.tables(info) if t.name == target["table"]), None)
    sel = Selection(
        sheet=info,
        kind=str(target.get("kind", "range")),
        top=area.top,
        bottom=area.bottom,
        cols=cols,
        header=record.header,
        whole_rows=record.unit == "rows",
        label=record.selection,
        table=table,
        excluded=[Excluded.from_dict(e) for e in target.get("excluded") or []],
    )
    return Job(inp, sx, sel)


def target_of(sel: Selection) -> dict[str, Any]:
    target: dict[str, Any] = {
        "kind": sel.kind,
        "ref": Area((sel.top, sel.cols[0], max(sel.top, sel.bottom), sel.cols[-1])).a1()
        if sel.cols
        else "",
        "columns": ",".join(col_letters(c) for c in sel.cols) if sel.kind == "columns" else None,
        "table": sel.table.name if sel.table is not None else None,
    }
    if sel.excluded:  # rows of the used range left out, and why (absent: none)
        target["excluded"] = [e.to_dict() for e in sel.excluded]
    if sel.kept:  # --keep-blank-rows: blank data rows left in place (absent: none)
        target["kept"] = kept_runs(sel.kept)
    return target


def make_record(
    command: RecordCommand,
    job: Job,
    stream: DrawStream | str,
    mode: Mode,
    perm: list[Any],
    written: Written,
    changes: Changes,
    output: str | None,
    *,
    k: int | None = None,
) -> DrawRecord:
    sel = job.sel
    return DrawRecord(
        command=command,
        seed=stream if isinstance(stream, str) else stream.seed_text,
        input=job.inp.path,
        input_sha256=job.inp.sha256,
        output=output,
        output_sha256=written.sha256,
        sheet=sel.sheet.name,
        selection=sel.label,
        header=sel.header,
        mode=mode,
        rows=sel.n_rows,
        columns=len(sel.cols),
        permutation=perm,
        k=k,
        unit="rows" if sel.moves_whole_rows(mode) else "cells",
        target=target_of(sel),
        parts=changes.report(),
        backup=written.backup,
    )


def dest(dst: PathLike | None) -> str | None:
    return None if dst is None else os.fspath(dst)
