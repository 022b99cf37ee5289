"""The demo workbook that users copy (the xlwings Lite files: test_lite_bundle.py).

Nothing here can recalculate Excel, so the workbook's formulas are evaluated by a small
reader of their (simple) syntax that hands the referenced cells to the functions through
xlwings' Office.js call path: every formula must run without error and fill exactly the
cells its array formula covers.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from test_excel import call

from support import ROOT

openpyxl = pytest.importorskip("openpyxl")
from openpyxl.utils.cell import range_boundaries  # noqa: E402
from openpyxl.worksheet.formula import ArrayFormula  # noqa: E402

WORKBOOK = ROOT / "workbooks" / "xlshuffle_demo.xlsx"
SHEETS = ["Read me", "Survey", "Raffle", "Cards", "Teams", "Word jumble"]


def _load_tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_demo_workbook", ROOT / "tools" / "make_demo_workbook.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- the workbook


def _cells(path: Path) -> dict[str, dict[str, Any]]:
    wb = openpyxl.load_workbook(path)
    out: dict[str, dict[str, Any]] = {}
    for ws in wb.worksheets:
        out[ws.title] = {}
        for row in ws.iter_rows():
            for c in row:
                if c.value is None:
                    continue
                value = c.value
                if isinstance(value, ArrayFormula):
                    value = ("array", value.ref, value.text)
                out[ws.title][c.coordinate] = value
    return out


def test_committed_workbook_is_what_the_tool_builds(tmp_path: Path) -> None:
    tool = _load_tool()
    fresh = tmp_path / "demo.xlsx"
    assert tool.main(["--out", str(fresh), "--no-pictures"]) == 0
    assert _cells(WORKBOOK) == _cells(fresh)
    assert list(_cells(WORKBOOK)) == SHEETS


def _ref_values(ws: Any, ref: str) -> list[list[Any]]:
    min_col, min_row, max_col, max_row = range_boundaries(ref.replace("$", ""))
    return [
        [ws.cell(r, c).value for c in range(min_col, max_col + 1)]
        for r in range(min_row, max_row + 1)
    ]


_REF = re.compile(r"^\$?[A-Z]+\$?\d+(:\$?[A-Z]+\$?\d+)?$")


def _argument(ws: Any, text: str) -> Any:
    """One argument as Office.js sends it: a 2D list of the cells' values."""
    parts = [p.strip() for p in text.split("&")]
    if len(parts) > 1:  # text concatenation of single cells and literals
        return [["".join(str(_argument(ws, p)[0][0]) for p in parts)]]
    if text.startswith('"'):
        return [[text.strip('"')]]
    if _REF.match(text):
        return _ref_values(ws, text)
    return [[float(text)]]


def _formulas() -> list[tuple[str, str, str, str]]:
    wb = openpyxl.load_workbook(WORKBOOK)
    found = []
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, ArrayFormula):
                    found.append((ws.title, c.coordinate, c.value.ref, c.value.text))
                elif isinstance(c.value, str) and c.value.startswith("=") and c.data_type == "f":
                    found.append((ws.title, c.coordinate, c.coordinate, c.value))
    return found


@pytest.mark.parametrize(("sheet", "cell", "ref", "formula"), _formulas())
def test_each_formula_fills_exactly_its_cells(
    sheet: str, cell: str, ref: str, formula: str
) -> None:
    ws = openpyxl.load_workbook(WORKBOOK)[sheet]
    name, inner = re.fullmatch(r"=([A-Z]+)\((.*)\)", formula).groups()  # type: ignore[union-attr]
    args = [_argument(ws, a.strip()) for a in inner.split(",")]
    n_params = {"SHUFFLE": 4, "SHUFFLESTR": 3, "DEAL": 4, "SAMPLE": 3, "GROUPS": 3}[name]
    result = call(name, *args, *[None] * (n_params - len(args)))
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    assert len(result) == max_row - min_row + 1
    assert len(result[0]) == max_col - min_col + 1
    assert cell == ref.split(":")[0]


def test_there_are_seeded_and_unseeded_formulas_on_every_sheet() -> None:
    by_sheet: dict[str, list[str]] = {}
    for sheet, _, _, formula in _formulas():
        by_sheet.setdefault(sheet, []).append(formula)
    assert sorted(by_sheet) == sorted(SHEETS[1:])
    for formulas in by_sheet.values():
        assert any("$" in f and "3" in f for f in formulas)  # refers to a seed cell
        assert any(re.fullmatch(r"=[A-Z]+\([^,]*(, \d+)?\)", f) for f in formulas)  # no seed
