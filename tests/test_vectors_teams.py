"""Known answers of protocol v1 section 16: balanced teams.

The vectors in tests/vectors/draw-v1.json come from tools/make_vectors.py, which builds the
line of section 16 on its own (nested blocks, not a sort) without importing xlshuffle. Each
is checked against xlshuffle and against the reference code of docs/draw-protocol.md.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from protocol_references import VECTORS, decode_seed, reference_blocks, reference_namespace
from xlshuffle import balanced_groups, groups

REF = reference_namespace()
CASES = VECTORS["balanced_teams"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['seed']['value']}-k{c['k']}")
def test_balanced_teams(case: dict[str, Any]) -> None:
    seed = decode_seed(case["seed"])
    labels, k = case["labels"], case["k"]
    assert balanced_groups([tuple(row) for row in labels], k, seed=seed) == case["teams"]
    assert REF["balanced_teams"](labels, k, seed) == case["teams"]


def test_worked_vector_of_the_protocol_page() -> None:
    assert balanced_groups(["F", "F", "M", "M", "F", "M"], 2, seed=42) == [1, 2, 1, 2, 1, 2]


def test_vectors_hold_what_section_16_promises() -> None:
    # by hand from the vectors alone: sizes within one, the first column and the whole
    # tuple within one per team (values by canonical text: " F" is "F", 7.0 is 7)
    def norm(v: object) -> str:
        return "" if v is None else str(v).strip().replace(".0", "")

    for case in CASES:
        k, teams = case["k"], case["teams"]
        sizes = Counter(teams)
        assert max(sizes.values()) - min(sizes.get(t, 0) for t in range(1, k + 1)) <= 1
        for width in (1, len(case["labels"][0])):
            by: dict[tuple[str, ...], Counter[int]] = {}
            for row, t in zip(case["labels"], teams, strict=True):
                by.setdefault(tuple(norm(v) for v in row[:width]), Counter())[t] += 1
            for counts in by.values():
                per = [counts.get(t, 0) for t in range(1, k + 1)]
                assert max(per) - min(per) <= 1, case


def test_one_value_is_plain_groups_renumbered() -> None:
    case = next(c for c in CASES if c["labels"] == [["A"]] * 10)
    plain = groups(10, case["k"], seed=decode_seed(case["seed"]))
    pairs = set(zip(plain, case["teams"], strict=True))
    assert len(pairs) == case["k"]  # one team number for each plain group: a renumbering


def test_reference_block_is_short() -> None:
    block = next(b for b in reference_blocks() if "def balanced_teams" in b)
    assert len([line for line in block.splitlines() if line.strip()]) <= 30


@pytest.mark.parametrize(
    "case", VECTORS["balanced_teams_avoid"], ids=lambda c: f"{c['seed']['value']}-k{c['k']}"
)
def test_balanced_teams_avoiding_earlier_pairs(case: dict[str, Any]) -> None:
    seed = decode_seed(case["seed"])
    labels, k, before = case["labels"], case["k"], case["before"]
    rows = [tuple(row) for row in labels]
    assert balanced_groups(rows, k, seed=seed, avoid=before) == case["teams"]
    assert REF["balanced_teams"](labels, k, seed, before) == case["teams"]
