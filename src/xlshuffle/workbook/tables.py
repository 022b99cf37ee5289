"""Small tables in and out of workbooks, for draws that make a new table (``orders``).

:func:`range_values` reads one column of values from a workbook (the items or the IDs of
``xlshuffle orders``); :func:`table_xlsx` makes a new workbook of one sheet from a table
of texts, and :func:`read_table` reads such a sheet back (for ``verify``). These go
through openpyxl, which is what it is good at: cell coordinates and a fresh workbook.
Input files are read in read-only mode, so memory follows the cells asked for.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any

from ..common.a1 import MAX_ROW
from ..common.digest import file_sha256
from ..common.names import check_cell_text
from ..draw.errors import OptionError, WorkbookError
from .limits import LIMITS
from .records.record import DrawRecord
from .scan.refs import col_letters, parse_area, split_sheet
from .values.cells import text_of

__all__ = ["range_values", "read_table", "record_rows", "table_xlsx"]

PathLike = str | os.PathLike[str]


def _open(path: str) -> Any:
    import openpyxl

    if os.path.getsize(path) > LIMITS.max_file_bytes:
        raise WorkbookError(f"{path}: larger than {LIMITS.max_file_bytes:,} bytes: too large")
    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=True)
    except OSError:
        raise
    except Exception as exc:  # a zip that is not a workbook, an encrypted or legacy file
        raise WorkbookError(
            f"{path}: cannot be read as a workbook ({type(exc).__name__}): save it from "
            "Excel as .xlsx, or give a CSV/TSV list"
        ) from None


def _sheet(book: Any, path: str, name: str | None) -> Any:
    if name is None:
        return book.worksheets[0]
    if name not in book.sheetnames:
        have = ", ".join(repr(s) for s in book.sheetnames)
        raise OptionError(f"{path}: no sheet {name!r} (it has {have}): name one of them")
    return book[name]


def range_values(
    path: PathLike,
    *,
    cells: str | None = None,
    column: str | None = None,
    option: str = "--column",
) -> tuple[list[str], str]:
    """The values of a workbook's column, as texts, and the file's SHA-256.

    With ``cells`` (``"A2:A41"``, ``"Items!B2:B41"``, or one row ``"B1:K1"``), exactly
    those cells, in order. Without, like a CSV list: the first sheet's row 1 is the
    header and the values are below it in the column ``column`` names (header text or
    the sheet's letter; the first column by default). Blank cells at the end are left
    out; a blank cell before them is refused, naming it.

    Raises
    ------
    OptionError
        For a range that is not one row or one column, a sheet or column not there.
    WorkbookError
        For a file that is not a readable workbook, or a blank value.
    """
    name = os.fspath(path)
    sha = file_sha256(name)
    book = _open(name)
    try:
        if cells is not None:
            sheet_name, ref = split_sheet(cells)
            area = parse_area(ref)
            if area is None or (area.top != area.bottom and area.left != area.right):
                raise OptionError(
                    f"{name}: {option} {cells!r} is not one column or one row of cells: "
                    "give a range such as A2:A41 or Items!B1:K1"
                )
            ws = _sheet(book, name, sheet_name)
            if (area.bottom - area.top + 1) * (area.right - area.left + 1) > MAX_ROW:
                raise OptionError(f"{name}: {option} {cells!r} is too large a range")
            places = [
                (r, c)
                for r in range(area.top, area.bottom + 1)
                for c in range(area.left, area.right + 1)
            ]
            grid = ws.iter_rows(
                min_row=area.top,
                max_row=area.bottom,
                min_col=area.left,
                max_col=area.right,
                values_only=True,
            )
            values = [text_of(v).strip() for row in grid for v in row]
            values += [""] * (len(places) - len(values))
            where = sheet_name or ws.title
        else:
            ws = book.worksheets[0]
            rows = ws.iter_rows(values_only=True, max_row=MAX_ROW)
            header = [text_of(v).strip() for v in next(rows, ())]
            j = 0
            if column is not None:
                j = _find(name, header, column, option)
            values = [text_of(row[j] if j < len(row) else None).strip() for row in rows]
            places = [(r + 2, j + 1) for r in range(len(values))]
            where = ws.title
    finally:
        book.close()
    while values and not values[-1]:
        values.pop()
    if not values:
        raise WorkbookError(f"{name}: no values in sheet {where!r}: give one a cell")
    if "" in values:
        r, c = places[values.index("")]
        raise WorkbookError(
            f"{name}: sheet {where!r} cell {col_letters(c)}{r} is blank: fill it in or "
            "leave it out of the range"
        )
    return values, sha


def _find(path: str, header: list[str], given: str, option: str) -> int:
    from ..common.entrants import find_column

    letters = [col_letters(j + 1) for j in range(max(len(header), 1))]
    return find_column(path, header, letters, given, option)


def table_xlsx(table: Sequence[Sequence[object]], *, sheet: str = "Orders") -> bytes:
    """A new workbook of one sheet named ``sheet`` holding ``table`` (texts and numbers).

    Examples
    --------
    >>> import io, openpyxl
    >>> data = table_xlsx([["ID", "1"], ["Ann", "B"]])
    >>> list(openpyxl.load_workbook(io.BytesIO(data)).active.values)
    [('ID', '1'), ('Ann', 'B')]
    """
    import openpyxl

    check_cell_text(sheet, option="sheet")
    book = openpyxl.Workbook(write_only=True)
    ws = book.create_sheet(sheet)
    for row in table:
        ws.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def read_table(path: PathLike) -> list[tuple[int, list[str]]]:
    """The first sheet's rows as texts, each with its row number; blank rows at the end
    are left out."""
    name = os.fspath(path)
    book = _open(name)
    try:
        rows = [
            (i, [text_of(v) for v in row])
            for i, row in enumerate(
                book.worksheets[0].iter_rows(values_only=True, max_row=MAX_ROW), 1
            )
        ]
    finally:
        book.close()
    while rows and not any(rows[-1][1]):
        rows.pop()
    return rows


def record_rows(src: PathLike, record: DrawRecord) -> list[list[str]]:
    """The rows a draw ``record`` drew from, read again from ``src`` as texts: the header
    (when the selection has one), then each data row (blank rows kept in place left out),
    each cell as :func:`~xlshuffle.workbook.values.cells.text_of` gives it, empty cells at
    the end left out. What a commitment digests (protocol section 17)."""
    from .jobs import job_from_record
    from .raffle import DataRows, free_rows
    from .selection.keep import parse_kept

    job = job_from_record(src, record)
    sel = job.sel
    try:
        free = free_rows(job, parse_kept(record.target, sel.body_top, sel.n_body))
    except ValueError as exc:
        raise WorkbookError(f"record: target.kept: {exc}: the record was edited") from None
    rows = DataRows(job, free)
    numbers = ([sel.top] if sel.header else []) + [sel.body_top + d for d in free]
    out = []
    for number in numbers:
        texts = [text_of(v) for v in rows.row(number)]
        while texts and not texts[-1]:
            texts.pop()
        out.append(texts)
    return out
