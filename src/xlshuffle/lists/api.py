"""Draws on CSV/TSV lists with a header row: ``shuffle_csv``, ``sample_csv``, ``groups_csv``.

Each draw is the one a sheet of the same rows gets from :mod:`xlshuffle.workbook`: ``n``
data records shuffled with seed ``S`` take the order ``permutation(n, seed=S)``, a sample
of ``k`` is its first ``k``, groups follow :func:`~xlshuffle.draw.knuth.group_numbers`.
Each returns a draw record as a plain dict with the keys of the workbook's ``DrawRecord``
(this package may not import the workbook layer), so ``xlshuffle verify`` replays it.

Bytes rule: the header, every record, a UTF-8 byte order mark and trailing blank lines
are written back byte for byte. The one addition: a last record without a line break
gets the file's own line ending (its first line's) so it cannot run into the record
placed after it; an output therefore always ends with a line break.
"""

from __future__ import annotations

import base64
import csv
import datetime as _dt
import io
import itertools
import os
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from ..common.counts import group_count, refuse_taken_label, too_many
from ..common.digest import bytes_sha256
from ..common.files import write_output
from ..common.targets import check_output, is_stream, output_of
from ..draw.errors import ListError, OptionError, SizeError
from ..draw.knuth import check_count, deal, group_numbers, permutation
from ..draw.protocol import PROTOCOL, DrawStream, as_stream
from .lines import DEFAULT_MAX_MB, read_limited
from .table import CsvList, parse_list

__all__ = ["LIST_EXTENSIONS", "groups_csv", "is_list", "sample_csv", "shuffle_csv"]

#: File name endings drawn as CSV/TSV lists (any case).
LIST_EXTENSIONS = (".csv", ".tsv", ".tab")

PathLike = str | os.PathLike[str]
Chunks = Iterable[bytes | bytearray]


def is_list(path: PathLike) -> bool:
    """Whether ``path`` names a CSV/TSV list (by its extension)."""
    return os.fspath(path).lower().endswith(LIST_EXTENSIONS)


#: Bytes of one record's digest in a fingerprint.
DIGEST_SIZE = 4


class _Opened:
    """A list read and checked: its records, where the data rows start, and how many."""

    def __init__(self, src: PathLike, header: bool, max_bytes: int) -> None:
        self.path = os.fspath(src)
        with open(self.path, "rb") as fh:
            data = read_limited(fh, max_bytes, self.path)
        self.sha256 = bytes_sha256(data)
        self.lst: CsvList = parse_list(self.path, data)
        self.header = header
        self.first = 1 if header else 0
        self.n = self.lst.records - self.first
        if self.lst.records == 0:
            raise ListError(f"{self.path}: the list is empty: it needs a header row and data rows")
        if self.n == 0:
            raise ListError(
                f"{self.path}: only a header row, no data rows to draw "
                "(use --no-header if that row is data)"
            )

    def start(self) -> list[bytes | bytearray]:
        """The byte order mark and the header, which stay first."""
        return [self.lst.head, *([self.lst.record(0)] if self.header else [])]

    def rows(self, order: Iterable[int]) -> Iterator[bytes | bytearray]:
        return (self.lst.record(self.first + i) for i in order)

    def digests(self, order: Iterable[int]) -> bytes:
        """The CRC-32s of data records ``order`` (indexes among the data records), 4
        bytes each, big-endian: a restore's check of an edited output."""
        lst, first = self.lst, self.first
        out = array("I", map(zlib.crc32, (lst.body(first + i)[0] for i in order)))
        if out.itemsize != DIGEST_SIZE:  # not on any platform CPython supports today
            return b"".join(x.to_bytes(DIGEST_SIZE, "big") for x in out)
        if sys.byteorder == "little":
            out.byteswap()
        return out.tobytes()

    def fingerprint(self) -> dict[str, Any]:
        """The record's ``fingerprint`` of the data records, in the input's order."""
        lst = self.lst
        last = lst.data[lst.bounds[-2] : lst.bounds[-1]] if lst.records else b""
        return {
            "digest": "crc32",
            "rows": base64.b64encode(self.digests(range(self.n))).decode("ascii"),
            # a last record without a line break gets one in the output: restore drops it
            "last_line_break": last.endswith(b"\n") or bool(lst.tail),
        }


def _too_many(op: _Opened, k: int, what: str) -> SizeError:
    return SizeError(too_many(op.path, k, op.n, what))


def _check_name(op: _Opened, target: str) -> None:
    """Refuse an output not named as a list of the input's kind (``out.xlsx``, ``out``)."""
    kinds = (".csv",) if op.path.lower().endswith(".csv") else (".tsv", ".tab")
    if target.lower().endswith(kinds) or is_stream(target):
        return
    stem, ext = os.path.splitext(target)
    what = f"a {ext} file" if ext else "a name without an extension"
    raise OptionError(
        f"-o {target}: the output is a {kinds[0][1:].upper()} list like {op.path}, not {what}: "
        f"name it {stem}{kinds[0]}"
    )


def _write(
    op: _Opened,
    dst: PathLike | None,
    chunks: Chunks,
    *,
    in_place: bool,
    backup: bool,
    dry_run: bool,
) -> tuple[str | None, str | None, str | None]:
    """Write ``chunks`` atomically; return (output, its SHA-256, the backup kept)."""
    target = output_of(
        op.path, None if dst is None else os.fspath(dst), in_place=in_place, dry_run=dry_run
    )
    if target is not None and not in_place:
        if not dry_run:  # a folder, or the input under another name, first
            check_output(target, op.path)
        _check_name(op, target)
    if dry_run or target is None:  # (None only in a dry run)
        return None, None, None
    # never overwrites: NAME.bak.csv, NAME.bak-2.csv...
    keep = bytes(op.lst.data) if in_place and backup else None
    return target, *write_output(target, op.path, chunks, keep=keep)


#: The record format (docs/record.schema.json), ``xlshuffle.common.record.RECORD_VERSION``
#: written out: this layer may not import the workbook layer (a test keeps them equal).
RECORD_VERSION = 2


def _record(
    command: str,
    op: _Opened,
    stream: DrawStream,
    perm: list[int],
    written: tuple[str | None, str | None, str | None],
    k: int | None = None,
    size: int | None = None,
) -> dict[str, Any]:
    output, output_sha256, kept = written
    lst = op.lst
    rows = op.n + op.first
    now = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
    return {
        "protocol": PROTOCOL,
        "tool": "xlshuffle",
        "record_version": RECORD_VERSION,
        "command": command,
        "seed": stream.seed_text,
        "input": op.path,
        "input_sha256": op.sha256,
        "sheet": "",
        "selection": f"rows 1-{rows}",
        "header": op.header,
        "mode": "rows",
        "rows": rows,
        "columns": lst.columns,
        "permutation": perm,
        "output": output,
        "output_sha256": output_sha256,
        "k": k,
        "size": size,
        "unit": "rows",
        "target": {
            "kind": "list",
            "ref": "",
            "columns": None,
            "table": None,
            "delimiter": lst.delimiter,
        },
        "parts": {},
        "backup": kept,
        "fingerprint": None,
        "tool_version": "",  # the command line fills it in (this layer cannot see it)
        "time_utc": now.isoformat().replace("+00:00", "Z"),
    }


def shuffle_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    seed: object = None,
    header: bool = True,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> dict[str, Any]:
    """Shuffle the data records of a CSV/TSV list, keeping every record's bytes.

    Parameters
    ----------
    src, dst : path
        The list to read, and where to write the shuffled one (atomically).
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol; the order is ``permutation(n, seed=seed)``, the one a
        sheet of the same rows gets.
    header : bool, optional
        The first record holds the labels and stays first (default True).
    in_place, backup, dry_run : bool, optional
        Replace ``src`` (keeping ``NAME.bak.csv`` unless ``backup=False``); or write
        nothing at all.
    max_bytes : int, optional
        Refuse a larger input (default 2048 MB).

    Returns
    -------
    dict
        The draw record, with the keys of ``xlshuffle.workbook.DrawRecord``.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> src, dst = os.path.join(folder, "in.csv"), os.path.join(folder, "out.csv")
    >>> with open(src, "wb") as fh:
    ...     _ = fh.write(b'name;note\\r\\nAnn;"a;b"\\r\\nBob;x\\r\\nCid;"2\\r\\nlines"\\r\\nDee;y')
    >>> shuffle_csv(src, dst, seed=42)["permutation"]
    [0, 3, 1, 2]
    >>> import pathlib
    >>> pathlib.Path(dst).read_bytes()
    b'name;note\\r\\nAnn;"a;b"\\r\\nDee;y\\r\\nBob;x\\r\\nCid;"2\\r\\nlines"\\r\\n'
    """
    stream = as_stream(seed)
    op = _Opened(src, header, max_bytes)
    perm = permutation(op.n, seed=stream)
    chunks = itertools.chain(op.start(), op.rows(perm), [op.lst.tail])  # one record at a time
    written = _write(op, dst, chunks, in_place=in_place, backup=backup, dry_run=dry_run)
    record = _record("shuffle", op, stream, perm, written)
    if not dry_run:  # what the data records were, so that restore can check an edited output
        record["fingerprint"] = op.fingerprint()
    return record


def sample_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int,
    seed: object = None,
    header: bool = True,
    dry_run: bool = False,
    out: BinaryIO | None = None,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> dict[str, Any]:
    """Draw ``k`` data records (raffle winners) and write them, in draw order, as a list.

    The winners are the first ``k`` records :func:`shuffle_csv` puts in order with the
    same seed, written after the header (and byte order mark) to ``dst``, or to ``out``
    (a binary file such as ``sys.stdout.buffer``) when ``dst`` is None. Each keeps its
    bytes; there is no rank column (the order is the rank).

    Returns
    -------
    dict
        The draw record; its ``permutation`` holds the ``k`` winners' 0-based indexes
        among the data records.
    """
    k = check_count("k", k)
    stream = as_stream(seed)
    op = _Opened(src, header, max_bytes)
    if k > op.n:
        raise _too_many(op, k, "draw from")
    order = deal(range(op.n), k, seed=stream)  # permutation(n)[:k], without the rest
    chunks = itertools.chain(op.start(), op.rows(order))
    if dst is None and out is not None and not dry_run:
        for chunk in chunks:
            out.write(chunk)
        out.flush()
        written: tuple[str | None, str | None, str | None] = (None, None, None)
    elif dst is None:
        written = (None, None, None)
    else:
        written = _write(op, dst, chunks, in_place=False, backup=False, dry_run=dry_run)
    return _record("sample", op, stream, order, written, k=k)


def _field(text: str, delimiter: str) -> bytes:
    """One CSV field, quoted only if it must be (as ``csv.QUOTE_MINIMAL`` does)."""
    if any(c in text for c in (delimiter, '"', "\r", "\n")):
        text = '"' + text.replace('"', '""') + '"'
    return text.encode("utf-8", "surrogateescape")


def groups_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int | None = None,
    size: int | None = None,
    seed: object = None,
    label: str = "Group",
    header: bool = True,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> dict[str, Any]:
    """Split the data records into ``k`` near-equal groups: a group-number field is added.

    Records do not move. Each gets one more field at its end, before its line break:
    ``label`` on the header (UTF-8, quoted only if needed), the group number (``1..k``,
    ``group_numbers(permutation(n, seed), k)``, as for a sheet) on each data record.
    Trailing blank lines are left as they were. A header that holds ``label`` already (a
    column of an earlier run) is refused. Give ``size`` instead of ``k`` for groups of at
    most ``size`` records: ``k = ceil(n / size)``, and the record keeps both.
    """
    group_count(k, size, 0)  # a bad k or size is refused before the file is read
    stream = as_stream(seed)
    op = _Opened(src, header, max_bytes)
    k = group_count(k, size, op.n)
    if header:
        _refuse_label(op, label)
    if k > op.n:
        raise _too_many(op, k, "split into groups")
    perm = permutation(op.n, seed=stream)
    numbers = group_numbers(perm, k)
    lst, sep = op.lst, op.lst.delimiter.encode("ascii")

    def chunks() -> Iterator[bytes | bytearray]:
        yield lst.head
        for r in range(lst.records):
            body, end = lst.body(r)
            i = r - op.first
            yield body + sep + (_field(label, lst.delimiter) if i < 0 else b"%d" % numbers[i])
            yield end
        yield lst.tail

    written = _write(op, dst, chunks(), in_place=in_place, backup=backup, dry_run=dry_run)
    return _record("groups", op, stream, perm, written, k=k, size=size)


def _refuse_label(op: _Opened, label: str) -> None:
    """Refuse a group field whose label a header field holds already."""
    body, _ = op.lst.body(0)
    text = bytes(body).decode("utf-8", "surrogateescape")
    fields = next(csv.reader(io.StringIO(text, newline=""), delimiter=op.lst.delimiter), [])
    refuse_taken_label(op.path, [(f"field {i}", f) for i, f in enumerate(fields, 1)], label)
