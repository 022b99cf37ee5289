"""Audit selections: systematic and monetary-unit sampling (protocol sections 12 and 19).

Both take one random start, ``s = randbelow(N)``, and then hit ``(s + j*N) // k`` for
``j = 0 .. k-1``: a start in ``[0, N/k)`` and the interval ``N/k``, in exact integers. For
a *systematic* selection ``N`` is the number of items and each hit is an item; for a
*monetary-unit* selection ``N`` is the total in cents and each hit is a cent, which
selects the item whose amount holds it. An auditor re-performs a selection from the
seed, the method, ``N``, ``k`` and the start, all of which :class:`AuditSample` keeps.

A *cell* selection (section 20, ACL's and IDEA's "cell" method) draws one start per
cell instead: ``s_j = randbelow(N)`` for each ``j`` in turn, and hits ``(s_j + j*N) // k``,
one random unit in each interval. :func:`mus_population` splits a ledger before either:
the amounts 0 or below set aside, a top stratum taken whole, the rest sampled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from .errors import SizeError
from .knuth import check_count
from .protocol import resolve_source
from .weighted import check_weights

__all__ = [
    "AuditMethod",
    "AuditSample",
    "MusPopulation",
    "Selection",
    "cell_sample",
    "monetary_unit_sample",
    "mus_population",
    "systematic_sample",
]

_TWO64 = 1 << 64

#: The audit selections: every n/k-th item, k monetary units from one start, or one
#: random monetary unit in each of k cells.
AuditMethod = Literal["systematic", "monetary-unit", "cell"]


class Selection(NamedTuple):
    """One selected item: its 0-based index, how many hits fell on it, and whether it is
    selected whatever the start (``certain``: an amount at least the interval)."""

    item: int
    hits: int
    certain: bool


@dataclass(frozen=True)
class AuditSample:
    """An audit selection and what re-performs it.

    Attributes
    ----------
    method : str
        ``"systematic"`` or ``"monetary-unit"``.
    population : int
        ``N``: the number of items, or the total amount in cents.
    k : int
        The number of hits.
    start : int or None
        ``s = randbelow(N)``; the first hit is ``s // k``. ``None`` when ``k`` is 0, and
        for a cell selection (its starts are ``starts``).
    units : tuple of int
        The hits ``(s + j*N) // k`` (items, or cents counted from 0), ascending.
    selected : tuple of Selection
        The selected items, in input order.
    starts : tuple of int
        A cell selection's starts ``s_0 .. s_(k-1)``, one per cell (empty otherwise).
    """

    method: AuditMethod
    population: int
    k: int
    start: int | None
    units: tuple[int, ...]
    selected: tuple[Selection, ...]
    starts: tuple[int, ...] = ()

    @property
    def interval(self) -> Fraction:
        """The sampling interval ``N / k``, exactly."""
        return Fraction(self.population, self.k) if self.k else Fraction(0)

    @property
    def indexes(self) -> list[int]:
        """The selected items' 0-based indexes, in input order."""
        return [s.item for s in self.selected]


def _hits(population: int, k: int, seed: object) -> tuple[int | None, list[int]]:
    if k == 0:
        return None, []  # nothing to hit: no word of the stream is used
    s = resolve_source(seed).randbelow(population)
    return s, [(s + j * population) // k for j in range(k)]


def systematic_sample(n: int, k: int, *, seed: object = None) -> AuditSample:
    """Select ``k`` of ``n`` items at a fixed interval from a random start.

    With ``s = randbelow(n)`` the items ``(s + j*n) // k``, ``j = 0 .. k-1``, are
    selected: a start in ``[0, n/k)`` and then every ``n/k``-th item, in exact integers.
    Each item is selected with chance exactly ``k/n``.

    Parameters
    ----------
    n : int
        Number of items (rows), ``n >= 0``.
    k : int
        How many to select, ``0 <= k <= n``.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`~xlshuffle.draw.knuth.shuffle`).

    Returns
    -------
    AuditSample

    Examples
    --------
    >>> sample = systematic_sample(100, 4, seed="audit 2026")
    >>> sample.start, sample.interval, sample.indexes
    (1, Fraction(25, 1), [0, 25, 50, 75])
    """
    n = check_count("n", n)
    k = check_count("k", k)
    if k > n:
        raise SizeError(f"cannot select {k} of {n} items: k must be at most {n}")
    if n > _TWO64:
        raise SizeError(f"{n} items are more than 2**64: the protocol draws below 2**64")
    start, units = _hits(n, k, seed)
    certain = k == n
    return AuditSample(
        "systematic", n, k, start, tuple(units), tuple(Selection(u, 1, certain) for u in units)
    )


def monetary_unit_sample(amounts: Iterable[object], k: int, *, seed: object = None) -> AuditSample:
    """Select items with chance proportional to their amounts (monetary-unit sampling).

    The amounts, in whole cents, are laid end to end: item ``i`` holds the cents
    ``[c_i, c_i + a_i)``. With ``T`` the total and ``s = randbelow(T)``, the cents
    ``(s + j*T) // k``, ``j = 0 .. k-1``, are hit, and each hit selects the item holding
    it; an item hit more than once is selected once (``Selection.hits`` counts them).

    Every item with ``a_i * k >= T`` (an amount at least the interval ``T/k``: the *top
    stratum*) is always selected; any other item is selected with chance exactly
    ``a_i * k / T``. Items with amount 0 are never selected.

    Parameters
    ----------
    amounts : iterable of int
        Amounts in cents, ``>= 0`` (:func:`~xlshuffle.draw.values.parse_amounts` turns
        currency texts and numbers into cents).
    k : int
        How many cents to hit, ``0 <= k <= T``; fewer items are selected when an item is
        hit twice.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`~xlshuffle.draw.knuth.shuffle`).

    Returns
    -------
    AuditSample

    Raises
    ------
    EntryError
        For a negative amount or one that is not a whole number of cents, naming it.
    SizeError
        If ``k`` is more than the total cents, or the total exceeds ``2**64``.

    Examples
    --------
    >>> sample = monetary_unit_sample([500_00, 20_00, 0, 130_00, 350_00], 4, seed="audit 2026")
    >>> sample.interval, sample.start
    (Fraction(25000, 1), 11601)
    >>> [(s.item, s.hits, s.certain) for s in sample.selected]
    [(0, 2, True), (3, 1, False), (4, 1, True)]
    """
    k, cents, total = _cents(amounts, k)
    start, units = _hits(total, k, seed)
    selected = _holders(cents, units, lambda i, c: cents[i] * k >= total)
    return AuditSample("monetary-unit", total, k, start, tuple(units), tuple(selected))


def _cents(amounts: Iterable[object], k: int) -> tuple[int, list[int], int]:
    k = check_count("k", k)
    cents = check_weights(amounts, "an amount")
    total = sum(cents)
    if k > total:
        raise SizeError(f"cannot hit {k} cents of a total of {total}: k must be at most the total")
    if total > _TWO64:
        raise SizeError(f"the amounts add up to {total} cents, more than 2**64: split the audit")
    return k, cents, total


def _holders(
    cents: list[int], units: list[int], certain: Callable[[int, int], bool]
) -> list[Selection]:
    """The items holding ``units`` (ascending), each once with its hits; ``certain(i, c)``
    says whether item ``i``, whose cents start at ``c``, is selected whatever the draw."""
    selected: list[Selection] = []
    item, end = -1, 0  # end: the first cent after item `item`
    for unit in units:  # ascending, so one walk over the amounts finds every holder
        if unit < end:
            selected[-1] = selected[-1]._replace(hits=selected[-1].hits + 1)
            continue
        while unit >= end:
            item += 1
            end += cents[item]
        selected.append(Selection(item, 1, certain(item, end - cents[item])))
    return selected


def cell_sample(amounts: Iterable[object], k: int, *, seed: object = None) -> AuditSample:
    """Select items by monetary unit, one random unit in each of ``k`` equal cells.

    The amounts, in whole cents, are laid end to end as in :func:`monetary_unit_sample`,
    and the total ``T`` is cut into ``k`` cells of ``T/k`` cents. For each cell ``j`` in
    turn a start ``s_j = randbelow(T)`` is drawn and the cent ``(s_j + j*T) // k`` is hit:
    one cent chosen at random inside cell ``j`` (protocol section 20; ACL's and IDEA's
    *cell* method). Each cent is hit ``k/T`` times on average, as in a fixed-interval
    selection, but the hits are independent from cell to cell, so no pattern in the
    ledger can line up with the interval.

    An item is certain to be selected only if its cents hold a whole cell (``a_i >=
    2*T/k`` is enough); an item of at least the interval that straddles two cells may
    be missed. Take such items whole with a top stratum (:func:`mus_population`).

    Parameters
    ----------
    amounts : iterable of int
        Amounts in cents, ``>= 0``.
    k : int
        How many cells (hits), ``0 <= k <= T``; an item may be hit in several cells.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`~xlshuffle.draw.knuth.shuffle`).

    Returns
    -------
    AuditSample
        With ``method="cell"``, ``start`` None and the cells' ``starts``.

    Examples
    --------
    >>> sample = cell_sample([500_00, 20_00, 0, 130_00, 350_00], 4, seed="audit 2026")
    >>> sample.starts
    (11601, 21955, 41257, 89272)
    >>> [(s.item, s.hits, s.certain) for s in sample.selected]
    [(0, 2, True), (3, 1, False), (4, 1, True)]
    """
    k, cents, total = _cents(amounts, k)
    source = resolve_source(seed) if k else None
    starts = [source.randbelow(total) for _ in range(k)] if source else []
    units = [(s + j * total) // k for j, s in enumerate(starts)]

    def certain(i: int, c: int) -> bool:  # the item's cents hold a whole cell
        first = -(-k * c // total)  # the first cell starting at or after the item's start
        return (first + 1) * total <= k * (c + cents[i])

    selected = _holders(cents, units, certain)
    return AuditSample("cell", total, k, None, tuple(units), tuple(selected), tuple(starts))


@dataclass(frozen=True)
class MusPopulation:
    """A ledger split for a monetary-unit sample (protocol section 20).

    Attributes
    ----------
    set_aside : tuple of int
        The items of amount 0 or below, in input order: no unit can select them, so they
        are their own population (credits to test for understatement, zeros to check).
    top : tuple of int
        The top stratum: items at or above the cutoff, each taken whole (examined 100%).
    sampled : tuple of int
        The other items, which the units are drawn from.
    cutoff : Fraction or None
        The top stratum's cutoff in cents (None without one).
    """

    set_aside: tuple[int, ...]
    top: tuple[int, ...]
    sampled: tuple[int, ...]
    cutoff: Fraction | None = None


def mus_population(
    amounts: Sequence[int], k: int, *, cutoff: int | Literal["interval"] | None = None
) -> MusPopulation:
    """Split signed amounts in cents into those set aside, a top stratum and the sample's
    population (protocol section 20).

    Parameters
    ----------
    amounts : sequence of int
        Every item's amount in cents, negative allowed.
    k : int
        The hits to draw from the sampled items (for ``cutoff="interval"``).
    cutoff : int, "interval" or None
        Items of at least ``cutoff`` cents form the top stratum; ``"interval"`` is the
        interval ``T/k`` of the positive amounts' total ``T`` (ACL's default cutoff);
        None: no top stratum.

    Examples
    --------
    >>> mus_population([500_00, -20_00, 0, 130_00, 350_00], 2, cutoff="interval")
    MusPopulation(set_aside=(1, 2), top=(0,), sampled=(3, 4), cutoff=Fraction(49000, 1))
    """
    k = check_count("k", k)
    set_aside = tuple(i for i, a in enumerate(amounts) if a <= 0)
    if cutoff is None:
        gone = set(set_aside)
        return MusPopulation(set_aside, (), tuple(i for i in range(len(amounts)) if i not in gone))
    if cutoff == "interval":
        if k == 0:
            raise SizeError("a top stratum at the interval needs k of 1 or more")
        line = Fraction(sum(a for a in amounts if a > 0), k)
    elif isinstance(cutoff, int) and not isinstance(cutoff, bool) and cutoff > 0:
        line = Fraction(cutoff)
    else:
        raise SizeError(f"a top stratum's cutoff is an amount more than 0, not {cutoff!r}")
    top = tuple(i for i, a in enumerate(amounts) if a > 0 and a >= line)
    sampled = tuple(i for i, a in enumerate(amounts) if 0 < a < line)
    return MusPopulation(set_aside, top, sampled, line)
