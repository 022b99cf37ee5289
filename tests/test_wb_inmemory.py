"""shuffle_worksheet (openpyxl in memory) and shuffle_workbook (the file engine) agree.

Two implementations of one rule: the in-memory one moves openpyxl cell objects, the file
engine moves XML bytes. For every fixture and mode, the values, formulas, styles,
hyperlinks and comments of every cell read back by openpyxl must be the same.
"""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from batch_support import FIXTURES, state_at
from xlshuffle.workbook import shuffle_workbook, shuffle_worksheet

CASES = [
    ("plain.xlsx", "rows"),
    ("plain.xlsx", "cells"),
    ("plain.xlsx", "within-columns"),
    ("formulas.xlsx", "rows"),
    ("styles.xlsx", "rows"),
    ("styles.xlsx", "within-rows"),
    ("comments_links.xlsx", "rows"),
    ("merged.xlsx", "rows"),
    ("dates_errors_blanks.xlsx", "columns"),
    ("table.xlsx", "rows"),
]


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_in_memory_and_file_engines_agree(tmp_path: Path, name: str, mode: str) -> None:
    src = FIXTURES / name
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, by=mode, seed="agree")
    wb = openpyxl.load_workbook(src, rich_text=True)
    ws = wb[record.sheet]
    perm = shuffle_worksheet(ws, by=mode, seed="agree")
    assert perm == record.permutation
    other = openpyxl.load_workbook(out, rich_text=True)[record.sheet]
    keys = set(ws._cells) | set(other._cells)
    for r, c in sorted(keys):
        if ws.cell(r, c).data_type == "f" and other.cell(r, c).data_type == "f":
            assert ws.cell(r, c).value == other.cell(r, c).value, (r, c)
        assert state_at(ws, r, c) == state_at(other, r, c), (name, mode, r, c)
    if record.unit == "rows":
        dims_a = {r: d.height for r, d in ws.row_dimensions.items() if d.height}
        dims_b = {r: d.height for r, d in other.row_dimensions.items() if d.height}
        assert dims_a == dims_b
        assert sorted(map(str, ws.merged_cells.ranges)) == sorted(
            map(str, other.merged_cells.ranges)
        )


def test_in_memory_refuses_what_the_file_engine_refuses(tmp_path: Path) -> None:
    from xlshuffle import WorkbookError

    for name in ("array.xlsx", "protected.xlsx"):
        ws = openpyxl.load_workbook(FIXTURES / name).active
        with pytest.raises(WorkbookError):
            shuffle_worksheet(ws, seed=1)
        with pytest.raises(WorkbookError):
            shuffle_workbook(FIXTURES / name, tmp_path / "o.xlsx", seed=1)


ENGINE = FIXTURES / "engine"


def _both_refuse(tmp_path: Path, src: Path, match: str, **options: object) -> None:
    from xlshuffle import WorkbookError

    with pytest.raises(WorkbookError, match=match):
        shuffle_workbook(src, tmp_path / "o.xlsx", seed=1, **options)
    ws = openpyxl.load_workbook(src).active
    with pytest.raises(WorkbookError, match=match):
        shuffle_worksheet(ws, seed=1, **options)


def test_a_table_cut_by_the_selection_is_refused_in_memory_too(tmp_path: Path) -> None:
    # was: the in-memory engine moved half of table People's columns apart
    _both_refuse(tmp_path, FIXTURES / "table.xlsx", "cuts through table People", cells="A4:B13")


def test_whole_columns_of_a_table_are_refused_in_memory_too(tmp_path: Path) -> None:
    _both_refuse(tmp_path, FIXTURES / "table.xlsx", "reorder table People", by="columns")


def test_a_pivot_table_in_the_selection_is_refused_in_memory_too(tmp_path: Path) -> None:
    _both_refuse(tmp_path, ENGINE / "pivot.xlsx", r"pivot table output F1:G4 lies in the")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("array.xlsx", {}),
        ("protected.xlsx", {}),
        ("merged.xlsx", {"by": "cells"}),
        ("table.xlsx", {"cells": "A4:C13"}),
    ],
)
def test_both_engines_refuse_with_one_rule_and_their_own_way_out(
    tmp_path: Path, name: str, options: dict[str, object]
) -> None:
    """One table of refusals: the same rule, the same cell or range named, and the way
    out in each front end's terms (``--table`` for a file, ``table=`` in memory)."""
    from xlshuffle import WorkbookError

    with pytest.raises(WorkbookError) as on_file:
        shuffle_workbook(FIXTURES / name, tmp_path / "o.xlsx", seed=1, **options)
    ws = openpyxl.load_workbook(FIXTURES / name).active
    with pytest.raises(WorkbookError) as in_memory:
        shuffle_worksheet(ws, seed=1, **options)
    file_text = str(on_file.value).split(": sheet ", 1)[1]  # the path aside
    memory_text = str(in_memory.value).removeprefix("sheet ")
    rule = re.split(r": (?:unprotect|unmerge|use|replace)", file_text)[0]
    assert memory_text.startswith(rule), (file_text, memory_text)
    assert memory_text != file_text  # each says the way out in its own terms
    assert "Excel (" not in memory_text and "--table" not in memory_text


def test_formulas_are_translated_as_the_file_engine_translates_them(tmp_path: Path) -> None:
    """openpyxl's Translator drops the sheet of a sheet-scoped name (``Sheet2!Rate`` became
    ``Rate``); the file engine keeps it, and so does the in-memory one now."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["name", "n", "total"])
    for i in range(1, 9):
        ws.append([f"p{i}", i, f"=Sheet2!Rate*B{i + 1}"])
    wb.create_sheet("Sheet2")["A1"] = 2
    src = tmp_path / "in.xlsx"
    wb.save(src)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="names")
    assert record.permutation != list(range(8))
    ws = openpyxl.load_workbook(src)["Data"]
    assert shuffle_worksheet(ws, seed="names") == record.permutation
    other = openpyxl.load_workbook(out)["Data"]
    got = [ws.cell(r, 3).value for r in range(2, 10)]
    assert got == [other.cell(r, 3).value for r in range(2, 10)]
    assert got == [f"=Sheet2!Rate*B{r}" for r in range(2, 10)]
