"""Audit planning: sample sizes against the AICPA tables, jfa's documented examples and an
independent check of the definition with SciPy."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from audit_tables import A1, A2, C1, C1_TOLERABLE, EXPECTED, TOLERABLE
from xlshuffle import OptionError, SizeError, attribute_sample_size, mus_sample_size


def _cells(table: list[list[int]]) -> list[tuple[Fraction, Fraction, int]]:
    return [
        (TOLERABLE[i], EXPECTED[j], size)
        for i, sizes in enumerate(table)
        for j, size in enumerate(sizes)
    ]


@pytest.mark.parametrize(("tolerable", "expected", "size"), _cells(A1))
def test_aicpa_table_a1_binomial_at_95_percent(
    tolerable: Fraction, expected: Fraction, size: int
) -> None:
    plan = attribute_sample_size(
        confidence=Fraction(95, 100), tolerable_rate=tolerable, expected_rate=expected
    )
    assert plan.sample_size == size


@pytest.mark.parametrize(("tolerable", "expected", "size"), _cells(A2))
def test_aicpa_table_a2_binomial_at_90_percent(
    tolerable: Fraction, expected: Fraction, size: int
) -> None:
    plan = attribute_sample_size(confidence="90%", tolerable_rate=tolerable, expected_rate=expected)
    assert plan.sample_size == size


@pytest.mark.parametrize(("risk", "ratio"), sorted(C1))
def test_aicpa_table_c1_monetary_units_poisson(risk: int, ratio: int) -> None:
    for tolerable, size in zip(C1_TOLERABLE, C1[risk, ratio], strict=True):
        plan = mus_sample_size(
            confidence=1 - Fraction(risk, 100),
            book_value=1_000_000,
            tolerable=tolerable * 1_000_000,
            expected=tolerable * Fraction(ratio, 10) * 1_000_000,
        )
        assert plan.sample_size == size, (risk, ratio, tolerable)


@pytest.mark.parametrize(
    ("tolerable", "expected", "model", "population", "size", "allowed"),
    [
        # jfa tests/testthat/test-planning.R (frequentist cases with an expected rate)
        ("0.01", "0", "poisson", None, 300, 0),
        ("0.05", "0", "poisson", None, 60, 0),
        ("0.05", "0.025", "poisson", None, 231, Fraction(231, 40)),
        ("0.01", "0", "binomial", None, 299, 0),
        ("0.05", "0", "binomial", None, 59, 0),
        ("0.05", "0.025", "binomial", None, 234, 6),
        ("0.01", "0", "hypergeometric", 1000, 258, 0),
        ("0.05", "0", "hypergeometric", 1000, 57, 0),
        ("0.05", "0.025", "hypergeometric", 1000, 197, 5),
        ("0.05", "0", "hypergeometric", 10000, 59, 0),
    ],
)
def test_jfa_documented_plans(
    tolerable: str,
    expected: str,
    model: str,
    population: int | None,
    size: int,
    allowed: Fraction,
) -> None:
    plan = attribute_sample_size(
        confidence=0.95,
        tolerable_rate=tolerable,
        expected_rate=expected,
        population=population,
        model=model,  # type: ignore[arg-type]
    )
    assert (plan.sample_size, plan.errors_allowed) == (size, allowed)
    assert plan.upper_limit < Fraction(tolerable)


def _meets(model: str, n: int, r: float, e: float, population: int | None) -> bool:
    """The plan's definition, in SciPy's floating point (jfa's bound below R)."""
    alpha = 0.05
    if model == "poisson":
        return bool(stats.gamma.ppf(0.95, 1 + e * n) / n < r)
    x = math.ceil(round(e * n, 9))
    if x >= n:
        return False
    if model == "binomial":
        return bool(stats.binom.cdf(x, n, r) < alpha)
    assert population is not None
    k = math.ceil(round(r * population, 9))
    return bool(stats.hypergeom.cdf(x, population, k, n) <= alpha)


@settings(max_examples=40, deadline=None)
@given(
    model=st.sampled_from(["binomial", "poisson", "hypergeometric"]),
    r=st.integers(2, 30),
    e_share=st.integers(0, 6),
    population=st.integers(200, 3000),
)
def test_the_size_is_the_smallest_that_meets_the_plan(
    model: str, r: int, e_share: int, population: int
) -> None:
    tolerable = Fraction(r, 100)
    expected = tolerable * Fraction(e_share, 10)
    plan = attribute_sample_size(
        confidence=0.95,
        tolerable_rate=tolerable,
        expected_rate=expected,
        population=population if model == "hypergeometric" else None,
        model=model,  # type: ignore[arg-type]
    )
    n, rr, ee = plan.sample_size, float(tolerable), float(expected)
    pop = population if model == "hypergeometric" else None
    assert _meets(model, n, rr, ee, pop)
    assert not any(_meets(model, m, rr, ee, pop) for m in range(1, n))


def test_percentages_and_decimals_are_the_same_rates() -> None:
    a = attribute_sample_size(confidence="95%", tolerable_rate="5%", expected_rate="1%")
    b = attribute_sample_size(confidence=0.95, tolerable_rate=0.05, expected_rate=0.01)
    assert a == b
    assert a.sample_size == 93


def test_a_monetary_unit_plan_is_the_attribute_plan_on_units_of_money() -> None:
    plan = mus_sample_size(
        confidence=0.95, book_value="1,261,550.00", tolerable="63,077.50", expected="12,615.50"
    )
    same = attribute_sample_size(
        confidence=0.95, tolerable_rate="0.05", expected_rate="0.01", model="poisson"
    )
    assert plan.sample_size == same.sample_size == 93
    assert plan.interval == Fraction(126155000, 93 * 100)
    assert plan.as_dict()["interval"] == pytest.approx(1261550 / 93)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"confidence": 95}, OptionError, "for 95 percent, write 95%"),
        ({"confidence": "95 %%"}, OptionError, "must be a number"),
        ({"confidence": True}, OptionError, "must be a number"),
        ({"tolerable_rate": 0}, OptionError, "more than 0"),
        ({"expected_rate": "6%"}, OptionError, "must be less than the tolerable rate"),
        ({"model": "normal"}, OptionError, "unknown model 'normal'"),
        ({"model": "hypergeometric"}, OptionError, "needs the population"),
        ({"population": 10}, SizeError, "no sample of at most 10 items"),
        ({"population": 0}, SizeError, "1 or more"),
    ],
)
def test_mistakes_are_refused_with_a_message_that_helps(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    args: dict[str, object] = {"confidence": 0.95, "tolerable_rate": 0.05, **kwargs}
    with pytest.raises(error, match=message):
        attribute_sample_size(**args)  # type: ignore[arg-type]


def test_monetary_mistakes() -> None:
    with pytest.raises(OptionError, match="less than the book value"):
        mus_sample_size(confidence=0.95, book_value=100, tolerable=100)
    with pytest.raises(OptionError, match="less than the tolerable misstatement"):
        mus_sample_size(confidence=0.95, book_value=100, tolerable=10, expected=10)
    with pytest.raises(OptionError, match="book value: the amount 'lots' is not a number"):
        mus_sample_size(confidence=0.95, book_value="lots", tolerable=10)
