"""Draw and lock a ticket draw: ``draw_tickets`` through xlwings' own script machinery.

The workbook stand-in is :mod:`excel_book`'s (a real Office.js ``xw.Book``; the stand-in
only applies the actions Excel would). The expected rows come from the protocol's
reference code (``docs/draw-protocol.md``, section 18), from the logged formula evaluated
by the worksheet function, and from the logged command line run on the workbook as
saved, whose record ``xlshuffle verify`` accepts.
"""

from __future__ import annotations

import copy
import csv
import json
import shlex
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlwings as xw

from excel_book import Excel, one_line, sha256_of
from excel_calls import call, texts
from protocol_references import reference_namespace
from xlshuffle.cli import main

HEADER = ["Name", "Ballot", "Tickets", "County"]
ENTRANTS: list[list[Any]] = [
    ["Ada", "ADA-01", 5, "Adams"],
    ["Ben", " BAK-02", 1, "Baker"],
    ["Chen", "CLA-03", 3, "Clark"],
    ["Dara", "ADA-04", 0, "Adams"],
    ["Eli", 1005, 2, "Baker"],
    ["Fay", "CLA-06", 4, "Clark"],
    ["Gus", "ADA-07", 1, "Adams"],
    ["Hana", "BAK-08", 6, "Baker"],
]
SEED = "93841 20577 61092 44815"
REF = reference_namespace()


def book(selection: str = "A2:D9") -> Excel:
    """The entrants under their header in A1:D9, a SEED cell in H1, ``selection`` selected."""
    excel = Excel([HEADER, *ENTRANTS], selection)
    excel.put("Sheet1", 1, 8, SEED)
    excel.name("SEED", "H1")
    return excel


def expected(k: int, reserves: int, weighted: bool = False) -> list[list[Any]]:
    """Section 18's draw by the reference code: each row, Role and Rank, its ticket."""
    ids = [r[1] for r in ENTRANTS]
    counts = [r[2] for r in ENTRANTS] if weighted else None
    drawn = REF["ticket_draw"](SEED, ids, k=k, counts=counts, reserves=reserves)
    out = []
    for p, i in enumerate(drawn):
        number = range(counts[i]) if counts else [0]
        ticket = min(REF["ticket"](SEED, j, ids[i]) for j in number)
        role = ["winner", p + 1] if p < k else ["reserve", p + 1 - k]
        out.append([*ENTRANTS[i], *(role if reserves else []), ticket])
    return out


def test_a_ticket_draw_is_written_right_of_the_selection_and_logged() -> None:
    excel = book()
    excel.script("draw_tickets", 3, 2, "Ballot")
    written = excel.cells("Sheet1", 2, 5, 5, 7)
    assert written == expected(3, 2)
    assert excel.cells("Sheet1", 1, 1, 9, 4) == [HEADER, *ENTRANTS]  # the list untouched
    (entry,) = excel.log()
    assert (entry["mode"], entry["k"], entry["reserves"], entry["method"]) == (
        "tickets",
        "3",
        "2",
        "ticket",
    )
    assert (entry["range"], entry["options"], entry["output"]) == ("A2:D9", "ids B2:B9", "E2:K6")
    assert entry["input sha256"] == sha256_of(ENTRANTS)
    assert entry["output sha256"] == sha256_of(written)
    assert entry["formula"] == (
        f'=SAMPLE(Sheet1!A2:D9, 3, "{SEED}", , 2, , Sheet1!B2:B9, "ticket")'
    )
    # the logged formula, evaluated by the worksheet function, gives what was locked
    ids = [[r[1]] for r in ENTRANTS]
    got = call("SAMPLE", ENTRANTS, [[3]], [[SEED]], None, [[2]], None, ids, [["ticket"]])
    assert got == written


def test_weights_and_the_default_ids_column() -> None:
    excel = Excel([row[1:] for row in [HEADER, *ENTRANTS]], "A2:C9")  # IDs first
    excel.put("Sheet1", 1, 8, SEED)
    excel.name("SEED", "H1")
    excel.script("draw_tickets", 2, 0, "", "Tickets")
    want = [row[1:] for row in expected(2, 0, weighted=True)]
    assert excel.cells("Sheet1", 2, 4, 2, 4) == want
    (entry,) = excel.log()
    assert (entry["tickets"], entry["options"]) == ("B2:B9", "ids A2:A9")


def test_the_logged_command_line_draws_and_verifies_from_the_saved_workbook(
    tmp_path: Path,
) -> None:
    excel = book()
    excel.script("draw_tickets", 2, 1, "B", "Tickets")
    (entry,) = excel.log()
    argv = shlex.split(entry["command line"])
    assert argv[:3] == ["xlshuffle", "sample", "Raffle 2026.xlsx"]
    assert argv[3:] == [
        "--sheet",
        "Sheet1",
        "--range",
        "A2:D9",
        "--no-header",
        "-k",
        "2",
        "--weights",
        "C",
        "--reserves",
        "1",
        "--method",
        "ticket",
        "--id",
        "B",
        "--seed",
        SEED,
    ]
    saved = openpyxl.Workbook()  # the workbook as saved before the draw (not by xlshuffle)
    sheet = saved.active
    sheet.title = "Sheet1"
    for row in [HEADER, *ENTRANTS]:
        sheet.append(row)
    saved.save(tmp_path / argv[2])
    out, record = tmp_path / "out.csv", tmp_path / "r.json"
    src = tmp_path / argv[2]
    assert main([argv[1], str(src), *argv[3:], "-o", str(out), "--record", str(record)]) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        drawn = list(csv.reader(fh))
    assert drawn[0] == ["A", "B", "C", "D", "Role", "Rank", "Draw ticket"]
    assert drawn[1:] == texts(excel.cells("Sheet1", 2, 5, 3, 7))
    assert json.loads(record.read_text())["target"]["draw"]["method"] == "ticket"
    assert main(["verify", str(record), "--input", str(src), "--output", str(out)]) == 0


def test_restore_clears_the_draw_and_the_sub_writes_what_the_script_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    excel = book()
    excel.script("draw_tickets", 3, 1, "Ballot")
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 5, 4, 7) == [[None] * 7] * 4
    (entry,) = excel.log()
    assert entry["restored (UTC)"]
    by_sub = book()
    by_sub.sub(monkeypatch, "draw_tickets", 3, 1, "Ballot")
    assert by_sub.alerts == []
    assert by_sub.cells("Sheet1", 2, 5, 4, 7) == expected(3, 1)


BAD = [
    ((3, 0, "Voter"), "A2:D9", "ids: no selected column is headed 'Voter' (the row above"),
    ((3, 0, "F"), "A2:D9", "ids: column F is not in the selection A2:D9"),
    ((9, 0, "Ballot"), "A2:D9", "cannot draw 9 from 8 entrants: ask for fewer"),
]


@pytest.mark.parametrize(("args", "selection", "expected_text"), BAD)
def test_mistakes_write_nothing_and_say_what_to_change(
    args: tuple[Any, ...], selection: str, expected_text: str
) -> None:
    excel = book(selection)
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_tickets", *args)
    message = one_line(str(info.value))
    assert message.startswith("draw tickets: ")
    assert expected_text in message
    assert excel.payload == before


def test_a_blank_id_is_named_by_its_cell() -> None:
    excel = book()
    excel.put("Sheet1", 5, 2, "  ")  # B5
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_tickets", 2, 0, "Ballot")
    message = one_line(str(info.value))
    assert message.startswith("draw tickets: the ID cell B5: ")
