"""The cell evaluation of a monetary-unit sample and its top stratum, computed again here
from SciPy's Poisson quantiles by the written recursion (Leslie, Teitlebaum and Anderson)
and by plain arithmetic: never by the engine's code; and the stages of a published cell
evaluation (the R package FSaudit's vignette) drawn again by the engine."""

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


# ------------------------------------------------------- a published worked example
#
# Lucas Hoogduin and Marcel Boersma, the R package FSaudit, vignette "MUS - evaluation
# methods" (2023-08-10), section "Cell bound": the inventory of FSaudit's inventoryData,
# book value 7,360,816, a sample of n = 23 (interval 7,360,816 / 23 = 320,035.48),
# evaluated by the cell bound, whose table `evalResults$Over$`Precision calculation``
# prints, stage m by stage, the factor times the interval (`mum`), the tainting (`taint`)
# and the stage's upper limit (`stageUPL` = max(loadspread, simplespread)); the table of
# understatements the same for their 12 taintings.
# https://github.com/LuHoo/FSaudit/blob/c34787fd4bc821e3958c02847b8f0ab2deb13901/inst/doc/MUS_evaluation_methods.html
#
# FSaudit's factors are hypergeometric (its default), which xlshuffle does not compute:
# they are taken as printed, so what is checked is the engine's recursion (ranking,
# accumulating, the larger of the two spreads at each stage) against the published stages.
FSAUDIT_BOOK, FSAUDIT_N = 7_360_816, 23
FSAUDIT_MUM = [
    898926,
    1400054,
    1834672,
    2235019,
    2612590,
    2973023,
    3319544,
    3654165,
    3978194,
    4292493,
    4597611,
    4893854,
    5181325,
]
FSAUDIT_OVER = [  # (taint, stageUPL) for m = 1..11; stage 0 is 898,926.0
    ("0.27790525", "987865.5"),
    ("0.20879777", "1054688.2"),
    ("0.16141417", "1106346.5"),
    ("0.15292166", "1155286.9"),
    ("0.13350818", "1198014.2"),
    ("0.13171490", "1240167.6"),
    ("0.09345339", "1270076.0"),
    ("0.07392130", "1293733.5"),
    ("0.05131091", "1310154.8"),
    ("0.05117355", "1326532.1"),
    ("0.04628248", "1341344.2"),
]
FSAUDIT_UNDER = [  # its "Upper confidence bound" is 1,400,168
    ("0.35586180", "1012814"),
    ("0.26166133", "1096555"),
    ("0.23944050", "1173185"),
    ("0.17038330", "1227713"),
    ("0.14423702", "1273874"),
    ("0.11281971", "1309981"),
    ("0.10008035", "1342010"),
    ("0.05271624", "1358881"),
    ("0.04208696", "1372350"),
    ("0.04096296", "1385460"),
    ("0.03194661", "1395684"),
    ("0.01401186", "1400168"),
]


@pytest.mark.parametrize(("table", "printed"), [(FSAUDIT_OVER, 0.1), (FSAUDIT_UNDER, 1.0)])
def test_fsaudits_published_cell_evaluation(
    monkeypatch: pytest.MonkeyPatch, table: list[tuple[str, str]], printed: float
) -> None:
    from xlshuffle.draw import auditeval

    interval = Fraction(FSAUDIT_BOOK, FSAUDIT_N)

    def published(i: int, _confidence: object) -> Decimal:  # FSaudit's mum / interval
        return Decimal(FSAUDIT_MUM[i]) / (Decimal(FSAUDIT_BOOK) / FSAUDIT_N)

    monkeypatch.setattr(auditeval, "poisson_factor", published)
    taints = [Fraction(t) for t, _ in table]
    bound, _ = cell_bound([], sample_size=FSAUDIT_N, confidence="95%")
    assert float(bound * FSAUDIT_BOOK) == pytest.approx(898926.0, abs=0.01)
    for m, (_, stage) in enumerate(table, 1):
        # a prefix of the ranked taintings is stage m; printed to `printed`, each tainting
        # to 8 places (at most 0.002 of money each, times the interval)
        bound, _ = cell_bound(taints[:m], sample_size=FSAUDIT_N, confidence="95%")
        assert float(bound * FSAUDIT_BOOK) == pytest.approx(float(stage), abs=printed), m
    # and in the published order reversed: the engine ranks them itself
    bound, _ = cell_bound(taints[::-1], sample_size=FSAUDIT_N, confidence="95%")
    assert float(bound * FSAUDIT_BOOK) == pytest.approx(float(table[-1][1]), abs=printed)
    assert float(interval) == pytest.approx(320035.48, abs=0.01)
