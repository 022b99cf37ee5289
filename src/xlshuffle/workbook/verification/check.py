"""Check a draw record: replay its seed, and check the files against it.

The output check reads both sheets' rows by offsets (no DOM): each output row must be the
input row the permutation puts there, with only its references rewritten, formula text
and cached values aside (formulas are translated by design); a row that differs in its
XML (an output re-saved by Excel renumbers shared strings and styles) is compared by its
cells' values before the check fails.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable
from typing import Any

from ...common.digest import file_sha256
from ...common.record import DrawRecord, load_records
from ...draw.errors import OptionError, WorkbookError
from ...draw.grid import parse_mode
from ...draw.knuth import permutation
from ...draw.protocol import DrawStream
from ...draw.seed import Seed
from ..add.teams import groups_again
from ..jobs import job_from_record
from ..move.plan import destination, draw_permutation
from ..records.rowdigest import UNKNOWN, block_digests, norm_general, row_digests
from ..scan.refs import cell_ref, parse_area
from ..scan.sheet import SheetXml
from ..selection.keep import free_indexes, parse_kept, spread
from .formulas import FormulaCheck
from .groups import verify_balanced_workbook, verify_group_column
from .raffle import verify_draw_record
from .rows import RowsAgain, verify_rows
from .winners import verify_printed

__all__ = ["verify_record"]

PathLike = str | os.PathLike[str]


def _expected_shape(record: DrawRecord) -> tuple[int, int | None]:
    """How many entries the permutation must have, and how long each inner list is."""
    n_rows = record.rows - (1 if record.header else 0)
    if record.command == "sample":
        return record.k or 0, None
    if record.command == "groups":
        return n_rows, None
    mode = parse_mode(record.mode)
    return {
        "rows": (n_rows, None),
        "columns": (record.columns, None),
        "cells": (n_rows * record.columns, None),
        "within-rows": (n_rows, record.columns),
        "within-columns": (record.columns, n_rows),
    }[mode]


def _check_shape(record: DrawRecord) -> None:
    """A record whose sizes disagree with its permutation is refused before the replay,
    whose cost follows the sizes (so a record claiming a billion rows costs nothing)."""
    count, inner = _expected_shape(record)
    perm = record.permutation
    bad = len(perm) != count or (
        inner is not None and any(not isinstance(p, list) or len(p) != inner for p in perm)
    )
    if bad or (record.command == "sample" and count > record.rows):
        raise WorkbookError(
            f"record: the permutation has {len(perm):,} entries, which does not fit its "
            f"{record.rows:,} rows x {record.columns:,} columns ({record.command}, "
            f"{record.mode}): the record was edited or damaged"
        )


def _replay(record: DrawRecord) -> list[Any]:
    _check_shape(record)
    stream = Seed.given(record.seed).stream()
    n_rows = record.rows - (1 if record.header else 0)
    if record.target.get("kept"):
        return _replay_kept(record, stream, n_rows)
    if record.command == "sample":
        return permutation(n_rows, seed=stream)[: record.k or 0]
    if record.command == "groups":
        return permutation(n_rows, seed=stream)
    return draw_permutation(parse_mode(record.mode), n_rows, record.columns, stream)


def _replay_kept(record: DrawRecord, stream: DrawStream, n_rows: int) -> list[Any]:
    """``--keep-blank-rows``: the draw is over the rows not kept, spread over all."""
    area = parse_area(str(record.target.get("ref", "")))
    try:
        if area is None or (record.command == "shuffle" and record.mode != "rows"):
            raise ValueError("kept rows need a target.ref and whole rows")
        body_top = area.top + (1 if record.header else 0)
        free = free_indexes(n_rows, parse_kept(record.target, body_top, n_rows), body_top)
    except ValueError as exc:
        raise WorkbookError(
            f"record: target.kept: {exc}: the record was edited or damaged"
        ) from None
    drawn = permutation(len(free), seed=stream)
    if record.command == "sample":
        return [free[i] for i in drawn[: record.k or 0]]
    return spread(drawn, n_rows, free)


def _first_difference(a: list[Any], b: list[Any]) -> str | None:
    if len(a) != len(b):
        return f"{len(a)} entries recorded, {len(b)} recomputed"
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            return f"position {i}: recorded {x!r}, recomputed {y!r}"
    return None


def verify_record(
    record: DrawRecord | PathLike,
    *,
    input: PathLike | None = None,
    output: PathLike | None = None,
) -> None:
    """Check a draw record: replay its seed, and check the files against it.

    The permutation is recomputed from the seed with the draw protocol and must equal the
    recorded one. ``input`` must have the recorded SHA-256. ``output`` must have the
    recorded SHA-256, unless ``input`` is given too and the record is a shuffle: then the
    output's selection must hold the input's cells in the recomputed order (so an output
    re-saved by Excel still verifies). For a sample whose winners were printed to stdout
    (no output in the record), ``output`` is the file the user saved them in: with
    ``input``, its rows must be the labels and the winners as ``sample`` prints them.
    A sample by tickets, strata or an audit method is drawn again from ``input``
    (:func:`~xlshuffle.workbook.verify_draw_workbook`), which it needs.
    Records written by 0.1 (``record_version`` 1) are checked the same way.

    Raises
    ------
    WorkbookError
        With the first difference found.

    See Also
    --------
    xlshuffle.records.verify : the library's check of any record (workbooks, lists,
        orders, allocations, deals, committed draws), which answers with a verdict
        (``.ok``, ``.message``) instead of raising at a difference.

    Examples
    --------
    >>> record = DrawRecord(command="shuffle", seed="42", input="in.xlsx",
    ...     input_sha256="", sheet="Sheet", selection="Sheet!A1:A5", header=True,
    ...     mode="rows", rows=5, columns=1, permutation=[0, 3, 1, 2])
    >>> verify_record(record)
    >>> record.permutation = [0, 1, 2, 3]
    >>> try:
    ...     verify_record(record)
    ... except WorkbookError as exc:
    ...     print(exc)
    record: seed '42' does not give this permutation: position 1: recorded 1, recomputed 3
    """
    if not isinstance(record, DrawRecord):
        _verify_record_file(record, input, output)
        return
    if record.target.get("draw") is not None:  # raffles and audits are drawn again from input
        verify_draw_record(record, input, output)
        return
    if record.target.get("balance") is not None:  # balanced teams: dealt again from input
        if record.target.get("kind") == "list":
            raise OptionError(
                f"{record.input}: a CSV/TSV list's balanced teams are checked by 'xlshuffle "
                "verify RECORD --input IN' (xlshuffle.lists.teams.verify_balanced_csv)"
            )
        verify_balanced_workbook(record, input, output)
        return
    _verify_replay(record)
    if input is not None:
        record.check_input(input)
    if output is not None:
        _verify_output(record, input, output)


def _verify_record_file(path: PathLike, input: PathLike | None, output: PathLike | None) -> None:
    """Every draw of a record file (one, or a list from a run over several files)."""
    records = load_records(os.fspath(path))
    if len(records) != 1 and (input is not None or output is not None):
        raise OptionError(
            f"{os.fspath(path)} holds {len(records)} draws: check them without "
            "--input/--output (each against its recorded files)"
        )
    for rec in records:
        verify_record(rec, input=input, output=output)


def _verify_replay(record: DrawRecord) -> None:
    """The seed gives the recorded permutation under the recorded protocol."""
    record.check_protocol()
    diff = _first_difference(record.permutation, _replay(record))
    if diff is not None:
        raise WorkbookError(f"record: seed {record.seed!r} does not give this permutation: {diff}")


def _verify_output(record: DrawRecord, input: PathLike | None, output: PathLike) -> None:
    """The output: winners saved from stdout, a shuffle's cells (with the input), or
    else its exact bytes."""
    if record.command == "sample" and record.output is None and record.output_sha256 is None:
        verify_printed(record, input, output)
        return
    # a CSV/TSV list's output is its exact bytes (no program re-saves it as Excel does)
    if input is None or record.command != "shuffle" or record.target.get("kind") == "list":
        got = file_sha256(output)
        workbook_groups = record.command == "groups" and record.target.get("kind") != "list"
        if got != record.output_sha256 and input is not None and workbook_groups:
            # other bytes (re-saved by Excel?): the group column, cell by cell
            before = job_from_record(input, record)
            free, numbers, _ = groups_again(record, before)
            verify_group_column(record, before, output, dict(zip(free, numbers, strict=True)))
            return
        if got != record.output_sha256:
            raise WorkbookError(
                f"{os.fspath(output)}: SHA-256 {got[:16]}... is not the recorded output's "
                f"{str(record.output_sha256)[:16]}..."
                + (": pass --input too to compare the cells" if input is None else "")
            )
        return
    _verify_cells(record, input, output)


def _verify_cells(record: DrawRecord, src: PathLike, dst: PathLike) -> None:
    """The output's selection must hold the input's cells moved by the permutation."""
    before = job_from_record(src, record)
    sel = before.sel
    mode = parse_mode(record.mode)
    top = sel.moving_top(mode)
    formulas = FormulaCheck(record, sel, src, dst)  # digests each sheet while it is open
    formulas.expect(before.sx)
    if record.unit == "rows":
        # one sheet in memory at a time: the rows' digests are all that is kept of each
        ins = row_digests(before.sx, top, sel.bottom)
        del before
        out_sx = job_from_record(dst, record).sx
        outs = row_digests(out_sx, top, sel.bottom)
        formulas.find(out_sx)
        del out_sx
        verify_rows(record, ins, outs, top, RowsAgain(record, src, dst))
        formulas.check()
        return
    only: set[int] | None = None  # the input rows to compare cell by cell (None: all)
    if mode == "rows" and sel.cols[-1] - sel.cols[0] + 1 == len(sel.cols):
        ins = block_digests(before.sx, top, sel.bottom, sel.cols)
        del before  # one sheet in memory at a time
        only = _rows_unlike(record, ins, dst, (top, sel.bottom, sel.cols), formulas)
        if not only:
            formulas.check()
            return
        before = job_from_record(src, record)
    dest = destination(mode, top, sel.cols, record.permutation)
    expected, origin = _expected_cells(before.sx, top, sel.bottom, sel.cols, dest, only)
    del before
    places = None if only is None else {dest(r, sel.cols[0])[0] for r in only}
    out = job_from_record(dst, record).sx
    formulas.find(out)
    rows = RowsAgain(record, src, dst)
    colset = set(sel.cols)
    seen: set[tuple[int, int]] = set()
    for i in range(out.index_of(top), out.index_of(sel.bottom + 1)):
        if places is not None and out.numbers[i] not in places:
            continue
        row = out.row(i)
        for cell in out.cells(i):
            key = (out.numbers[i], cell.col)
            if cell.col not in colset:
                continue
            seen.add(key)
            if expected.get(key) != norm_general(row[cell.start : cell.end]):
                _mismatch_unless_same(dst, record, key, origin.get(key), rows)
    for key in expected.keys() - seen:
        _mismatch_unless_same(dst, record, key, origin.get(key), rows)
    formulas.check()


def _rows_unlike(
    record: DrawRecord,
    ins: array[int],
    dst: PathLike,
    block: tuple[int, int, list[int]],
    formulas: FormulaCheck,
) -> set[int]:
    """A block of columns moving with its rows: the input rows whose block (digests
    ``ins``) does not read the same as the one at its place in the output (row numbers,
    formulas and cached values aside), to be compared cell by cell."""
    top, bottom, cols = block
    out = job_from_record(dst, record).sx
    formulas.find(out)
    outs = block_digests(out, top, bottom, cols)
    perm = record.permutation
    return {top + s for p, s in enumerate(perm) if ins[s] == UNKNOWN or ins[s] != outs[p]}


def _expected_cells(
    sx: SheetXml,
    top: int,
    bottom: int,
    cols: list[int],
    dest: Callable[[int, int], tuple[int, int]],
    only: set[int] | None,
) -> tuple[dict[tuple[int, int], bytes], dict[tuple[int, int], tuple[int, int]]]:
    """Each output place's expected cell (normalised XML) and where it comes from, for the
    input rows ``only`` (None: every row)."""
    colset = set(cols)
    expected: dict[tuple[int, int], bytes] = {}
    origin: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(sx.index_of(top), sx.index_of(bottom + 1)):
        if only is not None and sx.numbers[i] not in only:
            continue
        row = sx.row(i)
        for cell in sx.cells(i):
            if cell.col in colset:
                key = dest(sx.numbers[i], cell.col)
                expected[key] = norm_general(row[cell.start : cell.end])
                origin[key] = (sx.numbers[i], cell.col)
    return expected, origin


def _mismatch_unless_same(
    dst: PathLike,
    record: DrawRecord,
    key: tuple[int, int],
    src: tuple[int, int] | None,
    rows: RowsAgain,
) -> None:
    """A cell whose XML differs may still hold the same value (a file re-saved by Excel
    or by openpyxl, as xlshuffle 0.1 saved its outputs, renumbers shared strings and
    styles); a cell where the draw puts nothing must hold no value."""
    moved = rows.cell_value(0, src) if src is not None else None
    if moved != rows.cell_value(1, key):
        _mismatch(dst, record, key)


def _mismatch(dst: PathLike, record: DrawRecord, key: tuple[int, int]) -> None:
    raise WorkbookError(
        f"{os.fspath(dst)}: sheet {record.sheet!r} cell {cell_ref(*key)} does not hold the "
        "input cell the draw puts there"
    )
