"""Ticket draws (protocol section 18): each entrant's own tickets, from the seed and its ID.

Three judges, none of them xlshuffle's own code: the vectors of tools/make_vectors.py (which
implements the section on its own), the reference code of docs/draw-protocol.md, and, for
Rivest's order, the ``consistent_sampler`` package itself (1.0.10, the version election
auditors run).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Any

import pytest
from consistent_sampler import sampler
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from protocol_references import VECTORS, decode_seed, reference_namespace
from xlshuffle.draw.errors import EntryError, OptionError
from xlshuffle.draw.tickets import (
    population_digest,
    rate_threshold,
    rivest_ticket,
    ticket,
    ticket_order,
    ticket_prefix,
    tickets_of,
)

REF = reference_namespace()
_seed = decode_seed


# ---------------------------------------------------------------- known answers


@pytest.mark.parametrize("case", VECTORS["tickets"], ids=lambda c: f"{c['id']!r}#{c['number']}")
def test_tickets_are_the_vectors(case: dict[str, Any]) -> None:
    seed = _seed(case["seed"])
    assert ticket(seed, case["id"], case["number"]) == case["ticket"]
    assert REF["ticket"](seed, case["number"], case["id"]) == case["ticket"]


@pytest.mark.parametrize("case", VECTORS["ticket_orders"])
def test_orders_are_the_vectors(case: dict[str, Any]) -> None:
    seed, ids = _seed(case["seed"]), case["ids"]
    rate = None if case["rate"] is None else Fraction(*case["rate"])
    got = ticket_order(
        ids, seed, k=case["k"], rate=rate, reserves=case["reserves"], weights=case["weights"]
    )
    assert got == case["order"]
    ref = REF["ticket_draw"](seed, ids, case["k"], case["weights"], rate, case["reserves"])
    assert ref == case["order"]


@pytest.mark.parametrize("case", VECTORS["rivest_orders"], ids=lambda c: str(c["seed"]["value"]))
def test_rivest_orders_are_the_vectors_and_consistent_samplers(case: dict[str, Any]) -> None:
    seed, ids = _seed(case["seed"]), case["ids"]
    assert ticket_order(ids, seed, method="rivest") == case["order"]
    assert REF["rivest"](seed, ids) == case["order"]
    texts = [REF["canonical_id"](x) for x in ids]
    theirs = list(sampler(texts, seed=REF["seed_bytes"](seed).decode(), output="id"))
    assert [texts.index(x) for x in theirs] == case["order"]


@pytest.mark.parametrize("case", VECTORS["population_digests"])
def test_population_digests_are_the_vectors(case: dict[str, Any]) -> None:
    assert population_digest(case["ids"], case["weights"]) == case["digest"]


def test_the_tables_vectors() -> None:
    """The rows of the vector table in docs/draw-protocol.md."""
    assert ticket("2026", "M-017") == (
        "5ae9d10ac149e9740e01fc1035eb6e4e60942b1baa39787c1490c3fddf11ae66"
    )
    names = ["ann", "bo", "cy", "di", "ed"]
    assert [names[i] for i in ticket_order(names, "2026")] == ["bo", "ed", "di", "ann", "cy"]
    assert [names[i] for i in ticket_order(names[:4], "2026")] == ["bo", "di", "ann", "cy"]
    ballots = ["A-1", "A-2", "A-3", "B-1", "B-2", "B-3"]
    order = [ballots[i] for i in ticket_order(ballots, 314159, method="rivest")]
    assert order == ["B-2", "B-3", "A-3", "A-2", "B-1", "A-1"]


def test_a_ticket_is_the_sha256_of_the_documented_text() -> None:
    """Step 1 written out here with hashlib, as a SQL engine computes it."""
    key = hashlib.sha256(b"xlshuffle/draw/v1\x00" + b"2026").hexdigest()
    text = f"xlshuffle/ticket/v1/{key}/3/Zo\u00eb"
    assert ticket_prefix("2026") == f"xlshuffle/ticket/v1/{key}/"
    assert ticket("2026", "Zoe\u0308", 3) == hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------- Rivest, against its tool

IDS = st.lists(
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1),
    min_size=1,
    max_size=40,
    unique_by=lambda s: s.strip(),
).filter(lambda ids: all(x.strip() for x in ids))


@settings(max_examples=60, deadline=None)
@given(ids=IDS, seed=st.one_of(st.integers(0, 10**20), st.text(min_size=1, max_size=20)))
def test_rivest_order_is_consistent_samplers(ids: list[str], seed: object) -> None:
    texts = [REF["canonical_id"](x) for x in ids]
    assume(len(set(texts)) == len(texts))
    assume(not isinstance(seed, str) or bool(seed.strip()))
    seed_text = REF["seed_bytes"](seed).decode()
    theirs = list(sampler(texts, seed=seed_text, take=len(texts), output="id"))
    assert [texts[i] for i in ticket_order(ids, seed, method="rivest")] == theirs
    first = next(sampler(texts, seed=seed_text, take=1, output="tuple", digits=80))
    assert rivest_ticket(seed, theirs[0]).startswith(first[0][:60])


# ---------------------------------------------------------------- the section's promises


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 60),
    extra=st.integers(1, 30),
    seed=st.integers(0, 2**64),
    data=st.data(),
)
def test_entrants_added_or_moved_never_change_the_others_order(
    n: int, extra: int, seed: int, data: st.DataObject
) -> None:
    ids = [f"E{i}" for i in range(n + extra)]
    before = [ids[i] for i in ticket_order(ids[:n], seed)]
    shuffled = data.draw(st.permutations(ids))
    after = [shuffled[i] for i in ticket_order(shuffled, seed)]
    assert [x for x in after if x in set(ids[:n])] == before


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 200), seed=st.integers(0, 2**64), p=st.fractions(0, 1))
def test_a_rate_sample_only_grows(n: int, seed: int, p: Fraction) -> None:
    if p == 0:
        with pytest.raises(OptionError):
            ticket_order(["a"], seed, rate=p)
        return
    ids = [f"P{i}" for i in range(n)]
    small = set(ticket_order(ids[: n // 2], seed, rate=p))
    large = set(ticket_order(ids, seed, rate=p))
    assert {ids[i] for i in small} <= {ids[i] for i in large}
    more = set(ticket_order(ids, seed, rate=min(Fraction(1), p * 2)))
    assert large <= more


def test_rate_thresholds_are_exact() -> None:
    assert rate_threshold(Fraction(1, 2)) == "8" + "0" * 63
    assert rate_threshold(Fraction(1, 3)) == f"{(2**256 + 2) // 3:064x}"  # ceil(2**256 / 3)
    assert rate_threshold(Fraction(1)) is None
    assert len(ticket_order([f"x{i}" for i in range(50)], 1, rate=Fraction(1))) == 50


def test_an_entrant_with_several_tickets_holds_the_smallest() -> None:
    held = {t.id: t.ticket for t in tickets_of(["a", "b", "c"], "s", weights=[3, 1, 0])}
    assert held == {"a": min(ticket("s", "a", j) for j in range(3)), "b": ticket("s", "b")}
    assert ticket_order(["a", "b", "c"], "s", weights=[1, 1, 1]) == ticket_order(
        ["a", "b", "c"], "s"
    )


def test_refusals_name_the_entrant_and_the_fix() -> None:
    with pytest.raises(EntryError, match=r"item 2 \(0-based\): the ID is blank"):
        ticket_order(["a", "b", " "], 1)
    with pytest.raises(EntryError, match=r"item 1 .* same ID 'a' as entrant 0"):
        ticket_order(["a", " a"], 1)
    with pytest.raises(EntryError, match="line break"):
        ticket_order(["a\nb"], 1)
    with pytest.raises(OptionError, match="leave out the weights"):
        ticket_order(["a"], 1, weights=[2], method="rivest")
    with pytest.raises(OptionError, match="coarser scale"):
        ticket_order(["a"], 1, weights=[10**9])
    with pytest.raises(OptionError, match="not both"):
        ticket_order(["a"], 1, k=1, rate=Fraction(1, 2))


@pytest.mark.slow
def test_weighted_first_winner_is_proportional_to_tickets() -> None:
    """Step 2's claim, measured: the first winner of tickets 1, 2, 3, 4 over 8,000 seeds."""
    from scipy.stats import chisquare

    counts = [0, 0, 0, 0]
    for seed in range(8000):
        counts[ticket_order(["a", "b", "c", "d"], seed, k=1, weights=[1, 2, 3, 4])[0]] += 1
    assert chisquare(counts, [800, 1600, 2400, 3200]).pvalue > 1e-4
