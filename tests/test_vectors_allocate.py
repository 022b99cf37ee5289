"""Known answers of protocol v1 section 15: block allocation lists.

The vectors in tests/vectors/draw-v1.json (key ``allocation_lists``) come from
tools/make_vectors.py, which implements section 15 on its own (a list built by counting, its
own sub-stream key and code) without importing xlshuffle. Each is checked against xlshuffle
and against the reference code of docs/draw-protocol.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from protocol_references import VECTORS, decode_seed, reference_blocks, reference_namespace
from xlshuffle import allocation_list

REF = reference_namespace()
CASES = VECTORS["allocation_lists"]


def _id(case: dict[str, Any]) -> str:
    return f"{case['seed']['value']!r}-{len(case['strata'])}strata-n{case['n']}"


def _rows(case: dict[str, Any]) -> list[list[Any]]:
    rows = allocation_list(
        case["arms"],
        ratio=case["ratio"],
        n=case["n"],
        block_sizes=case["block_sizes"],
        seed=decode_seed(case["seed"]),
        strata=[(name, values) for name, values in case["strata"]],
    )
    return [[r.seq, list(r.strata), r.block, r.block_size, r.arm, r.code] for r in rows]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_allocation_list(case: dict[str, Any]) -> None:
    assert _rows(case) == case["rows"]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_reference_code(case: dict[str, Any]) -> None:
    strata = [(name, values) for name, values in case["strata"]]
    got = REF["allocation_list"](
        decode_seed(case["seed"]),
        case["arms"],
        case["ratio"],
        case["n"],
        case["block_sizes"],
        strata,
    )
    assert got == case["rows"]


def test_the_reference_block_is_short() -> None:
    block = reference_blocks()[3]  # after steps 1-5, sections 8-12 and sections 13-14
    assert "def allocation_list(" in block
    assert len([line for line in block.splitlines() if line.strip()]) <= 40


def test_vectors_pin_the_rules() -> None:
    first = CASES[0]
    assert (first["seed"]["value"], first["ratio"], first["n"]) == ("trial", [2, 1], 6)
    # worked by hand from the rows: a block of 3, then one of 6 (the last block complete)
    assert [r[4] for r in first["rows"]] == list("AABABAAAB")
    assert [r[3] for r in first["rows"]] == [3] * 3 + [6] * 6
    assert first["rows"][0][5] == "P0RX-V4W4-XEPG"  # the docs' table quotes it
    # 4:2 is 2:1 (the ratio's GCD is taken out)
    assert CASES[1]["ratio"] == [4, 2] and CASES[1]["rows"] == first["rows"]
    # adding a value to a factor leaves every other combination's rows as they were
    small, big = CASES[3], CASES[4]
    assert len(big["strata"][0][1]) == len(small["strata"][0][1]) + 1
    assert big["rows"][: len(small["rows"])] == small["rows"]
    # every block holds the arms exactly in the ratio
    for case in CASES:
        total = sum(case["ratio"])
        blocks: dict[tuple[str, int], list[str]] = {}
        for _seq, combo, block, size, arm, _ in case["rows"]:
            blocks.setdefault(("|".join(combo), block), []).append(arm)
            assert size in case["block_sizes"]
        for arms in blocks.values():
            counts = [arms.count(a) * total for a in case["arms"]]
            assert counts == [r * len(arms) for r in case["ratio"]]
