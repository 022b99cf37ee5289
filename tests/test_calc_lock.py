"""Draw and lock in a real LibreOffice Calc: the extension's menu commands, dispatched.

One headless LibreOffice per module (:class:`calc_office.Office`: the extension built by
``xlshuffle extension calc`` and installed in a profile of its own). Each test opens a
workbook written by openpyxl, selects cells and dispatches the menu's command URLs
(``org.xlshuffle.calc.lock:NAME``) through LibreOffice's ``DispatchHelper``, as the menu
does, with the options as arguments (tests/calc_driver.py's ``lock`` request).

What Calc writes is held to Excel's path for the same workbook and seed: the same
commands through xlwings' own script machinery on a real Office.js ``xw.Book``
(tests/excel_book.py), cell for cell and log row for log row. The workbook Calc saves as
``.xlsx`` keeps its ``Draw log``, whose command lines, run on the workbook as it was before
the draw, draw the same values and write records that ``xlshuffle verify`` accepts, and
whose rows the browser verifier (verifier/index.html, in Chromium) checks against that
saved workbook; the values are also the worksheet functions' (:mod:`xlshuffle.functions`).
Skipped with a note where LibreOffice, its SDK or its Python bridge (or Chromium, for the
verifier page) is missing (CI requires them: ``calc``, ``chromium``).
"""

from __future__ import annotations

import csv
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from browser_pages import FILES_JS, chromium_browser, files_arg, opened  # noqa: F401
from calc_office import Office, started
from excel_book import LOG_HEADER, Excel, canonical, sheet_payload
from excel_calls import texts
from xlshuffle import functions
from xlshuffle.cli import main

from support import ROOT

pytestmark = pytest.mark.slow

SEED = "calc 2026"
BOOK = "Raffle 2026.xlsx"  # the name Excel's stand-in gives its workbook
HEADER = ["name", "n", "Tickets", "team"]
# Texts that Excel or Calc would read as something else if typed ("=1+1", "007"), an empty
# cell, numbers whole and not: Calc has no TRUE/FALSE of its own (TRUE is 1), so none here.
ENTRANTS: list[list[Any]] = [
    ["Ana", 1, 3, "F"],
    ["Ben", 2.5, 1, "M"],
    ["Cy", "x", 2, "F"],
    ["Di", 4, 0, "M"],
    ["Ed", "=1+1", 5, "F"],
    ["Flo", "007", 2, "M"],
    ["Gus", None, 1, "F"],
    ["Hal", -3, 4, "M"],
]
PRIZES: list[list[Any]] = [["Prize", "Count", "Reserves"], ["Mug", 2, 1], ["Bike", 1, 0]]
NAMES = [("SEED", "$Sheet1.$H$1")]
TIME = {LOG_HEADER.index("time (UTC)"), LOG_HEADER.index("restored (UTC)")}
EMPTY = ("e", "")


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    yield from started(tmp_path_factory)


def test_the_installed_extension_adds_the_menu_to_the_office(office: Office) -> None:
    menu = office.request({"menu": True})
    assert menu["title"] == "xlshuffle"
    assert [url.rpartition(":")[2] for url, _ in menu["items"]][:3] == [
        "shuffle_rows",
        "draw_winners",
        "draw_raffle",
    ]
    assert "org.xlshuffle.calc.lock:restore_last_draw" in [url for url, _ in menu["items"]]


def sheet1() -> list[list[Any]]:
    """The entrants under their header, the seed in H1."""
    grid = [[*HEADER, None, None, None, SEED], *(list(r) for r in ENTRANTS)]
    return grid


def save(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    """The workbook as saved before any draw, written by openpyxl; texts stay texts."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, grid in sheets.items():
        sheet = book.create_sheet(name)
        for r, row in enumerate(grid, 1):
            for c, value in enumerate(row, 1):
                if value is not None:
                    cell = sheet.cell(r, c, value)
                    if isinstance(value, str):
                        cell.data_type = "s"  # "=1+1" is a text, not a formula
    book.save(path)
    return path


def excel_for(sheets: dict[str, list[list[Any]]], names: list[tuple[str, str]]) -> Excel:
    """Excel's stand-in holding the same workbook and names."""
    (first, grid), *others = sheets.items()
    excel = Excel([["" if v is None else v for v in row] for row in grid], None, first)
    for name, content in names:
        excel.name(name, content.rpartition(".")[2].replace("$", ""))
    for name, grid in others:
        excel.payload["sheets"].append(sheet_payload(name, [list(r) for r in grid]))
    return excel


def trimmed(grid: list[list[Any]]) -> list[list[tuple[str, str]]]:
    """A sheet's cells as their kind and text (a number ``n``, a text ``s``, empty ``e``:
    docs/excel.md's input hash), the empty rows and columns at its end dropped."""
    rows = [[canonical(v) for v in row] for row in grid]
    while rows and all(v == EMPTY for v in rows[-1]):
        rows.pop()
    width = max(
        (max((i + 1 for i, v in enumerate(r) if v != EMPTY), default=0) for r in rows), default=0
    )
    return [r[:width] + [EMPTY] * (width - len(r)) for r in rows]


def log_rows(grid: list[list[Any]]) -> list[list[str]]:
    """The log's rows after its header, every cell a text, the times left out (they
    differ by the run)."""
    rows = trimmed(grid)
    assert [text for _, text in rows[0][: len(LOG_HEADER)]] == LOG_HEADER
    assert all(kind in "se" for row in rows for kind, _ in row)
    return [[text for i, (_, text) in enumerate(row) if i not in TIME] for row in rows[1:]]


Step = tuple[str, str, dict[str, Any]]  # (command, selection, options in the field order)

STUDY = [["Task", None, None, None, "ID", None, None, SEED]]
STUDY += [
    [t, None, None, None, i]
    for t, i in zip(["Maze", "Stroop", "N-back", "Flanker"], ["P01", "P02", 42, "Zoë"], strict=True)
]
STUDY.append([None, None, None, None, "P05"])

CASES: dict[str, tuple[list[Step], dict[str, list[list[Any]]], list[tuple[str, str]]]] = {
    "shuffle": ([("shuffle_rows", "A2:D9", {})], {"Sheet1": sheet1()}, NAMES),
    "winners": ([("draw_winners", "A2:D9", {"k": 3})], {"Sheet1": sheet1()}, NAMES),
    "raffle": (
        [("draw_raffle", "A2:D9", {"k": 2, "reserves": 2, "tickets": "Tickets"})],
        {"Sheet1": sheet1()},
        NAMES,
    ),
    "deal": ([("deal_cards", "C2:D9", {"cards": 2, "hands": 3})], {"Sheet1": sheet1()}, NAMES),
    "groups": ([("assign_groups", "A2:D9", {"k": 3})], {"Sheet1": sheet1()}, NAMES),
    "teams": (
        [("assign_balanced_teams", "A2:D9", {"k": 2, "balance": "team"})],
        {"Sheet1": sheet1()},
        NAMES,
    ),
    "prizes": (
        [("draw_prizes", "A2:D9", {"prizes": "Prizes", "tickets": "Tickets", "ids": ""})],
        {"Sheet1": sheet1(), "Prizes": PRIZES},
        NAMES,
    ),
    "orders": (
        [("write_orders", "A2:A5", {"ids": "IDS", "k": "", "balanced": "TRUE"})],
        {"Sheet1": STUDY},
        [*NAMES, ("IDS", "$Sheet1.$E$2:$E$6")],
    ),
    "allocation": (
        [
            (
                "write_allocation_list",
                "A1",
                {
                    "arms": "Drug,Placebo",
                    "n": 4,
                    "ratio": "2:1",
                    "block_sizes": "3,6",
                    "strata": "site=North,South",
                },
            )
        ],
        {"Sheet1": sheet1()},
        NAMES,
    ),
    "shuffle, winners, restore twice": (
        [
            ("shuffle_rows", "A2:D9", {}),
            ("draw_winners", "A2:D9", {"k": 2}),
            ("restore_last_draw", "A1", {}),
            ("restore_last_draw", "A1", {}),
        ],
        {"Sheet1": sheet1()},
        NAMES,
    ),
    "orders restored": (
        [
            ("write_orders", "A2:A5", {"ids": "IDS", "k": 2, "balanced": "FALSE"}),
            ("restore_last_draw", "A1", {}),
        ],
        {"Sheet1": STUDY},
        [*NAMES, ("IDS", "$Sheet1.$E$2:$E$6")],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_every_command_writes_in_calc_what_it_writes_in_excel(
    office: Office, tmp_path: Path, case: str
) -> None:
    steps, sheets, names = CASES[case]
    calc = office.lock(
        save(tmp_path / BOOK, sheets),
        [{"select": at, "command": name, "args": args} for name, at, args in steps],
        names=tuple(names),
    )
    excel = excel_for(sheets, names)
    for name, at, args in steps:
        excel.select(at)
        excel.script(name, *args.values())
    assert [r["state"] for r in calc["results"]] == [1] * len(steps), calc["results"]
    assert calc["names"] == [s["name"] for s in excel.payload["sheets"]]
    for name in calc["names"]:
        got, want = calc["sheets"][name], excel.sheet(name)["values"]
        if name == "Draw log":
            assert log_rows(got) == log_rows(want)
        else:
            assert trimmed(got) == trimmed(want), name
    assert calc.get("log format", "@") == "@"


def test_the_locked_values_are_the_worksheet_functions_for_the_seed(
    office: Office, tmp_path: Path
) -> None:
    calc = office.lock(
        save(tmp_path / BOOK, {"Sheet1": sheet1()}),
        [
            {"select": "A2:D9", "command": "draw_winners", "args": {"k": 3}},
            {"select": "A2:D9", "command": "shuffle_rows", "args": {}},
        ],
        names=tuple(NAMES),
    )
    grid = calc["sheets"]["Sheet1"]
    rows = [[None if v == "" else v for v in row[:4]] for row in grid[1:9]]
    assert texts([row[4:8] for row in grid[1:4]]) == texts(functions.SAMPLE(ENTRANTS, 3, SEED))
    assert texts(rows) == texts(functions.SHUFFLE(ENTRANTS, SEED))


def test_the_saved_log_replays_on_the_command_line_and_its_records_verify(
    office: Office, tmp_path: Path
) -> None:
    """The workbook saved as .xlsx keeps the log; each logged command line, run on the
    workbook as it was before the draws, draws what Calc locked; its record verifies."""
    before = save(tmp_path / BOOK, {"Sheet1": sheet1()})
    locked = tmp_path / "locked.xlsx"
    calc = office.lock(
        before,
        [
            {"select": "A2:D9", "command": "draw_raffle", "args": {"k": 2, "reserves": 1}},
            {"select": "A2:D9", "command": "shuffle_rows", "args": {}},
        ],
        names=tuple(NAMES),
        save=locked,
    )
    assert [r["state"] for r in calc["results"]] == [1, 1]
    saved = openpyxl.load_workbook(locked)
    log = [list(r) for r in saved["Draw log"].iter_rows(values_only=True)]
    assert all(isinstance(v, str) for row in log for v in row if v is not None)
    assert log_rows(log) == log_rows(calc["sheets"]["Draw log"])
    entries = [dict(zip(LOG_HEADER, row, strict=False)) for row in log[1:]]
    values = [list(r) for r in saved["Sheet1"].iter_rows(values_only=True)]

    raffle, shuffle = entries
    argv = shlex.split(raffle["command line"])
    assert argv[:3] == ["xlshuffle", "sample", BOOK]
    out, record = tmp_path / "winners.csv", tmp_path / "raffle.json"
    assert main([argv[1], str(before), *argv[3:], "-o", str(out), "--record", str(record)]) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        drawn = list(csv.reader(fh))
    assert drawn[0] == ["A", "B", "C", "D", "Role", "Rank"]
    assert drawn[1:] == texts([row[4:10] for row in values[1:4]])
    assert main(["verify", str(record), "--input", str(before), "--output", str(out)]) == 0

    argv = shlex.split(shuffle["command line"])
    assert argv[:3] == ["xlshuffle", "shuffle", BOOK]
    out, record = tmp_path / "shuffled.xlsx", tmp_path / "shuffle.json"
    assert main([argv[1], str(before), *argv[3:], "-o", str(out), "--record", str(record)]) == 0
    replayed = [list(r) for r in openpyxl.load_workbook(out).active.iter_rows(values_only=True)]
    assert texts([r[:4] for r in replayed[1:9]]) == texts([r[:4] for r in values[1:9]])
    assert main(["verify", str(record), "--input", str(before), "--output", str(out)]) == 0


LOGGED = {
    "shuffle": ("shuffle_rows", "A2:D9", {}),
    "winners": ("draw_winners", "A2:D9", {"k": 3}),
    "raffle": ("draw_raffle", "A2:D9", {"k": 2, "reserves": 2, "tickets": "Tickets"}),
    "groups": ("assign_groups", "A2:D9", {"k": 3}),
    "deal": ("deal_cards", "C2:D9", {"cards": 2, "hands": 3}),
    "teams": ("assign_balanced_teams", "A2:D9", {"k": 2, "balance": "team"}),
}


@pytest.mark.parametrize("mode", LOGGED)
def test_the_browser_verifier_checks_the_log_row_against_the_saved_workbook(
    office: Office, chromium: Any, tmp_path: Path, mode: str
) -> None:
    """The Draw log row, pasted into the verifier page (verifier/index.html) with the
    workbook Calc saved as .xlsx after the draw, is verified; with a locked cell edited
    afterwards, it is not."""
    name, at, args = LOGGED[mode]
    locked = tmp_path / "locked.xlsx"
    calc = office.lock(
        save(tmp_path / BOOK, {"Sheet1": sheet1()}),
        [{"select": at, "command": name, "args": args}],
        names=tuple(NAMES),
        save=locked,
    )
    assert calc["results"][0]["state"] == 1, calc["results"]
    saved = openpyxl.load_workbook(locked)
    header, row = ([v or "" for v in r] for r in saved["Draw log"].iter_rows(values_only=True))
    text = "\n".join("\t".join(r) for r in (header, row)) + "\n"
    with opened(chromium, ROOT / "verifier" / "index.html", "() => window.xlshuffleVerify") as page:
        verdict = page_verify(page, text, locked)
        assert verdict["verified"], verdict["message"]
        assert verdict["message"].startswith("Verified: Draw log row of ")
        output = saved["Sheet1"][row[LOG_HEADER.index("output")].split(":")[0]]
        output.value = "edited"
        saved.save(locked)
        verdict = page_verify(page, text, locked)
        assert not verdict["verified"] and verdict["supported"], verdict["message"]


def page_verify(page: Any, record: str, book: Path) -> dict[str, Any]:
    """window.xlshuffleVerify with the record's text and the workbook as a File."""
    result: dict[str, Any] = page.evaluate(
        f"async (a) => window.xlshuffleVerify({{record: a.record, files: {FILES_JS}}})",
        {"record": record, "files": files_arg([book])},
    )
    return result


BAD = [
    ("shuffle_rows", "A2:A4,C2:C4", {}, "shuffle rows: select one block of cells first"),
    ("draw_winners", "A2:D9", {"k": 9}, "cannot draw 9 winners from 8 rows"),
    ("draw_winners", "A2:D9", {"k": 1, "seed": 3}, "draw_winners has no option 'seed'"),
    ("draw_raffle", "A2:D9", {"tickets": "Lots"}, "no selected column is headed 'Lots'"),
    ("draw_winners", "A1:B9", {"k": 2}, "right of the selection are not empty"),
    ("restore_last_draw", "A1", {}, "no draw to restore"),
    ("write_seed", "A1:B2", {}, "select one cell for the seed, not A1:B2"),
    ("draw_the_moon", "A1", {}, "no command 'draw_the_moon'"),
]


def test_every_mistake_is_one_line_and_writes_nothing(office: Office, tmp_path: Path) -> None:
    calc = office.lock(
        save(tmp_path / BOOK, {"Sheet1": sheet1()}),
        [{"select": at, "command": name, "args": args} for name, at, args, _ in BAD],
        names=tuple(NAMES),
    )
    for result, (*_, expected) in zip(calc["results"], BAD, strict=True):
        assert result["state"] == 0 and expected in result["line"], result
        assert "\n" not in result["line"] and "Traceback" not in result["line"]
    assert calc["names"] == ["Sheet1"]
    assert trimmed(calc["sheets"]["Sheet1"]) == trimmed(sheet1())


def test_from_the_menu_a_command_asks_first_and_cancelled_writes_nothing(
    office: Office, tmp_path: Path
) -> None:
    """Dispatched as the menu does (no options), a command with options opens its dialog,
    which headless LibreOffice cancels at once; one without options runs, and its message
    box is dismissed the same way."""
    calc = office.lock(
        save(tmp_path / BOOK, {"Sheet1": sheet1()}),
        [
            {"select": "A2:D9", "command": "draw_raffle", "args": None},
            {"select": "A2:D9", "command": "shuffle_rows", "args": None},
        ],
        names=tuple(NAMES),
    )
    cancelled, shuffled = calc["results"]
    assert cancelled == {"state": 0, "line": "cancelled: nothing was drawn"}
    assert shuffled["state"] == 1 and shuffled["line"].startswith("shuffle of Sheet1!A2:D9")
    (entry,) = log_rows(calc["sheets"]["Draw log"])
    assert entry[LOG_HEADER.index("mode") - 1] == "shuffle"


def test_write_seed_writes_a_fresh_text_seed(office: Office, tmp_path: Path) -> None:
    calc = office.lock(
        save(tmp_path / BOOK, {"Sheet1": [["list"], ["a"], ["b"]]}),
        [{"select": "C1", "command": "write_seed", "args": {}}] * 2,
    )
    first, second = (r["line"].split()[3] for r in calc["results"])
    assert first != second and len(second) == 26
    assert calc["sheets"]["Sheet1"][0][2] == second


def test_commit_then_draw_the_committed_draw(office: Office, tmp_path: Path) -> None:
    """Commit to the list, then draw with the revealed value: the seed is the commitment
    hash's and the value's (section 17), the winners SAMPLE's for that seed."""
    calc = office.lock(
        save(tmp_path / BOOK, {"Sheet1": sheet1()}),
        [
            {
                "select": "A2:D9",
                "command": "commit_selection",
                "args": {"draw": "sample", "k": 2, "beacon": "the 6 pm lottery"},
            },
            {"select": "A1", "command": "draw_committed", "args": {"reveal": "7 12 31"}},
            {"select": "A1", "command": "draw_committed", "args": {"reveal": "7 12 31"}},
        ],
    )
    committed, drawn, again = calc["results"]
    assert committed["state"] == 1 and "publish this commitment hash now: " in committed["line"]
    digest = committed["line"].rpartition(" ")[2]
    assert drawn["state"] == 1
    assert again["state"] == 0 and "is drawn already" in again["line"]
    commit_row, draw_row = (
        dict(zip(LOG_HEADER, row, strict=False)) for row in calc["sheets"]["Draw log"][1:3]
    )
    assert (commit_row["mode"], draw_row["mode"]) == ("commit", "winners")
    assert calc["sheets"]["Draw log"][1][len(LOG_HEADER)] == digest
    grid = calc["sheets"]["Sheet1"]
    want = functions.SAMPLE(ENTRANTS, 2, draw_row["seed"])
    assert texts([row[4:8] for row in grid[1:3]]) == texts(want)
