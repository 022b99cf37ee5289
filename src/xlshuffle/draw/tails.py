"""Tails and upper bounds of the audit sampling models: binomial, Poisson, hypergeometric.

What audit planning and evaluation (:mod:`xlshuffle.draw.auditplan`,
:mod:`xlshuffle.draw.auditeval`) compute, and how exactly:

- **Binomial and hypergeometric tails** are sums of whole numbers (``math.comb`` times the
  powers of a rate's numerator and denominator), compared with a rate as integers: a sample
  size decided from them is decided without rounding.
- **The binomial upper bound** (Clopper-Pearson, one-sided: the ``p`` at which seeing at
  most ``k`` deviations in ``n`` has chance ``1 - confidence``, the beta quantile
  ``qbeta(confidence, k + 1, n - k)``) is a root of such a sum. It is found in
  :class:`~decimal.Decimal` arithmetic, rounded *up* to 30 significant digits, and that
  decimal is checked with exact fractions: the true bound is at most it and more than it
  less one unit in its 30th digit.
- **The hypergeometric upper bound** is a whole number of errors in the population, the
  largest ``K`` under which at most ``k`` deviations still have chance more than ``1 -
  confidence``; found by bisection on exact tails.
- **The Poisson model** needs ``e**-z`` and, for a fractional number of errors, the gamma
  function, neither of which is rational. Its tail (the regularized lower incomplete gamma
  function ``P(s, z)``: its power series, with ``ln Gamma`` from Stirling's series after
  shifting the argument to 40 or more) and its quantiles (safeguarded Newton steps) are
  computed with 50 significant digits in :mod:`decimal`, which is the same software
  arithmetic on every platform, so no figure depends on the C library. Quantiles are
  returned rounded up to 30 significant digits; the tests check them against SciPy.

Rejected: floating point with ``math.lgamma`` (its last bits differ between C libraries,
and a sample size near a boundary could differ between a laptop and xlwings Lite); a
normal approximation (the published tables are exact in the model).
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, Context, Decimal, localcontext
from fractions import Fraction

from .errors import SizeError

__all__ = [
    "CONTEXT",
    "DIGITS",
    "EXACT_CHECK",
    "binomial_below",
    "binomial_cdf",
    "binomial_upper",
    "gamma_cdf",
    "gamma_cdf_above",
    "gamma_quantile",
    "hypergeometric_at_most",
    "hypergeometric_cdf",
    "hypergeometric_upper",
    "poisson_factor",
]

#: Significant digits of every real-valued result (bounds, factors), rounded up.
DIGITS = 30
#: The largest ``n * (terms + 1)`` whose binomial bound is checked with exact fractions.
EXACT_CHECK = 2_000_000
#: Working precision of the Decimal computations.
_PREC = 50
#: The Decimal context of every computation here: 50 digits and an exponent range of a
#: million either way, far beyond what a sample of at most 10,000 items reaches, and within
#: what every platform's decimal allows (32-bit builds such as Pyodide's, on which xlwings
#: Lite runs, stop at 425,000,000), so that the same context exists everywhere.
CONTEXT = Context(prec=_PREC, Emax=10**6, Emin=-(10**6))
# pi to 60 digits, for ln(2 pi) / 2 in Stirling's series
_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494")
# Bernoulli numbers B2, B4, ..., B30: Stirling's series to w**-29, below 1e-43 for w >= 40
_BERNOULLI = (
    Fraction(1, 6),
    Fraction(-1, 30),
    Fraction(1, 42),
    Fraction(-1, 30),
    Fraction(5, 66),
    Fraction(-691, 2730),
    Fraction(7, 6),
    Fraction(-3617, 510),
    Fraction(43867, 798),
    Fraction(-174611, 330),
    Fraction(854513, 138),
    Fraction(-236364091, 2730),
    Fraction(8553103, 6),
    Fraction(-23749461029, 870),
    Fraction(8615841276005, 14322),
)
_STIRLING_FROM = 40


# --------------------------------------------------------------------------- exact tails


def binomial_cdf(x: int, n: int, p: Fraction) -> Fraction:
    """``P(X <= x)`` for ``X ~ Binomial(n, p)``, exactly.

    >>> binomial_cdf(1, 3, Fraction(1, 2))
    Fraction(1, 2)
    """
    top, q = _binomial_sum(x, n, p)
    return Fraction(top, q**n)


def _binomial_sum(x: int, n: int, p: Fraction) -> tuple[int, int]:
    """``(S, q)`` with ``P(X <= x) = S / q**n`` for ``p = a / q``: whole numbers only."""
    a, q = p.numerator, p.denominator
    b = q - a
    top = min(x, n)
    if top < 0:
        return 0, q
    # S = b**(n - top) * sum_i C(n, i) a**i b**(top - i): one large power, small terms
    inner = sum(math.comb(n, i) * a**i * b ** (top - i) for i in range(top + 1))
    return inner * b ** (n - top), q


def binomial_below(x: int, n: int, p: Fraction, alpha: Fraction) -> bool:
    """Whether ``P(X <= x) < alpha`` for ``X ~ Binomial(n, p)``, decided in integers."""
    s, q = _binomial_sum(x, n, p)
    return bool(s * alpha.denominator < alpha.numerator * q**n)


def hypergeometric_cdf(x: int, population: int, errors: int, n: int) -> Fraction:
    """``P(X <= x)`` for ``X`` the errors in a sample of ``n`` drawn without replacement
    from ``population`` items of which ``errors`` are in error, exactly.

    >>> hypergeometric_cdf(0, 10, 2, 3)
    Fraction(7, 15)
    """
    return Fraction(_hyper_sum(x, population, errors, n), math.comb(population, n))


def _hyper_sum(x: int, population: int, errors: int, n: int) -> int:
    good = population - errors
    lo, hi = max(0, n - good), min(x, errors, n)
    return sum(math.comb(errors, i) * math.comb(good, n - i) for i in range(lo, hi + 1))


def hypergeometric_at_most(x: int, population: int, errors: int, n: int, alpha: Fraction) -> bool:
    """Whether ``P(X <= x) <= alpha`` in the hypergeometric model, decided in integers.

    A floating-point estimate settles the clear "no" first (more than 1.001 alpha): a
    planning walk over a large population then costs one exact sum, not thousands.
    """
    if _hyper_cdf_float(x, population, errors, n) > float(alpha) * 1.001 + 1e-300:
        return False
    s = _hyper_sum(x, population, errors, n)
    return s * alpha.denominator <= alpha.numerator * math.comb(population, n)


def _hyper_cdf_float(x: int, population: int, errors: int, n: int) -> float:
    """``P(X <= x)`` in floating point from ``math.lgamma``: a screen, never a decision
    (relative error below 1e-4 for populations up to 10**12)."""
    good = population - errors
    lo, hi = max(0, n - good), min(x, errors, n)
    if lo > hi:
        return 0.0

    def ln_comb(a: int, b: int) -> float:
        return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)

    total = ln_comb(population, n)
    logs = [ln_comb(errors, i) + ln_comb(good, n - i) - total for i in range(lo, hi + 1)]
    top = max(logs)
    return math.exp(top) * math.fsum(math.exp(v - top) for v in logs)


def hypergeometric_upper(k: int, n: int, population: int, confidence: Fraction) -> int:
    """The upper bound on the errors in the population: the largest ``K`` with
    ``P(X <= k) > 1 - confidence`` when ``K`` of ``population`` items are in error and
    ``n`` are drawn (the inverted exact test of jfa's ``.qhyper``; Talens 2005).

    >>> hypergeometric_upper(0, 59, 1000, Fraction(95, 100))
    48
    """
    alpha = 1 - confidence
    lo, hi = k, population  # P(X <= k) is 1 at K = k and does not grow with K
    if not hypergeometric_at_most(k, population, hi, n, alpha):
        return hi
    while hi - lo > 1:  # invariant: tail(lo) > alpha >= tail(hi)
        mid = (lo + hi) // 2
        if hypergeometric_at_most(k, population, mid, n, alpha):
            hi = mid
        else:
            lo = mid
    return lo


# --------------------------------------------------------------------------- binomial bound


def binomial_upper(k: int, n: int, confidence: Fraction) -> Decimal:
    """The one-sided Clopper-Pearson upper bound on a rate after ``k`` deviations in ``n``
    (``qbeta(confidence, k + 1, n - k)``), rounded up to :data:`DIGITS` significant
    digits; 1 when every item deviated.

    The decimal is checked with exact fractions (the true bound is at most it, and more
    than it less one unit in its last digit) when the sums are small enough to be quick,
    ``n * (min(k, n - k) + 1)`` at most :data:`EXACT_CHECK`: every sample an audit plan
    gives. Beyond that it stands on the 50-digit computation alone.

    >>> binomial_upper(0, 59, Fraction(95, 100))
    Decimal('0.0495076098882269473859795169968')
    """
    if k >= n:
        return Decimal(1)
    alpha = 1 - confidence
    with localcontext(CONTEXT):
        hi = _round_up(_binomial_root(k, n, _decimal(alpha)))
        if n * (min(k, n - k) + 1) > EXACT_CHECK:
            return hi
        # the exact check: P(X <= k) at hi is at most alpha, one unit lower it is more
        while _binomial_sign(k, n, hi, alpha) > 0:
            hi = _next_up(hi)
        while (lower := _next_down(hi)) > 0 and _binomial_sign(k, n, lower, alpha) <= 0:
            hi = lower
        return hi


def _binomial_sign(k: int, n: int, p: Decimal, alpha: Fraction) -> int:
    """The sign of ``P(X <= k) - alpha`` at ``p``, in integers."""
    s, q = _binomial_sum(k, n, Fraction(p))
    left, right = s * alpha.denominator, alpha.numerator * q**n
    return int(left > right) - int(left < right)


def _binomial_tail(k: int, n: int, p: Decimal) -> Decimal:
    """``P(X <= k)`` in Decimal, summing the shorter side: term by term from ``(1-p)**n``
    (or from ``p**n``, for the complement), each term from the one before."""
    q = 1 - p
    if k < n / 2:
        term = q**n
        total = term
        for i in range(k):
            term = term * (n - i) / (i + 1) * p / q
            total += term
        return total
    term = p**n  # P(X = n), then down to P(X = k + 1)
    upper = term
    for i in range(n, k + 1, -1):
        term = term * i / (n - i + 1) * q / p
        upper += term
    return 1 - upper


def _binomial_root(k: int, n: int, alpha: Decimal) -> Decimal:
    """``p`` with ``P(X <= k) = alpha``: Newton steps, kept inside a bracket."""
    lo, hi = Decimal(0), Decimal(1)
    p = Decimal(k + 1) / Decimal(n + 1)
    scale = Decimal(n) * Decimal(math.comb(n - 1, k))
    tol = Decimal(10) ** -(DIGITS + 8)
    for _ in range(400):
        f = _binomial_tail(k, n, p) - alpha  # decreasing in p
        if f > 0:
            lo = p
        else:
            hi = p
        if f == 0 or hi - lo <= hi * tol:
            break
        slope = -scale * p**k * (1 - p) ** (n - k - 1)
        step = p - f / slope if slope else (lo + hi) / 2
        if not lo < step < hi:
            step = (lo + hi) / 2
        done = abs(step - p) <= p * tol
        p = step
        if done:
            break
    return p


# --------------------------------------------------------------------------- Poisson / gamma


def _ln_gamma(a: Decimal) -> Decimal:
    """``ln Gamma(a)`` for ``a > 0``: Stirling's series after shifting ``a`` to 40 or more."""
    shift = Decimal(1)
    while a < _STIRLING_FROM:
        shift *= a
        a += 1
    total = (a - Decimal("0.5")) * a.ln() - a + (2 * _PI).ln() / 2
    power = a
    square = a * a
    for j, b in enumerate(_BERNOULLI, 1):
        total += Decimal(b.numerator) / (Decimal(b.denominator) * (2 * j) * (2 * j - 1) * power)
        power *= square
    return total - shift.ln()


def _gamma_p(s: Decimal, z: Decimal) -> Decimal:
    """The regularized lower incomplete gamma function ``P(s, z)``, by its power series
    ``z**s e**-z / Gamma(s + 1) * sum_k z**k / ((s + 1) ... (s + k))`` (all terms
    positive: no cancellation)."""
    if z <= 0:
        return Decimal(0)
    term = total = Decimal(1)
    k = 0
    tiny = Decimal(10) ** -(_PREC + 2)
    while True:
        k += 1
        term = term * z / (s + k)
        total += term
        if s + k > z and term <= total * tiny:
            break
    return (s * z.ln() - z - _ln_gamma(s + 1)).exp() * total


def gamma_cdf(shape: Fraction | int, z: Fraction | int | Decimal) -> Decimal:
    """``P(G <= z)`` for ``G ~ Gamma(shape, 1)``: the regularized lower incomplete gamma
    function, computed with 50 significant digits and good to :data:`DIGITS`. With a whole
    ``shape = k + 1`` it is the chance of more than ``k`` events in a Poisson process of
    mean ``z``.

    >>> round(gamma_cdf(1, 3), 12)  # 1 - e**-3
    Decimal('0.950212931632')
    """
    with localcontext(CONTEXT):
        return +_gamma_p(_decimal(shape), _decimal(z))


def gamma_cdf_above(shape: Fraction | int, z: Fraction | int, level: Fraction) -> bool:
    """Whether ``P(G <= z) > level`` for ``G ~ Gamma(shape, 1)``, decided with 50 digits.

    A floating-point estimate (good to about 1e-13) settles the clear cases first: only a
    value within 1e-9 of ``level``, or above it, is computed in Decimal. This makes a
    Poisson plan's walk over thousands of sizes cheap without deciding any in floats.
    """
    s, x, c = float(shape), float(z), float(level)
    if x > 0 and s < 1e6 and x < 1e6 and _gamma_p_float(s, x) < c - 1e-9:
        return False
    return gamma_cdf(shape, z) > _decimal(level)


def _gamma_p_float(s: float, z: float) -> float:
    """``P(s, z)`` in floating point by the same series: a screen, never a decision."""
    term = total = 1.0
    k = 0
    while True:
        k += 1
        term *= z / (s + k)
        total += term
        if s + k > z and term <= total * 1e-17:
            break
    return math.exp(s * math.log(z) - z - math.lgamma(s + 1)) * total


def gamma_quantile(shape: Fraction | int, confidence: Fraction) -> Decimal:
    """The ``z`` with ``P(G <= z) = confidence`` for ``G ~ Gamma(shape, 1)``
    (``qgamma(confidence, shape)``), rounded up to :data:`DIGITS` significant digits.

    >>> round(gamma_quantile(1, Fraction(95, 100)), 12)  # -ln(0.05)
    Decimal('2.995732273554')
    """
    with localcontext(CONTEXT):
        s = _decimal(shape)
        c = _decimal(confidence)
        lo, hi = Decimal(0), s + 10 * s.sqrt() + 50
        while _gamma_p(s, hi) < c:
            lo, hi = hi, 2 * hi
        z = s if lo < s < hi else (lo + hi) / 2
        tol = Decimal(10) ** -(DIGITS + 8)
        for _ in range(400):
            f = _gamma_p(s, z) - c  # increasing in z
            if f < 0:
                lo = z
            else:
                hi = z
            if f == 0 or hi - lo <= hi * tol:
                break
            density = ((s - 1) * z.ln() - z - _ln_gamma(s)).exp()
            step = z - f / density if density > 0 else (lo + hi) / 2
            if not lo < step < hi:
                step = (lo + hi) / 2
            done = abs(step - z) <= z * tol
            z = step
            if done:
                break
        return _round_up(z)


def poisson_factor(k: int, confidence: Fraction) -> Decimal:
    """The Poisson confidence factor ``U(k)``: the mean at which at most ``k`` errors
    have chance ``1 - confidence`` (``qgamma(confidence, k + 1)``). An upper limit on a
    rate after ``k`` errors in ``n`` is ``U(k) / n``; at 95%: 3.00, 4.74, 6.30, ...

    >>> [round(poisson_factor(k, Fraction(95, 100)), 2) for k in range(3)]
    [Decimal('3.00'), Decimal('4.74'), Decimal('6.30')]
    """
    if k < 0:
        raise SizeError(f"the number of errors must be 0 or more, not {k}")
    return gamma_quantile(k + 1, confidence)


# --------------------------------------------------------------------------- digits


def _decimal(value: Fraction | int | Decimal) -> Decimal:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(value.numerator) / Decimal(value.denominator)


def _unit(value: Decimal) -> Decimal:
    """One unit in the :data:`DIGITS`-th significant digit of ``value > 0``."""
    return Decimal(1).scaleb(value.adjusted() - DIGITS + 1)


def _round_up(value: Decimal) -> Decimal:
    if value <= 0:
        return Decimal(0)
    unit = _unit(value)
    return value.quantize(unit, rounding=ROUND_CEILING)


def _next_up(value: Decimal) -> Decimal:
    return _round_up(value + _unit(value))


def _next_down(value: Decimal) -> Decimal:
    return _round_up(value - _unit(value))
