"""Exact chances of the raffle and audit draws, by enumerating every sequence of choices.

A scripted source answers ``randbelow`` from a fixed prefix of choices; when the draw asks
for more, the enumeration branches on every possible answer. Each leaf is one sequence of
answers with probability ``prod(1/m)``; summed with :class:`fractions.Fraction`, the chance of
each outcome is exact. The draws are the public functions, so this checks the real code.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from xlshuffle import monetary_unit_sample, stratified_sample, systematic_sample, weighted_sample


class _More(Exception):
    def __init__(self, m: int) -> None:
        self.m = m


class Replay:
    """Answers randbelow from ``choices``; past them it stops the run, asking to branch."""

    def __init__(self, choices: tuple[int, ...]) -> None:
        self.choices = choices
        self.asked: list[int] = []

    def randbelow(self, m: int, /) -> int:
        if len(self.asked) == len(self.choices):
            raise _More(m)
        r = self.choices[len(self.asked)]
        self.asked.append(m)
        return r

    def substream(self, label: object) -> Replay:
        return self  # strata take their choices one after another from the same tree


def outcomes(draw: Callable[[Replay], object]) -> Iterator[tuple[object, Fraction]]:
    """Every outcome of ``draw(source)`` with the probability of its choice sequence."""
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        source = Replay(prefix)
        try:
            result = draw(source)
        except _More as more:
            stack.extend((*prefix, c) for c in range(more.m))
            continue
        yield result, math.prod((Fraction(1, m) for m in source.asked), start=Fraction(1))


def distribution(draw: Callable[[Replay], object]) -> Counter[object]:
    dist: Counter[object] = Counter()
    for result, p in outcomes(draw):
        dist[result] += p  # type: ignore[assignment]
    assert sum(dist.values()) == 1
    return dist


# ---------------------------------------------------------------- weighted draw


def successive(weights: list[int], order: tuple[int, ...]) -> Fraction:
    """The chance of drawing ``order`` by successive sampling: prod(w / remaining total)."""
    left, p = list(weights), Fraction(1)
    for i in order:
        p *= Fraction(left[i], sum(left))
        left[i] = 0
    return p


@pytest.mark.parametrize(
    ("weights", "k"),
    [
        ([1, 2, 0, 3], 1),
        ([1, 2, 0, 3], 2),
        ([1, 2, 0, 3], 3),
        ([2, 4, 0, 6], 3),
        ([5], 1),
        ([1, 1, 1, 1], 4),
        ([3, 1, 2, 2, 1], 3),
        ([0, 7, 0], 1),
    ],
)
def test_each_ordered_outcome_has_the_successive_sampling_chance(
    weights: list[int], k: int
) -> None:
    dist = distribution(lambda s: tuple(weighted_sample(weights, k, seed=s)))
    positive = [i for i, w in enumerate(weights) if w]
    expected = {o: successive(weights, o) for o in itertools.permutations(positive, k)}
    assert dist == {o: p for o, p in expected.items() if p}


def test_inclusion_is_not_proportional_to_weight() -> None:
    # The docstring's example: [2, 1, 1], k = 2: entrant 0 is in with chance 5/6, not 1.
    dist = distribution(lambda s: tuple(weighted_sample([2, 1, 1], 2, seed=s)))
    assert sum(p for o, p in dist.items() if 0 in o) == Fraction(5, 6)


# ---------------------------------------------------------------- audit selections


@pytest.mark.parametrize("n", range(1, 8))
def test_systematic_gives_every_item_chance_k_over_n(n: int) -> None:
    for k in range(n + 1):
        dist = distribution(lambda s: tuple(systematic_sample(n, k, seed=s).indexes))  # noqa: B023
        for item in range(n):
            chance = sum(p for picks, p in dist.items() if item in picks)  # type: ignore[operator]
            assert chance == Fraction(k, n)
        assert all(len(set(picks)) == k for picks in dist)  # type: ignore[arg-type]


@pytest.mark.parametrize("amounts", [[3, 0, 5, 1, 7], [1, 1], [10, 1, 1, 1], [0, 4, 0, 2, 9, 1]])
def test_monetary_unit_chances_and_top_stratum(amounts: list[int]) -> None:
    total = sum(amounts)
    for k in range(1, total + 1):
        samples = list(outcomes(lambda s: monetary_unit_sample(amounts, k, seed=s)))  # noqa: B023
        assert sum(p for _, p in samples) == 1
        for item, a in enumerate(amounts):
            chance = sum(p for sample, p in samples if item in sample.indexes)  # type: ignore[attr-defined]
            expected_hits = sum(
                p * sum(h.hits for h in sample.selected if h.item == item)  # type: ignore[attr-defined]
                for sample, p in samples
            )
            assert expected_hits == Fraction(a * k, total)
            if a * k >= total:  # the top stratum: selected whatever the start
                assert chance == 1
                assert all(item in sample.indexes for sample, _ in samples)  # type: ignore[attr-defined]
            else:
                assert chance == Fraction(a * k, total)
        for cent in range(total):  # every cent's chance is k / T
            hit = sum(p for sample, p in samples if cent in sample.units)  # type: ignore[attr-defined]
            assert hit == Fraction(k, total)


# ---------------------------------------------------------------- strata


def test_stratified_sample_is_uniform_within_each_stratum() -> None:
    labels = ["A", "B", "A", "C", "A", "B", "A"]  # A: rows 0, 2, 4, 6; B: 1, 5; C: 3
    counts = {"A": 2, "B": 1, "C": 1}
    dist = distribution(
        lambda s: tuple(tuple(x.drawn) for x in stratified_sample(labels, counts=counts, seed=s))
    )
    a_draws = list(itertools.permutations([0, 2, 4, 6], 2))
    b_draws = [(1,), (5,)]
    expected = {
        (a, b, (3,)): Fraction(1, len(a_draws) * len(b_draws)) for a in a_draws for b in b_draws
    }
    assert dist == expected  # uniform in each stratum, and the strata independent
