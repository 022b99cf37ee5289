"""Rounds of a locked draw in Excel: ``replace_winner`` through xlwings' own script machinery
(a real Office.js ``xw.Book``; the stand-in of tests/excel_book.py only applies the actions
Excel would), for draws locked by ``draw_raffle`` and ``draw_prizes``.

Expected cells never come from xlshuffle: the draws from ``tools/make_vectors.py`` (which
never imports it) and the protocol's reference ``prize_places``, and each round from
:func:`after_rounds`, this file's own reading of the rule docs/fair-draws.md states (the
place goes to the first reserve of the same prize not yet called; the replaced winner stays,
marked with the reason). The round's logged command line is run on the workbook as saved
(written by openpyxl), and ``xlshuffle verify`` checks the chain of records it writes and
the table, which must be the sheet's.
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

from excel_book import Excel, one_line, people, sha256_of, sheet_payload
from excel_calls import texts
from protocol_references import MV, reference_namespace, tenths
from xlshuffle.cli import main

SEED = "2026 prize day"
# A prize draw's list: IDs in the first column.
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
# A raffle's list: the IDs are numbers in the second column (ids="Ticket").
RAFFLE_HEADER = ["Name", "Ticket", "Tickets"]
RAFFLE: list[list[Any]] = [[name, 101 + n, t] for n, (_, name, t) in enumerate(ENTRANTS)]

Row = list[Any]


def prize_day(table: list[list[Any]] = TABLE) -> Excel:
    """The entrants under their header in A1:C9, A2:C9 selected, a SEED cell in H1 and the
    prize table on the sheet Prizes."""
    excel = Excel([HEADER, *ENTRANTS], "A2:C9")
    excel.put("Sheet1", 1, 8, SEED)
    excel.name("SEED", "H1")
    excel.payload["sheets"].append(sheet_payload("Prizes", [list(r) for r in table]))
    return excel


def raffle_day() -> Excel:
    excel = Excel([RAFFLE_HEADER, *RAFFLE], "A2:C9")
    excel.put("Sheet1", 1, 8, SEED)
    excel.name("SEED", "H1")
    return excel


# --------------------------------------------------------------------------- the oracle


def prize_draw() -> list[tuple[Row, str | None, int, str]]:
    """The prize draw by the independent references: each drawn row, prize, place, role."""
    places = reference_namespace()["prize_places"]([tuple(r) for r in TABLE[1:]])
    drawn = MV.weighted(tenths([r[2] for r in ENTRANTS]), len(places), MV.words(SEED))
    return [(ENTRANTS[i], *place) for i, place in zip(drawn, places, strict=True)]


def raffle_draw(k: int, reserves: int) -> list[tuple[Row, str | None, int, str]]:
    """The raffle by the independent references: winners by rank, then reserves by rank."""
    drawn = MV.weighted(tenths([r[2] for r in RAFFLE]), k + reserves, MV.words(SEED))
    return [
        (RAFFLE[i], None, p + 1 if p < k else p + 1 - k, "winner" if p < k else "reserve")
        for p, i in enumerate(drawn)
    ]


def after_rounds(
    drawn: list[tuple[Row, str | None, int, str]], id_at: int, rounds: list[tuple[Any, str]]
) -> list[dict[str, Any]]:
    """Where each drawn row stands after ``rounds`` (each the replaced winner's ID and the
    reason), as docs/fair-draws.md says: the place goes to the first reserve of the same
    prize not yet called, who notes whom it replaces; the winner stays, marked with the
    reason."""
    rows = [
        {"row": row, "prize": prize, "place": place, "role": role, "note": None}
        for row, prize, place, role in drawn
    ]
    for who, why in rounds:
        (out,) = [r for r in rows if r["row"][id_at] == who and r["role"] == "winner"]
        called = next(r for r in rows if r["role"] == "reserve" and r["prize"] == out["prize"])
        rank = called["place"]
        called.update(place=out["place"], role="winner", note=f"replaces {who} (reserve {rank})")
        out.update(role="replaced", note=why)
    return rows


def prize_cells(rows: list[dict[str, Any]]) -> list[Row]:
    """The prize result's cells: the row, Prize, Place, Role, Note."""
    return [[*r["row"], r["prize"], r["place"], r["role"], r["note"]] for r in rows]


def raffle_cells(rows: list[dict[str, Any]]) -> list[Row]:
    """The raffle result's cells: the row, Role, Rank, Note."""
    return [[*r["row"], r["role"], r["place"], r["note"]] for r in rows]


def run_logged(command_line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run a logged command line (commands joined by ``&&``) where the workbook was saved
    (by openpyxl: the lists above, and the prize sheet as CSV); the table it writes."""
    words = shlex.split(command_line)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    rows = [HEADER, *ENTRANTS] if "--prizes" in words else [RAFFLE_HEADER, *RAFFLE]
    for row in rows:
        sheet.append(row)
    book.save(tmp_path / words[2])
    with (tmp_path / "Prizes.csv").open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(TABLE)
    monkeypatch.chdir(tmp_path)
    commands: list[list[str]] = [[]]
    for word in words:
        commands.append([]) if word == "&&" else commands[-1].append(word)
    for argv in commands:
        assert argv[0] == "xlshuffle"
        assert main(argv[1:]) == 0, argv
    last = commands[-1]
    table, record = last[last.index("-o") + 1], last[last.index("--record") + 1]
    verify = ["verify", record, "--input", words[2], "--output", table]
    assert main(verify) == 0
    return tmp_path / table


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


# --------------------------------------------------------------------------- prize draws


def test_a_prize_winner_is_replaced_by_the_next_reserve_of_the_prize() -> None:
    excel = prize_day()
    excel.script("draw_prizes", "Prizes", "Tickets", "ID")
    drawn = prize_draw()
    second_mug = drawn[1][0][0]
    excel.script("replace_winner", second_mug, "  no answer within 14 days ")
    want = prize_cells(after_rounds(drawn, 0, [(second_mug, "no answer within 14 days")]))
    assert excel.cells("Sheet1", 2, 4, 5, 7) == want
    assert excel.cells("Sheet1", 7, 4, 1, 7) == [[None] * 7]  # nothing below
    assert excel.cells("Sheet1", 1, 1, 9, 3) == [HEADER, *ENTRANTS]  # the list untouched
    draw, entry = excel.log()
    assert (entry["mode"], entry["sheet"], entry["range"], entry["output"]) == (
        "round",
        "Sheet1",
        "A2:C9",
        "D2:J6",
    )
    assert (entry["seed"], entry["k"], entry["reserves"], entry["method"]) == (
        SEED,
        "3",
        "2",
        "weighted",
    )
    assert entry["formula"] == ""
    # the hashes of the result before and after the round (docs/excel.md's serialisation)
    before = [[*row, prize, place, role, None] for row, prize, place, role in drawn]
    assert entry["input sha256"] == sha256_of(before)
    assert entry["output sha256"] == sha256_of(want)
    reserve = drawn[3][0][0]
    assert entry["options"] == (
        f"round 1 of the draw at {draw['time (UTC)']}: {second_mug} replaced (no answer "
        f"within 14 days), the place (Mug, place 2) goes to {reserve}, reserve 1"
    )


def test_selecting_the_winners_row_names_the_winner(monkeypatch: pytest.MonkeyPatch) -> None:
    excel = prize_day()
    excel.script("draw_prizes")
    drawn = prize_draw()
    excel.select("H4")  # the Place cell of the third drawn row: the Bike's winner
    excel.sub(monkeypatch, "replace_winner", "", "declined")  # the Windows macro
    assert excel.alerts == []
    bike = drawn[2][0][0]
    want = prize_cells(after_rounds(drawn, 0, [(bike, "declined")]))
    assert excel.cells("Sheet1", 2, 4, 5, 7) == want


def test_the_round_command_line_replays_the_chain_and_verify_checks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    excel = prize_day()
    excel.script("draw_prizes", "Prizes", "C", "")
    drawn = prize_draw()
    first, bike = drawn[0][0][0], drawn[2][0][0]
    excel.script("replace_winner", first, "no answer")
    excel.script("replace_winner", bike, "declined; moved away")
    want = prize_cells(
        after_rounds(drawn, 0, [(first, "no answer"), (bike, "declined; moved away")])
    )
    assert excel.cells("Sheet1", 2, 4, 5, 7) == want
    *_, entry = excel.log()
    words = shlex.split(entry["command line"])
    assert words[:3] == ["xlshuffle", "sample", "Raffle 2026.xlsx"]
    assert words.count("&&") == 2 and words.count("redraw") == 2
    assert "--id" in words and words[words.index("--id") + 1] == "A"
    last = words[len(words) - words[::-1].index("&&") :]
    assert last == [
        "xlshuffle",
        "redraw",
        "round1.json",
        "--replace",
        bike,
        "--reason",
        "declined; moved away",
        "-o",
        "round2.csv",
        "--record",
        "round2.json",
    ]
    table = read_csv(run_logged(entry["command line"], tmp_path, monkeypatch))
    assert table[0] == ["A", "B", "C", "Prize", "Place", "Role", "Note"]
    assert table[1:] == texts(excel.cells("Sheet1", 2, 4, 5, 7))


def test_no_reserve_left_says_what_to_do_and_writes_nothing() -> None:
    excel = prize_day()
    excel.script("draw_prizes")
    bike = prize_draw()[2][0][0]
    excel.script("replace_winner", bike, "declined")
    reserve = prize_draw()[4][0][0]
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("replace_winner", reserve, "declined too")
    assert one_line(str(info.value)) == (
        "replace winner: no reserve of 'Bike' is left: a place drawn afresh needs a committed "
        "draw, on the command line (xlshuffle commit, draw, then redraw --beacon; "
        "docs/fair-draws.md), or draw again from those not yet drawn (xlshuffle sample ... "
        "--exclude draw.json --id COL)"
    )
    assert excel.payload == before


# --------------------------------------------------------------------------- raffles


def test_raffle_rounds_call_the_reserves_by_rank_and_replay_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    excel = raffle_day()
    excel.script("draw_raffle", 2, 3, "Tickets")
    drawn = raffle_draw(2, 3)
    asked: list[tuple[Any, str]] = []
    for who in (drawn[1][0][1], drawn[2][0][1], drawn[0][0][1]):  # a reserve called, replaced
        asked.append((who, f"no answer from {who}"))
        excel.script("replace_winner", str(who), asked[-1][1], "ticket" if len(asked) == 1 else "")
        assert excel.cells("Sheet1", 2, 4, 5, 6) == raffle_cells(after_rounds(drawn, 1, asked))
    *_, entry = excel.log()
    assert entry["options"].startswith("round 3 of the draw at ")
    words = shlex.split(entry["command line"])
    assert words[words.index("--id") + 1] == "B"  # the column headed Ticket
    table = read_csv(run_logged(entry["command line"], tmp_path, monkeypatch))
    assert table[0] == ["A", "B", "C", "Place", "Role", "Note"]
    sheet = texts(excel.cells("Sheet1", 2, 4, 5, 6))
    assert table[1:] == [[*r[:3], r[4], r[3], r[5]] for r in sheet]  # Role, Rank -> Place, Role


def test_restore_puts_each_earlier_standing_back_then_the_draw_goes() -> None:
    excel = raffle_day()
    excel.script("draw_raffle", 2, 2, "Tickets")
    drawn = raffle_draw(2, 2)
    one, two = (drawn[0][0][0], "away"), (drawn[1][0][0], "declined")
    excel.script("replace_winner", one[0], one[1], "A")  # the names as IDs
    excel.script("replace_winner", two[0], two[1])
    assert excel.cells("Sheet1", 2, 4, 4, 6) == raffle_cells(after_rounds(drawn, 0, [one, two]))
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 4, 4, 6) == raffle_cells(after_rounds(drawn, 0, [one]))
    assert [bool(e["restored (UTC)"]) for e in excel.log()] == [False, False, True]
    # a new round follows the first, not the restored one
    again = (drawn[2][0][0], "changed mind")  # reserve 1, a winner since the first round
    excel.script("replace_winner", again[0], again[1])
    assert excel.cells("Sheet1", 2, 4, 4, 6) == raffle_cells(after_rounds(drawn, 0, [one, again]))
    words = shlex.split(excel.log()[-1]["command line"])
    assert words.count("redraw") == 2 and "round2.json" in words and "round3.json" not in words
    excel.script("restore_last_draw")
    excel.script("restore_last_draw")
    original = [[*r, None] for r in raffle_cells(after_rounds(drawn, 0, []))]
    assert [row[:6] for row in excel.cells("Sheet1", 2, 4, 4, 7)] == [r[:6] for r in original]
    assert excel.cells("Sheet1", 2, 9, 4, 2) == [[None, None]] * 4  # the Note column cleared
    excel.script("restore_last_draw")  # the draw itself: its result cleared
    assert excel.cells("Sheet1", 2, 4, 4, 6) == [[None] * 6] * 4
    assert all(e["restored (UTC)"] for e in excel.log())


# --------------------------------------------------------------------------- refusals


def _edit_result(excel: Excel) -> None:
    excel.put("Sheet1", 3, 5, "edited")


def _edit_list(excel: Excel) -> None:
    excel.put("Sheet1", 5, 2, "Dora")


def _fill_note(excel: Excel) -> None:
    excel.put("Sheet1", 4, 10, "a note of mine")


def _select_list(excel: Excel) -> None:
    excel.select("B3")


def _select_two_rows(excel: Excel) -> None:
    excel.select("E2:E3")


REFUSED = [
    (
        ("T-99", "no answer"),
        None,
        "winner T-99: no entrant drawn has this ID: give the ID of a winner",
    ),
    ((4, "no answer"), None, "winner 4: no entrant drawn has this ID"),
    (
        ("", "no answer"),
        _select_list,
        "winner: give the winner's ID, or select a cell of the winner's row in the result "
        "Sheet1!D2:I6",
    ),
    (
        ("", "no answer"),
        _select_two_rows,
        "select one row of the result D2:I6 (the winner's), not E2:E3",
    ),
    (("T-1", ""), None, "reason: say why the winner is replaced (it goes in the Draw log)"),
    (("T-1", "   "), None, "reason: say why the winner is replaced"),
    (("T-1", "x" * 501), None, "reason: 501 characters; a round's reason has at most 500"),
    (("T-1", "2026-12-04T18:00:00Z"), None, "reason: a date and time alone is read back"),
    (
        ("T-1", "away", "Name"),
        None,
        "ids: this draw names its entrants by column A (its command line or its first "
        "round's): leave ids empty",
    ),
    (("T-1", "away"), _edit_result, "Sheet1!D2:I6 changed since the draw at "),
    (("T-1", "away"), _edit_list, "the list Sheet1!A2:C9 changed since the draw at "),
    (
        ("T-1", "away"),
        _fill_note,
        "the cells J2:J6 right of the result D2:I6 are not empty: a round writes its notes there",
    ),
]


@pytest.mark.parametrize(("args", "change", "expected"), REFUSED)
def test_mistakes_write_nothing_and_say_what_to_change(
    args: tuple[Any, ...], change: Any, expected: str
) -> None:
    excel = prize_day()
    excel.script("draw_prizes")
    if change is not None:
        change(excel)
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("replace_winner", *args)
    message = one_line(str(info.value))
    assert message.startswith("replace winner: ")
    assert expected in message, message
    assert excel.payload == before


def test_a_reserve_is_not_replaced_only_a_winner() -> None:
    excel = prize_day()
    excel.script("draw_prizes")
    reserve = prize_draw()[3][0][0]
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("replace_winner", reserve, "away")
    assert f"winner {reserve}: this entrant is a reserve, not a winner" in one_line(str(info.value))


def test_no_locked_draw_to_take_a_round_of_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    excel = people()
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("replace_winner", "Ana", "away")
    assert one_line(str(info.value)) == (
        "replace winner: there is no 'Draw log' sheet: no locked draw to replace a winner of: "
        "lock one first (draw raffle with reserves, or draw prizes)"
    )
    excel.script("draw_winners", 2)  # winners have no reserves and no rounds
    excel.sub(monkeypatch, "replace_winner", "Ana", "away")
    (alert,) = excel.alerts
    assert one_line(alert) == (
        "replace winner: the 'Draw log' sheet lists no raffle or prize draw to replace a "
        "winner of: lock one first (draw raffle with reserves, or draw prizes)"
    )


def test_an_id_on_two_rows_is_refused_as_sample_id_refuses_it() -> None:
    excel = raffle_day()
    excel.script("draw_raffle", 2, 1, "Tickets")
    before = copy.deepcopy(excel.payload)
    winner = raffle_draw(2, 1)[0][0][2]
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("replace_winner", str(winner), "away", "Tickets")  # 1 is Ben's and Gus's
    message = one_line(str(info.value))
    assert "ids: the ID '1' is on two rows of the list (C3 and C8)" in message, message
    assert excel.payload == before


def test_a_raffle_without_reserves_has_none_to_call() -> None:
    excel = raffle_day()
    excel.script("draw_raffle", 2, 0, "Tickets")
    winner = raffle_draw(2, 0)[0][0][0]
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("replace_winner", winner, "away")
    assert one_line(str(info.value)).startswith("replace winner: no reserve is left: ")


def test_an_edited_round_in_the_log_is_refused() -> None:
    excel = prize_day()
    excel.script("draw_prizes")
    first = prize_draw()[0][0][0]
    excel.script("replace_winner", first, "away")
    log = excel.sheet("Draw log")["values"]
    column = log[0].index("command line")
    log[2][column] = log[2][column].replace("--reason away", "--reason elsewhere")
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("restore_last_draw")
    message = one_line(str(info.value))
    assert "the round at " in message and "does not follow from the draw by the rules" in message
