"""Small tables in and out of workbooks, for draws that make a new table (``orders``).

:func:`range_values` reads one column of values from a workbook (the items or the IDs of
``xlshuffle orders``), :func:`read_table` a table written by xlshuffle back (for
``verify``) and :func:`record_rows` the rows a draw read (for a commitment): all three
with the engine's own cell reader, so a cell reads the same text here as in every other
draw and in the browser verifier. :func:`table_xlsx` makes a new workbook of one sheet
through openpyxl, which is what it is good at.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence

from ..common.a1 import MAX_ROW
from ..common.celltext import text_of
from ..common.digest import file_sha256
from ..common.names import check_cell_text
from ..common.record import DrawRecord
from ..draw.errors import OptionError, WorkbookError
from .add.datarows import DataRows, recorded_free_rows
from .add.plain_sample import unsaved_cells
from .jobs import job_from_record
from .limits import LIMITS
from .package.readwrite import Input, read_input
from .scan.refs import cell_ref, col_letters, parse_area, split_sheet
from .scan.sheet import SheetXml, sheet_label
from .selection.select import choose_sheet
from .values.cells import unsaved_formula
from .values.reader import UNSAVED_FIX, CellReader

__all__ = ["headed_column", "range_values", "read_table", "record_rows", "table_xlsx"]

PathLike = str | os.PathLike[str]


class _Sheet:
    """One sheet of a workbook, read by the engine's own reader (the cell values every
    draw reads: shared strings, styles' dates, 1904 dates): ``name`` or the active one."""

    def __init__(self, path: str, name: str | None, inp: Input | None = None) -> None:
        inp = read_input(path) if inp is None else inp
        info, _ = choose_sheet(inp.book, name, None)
        self.name = info.name
        self.sx = SheetXml(
            inp.book.read(info.part, limit=LIMITS.max_sheet_bytes), sheet_label(inp.path, info.name)
        )
        self.reader = CellReader.of(inp.book)
        #: (row, column) of the cells read that are formulas without a saved value
        self.unsaved: set[tuple[int, int]] = set()

    def row(self, number: int) -> dict[int, str]:
        """Row ``number``'s stored cells as texts, by column (1-based)."""
        sx = self.sx
        i = sx.index_of(number)
        if i >= len(sx) or sx.numbers[i] != number:
            return {}
        row = sx.row(i)
        out = {}
        for c in sx.cells(i):
            value = self.reader.value(
                row, c, f"sheet {self.name!r}, cell {cell_ref(number, c.col)}"
            )
            if value is None and unsaved_formula(row[c.start : c.end]):
                self.unsaved.add((number, c.col))
            out[c.col] = text_of(value)
        return out

    def numbers(self) -> list[int]:
        """The numbers of the stored rows, in order."""
        return list(self.sx.numbers)


def range_values(
    path: PathLike,
    *,
    cells: str | None = None,
    column: str | None = None,
    option: str = "--column",
) -> tuple[list[str], str]:
    """The values of a workbook's column, as texts, and the file's SHA-256.

    With ``cells`` (``"A2:A41"``, ``"Items!B2:B41"``, or one row ``"B1:K1"``), exactly
    those cells, in order. Without, like a CSV list: the active sheet's row 1 is the
    header and the values are below it in the column ``column`` names (header text or
    the sheet's letter; the first column by default). Cells are read as every workbook
    draw reads them (the text ``sample`` writes). Blank cells at the end are left out; a
    blank cell before them is refused, naming it.

    Raises
    ------
    OptionError
        For a range that is not one row or one column, a sheet or column not there.
    WorkbookError
        For a file that is not a readable workbook, or a blank value.
    """
    name = os.fspath(path)
    sha = file_sha256(name)
    if cells is not None:
        sheet_name, ref = split_sheet(cells)
        area = parse_area(ref)
        if area is None or (area.top != area.bottom and area.left != area.right):
            raise OptionError(
                f"{name}: {option} {cells!r} is not one column or one row of cells: "
                "give a range such as A2:A41 or Items!B1:K1"
            )
        if (area.bottom - area.top + 1) * (area.right - area.left + 1) > MAX_ROW:
            raise OptionError(f"{name}: {option} {cells!r} is too large a range")
        sheet = _Sheet(name, sheet_name)
        places = [
            (r, c)
            for r in range(area.top, area.bottom + 1)
            for c in range(area.left, area.right + 1)
        ]
        rows = {r: sheet.row(r) for r in range(area.top, area.bottom + 1)}
        values = [rows[r].get(c, "").strip() for r, c in places]
    else:
        sheet = _Sheet(name, None)
        header_row = sheet.row(1)
        width = max(header_row, default=1)
        header = [header_row.get(c, "").strip() for c in range(1, width + 1)]
        j = 0 if column is None else _find(name, header, column, option)
        last = max((n for n in sheet.numbers() if n > 1), default=1)
        places = [(r, j + 1) for r in range(2, last + 1)]
        values = [sheet.row(r).get(j + 1, "").strip() for r, _ in places]
    where = sheet.name
    unsaved = [place for place in places if place in sheet.unsaved]
    if unsaved:  # read as blank, and a blank at the end would be left out
        r, c = unsaved[0]
        raise WorkbookError(f"{name}: sheet {where!r} cell {col_letters(c)}{r} {UNSAVED_FIX}")
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


def headed_column(path: PathLike, header: str, option: str) -> tuple[str, list[tuple[int, str]]]:
    """The sheet whose row 1 holds a cell reading ``header`` (spaces around ignored), and
    that column's texts below it, each with its row number (blank cells left out).

    Raises
    ------
    OptionError
        When no worksheet, or more than one, has the column: the file does not say which
        IDs it lists (a sample's output workbook keeps the whole list beside the winners).
    """
    name = os.fspath(path)
    inp = read_input(name)
    text = header.strip()
    found: list[tuple[_Sheet, int]] = []
    for info in inp.book.sheets:
        if info.kind != "worksheet":
            continue
        sheet = _Sheet(name, info.name, inp)
        cols = [c for c, value in sorted(sheet.row(1).items()) if value.strip() == text]
        if cols:
            found.append((sheet, cols[0]))
    if len(found) != 1:
        where = ", ".join(repr(s.name) for s, _ in found)
        raise OptionError(
            f"{option} {name}: no sheet has a column headed {text!r} in its row 1: head the "
            "column of IDs so, or save the IDs as a text file, one a line"
            if not found
            else f"{option} {name}: the sheets {where} {'both' if len(found) == 2 else 'all'} "
            f"have a column headed {text!r}: "
            "keep only the sheet of the IDs to leave out (or save it as CSV), or give the "
            "draw's record"
        )
    sheet, col = found[0]
    values = [(n, sheet.row(n).get(col, "")) for n in sheet.numbers() if 1 < n <= MAX_ROW]
    return sheet.name, [(n, v) for n, v in values if v.strip()]


def _find(path: str, header: list[str], given: str, option: str) -> int:
    from ..tabledraw.entrants import find_column

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
    """The active sheet's rows as texts (as every workbook draw reads cells), each with its
    row number, from column A to the last column used; blank rows at the end left out."""
    sheet = _Sheet(os.fspath(path), None)
    numbers = [n for n in sheet.numbers() if n <= MAX_ROW]
    rows = {n: sheet.row(n) for n in numbers}
    width = max((max(r, default=0) for r in rows.values()), default=0)
    out = [
        (n, [rows.get(n, {}).get(c, "") for c in range(1, width + 1)])
        for n in range(1, max(numbers, default=0) + 1)
    ]
    while out and not any(out[-1][1]):
        out.pop()
    return out


def record_rows(src: PathLike, record: DrawRecord) -> list[list[str]]:
    """The rows a draw ``record`` drew from, read again from ``src`` as texts: the header
    (when the selection has one), then each data row (blank rows kept in place left out),
    each cell as :func:`~xlshuffle.workbook.values.cells.text_of` gives it, empty cells at
    the end left out. What a commitment digests (protocol section 17): a formula without
    a saved value, which would digest as blank, is refused naming its cell."""
    job = job_from_record(src, record)
    sel = job.sel
    free = recorded_free_rows(job, record)
    rows = DataRows(job, free)
    numbers = ([sel.top] if sel.header else []) + [sel.body_top + d for d in free]
    count, first = unsaved_cells(job, numbers)
    if count:
        raise WorkbookError(f"{job.inp.path}: {first} {UNSAVED_FIX}")
    out = []
    for number in numbers:
        texts = [text_of(v) for v in rows.row(number)]
        while texts and not texts[-1]:
            texts.pop()
        out.append(texts)
    return out
