"""The demo workbook that users copy (the xlwings Lite files: test_lite_bundle.py).

Nothing here can recalculate Excel, so the workbook's formulas are evaluated by a small
reader of their (simple) syntax that hands the referenced cells to the functions through
xlwings' Office.js call path: every formula must run without error and fill exactly the
cells its array formula covers.

The "Draw and lock" sheet holds no formula: its winners are checked against the draw
recomputed from its seed (``permutation``), its ``Draw log`` row against the rules
docs/excel.md states (the hash re-implemented in tests/excel_book.py), against the real
``draw winners`` command run on the same list, and by running its command line.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from excel_book import LOG_HEADER, Excel, sha256_of
from excel_calls import call
from xlshuffle import PROTOCOL, __version__
from xlshuffle.draw.knuth import deal, permutation

from support import ROOT

openpyxl = pytest.importorskip("openpyxl")
from openpyxl.utils.cell import range_boundaries  # noqa: E402
from openpyxl.worksheet.formula import ArrayFormula  # noqa: E402

WORKBOOK = ROOT / "workbooks" / "xlshuffle_demo.xlsx"
FORMULA_SHEETS = ["Survey", "Raffle", "Cards", "Teams", "Word jumble"]
LOCK_SHEET = "Draw and lock"
SHEETS = ["Read me", *FORMULA_SHEETS, LOCK_SHEET, "Draw log"]


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


def test_committed_workbook_is_byte_for_byte_what_the_tool_builds(tmp_path: Path) -> None:
    """Run as a script (a fresh interpreter, so openpyxl writes its XML as the tool asks)."""
    fresh = tmp_path / "demo.xlsx"
    env = {k: v for k, v in os.environ.items() if k != "OPENPYXL_LXML"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    tool = ROOT / "tools" / "make_demo_workbook.py"
    subprocess.run(
        [sys.executable, str(tool), "--out", str(fresh), "--no-pictures"],
        check=True,
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert fresh.read_bytes() == WORKBOOK.read_bytes()


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
    assert sorted(by_sheet) == sorted(FORMULA_SHEETS)
    for formulas in by_sheet.values():
        assert any("$" in f and "3" in f for f in formulas)  # refers to a seed cell
        assert any(re.fullmatch(r"=[A-Z]+\([^,]*(, \d+)?\)", f) for f in formulas)  # no seed


# --------------------------------------------------------------------------- draw and lock

LIST, WINNERS = "A5:B16", "C5:D7"


def _lock_sheet() -> tuple[Any, Any, str, dict[str, str]]:
    """The workbook, the lock sheet, the seed of the cell named SEED and the log entry."""
    wb = openpyxl.load_workbook(WORKBOOK)
    ((sheet, ref),) = wb.defined_names["SEED"].destinations
    assert (sheet, ref) == (LOCK_SHEET, "$B$3")
    seed_cell = wb[sheet]["B3"]
    assert isinstance(seed_cell.value, str)
    assert seed_cell.number_format == "@"  # as write_seed writes a seed
    log = wb["Draw log"]
    rows = [[c.value for c in row] for row in log.iter_rows()]
    assert len(rows) == 2
    assert rows[0] == LOG_HEADER
    for row in log.iter_rows():
        for c in row:
            assert c.number_format == "@"
            assert c.value is None or (isinstance(c.value, str) and c.data_type == "s")
    entry = dict(zip(LOG_HEADER, ["" if v is None else v for v in rows[1]], strict=True))
    return wb, wb[LOCK_SHEET], seed_cell.value, entry


def test_the_lock_sheet_winners_are_the_draw_recomputed_from_its_seed() -> None:
    _, ws, seed, _ = _lock_sheet()
    assert [c.value for c in ws[4][:4]] == ["Ticket", "Name", "Winning ticket", "Winner"]
    listed = _ref_values(ws, LIST)
    assert len(listed) == 12
    assert all(v is not None for row in listed for v in row)
    perm = permutation(len(listed), seed=seed)
    winners = _ref_values(ws, WINNERS)
    assert winners == [listed[p] for p in perm[:3]]
    assert winners == deal(listed, 3, seed=seed)
    assert _ref_values(ws, "C8:D16") == [[None, None]] * 9  # three winners, nothing more
    for row in ws.iter_rows():  # plain values: nothing recalculates
        for c in row:
            assert c.data_type != "f"
            assert not isinstance(c.value, ArrayFormula)
    # the worksheet function gives the same winners from the same list and seed
    assert call("SAMPLE", listed, [[3.0]], [[seed]]) == winners


def test_the_draw_log_row_follows_the_documented_rules() -> None:
    _, ws, seed, entry = _lock_sheet()
    listed, winners = _ref_values(ws, LIST), _ref_values(ws, WINNERS)
    assert entry["time (UTC)"] == "2026-01-01T00:00:00Z"  # fixed: the file is reproducible
    where = [entry[k] for k in ("sheet", "range", "mode", "k", "hands", "output")]
    assert where == [LOCK_SHEET, LIST, "winners", "3", "", WINNERS]
    assert entry["seed"] == seed
    assert entry["seed from"] == f"SEED cell {LOCK_SHEET}!B3"
    assert (entry["protocol"], entry["version"]) == (PROTOCOL, __version__)
    assert entry["input sha256"] == sha256_of(listed)
    assert entry["output sha256"] == sha256_of(winners)
    assert entry["formula"] == f"=SAMPLE('Draw and lock'!{LIST}, 3, \"{seed}\")"
    assert entry["command line"] == (
        f"xlshuffle sample xlshuffle_demo.xlsx --sheet 'Draw and lock' --range {LIST} "
        f"-k 3 --seed {shlex.quote(seed)}"
    )
    assert entry["restored (UTC)"] == ""
    texts = {c.value for row in ws.iter_rows() for c in row}  # the sheet shows how to re-check
    assert entry["formula"] in texts
    assert entry["command line"] in texts
    assert 'RunPython "import xlshuffle.excel.subs as x; x.draw_winners(3)"' in {
        t.strip() for t in texts if isinstance(t, str)
    }


def test_the_real_draw_winners_command_writes_what_the_sheet_and_log_show() -> None:
    """The Lite script on the sheet without its winners: same cells, same log row."""
    _, ws, _, entry = _lock_sheet()
    grid = [["" if c.value is None else c.value for c in row] for row in ws.iter_rows()]
    for r in range(4, 7):  # C5:D7 empty, as before the draw
        grid[r][2:4] = ["", ""]
    excel = Excel(grid, LIST, sheet=LOCK_SHEET)
    excel.payload["book"]["name"] = "xlshuffle_demo.xlsx"
    excel.name("SEED", "B3")
    excel.script("draw_winners", 3)
    (real,) = excel.log()
    assert excel.cells(LOCK_SHEET, 5, 3, 3, 2) == _ref_values(ws, WINNERS)
    assert {k: v for k, v in real.items() if k != "time (UTC)"} == {
        k: v for k, v in entry.items() if k != "time (UTC)"
    }


def test_the_logged_command_line_draws_the_same_winners_from_the_workbook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xlshuffle.cli import main

    _, ws, _, entry = _lock_sheet()
    shutil.copyfile(WORKBOOK, tmp_path / "xlshuffle_demo.xlsx")
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(entry["command line"])
    assert argv[0] == "xlshuffle"
    assert main(argv[1:]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["Rank", "A", "B"]
    assert [[int(t), n] for _, t, n in rows[1:]] == _ref_values(ws, WINNERS)
