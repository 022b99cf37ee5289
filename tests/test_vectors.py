"""Known answers of draw protocol v1: the issue's vectors and tests/vectors/draw-v1.json.

The JSON vectors come from tools/make_vectors.py, which implements the protocol on its own
without importing xlshuffle. If xlshuffle disagrees with them, xlshuffle is wrong.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

import xlshuffle
from protocol_references import VECTORS, decode_seed, reference_blocks, reference_namespace
from xlshuffle import DrawStream, deal, groups, normalise_seed, shuffle_grid, shuffled

# ---------------------------------------------------------------- the vectors


def test_first_words_of_seed_42() -> None:
    s = DrawStream("42")
    words = [f"{s.next_word():016x}" for _ in range(4)]
    assert words == ["5b0a97947fb05be0", "47a48650566127ea", "eb89a180b9a9e399", "6d802aba7cfd949f"]


@pytest.mark.parametrize("seed", ["42", 42, 42.0])
def test_shuffle_1_to_10(seed: object) -> None:
    assert shuffled(range(1, 11), seed=seed) == [9, 10, 4, 5, 7, 6, 1, 2, 8, 3]


def test_shuffle_letters_2026_raffle() -> None:
    assert "".join(shuffled("ABCDEFGHIJ", seed="2026 raffle")) == "DJFECGAIHB"
    assert xlshuffle.shuffle_text("ABCDEFGHIJ", seed="2026 raffle") == "DJFECGAIHB"


def test_deal_5_of_52() -> None:
    assert deal(range(52), 5, seed="xlshuffle") == [1, 41, 36, 20, 5]


def test_nfc_and_nfd_seeds_agree() -> None:
    nfc, nfd = "Zo\u00eb", "Zoe\u0308"
    assert nfc != nfd
    assert normalise_seed(nfc) == normalise_seed(nfd)
    assert shuffled(range(100), seed=nfc) == shuffled(range(100), seed=nfd)


# ---------------------------------------------------------------- generated vectors


@pytest.mark.parametrize("case", VECTORS["seed_bytes"], ids=lambda c: repr(c["seed"]["value"]))
def test_seed_bytes(case: dict[str, Any]) -> None:
    assert normalise_seed(decode_seed(case["seed"])).hex() == case["hex"]


@pytest.mark.parametrize("case", VECTORS["words"], ids=lambda c: repr(c["seed"]["value"]))
def test_words(case: dict[str, Any]) -> None:
    s = DrawStream(decode_seed(case["seed"]))
    assert [f"{s.next_word():016x}" for _ in range(8)] == case["first8"]


@pytest.mark.parametrize(
    "case", VECTORS["shuffles"], ids=lambda c: f"{c['seed']['value']!r}-n{c['n']}"
)
def test_shuffles(case: dict[str, Any]) -> None:
    seed = decode_seed(case["seed"])
    assert shuffled(range(case["n"]), seed=seed) == case["permutation"]
    assert xlshuffle.permutation(case["n"], seed=seed) == case["permutation"]


@pytest.mark.parametrize(
    "case", VECTORS["deals"], ids=lambda c: f"{c['seed']['value']!r}-{c['k']}of{c['n']}"
)
def test_deals(case: dict[str, Any]) -> None:
    seed = decode_seed(case["seed"])
    assert deal(range(case["n"]), case["k"], seed=seed) == case["dealt"]


def test_randbelow_with_heavy_rejection() -> None:
    case = VECTORS["randbelow_rejection"]
    s = DrawStream(decode_seed(case["seed"]))
    assert [s.randbelow(case["m"]) for _ in case["values"]] == case["values"]


def test_long_stream_digest() -> None:
    case = VECTORS["long_stream"]
    s = DrawStream(decode_seed(case["seed"]))
    blob = b"".join(s.next_word().to_bytes(8, "big") for _ in range(case["words"]))
    assert hashlib.sha256(blob).hexdigest() == case["sha256"]


@pytest.mark.parametrize("mode", ["within_rows", "within_columns"])
def test_grid_order_of_permutations(mode: str) -> None:
    case = VECTORS[mode]
    by = mode.replace("_", "-")
    assert shuffle_grid(case["grid"], by=by, seed=decode_seed(case["seed"])) == case["result"]


def test_groups_vector() -> None:
    case = VECTORS["groups"]
    assert groups(case["n"], case["k"], seed=decode_seed(case["seed"])) == case["groups"]


# ---------------------------------------------------------------- the document itself


def test_reference_implementation_in_the_docs_is_short_and_right() -> None:
    ref = reference_namespace()
    lines = [[line for line in block.splitlines() if line.strip()] for block in reference_blocks()]
    assert len(lines[0]) <= 35
    assert len(lines[1]) <= 40  # sections 8-12; tests/test_vectors_raffles.py runs it
    assert len(lines[2]) <= 25  # sections 13-14; tests/test_vectors_orders.py runs it
    assert len(lines[6]) <= 50  # sections 10-11's rules; tests/test_vectors_entries.py runs it
    assert ref["deal"](range(1, 11), 10, "42") == [9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
    assert "".join(ref["deal"]("ABCDEFGHIJ", 10, "2026 raffle")) == "DJFECGAIHB"
    assert ref["deal"](range(52), 5, "xlshuffle") == [1, 41, 36, 20, 5]
    for case in VECTORS["shuffles"]:
        if case["seed"]["type"] in ("str", "int", "float"):
            seed = case["seed"]["value"]
            assert ref["deal"](range(case["n"]), case["n"], seed) == case["permutation"]


def test_grapheme_shuffle_vector() -> None:
    # Pins the grapheme segmentation (UAX #29 as implemented by `regex`) as well as the
    # draw: a regex upgrade that split these clusters differently would change results.
    text = "Zoe\u0308 \U0001f1eb\U0001f1f7 \U0001f44d\U0001f3fd abc"
    assert xlshuffle.shuffle_text(text, seed=1) == (
        "ae\u0308 \U0001f1eb\U0001f1f7c\U0001f44d\U0001f3fd oZb "
    )
    assert xlshuffle.shuffle_text("the quick brown fox", seed=42, unit="word") == (
        "the fox quick brown"
    )
