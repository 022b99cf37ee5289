"""Known answers of protocol v1 sections 13-14: per-person and counterbalanced orders.

The vectors in tests/vectors/draw-v1.json come from tools/make_vectors.py, which implements
these sections on its own (its own person key, its own construction of the Williams design)
without importing xlshuffle. Each is checked against xlshuffle and against the reference
code of docs/draw-protocol.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from protocol_references import VECTORS, decode_seed, reference_namespace
from xlshuffle import DrawStream, balanced_orders, person_order
from xlshuffle.draw.orders import person_stream, williams_design

REF = reference_namespace()


@pytest.mark.parametrize(
    "case", VECTORS["person_orders"], ids=lambda c: f"{c['id']!r}-{c['n']}-{c['k']}"
)
def test_person_order(case: dict[str, Any]) -> None:
    seed = decode_seed(case["seed"])
    sub = person_stream(seed, case["id"])
    assert [f"{sub.next_word():016x}" for _ in range(4)] == case["first4"]
    assert person_order(case["n"], case["id"], seed=seed, k=case["k"]) == case["order"]
    assert REF["person_order"](case["n"], case["k"], seed, case["id"]) == case["order"]
    ref = REF["person_stream"](seed, case["id"])
    assert [f"{next(ref):016x}" for _ in range(4)] == case["first4"]


def test_person_vectors_cover_the_edges() -> None:
    cases = VECTORS["person_orders"]
    by = {(c["seed"]["value"], repr(c["id"]), c["n"]): c["order"] for c in cases}
    # 42 and 42.0 are one ID; NFD and NFC one ID; different IDs differ somewhere.
    assert by["x", "42", 52] == by["x", "42.0", 52]
    assert len({tuple(c["order"]) for c in cases if c["n"] == 52}) == len(cases) // 4 - 1
    assert any(c["k"] < c["n"] for c in cases)  # a partial order (a deal of k < n)


def test_person_stream_is_not_a_stratum_stream() -> None:
    # the same name under section 11 and section 13: different keys, different words
    person = person_stream("class 4B", "Ann")
    stratum = DrawStream("class 4B").substream("Ann")
    assert person.key != stratum.key
    assert person.next_word() != stratum.next_word()
    assert next(REF["stream"]("class 4B", "Ann")) != next(REF["person_stream"]("class 4B", "Ann"))


@pytest.mark.parametrize(
    "case", VECTORS["balanced_orders"], ids=lambda c: f"{c['n']}-{c['people']}-{c['k']}"
)
def test_balanced_orders(case: dict[str, Any]) -> None:
    seed = decode_seed(case["seed"])
    n, people, k = case["n"], case["people"], case["k"]
    assert williams_design(n) == case["design"]
    assert REF["williams"](n) == case["design"]
    assert balanced_orders(n, people, seed=seed, k=k) == case["orders"]
    assert REF["balanced_orders"](n, people, k, seed) == case["orders"]


def test_balanced_vectors_hold_odd_and_partial_blocks() -> None:
    cases = VECTORS["balanced_orders"]
    assert any(c["n"] % 2 and c["people"] % (2 * c["n"]) for c in cases)
    assert any(c["n"] % 2 == 0 and c["people"] > c["n"] for c in cases)
    assert any(c["k"] < c["n"] for c in cases)
