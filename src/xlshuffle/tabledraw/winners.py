"""Winners saved from stdout: read a CSV the user saved and compare it with the draw's.

``xlshuffle sample IN -k 3 --record r.json > winners.csv`` leaves a record without an
output file (the winners went to stdout). ``verify r.json --input IN --output winners.csv``
recomputes the winners from the input and compares them, row by row and field by field,
with the saved file: what a shell may do to the bytes on the way (a byte order mark,
``\\r\\n`` line ends, UTF-16 from Windows PowerShell 5) does not count, a changed value
does, and the message names the line.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence

__all__ = ["csv_text", "delimiter_for", "first_difference", "read_saved_table"]

Table = list[tuple[int, list[str]]]


def delimiter_for(path: str | os.PathLike[str]) -> str:
    """The field delimiter an output's name asks for: a tab for ``.tsv`` and ``.tab``,
    else a comma (an output is what its name says).

    Examples
    --------
    >>> delimiter_for("orders.TSV"), delimiter_for("list.tab"), delimiter_for("w.csv")
    ('\\t', '\\t', ',')
    """
    return "\t" if os.path.splitext(os.fspath(path))[1].lower() in (".tsv", ".tab") else ","


def csv_text(rows: Sequence[Sequence[object]], delimiter: str = ",") -> str:
    """Rows as the CSV xlshuffle writes (``,``, ``\\n`` line ends, minimal quoting), with a
    field holding a lone carriage return quoted too: the :mod:`csv` module quotes only the
    characters of its line terminator, and a reader splits a record at a bare ``\\r``.
    ``delimiter="\\t"`` writes TSV the same way.

    Examples
    --------
    >>> csv_text([["a\\rb", 1], ["x", "y,z"]])
    '"a\\rb",1\\nx,"y,z"\\n'
    >>> csv_text([["x", "y,z"]], delimiter="\\t")
    'x\\ty,z\\n'
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", delimiter=delimiter)
    for row in rows:
        fields = ["" if f is None else str(f) for f in row]
        if any("\r" in f for f in fields):
            out.write(delimiter.join(_quoted(f, delimiter) for f in fields) + "\n")
        else:
            writer.writerow(row)
    return out.getvalue()


def _quoted(field: str, delimiter: str) -> str:
    if any(c in field for c in (delimiter, '"', "\r", "\n")):
        return '"' + field.replace('"', '""') + '"'
    return field


def read_saved_table(path: str | os.PathLike[str], delimiter: str = ",") -> Table:
    """The rows of a saved CSV/TSV, each with the line it starts on; blank lines at the
    end are left out."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", "surrogateescape")
    else:
        text = data.decode("utf-8-sig", "surrogateescape")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    rows: Table = []
    line = 1
    for row in reader:
        rows.append((line, row))
        line = reader.line_num + 1
    while rows and not any(rows[-1][1]):
        rows.pop()
    return rows


def first_difference(
    got: Table, want: Sequence[tuple[str, list[str]]], delimiter: str = ","
) -> str | None:
    """How the saved rows ``got`` first differ from ``want`` (what each row is, and its
    fields), or None when they are the same. A line break inside a field counts the
    same as ``\n`` or ``\r\n`` (a shell may convert them on the way)."""

    def show(fields: list[str]) -> str:
        text = delimiter.join(fields)
        return repr(text if len(text) <= 80 else text[:77] + "...")

    for i, (what, fields) in enumerate(want):
        if i >= len(got):
            return f"it ends after {len(got)} rows, without {what} ({show(fields)})"
        line, row = got[i]
        if _plain(row) != _plain(fields):
            return f"line {line} is {show(row)}, but {what} is {show(fields)}"
    if len(got) > len(want):
        line, row = got[len(want)]
        return f"line {line} ({show(row)}) is more than the draw printed ({len(want)} rows)"
    return None


def _plain(fields: list[str]) -> list[str]:
    return [f.replace("\r\n", "\n") for f in fields]
