"""Undo a shuffle, and only the shuffle its record describes.

The file given must be the draw's output: its SHA-256 is the record's ``output_sha256``,
or, for an output edited since (re-saved by Excel or LibreOffice, a cell changed outside
the drawn rows), its drawn cells, once put back, hold what the input's selection held
(the record's ``fingerprint``). Anything else (another workbook, the unshuffled input, an
output whose drawn cells were edited) is refused in one line naming the first row that
differs, and nothing is written.
"""

from __future__ import annotations

import os
from typing import Any

from ..common.record import DrawRecord, load_one_record
from ..draw.errors import OptionError, WorkbookError
from ..draw.grid import Mode, parse_mode
from .jobs import Job, dest, job_from_record, make_record
from .move.plan import destination, inverse, plan_move
from .move.refusals import check_movable
from .package.readwrite import Changes, write_workbook
from .records import beside
from .records.beside import Beside, Warm
from .records.fingerprint import Fingerprint, differing_rows, fingerprint_of
from .scan.refs import cell_ref
from .scan.sheet import SheetXml
from .values.reader import CellReader

__all__ = ["fingerprint_beside", "fingerprint_for", "restore_workbook"]

PathLike = str | os.PathLike[str]


def _scope(job: Job, mode: Mode) -> tuple[int, int, list[int] | None]:
    """The rows and columns a shuffle's fingerprint covers (None: every cell of a row)."""
    sel = job.sel
    whole = sel.moves_whole_rows(mode)
    return sel.moving_top(mode), sel.bottom, None if whole else list(sel.cols)


def fingerprint_for(job: Job, mode: Mode, sx: SheetXml | None = None) -> dict[str, Any]:
    """The record's ``fingerprint`` of the selection of ``job`` (or of the same cells of
    ``sx``, another state of its sheet)."""
    top, bottom, cols = _scope(job, mode)
    book = job.inp.book
    return fingerprint_of(
        sx or job.sx, lambda: CellReader.of(book).strings, top, bottom, cols
    ).to_dict()


def fingerprint_beside(job: Job, mode: Mode, warmed: Warm | None = None) -> Beside | None:
    """:func:`fingerprint_for`, started in a second process (:mod:`.records.beside`; the
    ``warmed`` one, when given) to run beside the rewrite; None where it is better
    computed here."""
    top, bottom, cols = _scope(job, mode)
    book = job.inp.book
    strings = None
    for rel in book.rels(book.part):
        if rel.type == "sharedStrings" and not rel.external:
            strings = book.pkg.find(rel.target)
    return beside.start(
        job.sx,
        job.inp.path,
        job.inp.sha256,
        job.sel.sheet.part,
        strings,
        top,
        bottom,
        cols,
        lambda: fingerprint_for(job, mode),
        warmed=warmed,
    )


def _inverse_draw(mode: Mode, perm: list[Any]) -> list[Any]:
    if mode in ("within-rows", "within-columns"):
        return [inverse(p) for p in perm]
    return inverse(perm)


def _short(digest: str | None) -> str:
    return f"{str(digest)[:16]}..."


def _check_is_output(job: Job, record: DrawRecord, mode: Mode, changes: Changes) -> None:
    """Refuse a file that is not the record's output, or whose drawn cells were edited."""
    path, sha = job.inp.path, job.inp.sha256
    if sha == record.output_sha256:
        return
    if sha == record.input_sha256:
        raise WorkbookError(
            f"{path}: this is the draw's input (SHA-256 {_short(sha)}), not its output: it "
            "already holds the rows as they were before the draw; nothing to restore"
        )
    want = Fingerprint.from_dict(record.fingerprint)
    if want is None:
        raise WorkbookError(
            f"{path}: SHA-256 {_short(sha)} is not the recorded output's "
            f"{_short(record.output_sha256)}, and the record predates the check of edited "
            "outputs: restore the file the draw wrote, unedited, or take the input back from "
            "its backup"
        )
    part = job.sel.sheet.part
    content = changes.changed.get(part, job.sx.data)
    restored = content if isinstance(content, bytes) else b"".join(content)
    changes.changed[part] = restored
    sx = SheetXml(restored, job.sx.label)
    got = Fingerprint.from_dict(fingerprint_for(job, mode, sx))
    top = _scope(job, mode)[0]
    rows = differing_rows(got, want, top) if got is not None else [top]
    if not rows:
        return
    raise WorkbookError(
        f"{path}: sheet {record.sheet!r}, {_where(job, record, mode, rows)}: not what the "
        "draw wrote there (this is not the draw's output, or a drawn cell was edited since): "
        "restore the file the draw wrote"
    )


def _where(job: Job, record: DrawRecord, mode: Mode, rows: list[int]) -> str:
    """The first cells of the file given that go back to a row that differs, in the
    file's order: ``"row 7 (cells A7:C7)"``, ``"cells B3, A9, C2"``."""
    sel = job.sel
    top = sel.moving_top(mode)
    if not sel.cols:
        return f"row {rows[0]}"
    to = destination(mode, top, sel.cols, record.permutation)

    def cells(row: int) -> list[tuple[int, int]]:
        # the header stays (only ``columns`` moves it, along its row)
        return (
            sorted({to(row, c) for c in sel.cols}) if row >= top else [(row, c) for c in sel.cols]
        )

    first = min((cells(r) for r in rows[:100_000]), key=lambda c: c[0])
    if all(r == first[0][0] for r, _ in first):
        a, b = first[0], first[-1]
        span = cell_ref(*a) + (f":{cell_ref(*b)}" if b != a else "")
        return f"row {a[0]} (cell{'s' if b != a else ''} {span})"
    shown = ", ".join(cell_ref(*c) for c in first[:6]) + (", ..." if len(first) > 6 else "")
    return f"cells {shown}"


def restore_workbook(
    record: DrawRecord | PathLike,
    src: PathLike,
    dst: PathLike | None = None,
    *,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
) -> DrawRecord:
    """Undo a shuffle: move the cells of its output back where they came from.

    ``src`` must be the shuffled workbook the record describes: the file the draw wrote
    (its SHA-256 is the record's), or that file edited since where the drawn cells still
    hold what the draw put there (an output re-saved by Excel or LibreOffice, or changed
    outside the drawn rows; checked with the record's ``fingerprint``). The inverse
    permutation puts every cell back, with formulas translated back. Every part the draw
    changed comes back as the input had it, apart from formulas' cached values (recomputed
    when the file is opened), shared formulas written out as plain ones, the calculation
    chain (removed) and the request to recalculate on load (docs/batch.md, "What a
    restore gives back").

    Returns
    -------
    DrawRecord
        A record of the restore (``command="restore"``), whose permutation is the inverse.

    Raises
    ------
    WorkbookError
        ``src`` is not the record's output (another workbook, the draw's input), or a
        drawn cell was edited since: the message names the first row that differs and
        its cells, and nothing is written.
    """
    if not isinstance(record, DrawRecord):
        record = load_one_record(os.fspath(record))
    if record.command != "shuffle":
        raise OptionError(
            f"only a shuffle can be restored, and this record is a {record.command}: "
            "the input of a sample or groups draw is unchanged (use that file)"
        )
    try:
        job = job_from_record(src, record)
    except OptionError as exc:  # the sheet is not there: a file problem, not an option's
        raise WorkbookError(
            f"{exc}: the draw was on sheet {record.sheet!r}; restore the file the draw wrote"
        ) from None
    mode = parse_mode(record.mode)
    perm = _inverse_draw(mode, record.permutation)
    check_movable(job.inp.book, job.sx, job.sel, mode)
    changes = plan_move(job.inp, job.sx, job.sel, mode, perm)
    _check_is_output(job, record, mode, changes)
    target = dest(dst)
    written = write_workbook(
        job.inp, changes, target, in_place=in_place, backup=backup, dry_run=dry_run
    )
    output = None if dry_run else (job.inp.path if in_place else target)
    restored = make_record("restore", job, record.seed, mode, perm, written, changes, output)
    if record.target.get("kept"):  # the rows the shuffle left in place, which it undoes too
        restored.target["kept"] = list(record.target["kept"])
    return restored
