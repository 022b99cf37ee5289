"""The product's promise, end to end: one seed, one order, through every door.

The bundled raffle list is drawn with seed 2026 through the Python API, the Excel
function (xlwings' real Office.js call path), the batch mode and the command line; all
four must name the same winners in the same order.
"""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest

import xlshuffle
from xlshuffle.cli import main

from support import ROOT

openpyxl = pytest.importorskip("openpyxl")
xlwings_server = pytest.importorskip("xlwings.server")

RAFFLE = ROOT / "workbooks" / "raffle.xlsx"
SEED = 2026
K = 5


def data_rows() -> list[list[object]]:
    wb = openpyxl.load_workbook(RAFFLE, read_only=True)
    try:
        rows = [list(r) for r in wb.worksheets[0].iter_rows(values_only=True)]
    finally:
        wb.close()  # a read-only workbook keeps its file open until closed
    return rows[1:]  # the header row stays out of the draw


def test_api_excel_batch_and_cli_draw_the_same_winners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xlshuffle import batch, excel

    rows = data_rows()
    expected = xlshuffle.deal(rows, K, seed=SEED)

    body = {
        "client": "Office.js",
        "func_name": "SAMPLE",
        "args": [rows, [[K]], [[SEED]]],
        "caller_address": "[raffle.xlsx]Tickets!F2",
        "version": "0.37.8",
        "runtime": "1.4",
    }
    via_excel = asyncio.run(xlwings_server.custom_functions_call(body, excel))
    assert via_excel == expected

    out = tmp_path / "shuffled.xlsx"
    batch.shuffle_workbook(RAFFLE, out, seed=SEED)
    shuffled_rows = [
        list(r)
        for r in openpyxl.load_workbook(out).worksheets[0].iter_rows(min_row=2, values_only=True)
    ]
    assert shuffled_rows[:K] == expected
    assert shuffled_rows == xlshuffle.shuffled(rows, seed=SEED)

    assert main(["sample", str(RAFFLE), "-k", str(K), "--seed", str(SEED)]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert [row[1] for row in table[1:]] == [row[0] for row in expected]
