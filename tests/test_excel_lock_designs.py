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

from excel_book import ARGS, IDS, TASKS, Excel, one_line, seeded, sha256_of, study
from excel_calls import call, column, texts
from protocol_references import reference_namespace
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
    excel = seeded(Excel([HEADER, *CLASS], "A2:C11"), SEED)
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
    book = "Raffle 2026.xlsx"  # the stand-in book's name
    assert entry["command line"] == (
        f"xlshuffle groups {shlex.quote(book)} --sheet Sheet1 --range A2:C11 --no-header -k 3 "
        f"--balance B --balance C --seed '{SEED}' -o teams.xlsx"
    )
    # the logged command on the saved workbook (made here with openpyxl) gives the teams
    openpyxl = pytest.importorskip("openpyxl")
    saved = openpyxl.Workbook()
    saved.active.title = "Sheet1"
    for row in [HEADER, *CLASS]:
        saved.active.append(row)
    saved.save(tmp_path / book)
    argv = shlex.split(entry["command line"])[1:]
    argv[1], argv[-1] = str(tmp_path / book), str(tmp_path / "teams.xlsx")
    assert main(argv) == 0
    teams = openpyxl.load_workbook(tmp_path / "teams.xlsx").active
    assert [[row[3]] for row in teams.iter_rows(min_row=2, values_only=True)] == written


def test_balanced_teams_by_letter_and_restore_clears_them() -> None:
    by_header = seeded(Excel([HEADER, *CLASS], "A2:C11"), SEED)
    by_header.script("assign_balanced_teams", 2, "gender")
    by_letter = seeded(Excel([HEADER, *CLASS], "A2:C11"), SEED)
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
    excel = seeded(Excel([HEADER, *CLASS], "A2:C11"), SEED)
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("assign_balanced_teams", 2, balance)
    assert words in one_line(str(info.value))
    assert excel.payload == before


def test_the_windows_sub_writes_what_the_script_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    by_script = seeded(Excel([HEADER, *CLASS], "A2:C11"), SEED)
    by_sub = seeded(Excel([HEADER, *CLASS], "A2:C11"), SEED)
    by_script.script("assign_balanced_teams", 3, "Level")
    by_sub.sub(monkeypatch, "assign_balanced_teams", 3, "Level")
    assert by_sub.alerts == []
    assert by_sub.cells("Sheet1", 2, 4, 10, 1) == by_script.cells("Sheet1", 2, 4, 10, 1)


# --------------------------------------------------------------------------- orders


def test_orders_go_on_a_new_sheet_and_the_log_replays_them(tmp_path: Path) -> None:
    excel = study()
    excel.script("write_orders")
    sheets = [s["name"] for s in excel.payload["sheets"]]
    assert sheets == ["Sheet1", "Orders", "Draw log"]
    assert excel.payload["book"]["active_sheet_index"] == 0
    table = excel.cells("Orders", 1, 1, 6, 5)
    assert table[0] == ["ID", 1, 2, 3, 4]
    want = [[p, *(TASKS[i] for i in REF["person_order"](4, 4, "study 2026", p))] for p in IDS]
    assert table[1:] == want
    (entry,) = excel.log()
    assert (entry["mode"], entry["range"], entry["new sheets"], entry["output"]) == (
        "orders",
        "A2:A5",
        "Orders",
        "A1:E6",
    )
    assert entry["options"] == "ids Sheet1!E2:E6"
    assert entry["formula"] == '=ORDERS(Sheet1!A2:A5, Sheet1!E2:E6, "study 2026", , FALSE)'
    assert call("ORDERS", column(TASKS), column(IDS), [["study 2026"]], None, [[False]]) == want
    assert entry["output sha256"] == sha256_of(table)
    items, ids = [[t] for t in TASKS], [[p] for p in IDS]
    run_logged(entry["command line"], tmp_path, **{"items.txt": items, "ids.txt": ids})
    assert read(tmp_path / "orders.csv") == texts(table)


def test_balanced_orders_with_k_and_an_address_match_the_command_line(tmp_path: Path) -> None:
    excel = study()
    excel.script("write_orders", "Sheet1!E2:E6", "3", True)
    table = excel.cells("Orders", 1, 1, 6, 4)
    design = REF["balanced_orders"](4, 5, 3, "study 2026")
    assert table[1:] == [[p, *(TASKS[i] for i in row)] for p, row in zip(IDS, design, strict=True)]
    (entry,) = excel.log()
    assert entry["k"] == "3" and entry["options"] == "ids Sheet1!E2:E6, balanced"
    assert "-k 3 --balanced" in entry["command line"]
    items, ids = [[t] for t in TASKS], [[p] for p in IDS]
    run_logged(entry["command line"], tmp_path, **{"items.txt": items, "ids.txt": ids})
    assert read(tmp_path / "orders.csv") == texts(table)


def test_a_second_orders_sheet_is_numbered_and_restore_deletes_the_newest() -> None:
    excel = study()
    excel.script("write_orders")
    excel.script("write_orders", "E2:E6")
    assert [s["name"] for s in excel.payload["sheets"]] == [
        "Sheet1",
        "Orders",
        "Draw log",
        "Orders 2",
    ]
    assert excel.cells("Orders 2", 1, 1, 6, 5) == excel.cells("Orders", 1, 1, 6, 5)
    excel.script("restore_last_draw")
    assert [s["name"] for s in excel.payload["sheets"]] == ["Sheet1", "Orders", "Draw log"]
    first, second = excel.log()
    assert second["restored (UTC)"] and not first["restored (UTC)"]
    excel.script("restore_last_draw")
    assert [s["name"] for s in excel.payload["sheets"]] == ["Sheet1", "Draw log"]


def test_restore_keeps_an_orders_sheet_that_was_edited() -> None:
    excel = study()
    excel.script("write_orders")
    excel.put("Orders", 2, 2, "edited")
    with pytest.raises(xw.XlwingsError, match="Orders!A1:E6 changed since the draw"):
        excel.script("restore_last_draw")
    assert "Orders" in [s["name"] for s in excel.payload["sheets"]]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("NOPE",), "ids: no name or range 'NOPE': define the name IDS for the IDs' cells"),
        (("E2:E6", "9"), "k must be at most 4"),
        (("E2:E6", "", "maybe"), "balanced must be TRUE or FALSE"),
        (("F2:F3",), "ids has only empty cells"),
    ],
)
def test_orders_refusals_write_nothing(args: tuple[Any, ...], words: str) -> None:
    excel = study()
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("write_orders", *args)
    message = one_line(str(info.value))
    assert message.startswith("write orders: ") and words in message, message
    assert excel.payload == before


# --------------------------------------------------------------------------- allocation


def test_an_allocation_list_and_its_codes_go_on_new_sheets(tmp_path: Path) -> None:
    excel = seeded(Excel([["Trial"]], None), "trial 7")
    excel.script("write_allocation_list", *ARGS)
    assert [s["name"] for s in excel.payload["sheets"]] == [
        "Sheet1",
        "Allocation",
        "Allocation codes",
        "Draw log",
    ]
    strata = [("site", ["North", "South"]), ("sex", ["F", "M"])]
    ref = REF["allocation_list"]("trial 7", ["Drug", "Placebo"], [2, 1], 4, [3, 6], strata)
    n = len(ref)
    listed = excel.cells("Allocation", 1, 1, n + 1, 6)
    assert listed[0] == ["Seq", "site", "sex", "Block", "BlockSize", "Arm"]
    assert listed[1:] == [[seq, *combo, b, s, arm] for seq, combo, b, s, arm, _ in ref]
    codes = excel.cells("Allocation codes", 1, 1, n + 1, 4)
    assert codes[0] == ["Seq", "site", "sex", "Code"]
    assert codes[1:] == [[seq, *combo, code] for seq, combo, _, _, _, code in ref]
    (entry,) = excel.log()
    assert (entry["mode"], entry["k"], entry["seed"]) == ("allocation", "4", "trial 7")
    assert entry["new sheets"] == "Allocation / Allocation codes"
    assert entry["output"] == f"A1:F{n + 1}" and entry["output sha256"] == sha256_of(listed)
    assert entry["formula"] == (
        '=ALLOCATE("Drug,Placebo", 4, "trial 7", "2:1", "3,6", "site=North,South;sex=F,M")'
    )
    got = call(
        "ALLOCATE",
        [["Drug,Placebo"]],
        [[4]],
        [["trial 7"]],
        [["2:1"]],
        [["3,6"]],
        [["site=North,South;sex=F,M"]],
    )
    assert got == listed[1:]
    run_logged(entry["command line"], tmp_path)
    assert read(tmp_path / "list.csv") == texts(listed)
    assert read(tmp_path / "codes.csv") == texts(codes)


def test_defaults_are_written_out_in_the_command_line(tmp_path: Path) -> None:
    excel = seeded(Excel([["Trial"]], None), 42)
    excel.script("write_allocation_list", "A,B,C", 5)
    (entry,) = excel.log()
    assert entry["command line"] == (
        "xlshuffle allocate --arms A,B,C --ratio 1:1:1 --n 5 --block-sizes 6,12 --seed 42 "
        "-o list.csv --codes-only codes.csv"
    )
    assert entry["formula"] == '=ALLOCATE("A,B,C", 5, "42")'
    run_logged(entry["command line"], tmp_path)
    rows = read(tmp_path / "list.csv")
    assert excel.cells("Allocation", 1, 1, len(rows), 4) == [
        rows[0],
        *([int(a), int(b), int(c), d] for a, b, c, d in rows[1:]),
    ]


def test_restore_deletes_both_allocation_sheets() -> None:
    excel = seeded(Excel([["Trial"]], "A1"), "trial 7")
    excel.script("write_allocation_list", *ARGS)
    excel.script("restore_last_draw")
    assert [s["name"] for s in excel.payload["sheets"]] == ["Sheet1", "Draw log"]
    assert excel.log()[0]["restored (UTC)"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("A,B", 4, "", "", "site"), "strata: the stratum 'site' has no values"),
        (("A,B", 4, "", "", "site=N;site=S"), "the stratum 'site' is given twice"),
        (("A,B", 4, "2:1", "4"), "not a multiple of 3"),
        (("A", 4), "at least two arms"),
        (("A,B", 0), "n must be 1 or more"),
    ],
)
def test_allocation_refusals_write_nothing(args: tuple[Any, ...], words: str) -> None:
    excel = seeded(Excel([["Trial"]], None), "trial 7")
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("write_allocation_list", *args)
    message = one_line(str(info.value))
    assert message.startswith("write allocation list: ") and words in message, message
    assert excel.payload == before


def test_restore_deletes_only_the_sheets_the_draw_added() -> None:
    excel = seeded(Excel([["Trial"]], "A1"), "trial 7")
    excel.script("write_allocation_list", *ARGS)
    excel.put("Allocation codes", 2, 6, "enrolled")  # a note beside the codes
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("restore_last_draw")
    assert "the sheet 'Allocation codes' holds more than the draw at" in one_line(str(info.value))
    excel.put("Allocation codes", 2, 6, "")
    excel.sheet("Allocation codes")["values"] = [
        row[:4] for row in excel.sheet("Allocation codes")["values"]
    ]
    log = excel.sheet("Draw log")["values"]
    log[1][19] = "Allocation / Sheet1"  # a crafted row: restore would delete Sheet1
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("restore_last_draw")
    assert "cannot have added the sheet 'Sheet1'" in one_line(str(info.value))
    assert excel.payload == before
    log[1][19] = "Allocation / Allocation codes"
    excel.script("restore_last_draw")
    assert [s["name"] for s in excel.payload["sheets"]] == ["Sheet1", "Draw log"]
