"""Audit evaluation: the upper limit after the sample is audited.

- **Attributes** (:func:`attribute_upper_limit`): after ``k`` deviations in ``n`` items,
  the upper deviation limit at confidence ``C``: binomial, the one-sided Clopper-Pearson
  bound (``qbeta(C, k + 1, n - k)``, AICPA Appendix A's Tables A-3 and A-4); Poisson,
  ``U(k) / n`` with the factor ``U(k) = qgamma(C, k + 1)``; hypergeometric, the largest
  number of errors ``K`` in the population of ``N`` under which ``k`` or fewer still have
  chance more than ``1 - C``, as a rate ``K / N``.
- **Monetary units** (:func:`mus_upper_limit`): each hit of the sample has a *tainting*
  ``t = (book - audited) / book``; an item hit ``h`` times counts ``h`` times (jfa's
  ``times``). With ``n`` hits, book value ``B`` and the overstatement taintings ranked
  ``t(1) >= t(2) >= ...`` (at most 1 each), the Stringer bound is

      upper limit = B / n * [U(0) + sum_i (U(i) - U(i-1)) * t(i)]

  with the Poisson factors ``U(i)`` (3.00, 4.74, 6.30, ... at 95%: AICPA, ACL), or with
  ``model="binomial"`` ``n`` times the Clopper-Pearson bounds (jfa's ``stringer``). It is
  the *basic precision* ``B U(0) / n``, plus the *projected misstatement* of the
  overstatements ``B / n * sum t(i)``, plus the *precision gap widening* ``B / n * sum
  (U(i) - U(i-1) - 1) t(i)`` (ACL's three parts). The projected misstatement reported
  is net: ``B / n`` times the sum of every tainting, understatements (negative) included.

  The *cell* bound (``bound="cell"``; Leslie, Teitlebaum and Anderson, *Dollar-Unit
  Sampling*, 1979), made for cell selections, is the recursion ``UB(0) = U(0)``, ``UB(i) =
  max(UB(i-1) + t(i), U(i) * (t(1) + ... + t(i)) / i)``, and the limit ``B / n * UB(m)``;
  it is never above the Stringer bound, and equal to it when every tainting is 1.

  Items of a *top stratum* (examined 100%) are not hits: their misstatement is known, not
  projected. ``B`` is then the sampled population's book value (the book value less the
  top stratum's), and the top stratum's overstatements are added to the upper limit as
  they are (its understatements, like the hits', are left out of the bound of
  overstatements; the most likely misstatement adds them all, net).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Literal

from .auditplan import MAX_SAMPLE, Model, RateLike, amount, model_of, number, rate
from .errors import EntryError, OptionError, SizeError
from .tails import CONTEXT, binomial_upper, hypergeometric_upper, poisson_factor
from .values import DecimalMark, parse_amounts

__all__ = [
    "AttributeEvaluation",
    "MusBound",
    "MusEvaluation",
    "MusModel",
    "attribute_upper_limit",
    "cell_bound",
    "mus_upper_limit",
    "stringer_bound",
]

#: The factors of a Stringer bound: Poisson (AICPA, ACL) or binomial (jfa's default).
MusModel = Literal["poisson", "binomial"]
#: How the taintings are combined: Stringer's sum, or the cell bound's recursion.
MusBound = Literal["stringer", "cell"]


@dataclass(frozen=True)
class AttributeEvaluation:
    """The upper deviation limit of an attribute sample.

    Attributes
    ----------
    sample_size, deviations : int
        ``n`` items tested, ``k`` deviations found.
    confidence : Fraction
    model : str
    upper_limit : Decimal
        The upper limit on the population's deviation rate (30 significant digits,
        rounded up).
    population : int or None
        ``N`` (the hypergeometric model's).
    upper_errors : int or None
        The hypergeometric model's bound on the population's deviations, ``K``.
    tolerable_rate : Fraction or None
        Given, the conclusion compares the upper limit with it.
    """

    sample_size: int
    deviations: int
    confidence: Fraction
    model: Model
    upper_limit: Decimal
    population: int | None = None
    upper_errors: int | None = None
    tolerable_rate: Fraction | None = None

    @property
    def sample_rate(self) -> Fraction:
        """The deviation rate in the sample, ``k / n``."""
        return Fraction(self.deviations, self.sample_size)

    @property
    def accepted(self) -> bool | None:
        """Whether the upper limit is below the tolerable rate (None without one)."""
        if self.tolerable_rate is None:
            return None
        return self.upper_limit < _decimal(self.tolerable_rate)

    def as_dict(self) -> dict[str, object]:
        """The evaluation as plain JSON values."""
        return {
            "sample_size": self.sample_size,
            "deviations": self.deviations,
            "confidence": float(self.confidence),
            "model": self.model,
            "sample_rate": float(self.sample_rate),
            "upper_limit": float(self.upper_limit),
            "population": self.population,
            "upper_errors": self.upper_errors,
            "tolerable_rate": None if self.tolerable_rate is None else float(self.tolerable_rate),
            "accepted": self.accepted,
        }


def attribute_upper_limit(
    *,
    sample_size: int,
    deviations: int,
    confidence: RateLike,
    population: int | None = None,
    model: Model = "binomial",
    tolerable_rate: RateLike | None = None,
) -> AttributeEvaluation:
    """The upper deviation limit after ``deviations`` in ``sample_size`` items.

    Parameters
    ----------
    sample_size : int
        ``n``, 1 or more.
    deviations : int
        ``k``, from 0 to ``n``.
    confidence : float, str or Fraction
        ``C``: ``0.95``, ``"95%"``...
    population : int, optional
        ``N``; required by the hypergeometric model (``n <= N``).
    model : {"binomial", "poisson", "hypergeometric"}, optional
        Default binomial (AICPA Tables A-3 and A-4).
    tolerable_rate : float, str or Fraction, optional
        Given, :attr:`AttributeEvaluation.accepted` compares the limit with it.

    Returns
    -------
    AttributeEvaluation

    Examples
    --------
    >>> round(attribute_upper_limit(sample_size=59, deviations=0, confidence=0.95).upper_limit, 4)
    Decimal('0.0495')
    >>> e = attribute_upper_limit(sample_size=100, deviations=2, confidence="95%", model="poisson")
    >>> round(e.upper_limit, 4)
    Decimal('0.0630')
    >>> e = attribute_upper_limit(
    ...     sample_size=100, deviations=2, confidence=0.95, population=1000, model="hypergeometric"
    ... )
    >>> e.upper_errors, e.upper_limit
    (59, Decimal('0.059'))
    """
    model = model_of(model)
    n = _whole("the sample size", sample_size, 1, MAX_SAMPLE)
    k = _whole("the number of deviations", deviations, 0)
    if k > n:
        raise SizeError(f"{k} deviations cannot be found in a sample of {n} items")
    c = rate("confidence", confidence)
    tolerable = None if tolerable_rate is None else rate("tolerable rate", tolerable_rate)
    upper_errors = None
    big_n: int | None
    if model == "hypergeometric":
        if population is None:
            raise OptionError("the hypergeometric model needs the population's size: give it")
        size = _whole("the population", population, 1)
        if n > size:
            raise SizeError(f"a sample of {n} items cannot come from a population of {size}")
        big_n, upper_errors = size, hypergeometric_upper(k, n, size, c)
        with localcontext(CONTEXT):
            limit = Decimal(upper_errors) / Decimal(size)
    else:
        big_n = None if population is None else _whole("the population", population, 1)
        if model == "binomial":
            limit = binomial_upper(k, n, c)
        else:
            with localcontext(CONTEXT):
                limit = poisson_factor(k, c) / n
    return AttributeEvaluation(n, k, c, model, limit, big_n, upper_errors, tolerable)


# --------------------------------------------------------------------------- monetary units


@dataclass(frozen=True)
class MusEvaluation:
    """The upper misstatement limit of a monetary-unit sample (the Stringer bound).

    Attributes
    ----------
    sample_size : int
        ``n``: the hits (monetary units) of the sample.
    book_value : Fraction
        ``B``: the population's recorded amount.
    confidence : Fraction
    model : str
        ``"poisson"`` or ``"binomial"``: the factors.
    taintings : tuple of Fraction
        Every hit's tainting, ranked from the largest (understatements last, negative).
    factors : tuple of Decimal
        ``U(0), U(1), ...``: one more than the overstatements (for the binomial model,
        ``n`` times the Clopper-Pearson bounds).
    upper_limit : Decimal
        The upper misstatement limit, an amount.
    tolerable : Fraction or None
        Given, the conclusion compares the upper limit with it.
    bound : str
        ``"stringer"`` or ``"cell"``.
    top_items : int
        Items of the top stratum, examined 100% (0 without one).
    top_book : Fraction
        Their book amount, which ``book_value`` does not include.
    known : Fraction
        Their misstatement, book less audited, net (overstatements positive).
    known_over : Fraction
        Their overstatements alone, which the upper limit includes.
    """

    sample_size: int
    book_value: Fraction
    confidence: Fraction
    model: MusModel
    taintings: tuple[Fraction, ...]
    factors: tuple[Decimal, ...]
    upper_limit: Decimal
    tolerable: Fraction | None = None
    bound: MusBound = "stringer"
    top_items: int = 0
    top_book: Fraction = Fraction(0)
    known: Fraction = Fraction(0)
    known_over: Fraction = Fraction(0)

    @property
    def most_likely(self) -> Fraction:
        """The most likely misstatement: the projected one plus the top stratum's, net."""
        return self.projected + self.known

    @property
    def interval(self) -> Fraction:
        """``B / n``: the amount each hit stands for."""
        return self.book_value / self.sample_size

    @property
    def projected(self) -> Fraction:
        """The projected (most likely) misstatement, net: ``B / n * sum of taintings``."""
        return self.interval * sum(self.taintings, Fraction(0))

    @property
    def basic_precision(self) -> Decimal:
        """``B / n * U(0)``: the upper limit had no hit been misstated."""
        with localcontext(CONTEXT):
            return _decimal(self.interval) * self.factors[0]

    @property
    def overstatements(self) -> int:
        """Hits whose audited amount is below their book amount."""
        return sum(1 for t in self.taintings if t > 0)

    @property
    def understatements(self) -> int:
        """Hits whose audited amount is above their book amount."""
        return sum(1 for t in self.taintings if t < 0)

    @property
    def accepted(self) -> bool | None:
        """Whether the upper limit is below the tolerable misstatement (None without one)."""
        return None if self.tolerable is None else self.upper_limit < _decimal(self.tolerable)

    @property
    def precision_gap_widening(self) -> Decimal:
        """``B / n * sum (U(i) - U(i-1) - 1) t(i)``: what the upper limit adds to the basic
        precision and the projected overstatements."""
        over = sum((min(t, Fraction(1)) for t in self.taintings if t > 0), Fraction(0))
        with localcontext(CONTEXT):
            return (
                self.upper_limit
                - self.basic_precision
                - _decimal(self.interval * over)
                - _decimal(self.known_over)
            )

    def as_dict(self) -> dict[str, object]:
        """The evaluation as plain JSON values (amounts as numbers)."""
        return {
            "sample_size": self.sample_size,
            "book_value": float(self.book_value),
            "confidence": float(self.confidence),
            "model": self.model,
            "interval": float(self.interval),
            "overstatements": self.overstatements,
            "understatements": self.understatements,
            "taintings": [float(t) for t in self.taintings if t != 0],
            "factors": [float(f) for f in self.factors],
            "basic_precision": float(self.basic_precision),
            "projected": float(self.projected),
            "precision_gap_widening": float(self.precision_gap_widening),
            "upper_limit": float(self.upper_limit),
            "tolerable": None if self.tolerable is None else float(self.tolerable),
            "accepted": self.accepted,
            "bound": self.bound,
            "top_items": self.top_items,
            "top_book": float(self.top_book),
            "known_misstatement": float(self.known),
            "most_likely": float(self.most_likely),
        }


def cell_bound(
    taintings: Iterable[RateLike],
    *,
    sample_size: int,
    confidence: RateLike,
    model: MusModel = "poisson",
) -> tuple[Decimal, tuple[Decimal, ...]]:
    """The cell bound as a rate of the book value, and its factors ``U(0..m)``.

    ``UB(0) = U(0)``; for the overstatement taintings ranked ``t(1) >= t(2) >= ...`` (at
    most 1 each; others left out), ``UB(i) = max(UB(i-1) + t(i), U(i) * mean(t(1..i)))``;
    the bound is ``UB(m) / n`` (Leslie, Teitlebaum and Anderson's cell evaluation).

    >>> bound, factors = cell_bound([1, "0.5"], sample_size=100, confidence=0.95)
    >>> round(bound, 6), round(stringer_bound([1, "0.5"], sample_size=100, confidence=0.95)[0], 6)
    (Decimal('0.052439'), Decimal('0.055198'))
    """
    n, ranked, factors = _ranked_factors(taintings, sample_size, confidence, model)
    with localcontext(CONTEXT):
        upper, total = factors[0], Decimal(0)
        for i, t in enumerate(ranked, 1):
            total += _decimal(t)
            upper = max(upper + _decimal(t), factors[i] * total / i)
        return upper / n, factors


def _ranked_factors(
    taintings: Iterable[RateLike], sample_size: int, confidence: RateLike, model: MusModel
) -> tuple[int, list[Fraction], tuple[Decimal, ...]]:
    """``n``, the overstatement taintings ranked (each at most 1), ``U(0..m)``."""
    n = _whole("the sample size", sample_size, 1, MAX_SAMPLE)
    c = rate("confidence", confidence)
    if model not in ("poisson", "binomial"):
        raise OptionError(f"unknown model {model!r} for a Stringer bound: use poisson or binomial")
    ranked = sorted((min(t, Fraction(1)) for t in map(_tainting, taintings) if t > 0), reverse=True)
    if len(ranked) > n:
        raise SizeError(f"{len(ranked)} misstated hits cannot be found in a sample of {n}")
    with localcontext(CONTEXT):
        if model == "poisson":
            factors = tuple(poisson_factor(i, c) for i in range(len(ranked) + 1))
        else:
            factors = tuple(binomial_upper(i, n, c) * n for i in range(len(ranked) + 1))
    return n, ranked, factors


def stringer_bound(
    taintings: Iterable[RateLike],
    *,
    sample_size: int,
    confidence: RateLike,
    model: MusModel = "poisson",
) -> tuple[Decimal, tuple[Decimal, ...]]:
    """The Stringer bound as a rate of the book value, and its factors ``U(0..m)``.

    ``taintings`` are the overstatement taintings of the hits (others, 0 or negative,
    are left out; more than 1 counts as 1); ``U(i)`` are the Poisson factors, or ``n``
    times the Clopper-Pearson bounds for ``model="binomial"``.

    >>> bound, factors = stringer_bound([1, "0.5"], sample_size=100, confidence=0.95)
    >>> [round(f, 2) for f in factors], round(bound, 6)
    ([Decimal('3.00'), Decimal('4.74'), Decimal('6.30')], Decimal('0.055198'))
    """
    n, ranked, factors = _ranked_factors(taintings, sample_size, confidence, model)
    with localcontext(CONTEXT):
        total = factors[0] + sum(
            ((factors[i] - factors[i - 1]) * _decimal(t) for i, t in enumerate(ranked, 1)),
            Decimal(0),
        )
        return total / n, factors


def mus_upper_limit(
    book: Sequence[object],
    audited: Sequence[object],
    *,
    book_value: RateLike,
    confidence: RateLike,
    hits: Sequence[object] | None = None,
    model: MusModel = "poisson",
    tolerable: RateLike | None = None,
    bound: MusBound = "stringer",
    top: Sequence[bool] | None = None,
    decimal: DecimalMark = "point",
) -> MusEvaluation:
    """The upper misstatement limit of a monetary-unit sample, from its audited items.

    Parameters
    ----------
    book, audited : sequence of numbers or texts
        Each sampled item's recorded and audited amounts (``"$1,234.56"`` is read as in
        ``sample --amount``: at most two decimals, 0 or more; a book amount must be more
        than 0, as only such an item can be hit).
    book_value : float, str or Fraction
        ``B``: the population's recorded amount, which the sample was drawn from (with a
        top stratum: its items included; their book amount is taken off).
    confidence : float, str or Fraction
        ``C``: ``0.95``, ``"95%"``...
    hits : sequence of int, optional
        How many monetary units hit each item (the ``Hits`` column ``xlshuffle sample
        --method mus`` writes); 1 each by default. ``n`` is their sum.
    model : {"poisson", "binomial"}, optional
        The factors (default Poisson, as AICPA and ACL).
    tolerable : float, str or Fraction, optional
        ``T``; given, :attr:`MusEvaluation.accepted` compares the limit with it.
    bound : {"stringer", "cell"}, optional
        Stringer's bound (default), or the cell bound, for a cell selection.
    top : sequence of bool, optional
        Which items are the top stratum (the column ``Top stratum`` that ``xlshuffle
        sample --top-stratum`` writes): examined 100%, their misstatement known, not
        projected; their hits must be 0.
    decimal : {"point", "comma"}, optional
        How the amounts' texts write decimals (``"comma"``: ``1.234,56``).

    Returns
    -------
    MusEvaluation

    Examples
    --------
    >>> e = mus_upper_limit(
    ...     ["1,000.00", "500.00", "250.00"], ["1,000.00", "250.00", "250.00"],
    ...     book_value=100_000, confidence=0.95, hits=[1, 1, 1], tolerable=20_000
    ... )
    >>> e.sample_size, e.projected, round(e.upper_limit, 2), e.accepted
    (3, Fraction(50000, 3), Decimal('128993.28'), False)
    """
    if model not in ("poisson", "binomial"):
        raise OptionError(f"unknown model {model!r}: use poisson or binomial")
    books = _amounts("book", book, decimal)
    audits = _amounts("audited", audited, decimal)
    if len(books) != len(audits):
        raise SizeError(
            f"{len(books)} book amounts but {len(audits)} audited ones: give one of each per item"
        )
    if not books:
        raise SizeError("the sample holds no item: give each sampled item's amounts")
    if bound not in ("stringer", "cell"):
        raise OptionError(f"unknown bound {bound!r}: use stringer or cell")
    tops, counts = _top_and_hits(top, hits, len(books))
    if sum(counts) > MAX_SAMPLE:
        raise SizeError(f"the sample holds {sum(counts):,} hits: at most {MAX_SAMPLE:,} are taken")
    for i, b in enumerate(books):
        if b == 0:
            raise EntryError(i, "the book amount is 0: such an item cannot be hit by a unit")
    top_book = sum((Fraction(b, 100) for b, t in zip(books, tops, strict=True) if t), Fraction(0))
    misstated = [Fraction(b - a, 100) for b, a, t in zip(books, audits, tops, strict=True) if t]
    b_value = amount("book value", book_value) - top_book
    if b_value <= 0:
        raise OptionError(
            "the book value must be more than 0"
            + (f" after the top stratum's {float(top_book):,.2f}" if top_book else "")
            + ": give the whole population's"
        )
    c = rate("confidence", confidence)
    t_amount = None if tolerable is None else amount("tolerable misstatement", tolerable)
    taints = sorted(
        (
            Fraction(b - a, b)
            for b, a, h, t in zip(books, audits, counts, tops, strict=True)
            if not t
            for _ in range(h)
        ),
        reverse=True,
    )
    n = len(taints)
    if n == 0:
        raise SizeError("the sample holds no hit: every Hits value is 0")
    combine = cell_bound if bound == "cell" else stringer_bound
    rate_limit, factors = combine(taints, sample_size=n, confidence=c, model=model)
    known_over = sum((m for m in misstated if m > 0), Fraction(0))
    with localcontext(CONTEXT):
        limit = rate_limit * _decimal(b_value) + _decimal(known_over)
    return MusEvaluation(
        n,
        b_value,
        c,
        model,
        tuple(taints),
        factors,
        limit,
        t_amount,
        bound,
        sum(tops),
        top_book,
        sum(misstated, Fraction(0)),
        known_over,
    )


# --------------------------------------------------------------------------- inputs


def _top_and_hits(
    top: Sequence[bool] | None, hits: Sequence[object] | None, count: int
) -> tuple[list[bool], list[int]]:
    """Each item's top-stratum flag and hits (1 each, 0 in the top stratum, unless given)."""
    tops = [False] * count if top is None else [bool(t) for t in top]
    if len(tops) != count:
        raise SizeError(f"{len(tops)} top-stratum flags for {count} items: give one per item")
    if hits is None:
        return tops, [0 if t else 1 for t in tops]
    counts = _hits(hits, count)
    for i, (t, h) in enumerate(zip(tops, counts, strict=True)):
        if t and h:
            raise EntryError(i, f"an item of the top stratum is examined whole, not hit ({h})")
    return tops, counts


def _whole(name: str, value: object, least: int, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise SizeError(f"{name} must be a whole number, not {value!r}")
    if value < least:
        raise SizeError(f"{name} must be {least} or more, not {value}")
    if most is not None and value > most:
        raise SizeError(
            f"{name} must be at most {most:,}: split a larger sample, or test every item"
        )
    return value


def _tainting(value: RateLike) -> Fraction:
    return number("tainting", value, "a proportion such as 0.25")


def _amounts(name: str, values: Sequence[object], decimal: DecimalMark = "point") -> list[int]:
    try:
        return parse_amounts(values, decimal=decimal)
    except EntryError as exc:
        raise EntryError(exc.index, f"{name}: {exc.reason}") from None


def _hits(values: Sequence[object], count: int) -> list[int]:
    if len(values) != count:
        raise SizeError(f"{len(values)} hit counts for {count} items: give one per item")
    out = []
    for i, v in enumerate(values):
        text = v.strip() if isinstance(v, str) else v
        if isinstance(text, str) and text.isdecimal():
            out.append(int(text))
        elif isinstance(text, int) and not isinstance(text, bool) and text >= 0:
            out.append(text)
        elif isinstance(text, float) and text.is_integer() and text >= 0:
            out.append(int(text))
        else:
            raise EntryError(i, f"hits: {v!r} is not a whole number of hits (0 or more)")
    return out


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)
