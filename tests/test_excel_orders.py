"""=ORDERS(items, ids, [seed], [k], [balanced]) as Excel calls it (Office.js).

Expected rows come from the reference code of docs/draw-protocol.md (sections 13-14),
checked against tools/make_vectors.py's independent vectors, and agree with the command
line's table for the same inputs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import xlwings as xw

from excel_calls import call, cell, column
from protocol_references import reference_namespace
from xlshuffle.cli import main

REF = reference_namespace()
TASKS = ["Maze", "Stroop", "N-back", "Flanker"]
IDS = ["P01", "P02", 42, "Zoë", "P05"]


def per_person(k: int, seed: object) -> list[list[object]]:
    return [[p, *(TASKS[i] for i in REF["person_order"](4, k, seed, p))] for p in IDS]


def test_per_person_orders_spill_one_row_per_id() -> None:
    assert call("ORDERS", column(TASKS), column(IDS), cell("study 2026")) == per_person(
        4, "study 2026"
    )
    # a row of items, a row of IDs, and k
    got = call("ORDERS", [TASKS], [IDS], cell("study 2026"), cell(2))
    assert got == per_person(2, "study 2026")


def test_balanced_orders() -> None:
    got = call("ORDERS", column(TASKS), column(IDS), cell(7), cell(None), cell(True))
    want = [
        [p, *(TASKS[i] for i in row)]
        for p, row in zip(IDS, REF["balanced_orders"](4, 5, 4, 7), strict=True)
    ]
    assert got == want


def test_the_same_rows_as_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "tasks.txt").write_text("\n".join(TASKS) + "\n", encoding="utf-8")
    (tmp_path / "ids.txt").write_text("\n".join(map(str, IDS)) + "\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    argv = ["orders", str(tmp_path / "tasks.txt"), "--ids", str(tmp_path / "ids.txt")]
    assert main([*argv, "--seed", "42", "-o", str(out), "--balanced", "-k", "3"]) == 0
    rows = [line.split(",") for line in out.read_text(encoding="utf-8-sig").splitlines()[1:]]
    got = call("ORDERS", column(TASKS), column(IDS), cell(42), cell(3), cell(True))
    assert [[str(x) for x in row] for row in got] == rows


def test_a_person_keeps_their_row_when_others_join() -> None:
    alone = call("ORDERS", column(TASKS), column(["Zoë"]), cell("s"))
    everyone = call("ORDERS", column(TASKS), column(IDS), cell("s"))
    assert alone == [row for row in everyone if row[0] == "Zoë"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ([column(TASKS), column(["A", "B", "A"]), cell(1)], "ids, cell 3: the ID 'A' is also"),
        ([column(TASKS), column(["A", "42", 42]), cell(1)], "ids, cell 3: the ID 42 is also"),
        ([column(TASKS), column(["A", None]), cell(1)], "ids, cell 2 is empty"),
        ([column(TASKS), column(["A"]), cell(1), cell(5)], "k must be at most 4"),
        ([[TASKS, TASKS], column(["A"]), cell(1)], "items is 2 rows by 4 columns"),
        ([column(TASKS), column(["A"]), cell(1), cell(None), cell("yes")], "balanced must be"),
    ],
)
def test_refusals_name_the_argument(args: list[object], needle: str) -> None:
    with pytest.raises(xw.XlwingsError) as info:
        call("ORDERS", *args)
    message = str(info.value)
    assert message.startswith("ORDERS: ")
    assert needle in message, message
