"""Google Sheets: AUDITSAMPLE of the Apps Script file, under Node, by cells and with a top
stratum, gives xlshuffle.excel.AUDITSAMPLE's rows for the same values and seed: a
monetary-unit sample by a fixed interval or by cells (protocol section 20), a top stratum
at the interval or at an amount, amounts as numbers and as money texts, zeros set aside, a
ledger laid out in one row, over many seeds; and the same mistakes where Excel refuses
(a negative amount, a top stratum without amounts). Skipped without Node, with a note,
unless XLSHUFFLE_REQUIRE lists ``node`` (CI).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sheets_script import OMITTED, as_python, calls, same_form
from xlshuffle import excel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# invoices of every size: three above a tenth of the total, a zero, texts with a currency
# symbol and grouped digits, a whole number and cents
LEDGER = [
    ["INV-01", 1234.56],
    ["INV-02", "$25,000.00"],
    ["INV-03", 0],
    ["INV-04", 300.1],
    ["INV-05", "4500.00 €"],
    ["INV-06", 12.5],
    ["INV-07", 9999.99],
    ["INV-08", "(0.00)"],
    ["INV-09", 18000],
    ["INV-10", "1,750.25"],
    ["INV-11", 640],
    ["INV-12", "€ 75.40"],
]
AMOUNTS = [[row[1]] for row in LEDGER]
SEEDS: list[Any] = ["audit 2026", "Prüfung 2026", 42, 7, "x", 2026.5, "cells", 0]


def _excel(args: list[Any]) -> Any:
    try:
        return excel.AUDITSAMPLE(*as_python(args))
    except Exception as exc:
        return {"$error": str(exc)}


def _check(tmp_path: Path, cases: list[list[Any]]) -> list[Any]:
    found = calls(tmp_path, *[("AUDITSAMPLE", args) for args in cases])
    for args, got in zip(cases, found, strict=True):
        want = _excel(args)
        if isinstance(want, dict):
            assert isinstance(got, dict) and got["$error"] == want["$error"], args
        else:
            assert same_form(got) == same_form(want), args
    return found


def test_cells_and_top_strata_give_the_python_functions_rows(tmp_path: Path) -> None:
    cases = [
        [LEDGER, k, seed, method, AMOUNTS, top]
        for seed in SEEDS
        for k in (3, 8)
        for method, top in (
            ("cell", OMITTED),
            ("cell", "interval"),
            ("mus", "interval"),
            ("cell", 5000),
            ("mus", "$9,999.99"),
            ("Cell", " Interval "),
        )
    ]
    found = _check(tmp_path, cases)
    # not vacuous: the rows carry Hits and, with a top stratum, Top stratum; the top
    # stratum's invoices are always there, with 0 hits
    interval = next(
        f for c, f in zip(cases, found, strict=True) if c[1] == 8 and c[5] == "interval"
    )
    top = [(r[0], r[2]) for r in interval if r[3] == "yes"]
    assert top == [("INV-02", 0), ("INV-07", 0), ("INV-09", 0)]  # 61,512.80 / 8 or more
    plain = found[0]
    assert all(len(r) == 3 and r[2] >= 1 for r in plain)
    assert len({str(f) for f in found}) > len(SEEDS)  # the seeds draw different rows


def test_a_ledger_in_one_row_and_the_mus_of_before(tmp_path: Path) -> None:
    across = [[row[1] for row in LEDGER]]
    cases = [[across, 4, seed, "cell", across, "interval"] for seed in SEEDS[:4]]
    cases += [[LEDGER, 5, seed, "mus", AMOUNTS] for seed in SEEDS[:4]]  # no top_stratum
    cases += [[LEDGER, 5, seed, OMITTED, AMOUNTS, ""] for seed in SEEDS[:4]]
    _check(tmp_path, cases)


@pytest.mark.parametrize(
    "args",
    [
        [LEDGER, 3, "s", "cell", [[1], [-2], [3]] * 4],  # a credit: refused, naming its row
        [LEDGER, 3, "s", "cell", [["(5.00)"], *AMOUNTS[1:]], "interval"],
        [LEDGER, 3, "s", "systematic", OMITTED, "interval"],  # a top stratum needs amounts
        [LEDGER, 3, "s", OMITTED, OMITTED, 100],
        [LEDGER, 3, "s", "mus", AMOUNTS, 0],  # a cutoff more than 0
        [LEDGER, 3, "s", "cell", AMOUNTS, -5],
        [LEDGER, 3, "s", "cell", AMOUNTS, "about 100"],
        [LEDGER, 3, "s", "cell", AMOUNTS, "100.125"],
        [LEDGER, 3, "s", "cell"],  # cell needs amounts
        [LEDGER, 3, "s", "cells", AMOUNTS],  # no such method
    ],
)
def test_the_same_mistakes_as_excel(tmp_path: Path, args: list[Any]) -> None:
    (got,) = calls(tmp_path, ("AUDITSAMPLE", args))
    want = _excel(args)
    assert isinstance(want, dict), "Excel refuses it"
    assert isinstance(got, dict) and got["$error"].startswith("AUDITSAMPLE: "), got
    assert "\n" not in got["$error"]
    if "below 0" in want["$error"] or "top_stratum" in want["$error"]:
        assert got["$error"] == want["$error"]  # the same words as in Excel


def test_every_hit_of_a_top_stratum_sample_is_outside_it(tmp_path: Path) -> None:
    """Sanity of the Sheets result alone: over many seeds the hits add up to k, and every
    row of the top stratum (the interval's invoices) is taken whole, every time."""
    cases = [[LEDGER, 6, seed, "cell", AMOUNTS, "interval"] for seed in range(40)]
    for rows in calls(tmp_path, *[("AUDITSAMPLE", c) for c in cases]):
        assert sum(r[2] for r in rows) == 6
        assert [r[0] for r in rows if r[3] == "yes"] == ["INV-02", "INV-09"]
