"""The draws' exact chances: every sequence of ``randbelow`` answers, enumerated.

The real code of :mod:`xlshuffle.draw` runs through the lab's scripted source
(:func:`~xlshuffle.lab.exact.enumerate_choices`). Imported and documented through
:mod:`xlshuffle.lab.raffles`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar, cast

from ..draw import (
    monetary_unit_sample,
    placings,
    stratified_sample,
    systematic_sample,
    weighted_sample,
)
from ..draw.protocol import Source
from .exact import enumerate_choices, iter_choices

__all__ = [
    "AuditChances",
    "audit_chances",
    "draw_distribution",
    "first_place",
    "inclusion",
    "reserve_prefix",
    "strata_distribution",
    "successive_chance",
    "weighted_orders",
]

T = TypeVar("T", bound=Hashable)


def draw_distribution(
    draw: Callable[[Source], T], *, max_leaves: int = 2_000_000
) -> dict[T, Fraction]:
    """Run ``draw(source)`` for every sequence of ``randbelow`` answers; exact outcome chances.

    Examples
    --------
    >>> dist = draw_distribution(lambda s: tuple(weighted_sample([2, 1, 1], 2, seed=s)))
    >>> str(dist[(0, 1)]), len(dist)
    ('1/4', 6)
    """
    dist, _ = enumerate_choices(lambda _items, s: [draw(s)], 0, max_leaves=max_leaves)
    return {cast(T, key[0]): p for key, p in dist.items()}


def successive_chance(weights: Sequence[int], order: Sequence[int]) -> Fraction:
    """The chance protocol section 8 states for drawing ``order``: prod(weight / remaining).

    Examples
    --------
    >>> successive_chance([5, 3, 1, 1], [0, 1])
    Fraction(3, 10)
    """
    left, p = list(weights), Fraction(1)
    for i in order:
        if not left[i]:
            return Fraction(0)
        p *= Fraction(left[i], sum(left))
        left[i] = 0
    return p


def weighted_orders(weights: Sequence[int], k: int) -> dict[tuple[int, ...], Fraction]:
    """Exact chance of every ordered outcome of ``weighted_sample(weights, k)``."""
    return draw_distribution(lambda s: tuple(weighted_sample(weights, k, seed=s)))


def inclusion(dist: Mapping[tuple[int, ...], Fraction], n: int) -> list[Fraction]:
    """``out[i]``: the chance that item ``i`` is in the outcome (an outcome is a tuple)."""
    out = [Fraction(0)] * n
    for picks, p in dist.items():
        for i in set(picks):
            out[i] += p
    return out


def first_place(dist: Mapping[tuple[int, ...], Fraction], n: int) -> list[Fraction]:
    """``out[i]``: the chance that item ``i`` comes first in the outcome (a tuple)."""
    out = [Fraction(0)] * n
    for picks, p in dist.items():
        out[picks[0]] += p
    return out


def reserve_prefix(weights: Sequence[int], winners: int, reserves: int) -> tuple[int, int]:
    """Check section 9 on every sequence of answers: ``(sequences, failures)``.

    For each sequence, the winners of ``placings(weighted_sample(weights, winners +
    reserves), winners)`` must be ``weighted_sample(weights, winners)`` fed the same
    answers, and the reserves the draw's continuation (positions ``winners + 1 ..``).
    """

    def run(_items: Sequence[object], s: Source) -> list[object]:
        return [*weighted_sample(weights, winners + reserves, seed=s)]

    failures = sequences = 0
    for choices, _, drawn in iter_choices(run, 0):
        sequences += 1
        answers = iter(choices)
        alone = weighted_sample(weights, winners, seed=_Replay(answers))
        places = placings(list(drawn or ()), winners)
        won = [p.entrant for p in places if p.role == "winner"]
        kept = [p.entrant for p in places if p.role == "reserve"]
        if won != alone or [*won, *kept] != list(drawn or ()):
            failures += 1
    return sequences, failures


class _Replay:
    """Answers ``randbelow`` from an iterator of answers given earlier to the same draw."""

    def __init__(self, answers: Iterator[int]) -> None:
        self.answers = answers

    def randbelow(self, m: int, /) -> int:
        return next(self.answers)


class _Tree:
    """The scripted source with sub-streams: every stratum's is the script itself.

    So the strata take their answers one after another from one enumeration, each stratum's
    answers uniform and independent of the others': what separate sub-streams model.
    """

    def __init__(self, source: Source) -> None:
        self.source = source

    def randbelow(self, m: int, /) -> int:
        return self.source.randbelow(m)

    def substream(self, label: object) -> _Tree:
        return self


def strata_distribution(
    labels: Sequence[object], counts: Mapping[object, int], weights: Sequence[int] | None = None
) -> dict[tuple[tuple[int, ...], ...], Fraction]:
    """Exact chance of each outcome of a stratified draw: one tuple of drawn rows per stratum."""

    def draw(s: Source) -> tuple[tuple[int, ...], ...]:
        strata = stratified_sample(labels, counts=counts, weights=weights, seed=_Tree(s))
        return tuple(tuple(x.drawn) for x in strata)

    return draw_distribution(draw)


@dataclass(frozen=True)
class AuditChances:
    """Exact chances of an audit selection, over every start.

    Attributes
    ----------
    items : list of Fraction
        Chance each item is selected.
    hits : list of Fraction
        Expected hits on each item.
    units : list of Fraction
        Chance each unit (item of a systematic selection, cent of a monetary-unit one) is hit.
    always : list of bool
        Whether each item is selected whatever the start.
    """

    items: list[Fraction]
    hits: list[Fraction]
    units: list[Fraction]
    always: list[bool]


def audit_chances(amounts: Sequence[int] | int, k: int) -> AuditChances:
    """Exact chances of ``monetary_unit_sample(amounts, k)``, or of ``systematic_sample(n, k)``
    when ``amounts`` is a count ``n``.

    Examples
    --------
    >>> [str(p) for p in audit_chances([5, 3, 1, 1], 2).items]
    ['1', '3/5', '1/5', '1/5']
    """
    if isinstance(amounts, int):
        n = amounts
        dist = draw_distribution(lambda s: systematic_sample(n, k, seed=s))
        size = n
    else:
        n = len(amounts)
        dist = draw_distribution(lambda s: monetary_unit_sample(amounts, k, seed=s))
        size = sum(amounts)
    items, hits, units = [Fraction(0)] * n, [Fraction(0)] * n, [Fraction(0)] * size
    always = [True] * n
    for sample, p in dist.items():
        chosen = {x.item: x.hits for x in sample.selected}
        for i in range(n):
            items[i] += p if i in chosen else 0
            hits[i] += p * chosen.get(i, 0)
            always[i] = always[i] and i in chosen
        for u in set(sample.units):
            units[u] += p
    return AuditChances(items, hits, units, always)
