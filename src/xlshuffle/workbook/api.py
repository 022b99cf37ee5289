"""The public functions of the workbook engine: shuffle, sample and restore (groups:
:mod:`.groups`)."""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..common.names import check_sheet_name, free_sheet_name
from ..common.record import DrawRecord, RecordCommand
from ..common.request import DrawRequest, SampleOptions, ShuffleOptions
from ..draw.errors import OptionError
from ..draw.grid import Mode, parse_mode
from ..draw.knuth import check_count
from ..draw.protocol import DrawStream
from ..draw.seed import Seed
from ..tabledraw.entrants import Entrants
from .add.datarows import DataRows, free_rows
from .add.plain_sample import unsaved_cells, winners, winners_table, write_csv
from .add.raffle import draw_options, draw_sample
from .add.setaside import check_set_aside, write_set_aside
from .add.sheetxml import sample_sheet_xml
from .jobs import Job, file_request, make_record, open_request
from .move.plan import draw_permutation, plan_move
from .move.refusals import check_movable
from .package.readwrite import Changes, Written, check_output_name, write_workbook
from .records import beside
from .records.beside import Warm
from .restore import fingerprint_beside, fingerprint_for, restore_workbook
from .selection.keep import free_indexes, spread

__all__ = [
    "SampleResult",
    "request_entrants",
    "restore_workbook",
    "sample_request",
    "sample_workbook",
    "shuffle_request",
    "shuffle_workbook",
]

PathLike = str | os.PathLike[str]

# a sample's winners written as a list (tab-separated for .tsv and .tab), not a workbook
_LIST_OUTPUTS = (".csv", ".tsv", ".tab")


@dataclass
class SampleResult:
    """A sample: its record, the drawn rows (labels first), and lines for the terminal
    that the record does not keep (IDs excluded that matched no entrant)."""

    record: DrawRecord
    table: list[list[object]]
    notes: list[str] = field(default_factory=list)
    #: cells of the table that are formulas without a saved value (written empty), and
    #: the first one's name (``Tickets!B3``)
    unsaved: tuple[int, str | None] = (0, None)


def shuffle_workbook(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    sheet: str | None = None,
    cells: str | None = None,
    table: str | None = None,
    columns: str | Sequence[str] | None = None,
    header: bool | None = None,
    by: str = "rows",
    seed: object = None,
    keep_blank_rows: bool = False,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
) -> DrawRecord:
    """Shuffle a selection of a saved workbook and write the result.

    Only the drawn sheet's part changes (and, when they must, its comments, the
    calculation chain and the workbook's recalculation flag); every other part of the
    file is copied byte for byte. The record lists every part that was rewritten,
    added or removed.

    Parameters
    ----------
    src : path
        The .xlsx/.xlsm/.xltx/.xltm workbook to read. It is never written unless
        ``in_place``.
    dst : path, optional
        Where to write the shuffled workbook (replaced atomically if it exists).
        Required unless ``in_place`` or ``dry_run``.
    sheet : str, optional
        The sheet to shuffle; the active sheet by default.
    cells : str, optional
        An A1 range such as ``"A2:D200"``, ``"A:D"`` or ``"2:200"``.
    table : str, optional
        An Excel table by name: its data rows (never its totals row). A sheet whose
        only table is the data draws that table by default.
    columns : str or sequence of str, optional
        Column letters such as ``"B,D"`` or ``"B:D"``, over the used rows.
    header : bool, optional
        Keep the first row of the selection in place as labels. Default: on, except for
        ``cells``.
    by : {"rows", "columns", "cells", "within-rows", "within-columns"}, optional
        What moves; see :func:`xlshuffle.shuffle_grid`. With no ``cells``, ``table`` or
        ``columns``, ``"rows"`` moves whole rows (every cell, height and row format);
        otherwise only the selected cells move.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol; ``None`` draws a fresh one (read it from the record).
    keep_blank_rows : bool, optional
        Blank rows inside the data stay where they are; the other data rows are drawn
        among the other places (``by="rows"`` only). Without blank rows, no change.
    in_place : bool, optional
        Replace ``src`` (atomically) instead of writing ``dst``.
    backup : bool, optional
        With ``in_place``, keep the original as ``NAME.bak.xlsx`` (default True).
    dry_run : bool, optional
        Do everything, writing the package to nowhere, but write no file.

    Returns
    -------
    DrawRecord
        The permutation, both files' SHA-256 and the parts that changed.

    Raises
    ------
    WorkbookError
        A file that cannot be read, or a selection whose cells cannot move correctly
        (the message names the cell or range and what to do).
    OptionError, SeedError
        Bad options.

    Examples
    --------
    >>> import openpyxl, os, tempfile, xlshuffle
    >>> folder = tempfile.mkdtemp()
    >>> src, dst = os.path.join(folder, "in.xlsx"), os.path.join(folder, "out.xlsx")
    >>> wb = openpyxl.Workbook()
    >>> for row in [["name"], ["Ann"], ["Bob"], ["Cid"], ["Dee"]]:
    ...     wb.active.append(row)
    >>> wb.save(src)
    >>> record = shuffle_workbook(src, dst, seed=42)
    >>> [r[0] for r in openpyxl.load_workbook(dst).active.values]
    ['name', 'Ann', 'Dee', 'Bob', 'Cid']
    >>> xlshuffle.shuffled(["Ann", "Bob", "Cid", "Dee"], seed=42)
    ['Ann', 'Dee', 'Bob', 'Cid']
    >>> record.permutation, record.selection, record.parts["rewritten"]
    ([0, 3, 1, 2], 'Sheet!A1:A5', ['xl/worksheets/sheet1.xml'])
    """
    options = ShuffleOptions(by=parse_mode(by))
    return shuffle_request(
        file_request(
            "shuffle",
            src,
            dst,
            options,
            seed=seed,
            sheet=sheet,
            cells=cells,
            table=table,
            columns=columns,
            header=header,
            keep_blank_rows=keep_blank_rows,
            in_place=in_place,
            backup=backup,
            dry_run=dry_run,
        )
    )


def shuffle_request(request: DrawRequest) -> DrawRecord:
    """The engine's shuffle: :func:`shuffle_workbook` of a typed request."""
    options = request.options
    if not isinstance(options, ShuffleOptions):
        raise OptionError(f"a shuffle takes ShuffleOptions, not {type(options).__name__}")
    mode, out = options.by, request.output
    if request.region.keep_blank_rows and mode != "rows":
        raise OptionError(
            f"--keep-blank-rows keeps blank rows in place while the others move: it works "
            f"with --by rows, not --by {mode}"
        )
    # a large file's restore fingerprint is taken in a second process: started now, it
    # starts Python and imports its modules while this one reads the sheet
    warmed = beside.warm(str(request.src)) if not (out.dry_run or out.in_place) else None
    try:
        job = open_request(request, shuffle_request, whole_rows=mode == "rows")
        return _shuffle(
            job,
            mode,
            request.seed.stream(),
            None,
            out.path,
            in_place=out.in_place,
            backup=out.backup,
            dry_run=out.dry_run,
            warmed=warmed,
        )
    finally:
        if warmed is not None:
            warmed.discard()


def _shuffle(
    job: Job,
    mode: Mode,
    stream: DrawStream | None,
    perm: list[Any] | None,
    dst: str | None,
    *,
    in_place: bool,
    backup: bool,
    dry_run: bool,
    command: RecordCommand = "shuffle",
    seed_text: str = "",
    warmed: Warm | None = None,
) -> DrawRecord:
    sel = job.sel
    # what the selection holds, taken from the input before the write: beside it, in a
    # second process, where that is worth it (an in-place write keeps its backup first,
    # and must refuse before that), started before the draw, which it does not need
    fingerprint = command == "shuffle" and not dry_run
    pending = fingerprint_beside(job, mode, warmed) if fingerprint and not in_place else None
    try:
        check_movable(job.inp.book, job.sx, sel, mode)
        if perm is None:
            free = free_indexes(sel.n_body, sel.kept, sel.body_top) if sel.kept else None
            perm = draw_permutation(
                mode,
                sel.n_body if free is None else len(free),
                len(sel.cols),
                stream or Seed.given(None).stream(),
                job.sx.label,
            )
            if free is not None:  # --keep-blank-rows: the draw is over the other rows
                perm = spread(perm, sel.n_body, free)
        # a row draw's permutation as an array while the sheet is rewritten (8 bytes a
        # row, not 40: a million rows' list of ints is 32 MB more at the peak); the
        # record's list is made again once the write is done
        moving: Sequence[Any] = array("q", perm) if mode in ("rows", "columns") else perm
        del perm
        changes = plan_move(job.inp, job.sx, sel, mode, moving)
        part = sel.sheet.part
        if pending is not None and part in changes.changed:
            # collected before the output is put in place: a refusal still writes nothing
            changes.changed[part] = pending.after(changes.changed[part])
        # what the selection holds, taken before the write (which consumes the plan)
        drawn = fingerprint_for(job, mode) if fingerprint and pending is None else None
        written = write_workbook(
            job.inp, changes, dst, in_place=in_place, backup=backup, dry_run=dry_run
        )
        if pending is not None:
            drawn = pending.result()
    finally:
        if pending is not None:
            pending.cancel()
    output = None if dry_run else (job.inp.path if in_place else dst)
    record = make_record(
        command,
        job,
        stream if stream is not None else seed_text,
        mode,
        moving.tolist() if isinstance(moving, array) else list(moving),
        written,
        changes,
        output,
    )
    record.fingerprint = drawn
    return record


def sample_workbook(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int | None = None,
    sheet: str | None = None,
    cells: str | None = None,
    table: str | None = None,
    columns: str | Sequence[str] | None = None,
    header: bool | None = None,
    seed: object = None,
    keep_blank_rows: bool = False,
    sheet_name: str = "Sample",
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    weights: str | None = None,
    reserves: int = 0,
    exclude_ids: Iterable[object] | None = None,
    id: str | None = None,
    strata: str | None = None,
    method: str = "random",
    amount: str | None = None,
    total: int | None = None,
    strata_counts: Mapping[str, int] | Sequence[tuple[str, int]] | None = None,
    one_entry_per_id: bool = False,
    all_of_small_strata: bool = False,
) -> SampleResult:
    """Draw ``k`` data rows (raffle winners), in draw order, from a saved workbook.

    The drawn rows are the first ``k`` rows that :func:`shuffle_workbook` puts in the
    selection with the same seed. They go, after a ``Rank`` column and the header
    labels, to a new sheet ``sheet_name`` of a copy of the workbook (``dst`` ending in
    .xlsx/.xlsm, or ``in_place``) with their formatting, or to a CSV file (``dst``
    ending in .csv); with neither, nothing is written and the rows are only returned.
    Any other name (``out.txt``, ``out``) is refused: it is neither.
    Formulas give the values Excel last computed for them.

    The other options draw as ``xlshuffle sample`` does on a CSV/TSV list (protocol
    sections 8-12; a column is named by its header text or its letter, such as ``"C"``).
    The output then has no ``Rank`` column first: the labels and the drawn rows, strata
    one after another, with ``Role`` and ``Rank`` (reserves) or ``Hits`` (mus) after the
    last column, the layout of the same rows saved as CSV and drawn there.

    Parameters
    ----------
    weights : str, optional
        The tickets column: each draw is proportional to the tickets still in the draw.
    reserves : int, optional
        Reserves drawn after the ``k`` winners (the winners are the same as without).
    exclude_ids : iterable of str or number, optional
        IDs that cannot win (such as an earlier record's ``target["draw"]["winners"]``);
        needs ``id``.
    id : str, optional
        The ID column; the record lists the winners' IDs.
    strata : str, optional
        Draw ``k`` (and ``reserves``) from each stratum, the rows sharing its value.
    total : int, optional
        With ``strata``, instead of ``k``: ``total`` rows in all, shared among the strata
        in proportion to their rows (largest remainder, protocol section 11).
    strata_counts : mapping or sequence of (str, int), optional
        With ``strata``, instead of ``k``: each stratum's count (every stratum needs one).
    method : {"random", "systematic", "mus"}, optional
        A raffle (default), or an audit selection in input order: every ``n/k``-th row,
        or ``k`` monetary units of ``amount``.
    amount : str, optional
        The money column of ``method="mus"``.
    one_entry_per_id : bool, optional
        With ``id``: the rows sharing an ID are one entrant at its first row, holding one
        ticket per row (with ``weights``, their tickets added up).
    all_of_small_strata : bool, optional
        With ``strata``: a stratum smaller than its count is taken whole, not refused.

    Returns
    -------
    SampleResult
        ``.record`` (its ``permutation`` holds the drawn row indexes, 0-based among the
        data rows, in output order; ``target["draw"]`` says how they were chosen) and
        ``.table`` (labels row, then one row per drawn row).

    Examples
    --------
    >>> import openpyxl, os, tempfile
    >>> src = os.path.join(tempfile.mkdtemp(), "in.xlsx")
    >>> wb = openpyxl.Workbook()
    >>> for row in [["name", "tickets"], ["Ann", 1], ["Bob", 5], ["Cid", 0], ["Dee", 2]]:
    ...     wb.active.append(row)
    >>> wb.save(src)
    >>> sample_workbook(src, k=2, seed=42).table
    [['Rank', 'name', 'tickets'], [1, 'Ann', 1], [2, 'Dee', 2]]
    >>> sample_workbook(src, k=1, reserves=1, weights="tickets", seed=42).table
    [['name', 'tickets', 'Role', 'Rank'], ['Ann', 1, 'winner', 1], ['Dee', 2, 'reserve', 1]]
    """
    k = None if k is None else check_count("k", k)
    asked = {
        "total": total,
        "strata_counts": strata_counts,
        "weights": weights,
        "reserves": reserves,
        "exclude_ids": exclude_ids,
        "id": id,
        "strata": strata,
        "method": method,
        "amount": amount,
        "one_entry_per_id": one_entry_per_id,
        "all_of_small_strata": all_of_small_strata,
    }
    options = SampleOptions(k=k, sheet_name=sheet_name, draw=draw_options(k, asked))
    return sample_request(
        file_request(
            "sample",
            src,
            dst,
            options,
            seed=seed,
            sheet=sheet,
            cells=cells,
            table=table,
            columns=columns,
            header=header,
            keep_blank_rows=keep_blank_rows,
            in_place=in_place,
            backup=backup,
            dry_run=dry_run,
        )
    )


def request_entrants(request: DrawRequest) -> Entrants:
    """The entrants of the workbook region ``request`` names (its data rows, blank rows
    kept in place left out), read as a sample reads them: what ``xlshuffle tickets``
    lists."""
    job = open_request(request, sample_request, whole_rows=False)
    return DataRows(job, free_rows(job, job.sel.kept)).entrants()


def sample_request(request: DrawRequest) -> SampleResult:
    """The engine's sample: :func:`sample_workbook` of a typed request."""
    asked = request.options
    if not isinstance(asked, SampleOptions):
        raise OptionError(f"a sample takes SampleOptions, not {type(asked).__name__}")
    k, opts, out = asked.k, asked.draw, request.output
    check_sheet_name(asked.sheet_name)
    if opts is None and k is None:
        raise OptionError("k is required: how many rows to draw")
    stream = request.seed.stream()
    job = open_request(request, sample_request, whole_rows=False)
    drawn = None
    if opts is None:
        order = winners(job, check_count("k", k), stream)
        table_out = winners_table(job, order)
    else:
        drawn, table_out = draw_sample(job, opts, stream)
        order = drawn.rows
    target, in_place, backup, dry_run = out.path, out.in_place, out.backup, out.dry_run
    if out.set_aside is not None:  # refused before the sample is written, not after
        check_set_aside(job, out.set_aside, job.inp.path if in_place else target)
    as_list = target is not None and target.lower().endswith(_LIST_OUTPUTS)
    if target is not None and not as_list and not target.lower().endswith((".xlsx", ".xlsm")):
        also = " (or .csv for CSV, .tsv for TSV)"
        check_output_name(job.inp.book, job.inp.path, target, also=also)
    changes, written = Changes(), Written(None, None)
    if target is not None and as_list:
        written = write_csv(target, table_out, dry_run=dry_run)
    elif target is not None or in_place:
        book = job.inp.book
        name = free_sheet_name(asked.sheet_name, {s.name for s in book.sheets})
        added = None if drawn is None else (drawn.extra_labels, drawn.extra)
        xml = sample_sheet_xml(book, job.sx, job.sel, order, added=added)
        changed, part = book.add_sheet(name, xml)
        changes = Changes(changed=dict(changed), added=[(part, xml)], like=job.sel.sheet.part)
        written = write_workbook(
            job.inp, changes, target, in_place=in_place, backup=backup, dry_run=dry_run
        )
    output = None if dry_run else (job.inp.path if in_place else target)
    record = make_record("sample", job, stream, "rows", order, written, changes, output, k=k)
    notes = [] if drawn is None else drawn.notes
    if drawn is not None:
        record.target["draw"] = drawn.spec
        if out.set_aside is not None:
            aside = write_set_aside(job, drawn, out.set_aside, dry_run=dry_run, notes=notes)
            record.set_aside_output, record.set_aside_output_sha256 = aside
    sel = job.sel
    shown = [*([sel.top] if sel.header else []), *(sel.body_top + i for i in order)]
    return SampleResult(record, table_out, notes, unsaved_cells(job, shown))
