"""The fairness lab's measurements: exact answers, p-values, sampled verdicts, reachability."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import permutations

import pytest

from fairness_reports import check_schema
from xlshuffle.lab.classic import ALGORITHMS, VbaRnd, random_swaps, rejection, vba_int_rnd
from xlshuffle.lab.exact import _random_swaps_exact, _rejection_exact
from xlshuffle.lab.fairness import (
    chi2_sf,
    enumerate_choices,
    exact_distribution,
    exact_positions,
    gammaincc,
    iter_choices,
    lab_report,
    measure_cost,
    reachable_deals,
    sample,
    summarise,
)

FAIR = [name for name, a in ALGORITHMS.items() if a.fair]
BIASED = [name for name, a in ALGORITHMS.items() if not a.fair]
ONE_TO_ONE = ["forward", "backward", "inside-out", "fisher-yates", "swap-remove"]


def order(text: str) -> tuple[int, ...]:
    """'132' -> (0, 2, 1): the items (1-based in the name) in slot order."""
    return tuple(int(ch) - 1 for ch in text)


# --------------------------------------------------------------------------- exact


def test_naive_swap_on_three_items_is_4_5_5_5_4_4_over_27() -> None:
    dist = exact_distribution("naive-swap", 3)
    assert dist == {
        order("123"): Fraction(4, 27),
        order("132"): Fraction(5, 27),
        order("213"): Fraction(5, 27),
        order("231"): Fraction(5, 27),
        order("312"): Fraction(4, 27),
        order("321"): Fraction(4, 27),
    }
    s = summarise(dist, 3)
    assert (s.min_p, s.max_p, s.ratio, s.tvd) == (
        Fraction(4, 27),
        Fraction(5, 27),
        Fraction(5, 4),
        Fraction(1, 18),
    )


def test_naive_swap_on_four_items_matches_the_known_8_to_15_counts() -> None:
    s = summarise(exact_distribution("naive-swap", 4), 4)
    assert (s.min_p, s.max_p, s.tvd) == (Fraction(8, 256), Fraction(15, 256), Fraction(25, 384))


def test_random_sort_on_three_items() -> None:
    # Merge sort splits [1 | 2 3]; one coin orders 2 and 3, then item 1 goes first on the
    # next coin (1/2, shared by 123 and 132) or later (1/4 each for the other four).
    dist = exact_distribution("random-sort", 3)
    assert dist == {
        order("123"): Fraction(1, 4),
        order("132"): Fraction(1, 4),
        **{order(o): Fraction(1, 8) for o in ("213", "231", "312", "321")},
    }


def test_random_swaps_on_three_items_by_hand() -> None:
    # A round is the identity with chance 3/9 and each transposition with 2/9. Chasing
    # (identity, one transposition, one 3-cycle) through three rounds by hand:
    # (1, 0, 0) -> (1/3, 2/9, 0) -> (7/27, 4/27, 4/27) -> (5/27, 14/81, 4/27).
    dist = exact_distribution("random-swaps", 3)
    assert dist[order("123")] == Fraction(5, 27)
    for t in ("132", "213", "321"):
        assert dist[order(t)] == Fraction(14, 81)
    for c in ("231", "312"):
        assert dist[order(c)] == Fraction(4, 27)


@pytest.mark.parametrize("n", [3, 4])
def test_random_swaps_markov_chain_agrees_with_enumerating_the_real_code(n: int) -> None:
    enumerated, left = enumerate_choices(random_swaps, n)
    assert left == 0
    assert enumerated == _random_swaps_exact(n, n)


def test_generator_models_are_exact_residue_and_floor_counts() -> None:
    # rand() % 3 takes 0 and 1 from 10923 of the 32768 values and 2 from 10922; the
    # second draw (% 2) is even. Backward Durstenfeld's first pick fixes the last slot.
    dist = exact_distribution("rand-mod", 3)
    for perm, p in dist.items():
        first_pick = perm[2]  # the first swap brings item j into the last slot for good
        assert p == Fraction(10922 if first_pick == 2 else 10923, 65536)
    # Int(Rnd * 3) over 2**24 states: 5592406, 5592405, 5592405.
    dist = exact_distribution("vba-rnd", 3)
    for perm, p in dist.items():
        first_pick = perm[2]
        assert p == Fraction(5592406 if first_pick == 0 else 5592405, 2**25)


@pytest.mark.parametrize("name", ONE_TO_ONE)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_fair_methods_map_choice_sequences_one_to_one_onto_orders(name: str, n: int) -> None:
    runs = list(iter_choices(ALGORITHMS[name].run, n))
    orders = [o for _, _, o in runs]
    assert len(runs) == math.factorial(n)
    assert all(math.prod(asked) == math.factorial(n) for _, asked, _ in runs)
    assert set(orders) == set(permutations(range(n)))
    assert len({c for c, _, _ in runs}) == len(runs)


@pytest.mark.parametrize("name", FAIR)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_fair_methods_are_exactly_uniform(name: str, n: int) -> None:
    s = summarise(exact_distribution(name, n), n)
    assert s.fair
    assert s.reached == math.factorial(n)
    assert s.ratio == 1


@pytest.mark.parametrize("name", BIASED)
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_biased_methods_are_not_uniform(name: str, n: int) -> None:
    s = summarise(exact_distribution(name, n), n)
    assert s.tvd > 0
    assert sum(exact_distribution(name, n).values()) == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rejection_markov_result_is_bracketed_by_the_real_code(n: int) -> None:
    # The real code has unbounded choice sequences. Cut them at `limit` draws: every
    # order then has truncated <= exact <= truncated + leftover, and the leftover
    # shrinks as the limit grows.
    exact = _rejection_exact(n)
    previous = Fraction(1)
    for limit in range(n, n + 6):
        truncated, leftover = enumerate_choices(rejection, n, max_draws=limit)
        assert leftover < previous
        previous = leftover
        for perm in permutations(range(n)):
            got = truncated.get(perm, Fraction(0))
            assert got <= exact[perm] <= got + leftover
    assert set(exact.values()) == {Fraction(1, math.factorial(n))}


def test_exact_positions_of_naive_swap() -> None:
    m = exact_positions(exact_distribution("naive-swap", 3), 3)
    assert [sum(row) for row in m] == [1, 1, 1]
    assert [sum(col) for col in zip(*m, strict=True)] == [1, 1, 1]
    # Item 1 ends in slot 1 with 4/27 + 5/27 (orders 123 and 132).
    assert m[0][0] == Fraction(9, 27)


# --------------------------------------------------------------------------- p-values


@pytest.mark.parametrize("k", [1, 2, 5, 20, 60, 1300])
@pytest.mark.parametrize("ratio", [0.3, 0.9, 1.0, 1.1, 2.0])
def test_gammaincc_matches_the_poisson_sum_for_whole_a(k: int, ratio: float) -> None:
    # For whole a = k: Q(k, x) = exp(-x) * sum(x**j / j! for j < k), summed in log space.
    x = k * ratio
    terms = [j * math.log(x) - x - math.lgamma(j + 1) for j in range(k)]
    top = max(terms)
    expected = math.exp(top) * sum(math.exp(t - top) for t in terms)
    assert gammaincc(k, x) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 10.0])
def test_gammaincc_half_is_erfc(x: float) -> None:
    assert gammaincc(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-10)


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [  # critical values from printed chi-square tables (5% and 0.1%)
        (3.841, 1, 0.05),
        (18.307, 10, 0.05),
        (124.342, 100, 0.05),
        (10.828, 1, 0.001),
        (29.588, 10, 0.001),
        (149.449, 100, 0.001),
    ],
)
def test_chi2_sf_against_table_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=2e-3)


def test_chi2_sf_against_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 5, 23, 119, 81, 2601):
        for q in (0.5, 0.9, 1.0, 1.2, 2.0):
            x = df * q
            assert chi2_sf(x, df) == pytest.approx(float(stats.chi2.sf(x, df)), rel=1e-9)


# --------------------------------------------------------------------------- sampled

# Sampled verdicts. Each test has threshold alpha = 1e-4 (fairness.ALPHA): a fair method
# fails one test with probability 1e-4, so the false-alarm chance per fair method is at
# most 2e-4 (two tests, union bound) and at most 1.2e-3 over the six fair methods. The
# seeds are fixed, so the outcome is the same on every run; the margins are printed by
# `xlshuffle fairness` (the biased p-values below are all under 1e-20).
TRIALS = {  # trials of 52-card shuffles per method
    "naive-swap": 5_000,
    "random-swaps": 2_000,
    "random-sort": 3_000,
    # 2**24 states: ~11.9 repeated pairs expected in 20,000 deals (a fair deck: 2e-60).
    "vba-rnd": 20_000,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", FAIR)
def test_sampled_test_passes_every_fair_method(name: str) -> None:
    r = sample(name, 52, 6_000, seed="lab test")
    assert not r.biased, (r.p_value, r.repeat_p_value)
    assert r.p_value > 1e-3  # far above the 1e-4 threshold at this seed


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TRIALS))
def test_sampled_test_flags_biased_methods_at_52_cards(name: str) -> None:
    r = sample(name, 52, TRIALS[name], seed="lab test")
    assert r.biased
    repeat_p = 1.0 if r.repeat_p_value is None else r.repeat_p_value
    assert min(r.p_value, repeat_p) < 1e-20


@pytest.mark.slow
def test_sampled_test_flags_rand_mod_by_repeated_deals() -> None:
    # rand() % n with 2**31 effective seeds: 16 cards (16! = 2e13 orders, so a fair
    # shuffle repeats a deal among 200,000 with chance 1e-3) and 200,000 deals, where
    # about 9.3 repeated pairs are expected. Its modulo bias at these sizes (1/630 at
    # most) would need ~1e8 shuffles to see.
    r = sample("rand-mod", 16, 200_000, seed="lab test")
    assert r.repeat_pairs is not None
    assert r.repeat_pairs >= 3
    assert r.biased


def test_sampled_orders_test_on_small_n() -> None:
    fair = sample("forward", 3, 6_000, seed=3)
    assert (fair.test, fair.df) == ("orders", 5)
    assert not fair.biased
    assert fair.orders is not None
    assert sum(fair.orders.values()) == 6_000
    assert sample("naive-swap", 3, 6_000, seed=3).biased


# --------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("bits", [8, 10, 12])
@pytest.mark.parametrize("n", [2, 3, 5, 6, 8, 11, 52])
def test_reachable_deals_counts_what_brute_force_sees(bits: int, n: int) -> None:
    brute = {tuple(vba_int_rnd(range(n), VbaRnd(s, bits=bits))) for s in range(1 << bits)}
    assert reachable_deals(n, bits=bits) == len(brute)


@pytest.mark.slow
def test_vba_reaches_exactly_2_to_the_24_deals_of_52_cards() -> None:
    # Every one of the 16,777,216 states gives a different deck order, and no more exist:
    # 16,777,216 of 52! ~ 8.07e67.
    assert reachable_deals(52) == 1 << 24


# --------------------------------------------------------------------------- cost


def test_draws_per_item() -> None:
    assert measure_cost("forward", 50, min_time=0).draws_per_item == 49 / 50
    assert measure_cost("inside-out", 50, min_time=0).draws_per_item == 1
    assert measure_cost("random-swaps", 50, min_time=0).draws_per_item == 2
    assert measure_cost("vba-rnd", 50, min_time=0).draws_per_item == 49 / 50
    assert measure_cost("rejection", 200, min_time=0).draws_per_item > 3  # H(200) = 5.9
    assert measure_cost("forward", 50, min_time=0).seconds > 0


# --------------------------------------------------------------------------- report


def test_lab_report_schema_and_json_round_trip() -> None:
    report = lab_report(n=5, trials=700, algorithms=["forward", "naive-swap", "vba-rnd"])
    check_schema(report)
    assert json.loads(json.dumps(report)) == report
    by_name = {r["name"]: r for r in report["algorithms"]}
    assert by_name["forward"]["exact"]["tvd"] == "0"
    assert by_name["naive-swap"]["exact"]["max_p"] == str(
        summarise(exact_distribution("naive-swap", 5), 5).max_p
    )
