"""Audit selections: systematic and monetary-unit sampling (protocol section 12).

Both take one random start, ``s = randbelow(N)``, and then hit ``(s + j*N) // k`` for
``j = 0 .. k-1``: a start in ``[0, N/k)`` and the interval ``N/k``, in exact integers. For
a *systematic* selection ``N`` is the number of items and each hit is an item; for a
*monetary-unit* selection ``N`` is the total in cents and each hit is a cent, which
selects the item whose amount holds it. An auditor re-performs a selection from the
seed, the method, ``N``, ``k`` and the start, all of which :class:`AuditSample` keeps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from .errors import SizeError
from .knuth import check_count
from .protocol import resolve_source
from .weighted import check_weights

__all__ = ["AuditMethod", "AuditSample", "Selection", "monetary_unit_sample", "systematic_sample"]

_TWO64 = 1 << 64

#: The audit selections: every n/k-th item, or k monetary units.
AuditMethod = Literal["systematic", "monetary-unit"]


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
        ``s = randbelow(N)``; the first hit is ``s // k``. ``None`` when ``k`` is 0.
    units : tuple of int
        The hits ``(s + j*N) // k`` (items, or cents counted from 0), ascending.
    selected : tuple of Selection
        The selected items, in input order.
    """

    method: AuditMethod
    population: int
    k: int
    start: int | None
    units: tuple[int, ...]
    selected: tuple[Selection, ...]

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
    k = check_count("k", k)
    cents = check_weights(amounts, "an amount")
    total = sum(cents)
    if k > total:
        raise SizeError(f"cannot hit {k} cents of a total of {total}: k must be at most the total")
    if total > _TWO64:
        raise SizeError(f"the amounts add up to {total} cents, more than 2**64: split the audit")
    start, units = _hits(total, k, seed)
    selected: list[Selection] = []
    item, end = -1, 0  # end: the first cent after item `item`
    for unit in units:  # ascending, so one walk over the amounts finds every holder
        if unit < end:
            selected[-1] = selected[-1]._replace(hits=selected[-1].hits + 1)
            continue
        while unit >= end:
            item += 1
            end += cents[item]
        selected.append(Selection(item, 1, cents[item] * k >= total))
    return AuditSample("monetary-unit", total, k, start, tuple(units), tuple(selected))
