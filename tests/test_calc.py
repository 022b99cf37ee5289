"""The Calc extension in a real LibreOffice: built, installed, and every function entered.

One headless LibreOffice per module (:class:`calc_office.Office`: its own user profile,
the extension built by ``xlshuffle extension calc`` and installed through the extension
manager) takes formulas through UNO, array formulas included. What Calc shows is held to
the protocol's vectors (tests/vectors/draw-v1.json: shuffles, deals, weighted draws), to
the Python functions (:mod:`xlshuffle.functions`), to Excel's path (xlwings Server's own
call, tests/excel_calls.py) and to the command line. Skipped with a note where
LibreOffice, its SDK or its Python bridge is missing (CI requires them: ``calc``).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from calc_office import Office, started
from excel_calls import call
from xlshuffle import excel_serial, functions
from xlshuffle.cli import main
from xlshuffle.common.a1 import col_letters
from xlshuffle.functions import arguments

from support import ROOT

pytestmark = pytest.mark.slow

VECTORS = json.loads((ROOT / "tests" / "vectors" / "draw-v1.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    yield from started(tmp_path_factory)


# --------------------------------------------------------------------------- the sheet

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]
TICKETS = [1, 5, 0, 2, 2, 1, 3, 1, 1, 4]
STRATA = ["N", "S", "N", "N", "S", "N", "S", "N", "S", "N"]
AMOUNTS = [500, 20, 0, 130, 350, 75, 1200, 10, 60, 90]
TASKS = ["read", "write", "draw", "sing"]

CELLS: dict[str, Any] = {}
for i in range(10):
    CELLS[f"A{i + 1}"] = float(i + 1)
    CELLS[f"B{i + 1}"] = NAMES[i]
    CELLS[f"C{i + 1}"] = float(TICKETS[i])
    CELLS[f"D{i + 1}"] = STRATA[i]
    CELLS[f"E{i + 1}"] = float(AMOUNTS[i])
for i, task in enumerate(TASKS):
    CELLS[f"F{i + 1}"] = task

# A range as Calc hands it to the add-in: rows of floats and texts.
A = [[float(i + 1)] for i in range(10)]
B = [[n] for n in NAMES]
AB = [[float(i + 1), n] for i, n in enumerate(NAMES)]
BE = [
    [n, float(t), s, float(a)] for n, t, s, a in zip(NAMES, TICKETS, STRATA, AMOUNTS, strict=True)
]

# (formula, the cells it is entered over, the Python call it must equal)
CASES: list[tuple[str, str, Any]] = [
    ("=SHUFFLE(A1:B10;42)", "H1:I10", lambda: functions.SHUFFLE(AB, 42.0)),
    ('=SHUFFLE(A1:B10;"2026";"cells")', "H1:I10", lambda: functions.SHUFFLE(AB, "2026", "cells")),
    ("=SHUFFLE(A1:A10;42;;1)", "H1:H10", lambda: functions.SHUFFLE(A, 42.0, None, 1.0)),
    (
        '=SHUFFLESTR("Zoë e\u0301t\u00e9 \U0001f1eb\U0001f1f7 \u0915\u094d\u0937a";"2026")',
        "H1",
        lambda: functions.SHUFFLESTR(
            "Zoë e\u0301t\u00e9 \U0001f1eb\U0001f1f7 \u0915\u094d\u0937a", "2026"
        ),
    ),
    (
        '=SHUFFLESTR("the quick brown fox";42;"words")',
        "H1",
        lambda: functions.SHUFFLESTR("the quick brown fox", 42.0, "words"),
    ),
    ('=DEAL(5;4;"xlshuffle")', "H1:K5", lambda: functions.DEAL(5.0, 4.0, "xlshuffle")),
    ('=DEAL(3;2;"poker";B1:B10)', "H1:I3", lambda: functions.DEAL(3.0, 2.0, "poker", B)),
    ('=SAMPLE(B1:B10;3;"raffle")', "H1:H10", lambda: functions.SAMPLE(B, 3.0, "raffle")),
    (
        '=SAMPLE(B1:B10;2;"raffle";C1:C10;1)',
        "H1:J3",
        lambda: functions.SAMPLE(B, 2.0, "raffle", [[float(t)] for t in TICKETS], 1.0),
    ),
    (
        '=SAMPLE(B1:B10;2;"raffle";;;;;"ticket")',
        "H1:I2",
        lambda: functions.SAMPLE(B, 2.0, "raffle", None, None, None, None, "ticket"),
    ),
    (
        '=SAMPLEBY(A1:B10;1;D1:D10;"2026 raffle")',
        "H1:I2",
        lambda: functions.SAMPLEBY(AB, 1.0, [[s] for s in STRATA], "2026 raffle"),
    ),
    (
        '=AUDITSAMPLE(A1:A10;3;"audit 2026")',
        "H1:H3",
        lambda: functions.AUDITSAMPLE(A, 3.0, "audit 2026"),
    ),
    (
        '=AUDITSAMPLE(B1:E10;3;"audit";"mus";E1:E10)',
        "H1:L3",
        lambda: functions.AUDITSAMPLE(BE, 3.0, "audit", "mus", [[float(a)] for a in AMOUNTS]),
    ),
    ('=GROUPS(B1:B10;3;"teams")', "H1:H10", lambda: functions.GROUPS(B, 3.0, "teams")),
    (
        '=GROUPS(B1:D10;2;"teams";3)',
        "H1:H10",
        lambda: functions.GROUPS([r[:1] + r[1:3] for r in BE], 2.0, "teams", 3.0),
    ),
    (
        '=ORDERS(F1:F4;B1:B3;"class 4B")',
        "H1:L3",
        lambda: functions.ORDERS([[t] for t in TASKS], B[:3], "class 4B"),
    ),
    (
        '=ALLOCATE("A,B";6;"trial";"2:1";"3,6")',
        "H1:K9",
        lambda: functions.ALLOCATE("A,B", 6.0, "trial", "2:1", "3,6"),
    ),
    ('=TICKET(B1:B3;"2026")', "H1:H3", lambda: functions.TICKET(B[:3], "2026")),
    ("=SAMPLESIZE(0.95;0.05)", "H1", lambda: functions.SAMPLESIZE(0.95, 0.05)),
    ("=UPPERLIMIT(100;0;0.95)", "H1", lambda: functions.UPPERLIMIT(100.0, 0.0, 0.95)),
]


def as_calc(value: Any) -> Any:
    """A Python result cell as Calc shows it: numbers as floats, blank as an empty text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    return value


def shaped(result: Any) -> list[list[Any]]:
    rows = result if isinstance(result, list) else [[result]]
    return [[as_calc(v) for v in row] for row in rows]


def blank_to(rows: list[list[Any]], height: int, width: int) -> list[list[Any]]:
    """``rows`` with blank cells to ``height`` by ``width``: what a larger array shows."""
    return [[*row, *[""] * (width - len(row))] for row in rows] + [[""] * width] * (
        height - len(rows)
    )


def test_every_function_gives_what_the_python_function_gives(office: Office) -> None:
    for formula, cells, expected in CASES:
        array = ":" in cells
        got = office.sheet(CELLS, [(cells, formula, array)], [cells])["read"][0]
        assert got == blank_to(shaped(expected()), len(got), len(got[0])), formula


def test_the_shuffle_vectors_of_the_protocol(office: Office) -> None:
    """Every shuffle vector with a seed a cell can hold, each in its own pair of columns:
    the items 0..n-1, and the array formula over them with the seed from a cell."""
    cells: dict[str, Any] = {}
    formulas, reads, expected = [], [], []
    cases = [v for v in VECTORS["shuffles"] if v["n"] >= 1 and holds(v["seed"])]
    for i, vector in enumerate(cases):
        items, out = col_letters(2 * i + 1), col_letters(2 * i + 2)
        n = vector["n"]
        for r in range(n):
            cells[f"{items}{r + 1}"] = float(r)
        seed_cell = f"{items}{n + 2}"
        cells[seed_cell] = seed_value(vector["seed"])
        formulas.append((f"{out}1:{out}{n}", f"=SHUFFLE({items}1:{items}{n};{seed_cell})", True))
        reads.append(f"{out}1:{out}{n}")
        expected.append([[float(p)] for p in vector["permutation"]])
    got = office.sheet(cells, formulas, reads)["read"]
    assert got == expected


def holds(seed: dict[str, Any]) -> bool:
    """Whether a cell can hold the seed: not a whole number beyond a double's 2**53."""
    return seed["type"] != "int" or abs(seed["value"]) <= 2**53


def seed_value(seed: dict[str, Any]) -> Any:
    """A vector's seed as a cell holds it: a text, a number, or a date as its serial."""
    if seed["type"] == "str":
        return seed["value"]
    if seed["type"] in ("int", "float"):
        return float(seed["value"])
    when = dt.datetime.fromisoformat(seed["value"])
    return float(excel_serial(when if seed["type"] == "datetime" else when.date()))


def test_the_deal_and_weighted_vectors_of_the_protocol(office: Office) -> None:
    cells: dict[str, Any] = {}
    formulas, reads, expected = [], [], []
    deals = [v for v in VECTORS["deals"] if v["k"] >= 1 and holds(v["seed"])]
    for i, vector in enumerate(deals):
        out = col_letters(i + 1)
        k, seed = vector["k"], vector["seed"]
        cells[f"{out}60"] = seed_value(seed)
        formulas.append((f"{out}1:{out}{k}", f"=DEAL({k};1;{out}60;{vector['n']})", True))
        reads.append(f"{out}1:{out}{k}")
        expected.append([[float(d + 1)] for d in vector["dealt"]])
    weighted = [
        v
        for v in VECTORS["weighted"]
        if v["k"] >= 1 and all(abs(w) <= 2**53 for w in v["weights"]) and holds(v["seed"])
    ]
    for i, vector in enumerate(weighted):
        ids, weights, out = (col_letters(100 + 3 * i + j) for j in range(3))
        n, k = len(vector["weights"]), vector["k"]
        for r, w in enumerate(vector["weights"]):
            cells[f"{ids}{r + 1}"] = f"id{r}"
            cells[f"{weights}{r + 1}"] = float(w)
        cells[f"{ids}60"] = seed_value(vector["seed"])
        formula = f"=SAMPLE({ids}1:{ids}{n};{k};{ids}60;{weights}1:{weights}{n})"
        formulas.append((f"{out}1:{out}{k}", formula, True))
        reads.append(f"{out}1:{out}{k}")
        expected.append([[f"id{d}"] for d in vector["drawn"]])
    got = office.sheet(cells, formulas, reads)["read"]
    assert got == expected


def test_a_larger_selection_shows_blanks_and_a_plain_formula_its_first_cell(
    office: Office,
) -> None:
    answer = office.sheet(
        CELLS,
        [
            ("H1:I10", '=SAMPLE(B1:B10;3;"raffle")', True),
            ("J1", '=SAMPLE(B1:B10;3;"raffle")', False),
        ],
        ["H1:I10", "J1"],
    )
    winners = [row[0] for row in functions.SAMPLE(B, 3.0, "raffle")]
    assert answer["read"][0] == [[w, ""] for w in winners] + [["", ""]] * 7
    assert answer["read"][1] == [[winners[0]]]


def test_seeded_never_changes_and_unseeded_draws_again_on_a_hard_recalculation(
    office: Office,
) -> None:
    cells = {f"A{i}": float(i) for i in range(1, 31)}
    formulas = [("B1:B30", "=SHUFFLE(A1:A30;7)", True), ("C1:C30", "=SHUFFLE(A1:A30)", True)]
    answer = office.sheet(cells, formulas, ["B1:B30", "C1:C30"], hard_recalc=True)
    column = [[float(i)] for i in range(1, 31)]
    assert answer["read"][0] == answer["again"][0] == shaped(functions.SHUFFLE(column, 7.0))
    assert answer["read"][1] != answer["again"][1]  # 1 in 30! to fail by chance
    assert sorted(answer["again"][1]) == sorted(answer["read"][0])


def test_an_empty_seed_cell_reads_as_zero_and_an_empty_text_draws_afresh(office: Office) -> None:
    """Calc hands an add-in an empty cell as 0; ``IF(ISBLANK(Z1);"";Z1)`` keeps it empty."""
    cells = {f"A{i}": float(i) for i in range(1, 31)}
    formulas = [
        ("B1:B30", "=SHUFFLE(A1:A30;Z1)", True),
        ("C1:C30", '=SHUFFLE(A1:A30;IF(ISBLANK(Z1);"";Z1))', True),
    ]
    answer = office.sheet(cells, formulas, ["B1:B30", "C1:C30"], hard_recalc=True)
    column = [[float(i)] for i in range(1, 31)]
    assert answer["read"][0] == answer["again"][0] == shaped(functions.SHUFFLE(column, 0.0))
    assert answer["read"][1] != answer["again"][1]


def test_a_mistake_is_the_one_line_the_windows_add_in_shows(office: Office) -> None:
    formulas = [
        ("H1:H10", '=SHUFFLE(A1:A10;42;"diagonal")', True),
        ("I1", '=SAMPLE(B1:B10;11;"raffle")', False),
        ("J1", "=SAMPLESIZE(A1:A2;0.05)", False),
    ]
    got = office.sheet(CELLS, formulas, ["H1", "I1", "J1"])["read"]
    expected = []
    for name, args in [
        ("SHUFFLE", (A, 42.0, "diagonal")),
        ("SAMPLE", (B, 11.0, "raffle")),
        ("SAMPLESIZE", ([[1.0], [2.0]], 0.05)),
    ]:
        with pytest.raises(arguments.XlshuffleError) as info:
            getattr(functions, name)(*args)
        expected.append([[f"#VALUE! {arguments.report(name, info.value)}"]])
    assert got == expected


def test_an_error_argument_stays_calcs_own_error(office: Office) -> None:
    got = office.sheet(CELLS, [("H1", '=SHUFFLESTR("abc";1/0)', False)], ["H1"])["read"]
    assert got == [[["#ERR"]]]


def test_same_seed_same_result_in_excel_calc_and_the_command_line(
    office: Office, tmp_path: Path
) -> None:
    """One list and one seed: Calc's array formula, Excel's call through xlwings Server,
    and ``xlshuffle shuffle`` and ``sample`` on the list saved as CSV give the same rows."""
    calc = office.sheet(
        CELLS,
        [
            ("H1:I10", '=SHUFFLE(A1:B10;"2026 raffle")', True),
            ("J1:K3", '=SAMPLE(A1:B10;3;"2026 raffle")', True),
        ],
        ["H1:I10", "J1:K3"],
    )["read"]
    excel = [call("SHUFFLE", AB, [["2026 raffle"]]), call("SAMPLE", AB, [[3]], [["2026 raffle"]])]
    source = tmp_path / "list.csv"
    with source.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["n", "name"], *[[i + 1, n] for i, n in enumerate(NAMES)]])
    shuffled, winners = tmp_path / "shuffled.csv", tmp_path / "winners.csv"
    assert main(["shuffle", str(source), "--seed", "2026 raffle", "-o", str(shuffled)]) == 0
    assert (
        main(["sample", str(source), "-k", "3", "--seed", "2026 raffle", "-o", str(winners)]) == 0
    )
    cli = [read_rows(shuffled), read_rows(winners)]
    for got_calc, got_excel, got_cli in zip(calc, excel, cli, strict=True):
        as_text = [[f"{v:g}" if isinstance(v, float) else v for v in row] for row in got_calc]
        assert as_text == [
            [f"{v:g}" if isinstance(v, float) else v for v in row] for row in got_excel
        ]
        assert as_text == got_cli


def read_rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))[1:]
