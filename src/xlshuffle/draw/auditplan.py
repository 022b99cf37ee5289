"""Audit planning: the sample size for attribute and monetary-unit sampling.

The smallest sample size ``n`` whose upper limit, if the sample holds the errors expected,
stays below the tolerable rate, at the confidence asked (the definition of the AICPA Audit
Sampling guide's tables and of the R package jfa's ``planning()``). ``x``, the errors the
sample may hold, is the expected rate times ``n``:

- **binomial** (the default for attributes; AICPA Appendix A): ``x = ceil(E n)`` and the
  smallest ``n > x`` with ``P(X <= x) < 1 - C`` for ``X ~ Binomial(n, R)``, i.e. the
  Clopper-Pearson bound below ``R``. Decided in integers: 59 for ``R = 5%``, ``C = 95%``.
- **poisson** (the default for monetary units; AICPA Appendix C): ``x = E n``, not rounded,
  and the smallest ``n`` with ``qgamma(C, 1 + x) / n < R``: 60 for the same figures, or
  ``n > U(0) / R`` with the factor ``U(0) = -ln(1 - C) = 3.00`` at 95%.
- **hypergeometric** (a population of ``N`` items): ``x = ceil(E n)``, ``K = ceil(R N)``
  errors in the population, and the smallest ``n`` with ``P(X <= x) <= 1 - C`` for ``X``
  the errors among ``n`` drawn without replacement: the exact upper bound on ``K`` below
  ``R N``. Decided in integers.

A monetary-unit sample is the same plan on the units of money: ``R = T / B`` and ``E``
the expected misstatement over ``B``; its hypergeometric population is ``B`` in whole units.

Rates are exact: ``0.035`` is 35/1000, so ``ceil(0.035 * 400)`` is 14. (jfa computes ``E
n`` in floating point and finds 15 there, so at such points its sizes can be larger; the
AICPA tables agree with the exact figure.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Literal, get_args

from .errors import EntryError, OptionError, SizeError
from .tails import (
    CONTEXT,
    binomial_below,
    binomial_upper,
    gamma_cdf_above,
    gamma_quantile,
    hypergeometric_at_most,
    hypergeometric_upper,
)
from .values import parse_amounts

__all__ = [
    "MAX_SAMPLE",
    "MODELS",
    "Model",
    "SamplePlan",
    "amount",
    "attribute_sample_size",
    "model_of",
    "mus_sample_size",
    "number",
    "rate",
]

#: The models of the number of errors in a sample.
Model = Literal["binomial", "poisson", "hypergeometric"]
MODELS: tuple[Model, ...] = get_args(Model)
#: The largest sample a plan looks for and an evaluation takes (jfa's ``max`` is 5,000;
#: the AICPA tables go to 2,308).
MAX_SAMPLE = 10_000

RateLike = Fraction | Decimal | float | int | str


@dataclass(frozen=True)
class SamplePlan:
    """A sample size and what it was planned from.

    Attributes
    ----------
    sample_size : int
        ``n``: items to test, or monetary units to hit.
    model : str
        ``"binomial"``, ``"poisson"`` or ``"hypergeometric"``.
    confidence : Fraction
        ``C``, e.g. 19/20.
    tolerable_rate : Fraction
        ``R``: the tolerable deviation rate, or the tolerable misstatement over the book value.
    expected_rate : Fraction
        ``E``: the expected deviation rate, or the expected misstatement over the book value.
    errors_allowed : Fraction
        ``x``: the errors the sample may hold and still meet the plan (``ceil(E n)``; for
        Poisson ``E n``, the AICPA "tolerable taintings").
    upper_limit : Decimal
        The upper limit on the rate if the sample holds ``x`` errors (below ``R``).
    population : int or None
        ``N``: the items in the population (the hypergeometric model's; recorded otherwise).
    book_value : Fraction or None
        ``B`` for a monetary-unit plan.
    """

    sample_size: int
    model: Model
    confidence: Fraction
    tolerable_rate: Fraction
    expected_rate: Fraction
    errors_allowed: Fraction
    upper_limit: Decimal
    population: int | None = None
    book_value: Fraction | None = None

    @property
    def interval(self) -> Fraction | None:
        """A monetary-unit plan's sampling interval ``B / n``, exactly (else None)."""
        return None if self.book_value is None else self.book_value / self.sample_size

    def as_dict(self) -> dict[str, object]:
        """The plan as plain JSON values (rates and amounts as numbers)."""
        out: dict[str, object] = {
            "sample_size": self.sample_size,
            "model": self.model,
            "confidence": float(self.confidence),
            "tolerable_rate": float(self.tolerable_rate),
            "expected_rate": float(self.expected_rate),
            "errors_allowed": float(self.errors_allowed),
            "upper_limit": float(self.upper_limit),
            "population": self.population,
        }
        if self.book_value is not None:
            out["book_value"] = float(self.book_value)
            out["tolerable"] = float(self.tolerable_rate * self.book_value)
            out["expected"] = float(self.expected_rate * self.book_value)
            out["interval"] = float(self.book_value / self.sample_size)
        return out


# --------------------------------------------------------------------------- inputs


def rate(name: str, value: RateLike, *, zero: bool = False) -> Fraction:
    """A rate in ``[0, 1)`` (``(0, 1)`` unless ``zero``), exactly: ``0.95``, ``"0.95"``,
    ``"95%"`` and ``Fraction(19, 20)`` are all 19/20 (a float by its shortest repr).

    >>> rate("confidence", "95%"), rate("confidence", 0.95)
    (Fraction(19, 20), Fraction(19, 20))
    """
    found = number(name, value, "a rate such as 0.95 or 95%")
    if found < 0 or (found == 0 and not zero) or found >= 1:
        low = "0 or more" if zero else "more than 0"
        plain = value.strip() if isinstance(value, str) else _show(value)
        hint = f": for {plain} percent, write {plain}%" if found >= 1 else ""
        raise OptionError(
            f"{name} must be {low} and less than 1 (0.05 or 5%), not {_show(value)}{hint}"
        )
    return found


def amount(name: str, value: RateLike) -> Fraction:
    """A money amount of 0 or more, exactly: a number, or a text such as ``"$1,234.56"``
    (at most 6 decimal places)."""
    if isinstance(value, Fraction):
        found = value
    else:
        try:
            found = Fraction(parse_amounts([value], places=6)[0], 10**6)
        except EntryError as exc:
            raise OptionError(f"{name}: {exc.reason}") from None
    if found < 0:
        raise OptionError(f"{name} must be 0 or more, not {_show(value)}")
    return found


def model_of(value: str) -> Model:
    """A model by name (any case, surrounding spaces ignored)."""
    text = value.strip().lower() if isinstance(value, str) else value
    for model in MODELS:
        if text == model:
            return model
    raise OptionError(f"unknown model {value!r}: use {', '.join(MODELS)}")


def _show(value: object) -> str:
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40])[:-1] + "...'"
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of about {value.bit_length() * 30103 // 100000 + 1} digits"
    return str(value)


def number(name: str, value: RateLike, example: str) -> Fraction:
    """Any finite number, exactly: a number, a text such as ``"0.25"`` or ``"25%"``."""
    if isinstance(value, bool):
        raise OptionError(f"{name} must be a number, not {value}: write {example}")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, float | Decimal):
        if not math.isfinite(value):
            raise OptionError(f"{name} must be a finite number, not {value}: write {example}")
        return Fraction(Decimal(repr(value)) if isinstance(value, float) else value)
    if isinstance(value, str):
        text = value.strip()
        percent = text.endswith("%")
        text = text[:-1].strip() if percent else text
        try:
            number = Decimal(text)
        except InvalidOperation:
            number = Decimal("NaN")
        if not number.is_finite():
            raise OptionError(f"{name} must be a number, not {value!r}: write {example}")
        return Fraction(number) / (100 if percent else 1)
    raise OptionError(f"{name} must be a number, not {type(value).__name__}: write {example}")


def _population(value: int | None, model: Model) -> int | None:
    if value is None:
        if model == "hypergeometric":
            raise OptionError("the hypergeometric model needs the population's size: give it")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SizeError(f"the population must be a whole number of 1 or more, not {value!r}")
    return value


# --------------------------------------------------------------------------- planning


def attribute_sample_size(
    *,
    confidence: RateLike,
    tolerable_rate: RateLike,
    expected_rate: RateLike = 0,
    population: int | None = None,
    model: Model = "binomial",
    max_size: int = MAX_SAMPLE,
) -> SamplePlan:
    """The sample size of an attribute (deviation) test.

    Parameters
    ----------
    confidence : float, str or Fraction
        ``C``: ``0.95``, ``"95%"``... (one less the risk of overreliance).
    tolerable_rate : float, str or Fraction
        ``R``: the tolerable deviation rate, ``0 < R < 1``.
    expected_rate : float, str or Fraction, optional
        ``E``: the expected deviation rate, ``0 <= E < R`` (default 0).
    population : int, optional
        ``N``: the items in the population; required by ``model="hypergeometric"``, and
        elsewhere a sample may not exceed it.
    model : {"binomial", "poisson", "hypergeometric"}, optional
        The model of the errors in the sample (default binomial, as the AICPA tables).
    max_size : int, optional
        The largest size looked for (default :data:`MAX_SAMPLE`, 10,000).

    Returns
    -------
    SamplePlan

    Raises
    ------
    OptionError
        A rate out of range, ``E >= R``, an unknown model, no population for the
        hypergeometric model.
    SizeError
        No sample of at most ``max_size`` (or the population) meets the plan.

    Examples
    --------
    >>> attribute_sample_size(confidence=0.95, tolerable_rate=0.05).sample_size
    59
    >>> attribute_sample_size(confidence="95%", tolerable_rate="5%", model="poisson").sample_size
    60
    >>> plan = attribute_sample_size(confidence=0.95, tolerable_rate=0.05, expected_rate=0.01)
    >>> plan.sample_size, plan.errors_allowed
    (93, Fraction(1, 1))
    >>> attribute_sample_size(
    ...     confidence=0.95, tolerable_rate=0.05, population=1000, model="hypergeometric"
    ... ).sample_size
    57
    """
    model = model_of(model)
    c = rate("confidence", confidence)
    r = rate("tolerable rate", tolerable_rate)
    e = rate("expected rate", expected_rate, zero=True)
    if e >= r:
        raise OptionError(
            f"the expected rate ({float(e):g}) must be less than the tolerable rate "
            f"({float(r):g}): a sample cannot show a rate below its tolerable one if more "
            "errors than that are expected"
        )
    n_pop = _population(population, model)
    limit = min(max_size, n_pop) if n_pop is not None else max_size
    n, x = _smallest(model, c, r, e, n_pop, limit)
    return SamplePlan(n, model, c, r, e, x, _planned_limit(model, c, n, x, n_pop), n_pop)


def mus_sample_size(
    *,
    confidence: RateLike,
    book_value: RateLike,
    tolerable: RateLike,
    expected: RateLike = 0,
    model: Model = "poisson",
    max_size: int = MAX_SAMPLE,
) -> SamplePlan:
    """The sample size of a monetary-unit sample (MUS): monetary units to hit.

    The plan of :func:`attribute_sample_size` on the units of money, with the tolerable
    rate ``T / B`` and the expected rate ``E / B``; the hypergeometric model takes the
    book value in whole units (rounded up) as its population.

    Parameters
    ----------
    confidence : float, str or Fraction
        ``C``: ``0.95``, ``"95%"``... (one less the risk of incorrect acceptance).
    book_value : float, str or Fraction
        ``B``: the population's recorded amount, more than 0.
    tolerable : float, str or Fraction
        ``T``: the tolerable misstatement, ``0 < T < B``.
    expected : float, str or Fraction, optional
        ``E``: the expected misstatement, ``0 <= E < T`` (default 0).
    model : {"poisson", "binomial", "hypergeometric"}, optional
        Default poisson, as the AICPA tables for monetary units.
    max_size : int, optional
        The largest size looked for (default :data:`MAX_SAMPLE`, 10,000).

    Returns
    -------
    SamplePlan
        With ``book_value`` set, and the interval ``B / n``.

    Examples
    --------
    >>> plan = mus_sample_size(confidence=0.95, book_value=1_000_000, tolerable=50_000)
    >>> plan.sample_size, float(plan.interval)
    (60, 16666.666666666668)
    >>> mus_sample_size(
    ...     confidence=0.95, book_value=1_000_000, tolerable=50_000, expected=10_000
    ... ).sample_size
    93
    """
    b = amount("book value", book_value)
    t = amount("tolerable misstatement", tolerable)
    e = amount("expected misstatement", expected)
    if b <= 0:
        raise OptionError("the book value must be more than 0")
    if not 0 < t < b:
        raise OptionError(
            f"the tolerable misstatement must be more than 0 and less than the book value "
            f"({_money(b)}), not {_money(t)}"
        )
    if e >= t:
        raise OptionError(
            f"the expected misstatement ({_money(e)}) must be less than the tolerable "
            f"misstatement ({_money(t)})"
        )
    model = model_of(model)
    units = math.ceil(b) if model == "hypergeometric" else None
    plan = attribute_sample_size(
        confidence=rate("confidence", confidence),
        tolerable_rate=t / b,
        expected_rate=e / b,
        population=units,
        model=model,
        max_size=max_size,
    )
    return SamplePlan(
        plan.sample_size,
        plan.model,
        plan.confidence,
        plan.tolerable_rate,
        plan.expected_rate,
        plan.errors_allowed,
        plan.upper_limit,
        units,
        b,
    )


def _money(value: Fraction) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{exact.quantize(Decimal('0.01')):,}" if exact.adjusted() < 20 else f"{exact:.3e}"


def _allowed(model: Model, e: Fraction, n: int) -> Fraction:
    """``x``: the errors a sample of ``n`` may hold (jfa's ``x``)."""
    x = e * n
    return x if model == "poisson" else Fraction(math.ceil(x))


def _smallest(
    model: Model, c: Fraction, r: Fraction, e: Fraction, population: int | None, limit: int
) -> tuple[int, Fraction]:
    """The smallest ``n`` meeting the plan, by a walk up from a size every plan needs.

    The walk is linear, as jfa's: with ``x = ceil(E n)`` the binomial and hypergeometric
    criteria are not monotone in ``n`` (a size can meet the plan and the next one fail),
    so a bisection could miss the smallest.
    """
    alpha = 1 - c
    start = _first_candidate(model, alpha, r)
    k_pop = math.ceil(r * population) if population is not None else 0
    for n in range(start, limit + 1):
        x = _allowed(model, e, n)
        if x >= n:
            continue
        if model == "binomial":
            ok = binomial_below(int(x), n, r, alpha)
        elif model == "poisson":
            ok = gamma_cdf_above(1 + x, r * n, c)
        else:
            assert population is not None  # checked by _population
            ok = x < k_pop and hypergeometric_at_most(int(x), population, k_pop, n, alpha)
        if ok:
            return n, x
    where = "the population" if population is not None and limit == population else "max_size"
    raise SizeError(
        f"no sample of at most {limit:,} items (the size of {where}) meets the plan: raise "
        "the tolerable rate, lower the expected rate or the confidence"
    )


def _first_candidate(model: Model, alpha: Fraction, r: Fraction) -> int:
    """A size below which no plan can succeed: even with no error expected the bound
    must be below ``R`` (binomial: ``(1 - R)**n < alpha``; Poisson: ``n R > -ln alpha``),
    less a margin for the floating-point estimate. Drawing without replacement needs
    fewer (1 item of 1 can be enough), so a hypergeometric walk starts at 1."""
    if model == "hypergeometric":
        return 1
    if model == "poisson":
        estimate = -math.log(alpha) / float(r)
    else:
        estimate = math.log(alpha) / math.log1p(-float(r))
    if not math.isfinite(estimate) or estimate > 2 * MAX_SAMPLE:
        return 2 * MAX_SAMPLE  # past any limit: the walk finds nothing, and says so
    return max(1, math.floor(estimate * (1 - 1e-9)) - 1)


def _planned_limit(
    model: Model, c: Fraction, n: int, x: Fraction, population: int | None
) -> Decimal:
    """The upper limit on the rate when a sample of ``n`` holds ``x`` errors."""
    if model == "binomial":
        return binomial_upper(int(x), n, c)
    with localcontext(CONTEXT):
        if model == "poisson":
            return gamma_quantile(1 + x, c) / n
        assert population is not None
        return Decimal(hypergeometric_upper(int(x), n, population, c)) / population
