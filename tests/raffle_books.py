"""The raffle list of the workbook draw tests, as a workbook and as the same table saved as
CSV, and readers of the outputs that are not xlshuffle's (openpyxl, the csv module)."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main

HEAD = ["ID", "Name", "Tickets", "Region", "Amount"]
ROWS: list[list[object]] = [
    ["T1", "Ann", 3, "North", 120.5],
    ["T2", "Bo", 1, "South", 15],
    ["T3", "Cy", 5, "North", 900],
    ["T4", "Di", 2, "South", 33.1],
    ["T5", "Ed", 0, "North", 0],
    ["T6", "Fay", 4, "East", 410],
    ["T7", "Gus", 2.5, "East", 1250],
    ["T8", "Hal", 1, "North", 75.25],
    ["T9", "Ivy", 6, "South", 2000.75],
    ["T10", "Jo", 2, "East", 12.4],
]

# The list as a CSV file typed by a person holds it: texts as typed (two decimals, a thousands
# separator), eight rows; the command line's draws on lists start from it.
CSV_ROWS: list[list[str]] = [
    ["T1", "Ann", "3", "North", "120.50"],
    ["T2", "Bo", "1", "South", "15.00"],
    ["T3", "Cy", "5", "North", "900.00"],
    ["T4", "Di", "2", "South", "33.10"],
    ["T5", "Ed", "0", "North", "0"],
    ["T6", "Fay", "4", "East", "410.00"],
    ["T7", "Gus", "2.5", "East", "1,250.00"],
    ["T8", "Hal", "1", "North", "75.25"],
]


def text(value: object) -> str:
    """A value as the CSV of the same table holds it (independent of xlshuffle's text_of)."""
    if value is None:
        return ""
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


def save_book(
    path: Path,
    rows: list[list[object]] = ROWS,
    *,
    head: list[object] = HEAD,
    title: str = "Tickets",
    left: int = 1,
) -> Path:
    """The table on sheet ``title`` from column ``left`` (1 = A), header in row 1."""
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = title
    for r, row in enumerate([head, *rows], 1):
        for j, value in enumerate(row):
            if value is not None:
                ws.cell(row=r, column=left + j, value=value)
    book.save(path)
    return path


def save_csv(path: Path, rows: list[list[object]] = ROWS, *, head: list[object] = HEAD) -> Path:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows([[text(v) for v in r] for r in [head, *rows]])
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return path


def with_formula_tickets(path: Path, col: str = "C") -> Path:
    """Every number in column ``col`` made a formula ``=N*1`` with its cached value N, in
    place (the zip rewritten member by member, the sheet XML edited as text)."""
    with zipfile.ZipFile(path) as zf:
        members = [(info, zf.read(info)) for info in zf.infolist()]
    pattern = rb'<c r="(' + col.encode() + rb'\d+)" t="n"><v>([^<]*)</v></c>'
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in members:
            if info.filename == "xl/worksheets/sheet1.xml":
                data, count = re.subn(pattern, rb'<c r="\1"><f>\2*1</f><v>\2</v></c>', data)
                assert count > 0
            zf.writestr(info, data)
    return path


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def sheet_rows(path: Path, name: str = "Sample") -> list[list[str]]:
    """A sheet's values read by openpyxl, as texts, trailing empty cells left out."""
    book = openpyxl.load_workbook(path, data_only=True)
    out = []
    for row in book[name].iter_rows(values_only=True):
        texts = [text(v) for v in row]
        while texts and texts[-1] == "":
            texts.pop()
        out.append(texts)
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def said(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str]:
    """The exit code and everything printed (the summary is on stdout with -o)."""
    code, out, err = run(capsys, *argv)
    return code, out + err
