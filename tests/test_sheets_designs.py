"""Google Sheets: the menu's draw-and-lock commands for the designs (balanced teams,
per-person orders, allocation lists), under Node with the SpreadsheetApp stand-in
(tests/sheets/standin.mjs). Each writes the values Excel's command writes on the same
book and logs the row Excel logs (xlshuffle.lock.designs, run on the Excel
stand-in of tests/excel_book.py), and the logged command line, run by xlshuffle, draws
them again. Skipped without Node, with a note, unless XLSHUFFLE_REQUIRE lists ``node``.
"""

from __future__ import annotations

import csv
import shlex
from pathlib import Path
from typing import Any

import pytest

from excel_book import ARGS, IDS, TASKS, Excel, seeded, study
from excel_calls import texts
from sheets_script import run
from xlshuffle.cli import main
from xlshuffle.lock.log import LOG_COLUMNS

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
BOOK = "Raffle 2026"  # the Excel stand-in's book, without .xlsx
#: what a Sheets row holds that Excel's may not: the time, and the SEED cell's address
#: (Excel's named range reads $H$1, Sheets' H1)
OWN = ("time (UTC)", "seed from", "restored (UTC)")


def _grid(rows: list[list[Any]], seed: Any) -> list[list[Any]]:
    """Sheet1 as the Excel stand-in's seeded() makes it: the rows, the seed in H1."""
    grid = [[("" if v is None else v) for v in row] for row in rows]
    while len(grid[0]) < 8:
        grid[0].append("")
    grid[0][7] = seed
    return grid


def _sheets(
    tmp: Path,
    rows: list[list[Any]],
    seed: Any,
    active: list[Any] | None,
    menu: list[Any],
    **names: Any,
) -> dict[str, Any]:
    book = {
        "name": BOOK,
        "sheets": {"Sheet1": _grid(rows, seed)},
        "active": active,
        "names": {"SEED": ["Sheet1", 1, 8], **names},
    }
    return run(tmp, {"book": book, "menu": menu})


def _log(found: dict[str, Any]) -> list[dict[str, str]]:
    rows = found["sheets"]["Draw log"]
    assert rows[0] == list(LOG_COLUMNS)
    return [dict(zip(LOG_COLUMNS, row, strict=True)) for row in rows[1:]]


def _same_row(sheets: dict[str, str], excel: dict[str, Any]) -> None:
    for column in LOG_COLUMNS:
        if column not in OWN:
            assert sheets[column] == excel[column], column
    assert sheets["seed from"] == "SEED cell Sheet1!H1"


def _cells(found: dict[str, Any], sheet: str) -> list[list[Any]]:
    return [list(row) for row in found["sheets"][sheet]]


def _read(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        return list(csv.reader(fh))


def _replay(command: str, tmp_path: Path, **files: list[list[Any]]) -> list[str]:
    """Run a logged command line with its files in tmp_path; its argv."""
    argv = shlex.split(command)
    assert argv[0] == "xlshuffle"
    for name, rows in files.items():
        with (tmp_path / name).open("w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(texts(rows))
    argv = [str(tmp_path / a) if a.endswith((".csv", ".txt", ".xlsx")) else a for a in argv[1:]]
    assert main(argv) == 0
    return argv


# ---------------------------------------------------------------- teams


@pytest.mark.parametrize("balance", ["Gender, Level", "B", "level"])
def test_balanced_teams_are_excels_and_the_log_replays_them(tmp_path: Path, balance: str) -> None:
    excel = seeded(Excel([HEADER, *CLASS], "A2:C11"), SEED)
    excel.script("assign_balanced_teams", 3, balance)
    found = _sheets(
        tmp_path,
        [HEADER, *CLASS],
        SEED,
        ["Sheet1", 2, 1, 10, 3],
        [["xlshuffleAssignTeams", [3, balance]]],
    )
    assert found["log"]["alerts"] == []
    written = [row[3:4] for row in found["sheets"]["Sheet1"][1:11]]
    assert written == excel.cells("Sheet1", 2, 4, 10, 1)
    (row,) = _log(found)
    (entry,) = excel.log()
    _same_row(row, entry)
    # the logged command on the spreadsheet downloaded as .xlsx gives the same teams
    openpyxl = pytest.importorskip("openpyxl")
    saved = openpyxl.Workbook()
    saved.active.title = "Sheet1"
    for r in [HEADER, *CLASS]:
        saved.active.append(r)
    saved.save(tmp_path / f"{BOOK}.xlsx")
    _replay(row["command line"], tmp_path)
    teams = openpyxl.load_workbook(tmp_path / "teams.xlsx").active
    assert [[r[3]] for r in teams.iter_rows(min_row=2, values_only=True)] == written


def test_teams_refusals_write_nothing(tmp_path: Path) -> None:
    for answers, words in (
        ([3, ""], "balance is empty"),
        ([3, "Height"], "no selected column is headed or lettered 'Height'"),
        ([3, "B, Gender"], "balance names one column twice"),
    ):
        found = _sheets(
            tmp_path,
            [HEADER, *CLASS],
            SEED,
            ["Sheet1", 2, 1, 10, 3],
            [["xlshuffleAssignTeams", answers]],
        )
        (alert,) = found["log"]["alerts"]
        assert words in alert and "Draw log" not in found["sheets"]


# ---------------------------------------------------------------- orders


def _study_rows() -> list[list[Any]]:
    grid: list[list[Any]] = [["Task", "", "", "", "ID"]]
    for i in range(5):
        grid.append([TASKS[i] if i < 4 else "", "", "", "", IDS[i]])
    return grid


@pytest.mark.parametrize(
    ("answers", "args"),
    [(["", "", ""], ()), (["E2:E6", 3, "TRUE"], ("E2:E6", 3, True)), (["IDS", "", "FALSE"], ())],
)
def test_orders_are_excels_on_a_new_sheet_and_the_log_replays_them(
    tmp_path: Path, answers: list[Any], args: tuple[Any, ...]
) -> None:
    excel = study()
    excel.script("write_orders", *args)
    found = _sheets(
        tmp_path,
        _study_rows(),
        "study 2026",
        ["Sheet1", 2, 1, 4, 1],
        [["xlshuffleWriteOrders", answers]],
        IDS=["Sheet1", 2, 5, 5, 1],
    )
    assert found["log"]["alerts"] == []
    assert list(found["sheets"]) == ["Sheet1", "Orders", "Draw log"]
    table = _cells(found, "Orders")
    assert table == excel.cells("Orders", 1, 1, len(table), len(table[0]))
    (row,) = _log(found)
    (entry,) = excel.log()
    _same_row(row, entry)
    items, ids = [[t] for t in TASKS], [[p] for p in IDS]
    _replay(row["command line"], tmp_path, **{"items.txt": items, "ids.txt": ids})
    assert _read(tmp_path / "orders.csv") == texts(table)


# ---------------------------------------------------------------- allocation lists


@pytest.mark.parametrize(
    ("answers", "args", "seed"),
    [
        (list(ARGS), ARGS, "trial 7"),
        (["A,B,C", 5, "", "", ""], ("A,B,C", 5), 42),
        (["", "", "", "", ""], ("A,B", 20), "x"),
    ],
)
def test_allocation_lists_are_excels_and_the_log_replays_them(
    tmp_path: Path, answers: list[Any], args: tuple[Any, ...], seed: Any
) -> None:
    excel = seeded(Excel([["Trial"]], None), seed)
    excel.script("write_allocation_list", *args)
    found = _sheets(tmp_path, [["Trial"]], seed, None, [["xlshuffleWriteAllocation", answers]])
    assert found["log"]["alerts"] == []
    assert list(found["sheets"]) == ["Sheet1", "Allocation", "Allocation codes", "Draw log"]
    listed, codes = _cells(found, "Allocation"), _cells(found, "Allocation codes")
    assert listed == excel.cells("Allocation", 1, 1, len(listed), len(listed[0]))
    assert codes == excel.cells("Allocation codes", 1, 1, len(codes), len(codes[0]))
    (row,) = _log(found)
    (entry,) = excel.log()
    _same_row(row, entry)
    _replay(row["command line"], tmp_path)
    assert _read(tmp_path / "list.csv") == texts(listed)
    assert _read(tmp_path / "codes.csv") == texts(codes)


# ---------------------------------------------------------------- restore


def test_restore_clears_teams_and_deletes_the_sheets_the_designs_added(tmp_path: Path) -> None:
    found = _sheets(
        tmp_path,
        _study_rows(),
        "study 2026",
        ["Sheet1", 2, 1, 4, 1],
        [
            ["xlshuffleWriteOrders", ["", "", ""]],
            ["xlshuffleWriteOrders", ["", 2, ""]],
            ["xlshuffleWriteAllocation", ["", 4, "", "", ""]],
            ["xlshuffleRestoreLastDraw", []],
            ["xlshuffleRestoreLastDraw", []],
        ],
        IDS=["Sheet1", 2, 5, 5, 1],
    )
    assert found["log"]["alerts"] == []
    assert found["menu"][3:] == ["Allocation!A1:D9", "Orders 2!A1:C6"]
    assert list(found["sheets"]) == ["Sheet1", "Orders", "Draw log"]
    rows = _log(found)
    assert [bool(r["restored (UTC)"]) for r in rows] == [False, True, True]
    assert rows[2]["new sheets"] == "Allocation / Allocation codes"
    teams = _sheets(
        tmp_path,
        [HEADER, *CLASS],
        SEED,
        ["Sheet1", 2, 1, 10, 3],
        [["xlshuffleAssignTeams", [2, "Gender"]], ["xlshuffleRestoreLastDraw", []]],
    )
    assert teams["log"]["alerts"] == []
    assert [row[:3] for row in teams["sheets"]["Sheet1"][1:]] == [
        [("" if v is None else v) for v in r] for r in CLASS
    ]
    assert all(len(row) < 4 or row[3] == "" for row in teams["sheets"]["Sheet1"][1:])


def test_restore_keeps_an_orders_sheet_that_was_edited(tmp_path: Path) -> None:
    drawn = _sheets(
        tmp_path,
        _study_rows(),
        "study 2026",
        ["Sheet1", 2, 1, 4, 1],
        [["xlshuffleWriteOrders", ["", "", ""]]],
        IDS=["Sheet1", 2, 5, 5, 1],
    )
    sheets = drawn["sheets"]
    sheets["Orders"][0].append("my note")  # beside the table: the values still match
    book = {
        "name": BOOK,
        "sheets": sheets,
        "active": ["Sheet1", 2, 1, 4, 1],
        "names": {"SEED": ["Sheet1", 1, 8]},
    }
    found = run(tmp_path, {"book": book, "menu": [["xlshuffleRestoreLastDraw", []]]})
    (alert,) = found["log"]["alerts"]
    assert alert.startswith("the sheet 'Orders' holds more than the draw at ")
    assert "Orders" in found["sheets"]
