"""The cell evaluation of a monetary-unit sample and its top stratum, computed again here
from SciPy's Poisson quantiles by the written recursion (Leslie, Teitlebaum and Anderson)
and by plain arithmetic: never by the engine's code."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from raffle_books import run
from xlshuffle import EntryError, mus_upper_limit
from xlshuffle.draw.auditeval import cell_bound, stringer_bound


def factor(i: int, confidence: float = 0.95) -> float:
    return float(stats.gamma.ppf(confidence, i + 1))


def cell_by_hand(taints: list[float], n: int, confidence: float = 0.95) -> float:
    ranked = sorted((min(t, 1.0) for t in taints if t > 0), reverse=True)
    upper, total = factor(0, confidence), 0.0
    for i, t in enumerate(ranked, 1):
        total += t
        upper = max(upper + t, factor(i, confidence) * total / i)
    return upper / n


def stringer_by_hand(taints: list[float], n: int, confidence: float = 0.95) -> float:
    ranked = sorted((min(t, 1.0) for t in taints if t > 0), reverse=True)
    steps = sum(
        (factor(i, confidence) - factor(i - 1, confidence)) * t for i, t in enumerate(ranked, 1)
    )
    return (factor(0, confidence) + steps) / n


@pytest.mark.parametrize(
    ("taints", "n", "confidence"),
    [
        ([], 60, 0.95),
        ([1.0], 60, 0.95),
        ([0.5, 0.25], 100, 0.95),
        ([0.9, 0.9, 0.05, 0.05, 0.05], 120, 0.90),
        ([0.3, 0.2, 0.1, -0.4, 1.5], 50, 0.99),
    ],
)
def test_the_cell_bound_is_the_written_recursion(
    taints: list[float], n: int, confidence: float
) -> None:
    got, factors = cell_bound(
        [Fraction(t).limit_denominator(1000) for t in taints], sample_size=n, confidence=confidence
    )
    assert float(got) == pytest.approx(cell_by_hand(taints, n, confidence), rel=1e-12)
    assert float(factors[0]) == pytest.approx(factor(0, confidence), rel=1e-12)


@settings(max_examples=20)  # each example computes its factors to 50 digits
@given(
    st.lists(st.fractions(Fraction(1, 100), Fraction(1)), max_size=8),
    st.integers(12, 400),
)
def test_the_cell_bound_is_never_above_stringers(taints: list[Fraction], n: int) -> None:
    cell, _ = cell_bound(taints, sample_size=n, confidence=0.95)
    stringer, _ = stringer_bound(taints, sample_size=n, confidence=0.95)
    assert cell <= stringer + Decimal("1e-25")
    if all(t == 1 for t in taints):  # every item wholly misstated: both are U(m) / n
        assert abs(cell - stringer) < Decimal("1e-25")


def test_a_top_stratum_is_known_not_projected() -> None:
    # 3 hits in the sampled 60,000 (book value 100,000 less the top stratum's 40,000); the
    # top stratum's two items are misstated by +1,500 (over) and -200 (under)
    e = mus_upper_limit(
        ["25,000.00", "15,000.00", "2,000.00", "1,000.00", "500.00"],
        ["23,500.00", "15,200.00", "1,500.00", "1,000.00", "500.00"],
        book_value="100,000.00",
        confidence=0.95,
        hits=[0, 0, 1, 1, 1],
        top=[True, True, False, False, False],
    )
    assert (e.top_items, e.top_book, e.book_value) == (2, 40_000, 60_000)
    assert (e.known, e.known_over) == (1_300, 1_500)
    assert e.taintings == (Fraction(1, 4), 0, 0)
    assert e.projected == Fraction(60_000, 3) / 4
    assert e.most_likely == e.projected + 1_300
    by_hand = 60_000 * stringer_by_hand([0.25, 0, 0], 3) + 1_500
    assert float(e.upper_limit) == pytest.approx(by_hand, rel=1e-12)
    parts = e.as_dict()
    assert parts["basic_precision"] + parts["projected"] + 1_500 + parts[
        "precision_gap_widening"
    ] == pytest.approx(parts["upper_limit"])
    cells = mus_upper_limit(
        ["25,000.00", "15,000.00", "2,000.00", "1,000.00", "500.00"],
        ["23,500.00", "15,200.00", "1,500.00", "1,000.00", "500.00"],
        book_value="100,000.00",
        confidence=0.95,
        top=[True, True, False, False, False],
        bound="cell",
    )
    assert cells.sample_size == 3  # a top item is no hit
    by_hand = 60_000 * cell_by_hand([0.25, 0, 0], 3) + 1_500
    assert float(cells.upper_limit) == pytest.approx(by_hand, rel=1e-12)


def test_a_top_item_with_hits_is_refused() -> None:
    with pytest.raises(EntryError, match="examined whole, not hit"):
        mus_upper_limit(
            ["5", "1"], ["5", "1"], book_value=10, confidence=0.9, hits=[1, 1], top=[True, False]
        )


def test_evaluate_reads_what_sample_wrote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # the sample file of a cell selection with a top stratum, audited, in a semicolon list
    sample = tmp_path / "audited.csv"
    sample.write_text(
        "Invoice;Amount;Hits;Top stratum;Audited\n"
        "A4;25.000,00;0;yes;24.000,00\n"
        "A6;4.500,00;1;no;4.500,00\n"
        "A8;9.999,99;3;no;8.999,99\n",
        encoding="utf-8",
    )
    argv = ["evaluate", "mus", str(sample), "--book", "Amount", "--audited", "Audited"]
    argv += ["--book-value", "41.047,15", "--confidence", "95%", "--bound", "cell", "--json"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    got = json.loads(out)
    t = 1000 / 9999.99
    sampled = 41_047.15 - 25_000
    assert (got["top_items"], got["top_book"]) == (1, 25_000)
    assert got["book_value"] == pytest.approx(sampled, rel=1e-15)
    assert got["known_misstatement"] == 1_000 and got["bound"] == "cell"
    by_hand = sampled * cell_by_hand([t, t, t, 0], 4) + 1_000
    assert got["upper_limit"] == pytest.approx(by_hand, rel=1e-12)
    code, out, err = run(capsys, *argv[:-1])
    assert code == 0, err
    assert "top stratum: 1 item, book 25,000.00, examined 100%: known misstatement 1,000.00" in out
    assert "cell bound" in out
