"""The fairness lab's raffle and audit proofs, held against closed forms worked out here.

The lab (``xlshuffle.lab.raffles``) enumerates every sequence of ``randbelow`` answers
through the real draws; each test compares its Fractions with a formula this file
computes on its own (products over orders, ``1 - (1 - p)**k``, integrals of step
functions), never with the lab's own helpers. The ways by hand must fail the properties
a fair raffle has, or these tests prove nothing.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from xlshuffle.draw import DrawStream
from xlshuffle.lab.exact import enumerate_choices
from xlshuffle.lab.raffles import (
    audit_chances,
    compare_weighted,
    draw_distribution,
    draws_report,
    inclusion,
    rand_key_chances,
    rand_times_weight,
    reserve_prefix,
    running_totals,
    strata_distribution,
    successive_chance,
    weighted_orders,
)

WEIGHTS = [[1, 2, 0, 3], [5, 3, 1, 1], [2, 1, 1], [0, 7, 0], [3, 1, 2, 2, 1], [4, 6], [1, 1, 1, 1]]


def product_chance(weights: list[int], order: tuple[int, ...]) -> Fraction:
    """Successive sampling by hand: each pick has weight / (total of those not yet picked)."""
    p = Fraction(1)
    taken: set[int] = set()
    for i in order:
        rest = sum(w for j, w in enumerate(weights) if j not in taken)
        p *= Fraction(weights[i], rest)
        taken.add(i)
    return p


def cases() -> list[tuple[list[int], int]]:
    return [(w, k) for w in WEIGHTS for k in range(1, sum(1 for x in w if x) + 1)]


# ---------------------------------------------------------------- (a) weighted draw


@pytest.mark.parametrize(("weights", "k"), cases())
def test_each_ordered_outcome_is_the_product_of_weight_over_remaining(
    weights: list[int], k: int
) -> None:
    dist = weighted_orders(weights, k)
    positive = [i for i, w in enumerate(weights) if w]
    expected = {o: product_chance(weights, o) for o in itertools.permutations(positive, k)}
    assert dist == expected
    assert sum(dist.values()) == 1
    for order in dist:
        assert successive_chance(weights, order) == expected[order]


@pytest.mark.parametrize(("weights", "k"), cases())
def test_weight_zero_never_wins(weights: list[int], k: int) -> None:
    chances = inclusion(weighted_orders(weights, k), len(weights))
    for i, w in enumerate(weights):
        assert (chances[i] == 0) == (w == 0)


def test_inclusion_among_k_is_not_proportional_to_weight() -> None:
    # p_i + sum_j p_j * w_i / (T - w_j): the chance of a win in two draws, by hand.
    ws = [5, 3, 1, 1]
    t = sum(ws)
    by_hand = [
        Fraction(w, t)
        + sum(Fraction(v, t) * Fraction(w, t - v) for j, v in enumerate(ws) if j != i)
        for i, w in enumerate(ws)
    ]
    assert by_hand == [Fraction(52, 63), Fraction(2, 3), Fraction(16, 63), Fraction(16, 63)]
    c = compare_weighted(ws, 2)
    assert c.included["xlshuffle"] == by_hand
    assert c.included["xlshuffle"] != [min(Fraction(1), Fraction(2 * w, t)) for w in ws]
    assert c.included["monetary-unit"] == [
        Fraction(1),
        Fraction(3, 5),
        Fraction(1, 5),
        Fraction(1, 5),
    ]


# ---------------------------------------------------------------- (b) reserves


@pytest.mark.parametrize(
    ("weights", "winners", "reserves"),
    [([5, 3, 1, 1], 2, 2), ([2, 0, 1, 1], 1, 2), ([1, 2, 3], 0, 3)],
)
def test_reserves_continue_the_winners_draw(
    weights: list[int], winners: int, reserves: int
) -> None:
    sequences, failures = reserve_prefix(weights, winners, reserves)
    assert failures == 0
    t = sum(weights)
    assert t**1 <= sequences <= t ** (winners + reserves)
    # The winners' distribution of the longer draw is the shorter draw's own.
    longer = weighted_orders(weights, winners + reserves)
    marginal: Counter[tuple[int, ...]] = Counter()
    for order, p in longer.items():
        marginal[order[:winners]] += p  # type: ignore[assignment]
    assert dict(marginal) == weighted_orders(weights, winners)


# ---------------------------------------------------------------- (c) strata


def test_each_stratum_is_uniform_and_strata_independent() -> None:
    labels = ["A", "B", "A", "C", "A", "B", "A"]  # A: 0, 2, 4, 6; B: 1, 5; C: 3
    dist = strata_distribution(labels, {"A": 2, "B": 1, "C": 1})
    a = list(itertools.permutations([0, 2, 4, 6], 2))
    assert dist == {(x, y, (3,)): Fraction(1, 12 * 2) for x in a for y in [(1,), (5,)]}


def test_weighted_strata_multiply_their_own_products() -> None:
    labels = ["N", "S", "N", "S", "N"]
    weights = [2, 1, 0, 3, 1]  # N: rows 0, 2, 4 with 2, 0, 1; S: rows 1, 3 with 1, 3
    dist = strata_distribution(labels, {"N": 2, "S": 1}, weights)
    expected = {
        ((0, 4), (1,)): Fraction(2, 3) * 1 * Fraction(1, 4),
        ((0, 4), (3,)): Fraction(2, 3) * 1 * Fraction(3, 4),
        ((4, 0), (1,)): Fraction(1, 3) * 1 * Fraction(1, 4),
        ((4, 0), (3,)): Fraction(1, 3) * 1 * Fraction(3, 4),
    }
    assert dist == expected


# ---------------------------------------------------------------- (d), (e) audits


@pytest.mark.parametrize("n", range(1, 8))
def test_systematic_gives_each_item_k_over_n(n: int) -> None:
    for k in range(1, n + 1):
        chances = audit_chances(n, k)
        assert chances.items == [Fraction(k, n)] * n
        assert chances.always == [k == n] * n


@pytest.mark.parametrize("amounts", [[5, 3, 1, 1], [3, 0, 5, 1, 7], [10, 1, 1, 1], [1, 1]])
def test_monetary_unit_chances_are_min_1_a_k_over_t(amounts: list[int]) -> None:
    t = sum(amounts)
    for k in range(1, t + 1):
        c = audit_chances(amounts, k)
        assert c.items == [min(Fraction(1), Fraction(a * k, t)) for a in amounts]
        assert c.hits == [Fraction(a * k, t) for a in amounts]
        assert c.units == [Fraction(k, t)] * t
        assert c.always == [a * k >= t for a in amounts]  # the top stratum, and only it


# ---------------------------------------------------------------- the ways by hand


def test_running_totals_draws_each_winner_in_proportion_but_repeats() -> None:
    ws = [5, 3, 1, 1]
    dist = draw_distribution(lambda s: tuple(running_totals(ws, 2, s)))
    p = [Fraction(w, 10) for w in ws]
    assert dist == {(i, j): p[i] * p[j] for i in range(4) for j in range(4)}
    c = compare_weighted(ws, 2)
    assert c.duplicate == sum(x * x for x in p) == Fraction(9, 25)
    assert c.included["running-totals"] == [1 - (1 - x) ** 2 for x in p]
    assert c.first["running-totals"] == p == c.first["xlshuffle"]


@pytest.mark.parametrize("ws", [[5, 3, 1, 1], [2, 1, 1], [1, 1, 1, 1]])
def test_duplicate_chance_of_three_draws(ws: list[int]) -> None:
    t = sum(ws)
    distinct = sum(
        (
            math.prod(Fraction(ws[i], t) for i in o)
            for o in itertools.permutations(range(len(ws)), 3)
        ),
        Fraction(0),
    )
    assert compare_weighted(ws, 3).duplicate == 1 - distinct


def never_repeats(dist: dict[tuple[int, ...], Fraction]) -> bool:
    return all(len(set(o)) == len(o) for o, p in dist.items() if p)


def test_no_duplicate_winner_holds_for_xlshuffle_and_fails_for_running_totals() -> None:
    ws = [2, 1, 1]
    assert never_repeats(weighted_orders(ws, 2))
    assert not never_repeats(draw_distribution(lambda s: tuple(running_totals(ws, 2, s))))


def redraw_on_repeat(weights: list[int], k: int, randbelow: Callable[[int], int]) -> list[int]:
    """Running totals, copied down, with a winner drawn again redrawn (no limit on retries)."""
    totals = list(itertools.accumulate(weights))
    won: list[int] = []
    while len(won) < k:
        r = 1 + randbelow(totals[-1])
        i = next(j for j, t in enumerate(totals) if t >= r)
        if i not in won:
            won.append(i)
    return won


@pytest.mark.parametrize("limit", [3, 5, 7])
def test_redrawing_a_repeat_is_the_raffle(limit: int) -> None:
    # Retries have no bound, so the enumeration stops after `limit` draws: each order's
    # truncated chance is at most the raffle's, which is at most it plus the cut-off mass.
    ws = [2, 1, 1]  # 4**7 = 16,384 sequences at the longest limit
    dist, cut = enumerate_choices(
        lambda _items, s: [tuple(redraw_on_repeat(ws, 2, s.randbelow))], 0, max_draws=limit
    )
    got = {key[0]: p for key, p in dist.items()}
    assert cut < Fraction(1, 2) ** (limit - 2)  # a retry happens with chance at most 1/2
    for order in itertools.permutations(range(3), 2):
        truncated = got.get(order, Fraction(0))
        assert truncated <= product_chance(ws, order) <= truncated + cut


def midpoint_first_place(ws: list[int], i: int, steps: int = 20_000) -> float:
    """P(U_i w_i is the largest key) = integral of prod_j min(1, u w_i / w_j), midpoint rule."""
    total = 0.0
    for s in range(steps):
        u = (s + 0.5) / steps
        total += math.prod(min(1.0, u * ws[i] / w) for j, w in enumerate(ws) if j != i)
    return total / steps


@pytest.mark.parametrize("ws", [[5, 3, 1, 1], [2, 1], [4, 6, 5], [1, 1, 1]])
def test_rand_times_weight_first_place_matches_the_integral(ws: list[int]) -> None:
    exact = rand_key_chances(ws, 1)
    assert sum(exact) == 1
    for i in range(len(ws)):
        assert float(exact[i]) == pytest.approx(midpoint_first_place(ws, i), abs=1e-6)


def test_rand_times_weight_is_not_proportional() -> None:
    # Two entrants, w1 >= w2: P(1 first) = 1 - w2 / (2 w1) (the triangle above the diagonal).
    assert rand_key_chances([2, 1], 1) == [Fraction(3, 4), Fraction(1, 4)]
    assert rand_key_chances([3, 1], 1)[0] == 1 - Fraction(1, 6) != Fraction(3, 4)
    assert rand_key_chances([1, 1, 1], 2) == [Fraction(2, 3)] * 3  # equal weights: fair
    first = rand_key_chances([5, 3, 1, 1], 1)
    assert first[0] == Fraction(41, 60) > Fraction(1, 2)


def test_rand_times_weight_top_k_sums_to_k_and_zero_weights_trail() -> None:
    for ws, k in [([5, 3, 1, 1], 2), ([5, 3, 1, 1], 3), ([2, 0, 1, 0], 3), ([4, 6, 5], 2)]:
        chances = rand_key_chances(ws, k)
        assert sum(chances) == k
    assert rand_key_chances([2, 0, 1, 0], 3) == [1, 1, 1, 0]


@pytest.mark.slow  # statistical (60,000 seeded sorts, under a second)
def test_rand_times_weight_sampled_agrees_with_the_exact_top_two() -> None:
    # Sampled, clearly: the exact integral against seeded RAND() draws. Each count is
    # binomial; 5 standard deviations leave a false failure below 6e-7 per entrant.
    ws, k, trials = [5, 3, 1, 1], 2, 60_000
    source = DrawStream("rand times weight")
    counts = Counter(i for _ in range(trials) for i in rand_times_weight(ws, k, source))
    for i, p in enumerate(rand_key_chances(ws, k)):
        sd = math.sqrt(trials * float(p) * (1 - float(p)))
        assert abs(counts[i] - trials * float(p)) < 5 * sd


# ---------------------------------------------------------------- the report


def test_report_checks_all_hold_and_carry_the_numbers() -> None:
    r = draws_report([10, 6, 2, 2], 2)  # divided by 2: the same draw as 5 3 1 1
    assert r["schema"] == "xlshuffle/fairness-draws/v1"
    assert r["weights"] == [10, 6, 2, 2]
    assert [c["holds"] for c in r["checks"]] == [True] * 5
    first = r["entrants"][0]
    assert first["first"]["rand-times-weight"] == "41/60"
    assert first["included"] == {
        "xlshuffle": "52/63",
        "monetary-unit": "1",
        "running-totals": "3/4",
        "rand-times-weight": "79/90",
    }
    assert r["duplicate"] == "9/25"
