"""Seed normalisation, fresh seeds and the stream's fast path."""

from __future__ import annotations

import datetime as dt
import decimal
import fractions
import hashlib
import math
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlshuffle import (
    DrawStream,
    SeedError,
    SystemSource,
    excel_serial,
    new_seed,
    normalise_seed,
)
from xlshuffle.draw import protocol
from xlshuffle.draw.knuth import durstenfeld

from strategies import seeds


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        ("42", b"42"),
        (42, b"42"),
        (42.0, b"42"),
        (-0.0, b"0"),
        (0.5, b"0.5"),
        (1e-05, b"1e-05"),
        (1e300, str(int(1e300)).encode()),
        (decimal.Decimal("42"), b"42"),
        (fractions.Fraction(1, 4), b"0.25"),
        (dt.date(2026, 11, 21), b"46347"),
        (dt.datetime(2026, 11, 21, 18, 0), b"46347.75"),
        (dt.datetime(2026, 11, 21, 0, 0), b"46347"),
        (dt.datetime(2026, 11, 21, 6, tzinfo=dt.UTC), b"46347.25"),
        ("Zo\u00eb", "Zo\u00eb".encode()),
        ("Zoe\u0308", "Zo\u00eb".encode()),
    ],
)
def test_normalise_seed(seed: object, expected: bytes) -> None:
    assert normalise_seed(seed) == expected


@pytest.mark.parametrize(
    ("seed", "fragment"),
    [
        (True, "TRUE"),
        (False, "FALSE"),
        (math.nan, "nan"),
        (math.inf, "inf"),
        (-math.inf, "inf"),
        ([1, 2], "list"),
        (b"42", "bytes"),
        ("", "no seed"),
        (None, "no seed"),
    ],
)
def test_bad_seeds_are_refused_with_a_hint(seed: object, fragment: str) -> None:
    with pytest.raises(SeedError, match=fragment) as info:
        normalise_seed(seed)
    assert isinstance(info.value, ValueError)


def test_drawstream_refuses_a_bad_seed() -> None:
    with pytest.raises(SeedError, match="TRUE"):
        DrawStream(True)


def test_excel_serial_known_days() -> None:
    assert excel_serial(dt.date(1900, 3, 1)) == 61
    assert excel_serial(dt.date(1899, 12, 31)) == 1
    assert excel_serial(dt.datetime(2000, 1, 1, 0, 0, 0, 500)) == 36526  # below 1 ms: a day
    assert excel_serial(dt.datetime(2000, 1, 1, 0, 0, 1)) == 36526 + 1 / 86400


def test_new_seed_is_fresh_printable_and_text_in_excel() -> None:
    drawn = {new_seed() for _ in range(200)}
    assert len(drawn) == 200
    for s in drawn:
        assert len(s) == 26
        assert s[0] in "abcdefgh"  # 128 bits in 26 base32 digits: the first holds 3
        assert set(s) <= set("abcdefghijklmnopqrstuvwxyz234567")


def test_unseeded_stream_records_its_seed_and_replays() -> None:
    s = DrawStream()
    assert isinstance(s.seed, str)
    first = [s.next_word() for _ in range(10)]
    again = DrawStream(s.seed)
    assert [again.next_word() for _ in range(10)] == first
    assert DrawStream("").seed != DrawStream("").seed


def test_builtin_sha256_matches_hashlib() -> None:
    for message in (b"", b"abc", bytes(range(40)), b"x" * 1000):
        assert protocol._sha256(message).digest() == hashlib.sha256(message).digest()


@given(seeds, st.integers(min_value=1, max_value=2**64))
def test_randbelow_is_in_range(seed: object, m: int) -> None:
    s = DrawStream(seed)
    assert all(0 <= s.randbelow(m) < m for _ in range(5))


def test_randbelow_refuses_zero_and_past_two_to_the_64() -> None:
    with pytest.raises(ValueError, match="1 <= m <= 2\\*\\*64"):
        DrawStream("x").randbelow(0)
    with pytest.raises(ValueError, match="1 <= m <= 2\\*\\*64"):
        DrawStream("x").randbelow(2**64 + 1)  # would loop for ever: every word rejected
    assert 0 <= DrawStream("x").randbelow(2**64) < 2**64
    with pytest.raises(ValueError, match="m >= 1"):
        SystemSource().randbelow(0)


def test_system_source_covers_its_range() -> None:
    src = SystemSource()
    assert {src.randbelow(3) for _ in range(300)} == {0, 1, 2}


class _CraftedStream(DrawStream):
    """A DrawStream whose words come from a list, to reach the rare rejection branch."""

    def __init__(self, words: list[int]) -> None:
        super().__init__("crafted")
        self._words: Iterator[int] = iter(words)

    def _refill(self) -> None:
        self._buf = tuple(next(self._words) for _ in range(3))
        self._pos = 0


@given(
    st.integers(min_value=2, max_value=12),
    st.lists(
        st.one_of(
            st.integers(min_value=0, max_value=2**64 - 1),
            st.integers(min_value=2**64 - 20, max_value=2**64 - 1),  # near the top
        ),
        min_size=400,
        max_size=400,
    ),
)
def test_fast_path_makes_the_same_swaps_as_randbelow(n: int, words: list[int]) -> None:
    fast, slow = list(range(n)), list(range(n))
    _CraftedStream(words).durstenfeld(fast, n - 1)
    durstenfeld(slow, n - 1, _CraftedStream(words).randbelow)
    assert fast == slow


@given(seeds, st.integers(min_value=0, max_value=1500))
def test_fast_path_equals_generic_loop_on_real_streams(seed: object, n: int) -> None:
    fast, slow = list(range(n)), list(range(n))
    DrawStream(seed).durstenfeld(fast, max(n - 1, 0))  # type: ignore[arg-type]
    durstenfeld(slow, max(n - 1, 0), DrawStream(seed).randbelow)
    assert fast == slow


def test_chunking_does_not_change_the_words() -> None:
    # The stream hashes 1, 1, 2, 4, ... blocks at a time; word k must not depend on that.
    a, b = DrawStream("chunks"), DrawStream("chunks")
    first = [a.next_word() for _ in range(20_000)]
    key = b.key
    expected = []
    for block in range(5000):
        digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
        expected += [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
    assert first == expected
