"""The core imports nothing outside the standard library (click's test_imports idea)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support import ROOT

PROBE = """
import json, sys
before = set(sys.modules)
{code}
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def loaded_by(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code)], capture_output=True, text=True, check=True
    ).stdout
    return {name.partition(".")[0] for name in json.loads(out.splitlines()[-1])}


def third_party(modules: set[str]) -> set[str]:
    stdlib = set(sys.stdlib_module_names) | {"xlshuffle"}
    return {m for m in modules if m not in stdlib and not m.startswith("_")}


@pytest.mark.parametrize(
    "code",
    [
        "import xlshuffle",
        "import xlshuffle; xlshuffle.shuffled(range(10), seed=1); xlshuffle.deal_hands(5, 2)",
        "import xlshuffle.cli; xlshuffle.cli.build_parser()",
        "from xlshuffle.cli import main; main(['deal', '--seed', '1'])",
        "import xlshuffle.draw, xlshuffle.common.files, xlshuffle.common.progress",
        "import xlshuffle.lab.classic, xlshuffle.lab.fairness",  # the lab minus its plots
    ],
)
def test_core_is_standard_library_only(code: str) -> None:
    assert third_party(loaded_by(code)) == set()


def test_text_loads_only_regex() -> None:
    assert third_party(loaded_by("import xlshuffle; xlshuffle.shuffle_text('abc', seed=1)")) == {
        "regex"
    }


def test_a_workbook_without_formulas_draws_without_openpyxl(tmp_path: Path) -> None:
    """openpyxl translates moved formulas that are not simple, and nothing else: a sheet
    without any (most raffle lists), or whose formulas are simple (cells, numbers,
    operators, calls), is drawn without importing it (about 50-80 ms of the command's
    start); one with a string in a formula imports it."""
    out = tmp_path / "out.xlsx"
    code = (
        "from xlshuffle.cli import main\n"
        f"assert main(['shuffle', {str(ROOT / 'workbooks' / 'raffle.xlsx')!r}, '--seed', '1',"
        f" '-o', {str(out)!r}]) == 0"
    )
    assert "openpyxl" not in loaded_by(code)
    assert out.exists()
    book = tmp_path / "formulas.xlsx"
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["n", "double", "sum", "label"])
    for i in range(2, 8):
        ws.append([i, f"=A{i}*2", f"=SUM(A{i}:B{i})", f'=A{i}&" items"'])
    wb.save(book)
    for cols, loaded in (("B:C", False), ("B:D", True)):  # a string: openpyxl reads it
        moved = tmp_path / f"moved-{loaded}.xlsx"
        code = (
            "from xlshuffle.cli import main\n"
            f"assert main(['shuffle', {str(book)!r}, '--columns', {cols!r}, '--seed', '1',"
            f" '-o', {str(moved)!r}]) == 0"
        )
        assert ("openpyxl" in loaded_by(code)) == loaded
