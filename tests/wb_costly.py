"""Workbooks whose claims or shapes are out of proportion to their content, for the cost
tests (tests/test_wb_fuzz.py): each is ``merges.xlsx`` with its sheet replaced by generated
XML of numbers (``r1``... in column A are the row ids).

Run as a script (``python wb_costly.py NAME CALL IN OUT``) it builds workbook NAME (unless IN
exists), runs one entry point on it and prints ``seconds peak_kb outcome`` as JSON (CPU
seconds, its own and its children's): the
tests run it in a subprocess to measure the peak memory of that call alone.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import wb_fuzz

_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://'
    b'schemas.openxmlformats.org/spreadsheetml/2006/main">'
)


def _row(r: int, extra: bytes = b"") -> bytes:
    return b'<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d"><v>%d</v></c>%s</row>' % (
        r,
        r,
        r,
        r,
        r * 7 % 11,
        extra,
    )


def _sheet(rows: bytes, before: bytes = b"", after: bytes = b"") -> bytes:
    return _HEAD + before + b"<sheetData>" + rows + b"</sheetData>" + after + b"</worksheet>"


def merges(n: int = 50_000) -> bytes:
    """``n`` data rows, each with a one-row merge over B:C."""
    rows = b"".join(_row(r, b'<c r="C%d"/>' % r) for r in range(1, n + 2))
    cells = b"".join(b'<mergeCell ref="B%d:C%d"/>' % (r, r) for r in range(2, n + 2))
    return _sheet(rows, after=b'<mergeCells count="%d">%s</mergeCells>' % (n, cells))


def wide_merges(n: int = 2_000) -> bytes:
    """``n`` data rows, each merged across the whole width of the sheet (A:XFD)."""
    rows = b"".join(_row(r) for r in range(1, n + 2))
    cells = b"".join(b'<mergeCell ref="C%d:XFD%d"/>' % (r, r) for r in range(2, n + 2))
    return _sheet(rows, after=b"<mergeCells>%s</mergeCells>" % cells)


def whole_sheet_claims() -> bytes:
    """A dimension and a cell claiming the whole sheet, a few real cells."""
    rows = b"".join(_row(r) for r in range(1, 6))
    last = b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    return _sheet(rows + last, before=b'<dimension ref="A1:XFD1048576"/>')


def wide_used_range() -> bytes:
    """One cell at XFD1, one at A1, and 10 rows of data."""
    first = b'<row r="1"><c r="A1"><v>0</v></c><c r="XFD1"><v>0</v></c></row>'
    return _sheet(first + b"".join(_row(r) for r in range(2, 12)))


def empty_rows(n: int = 1_000_000) -> bytes:
    """A header and 10 data rows, then ``n`` empty ``<row r="N"/>`` elements."""
    rows = b"".join(_row(r) for r in range(1, 12))
    return _sheet(rows + b"".join(b'<row r="%d"/>' % r for r in range(12, n + 12)))


def long_values(size: int = 20_000_000) -> bytes:
    """A row attribute and a cell's text each ``size`` bytes long, and 50,000 nested
    elements inside a cell."""
    rows = [_row(1)]
    rows.append(b'<row r="2" x="' + b"x" * size + b'"><c r="A2"><v>2</v></c></row>')
    rows.append(
        b'<row r="3"><c r="A3" t="inlineStr"><is><t>' + b"y" * size + b"</t></is></c></row>"
    )
    deep = b"<z>" * 50_000 + b"</z>" * 50_000
    rows.append(b'<row r="4"><c r="A4"><v>4</v>' + deep + b"</c></row>")
    rows.extend(_row(r) for r in range(5, 12))
    return _sheet(b"".join(rows))


BUILDERS: dict[str, Callable[[], bytes]] = {
    "merges": merges,
    "wide_merges": wide_merges,
    "whole_sheet_claims": whole_sheet_claims,
    "wide_used_range": wide_used_range,
    "empty_rows": empty_rows,
    "long_values": long_values,
}


def workbook(sheet_xml: bytes) -> bytes:
    parts = wb_fuzz.members((wb_fuzz.ENGINE / "merges.xlsx").read_bytes())
    return wb_fuzz.rebuild(
        [
            (info, sheet_xml if info.filename == "xl/worksheets/sheet1.xml" else body)
            for info, body in parts
        ]
    )


def run(call: str, src: Path, out: Path) -> str:
    from xlshuffle import XlshuffleError
    from xlshuffle.workbook import groups_workbook, sample_workbook, shuffle_workbook

    calls = {
        "shuffle": lambda: shuffle_workbook(src, out, seed=1),
        "cells": lambda: shuffle_workbook(src, out, seed=1, by="cells"),
        "within-rows": lambda: shuffle_workbook(src, out, seed=1, by="within-rows"),
        "sample": lambda: sample_workbook(src, out, k=3, seed=1),
        "groups": lambda: groups_workbook(src, out, k=3, seed=1),
    }
    try:
        calls[call]()
    except XlshuffleError as exc:
        return f"refused: {exc}"
    return "drawn"


def _peak_kb() -> int:
    """This process's peak resident memory. Linux's ``ru_maxrss`` keeps the parent's size
    across fork and exec (a pytest process of 300 MB starts every child there), so the
    memory map's own high-water mark is read when there is one."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


if __name__ == "__main__":
    name, call, src, out = sys.argv[1:5]
    if not Path(src).exists():
        Path(src).write_bytes(workbook(BUILDERS[name]()))
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # CPU seconds, this process's and its children's (the fingerprint's second process): the
    # work the call does, which a busy machine does not stretch as it stretches the wall clock
    t0 = time.process_time()
    outcome = run(call, Path(src), Path(out))
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = time.process_time() - t0 + kids.ru_utime + kids.ru_stime
    peak = _peak_kb()
    print(json.dumps({"seconds": seconds, "peak_kb": peak, "base_kb": base, "outcome": outcome}))
