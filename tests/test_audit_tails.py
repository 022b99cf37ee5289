"""The models' tails and bounds (draw/tails.py) against SciPy, an independent
implementation: exact tails equal to SciPy's to its precision, bounds to 1e-12."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from xlshuffle.draw import tails

CONFIDENCES = st.sampled_from(
    [Fraction(80, 100), Fraction(90, 100), Fraction(95, 100), Fraction(99, 100)]
)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 400), data=st.data())
def test_binomial_tail_is_exact(n: int, data: st.DataObject) -> None:
    x = data.draw(st.integers(0, n))
    p = Fraction(data.draw(st.integers(1, 999)), 1000)
    got = tails.binomial_cdf(x, n, p)
    assert float(got) == pytest.approx(stats.binom.cdf(x, n, float(p)), rel=1e-9, abs=1e-300)


@settings(max_examples=60, deadline=None)
@given(big_n=st.integers(1, 500), data=st.data())
def test_hypergeometric_tail_is_exact(big_n: int, data: st.DataObject) -> None:
    errors = data.draw(st.integers(0, big_n))
    n = data.draw(st.integers(0, big_n))
    x = data.draw(st.integers(0, n))
    got = tails.hypergeometric_cdf(x, big_n, errors, n)
    assert float(got) == pytest.approx(stats.hypergeom.cdf(x, big_n, errors, n), rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 600), confidence=CONFIDENCES, data=st.data())
def test_clopper_pearson_bound_is_scipys_beta_quantile_and_checked_exactly(
    n: int, confidence: Fraction, data: st.DataObject
) -> None:
    k = data.draw(st.integers(0, n - 1))
    bound = tails.binomial_upper(k, n, confidence)
    assert float(bound) == pytest.approx(stats.beta.ppf(float(confidence), k + 1, n - k), rel=1e-12)
    alpha = 1 - confidence
    unit = Fraction(1, 10 ** (tails.DIGITS - 1 - bound.adjusted()))
    assert tails.binomial_cdf(k, n, Fraction(bound)) <= alpha  # the bound is never too low
    assert tails.binomial_cdf(k, n, Fraction(bound) - unit) > alpha  # nor a digit too high
    assert tails.binomial_upper(n, n, confidence) == 1


@settings(max_examples=30, deadline=None)
@given(k=st.integers(0, 300), confidence=CONFIDENCES)
def test_poisson_factors_are_scipys_gamma_quantiles(k: int, confidence: Fraction) -> None:
    got = tails.poisson_factor(k, confidence)
    assert float(got) == pytest.approx(stats.gamma.ppf(float(confidence), k + 1), rel=1e-12)


def test_the_published_factors_at_95_percent() -> None:
    # AICPA Audit Sampling, Table C-3; the 4.75 printed for one error is 4.7439 rounded up
    factors = [round(tails.poisson_factor(k, Fraction(95, 100)), 2) for k in range(6)]
    assert [float(f) for f in factors] == [3.00, 4.74, 6.30, 7.75, 9.15, 10.51]


@settings(max_examples=40, deadline=None)
@given(
    shape=st.fractions(Fraction(1, 4), 200, max_denominator=1000),
    z=st.fractions(Fraction(1, 100), 300, max_denominator=1000),
)
def test_gamma_tail_with_a_fractional_shape_is_scipys(shape: Fraction, z: Fraction) -> None:
    got = tails.gamma_cdf(shape, z)
    assert float(got) == pytest.approx(
        special.gammainc(float(shape), float(z)), rel=1e-11, abs=1e-300
    )


@settings(max_examples=30, deadline=None)
@given(shape=st.fractions(Fraction(1, 2), 100, max_denominator=400), confidence=CONFIDENCES)
def test_gamma_quantiles_with_a_fractional_shape_are_scipys(
    shape: Fraction, confidence: Fraction
) -> None:
    got = tails.gamma_quantile(shape, confidence)
    assert float(got) == pytest.approx(stats.gamma.ppf(float(confidence), float(shape)), rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(big_n=st.integers(2, 300), confidence=CONFIDENCES, data=st.data())
def test_hypergeometric_bound_is_the_largest_count_not_rejected(
    big_n: int, confidence: Fraction, data: st.DataObject
) -> None:
    n = data.draw(st.integers(1, big_n))
    k = data.draw(st.integers(0, n))
    alpha = float(1 - confidence)
    found = tails.hypergeometric_upper(k, n, big_n, confidence)
    brute = max(K for K in range(k, big_n + 1) if stats.hypergeom.cdf(k, big_n, K, n) > alpha)
    assert found == brute
