"""Block allocation lists (protocol section 15): exact ratios, exact chances, strata, refusals.

The exact-chance tests feed :func:`xlshuffle.draw.allocate._sequence` every possible answer
of ``randbelow`` and count the block orders that come out, against the closed form: each
order of a block's multiset is ``prod(count!)`` of the ``s!`` position orders.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlshuffle import DrawStream, OptionError, SizeError, allocation_list
from xlshuffle.draw.allocate import (
    MAX_ROWS,
    _sequence,
    allocation_stream,
    stratum_combinations,
)


class Scripted:
    """A source that answers ``randbelow`` from a script, checking each ``m`` asked."""

    def __init__(self, answers: Iterator[tuple[int, int]]) -> None:
        self.answers = answers

    def randbelow(self, m: int, /) -> int:
        want, value = next(self.answers)
        assert m == want
        return value


def every_script(ms: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every sequence of answers for the moduli ``ms``, each answer ``0 .. m-1``."""
    for values in itertools.product(*(range(m) for m in ms)):
        yield list(zip(ms, values, strict=True))


# --------------------------------------------------------------------------- exact chances


@pytest.mark.parametrize(
    ("ratio", "size"), [([2, 1], 3), ([2, 1], 6), ([1, 1], 4), ([1, 1, 1], 6), ([3, 2], 5)]
)
def test_every_order_of_a_block_is_equally_likely(ratio: list[int], size: int) -> None:
    arms = ["A", "B", "C"][: len(ratio)]
    ms = [1] + [size - i for i in range(size - 1)]  # the size, then Fisher-Yates's s-1 steps
    orders: Counter[str] = Counter()
    for script in every_script(ms):
        rows = _sequence(arms, ratio, [size], size, Scripted(iter(script)))
        orders["".join(arm for _, _, arm in rows)] += 1
    counts = [r * size // sum(ratio) for r in ratio]
    distinct = math.factorial(size) // math.prod(math.factorial(c) for c in counts)
    assert len(orders) == distinct  # every arrangement of the multiset occurs
    assert set(orders.values()) == {math.prod(math.factorial(c) for c in counts)}
    assert all(Counter(order) == dict(zip(arms, counts, strict=True)) for order in orders)


def test_sizes_follow_the_first_answer() -> None:
    for answer, size in enumerate([6, 3, 9]):
        script = [(3, answer)] + [(m, 0) for m in range(size, 1, -1)]
        rows = _sequence(["A", "B"], [2, 1], [6, 3, 9], 1, Scripted(iter(script)))
        assert [s for _, s, _ in rows] == [size] * size
        # answers of 0 leave the multiset in its laid-out order: arms in the order given
        assert "".join(a for _, _, a in rows) == "A" * (2 * size // 3) + "B" * (size // 3)


# --------------------------------------------------------------------------- properties


@st.composite
def designs(draw: st.DrawFn) -> dict[str, object]:
    k = draw(st.integers(2, 4))
    ratio = draw(st.lists(st.integers(1, 3), min_size=k, max_size=k))
    unit = sum(ratio) // math.gcd(*ratio)
    multiples = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True))
    return {
        "arms": [f"arm {i}" for i in range(k)],
        "ratio": ratio,
        "n": draw(st.integers(1, 40)),
        "block_sizes": [unit * m for m in multiples],
        "seed": draw(st.text(min_size=1, max_size=8)),
    }


@given(designs())
def test_every_block_holds_the_arms_exactly_in_the_ratio(design: dict[str, object]) -> None:
    rows = allocation_list(**design)  # type: ignore[arg-type]
    ratio, sizes, n = design["ratio"], design["block_sizes"], design["n"]
    assert isinstance(ratio, list) and isinstance(sizes, list) and isinstance(n, int)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert n <= len(rows) < n + max(sizes)  # whole blocks, the last one complete
    blocks = itertools.groupby(rows, key=lambda r: r.block)
    for number, (block, members) in enumerate(blocks, 1):
        got = list(members)
        assert block == number and got[0].block_size in sizes
        assert {r.block_size for r in got} == {len(got)}
        counts = Counter(r.arm for r in got)
        for arm, part in zip(design["arms"], ratio, strict=True):  # type: ignore[call-overload]
            assert counts[arm] * sum(ratio) == part * len(got)


@given(designs(), st.integers(1, 40))
def test_a_longer_list_extends_a_shorter_one(design: dict[str, object], more: int) -> None:
    short = allocation_list(**design)  # type: ignore[arg-type]
    long = allocation_list(**{**design, "n": len(short) + more})  # type: ignore[arg-type]
    assert long[: len(short)] == short


@given(
    st.lists(st.sampled_from("NSEWX"), min_size=1, max_size=4, unique=True),
    st.sampled_from("NSEWXYZ"),
    st.integers(0, 4),
)
def test_adding_a_stratum_value_leaves_the_other_lists(
    sites: list[str], extra: str, where: int
) -> None:
    if extra in sites:
        return
    bigger = [*sites]
    bigger.insert(min(where, len(sites)), extra)

    def lists(values: list[str]) -> dict[tuple[str, ...], list[object]]:
        rows = allocation_list(
            ["A", "B"],
            ratio=[1, 2],
            n=7,
            block_sizes=[3, 6],
            seed="independent",
            strata={"site": values, "sex": ["F", "M"]},
        )
        out: dict[tuple[str, ...], list[object]] = {}
        for r in rows:
            out.setdefault(r.strata, []).append(r)
        return out

    small, big = lists(sites), lists(bigger)
    assert all(big[combo] == rows for combo, rows in small.items())
    assert list(big) == [(s, x) for s in bigger for x in "FM"]  # first factor slowest


def test_strata_combinations_and_their_labels() -> None:
    names, combos = stratum_combinations([("site", [" North ", "South"]), ("age", [1, 2.0])])
    assert names == ["site", "age"]
    assert combos == [("North", "1"), ("North", "2"), ("South", "1"), ("South", "2")]
    rows = allocation_list(
        ["A", "B"], n=2, block_sizes=[2], seed="s", strata={"site": ["North"], "age": [1]}
    )
    # the combination's sub-stream is the one its label names: "site=North|age=1"
    stream = allocation_stream("s", "site=North|age=1")
    size = [2][stream.randbelow(1)]
    items = ["A", "B"]
    j = stream.randbelow(2)
    items[0], items[j] = items[j], items[0]
    assert size == 2 and [r.arm for r in rows] == items


def test_no_strata_is_the_label_of_nothing_and_not_the_seeds_own_stream() -> None:
    rows = allocation_list(["A", "B"], n=2, block_sizes=[2], seed=7)
    order = ["A", "B"]
    stream = allocation_stream(7, "")
    stream.randbelow(1)
    if stream.randbelow(2):
        order.reverse()
    assert [r.arm for r in rows] == order
    assert allocation_stream(7, "").key != DrawStream(7).key


def test_seed_kinds_as_the_protocol_says() -> None:
    design = {"ratio": [1, 1], "n": 10, "block_sizes": [2, 4]}
    a = allocation_list(["A", "B"], seed=42, **design)  # type: ignore[arg-type]
    assert a == allocation_list(["A", "B"], seed="42", **design)  # type: ignore[arg-type]
    assert a == allocation_list(["A", "B"], seed=42.0, **design)  # type: ignore[arg-type]
    assert a != allocation_list(["A", "B"], seed="43", **design)  # type: ignore[arg-type]
    stream = DrawStream(None)
    fresh = allocation_list(["A", "B"], seed=stream, **design)  # type: ignore[arg-type]
    again = allocation_list(["A", "B"], seed=stream.seed, **design)  # type: ignore[arg-type]
    assert fresh == again


def test_codes_are_unique_and_say_nothing_of_the_arm() -> None:
    rows = allocation_list(
        ["A", "B"], n=500, block_sizes=[2, 4], seed="codes", strata={"site": ["N", "S"]}
    )
    codes = [r.code for r in rows]
    assert len(set(codes)) == len(codes)
    assert all(len(c) == 14 and c[4] == c[9] == "-" for c in codes)
    # the code depends on the seed, the combination and Seq only: other arms, same codes
    other = allocation_list(
        ["X", "Y"], ratio=[1, 1], n=500, block_sizes=[4], seed="codes", strata={"site": ["N", "S"]}
    )
    mine = {(r.strata, r.seq): r.code for r in rows}
    theirs = {(r.strata, r.seq): r.code for r in other}
    assert all(mine[key] == code for key, code in theirs.items() if key in mine)
    assert len(set(mine) & set(theirs)) >= 1000


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        (
            {"block_sizes": [3, 4]},
            OptionError,
            "block size 4 is not a multiple of 3, the sum of the ratio 2:1",
        ),
        ({"block_sizes": [0]}, OptionError, "block size 0"),
        ({"block_sizes": [3, 3]}, OptionError, "given twice"),
        ({"block_sizes": []}, OptionError, "at least one block size"),
        ({"block_sizes": [3000]}, OptionError, "more than 1000"),
        ({"arms": []}, OptionError, "at least two arms"),
        ({"arms": ["A"], "ratio": [1]}, OptionError, "at least two arms"),
        ({"arms": ["A", " A"]}, OptionError, "'A' is named twice"),
        ({"arms": ["A", ""]}, OptionError, "arm name is blank"),
        ({"ratio": [1, 0]}, OptionError, "is 0"),
        ({"ratio": [1]}, OptionError, "1 parts for 2 arms"),
        ({"ratio": [1.5, 1]}, SizeError, "ratio must be a whole number"),
        ({"n": 0}, SizeError, "n must be 1 or more"),
        ({"n": -1}, SizeError, "n must be 0 or more"),
        ({"n": 2.5}, SizeError, "n must be a whole number"),
        ({"n": MAX_ROWS}, SizeError, "more than 1,000,000 rows"),
        ({"strata": {"site": []}}, OptionError, "stratum 'site' needs its values"),
        ({"strata": {"site": ["N", "N"]}}, OptionError, "once each"),
        ({"strata": {"site": ["N|S"]}}, OptionError, "without '|'"),
        ({"strata": {"a=b": ["N"]}}, OptionError, "holds '=' or '|'"),
        ({"strata": [("site", ["N"]), ("site", ["S"])]}, OptionError, "repeated"),
        ({"strata": {"site": ["N", True]}}, OptionError, "is not a text or a number"),
        ({"strata": {" ": ["N"]}}, OptionError, "stratum name is blank"),
        (
            {"strata": {"a": range(1000), "b": range(1000), "c": range(1000)}},
            SizeError,
            "make 1,000,000,000 combinations",
        ),
    ],
)
def test_refusals_say_what_and_how(kwargs: dict[str, object], error: type, words: str) -> None:
    design: dict[str, object] = {
        "arms": ["A", "B"],
        "ratio": [2, 1],
        "n": 10,
        "block_sizes": [3, 6],
        "seed": "x",
    }
    with pytest.raises(error) as info:
        allocation_list(**{**design, **kwargs})  # type: ignore[arg-type]
    message = str(info.value)
    assert words in message and "\n" not in message


def test_a_list_with_a_repeated_code_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # 60-bit codes never repeat in practice; a code function that repeats shows the check
    from xlshuffle.draw import allocate

    monkeypatch.setattr(allocate, "_code", lambda key, seq: f"CODE-{seq % 5}")
    with pytest.raises(SizeError, match="rows 1 and 6 share the concealment code CODE-1"):
        allocation_list(["A", "B"], n=8, block_sizes=[2], seed=1)
