"""A CSV/TSV list opened for a draw, and what every draw on one shares: the records and
the header (:class:`Opened`), the output written byte for byte (:func:`write_list`), the
draw record (:func:`list_record`) and the request the public keyword functions stand for
(:func:`list_request`)."""

from __future__ import annotations

import base64
import csv
import datetime as _dt
import io
import os
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from ..common.digest import bytes_sha256
from ..common.files import write_output
from ..common.record import RECORD_VERSION
from ..common.request import DrawKind, DrawRequest, Options, Region
from ..common.targets import check_output, is_stream, output_of
from ..draw.errors import ListError, OptionError, SizeError
from ..draw.protocol import PROTOCOL, DrawStream
from ..tabledraw.counts import refuse_taken_label, too_many
from .lines import DEFAULT_MAX_MB, read_limited
from .table import CsvList, parse_list

__all__ = [
    "DIGEST_SIZE",
    "RECORD_VERSION",
    "Opened",
    "check_name",
    "csv_field",
    "list_record",
    "list_request",
    "opened",
    "refuse_label",
    "too_many_records",
    "write_list",
]

PathLike = str | os.PathLike[str]
Chunks = Iterable[bytes | bytearray]


DIGEST_SIZE = 4


class Opened:
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


def too_many_records(op: Opened, k: int, what: str) -> SizeError:
    return SizeError(too_many(op.path, k, op.n, what))


def check_name(op: Opened, target: str, option: str = "-o") -> None:
    """Refuse an output not named as a list of the input's kind (``out.xlsx``, ``out``);
    ``option`` is the option that named it."""
    kinds = (".csv",) if op.path.lower().endswith(".csv") else (".tsv", ".tab")
    if target.lower().endswith(kinds) or is_stream(target):
        return
    stem, ext = os.path.splitext(target)
    what = f"a {ext} file" if ext else "a name without an extension"
    raise OptionError(
        f"{option} {target}: the output is a {kinds[0][1:].upper()} list like {op.path}, not "
        f"{what}: name it {stem}{kinds[0]}"
    )


def write_list(
    op: Opened,
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
        check_name(op, target)
    if dry_run or target is None:  # (None only in a dry run)
        return None, None, None
    # never overwrites: NAME.bak.csv, NAME.bak-2.csv...
    keep = bytes(op.lst.data) if in_place and backup else None
    return target, *write_output(target, op.path, chunks, keep=keep)


def list_record(
    command: str,
    op: Opened,
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


def list_request(
    kind: DrawKind,
    src: PathLike,
    dst: PathLike | None,
    options: Options,
    *,
    seed: object,
    header: bool,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> DrawRequest:
    """The request the public keyword functions of this package stand for."""
    return DrawRequest.from_keywords(
        kind,
        src,
        dst,
        options,
        seed=seed,
        region=Region(header=header),
        in_place=in_place,
        backup=backup,
        dry_run=dry_run,
        limits=(("max_file_bytes", max_bytes),),
    )


def opened(request: DrawRequest) -> Opened:
    """The request's list, read (a header unless the region says there is none)."""
    limit = dict(request.limits).get("max_file_bytes", DEFAULT_MAX_MB * 1024**2)
    return Opened(request.src, request.region.header is not False, limit)


def csv_field(text: str, delimiter: str) -> bytes:
    """One CSV field, quoted only if it must be (as ``csv.QUOTE_MINIMAL`` does)."""
    if any(c in text for c in (delimiter, '"', "\r", "\n")):
        text = '"' + text.replace('"', '""') + '"'
    return text.encode("utf-8", "surrogateescape")


def refuse_label(op: Opened, label: str) -> None:
    """Refuse a group field whose label a header field holds already."""
    body, _ = op.lst.body(0)
    text = bytes(body).decode("utf-8", "surrogateescape")
    fields = next(csv.reader(io.StringIO(text, newline=""), delimiter=op.lst.delimiter), [])
    refuse_taken_label(op.path, [(f"field {i}", f) for i, f in enumerate(fields, 1)], label)
