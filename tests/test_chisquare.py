"""Chi-square goodness of fit of the seeded stream (slow).

The statistics and p-values come from :func:`xlshuffle.lab.fairness.sample`, whose
"forward" method is :func:`xlshuffle.shuffled` on a DrawStream (the public fast path).
Each test passes a fair shuffle when its p-value is above ``ALPHA``: a fair shuffle fails
one of these tests with probability 1e-6 (the p-value of a fair shuffle is uniform), and
the runs are at fixed seeds, so in practice never. The naive swap-with-any-position
shuffle, fed by the same kind of stream, must fall below it: the tests can fail.

The position matrix is not n*n independent cells (each trial fills one permutation
matrix): ``sample`` scales the Pearson statistic by (n-1)/n so that it follows
chi-square with (n-1)**2 degrees of freedom; the raw statistic would not.
"""

from __future__ import annotations

import pytest

from xlshuffle.lab.fairness import sample

ALPHA = 1e-6  # P(false alarm) of each test for a fair shuffle


@pytest.mark.slow
def test_all_24_orders_of_4_items_are_equally_frequent() -> None:
    fair = sample("forward", 4, 48_000, seed="chi-square/perm", alpha=ALPHA)
    naive = sample("naive-swap", 4, 48_000, seed="chi-square/perm", alpha=ALPHA)
    assert (fair.test, fair.df) == ("orders", 23)
    assert fair.p_value > ALPHA, fair
    assert naive.p_value < ALPHA, naive


@pytest.mark.slow
def test_every_item_lands_in_every_position_equally_often() -> None:
    fair = sample("forward", 10, 30_000, seed="chi-square/position", alpha=ALPHA)
    naive = sample("naive-swap", 10, 30_000, seed="chi-square/position", alpha=ALPHA)
    assert (fair.test, fair.df) == ("positions", 81)
    assert fair.p_value > ALPHA, fair.statistic
    assert naive.p_value < ALPHA, naive.statistic
