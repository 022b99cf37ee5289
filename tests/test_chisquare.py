"""Chi-square goodness of fit of the seeded stream (slow).

Thresholds are chi-square critical values with a false-alarm probability of 1e-6 each
(from scipy.stats.chi2.isf(1e-6, df), written here so the test needs no scipy): a fair
shuffle fails a given test about once in a million runs, and the runs are at fixed seeds,
so in practice never. The same statistic is computed for the naive swap-with-any-position
shuffle fed by the same stream, and must exceed the threshold: the test can fail.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import pytest

from xlshuffle import DrawStream, shuffle

CHI2_1E6 = {23: 70.5496, 81: 156.4522}  # df -> critical value at P(false alarm) = 1e-6

Shuffler = Callable[[list[int], DrawStream], None]


def fair(items: list[int], stream: DrawStream) -> None:
    shuffle(items, seed=stream)


def naive(items: list[int], stream: DrawStream) -> None:
    n = len(items)
    for i in range(n):
        j = stream.randbelow(n)
        items[i], items[j] = items[j], items[i]


def permutation_chi2(shuffler: Shuffler, n: int, trials: int, seed: str) -> float:
    stream = DrawStream(seed)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(trials):
        items = list(range(n))
        shuffler(items, stream)
        counts[tuple(items)] += 1
    cells = list(itertools.permutations(range(n)))
    expected = trials / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def position_chi2(shuffler: Shuffler, n: int, trials: int, seed: str) -> float:
    # counts[i][p]: how often item i landed at position p. Rows and columns each sum to
    # `trials`, so the statistic has (n-1)**2 degrees of freedom.
    stream = DrawStream(seed)
    counts = [[0] * n for _ in range(n)]
    for _ in range(trials):
        items = list(range(n))
        shuffler(items, stream)
        for p, item in enumerate(items):
            counts[item][p] += 1
    expected = trials / n
    return sum((c - expected) ** 2 / expected for row in counts for c in row)


@pytest.mark.slow
def test_all_24_orders_of_4_items_are_equally_frequent() -> None:
    fair_stat = permutation_chi2(fair, 4, 48_000, "chi-square/perm")
    naive_stat = permutation_chi2(naive, 4, 48_000, "chi-square/perm")
    assert fair_stat < CHI2_1E6[23], fair_stat
    assert naive_stat > CHI2_1E6[23], naive_stat


@pytest.mark.slow
def test_every_item_lands_in_every_position_equally_often() -> None:
    fair_stat = position_chi2(fair, 10, 30_000, "chi-square/position")
    naive_stat = position_chi2(naive, 10, 30_000, "chi-square/position")
    assert fair_stat < CHI2_1E6[81], fair_stat
    assert naive_stat > CHI2_1E6[81], naive_stat
