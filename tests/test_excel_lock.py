"""Draw and lock: the Lite/Server scripts and the Windows subs on a real xlwings workbook.

What runs for real: xlwings' own script machinery (``custom_scripts_call``, the
``@xw.script`` decorator with ``XLWINGS_ON_SERVER`` set by the root conftest) and the
real Office.js ``xw.Book`` that xlwings Lite and Server hand a script, built from the
JSON payload Excel sends (values, selection, defined names). Every read and write of
the commands goes through that book; its writes come back as xlwings' action list.

What is a stand-in: :class:`excel_book.Excel` plays the part of Excel's JavaScript client,
which applies the actions (``setValues``, ``addSheet``, ``setNumberFormat``...) to the
workbook and sends the next payload; it keeps the number formats and alerts it saw.
The Windows subs run with ``xw.Book.caller`` patched to return that same real book:
their COM side (``xw.sub``, ``RunPython``, the message box) needs Windows.

Expected values never come from the lock module: the order is recomputed with
``permutation(n, seed)``, the hash from the serialisation docs/excel.md states
(re-implemented here), and the formulas are evaluated through the worksheet functions.
"""

from __future__ import annotations

import copy
import datetime as dt
import shlex
import time
from typing import Any

import pytest
import xlwings as xw
from xlwings.server import custom_scripts_meta

from excel_book import LOG_HEADER, PEOPLE, Excel, one_line, people, sha256_of, sheet_payload
from excel_calls import call
from xlshuffle import PROTOCOL, __version__, deal, deal_hands, groups, permutation
from xlshuffle.excel import scripts, subs

SCRIPTS = (
    "assign_balanced_teams",
    "assign_groups",
    "commit_selection",
    "deal_cards",
    "draw_committed",
    "draw_prizes",
    "draw_raffle",
    "draw_tickets",
    "draw_winners",
    "replace_winner",
    "restore_last_draw",
    "shuffle_rows",
    "write_allocation_list",
    "write_orders",
    "write_seed",
)
WRITES = {"setValues", "rangeClearContents", "addSheet", "setNumberFormat"}


# --------------------------------------------------------------------------- registration


def test_every_script_is_registered_by_xlwings_with_a_button_name() -> None:
    meta = {m["function_name"]: m for m in custom_scripts_meta(scripts)}
    assert sorted(meta) == sorted(SCRIPTS)
    assert all(m["name"].startswith("xlshuffle: ") and m["lazy"] is False for m in meta.values())
    assert sorted(subs.__all__) == sorted(SCRIPTS) == sorted(scripts.__all__)


# --------------------------------------------------------------------------- shuffle


def test_shuffle_locks_plain_values_and_the_log_replays_it() -> None:
    excel = people()
    excel.script("shuffle_rows")
    (entry,) = excel.log()
    seed = entry["seed"]
    assert isinstance(seed, str) and len(seed) == 26
    perm = permutation(5, seed=seed)
    shuffled = excel.cells("Sheet1", 2, 1, 5, 3)
    assert shuffled == [PEOPLE[p] for p in perm]
    assert excel.cells("Sheet1", 1, 1, 1, 3) == [["name", "n", "flag"]]  # header untouched
    assert entry["input sha256"] == sha256_of(PEOPLE)
    assert entry["output sha256"] == sha256_of(shuffled)
    assert (entry["sheet"], entry["range"], entry["mode"], entry["output"]) == (
        "Sheet1",
        "A2:C6",
        "shuffle",
        "A2:C6",
    )
    assert (entry["protocol"], entry["version"]) == (PROTOCOL, __version__)
    assert entry["seed from"] == "fresh (operating system)"
    assert dt.datetime.strptime(entry["time (UTC)"], "%Y-%m-%dT%H:%M:%SZ")
    assert entry["formula"] == f'=SHUFFLE(Sheet1!A2:C6, "{seed}")'
    assert entry["command line"] == (
        f"xlshuffle shuffle 'Raffle 2026.xlsx' --sheet Sheet1 --range A2:C6 --seed {seed}"
    )
    # The logged formula, evaluated by the worksheet function, gives the locked order.
    got = call("SHUFFLE", PEOPLE, [[seed]])
    assert [[None if v == "" else v for v in row] for row in got] == shuffled


def test_log_cells_are_text_formatted_before_they_are_written() -> None:
    excel = people()
    actions = excel.script("shuffle_rows")
    log = [a for a in actions if a["sheet_position"] == 1]
    assert [a["func"] for a in log] == ["setNumberFormat", "setValues"]
    assert log[0]["args"] == ["@"] and log[0]["row_count"] == 2 and log[0]["column_count"] == 21
    assert all(isinstance(v, str) for row in log[1]["values"] for v in row)
    assert excel.formats[("Draw log", 1, LOG_HEADER.index("seed"))] == "@"
    # The log sheet was added after the others and the user's sheet is active again.
    assert [s["name"] for s in excel.payload["sheets"]] == ["Sheet1", "Draw log"]
    assert excel.payload["book"]["active_sheet_index"] == 0


def test_restore_last_draw_gives_back_the_original_values_and_marks_the_log() -> None:
    excel = people()
    excel.script("shuffle_rows")
    excel.script("shuffle_rows")  # a second draw on the shuffled rows
    assert len(excel.log()) == 2
    excel.script("restore_last_draw")
    (first, second) = excel.log()
    assert second["restored (UTC)"] and not first["restored (UTC)"]
    assert sha256_of(excel.cells("Sheet1", 2, 1, 5, 3)) == first["output sha256"]
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 1, 5, 3) == PEOPLE
    with pytest.raises(xw.XlwingsError, match="lists no draw to restore"):
        excel.script("restore_last_draw")


def test_restore_refuses_when_the_cells_changed_since_the_draw() -> None:
    excel = people()
    excel.script("shuffle_rows")
    excel.put("Sheet1", 3, 2, "edited")
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("restore_last_draw")
    message = one_line(str(info.value))
    assert message.startswith("restore last draw: Sheet1!A2:C6 changed since the draw at ")
    # the time as logged (xlwings' Office.js reader hands an ISO text over as a datetime)
    assert f"the draw at {excel.log()[0]['time (UTC)']} (" in message
    assert "nothing was restored" in message
    assert excel.payload == before


@pytest.mark.parametrize(
    ("column", "text", "expected"),
    [
        ("output", "A1:XFD1048576", "its output 'A1:XFD1048576' is not one block of at most"),
        ("output", "A2:C6,E1", "its output 'A2:C6,E1' is not one block"),
        ("output", "ZZZ9:A1", "its output 'ZZZ9:A1' is not one block"),
        ("output", "Sheet2!A2:C6", "is not one block"),
        ("output", "A2:C7", "a shuffle's output 'A2:C7' must be its range 'A2:C6'"),
        ("output", "B2:D6", "a shuffle's output 'B2:D6' must be its range 'A2:C6'"),
        ("range", "A:C", "its range 'A:C' is not one block"),
        ("mode", "shuffle all", "(mode 'shuffle all', protocol 'xlshuffle/draw/v1')"),
    ],
)
def test_restore_refuses_a_damaged_or_crafted_log_row_before_reading_cells(
    column: str, text: str, expected: str
) -> None:
    """The log is a sheet anyone can edit: a row naming the whole sheet must be refused
    at once, not read (that took a minute and all memory before)."""
    excel = people()
    excel.script("shuffle_rows")
    log = excel.sheet("Draw log")["values"]
    log[1][LOG_HEADER.index(column)] = text
    before = copy.deepcopy(excel.payload)
    started = time.perf_counter()
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("restore_last_draw")
    assert time.perf_counter() - started < 5
    message = one_line(str(info.value))
    assert message.startswith("restore last draw: row 2 of 'Draw log' is not a draw"), message
    assert expected in message
    assert excel.payload == before


def test_a_log_reaching_too_far_down_is_refused_with_what_to_do() -> None:
    excel = people()
    excel.script("shuffle_rows")
    excel.put("Draw log", 70_000, 1, "stray")
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("shuffle_rows")
    assert one_line(str(info.value)) == (
        "shuffle rows: the sheet 'Draw log' reaches row 70,000; a log holds at most "
        "62,500 rows: rename that sheet to start a new log"
    )


# --------------------------------------------------------------------------- the seed


def test_a_filled_seed_cell_is_the_seed_and_is_logged_as_text() -> None:
    excel = Excel([["name", "", "", ""], *[[n] for n in range(1, 11)]], "A2:A11")
    excel.put("Sheet1", 1, 4, 42)  # D1, a number: seed "42"
    excel.name("SEED", "D1")
    excel.script("shuffle_rows")
    (entry,) = excel.log()
    assert entry["seed"] == "42" and entry["seed from"] == "SEED cell Sheet1!D1"
    assert [r[0] for r in excel.cells("Sheet1", 2, 1, 10, 1)] == [9, 10, 4, 5, 7, 6, 1, 2, 8, 3]


def test_a_text_seed_cell_drives_winners_exactly_like_sample() -> None:
    excel = people()
    excel.put("Sheet1", 1, 8, "raffle 2026")
    excel.name("SEED", "H1")
    excel.script("draw_winners", 3)
    (entry,) = excel.log()
    assert entry["seed"] == "raffle 2026"
    winners = excel.cells("Sheet1", 2, 4, 3, 3)
    assert winners == deal(PEOPLE, 3, seed="raffle 2026")
    assert excel.cells("Sheet1", 5, 4, 2, 3) == [[None] * 3] * 2
    assert (entry["k"], entry["output"]) == ("3", "D2:F4")
    assert entry["formula"] == '=SAMPLE(Sheet1!A2:C6, 3, "raffle 2026")'
    assert entry["command line"].endswith("-k 3 --seed 'raffle 2026'")
    assert entry["output sha256"] == sha256_of(winners)


def test_an_empty_seed_cell_means_a_fresh_seed() -> None:
    excel = people()
    excel.name("SEED", "H1")
    excel.script("assign_groups", 2)
    assert excel.log()[0]["seed from"] == "fresh (operating system)"


def test_write_seed_writes_a_fresh_text_seed_into_the_selected_cell() -> None:
    excel = people("F1")
    actions = excel.script("write_seed")
    assert [a["func"] for a in actions] == ["setNumberFormat", "setValues"]
    ((seed,),) = excel.cells("Sheet1", 1, 6, 1, 1)
    assert isinstance(seed, str) and len(seed) == 26 and seed[0].isalpha()
    assert actions[1]["values"] == [["'" + seed]]  # the quote prefix keeps it text
    assert excel.formats[("Sheet1", 0, 5)] == "@"
    # A formula seeded from that cell is stable: the same seed gives the same draw.
    excel.name("SEED", "F1")
    excel.select("A2:C6")
    excel.script("draw_winners", 2)
    assert excel.cells("Sheet1", 2, 4, 2, 3) == deal(PEOPLE, 2, seed=seed)


# --------------------------------------------------------------------------- groups, deal


def test_groups_and_deal_write_what_the_worksheet_functions_give() -> None:
    excel = people()
    excel.name("SEED", "H1")
    excel.put("Sheet1", 1, 8, "teams")
    excel.script("assign_groups", 2)
    column = excel.cells("Sheet1", 2, 4, 5, 1)
    assert [r[0] for r in column] == groups(5, 2, seed="teams")
    assert call("GROUPS", PEOPLE, [[2]], [["teams"]]) == column
    (entry,) = excel.log()
    assert entry["formula"] == '=GROUPS(Sheet1!A2:C6, 2, "teams")'

    cards = Excel([["A♠", "K♥", "7♣", "2♦"], ["9♠", "J♦", "Q♣", "5♥"]], "A1:D2")
    cards.put("Sheet1", 1, 10, "poker")
    cards.name("SEED", "J1")
    cards.script("deal_cards", 3, 2)
    dealt = cards.cells("Sheet1", 1, 5, 3, 2)
    deck = ["A♠", "K♥", "7♣", "2♦", "9♠", "J♦", "Q♣", "5♥"]
    hands = deal_hands(3, 2, seed="poker", deck=deck)
    assert dealt == [list(r) for r in zip(*hands, strict=True)]
    assert call("DEAL", [[3]], [[2]], [["poker"]], [deck[:4], deck[4:]]) == dealt
    (entry,) = cards.log()
    assert entry["formula"] == '=DEAL(3, 2, "poker", Sheet1!A1:D2)'
    assert entry["command line"] == "xlshuffle deal --cards 3 --hands 2 --deck 8 --seed poker"
    numbered = deal_hands(3, 2, seed="poker", deck=8)  # what that command line deals
    assert [[deck[n - 1] for n in hand] for hand in numbered] == hands


def test_restoring_winners_clears_them() -> None:
    excel = people()
    excel.script("draw_winners", 2)
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 4, 2, 3) == [[None] * 3] * 2
    assert excel.cells("Sheet1", 2, 1, 5, 3) == PEOPLE


def test_the_logged_command_line_reproduces_the_shuffle_from_the_saved_workbook(tmp_path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    from xlshuffle.cli import main

    excel = Excel([["name", "n"], *[[f"p{i}", i] for i in range(1, 13)]], "A2:B13")
    excel.script("shuffle_rows")
    (entry,) = excel.log()
    book = openpyxl.Workbook()
    book.active.title = "Sheet1"
    for row in [["name", "n"], *[[f"p{i}", i] for i in range(1, 13)]]:
        book.active.append(row)
    book.save(tmp_path / "Raffle 2026.xlsx")
    argv = shlex.split(entry["command line"])
    assert argv[0] == "xlshuffle"
    out = tmp_path / "out.xlsx"
    assert main([*argv[1:2], str(tmp_path / argv[2]), *argv[3:], "-o", str(out)]) == 0
    got = [
        list(r) for r in openpyxl.load_workbook(out).active.iter_rows(min_row=2, values_only=True)
    ]
    assert got == excel.cells("Sheet1", 2, 1, 12, 2)


# --------------------------------------------------------------------------- mistakes

BAD = [
    ("shuffle_rows", (), "A2:C2", "has 1 row: select at least 2 rows"),
    ("shuffle_rows", (), "A:A", "whole rows or columns"),
    ("shuffle_rows", (), "2:3", "whole rows or columns"),
    ("shuffle_rows", (), "A2:A4,C2:C4", "select one block of cells first"),
    ("draw_winners", (2,), None, "select one block of cells first"),
    ("write_seed", (), "A2:A4,C2:C4", "select one block of cells first"),
    ("shuffle_rows", (), "E2:G6", "only empty cells"),
    ("draw_winners", (0,), "A2:C6", "k must be 1 or more"),
    ("draw_winners", (6,), "A2:C6", "cannot draw 6 winners from 5 rows"),
    ("draw_winners", ("three",), "A2:C6", "k must be a whole number"),
    ("draw_winners", (2,), "A1:B6", "right of the selection are not empty"),
    ("assign_groups", (2.5,), "A2:C6", "k must be a whole number"),
    ("deal_cards", (10, 2), "A2:C6", "needs 20 cards and the selection has 15"),
    ("deal_cards", (1, 1), "A2", "the selection is one cell"),
    ("write_seed", (), "A1:B2", "select one cell for the seed, not A1:B2"),
    ("restore_last_draw", (), "A1", "no draw to restore"),
]


@pytest.mark.parametrize(("name", "args", "selection", "expected"), BAD)
def test_every_bad_input_is_one_line_through_the_script_and_nothing_is_written(
    name: str, args: tuple[Any, ...], selection: str, expected: str
) -> None:
    excel = people(selection)
    excel.sheet("Sheet1")["values"][0].append("")  # a blank in D1 for "not empty" cases
    with pytest.raises(xw.XlwingsError) as info:
        excel.script(name, *args)
    assert expected in one_line(str(info.value))


def _broken(*args: Any, **kwargs: Any) -> Any:
    raise TypeError("a bug\nover two lines")


BUG = "shuffle rows: internal error, please report it with the arguments: TypeError: a bug"


def test_a_bug_in_a_script_is_one_line_with_its_cause_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from xlshuffle.excel import lock

    monkeypatch.setattr(lock, "shuffle_rows", _broken)
    excel = people()
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("shuffle_rows")
    assert one_line(str(info.value)) == BUG + " over two lines"
    assert isinstance(info.value.__cause__, TypeError)


def test_a_bug_in_a_windows_sub_is_a_one_line_message_box(monkeypatch: pytest.MonkeyPatch) -> None:
    from xlshuffle.excel import lock

    monkeypatch.setattr(lock, "shuffle_rows", _broken)
    excel = people()
    excel.sub(monkeypatch, "shuffle_rows")  # no exception, no traceback box
    assert excel.alerts == [BUG + " over two lines"]


@pytest.mark.parametrize(("name", "args", "selection", "expected"), BAD)
def test_every_bad_input_is_a_message_box_through_the_windows_sub(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    args: tuple[Any, ...],
    selection: str,
    expected: str,
) -> None:
    excel = people(selection)
    actions = excel.sub(monkeypatch, name, *args)  # no exception
    assert [a["func"] for a in actions] == ["alert"]
    (message,) = excel.alerts
    assert expected in one_line(message)
    assert actions[0]["args"][1] == "xlshuffle"


def test_seed_cell_problems_are_named() -> None:
    excel = people()
    excel.put("Sheet1", 1, 8, "#N/A")
    excel.name("SEED", "H1")
    with pytest.raises(xw.XlwingsError, match=r"the SEED cell Sheet1!H1: .*error #N/A"):
        excel.script("shuffle_rows")
    excel = people()
    excel.name("SEED", "H1:H2")
    with pytest.raises(xw.XlwingsError, match="must refer to one cell"):
        excel.script("shuffle_rows")


def test_a_sheet_named_draw_log_that_is_not_a_log_is_left_alone() -> None:
    excel = people()
    excel.payload["sheets"].append(sheet_payload("Draw log", [["my notes"]]))
    with pytest.raises(xw.XlwingsError, match="is not an xlshuffle draw log"):
        excel.script("shuffle_rows")
    assert excel.cells("Sheet1", 2, 1, 5, 3) == PEOPLE


def test_a_subs_success_writes_like_the_script(monkeypatch: pytest.MonkeyPatch) -> None:
    excel = people()
    excel.name("SEED", "H1")
    excel.put("Sheet1", 1, 8, 7)
    excel.sub(monkeypatch, "draw_winners", 2)
    assert excel.cells("Sheet1", 2, 4, 2, 3) == deal(PEOPLE, 2, seed=7)
    assert excel.log()[0]["seed"] == "7"


def test_error_cells_move_with_their_row_and_are_hashed_as_their_text() -> None:
    rows = [["a", "#N/A"], ["b", 2], ["c", "#DIV/0!"]]
    excel = Excel([["h", "v"], *rows], "A2:B4", sheet="My list")
    excel.script("shuffle_rows")
    (entry,) = excel.log()
    perm = permutation(3, seed=entry["seed"])
    assert excel.cells("My list", 2, 1, 3, 2) == [rows[p] for p in perm]
    assert entry["input sha256"] == sha256_of(rows)
    assert entry["formula"] == f"=SHUFFLE('My list'!A2:B4, \"{entry['seed']}\")"
    assert "--sheet 'My list' --range A2:B4" in entry["command line"]


def test_the_windows_add_in_imports_a_vba_sub_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """xlwings' classic ``xlsub`` and VBA writer, run with stand-ins for pywin32's modules
    (which only import on Windows): what *Import Functions* would write, and that the
    converter ``call_udf`` picks for a macro's return value exists (``-> None`` has none)."""
    import importlib
    import io
    import sys
    import types

    from xlwings.conversion import accessors

    com = {name: types.ModuleType(name) for name in ("pythoncom", "pywintypes", "win32com")}
    com["win32com.client"] = types.ModuleType("win32com.client")
    com["pythoncom"].CoInitialize = lambda: None  # type: ignore[attr-defined]
    com["win32com.client"].Dispatch = None  # type: ignore[attr-defined]
    for name, module in com.items():
        monkeypatch.setitem(sys.modules, name, module)
    try:
        classic = importlib.import_module("xlwings.udfs")
        module = types.ModuleType("wrapped")
        for name in SCRIPTS:
            wrapped = classic.xlsub(getattr(subs, name))
            # call_udf writes the result through conversion.write, which routes on this:
            convert = wrapped.__xlfunc__["ret"]["options"]["convert"]
            assert hasattr(accessors.get(convert, convert), "router"), name
            setattr(module, name, wrapped)
        vba = io.StringIO()
        book = types.SimpleNamespace(Name="Raffle.xlsm")
        classic.generate_vba_wrapper("xlshuffle.excel.subs", module, vba, book)
    finally:
        sys.modules.pop("xlwings.udfs", None)
        if hasattr(xw, "udfs"):
            delattr(xw, "udfs")
    text = vba.getvalue()
    for signature in (
        "Sub shuffle_rows()",
        "Sub draw_winners(Optional k)",
        "Sub draw_raffle(Optional k, Optional reserves, Optional tickets)",
        "Sub deal_cards(Optional cards, Optional hands)",
        "Sub assign_groups(Optional k)",
        "Sub draw_tickets(Optional k, Optional reserves, Optional ids, Optional tickets)",
        "Sub replace_winner(Optional winner, Optional reason, Optional ids)",
        "Sub restore_last_draw()",
        "Sub write_seed()",
    ):
        assert signature in text
    assert "Function" not in text


# --------------------------------------------------------------------------- texts stay texts

TRICKY = [
    ["=1+1", "a formula's text"],
    ["007", "a number-like text"],
    ["'quoted", "a text with its own apostrophe"],
    ["TRUE", "a boolean-like text"],
    ["+49 30 1234", "a phone number"],
    ["#N/A", 1.5],  # an error cell (as xlwings reads it) stays the error
]


@pytest.mark.parametrize("command", ["shuffle_rows", "draw_winners", "restore"])
def test_texts_are_written_back_exactly_never_as_formulas_or_numbers(command: str) -> None:
    """Excel reads what .value writes as if it were typed: without the quote prefix
    ``=1+1`` would become a live formula and ``007`` the number 7 (the stand-in applies
    those rules), and restore would then refuse the changed cells."""
    excel = Excel([["text", "note"], *TRICKY], "A2:B7")
    if command == "draw_winners":
        excel.script("draw_winners", 6)
        (entry,) = excel.log()
        perm = permutation(len(TRICKY), seed=entry["seed"])
        assert excel.cells("Sheet1", 2, 3, 6, 2) == [TRICKY[p] for p in perm]
        assert entry["output sha256"] == sha256_of([TRICKY[p] for p in perm])
        return
    excel.script("shuffle_rows")
    (entry,) = excel.log()
    perm = permutation(len(TRICKY), seed=entry["seed"])
    assert excel.cells("Sheet1", 2, 1, 6, 2) == [TRICKY[p] for p in perm]
    assert entry["formula"].startswith("=SHUFFLE(")  # the log keeps the formula as text
    if command == "restore":
        excel.script("restore_last_draw")
        assert excel.cells("Sheet1", 2, 1, 6, 2) == TRICKY


def test_a_seed_too_long_for_the_logged_formula_is_refused() -> None:
    """Excel keeps at most 255 characters of a text in a formula: the log's formula
    could not replay a longer seed."""
    excel = people()
    excel.name("SEED", "H1")
    excel.put("Sheet1", 1, 8, "s" * 256)
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("shuffle_rows")
    assert one_line(str(info.value)) == (
        "shuffle rows: the SEED cell Sheet1!H1 holds a seed of 256 characters; a locked "
        "draw's seed has at most 255 (the longest text a logged formula can hold): use a "
        "shorter seed"
    )
    assert excel.payload == before
    excel.put("Sheet1", 1, 8, "s" * 255)
    excel.script("shuffle_rows")
    assert excel.log()[0]["seed"] == "s" * 255
