"""The raffle and audit API: inputs it reads, what it refuses, and what each error says."""

from __future__ import annotations

import hashlib
import pickle
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlshuffle import (
    DrawStream,
    EntryError,
    OptionError,
    SeedError,
    SizeError,
    SystemSource,
    XlshuffleError,
    canonical_id,
    exclude,
    exclusion_digest,
    monetary_unit_sample,
    parse_amounts,
    parse_weights,
    placings,
    proportional_allocation,
    reduce_weights,
    stratified_sample,
    systematic_sample,
    weighted_sample,
)


def test_entry_error_is_a_value_error_with_the_index() -> None:
    assert issubclass(EntryError, XlshuffleError)
    assert issubclass(EntryError, ValueError)
    with pytest.raises(EntryError) as caught:
        parse_weights([1, 2, "x"])
    assert caught.value.index == 2
    assert caught.value.reason.startswith("the weight 'x' is not a number")
    again = pickle.loads(pickle.dumps(caught.value))  # a worker process can send it back
    assert (type(again), again.index, str(again)) == (EntryError, 2, str(caught.value))


# ---------------------------------------------------------------- parse_weights, parse_amounts


def test_parse_weights_is_exact() -> None:
    assert parse_weights([0.1, 0.2, "0.3"]) == [1, 2, 3]  # floats by their shortest repr
    assert parse_weights([Decimal("2.50"), 1]) == [25, 10]  # trailing zeros are no places
    assert parse_weights(["+4", " 7 ", 0, 10**30]) == [4, 7, 0, 10**30]
    assert parse_weights([0.000001]) == [1]
    assert parse_weights([]) == []


@pytest.mark.parametrize(
    ("values", "index", "says"),
    [
        ([1, -2], 1, "cannot be negative (-2)"),
        (["1", " "], 1, "is blank"),
        ([None], 0, "is blank"),
        ([float("nan")], 0, "cannot be nan"),
        ([float("inf")], 0, "cannot be inf"),
        ([Decimal("Infinity")], 0, "cannot be Infinity"),
        ([True], 0, "cannot be TRUE"),
        (["1e3"], 0, "is not a number"),
        (["three"], 0, "is not a number"),
        ([[1]], 0, "must be a number or a text, not list"),
        ([1, 0.1234567], 1, "has 7 decimal places, more than 6: round it"),
    ],
)
def test_parse_weights_refuses(values: list[object], index: int, says: str) -> None:
    with pytest.raises(EntryError) as caught:
        parse_weights(values)
    assert caught.value.index == index
    assert says in str(caught.value)


def test_parse_weights_places_are_bounded_by_the_caller() -> None:
    assert parse_weights(["1.5"], max_places=1) == [15]
    with pytest.raises(EntryError, match="more than 0"):
        parse_weights(["1.5"], max_places=0)


def test_parse_amounts_reads_currency_texts() -> None:
    texts = ["$1,234.56", "1 234.50 €", "£0.07", "12", 3.1, "1\u00a0000", "1'000.5", "+5"]
    assert parse_amounts(texts) == [123456, 123450, 7, 1200, 310, 100000, 100050, 500]
    assert parse_amounts(["1,000,000"], places=0) == [1000000]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("-5", "cannot be negative"),
        ("(5.00)", "cannot be negative"),
        ("-$5", "cannot be negative"),
        ("12,50", "write the decimal point as '.': 12.50"),
        ("1,23,456", "is not a number"),
        (1.005, "more than 2 decimal places: round it (in Excel, =ROUND(A2, 2))"),
        (0.1 + 0.2, "more than 2 decimal places"),
        ("", "is blank"),
    ],
)
def test_parse_amounts_refuses(value: object, says: str) -> None:
    with pytest.raises(EntryError) as caught:
        parse_amounts([1, value])
    assert caught.value.index == 1
    assert says in str(caught.value)


# ---------------------------------------------------------------- weighted draws


def test_weighted_refusals_say_how_many_can_win() -> None:
    with pytest.raises(SizeError, match="only 2 entrants have tickets, so at most 2 can win"):
        weighted_sample([0, 3, 0, 1], 3, seed=1)
    with pytest.raises(SizeError, match="only 0 entrants"):
        weighted_sample([0, 0], 1, seed=1)
    with pytest.raises(EntryError, match="cannot be negative") as caught:
        weighted_sample([1, 2, -1], 1, seed=1)
    assert caught.value.index == 2
    with pytest.raises(EntryError, match=r"whole number, not 2\.5: .* parse_weights"):
        weighted_sample([1, 2.5], 1, seed=1)
    with pytest.raises(SizeError, match="more than 2\\*\\*64"):
        weighted_sample([2**64, 1], 1, seed=1)
    with pytest.raises(SizeError, match="k must be 0 or more"):
        weighted_sample([1], -1, seed=1)


def test_weighted_accepts_whole_floats_and_any_source() -> None:
    assert weighted_sample([1.0, 5.0, 0, 2, 2], 3, seed="2026 raffle") == [1, 3, 4]
    assert weighted_sample([0, 4], 1, seed=SystemSource()) == [1]
    assert weighted_sample([], 0, seed=1) == []
    assert reduce_weights([0, 0]) == [0, 0]


def test_a_stream_continues_across_weighted_draws() -> None:
    s = DrawStream("two prizes")
    first = weighted_sample([1, 2, 3], 1, seed=s)
    second = weighted_sample([1, 2, 3], 1, seed=s)
    fresh = DrawStream("two prizes")
    fresh.randbelow(6)  # what the first draw used
    assert second == weighted_sample([1, 2, 3], 1, seed=fresh)
    assert first == weighted_sample([1, 2, 3], 1, seed="two prizes")


def test_placings() -> None:
    assert [tuple(p) for p in placings([4, 2, 7], 1)] == [
        (1, 4, "winner", 1),
        (2, 2, "reserve", 1),
        (3, 7, "reserve", 2),
    ]
    with pytest.raises(SizeError, match="3 winners asked for but only 2 drawn"):
        placings([0, 1], 3)


# ---------------------------------------------------------------- exclusions


def test_canonical_ids() -> None:
    assert canonical_id("\u00a0Zoe\u0308\t") == "Zo\u00eb"
    assert canonical_id("ANN") != canonical_id("ann")
    assert [canonical_id(x) for x in (42, 42.0, -7, 0.5, None, "")] == [
        "42",
        "42",
        "-7",
        "0.5",
        "",
        "",
    ]
    with pytest.raises(SeedError):
        canonical_id(True)


def test_exclusion_digest_is_the_documented_hash() -> None:
    ids = ["Bo", "  Ann ", 42.0, "Bo", "", None, "Zoe\u0308"]
    text = "\n".join(sorted({"Bo", "Ann", "42", "Zo\u00eb"}))
    assert exclusion_digest(ids) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert exclusion_digest([]) == hashlib.sha256(b"").hexdigest()
    with pytest.raises(EntryError, match="line break") as caught:
        exclusion_digest(["Ann", "Bo\nCy"])
    assert caught.value.index == 1


def test_exclude() -> None:
    assert exclude(["a", "b", "a", None], ["a", ""]) == [1, 3]
    with pytest.raises(EntryError, match="cannot be an excluded ID") as caught:
        exclude(["a"], ["b", float("nan")])
    assert caught.value.index == 1


# ---------------------------------------------------------------- strata


def test_substream() -> None:
    s = DrawStream(7)
    assert s.substream(42).key == s.substream("42").key != s.substream("North").key
    assert s.substream("Zoe\u0308").key == s.substream("Zo\u00eb").key
    assert s.substream("N").seed_text == "7"
    assert repr(s.substream("N")) == "DrawStream(seed=7).substream('N')"
    assert DrawStream(8).substream("N").key != s.substream("N").key
    with pytest.raises(SeedError):
        s.substream("")


def test_strata_group_numbers_and_texts_alike() -> None:
    result = stratified_sample([42, "42", 42.0, "x"], k=1, seed=1)
    assert [(s.label, s.size) for s in result] == [(42, 3), ("x", 1)]


@pytest.mark.parametrize(
    ("options", "error", "says"),
    [
        ({}, OptionError, "exactly one of k"),
        ({"k": 1, "total": 2}, OptionError, "exactly one of k"),
        ({"k": 3}, SizeError, "stratum 'S' has 2 rows, fewer than the 3 asked for"),
        ({"counts": {"N": 1}}, OptionError, "no count for stratum 'S'"),
        ({"counts": {"N": 1, "S": 1, "W": 1}}, OptionError, "'W', which no row has"),
        ({"total": 7}, SizeError, "total must be at most 6"),
        ({"k": 2, "weights": [1, 0, 1, 1, 1, 1]}, SizeError, "'S' has 1 rows with tickets"),
        ({"k": 1, "weights": [1, 1]}, SizeError, "2 weights for 6 rows"),
        ({"k": 1, "seed": SystemSource()}, OptionError, "needs a seed"),
    ],
)
def test_strata_refusals(options: dict[str, object], error: type[Exception], says: str) -> None:
    options.setdefault("seed", 1)
    with pytest.raises(error, match=says.replace("(", r"\(").replace(")", r"\)")):
        stratified_sample(["N", "S", "N", "N", "S", "N"], **options)  # type: ignore[arg-type]


def test_strata_take_all_and_blank_labels() -> None:
    result = stratified_sample(["N", "S", "N"], k=2, take_all=True, seed=1)
    assert [(s.label, sorted(s.drawn)) for s in result] == [("N", [0, 2]), ("S", [1])]
    with pytest.raises(EntryError, match="stratum label None") as caught:
        stratified_sample(["N", None], k=1, seed=1)
    assert caught.value.index == 1


def test_proportional_allocation_ties_go_first() -> None:
    assert proportional_allocation([1, 1, 1], 2) == [1, 1, 0]
    assert proportional_allocation([2, 1, 1], 2) == [1, 1, 0]
    assert proportional_allocation([], 0) == []
    assert sum(proportional_allocation([7, 3, 9, 1], 11)) == 11


# ---------------------------------------------------------------- audits


def test_audit_refusals() -> None:
    with pytest.raises(SizeError, match="cannot select 5 of 4 items"):
        systematic_sample(4, 5, seed=1)
    with pytest.raises(SizeError, match="k must be at most the total"):
        monetary_unit_sample([1, 2], 4, seed=1)
    with pytest.raises(EntryError, match="an amount cannot be negative") as caught:
        monetary_unit_sample([5, -1], 1, seed=1)
    assert caught.value.index == 1
    with pytest.raises(EntryError, match="parse_amounts"):
        monetary_unit_sample(["5"], 1, seed=1)


def test_audit_records_what_replays_it() -> None:
    sample = monetary_unit_sample([500_00, 20_00, 0, 130_00, 350_00], 4, seed="audit 2026")
    assert (sample.method, sample.population, sample.k) == ("monetary-unit", 1_000_00, 4)
    assert sample.interval == Fraction(25_000)
    assert sample.units[0] == sample.start // 4  # type: ignore[operator]
    empty = systematic_sample(10, 0, seed=1)
    assert (empty.start, empty.indexes, empty.interval) == (None, [], 0)
    s = DrawStream(3)
    systematic_sample(10, 0, seed=s)  # k = 0 uses no word of the stream
    assert s.next_word() == DrawStream(3).next_word()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(0, 10**12),
            st.decimals(0, 10**6, places=4).map(lambda d: f"{d:f}"),
            st.from_regex(r"\s?\+?[0-9]{1,6}(\.[0-9]{0,6})?\s?", fullmatch=True),
            st.floats(0, 1e6, allow_nan=False).map(lambda x: round(x, 3)),
        ),
        max_size=8,
    )
)
def test_parse_weights_agrees_with_fractions(values: list[object]) -> None:
    """Each weight read as an exact Fraction (floats by their repr), all scaled by the
    most places any needs: worked out here with fractions, not the module's reader."""
    exact = [
        Fraction(Decimal(repr(v))) if isinstance(v, float) else Fraction(Decimal(str(v).strip()))
        for v in values
    ]
    places = [next(p for p in range(30) if (x * 10**p).denominator == 1) for x in exact]
    scale = 10 ** max(places, default=0)
    assert parse_weights(values) == [int(x * scale) for x in exact]
