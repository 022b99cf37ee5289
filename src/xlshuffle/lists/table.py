"""CSV and TSV records as byte ranges: found by the :mod:`csv` module's rules, never rewritten.

A record is one or more physical lines (a quoted field may hold line breaks). The file is
split into physical lines at ``\\n`` (each keeps its ``\\n`` or ``\\r\\n``), each line is
decoded for parsing only (UTF-8 with ``surrogateescape``, so any byte survives, and any
encoding whose ``,`` ``;`` ``"`` and line breaks are ASCII parses the same way), and
:func:`csv.reader` pulls the lines it needs for each record. The offset reached when it
returns a record is where the record ends, so every record is a range of the original
bytes and is written back exactly as it was read.

Rejected: re-writing records with :func:`csv.writer`, which would change quoting, line
endings and encoding; a hand-written quote scanner, which would be a second, subtly
different CSV grammar.
"""

from __future__ import annotations

import codecs
import csv
import os
from array import array
from collections.abc import Iterator
from dataclasses import dataclass

from ..draw.errors import ListError

__all__ = ["CsvList", "parse_list", "sniff_delimiter", "stream_records"]

_TABS = (".tsv", ".tab")


def sniff_delimiter(path: str, first_line: bytes) -> str:
    """The delimiter of a list, from its extension (and, for .csv, its header line).

    ``.tsv`` and ``.tab``: a tab. ``.csv``: a comma, unless the header line holds more
    ``;`` than ``,`` (Excel writes ``;`` where the decimal separator is a comma).

    Examples
    --------
    >>> sniff_delimiter("a.csv", b"name;score,max;team"), sniff_delimiter("a.CSV", b"x,y")
    (';', ',')
    >>> sniff_delimiter("a.tsv", b"x,y")
    '\\t'
    """
    if os.path.splitext(path)[1].lower() in _TABS:
        return "\t"
    return ";" if first_line.count(b";") > first_line.count(b",") else ","


@dataclass
class CsvList:
    """A parsed list: record ``r`` is ``data[bounds[r]:bounds[r + 1]]``.

    ``data[:bom]`` is a UTF-8 byte order mark (kept first whatever moves); blank lines
    after the last record with fields are ``data[bounds[-1]:]``, the ``tail``, never drawn.
    """

    path: str
    data: bytes | bytearray
    bom: int
    delimiter: str
    bounds: array[int]
    columns: int
    ending: bytes

    @property
    def records(self) -> int:
        return len(self.bounds) - 1

    def record(self, r: int) -> bytes | bytearray:
        """Record ``r``'s bytes, ending in a line break (the file's own, if it had none)."""
        raw = self.data[self.bounds[r] : self.bounds[r + 1]]
        return raw if raw.endswith(b"\n") else raw + self.ending

    def body(self, r: int) -> tuple[bytes | bytearray, bytes | bytearray]:
        """Record ``r`` split into its fields' bytes and its line ending (maybe empty)."""
        raw = self.data[self.bounds[r] : self.bounds[r + 1]]
        cut = 2 if raw.endswith(b"\r\n") else 1 if raw.endswith(b"\n") else 0
        return raw[: len(raw) - cut], raw[len(raw) - cut :]

    @property
    def head(self) -> bytes | bytearray:
        return self.data[: self.bom]

    @property
    def tail(self) -> bytes | bytearray:
        return self.data[self.bounds[-1] :]


def parse_list(path: str, data: bytes | bytearray) -> CsvList:
    """Find the records of a CSV/TSV file's bytes.

    Raises
    ------
    ListError
        A UTF-16/UTF-32 file, a bare ``\\r`` line break, a quoted field left open at the
        end of the file, or another CSV error (with its line number).
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ListError(
            f"{path}: a UTF-16 text file: save it as 'CSV UTF-8' (or UTF-8 text) and try again"
        )
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    newline = data.find(b"\n", bom)
    first = data[bom : newline if newline >= 0 else len(data)]
    delimiter = sniff_delimiter(path, bytes(first))
    ending = b"\r\n" if first.endswith(b"\r") else b"\n"
    reached = [bom, 0]  # offset after the lines handed to csv, and how many

    def lines() -> Iterator[str]:
        pos, size = bom, len(data)
        while pos < size:
            end = data.find(b"\n", pos) + 1 or size
            text = data[pos:end].decode("utf-8", "surrogateescape")
            reached[0], reached[1], pos = end, reached[1] + 1, end
            yield text

    bounds = array("q", [bom])
    kept, columns = 1, 0
    reader = csv.reader(lines(), delimiter=delimiter, quotechar='"', doublequote=True)
    try:
        for fields in reader:
            bounds.append(reached[0])
            if fields:  # a blank line parses as []: only blank lines after the last row
                kept = len(bounds)  # are left out of the list (the tail)
                columns = columns or len(fields)
    except csv.Error as exc:
        raise ListError(f"{path}: line {reached[1]}: {_csv_message(exc)}") from None
    del bounds[kept:]
    if len(bounds) > 1:
        _check_closed(path, data, bounds, delimiter, reached[1])
    return CsvList(path, data, bom, delimiter, bounds, columns, ending)


def _csv_message(exc: csv.Error) -> str:
    text = str(exc)
    if "new-line character" in text:
        return (
            "a bare carriage return (\\r) ends a line outside quotes: lines must end in "
            "\\n or \\r\\n (convert the file's line endings)"
        )
    return f"not a readable CSV record ({text})"


def _check_closed(
    path: str, data: bytes | bytearray, bounds: array[int], delimiter: str, lines: int
) -> None:
    """Refuse a last record whose quoted field is never closed (csv reads it to the end)."""
    last = data[bounds[-2] : bounds[-1]].decode("utf-8", "surrogateescape")
    parts = last.split("\n")
    physical = [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    try:
        list(csv.reader(physical, delimiter=delimiter, strict=True))
    except csv.Error as exc:
        if "unexpected end of data" not in str(exc):
            return  # strict mode's other complaints are tolerated, as the reader did
        raise ListError(
            f"{path}: line {lines - len(physical) + 1}: a quoted field is never closed "
            '(a " is missing), so the rest of the file would be one record'
        ) from None


def stream_records(path: str, *, chunk: int = 1 << 20) -> Iterator[list[str]]:
    """The fields of each record of the CSV/TSV file at ``path``, read as
    :func:`parse_list` reads them (the same delimiter, decoding and csv rules, blank lines
    after the last record left out, the same refusals) but streamed: memory holds one
    record and a few pending blank lines, whatever the file's size.
    """
    with open(path, "rb", buffering=chunk) as fh:
        first = fh.readline()
        if first.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise ListError(
                f"{path}: a UTF-16 text file: save it as 'CSV UTF-8' (or UTF-8 text) and try again"
            )
        bom = len(codecs.BOM_UTF8) if first.startswith(codecs.BOM_UTF8) else 0
        delimiter = sniff_delimiter(path, first[bom:].rstrip(b"\n"))
        count = [0]
        last: list[str] = []  # the physical lines of the record being read

        def lines() -> Iterator[str]:
            line = first[bom:]
            while line:
                count[0] += 1
                text = line.decode("utf-8", "surrogateescape")
                last.append(text)
                yield text
                line = fh.readline()

        blank = 0
        reader = csv.reader(lines(), delimiter=delimiter, quotechar='"', doublequote=True)
        ended = ""
        try:
            for fields in reader:
                if not fields:  # a blank line: a record only if one with fields follows
                    blank += 1
                else:
                    yield from ([] for _ in range(blank))
                    blank = 0
                    yield fields
                    ended = "".join(last)
                last.clear()
        except csv.Error as exc:
            raise ListError(f"{path}: line {count[0]}: {_csv_message(exc)}") from None
        if ended:
            _check_last(path, ended, delimiter, count[0] - blank)


def _check_last(path: str, last: str, delimiter: str, lines: int) -> None:
    """:func:`_check_closed` of the last record with fields, given as its text."""
    data = last.encode("utf-8", "surrogateescape")
    _check_closed(path, data, array("q", [0, len(data)]), delimiter, lines)
