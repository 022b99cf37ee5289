"""SAMPLESIZE and UPPERLIMIT through xlwings' own custom-function machinery
(:func:`test_excel.call`): the figures of the command line and the core, one-line errors."""

from __future__ import annotations

import pytest
import xlwings as xw
from scipy import stats

from excel_calls import NA_IN, call, cell, column
from xlshuffle import attribute_sample_size, mus_upper_limit


@pytest.mark.parametrize(
    ("args", "size"),
    [
        ([cell(0.95), cell(0.05), None, None, None], 59),
        ([cell("95%"), cell("5%"), cell(""), None, cell("poisson")], 60),
        ([cell(0.95), cell(0.05), cell(0.01), None, None], 93),
        ([cell(0.95), cell(0.05), None, cell(1000), cell("Hypergeometric")], 57),
        ([cell(0.95), cell(50_000 / 1_000_000), cell(0.02), None, cell("poisson")], 162),
    ],
)
def test_samplesize_is_the_plan(args: list[object], size: int) -> None:
    assert call("SAMPLESIZE", *args) == [[size]]


def test_samplesize_agrees_with_the_core_for_a_float_cell() -> None:
    plan = attribute_sample_size(confidence="90%", tolerable_rate="5%", expected_rate="3.5%")
    assert call("SAMPLESIZE", cell(0.9), cell(0.05), cell(0.035), None, None) == [
        [plan.sample_size]
    ]
    assert plan.sample_size == 400


def test_upperlimit_for_deviations() -> None:
    [[got]] = call("UPPERLIMIT", cell(100), cell(3), cell(0.95), None, None)
    assert got == pytest.approx(stats.beta.ppf(0.95, 4, 97), rel=1e-12)
    [[got]] = call("UPPERLIMIT", cell(100), cell(3), cell("95%"), None, cell("poisson"))
    assert got == pytest.approx(stats.gamma.ppf(0.95, 4) / 100, rel=1e-12)
    [[got]] = call("UPPERLIMIT", cell(100), cell(2), cell(0.95), cell(1000), cell("hypergeometric"))
    assert got == 0.059


def test_upperlimit_for_taintings_is_the_stringer_bound_of_evaluate_mus() -> None:
    # the worked ledger of docs/audit.md: 33 hits, four of them misstated
    sample = [("21,466.82", "21,466.82", 1), ("3,293.18", "2,963.86", 1)]
    sample += [("20,291.98", "19,291.98", 2), ("877.48", "0.00", 1)]
    core = mus_upper_limit(
        [b for b, _, _ in sample] + ["1.00"],
        [a for _, a, _ in sample] + ["1.00"],
        book_value="435,846.74",
        confidence=0.95,
        hits=[h for _, _, h in sample] + [28],  # the 28 hits found correct
    )
    taints = [float(t) for t in core.taintings if t]
    [[rate]] = call("UPPERLIMIT", cell(33), column(taints), cell(0.95), None, None)
    assert rate * 435846.74 == pytest.approx(float(core.upper_limit), rel=1e-12)
    blanks = [[taints[0], None], ["", taints[1]], [taints[2], taints[3]]]
    assert call("UPPERLIMIT", cell(33), blanks, cell(0.95), None, None) == [[rate]]


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("SAMPLESIZE", [cell(95), cell(0.05), None, None, None], "for 95 percent, write 95%"),
        ("SAMPLESIZE", [cell(NA_IN), cell(0.05), None, None, None], "shows the error #N/A"),
        ("SAMPLESIZE", [cell(0.95), cell(0.05), None, None, cell("normal")], "unknown model"),
        ("SAMPLESIZE", [cell(0.95), cell(0.05), None, None, cell("hypergeometric")], "population"),
        ("SAMPLESIZE", [cell(0.95), None, None, None, None], "tolerable is empty"),
        ("UPPERLIMIT", [cell(10), cell(11), cell(0.95), None, None], "11 deviations"),
        ("UPPERLIMIT", [cell(10**6), cell(1), cell(0.95), None, None], "at most 10,000"),
        ("UPPERLIMIT", [cell(10), column([0.5, "x"]), cell(0.95), None, None], "tainting"),
        ("UPPERLIMIT", [cell(10), column([0.5, 1]), cell(0.95), cell(100), None], "no population"),
    ],
)  # fmt: skip
def test_mistakes_are_one_line(name: str, args: list[object], message: str) -> None:
    with pytest.raises(xw.XlwingsError) as info:
        call(name, *args)
    text = str(info.value)
    assert text.startswith(f"{name}: ")
    assert "\n" not in text
    assert message in text
