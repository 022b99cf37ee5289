"""Audit evaluation: upper deviation limits against AICPA Table A-3 and SciPy, and the
Stringer bound of a monetary-unit sample computed again by hand from SciPy's quantiles."""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal
from fractions import Fraction

import pytest
from scipy import stats

from audit_tables import A3, A3_SIZES
from xlshuffle import (
    EntryError,
    OptionError,
    SizeError,
    attribute_upper_limit,
    mus_upper_limit,
    poisson_factor,
)
from xlshuffle.draw.auditeval import stringer_bound


def _a3_cells() -> list[tuple[int, int, Decimal]]:
    rows = [line.split() for line in A3.strip().splitlines()]
    return [
        (n, k, Decimal(v)) for n, row in zip(A3_SIZES, rows, strict=True) for k, v in enumerate(row)
    ]


@pytest.mark.parametrize(("n", "k", "percent"), _a3_cells())
def test_aicpa_table_a3_upper_deviation_limits(n: int, k: int, percent: Decimal) -> None:
    limit = attribute_upper_limit(sample_size=n, deviations=k, confidence=0.95).upper_limit
    assert (limit * 100).quantize(Decimal("0.1"), rounding=ROUND_CEILING) == percent


@pytest.mark.parametrize(
    ("n", "k", "population"), [(59, 0, 1000), (100, 2, 1000), (60, 3, 200), (25, 25, 40)]
)
def test_each_model_is_its_distribution(n: int, k: int, population: int) -> None:
    def limit(model: str) -> float:
        return float(
            attribute_upper_limit(
                sample_size=n,
                deviations=k,
                confidence="95%",
                population=population,
                model=model,  # type: ignore[arg-type]
            ).upper_limit
        )

    beta = stats.beta.ppf(0.95, k + 1, n - k) if k < n else 1.0
    assert limit("binomial") == pytest.approx(beta, rel=1e-12)
    assert limit("poisson") == pytest.approx(stats.gamma.ppf(0.95, k + 1) / n, rel=1e-12)
    hyper = max(
        big_k
        for big_k in range(k, population + 1)
        if stats.hypergeom.cdf(k, population, big_k, n) > 0.05
    )
    assert limit("hypergeometric") == hyper / population


def test_a_conclusion_against_the_tolerable_rate() -> None:
    passed = attribute_upper_limit(
        sample_size=93, deviations=1, confidence=0.95, tolerable_rate=0.05
    )
    failed = attribute_upper_limit(
        sample_size=93, deviations=2, confidence=0.95, tolerable_rate=0.05
    )
    assert (passed.accepted, failed.accepted) == (True, False)
    assert passed.as_dict()["sample_rate"] == pytest.approx(1 / 93)
    assert attribute_upper_limit(sample_size=10, deviations=0, confidence=0.9).accepted is None


def _stringer_by_hand(taints: list[float], n: int, c: float, model: str) -> float:
    ranked = sorted((min(t, 1.0) for t in taints if t > 0), reverse=True)
    if model == "poisson":
        factor = [stats.gamma.ppf(c, i + 1) / n for i in range(len(ranked) + 1)]
    else:
        factor = [stats.beta.ppf(c, i + 1, n - i) for i in range(len(ranked) + 1)]
    return factor[0] + sum((factor[i] - factor[i - 1]) * t for i, t in enumerate(ranked, 1))


@pytest.mark.parametrize("model", ["poisson", "binomial"])
@pytest.mark.parametrize("taints", [[], [1.0], [0.5, 0.25, 1.0], [0.1] * 7, [0.3, -0.2, 0.0, 0.9]])
def test_stringer_bound_is_the_textbook_sum(model: str, taints: list[float]) -> None:
    got, factors = stringer_bound(
        [Fraction(str(t)) for t in taints],
        sample_size=80,
        confidence=0.95,
        model=model,  # type: ignore[arg-type]
    )
    assert float(got) == pytest.approx(_stringer_by_hand(taints, 80, 0.95, model), rel=1e-12)
    assert len(factors) == 1 + sum(t > 0 for t in taints)


def test_a_monetary_unit_sample_with_hits_counts_each_hit() -> None:
    # three items hit 1, 2 and 1 times in 4 hits over a book value of 80,000
    e = mus_upper_limit(
        ["1,000.00", "30,000.00", "400.00"],
        ["1,000.00", "27,000.00", "100.00"],
        book_value="80,000.00",
        confidence=0.95,
        hits=[1, 2, 1],
        tolerable=60_000,
    )
    assert e.sample_size == 4
    assert e.taintings == (Fraction(3, 4), Fraction(1, 10), Fraction(1, 10), Fraction(0))
    assert e.projected == Fraction(80_000, 4) * Fraction(19, 20)
    by_hand = 80_000 * _stringer_by_hand([0.75, 0.1, 0.1, 0], 4, 0.95, "poisson")
    assert float(e.upper_limit) == pytest.approx(by_hand, rel=1e-12)
    assert float(e.basic_precision) == pytest.approx(
        20_000 * float(poisson_factor(0, Fraction(19, 20)))
    )
    parts = e.as_dict()
    assert float(parts["basic_precision"]) + float(parts["projected"]) + float(
        parts["precision_gap_widening"]
    ) == pytest.approx(float(e.upper_limit))
    assert e.accepted is False


def test_understatements_lower_the_projection_not_the_bound() -> None:
    e = mus_upper_limit(["100", "100"], ["150", "50"], book_value=10_000, confidence=0.95)
    assert e.taintings == (Fraction(1, 2), Fraction(-1, 2))
    assert (e.overstatements, e.understatements, e.projected) == (1, 1, 0)
    alone = mus_upper_limit(["100", "100"], ["100", "50"], book_value=10_000, confidence=0.95)
    assert e.upper_limit == alone.upper_limit


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: attribute_upper_limit(sample_size=5, deviations=6, confidence=0.9),
            SizeError,
            "6 deviations",
        ),
        (
            lambda: attribute_upper_limit(sample_size=0, deviations=0, confidence=0.9),
            SizeError,
            "1 or more",
        ),
        (
            lambda: attribute_upper_limit(
                sample_size=5, deviations=0, confidence=0.9, model="hypergeometric"
            ),
            OptionError,
            "needs the population",
        ),
        (
            lambda: attribute_upper_limit(
                sample_size=50, deviations=0, confidence=0.9, population=40, model="hypergeometric"
            ),
            SizeError,
            "population of 40",
        ),
        (
            lambda: mus_upper_limit(["1"], ["1", "2"], book_value=9, confidence=0.9),
            SizeError,
            "1 book amounts",
        ),
        (
            lambda: mus_upper_limit(["0"], ["0"], book_value=9, confidence=0.9),
            EntryError,
            "cannot be hit",
        ),
        (
            lambda: mus_upper_limit(["5"], ["x"], book_value=9, confidence=0.9),
            EntryError,
            "audited: the amount 'x'",
        ),
        (
            lambda: mus_upper_limit(["5"], ["5"], book_value=9, confidence=0.9, hits=["two"]),
            EntryError,
            "hits",
        ),
        (
            lambda: mus_upper_limit(["5"], ["5"], book_value=9, confidence=0.9, model="normal"),  # type: ignore[arg-type]
            OptionError,
            "unknown model",
        ),
    ],
)
def test_evaluation_mistakes(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]
