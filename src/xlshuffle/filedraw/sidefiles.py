"""The files beyond the list that a draw reads: ``--exclude`` (the IDs that cannot win)
and ``--strata-counts`` (each stratum's count). One reader each, for the draw, a committed
draw and ``verify`` alike.

A file given to ``--exclude`` is one of: an earlier draw's record (its winners, drawn
with ``--id``); a CSV/TSV list (``.csv``, ``.tsv``, ``.tab``) or an ``.xlsx``/``.xlsm``
workbook holding the ``--id`` column, found by its header text as ``--id`` finds it in
the input (so last month's ``sample -o winners.csv`` can be given as it is); or a text
file of IDs, one a line. A text file whose first line is a header row naming the
``--id`` column (alone, or among fields split by ``,``, ``;`` or a tab) is read by that
column; one whose lines are delimited rows without it is refused, and so is anything
binary: read one ID a line, a table or a zip would exclude nobody, silently.
"""

from __future__ import annotations

import csv
import io
import json
import os
import zipfile
from collections.abc import Iterator
from typing import Any

from ..common.a1 import col_letters
from ..draw.errors import OptionError
from ..tabledraw.entrants import find_column
from ..tabledraw.raffle_options import Prize

__all__ = ["read_counts", "read_excluded", "read_prizes"]

_MAX_EXCLUDE_BYTES = 256 * 1024**2
_MAX_COUNTS_BYTES = 16 * 1024**2


def _table_lines(path: str, option: str, what: str) -> Iterator[tuple[int, list[str]]]:
    """The non-blank lines of a small side table (``--strata-counts``, ``--prizes``) as
    ``(line number, fields)``: at most 16 MB, UTF-8 (a BOM allowed), split by the comma,
    semicolon or tab its first line uses most."""
    with open(path, "rb") as fh:
        data = fh.read(_MAX_COUNTS_BYTES + 1)
    if len(data) > _MAX_COUNTS_BYTES:
        raise OptionError(f"{option} {path}: more than 16 MB: not {what}")
    lines = data.decode("utf-8-sig", "replace").splitlines()
    sample = next((line for line in lines if line.strip()), "")
    delimiter = max("\t;,", key=sample.count)
    for number, fields in enumerate(csv.reader(lines, delimiter=delimiter), 1):
        if any(f.strip() for f in fields):
            yield number, fields


def read_counts(path: str) -> tuple[tuple[str, int], ...]:
    """A ``--strata-counts`` file: ``stratum,count`` a line (comma, semicolon or tab), a
    header line allowed first, blank lines skipped."""
    out: list[tuple[str, int]] = []
    for number, fields in _table_lines(path, "--strata-counts", "a table of counts"):
        count = fields[1].strip().replace("_", "") if len(fields) == 2 else ""
        if len(fields) == 2 and count.isdigit():
            out.append((fields[0].strip(), int(count)))
        elif out or number > 1 or len(fields) != 2 or _numberish(count):
            # only the first line may be a header, and a header's count is not a number
            raise OptionError(
                f"--strata-counts {path}: line {number} is not 'stratum,count' (a whole "
                "number 0 or more): write one stratum and its count a line"
            )
    if not out:
        raise OptionError(f"--strata-counts {path}: no 'stratum,count' lines")
    return tuple(out)


def read_prizes(path: str) -> tuple[Prize, ...]:
    """A ``--prizes`` table: ``prize,count[,reserves]`` a line (comma, semicolon or tab), in
    the order the prizes are drawn; a header line allowed first, blank lines skipped.

    OptionError naming the file and the line for anything else (a count that is not a
    whole number 1 or more, reserves that are not 0 or more, no prize at all).
    """
    out: list[Prize] = []
    for number, fields in _table_lines(path, "--prizes", "a prize table"):
        cells = [f.strip().replace("_", "") for f in fields]
        whole = len(cells) in (2, 3) and all(c.isdigit() for c in cells[1:])
        if whole and cells[0] and int(cells[1]) >= 1:
            reserves = int(cells[2]) if len(cells) == 3 else 0
            out.append(Prize(fields[0].strip(), int(cells[1]), reserves))
        elif out or number > 1 or len(cells) not in (2, 3) or _numberish(cells[1]):
            raise OptionError(
                f"--prizes {path}: line {number} is not 'prize,count' or "
                "'prize,count,reserves' (a count 1 or more, reserves 0 or more): write one "
                "prize a line, in the order they are drawn"
            )
    if not out:
        raise OptionError(f"--prizes {path}: no 'prize,count' lines")
    return tuple(out)


def _numberish(text: str) -> bool:
    return bool(text) and text.lstrip("+-").replace(".", "").replace(",", "").isdigit()


_TABLES = {".csv": None, ".tsv": "\t", ".tab": "\t"}
_WORKBOOKS = (".xlsx", ".xlsm")
_DELIMITERS = ",;\t"


def read_excluded(path: str, id_column: str | None) -> tuple[str, ...]:
    """The IDs the ``--exclude`` file ``path`` lists, as written (blank ones left out).

    ``id_column`` is the ``--id`` column (a header text or letters), by which a table is
    read; None when the draw names none (only a record or a plain list can be read then).
    OptionError for a file that lists no IDs this way, naming the file.
    """
    with open(path, "rb") as fh:
        data = fh.read(_MAX_EXCLUDE_BYTES + 1)
    if len(data) > _MAX_EXCLUDE_BYTES:
        raise OptionError(f"--exclude {path}: more than 256 MB: not a list of IDs")
    ext = os.path.splitext(path)[1].lower()
    if data.startswith(b"PK\x03\x04"):
        if ext in _WORKBOOKS or _is_workbook(data):
            return _workbook_ids(path, id_column)
        raise OptionError(
            f"--exclude {path}: a zip file that is not a workbook, not a list of IDs: give "
            "an earlier record, a text, CSV/TSV or .xlsx list of IDs"
        )
    text = _text(path, data)
    if text.lstrip()[:1] in ("{", "["):
        return _record_winners(path, text)
    return _text_ids(path, text.splitlines(), ext, id_column)


def _text(path: str, data: bytes) -> str:
    if b"\x00" in data:
        raise OptionError(
            f"--exclude {path}: a binary file (it holds NUL bytes), not a list of IDs: save "
            "the IDs as UTF-8 text, CSV or .xlsx"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OptionError(
            f"--exclude {path}: not UTF-8 text (byte {exc.start + 1} cannot be read): save "
            "the IDs as UTF-8 text, CSV or .xlsx"
        ) from None


def _text_ids(path: str, lines: list[str], ext: str, id_column: str | None) -> tuple[str, ...]:
    """A CSV/TSV list by its --id column; a text file by the column its header line
    names (the line may name it alone), else one ID a line (delimited rows without the
    column refused)."""
    if ext in _TABLES:
        return _table_ids(path, lines, _TABLES[ext] or _delimiter(lines), id_column)
    first = next((line for line in lines if line.strip()), "")
    delimiter = _delimiter(lines)
    if id_column is not None and first.strip() == id_column.strip():
        return _table_ids(path, lines, delimiter, id_column)  # a header line, one column
    if delimiter in first:
        fields = [f.strip() for f in next(csv.reader([first], delimiter=delimiter))]
        if id_column is not None and id_column.strip() in fields:
            return _table_ids(path, lines, delimiter, id_column)
        if _rows_alike(lines, delimiter):
            named = "an ID column" if id_column is None else f"the --id column {id_column!r}"
            raise OptionError(
                f"--exclude {path}: its lines are rows of a table ({delimiter!r} between "
                f"fields), but its first line does not name {named}: give it a header line "
                f"naming {named}, or list one ID a line"
            )
    return tuple(line for line in lines if line.strip())


def _delimiter(lines: list[str]) -> str:
    sample = next((line for line in lines if line.strip()), "")
    return max(_DELIMITERS, key=sample.count)


def _rows_alike(lines: list[str], delimiter: str) -> bool:
    """Every non-blank line splits into the same number (2 or more) of fields."""
    widths = {len(row) for row in csv.reader(lines, delimiter=delimiter) if any(row)}
    return len(widths) == 1 and widths.pop() > 1


def _table_ids(
    path: str, lines: list[str], delimiter: str, id_column: str | None
) -> tuple[str, ...]:
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter, strict=False))
    rows = [row for row in rows if any(f.strip() for f in row)]
    if id_column is None:
        raise OptionError(f"--exclude {path}: a table of IDs is read by the --id column")
    if not rows:
        raise OptionError(f"--exclude {path}: the table is empty: it lists no IDs")
    width = max(len(row) for row in rows)
    letters = [col_letters(j + 1) for j in range(width)]
    j = find_column(f"--exclude {path}", rows[0], letters, id_column, "--id")
    return tuple(row[j] for row in rows[1:] if j < len(row) and row[j].strip())


def _is_workbook(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return "xl/workbook.xml" in zf.namelist()
    except zipfile.BadZipFile:
        return False


def _workbook_ids(path: str, id_column: str | None) -> tuple[str, ...]:
    if id_column is None:
        raise OptionError(f"--exclude {path}: a workbook of IDs is read by its --id column")
    from ..workbook.plaintables import headed_column  # the xlsx extra, only when it is needed

    _, values = headed_column(path, id_column, "--exclude")
    return tuple(value for _, value in values)


def _record_winners(path: str, text: str) -> tuple[str, ...]:
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OptionError(
            f"--exclude {path}: not a readable record (JSON error at line {exc.lineno})"
        ) from None
    out: list[str] = []
    for rec in data if isinstance(data, list) else [data]:
        spec = (rec.get("target") or {}).get("draw") if isinstance(rec, dict) else None
        winners = spec.get("winners") if isinstance(spec, dict) else None
        if not isinstance(winners, list):
            raise OptionError(
                f"--exclude {path}: the record names no winners by ID: draw with --id COL "
                "to record them, or give a text file of IDs, one per line"
            )
        out += [str(w) for w in winners]
    return tuple(out)
