"""Draw and lock for the designs: balanced teams, per-person orders, allocation lists.

The workbook stand-in and the hash oracle are :mod:`test_excel_lock`'s (a real Office.js
``xw.Book`` driven by xlwings' own ``custom_scripts_call``; the stand-in only applies the
actions Excel would). Expected values come from the reference code of
docs/draw-protocol.md (sections 13-16), from the logged formula evaluated by the worksheet
function, and from the logged command line run by the command line on the same values.
"""

from __future__ import annotations

import copy
import csv
import shlex
from pathlib import Path
from typing import Any

import pytest
import xlwings as xw

from test_excel import call
from test_excel_lock import Excel, one_line, sha256_of
from test_excel_raffles import texts
from test_vectors import reference_namespace
from xlshuffle.cli import main

REF = reference_namespace()
SEED = "class 4B"
HEADER = ["Name", "Gender", "Level"]
CLASS: list[list[Any]] = [
    ["Ann", "F", 1],
    ["Bo", "M", 2],
    ["Cy", "M", 1],
    ["Dee", "F", 3],
    ["Ed", "M", 3],
    ["Fay", "F", 2],
    ["Gus", "M", 1],
    ["Hal", "M", 2],
    ["Ida", "F", 1],
    ["Jo", "F", 3],
]
TASKS = ["Maze", "Stroop", "N-back", "Flanker"]
IDS = ["P01", "P02", 42, "Zoë", "P05"]


def seeded(excel: Excel, seed: object = SEED) -> Excel:
    excel.put("Sheet1", 1, 8, seed)
    excel.name("SEED", "H1")
    return excel


def run_logged(command: str, tmp_path: Path, **files: list[list[Any]]) -> None:
    """Run a logged command line, with its input files written from ``files`` and its
    output files put in ``tmp_path``."""
    argv = shlex.split(command)
    assert argv[0] == "xlshuffle"
    for name, rows in files.items():
        with (tmp_path / name).open("w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(texts(rows))
    names = {a for a in argv if "." in a and a.endswith((".csv", ".txt"))}
    argv = [str(tmp_path / a) if a in names else a for a in argv[1:]]
    assert main(argv) == 0


def read(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        return list(csv.reader(fh))


# --------------------------------------------------------------------------- teams


def test_balanced_teams_are_the_references_and_the_log_replays_them(tmp_path: Path) -> None:
    excel = seeded(Excel([HEADER, *CLASS], "A2:C11"))
    excel.script("assign_balanced_teams", 3, "Gender, Level")
    want = REF["balanced_teams"]([[g, str(lv)] for _, g, lv in CLASS], 3, SEED)
    written = excel.cells("Sheet1", 2, 4, 10, 1)
    assert written == [[t] for t in want]
    (entry,) = excel.log()
    assert (entry["mode"], entry["k"], entry["output"], entry["seed"]) == (
        "teams",
        "3",
        "D2:D11",
        SEED,
    )
    assert entry["options"] == "balance B, C"
    assert entry["input sha256"] == sha256_of(CLASS)
    assert entry["output sha256"] == sha256_of(written)
    assert entry["formula"] == f'=GROUPS(Sheet1!A2:C11, 3, "{SEED}", {{2,3}})'
    assert call("GROUPS", CLASS, [[3]], [[SEED]], [[2, 3]]) == written
    run_logged(entry["command line"], tmp_path, **{"selection.csv": CLASS})
    assert entry["command line"] == (
        f"xlshuffle groups selection.csv --no-header -k 3 --balance B --balance C "
        f"--seed '{SEED}' -o teams.csv"
    )
    assert [[int(row[-1])] for row in read(tmp_path / "teams.csv")] == written


def test_balanced_teams_by_letter_and_restore_clears_them() -> None:
    by_header = seeded(Excel([HEADER, *CLASS], "A2:C11"))
    by_header.script("assign_balanced_teams", 2, "gender")
    by_letter = seeded(Excel([HEADER, *CLASS], "A2:C11"))
    by_letter.script("assign_balanced_teams", 2, "B")
    written = by_letter.cells("Sheet1", 2, 4, 10, 1)
    assert written == by_header.cells("Sheet1", 2, 4, 10, 1)
    assert written == [[t] for t in REF["balanced_teams"]([[g] for _, g, _ in CLASS], 2, SEED)]
    by_letter.script("restore_last_draw")
    assert by_letter.cells("Sheet1", 2, 4, 10, 1) == [[None]] * 10
    assert by_letter.log()[0]["restored (UTC)"]


@pytest.mark.parametrize(
    ("balance", "words"),
    [
        ("", "assign balanced teams: balance is empty: name the column(s) to balance by"),
        ("Sex", "no selected column is headed or lettered 'Sex' (the row above the selection"),
        ("E", "no selected column is headed or lettered 'E'"),
        ("Gender, B", "balance names one column twice"),
    ],
)
def test_balanced_teams_refusals_write_nothing(balance: str, words: str) -> None:
    excel = seeded(Excel([HEADER, *CLASS], "A2:C11"))
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("assign_balanced_teams", 2, balance)
    assert words in one_line(str(info.value))
    assert excel.payload == before


def test_the_windows_sub_writes_what_the_script_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    by_script = seeded(Excel([HEADER, *CLASS], "A2:C11"))
    by_sub = seeded(Excel([HEADER, *CLASS], "A2:C11"))
    by_script.script("assign_balanced_teams", 3, "Level")
    by_sub.sub(monkeypatch, "assign_balanced_teams", 3, "Level")
    assert by_sub.alerts == []
    assert by_sub.cells("Sheet1", 2, 4, 10, 1) == by_script.cells("Sheet1", 2, 4, 10, 1)
