"""Draw and lock with a prize table: ``draw_prizes`` through xlwings' own script machinery
(a real Office.js ``xw.Book``; the stand-in of tests/excel_book.py only applies the actions
Excel would).

Expected winners come from ``tools/make_vectors.py`` (which never imports xlshuffle) and the
protocol's reference ``prize_places``; the logged command line, run on the workbook as saved
(written by openpyxl) with the prize sheet saved as CSV, draws the same rows and writes a
record that ``xlshuffle verify`` checks, and that takes rounds (``xlshuffle redraw``)."""

from __future__ import annotations

import copy
import csv
import shlex
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlwings as xw

from excel_book import Excel, one_line, sheet_payload
from excel_calls import texts
from protocol_references import MV, reference_namespace, tenths
from xlshuffle.cli import main

HEADER = ["ID", "Name", "Tickets"]
ENTRANTS: list[list[Any]] = [
    ["T-1", "Ada", 5],
    ["T-2", "Ben", 1],
    ["T-3", "Chen", 3],
    ["T-4", "Dara", 0],
    ["T-5", "Eli", 2.5],
    ["T-6", "Fay", 4],
    ["T-7", "Gus", 1],
    ["T-8", "Hana", 6],
]
TABLE: list[list[Any]] = [["Prize", "Count", "Reserves"], ["Mug", 2, 1], ["Bike", 1, 1]]
SEED = "2026 prize day"


def prize_day(table: list[list[Any]] = TABLE) -> Excel:
    """The entrants under their header in A1:C9, A2:C9 selected, a SEED cell in H1 and the
    prize table on the sheet Prizes."""
    excel = Excel([HEADER, *ENTRANTS], "A2:C9")
    excel.put("Sheet1", 1, 8, SEED)
    excel.name("SEED", "H1")
    excel.payload["sheets"].append(sheet_payload("Prizes", [list(r) for r in table]))
    return excel


def expected() -> list[list[Any]]:
    """Section 9 by the independent oracle: one weighted draw of every place, the places
    given to the prizes in the table's order."""
    places = reference_namespace()["prize_places"]([tuple(r) for r in TABLE[1:]])
    drawn = MV.weighted(tenths([r[2] for r in ENTRANTS]), len(places), MV.words(SEED))
    return [[*ENTRANTS[i], *place] for i, place in zip(drawn, places, strict=True)]


def test_the_prizes_are_written_right_of_the_selection_and_logged() -> None:
    excel = prize_day()
    excel.script("draw_prizes", "Prizes", "Tickets", "ID")
    want = expected()
    assert excel.cells("Sheet1", 2, 4, len(want), 6) == want
    assert excel.cells("Sheet1", 1, 1, 9, 3) == [HEADER, *ENTRANTS]  # the list untouched
    (entry,) = excel.log()
    assert (entry["mode"], entry["k"], entry["reserves"], entry["method"]) == (
        "prizes",
        "3",
        "2",
        "weighted",
    )
    assert entry["options"] == "prizes from the sheet Prizes: Mug, 2, 1; Bike, 1, 1"
    assert entry["formula"] == f'=SAMPLE(Sheet1!A2:C9, 3, "{SEED}", Sheet1!C2:C9, 2)'


def test_the_logged_command_line_draws_the_same_and_its_record_verifies(tmp_path: Path) -> None:
    excel = prize_day()
    excel.script("draw_prizes", "prizes", "C", "")  # the sheet's name in any case, a letter
    (entry,) = excel.log()
    argv = shlex.split(entry["command line"])
    assert argv[:3] == ["xlshuffle", "sample", "Raffle 2026.xlsx"]
    assert argv[3:] == [
        "--sheet",
        "Sheet1",
        "--range",
        "A2:C9",
        "--no-header",
        "--prizes",
        "Prizes.csv",
        "--weights",
        "C",
        "--id",
        "A",
        "--seed",
        SEED,
    ]
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    for row in [HEADER, *ENTRANTS]:
        sheet.append(row)
    book.save(tmp_path / argv[2])
    with (tmp_path / "Prizes.csv").open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(TABLE)
    out, rec = tmp_path / "out.csv", tmp_path / "r.json"
    command = [argv[1], str(tmp_path / argv[2]), *argv[3:]]
    command[command.index("Prizes.csv")] = str(tmp_path / "Prizes.csv")
    assert main([*command, "-o", str(out), "--record", str(rec)]) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        drawn = list(csv.reader(fh))
    assert drawn[0] == ["A", "B", "C", "Prize", "Place", "Role"]
    assert drawn[1:] == texts(excel.cells("Sheet1", 2, 4, 5, 6))
    assert main(["verify", str(rec), "--input", str(tmp_path / argv[2]), "--output", str(out)]) == 0
    # a round on the record: the first reserve of the Mug takes the second Mug's place
    second = drawn[2][0]
    reserve = next(r[0] for r in drawn[1:] if r[3] == "Mug" and r[5] == "reserve")
    r1 = tmp_path / "r1.json"
    assert (
        main(["redraw", str(rec), "--replace", second, "--reason", "away", "--record", str(r1)])
        == 0
    )
    assert main(["verify", str(r1), "--input", str(tmp_path / argv[2])]) == 0
    assert reserve != second


BAD = [
    (("Prizen", "Tickets", ""), TABLE, "prizes: no sheet is named 'Prizen'"),
    (("Prizes", "Tickets", ""), [["Mug", 0, 1]], "row 1 of the sheet 'Prizes' is not"),
    (("Prizes", "Tickets", ""), [["Prize", "Count"]], "lists no prize"),
    (("Prizes", "Tickets", ""), [["Mug", 2], ["Mug", 1]], "a prize is listed twice"),
    (("Prizes", "Tickets", "Name2"), TABLE, "ids: no selected column is headed 'Name2'"),
    (("Prizes", "Tickets", ""), [["Mug", 7, 1]], "cannot draw 8 winners"),
]


@pytest.mark.parametrize(("args", "table", "expected_text"), BAD)
def test_mistakes_write_nothing_and_say_what_to_change(
    args: tuple[Any, ...], table: list[list[Any]], expected_text: str
) -> None:
    excel = prize_day(table)
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_prizes", *args)
    message = one_line(str(info.value))
    assert message.startswith("draw prizes: ")
    assert expected_text in message, message
    assert excel.payload == before


def test_restore_clears_the_prizes_and_the_same_seed_draws_them_again() -> None:
    excel = prize_day()
    excel.script("draw_prizes")  # the defaults: the sheet Prizes, the column headed Tickets
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 4, 5, 6) == [[None] * 6] * 5
    (entry,) = excel.log()
    assert entry["restored (UTC)"]
    excel.script("draw_prizes")
    assert excel.cells("Sheet1", 2, 4, 5, 6) == expected()
