"""Properties of the raffle draws (Hypothesis): prefixes, zeros and exclusions, strata."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from xlshuffle import (
    DrawStream,
    deal,
    exclude,
    placings,
    stratified_sample,
    weighted_sample,
)
from xlshuffle.draw.weighted import _successive

from strategies import seeds

weight_lists = st.lists(st.integers(min_value=0, max_value=20), max_size=40)


def linear_walk(weights: list[int], k: int, randbelow: Callable[[int], int]) -> list[int]:
    """Section 8 as the document says it, walking the ranges in input order."""
    w, won = list(weights), []
    for _ in range(k):
        r = randbelow(sum(w))
        i = 0
        while r >= w[i]:
            r -= w[i]
            i += 1
        won.append(i)
        w[i] = 0
    return won


@given(
    st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=300), seeds, st.data()
)
def test_fenwick_picks_are_the_linear_walks(
    weights: list[int], seed: object, data: st.DataObject
) -> None:
    positive = len(weights) - weights.count(0)
    k = data.draw(st.integers(min_value=0, max_value=positive))
    fenwick = _successive(list(weights), k, DrawStream(seed).randbelow)
    assert fenwick == linear_walk(weights, k, DrawStream(seed).randbelow)


@given(weight_lists, seeds, st.data())
def test_weighted_prefix_property_and_reserves(
    weights: list[int], seed: object, data: st.DataObject
) -> None:
    positive = len(weights) - weights.count(0)
    k = data.draw(st.integers(min_value=0, max_value=positive))
    j = data.draw(st.integers(min_value=0, max_value=k))
    drawn = weighted_sample(weights, k, seed=seed)
    assert weighted_sample(weights, j, seed=seed) == drawn[:j]
    places = placings(drawn, j)
    assert [p.entrant for p in places if p.role == "winner"] == weighted_sample(
        weights, j, seed=seed
    )
    assert [p.rank for p in places if p.role == "reserve"] == list(range(1, k - j + 1))


@given(weight_lists, seeds, st.integers(min_value=1, max_value=9), st.data())
def test_zero_weights_never_win_and_scale_never_matters(
    weights: list[int], seed: object, factor: int, data: st.DataObject
) -> None:
    positive = len(weights) - weights.count(0)
    k = data.draw(st.integers(min_value=0, max_value=positive))
    drawn = weighted_sample(weights, k, seed=seed)
    assert all(weights[i] > 0 for i in drawn)
    assert len(set(drawn)) == k
    assert weighted_sample([w * factor for w in weights], k, seed=seed) == drawn


# The canonical ID of each value below, written out by hand (section 10).
CANONICAL: dict[object, str] = {
    "Ann": "Ann",
    " Ann": "Ann",
    "ann": "ann",
    "Bo": "Bo",
    "Cy": "Cy",
    "Cy ": "Cy",
    7: "7",
    "7": "7",  # 7.0 == 7 finds this entry too
    "Zoe\u0308": "Zo\u00eb",
    "Zo\u00eb": "Zo\u00eb",
    "nobody": "nobody",
    "": "",
    None: "",
}


@given(
    st.lists(st.sampled_from(["Ann", " Ann", "ann", "Bo", "Cy", 7, 7.0, "7", "Zoe\u0308", None])),
    st.lists(st.sampled_from(["Ann", "Cy ", 7, "Zo\u00eb", "nobody", "", None])),
    seeds,
    st.data(),
)
def test_excluded_ids_never_win(
    ids: list[object], excluded: list[object], seed: object, data: st.DataObject
) -> None:
    gone = {CANONICAL[x] for x in excluded} - {""}
    kept = exclude(ids, excluded)
    assert kept == [i for i, x in enumerate(ids) if CANONICAL[x] not in gone]
    k = data.draw(st.integers(min_value=0, max_value=len(kept)))
    winners = [ids[kept[p]] for p in deal(range(len(kept)), k, seed=seed)]
    assert not {CANONICAL[x] for x in winners} & gone


labelled_rows = st.lists(st.tuples(st.sampled_from("ABC"), st.integers(0, 5)), max_size=25)


def _by_stratum(
    rows: list[tuple[str, int]], *, k: int, weighted: bool, seed: object
) -> dict[str, list[int]]:
    """Each stratum's drawn rows, named by their place among that stratum's rows."""
    labels = [label for label, _ in rows]
    weights = [w for _, w in rows] if weighted else None
    out = {}
    for s in stratified_sample(labels, k=k, weights=weights, take_all=True, seed=seed):
        own = [i for i, label in enumerate(labels) if label == s.label]
        out[str(s.label)] = [own.index(i) for i in s.drawn]
    return out


@given(labelled_rows, labelled_rows, seeds, st.integers(0, 4), st.booleans())
def test_other_strata_never_change_a_stratum(
    rows: list[tuple[str, int]], more: list[tuple[str, int]], seed: object, k: int, weighted: bool
) -> None:
    # Stratum A's rows stay; rows of B and C (and a new stratum D) are added, anywhere.
    before = _by_stratum(rows, k=k, weighted=weighted, seed=seed)
    others = [("D" if label == "A" else label, w) for label, w in more]
    mixed = list(rows)
    for n, row in enumerate(others):
        mixed.insert((n * 7) % (len(mixed) + 1), row)
    after = _by_stratum(mixed, k=k, weighted=weighted, seed=seed)
    assert after.get("A") == before.get("A")
