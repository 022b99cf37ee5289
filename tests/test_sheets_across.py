"""Same seed, same result: Excel (xlshuffle.excel through xlwings' own Office.js call
path), Google Sheets (the Apps Script file under Node) and the command line (the range
saved as CSV without a header row) draw the same rows from the same list and seed.
Skipped without Node, with a note, unless XLSHUFFLE_REQUIRE lists ``node`` (CI).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from excel_calls import call, cell, texts
from sheets_script import calls
from xlshuffle.cli import main

TABLE = [
    ["Ann", "ann@example.com", 2, "Sales"],
    ["Bo", "bo@example.com", 1, "Finance"],
    ["Cy", "cy@example.com", 0, "Sales"],
    ["Dee", "dee@example.com", 3.5, "Support"],
    ["Eli", "eli@example.com", 2.5, 42],
    ["Fay", "fay@example.com", 4, "Finance"],
    ["Gus", "gus@example.com", 1, 42.0],
    ["Hana", "hana@example.com", 6, "Sales"],
]
SEEDS = ["2026 spring raffle", 42, "Zoë"]


def _cli(tmp_path: Path, command: str, seed: object, *options: str) -> list[list[str]]:
    src = tmp_path / "table.csv"
    with src.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(texts(TABLE))
    out = tmp_path / "out.csv"
    argv = [command, str(src), "--no-header", *options, "--seed", str(seed), "-o", str(out)]
    assert main(argv) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def _tickets() -> list[list[Any]]:
    return [[row[2]] for row in TABLE]


@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_result_in_excel_sheets_and_the_command_line(
    tmp_path: Path, seed: object, capsys: pytest.CaptureFixture[str]
) -> None:
    sheets = calls(
        tmp_path,
        ("SHUFFLE", [TABLE, seed]),
        ("SAMPLE", [TABLE, 3, seed]),
        ("SAMPLE", [TABLE, 3, seed, _tickets(), 2]),
        ("GROUPS", [TABLE, 3, seed]),
        ("DEAL", [2, 3, seed]),
    )
    excel = [
        call("SHUFFLE", TABLE, cell(seed), None, None),
        call("SAMPLE", TABLE, cell(3), cell(seed), None, None, None, None, None),
        call("SAMPLE", TABLE, cell(3), cell(seed), _tickets(), cell(2), None, None, None),
        call("GROUPS", TABLE, cell(3), cell(seed), None),
        call("DEAL", cell(2), cell(3), cell(seed), None),
    ]
    shuffled = _cli(tmp_path, "shuffle", seed)
    sampled = _cli(tmp_path, "sample", seed, "-k", "3")
    raffle = _cli(tmp_path, "sample", seed, "-k", "3", "--weights", "C", "--reserves", "2")
    grouped = _cli(tmp_path, "groups", seed, "-k", "3")
    capsys.readouterr()
    assert main(["deal", "--cards", "2", "--hands", "3", "--seed", str(seed), "--json"]) == 0
    hands = json.loads(capsys.readouterr().out)["hands"]
    line = [shuffled, sampled, raffle, [[row[-1]] for row in grouped]]
    for s, e, c in zip(sheets, excel, line, strict=False):
        assert texts(s) == texts(e) == c
    assert sheets[4] == excel[4] == [list(r) for r in zip(*hands, strict=True)]
