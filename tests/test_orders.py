"""Per-person and counterbalanced orders (protocol sections 13-14): the properties they promise.

Expected values are worked here from the definitions (the design's balance counted over
its rows, orders compared with the plain shuffle of section 5 fed by the same words), never
taken from the code under test; the known answers are in tests/test_vectors_orders.py.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlshuffle import (
    DrawStream,
    EntryError,
    OptionError,
    SizeError,
    SystemSource,
    balanced_orders,
    normalise_seed,
    person_order,
    person_orders,
)
from xlshuffle.draw import orders as orders_module
from xlshuffle.draw.knuth import durstenfeld
from xlshuffle.draw.orders import person_stream, williams_design

from strategies import seeds

ids = st.lists(
    st.one_of(st.text(min_size=1, max_size=8).filter(str.strip), st.integers(0, 10**6)),
    max_size=8,
    unique_by=lambda x: str(x).strip(),
)


# ---------------------------------------------------------------- section 13


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_order_is_section_5s_shuffle_from_the_persons_words(n: int) -> None:
    items = list(range(n))
    durstenfeld(items, max(n - 1, 0), person_stream("class 4B", "Ann").randbelow)
    assert person_order(n, "Ann", seed="class 4B") == items


def scripted(words: tuple[int, ...]) -> DrawStream:
    """A stream whose next words are ``words``: small words are never rejected, and the
    shuffle's step ``i`` takes ``j = i + word % (n - i)``, so word ``c < n - i`` is choice c."""
    stream = DrawStream("scripted")
    stream._buf, stream._pos, stream._block = (*words, 0, 0, 0, 0), 0, 10**9
    return stream


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_every_sub_stream_answer_gives_a_distinct_order_exactly_once(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # person_order itself, fed every sequence of choices its person's stream could give:
    # each full order of n (each partial order of k) comes from exactly one sequence.
    for k in range(n + 1):
        steps = min(k, n - 1)
        sequences = list(itertools.product(*(range(n - i) for i in range(steps))))
        orders = Counter()
        for choices in sequences:
            monkeypatch.setattr(orders_module, "person_stream", lambda s, p, c=choices: scripted(c))
            orders[tuple(person_order(n, "Ann", seed="any", k=k))] += 1
        assert set(orders.values()) == {1}
        assert sorted(orders) == sorted(itertools.permutations(range(n), k))
        assert len(sequences) == math.perm(n, k)


def test_every_order_of_three_is_reached_and_none_is_favoured_much() -> None:
    # 600 people, 6 orders: each order about 100 times (3 standard deviations: 70..130).
    counts = Counter(tuple(person_order(3, f"P{i}", seed="class 4B")) for i in range(600))
    assert sorted(counts) == sorted(itertools.permutations(range(3)))
    assert all(70 <= c <= 130 for c in counts.values()), counts


@given(seed=seeds, people=ids, more=ids, n=st.integers(1, 12))
def test_adding_people_never_changes_anyones_order(
    seed: object, people: list[object], more: list[object], n: int
) -> None:
    alone = [person_order(n, p, seed=seed) for p in people]
    # one ID once (7 and "7" are one ID); the others come first and in reverse
    known = {normalise_seed(p) for p in people}
    others = list({normalise_seed(m): m for m in more if normalise_seed(m) not in known}.values())
    together = person_orders(n, [*others, *people[::-1]], seed=seed)
    assert together[len(others) :] == alone[::-1]


@given(seed=seeds, person=st.text(min_size=1).filter(str.strip), n=st.integers(0, 20))
def test_a_partial_order_is_the_prefix_of_the_full_one(seed: object, person: str, n: int) -> None:
    full = person_order(list(range(n)), person, seed=seed)
    assert sorted(full) == list(range(n))
    for k in range(n + 1):
        assert person_order(n, person, seed=seed, k=k) == full[:k]


def test_ids_are_normalised_as_seeds_are() -> None:
    assert person_order(10, 42, seed=1) == person_order(10, "42", seed=1)
    assert person_order(10, 42.0, seed=1) == person_order(10, "42", seed=1)
    assert person_order(10, "Zoe\u0308", seed=1) == person_order(10, "Zo\u00eb", seed=1)
    assert person_order(10, "Ann", seed=1) != person_order(10, "ann", seed=1)


def test_a_stream_passed_as_seed_gives_its_seeds_orders() -> None:
    from xlshuffle import DrawStream

    stream = DrawStream("class 4B")
    stream.randbelow(10)  # used or not, the person's key is the same
    assert person_order(6, "Bo", seed=stream) == person_order(6, "Bo", seed="class 4B")


@pytest.mark.parametrize(
    ("people", "needle"),
    [
        (["Ann", "Bo", "Ann"], "item 2 (0-based): the ID 'Ann' is also item 0's"),
        ([42, "42"], "item 1 (0-based): the ID '42' is also item 0's"),
        (["Ann", ""], "item 1 (0-based): the ID is blank"),
        (["Ann", None], "item 1 (0-based): the ID is blank"),
        (["  "], "item 0 (0-based): the ID is blank"),
        ([True], "item 0 (0-based): the ID True cannot be used"),
    ],
)
def test_bad_ids_are_refused_naming_them(people: list[object], needle: str) -> None:
    with pytest.raises(EntryError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        person_orders(3, people, seed=1)
    with pytest.raises(EntryError):
        balanced_orders(3, people, seed=1)


def test_counts_are_checked() -> None:
    with pytest.raises(SizeError, match="k = 4 is more than the 3 items"):
        person_order(3, "Ann", seed=1, k=4)
    with pytest.raises(SizeError, match="k = 5 is more than the 4 items"):
        balanced_orders(4, 2, seed=1, k=5)
    with pytest.raises(SizeError, match="no items"):
        balanced_orders([], ["Ann"], seed=1)
    with pytest.raises(OptionError, match="needs a seed"):
        person_order(3, "Ann", seed=SystemSource())


# ---------------------------------------------------------------- section 14


def balance(rows: list[list[int]], n: int) -> tuple[Counter[tuple[int, int]], Counter[object]]:
    """How often each item stands in each position, and each ordered pair is neighbours."""
    positions = Counter((p, x) for row in rows for p, x in enumerate(row))
    pairs: Counter[object] = Counter((a, b) for row in rows for a, b in itertools.pairwise(row))
    return positions, pairs


@pytest.mark.parametrize("n", range(1, 16))
def test_williams_design_is_balanced(n: int) -> None:
    rows = williams_design(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n)
    for half in (rows[:n], rows[n:] or rows[:n]):
        assert all(sorted(row) == list(range(n)) for row in half)
        positions, _ = balance(half, n)
        assert positions == Counter({(p, x): 1 for p in range(n) for x in range(n)})
    _, pairs = balance(rows, n)
    each = 1 if n % 2 == 0 else 2
    assert pairs == Counter({(a, b): each for a in range(n) for b in range(n) if a != b})


def test_williams_design_by_hand() -> None:
    assert williams_design(1) == [[0], [0]]
    assert williams_design(2) == [[0, 1], [1, 0]]
    assert williams_design(3) == [[0, 1, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0], [0, 2, 1], [1, 0, 2]]
    assert williams_design(6)[0] == [0, 1, 5, 2, 4, 3]


@given(seed=seeds, n=st.integers(1, 9), blocks=st.integers(1, 3), extra=st.integers(0, 20))
def test_each_block_of_people_is_a_whole_balanced_design(
    seed: object, n: int, blocks: int, extra: int
) -> None:
    r = n if n % 2 == 0 else 2 * n
    orders = balanced_orders(n, blocks * r + extra, seed=seed)
    each = r // n
    for b in range(blocks):
        rows = orders[b * r : (b + 1) * r]
        positions, pairs = balance(rows, n)
        assert positions == Counter({(p, x): each for p in range(n) for x in range(n)})
        want = Counter({(a, b): each for a in range(n) for b in range(n) if a != b})
        assert pairs == want
    # adding people at the end never changes the earlier orders
    assert balanced_orders(n, blocks * r, seed=seed) == orders[: blocks * r]


@given(seed=seeds, n=st.integers(1, 8), people=st.integers(0, 20), k=st.integers(0, 8))
def test_balanced_partial_orders_are_prefixes(seed: object, n: int, people: int, k: int) -> None:
    k = min(k, n)
    full = balanced_orders(n, people, seed=seed)
    assert balanced_orders(list(range(n)), people, seed=seed, k=k) == [o[:k] for o in full]


def test_balanced_orders_relabel_items_and_take_ids_only_for_their_order() -> None:
    items = ["A", "B", "C", "D"]
    by_count = balanced_orders(4, 4, seed="class 4B")
    by_ids = balanced_orders(items, ["Ann", "Bo", "Cy", "Di"], seed="class 4B")
    assert by_ids == [[items[x] for x in row] for row in by_count]
    # the four orders are the design's four rows under one renaming of the items
    rows = {tuple(order) for order in by_count}
    design = williams_design(4)
    renamings = [
        relabel
        for relabel in itertools.permutations(range(4))
        if rows == {tuple(relabel[x] for x in row) for row in design}
    ]
    assert len(renamings) >= 1
