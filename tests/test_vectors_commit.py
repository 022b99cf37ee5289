"""Known answers of protocol v1 section 17: commit, then draw.

The vectors in tests/vectors/draw-v1.json come from tools/make_vectors.py, which writes the
canonical JSON out from the section's text (not with the json module) and does not import
xlshuffle. Each is checked against xlshuffle and against the reference code of
docs/draw-protocol.md.
"""

from __future__ import annotations

import pytest

from protocol_references import VECTORS, reference_namespace
from xlshuffle import OptionError, deal
from xlshuffle.draw.commit import (
    canonical_json,
    commit_seed,
    commitment_sha256,
    entrant_sha256,
    reveal_values,
    rows_sha256,
)

REF = reference_namespace()


@pytest.mark.parametrize("case", VECTORS["commit_canonical_json"])
def test_canonical_json(case: dict[str, object]) -> None:
    want = str(case["canonical"]).encode("utf-8")
    assert canonical_json(case["value"]) == want
    assert REF["canonical_json"](case["value"]) == want


def test_list_digest() -> None:
    case = VECTORS["commit_list_digest"]
    assert rows_sha256(case["rows"]) == case["sha256"]
    assert REF["list_digest"](case["rows"]) == case["sha256"]


@pytest.mark.parametrize("case", VECTORS["commit_seed"]["cases"])
def test_seed_from_commitment_and_reveal(case: dict[str, object]) -> None:
    body = VECTORS["commit_seed"]["commitment"]
    digest = VECTORS["commit_seed"]["sha256"]
    assert commitment_sha256(body) == digest
    assert commit_seed(digest, case["reveal"]) == case["seed"]
    assert REF["commit_seed"](body, case["reveal"]) == case["seed"]
    assert deal(list(range(10)), 3, seed=case["seed"]) == case["deal_3_of_10"]


def test_entrant_hashes() -> None:
    case = VECTORS["commit_entrant_hashes"]
    got = [entrant_sha256(case["salt"], row) for row in case["rows"]]
    assert got == case["sha256"]
    assert [REF["entrant_hash"](case["salt"], row) for row in case["rows"]] == case["sha256"]


@pytest.mark.parametrize(
    ("values", "words"),
    [([], "give the revealed value"), (["  "], "blank"), (["1/2"], "holds '/'")],
)
def test_bad_revealed_values_are_refused(values: list[str], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        reveal_values(values)


def test_only_plain_json_is_committed() -> None:
    with pytest.raises(OptionError):
        canonical_json({"x": 1.5})
