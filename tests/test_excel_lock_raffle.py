"""Draw and lock a raffle: ``draw_raffle`` through xlwings' own script machinery.

The workbook stand-in, the hash oracle and the Windows-sub runner are
:mod:`test_excel_lock`'s (a real Office.js ``xw.Book``; the stand-in only applies the
actions Excel would). Expected winners come from ``tools/make_vectors.py`` (which never
imports xlshuffle), from the logged formula evaluated by the worksheet function, and from
the logged command line run on the workbook as saved.
"""

from __future__ import annotations

import copy
import csv
import shlex
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlwings as xw

from excel_book import LOG_HEADER, Excel, one_line, sha256_of
from excel_calls import call, texts
from protocol_references import MV, tenths
from xlshuffle import PROTOCOL
from xlshuffle.cli import main

HEADER = ["Name", "Email", "Tickets", "Team"]
ENTRANTS: list[list[Any]] = [
    ["Ada", "ada@example.com", 5, "red"],
    ["Ben", "ben@example.com", 1, "blue"],
    ["Chen", "chen@example.com", 3, "red"],
    ["Dara", "dara@example.com", 0, "blue"],
    ["Eli", "eli@example.com", 2.5, "red"],
    ["Fay", "fay@example.com", 4, "blue"],
    ["Gus", "gus@example.com", 1, "red"],
    ["Hana", "hana@example.com", 6, "blue"],
]
SEED = "2026 spring raffle"


def raffle(selection: str = "A2:D9", seed: object = SEED) -> Excel:
    """The entrants under their header in A1:D9, a SEED cell in H1, ``selection`` selected."""
    excel = Excel([HEADER, *ENTRANTS], selection)
    if seed is not None:
        excel.put("Sheet1", 1, 8, seed)
        excel.name("SEED", "H1")
    return excel


def expected(k: int, reserves: int, weighted: bool = True) -> list[list[Any]]:
    """The protocol's draw (sections 5, 8 and 9) by the independent oracle."""
    if weighted:
        drawn = MV.weighted(tenths([r[2] for r in ENTRANTS]), k + reserves, MV.words(SEED))
    else:
        drawn = MV.deal(list(range(len(ENTRANTS))), k + reserves, SEED)
    if not reserves:
        return [ENTRANTS[i] for i in drawn]
    return [
        [*ENTRANTS[i], "winner" if p < k else "reserve", p + 1 if p < k else p + 1 - k]
        for p, i in enumerate(drawn)
    ]


def test_a_raffle_is_written_right_of_the_selection_and_logged_to_replay() -> None:
    excel = raffle()
    excel.script("draw_raffle", 3, 2, "Tickets")
    written = excel.cells("Sheet1", 2, 5, 5, 6)
    assert written == expected(3, 2)
    assert excel.cells("Sheet1", 7, 5, 1, 6) == [[None] * 6]  # nothing below the reserves
    assert excel.cells("Sheet1", 1, 1, 9, 4) == [HEADER, *ENTRANTS]  # the list untouched
    (entry,) = excel.log()
    assert (entry["mode"], entry["k"], entry["reserves"], entry["method"]) == (
        "raffle",
        "3",
        "2",
        "weighted",
    )
    assert (entry["range"], entry["tickets"], entry["output"]) == ("A2:D9", "C2:C9", "E2:J6")
    assert (entry["seed"], entry["seed from"], entry["protocol"]) == (
        SEED,
        "SEED cell Sheet1!H1",
        PROTOCOL,
    )
    assert entry["input sha256"] == sha256_of(ENTRANTS)
    assert entry["output sha256"] == sha256_of(written)
    assert entry["formula"] == f'=SAMPLE(Sheet1!A2:D9, 3, "{SEED}", Sheet1!C2:C9, 2)'
    # The logged formula, evaluated by the worksheet function, gives what was locked.
    tickets = [[r[2]] for r in ENTRANTS]
    assert call("SAMPLE", ENTRANTS, [[3]], [[SEED]], tickets, [[2]], None, None) == written


def test_the_logged_command_line_draws_the_same_from_the_saved_workbook(
    tmp_path: Path,
) -> None:
    excel = raffle("B2:D9")  # the tickets are column C of the sheet: --weights C
    excel.script("draw_raffle", 2, 1, "tickets")
    (entry,) = excel.log()
    argv = shlex.split(entry["command line"])
    assert argv[:3] == ["xlshuffle", "sample", "Raffle 2026.xlsx"]
    options = ["--sheet", "Sheet1", "--range", "B2:D9", "--no-header", "-k", "2"]
    options += ["--weights", "C", "--reserves", "1", "--seed", SEED]
    assert argv[3:] == options
    # the workbook as saved before the draw, written by openpyxl (not by xlshuffle)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    for row in [HEADER, *ENTRANTS]:
        sheet.append(row)
    book.save(tmp_path / argv[2])
    out = tmp_path / "out.csv"
    assert main([argv[1], str(tmp_path / argv[2]), *argv[3:], "-o", str(out)]) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        drawn = list(csv.reader(fh))
    assert drawn[0] == ["B", "C", "D", "Role", "Rank"]  # no header row: the sheet's letters
    assert drawn[1:] == texts(excel.cells("Sheet1", 2, 5, 3, 5))


def test_without_tickets_every_row_has_one_and_the_draw_is_the_plain_sample() -> None:
    excel = raffle()
    excel.script("draw_raffle", 2, 1, "")
    assert excel.cells("Sheet1", 2, 5, 3, 6) == expected(2, 1, weighted=False)
    (entry,) = excel.log()
    assert (entry["method"], entry["tickets"]) == ("random", "")
    assert entry["formula"] == f'=SAMPLE(Sheet1!A2:D9, 2, "{SEED}", , 1)'
    assert "--weights" not in entry["command line"]
    got = call("SAMPLE", ENTRANTS, [[2]], [[SEED]], None, [[1]], None, None)
    assert got == excel.cells("Sheet1", 2, 5, 3, 6)


def test_no_reserves_writes_the_winners_alone_as_sample_does() -> None:
    excel = raffle()
    excel.script("draw_raffle", 3, 0, "c")  # the column letter, any case
    assert excel.cells("Sheet1", 2, 5, 3, 4) == expected(3, 0)
    assert excel.cells("Sheet1", 2, 9, 3, 1) == [[None]] * 3  # no Role, no Rank
    (entry,) = excel.log()
    assert (entry["reserves"], entry["tickets"]) == ("0", "C2:C9")


def test_restore_clears_the_raffle_and_marks_the_log() -> None:
    excel = raffle()
    excel.script("draw_raffle", 3, 2)  # the defaults: the column headed Tickets
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 5, 5, 6) == [[None] * 6] * 5
    (entry,) = excel.log()
    assert entry["restored (UTC)"]
    excel.script("draw_raffle", 3, 2)  # the cells are free again: the same seed, same draw
    assert excel.cells("Sheet1", 2, 5, 5, 6) == expected(3, 2)


def test_a_log_from_before_the_raffle_gets_the_new_columns_and_still_restores() -> None:
    excel = raffle()
    excel.script("draw_winners", 2)
    for row in excel.sheet("Draw log")["values"]:
        del row[16:]  # the log as written before the raffle's three columns were added
    excel.script("restore_last_draw")  # an old row restores as before
    assert excel.cells("Sheet1", 2, 5, 2, 4) == [[None] * 4] * 2
    excel.script("draw_raffle", 3, 2, "Tickets")
    assert excel.sheet("Draw log")["values"][0][:21] == LOG_HEADER
    first, second = excel.log()
    assert first["mode"] == "winners" and first["restored (UTC)"]
    assert (second["mode"], second["tickets"], second["reserves"]) == ("raffle", "C2:C9", "2")
    assert excel.formats[("Draw log", 0, 16)] == "@"  # the added header cells are text too
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 5, 5, 6) == [[None] * 6] * 5


def test_the_windows_sub_writes_what_the_script_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    by_script, by_sub = raffle(), raffle()
    by_script.script("draw_raffle", 2, 2, "Tickets")
    by_sub.sub(monkeypatch, "draw_raffle", 2, 2, "Tickets")
    assert by_sub.alerts == []
    assert by_sub.cells("Sheet1", 2, 5, 4, 6) == by_script.cells("Sheet1", 2, 5, 4, 6)
    assert by_sub.cells("Sheet1", 2, 5, 4, 6) == expected(2, 2)


BAD = [
    ((3, 2, "Prize"), "A2:D9", "tickets: no selected column is headed 'Prize' (the row above"),
    ((3, 2, "F"), "A2:D9", "tickets: column F is not in the selection A2:D9"),
    ((3, 2, "Tickets"), "A1:D9", "tickets: no selected column is headed 'Tickets'"),
    ((7, 1, "Tickets"), "A2:D9", "cannot draw 8 winners: only 7 entrants have tickets"),
    ((8, 1, ""), "A2:D9", "cannot draw 8 + 1 reserves from 8 rows: ask for fewer"),
    ((0, 1, ""), "A2:D9", "k must be 1 or more"),
    ((2, -1, ""), "A2:D9", "reserves must be 0 or more, not -1"),
    ((2, "two", ""), "A2:D9", "reserves must be a whole number of 0 or more"),
    ((2, 1, ""), "A2:D2", "has 1 row: select at least 2 rows"),
]


@pytest.mark.parametrize(("args", "selection", "expected_text"), BAD)
def test_mistakes_write_nothing_and_say_what_to_change(
    args: tuple[Any, ...], selection: str, expected_text: str
) -> None:
    excel = raffle(selection)
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_raffle", *args)
    message = one_line(str(info.value))
    assert message.startswith("draw raffle: ")
    assert expected_text in message
    assert excel.payload == before


def test_an_unreadable_ticket_is_named_by_its_cell() -> None:
    excel = raffle()
    excel.put("Sheet1", 4, 3, "three")  # C4
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_raffle", 2, 0, "Tickets")
    assert one_line(str(info.value)) == (
        "draw raffle: the tickets cell C4: the weight 'three' is not a number: write a "
        "number of tickets such as 3 or 2.5"
    )
    excel.put("Sheet1", 4, 3, -1)
    with pytest.raises(
        xw.XlwingsError, match=r"the tickets cell C4: the weight cannot be negative"
    ):
        excel.script("draw_raffle", 2, 0, "Tickets")


def test_two_columns_with_the_tickets_header_are_refused() -> None:
    excel = Excel([["Name", "Tickets", "tickets"], ["a", 1, 2], ["b", 3, 4]], "A2:C3")
    with pytest.raises(xw.XlwingsError, match="2 selected columns are headed 'Tickets' in row 1"):
        excel.script("draw_raffle", 1, 0, "Tickets")


def test_the_sheet_name_is_quoted_in_the_logged_formula() -> None:
    excel = Excel([HEADER, *ENTRANTS], "A2:D9", sheet="Spring raffle")
    excel.put("Spring raffle", 1, 8, SEED)
    excel.name("SEED", "H1")
    excel.script("draw_raffle", 1, 1, "Tickets")
    (entry,) = excel.log()
    assert entry["formula"] == (
        f"=SAMPLE('Spring raffle'!A2:D9, 1, \"{SEED}\", 'Spring raffle'!C2:C9, 1)"
    )
