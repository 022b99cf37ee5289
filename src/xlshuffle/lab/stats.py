"""p-values in pure Python: the chi-square and Poisson upper tails the lab's tests need.

Double precision throughout; ``tests/test_fairness.py`` checks them against SciPy when it
is installed. Documented through :mod:`xlshuffle.lab.fairness`.
"""

from __future__ import annotations

import math

__all__ = ["chi2_sf", "gammaincc", "poisson_sf"]

_EPS = 1e-15
_TINY = 1e-300


def gammaincc(a: float, x: float) -> float:
    """Regularised upper incomplete gamma function ``Q(a, x) = Gamma(a, x) / Gamma(a)``.

    A series for the lower function when ``x < a + 1`` and Lentz's continued fraction
    otherwise (the split of Numerical Recipes, section 6.2), in double precision.

    Examples
    --------
    >>> round(gammaincc(1.0, 2.0), 12) == round(math.exp(-2.0), 12)
    True
    """
    if a <= 0:
        raise ValueError(f"gammaincc needs a > 0, got {a}")
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(1_000_000):
            k += 1
            term *= x / k
            total += term
            if term < total * _EPS:
                return max(0.0, 1.0 - total * math.exp(log_front))
        raise ArithmeticError(f"gammaincc series did not converge for a={a}, x={x}")
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, 1_000_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            return math.exp(log_front) * h
    raise ArithmeticError(f"gammaincc fraction did not converge for a={a}, x={x}")


def chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution: ``P(X >= x)`` with ``df`` degrees of freedom.

    Examples
    --------
    >>> round(chi2_sf(3.841458820694124, 1), 6)
    0.05
    """
    return gammaincc(df / 2, x / 2)


def poisson_sf(r: int, lam: float) -> float:
    """``P(X >= r)`` for ``X ~ Poisson(lam)``, summing the tail directly (no cancellation)."""
    if r <= 0:
        return 1.0
    if lam <= 0:
        return 0.0
    term = math.exp(r * math.log(lam) - lam - math.lgamma(r + 1))
    total = 0.0
    k = r
    while term > total * _EPS and k < r + 100_000:
        total += term
        k += 1
        term *= lam / k
    return min(1.0, total)
