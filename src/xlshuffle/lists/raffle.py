"""Raffles and audits on CSV/TSV lists: tickets, reserves, exclusions, strata and audits.

``draw_csv`` reads the list's fields into an :class:`~xlshuffle.tabledraw.entrants.Entrants`,
lets :mod:`xlshuffle.tabledraw.raffles` choose the rows (the same code a workbook's draw
uses), and writes the header and the drawn records in output order, each record's bytes
kept and the added fields (``Role``, ``Rank``, ``Hits``) appended after its last field.
The record is ``sample_csv``'s, with ``target["draw"]`` saying how the rows were chosen;
``verify_draw_csv`` draws again from it and compares.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

from ..common.a1 import col_letters
from ..common.request import DrawRequest, SampleOptions
from ..common.setaside import SET_ASIDE_OPTION, nothing_set_aside, set_aside_fields
from ..common.targets import check_another_output
from ..draw.errors import ListError, OptionError
from ..tabledraw.entrants import Entrants
from ..tabledraw.raffles import Drawn, DrawOptions, check_exclusion, choose, exclusion_of, replay
from ..tabledraw.winners import first_difference, read_saved_table
from .lines import DEFAULT_MAX_MB
from .opened import (
    Opened,
    check_name,
    csv_field,
    list_record,
    list_request,
    opened,
    write_list,
)
from .table import stream_records

__all__ = [
    "Fields",
    "draw_csv",
    "drawn_sample",
    "list_digest",
    "request_entrants",
    "verify_draw_csv",
]

PathLike = str | os.PathLike[str]


class Fields:
    """The list's records split into fields (decoded UTF-8, any byte kept), on demand:
    all at once, and only the columns asked for, when no record holds a quote."""

    def __init__(self, op: Opened) -> None:
        self.op = op
        self._rows: list[list[str]] | None = None
        self._lines = self._unquoted()

    def record(self, r: int) -> list[str]:
        lst = self.op.lst
        text = bytes(lst.body(r)[0]).decode("utf-8", "surrogateescape")
        rows = csv.reader(io.StringIO(text, newline=""), delimiter=lst.delimiter, strict=False)
        return next(rows, [])

    def rows(self) -> list[list[str]]:
        if self._rows is None:
            self._rows = [self.record(self.op.first + i) for i in range(self.op.n)]
        return self._rows

    def _unquoted(self) -> list[str] | None:
        """The records' lines when none holds a quote or a lone CR (then one line is one
        record, and a field is what lies between delimiters, as csv reads it), else None."""
        op, lst = self.op, self.op.lst
        chunk = bytes(lst.data[lst.bounds[op.first] : lst.bounds[op.first + op.n]])
        if b'"' in chunk or chunk.count(b"\r") != chunk.count(b"\r\n"):
            return None
        lines = chunk.decode("utf-8", "surrogateescape").replace("\r\n", "\n").split("\n")
        if chunk.endswith(b"\n") or not chunk:
            lines.pop()
        return lines if len(lines) == op.n else None

    def column(self, j: int) -> list[object]:
        if self._lines is None:
            return [row[j] if j < len(row) else "" for row in self.rows()]
        sep = self.op.lst.delimiter
        out: list[object] = []
        for line in self._lines:
            fields = line.split(sep, j + 1)
            out.append(fields[j] if j < len(fields) else "")
        return out

    def width(self) -> int:
        if self._lines is None:
            return max([0, *(len(row) for row in self.rows())])
        sep = self.op.lst.delimiter
        return max([0, *(line.count(sep) + 1 for line in self._lines if line)])

    def entrants(self) -> Entrants:
        op = self.op
        width = max(op.lst.columns, self.width())
        return Entrants(
            where=op.path,
            labels=self.record(0) if op.header else None,
            letters=[col_letters(j + 1) for j in range(width)],
            n=op.n,
            values=self.column,
            cell=self.cell,
            fail=ListError,
            delimiter=op.lst.delimiter,
        )

    def cell(self, i: int, j: int) -> str:
        """``raffle.csv: cell C7``: the row is the line the record starts on."""
        lst = self.op.lst
        line = lst.data.count(b"\n", 0, lst.bounds[self.op.first + i]) + 1
        return f"{self.op.path}: cell {col_letters(j + 1)}{line}"


def _chunks(op: Opened, drawn: Drawn) -> Iterator[bytes | bytearray]:
    """The header and the drawn records, with the added fields after their last one."""
    lst = op.lst
    sep = lst.delimiter.encode("ascii")
    yield lst.head

    def line(r: int, extra: list[object]) -> Iterator[bytes | bytearray]:
        if not extra:
            yield lst.record(r)
            return
        body, end = lst.body(r)
        yield body + b"".join(sep + csv_field(str(x), lst.delimiter) for x in extra)
        yield end or lst.ending

    if op.header:
        yield from line(0, list(drawn.extra_labels))
    for i, extra in zip(drawn.rows, drawn.extra, strict=True):
        yield from line(op.first + i, extra)


def draw_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    options: DrawOptions,
    seed: object = None,
    header: bool = True,
    dry_run: bool = False,
    out: BinaryIO | None = None,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
    notes: list[str] | None = None,
) -> dict[str, Any]:
    """Draw the rows ``options`` asks for and write them as a list of the input's kind.

    Written to ``dst``, or to ``out`` (``sys.stdout.buffer``) when ``dst`` is None;
    nothing is written in a dry run. Returns the draw record (a dict): ``permutation``
    holds the drawn rows (0-based among the data records) in output order,
    ``target["draw"]`` how they were chosen. Lines for the terminal that the record does
    not keep (IDs excluded that matched no entrant) are added to ``notes``.
    """
    request = list_request(
        "sample",
        src,
        dst,
        SampleOptions(k=options.k, draw=options),
        seed=seed,
        header=header,
        dry_run=dry_run,
        max_bytes=max_bytes,
    )
    return drawn_sample(request, out=out, notes=notes)


def request_entrants(request: DrawRequest) -> Entrants:
    """The entrants of the list ``request`` names (its header and records), as the draws
    of this module read them: what ``xlshuffle tickets`` lists."""
    return Fields(opened(request)).entrants()


def drawn_sample(
    request: DrawRequest, *, out: BinaryIO | None = None, notes: list[str] | None = None
) -> dict[str, Any]:
    """The list engine's sample by tickets, strata, exclusions or an audit:
    :func:`draw_csv` of a typed request."""
    asked = request.options
    if not isinstance(asked, SampleOptions) or asked.draw is None:
        raise OptionError("a draw of a list takes SampleOptions with its draw options")
    options, dst, dry_run = asked.draw, request.output.path, request.output.dry_run
    options.check()
    stream, op = request.seed.stream(), opened(request)
    ents = Fields(op).entrants()
    cols = options.columns(ents)
    drawn = choose(ents, options, stream, exclusion_of(ents, options, cols.get("id")))
    if notes is not None:
        notes += drawn.notes
    aside = request.output.set_aside
    if aside is not None:  # refused before the sample is written, not after
        taken = {"the input": op.path, "the sample's output (-o)": dst}
        check_another_output(aside, SET_ASIDE_OPTION, taken)
        check_name(op, aside, SET_ASIDE_OPTION)
    chunks = _chunks(op, drawn)
    written: tuple[str | None, str | None, str | None] = (None, None, None)
    if dst is not None:
        written = write_list(op, dst, chunks, in_place=False, backup=False, dry_run=dry_run)
    elif out is not None and not dry_run:
        for chunk in chunks:
            out.write(chunk)
        out.flush()
    record = list_record("sample", op, stream, drawn.rows, written, k=options.k)
    record["target"]["draw"] = drawn.spec
    if aside is not None:
        record |= _write_set_aside(op, aside, drawn.set_aside(), dry_run, notes)
    return record


def _write_set_aside(
    op: Opened, target: str, rows: list[int], dry_run: bool, notes: list[str] | None
) -> dict[str, Any]:
    """The header and the rows set aside, each record byte for byte, to ``target``; the
    record's fields naming it (none when nothing was written: no row, or a dry run)."""
    if not rows:
        if notes is not None:
            notes.append(nothing_set_aside(target))
        return {}
    chunks = [*op.start(), *op.rows(rows)]
    path, sha256, _ = write_list(op, target, chunks, in_place=False, backup=False, dry_run=dry_run)
    return set_aside_fields(path, sha256)


def verify_draw_csv(
    record: dict[str, Any],
    src: PathLike,
    saved: PathLike | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
    excluded: Sequence[str] | None = None,
    set_aside: PathLike | None = None,
) -> None:
    """Draw again what ``record`` says from ``src``, and check ``saved`` (the output, or
    the winners saved from stdout) field by field; with ``excluded`` (IDs, as read from
    an earlier record or a list), check that the draw left out exactly those; with
    ``set_aside``, that it holds the header and the rows the draw set aside. Raises
    ListError at the first difference."""
    op = Opened(src, bool(record["header"]), max_bytes)
    if op.sha256 != record["input_sha256"]:
        raise ListError(f"{op.path}: not the recorded input (SHA-256 differs)")
    ents = Fields(op).entrants()
    if excluded is not None:
        why = check_exclusion(ents, record["target"]["draw"], excluded)
        if why is not None:
            raise ListError(f"record: not a draw that excluded the IDs given: {why}")
    drawn = replay(ents, record["target"]["draw"], str(record["seed"]))
    if drawn.rows != record["permutation"]:
        raise ListError(
            f"record: seed {record['seed']!r} does not draw these rows: recorded "
            f"{record['permutation'][:10]}, drawn again {drawn.rows[:10]}"
        )
    if drawn.spec != record["target"]["draw"]:
        raise ListError("record: target.draw is not what the draw gives again: it was edited")
    if saved is not None:
        _check_saved(op, b"".join(_chunks(op, drawn)), saved, "drawn row")
    if set_aside is not None:
        rows = drawn.set_aside()
        if not rows:
            raise ListError(
                f"{os.fspath(set_aside)}: this draw set aside no row (none of amount 0 or "
                "below), so it wrote no file of them"
            )
        data = b"".join([*op.start(), *op.rows(rows)])
        _check_saved(op, data, set_aside, "set-aside row")


def _check_saved(op: Opened, data: bytes, saved: PathLike, what: str) -> None:
    """``saved`` holds the records of ``data`` (the draw's bytes), field by field."""
    text = data.decode("utf-8-sig", "surrogateescape")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=op.lst.delimiter, strict=False)
    names = itertools.chain(
        ["the header row"] if op.header else [],
        (f"{what} {n}" for n in itertools.count(1)),
    )
    want = [(name, row) for name, row in zip(names, reader, strict=False)]
    diff = first_difference(read_saved_table(saved, op.lst.delimiter), want, op.lst.delimiter)
    if diff is not None:
        raise ListError(f"{os.fspath(saved)}: not the rows this draw wrote: {diff}")


def list_rows(src: PathLike, *, header: bool, max_bytes: int) -> list[list[str]]:
    """The list's rows as texts: the header's fields (with ``header``), then each data
    record's, empty fields at the end left out (the rows a commitment digests, protocol
    section 17)."""
    op = Opened(src, header, max_bytes)
    fields = Fields(op)
    rows = ([fields.record(0)] if header else []) + fields.rows()
    return [_trimmed(row) for row in rows]


def list_digest(src: PathLike, *, header: bool) -> tuple[str, int]:
    """The list digest of :func:`list_rows`' rows (protocol section 17, step 1) and the
    number of data rows, the file streamed: memory holds one record at a time, so a list
    of any size is digested."""
    from ..draw.commit import rows_sha256

    count = [0]

    def rows() -> Iterator[list[str]]:
        for fields in stream_records(os.fspath(src)):
            count[0] += 1
            yield _trimmed(fields)

    digest = rows_sha256(rows())
    return digest, count[0] - (1 if header and count[0] else 0)


def _trimmed(row: list[str]) -> list[str]:
    end = len(row)
    while end and not row[end - 1]:
        end -= 1
    return row[:end]
