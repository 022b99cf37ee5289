"""Google Sheets: the draw-and-lock menu of the Apps Script file, under Node with a stand-in
for SpreadsheetApp (tests/sheets/standin.mjs): each command draws on the selection with the
seed of the named range SEED, writes plain values and appends a row to the Draw log sheet,
the row xlshuffle.lock.log writes for the same draw in Excel. Skipped without Node,
with a note, unless XLSHUFFLE_REQUIRE lists ``node`` (CI).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sheets_script import run
from xlshuffle import __version__, excel
from xlshuffle.lock.log import LOG_COLUMNS, Draw

PEOPLE = [
    ["Name", "Sex", "Tickets"],
    ["Ann", "F", 2],
    ["Bo", "M", 1],
    ["007", "M", 0],
    ["=1+1", "F", 3],
    ["Dee", "", 1.5],
    ["TRUE", "M", 1],
]
SEED = "2026 spring"


def _book(active: list[Any], *, seed: Any = SEED) -> dict[str, Any]:
    sheets: dict[str, Any] = {"Raffle sheet": [row[:] for row in PEOPLE]}
    names = {}
    if seed is not None:
        sheets["Setup"] = [[seed]]
        names["SEED"] = ["Setup", 1, 1]
    return {"name": "Club raffle", "sheets": sheets, "active": active, "names": names}


def _none(rows: list[list[Any]]) -> list[list[Any]]:
    return [[None if v == "" else v for v in row] for row in rows]


def _cells(sheet: list[list[Any]], top: int, left: int, rows: int, cols: int) -> list[list[Any]]:
    def at(r: int, c: int) -> Any:
        return sheet[r][c] if r < len(sheet) and c < len(sheet[r]) else ""

    return [[at(top - 1 + r, left - 1 + c) for c in range(cols)] for r in range(rows)]


def _logged(found: dict[str, Any]) -> list[list[str]]:
    log: list[list[str]] = found["sheets"]["Draw log"]
    assert log[0] == list(LOG_COLUMNS)
    assert list(found["sheets"])[-1] == "Draw log"  # added after the other sheets
    return log[1:]


SELECTION = ["Raffle sheet", 2, 1, 6, 3]  # A2:C7, the list without its header
INPUT = [row[:] for row in PEOPLE[1:]]


@pytest.mark.parametrize(
    ("command", "answers", "mode", "expected", "extra"),
    [
        ("xlshuffleShuffleRows", [], "shuffle", excel.SHUFFLE(_none(INPUT), SEED, "rows"), {}),
        ("xlshuffleDrawWinners", [3], "winners", excel.SAMPLE(_none(INPUT), 3, SEED), {"k": 3}),
        (
            "xlshuffleAssignGroups",
            [2],
            "groups",
            excel.GROUPS(_none(INPUT), 2, SEED),
            {"k": 2},
        ),
        (
            "xlshuffleDeal",
            [2, 3],
            "deal",
            excel.DEAL(2, 3, SEED, _none(INPUT)),
            {"k": 2, "hands": 3},
        ),
        (
            "xlshuffleDrawRaffle",
            [2, 1, "tickets"],
            "raffle",
            excel.SAMPLE(_none(INPUT), 2, SEED, [[r[2]] for r in INPUT], 1),
            {"k": 2, "reserves": 1, "tickets": "C2:C7"},
        ),
        (
            "xlshuffleDrawRaffle",
            [2, "", ""],
            "raffle",
            excel.SAMPLE(_none(INPUT), 2, SEED, None, 0),
            {"k": 2, "reserves": 0},
        ),
    ],
)
def test_locked_draw_writes_values_and_logs_excels_row(
    tmp_path: Path,
    command: str,
    answers: list[Any],
    mode: str,
    expected: list[list[Any]],
    extra: dict[str, Any],
) -> None:
    found = run(tmp_path, {"book": _book(SELECTION), "menu": [[command, answers]]})
    assert found["log"]["alerts"] == []
    sheet = found["sheets"]["Raffle sheet"]
    height, width = len(expected), len(expected[0])
    left = 1 if mode == "shuffle" else 4  # in place, or right of the selection (column D)
    written = _cells(sheet, 2, left, height, width)
    assert _none(written) == expected
    if mode != "shuffle":
        assert _cells(sheet, 2, 1, 6, 3) == INPUT  # the list itself is untouched
    (row,) = _logged(found)
    letters = "ABCDEFGHIJ"
    output = f"{letters[left - 1]}2:{letters[left + width - 2]}{height + 1}"
    if height == 1 and width == 1:
        output = f"{letters[left - 1]}2"
    draw = Draw(
        mode=mode,  # type: ignore[arg-type]
        sheet="Raffle sheet",
        address="A2:C7",
        book="Club raffle.xlsx",
        seed=SEED,
        seed_from="SEED cell Setup!A1",
        version=__version__,
        time=row[0],
        rows=_none(INPUT),
        output=expected,
        output_address=output,
        **extra,
    )
    assert row == draw.log_row()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", row[0])


def test_menu_and_the_texts_it_writes(tmp_path: Path) -> None:
    """onOpen adds the menu; a shuffle writes each text as text (an apostrophe first, which
    Sheets keeps out of the value), so 007, =1+1 and TRUE stay the texts they were."""
    found = run(
        tmp_path,
        {
            "book": _book(SELECTION),
            "calls": [["onOpen", []]],
            "menu": [["xlshuffleShuffleRows", []]],
        },
    )
    labels = [item[2] for item in found["log"]["menu"]]
    assert labels[:2] == ["xlshuffleShuffleRows", "xlshuffleDrawWinners"]
    assert "xlshuffleWriteSeed" in labels
    cells = _cells(found["sheets"]["Raffle sheet"], 2, 1, 6, 3)
    assert sorted(r[0] for r in cells) == sorted(r[0] for r in INPUT)  # "007", "=1+1", "TRUE"
    # the log's cells are texts: its rows are written with the number format @
    assert any(f[0] == "Draw log" and f[2] == "@" for f in found["log"]["numberFormats"])


def test_refusals_write_nothing(tmp_path: Path) -> None:
    # winners first fill D2:F4; groups would write D2:D7 and is refused
    found = run(
        tmp_path,
        {
            "book": _book(SELECTION),
            "menu": [["xlshuffleDrawWinners", [3]], ["xlshuffleAssignGroups", [2]]],
        },
    )
    assert len(_logged(found)) == 1
    (alert,) = found["log"]["alerts"]
    assert "D2:D7" in alert and "not empty" in alert
    # a cancelled prompt draws nothing; too many winners is refused as SAMPLE refuses it
    found = run(
        tmp_path,
        {
            "book": _book(SELECTION),
            "menu": [["xlshuffleDrawWinners", [None]], ["xlshuffleDrawWinners", [9]]],
        },
    )
    assert "Draw log" not in found["sheets"]
    assert found["log"]["alerts"] == [
        "cannot draw 9 from 6 items: k must be at most 6; draw fewer or add items"
    ]


def test_fresh_seed_without_a_seed_cell(tmp_path: Path) -> None:
    found = run(
        tmp_path,
        {
            "book": _book(["Raffle sheet", 1, 5, 1, 1], seed=None),
            "menu": [["xlshuffleWriteSeed", []]],
        },
    )
    seed = found["sheets"]["Raffle sheet"][0][4]
    assert re.fullmatch(r"[a-z2-7]{26}", seed) and found["menu"] == [seed]
    found = run(
        tmp_path, {"book": _book(SELECTION, seed=None), "menu": [["xlshuffleShuffleRows", []]]}
    )
    (row,) = _logged(found)
    assert row[8] == "fresh (Apps Script)" and re.fullmatch(r"[a-z2-7]{26}", row[7])
    # the logged seed replays the draw
    assert _none(_cells(found["sheets"]["Raffle sheet"], 2, 1, 6, 3)) == excel.SHUFFLE(
        _none(INPUT), row[7], "rows"
    )


def test_restore_the_last_draw(tmp_path: Path) -> None:
    """A shuffle comes back in its first order, winners are cleared, newest first; each log
    row is marked restored; a draw whose cells changed since is refused."""
    found = run(
        tmp_path,
        {
            "book": _book(SELECTION),
            "menu": [
                ["xlshuffleShuffleRows", []],
                ["xlshuffleDrawWinners", [2]],
                ["xlshuffleRestoreLastDraw", []],
                ["xlshuffleRestoreLastDraw", []],
                ["xlshuffleRestoreLastDraw", []],
            ],
        },
    )
    assert found["menu"][2:4] == ["Raffle sheet!D2:F3", "Raffle sheet!A2:C7"]
    assert found["log"]["alerts"] == ["the 'Draw log' sheet lists no draw to restore"]
    assert found["sheets"]["Raffle sheet"] == [
        [*row, "", "", ""] if i in (1, 2) else row for i, row in enumerate(PEOPLE)
    ]
    rows = _logged(found)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", row[15]) for row in rows)
    # winners drawn, then one of their cells edited: the restore is refused, nothing changes
    drawn = run(tmp_path, {"book": _book(SELECTION), "menu": [["xlshuffleDrawWinners", [2]]]})
    book = _book(SELECTION)
    book["sheets"] = drawn["sheets"]
    book["sheets"]["Raffle sheet"][1][3] = "someone else"
    found = run(tmp_path, {"book": book, "menu": [["xlshuffleRestoreLastDraw", []]]})
    (alert,) = found["log"]["alerts"]
    assert alert.startswith("Raffle sheet!D2:F3 changed since the draw at ")
    assert found["sheets"] == book["sheets"]
