"""The classic shuffles: known answers, generator vectors, and the promises in their docs."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xlshuffle
from xlshuffle import DrawStream
from xlshuffle.lab.classic import (
    ALGORITHMS,
    MsvcRand,
    VbaRnd,
    _floor_counts,
    _residue_counts,
    durstenfeld_forward,
    rand_mod,
    vba_int_rnd,
)

seeds = st.one_of(st.text(min_size=1, max_size=12), st.integers(0, 10**9))


@settings(max_examples=60, deadline=None)
@given(seed=seeds, n=st.integers(0, 300))
def test_forward_durstenfeld_is_the_protocol_shuffle(seed: object, n: int) -> None:
    assert durstenfeld_forward(range(n), DrawStream(seed)) == xlshuffle.shuffled(
        range(n), seed=seed
    )


def test_forward_durstenfeld_matches_a_million_item_protocol_shuffle() -> None:
    # The protocol's fast path (whole buffers at once) against the plain seam.
    n = 20_000
    assert durstenfeld_forward(range(n), DrawStream("big")) == xlshuffle.shuffled(
        range(n), seed="big"
    )


@pytest.mark.parametrize("name", list(ALGORITHMS))
@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=st.integers(0, 70))
def test_every_method_returns_a_reordering_and_leaves_the_input(
    name: str, seed: object, n: int
) -> None:
    items = [f"card{i}" for i in range(n)]
    before = list(items)
    out = ALGORITHMS[name].run(items, DrawStream(seed))
    assert items == before
    assert sorted(out) == sorted(items)


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_every_method_is_repeatable_from_its_seed(name: str) -> None:
    run = ALGORITHMS[name].run
    assert run(range(30), DrawStream("same")) == run(range(30), DrawStream("same"))


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_every_docstring_says_fair_or_biased_as_the_registry_does(name: str) -> None:
    a = ALGORITHMS[name]
    doc = inspect.getdoc(a.run) or ""
    first = doc.split("\n\n")[0]
    if a.fair:
        assert "fair" in first.lower()
        assert "BIASED" not in first
    else:
        assert "BIASED" in first


def test_msvc_rand_known_answers_after_srand_1() -> None:
    # The well-known first outputs of Microsoft's CRT rand() with the default seed.
    r = MsvcRand(1)
    assert [r.rand() for _ in range(10)] == [
        41,
        18467,
        6334,
        26500,
        19169,
        15724,
        11478,
        29358,
        26962,
        24464,
    ]
    assert r.calls == 10


def test_msvc_rand_ignores_bit_31_of_the_seed() -> None:
    # Why rand-mod can make at most 2**31 different deals.
    for seed in (0, 1, 12345, 2**31 - 1):
        a, b = MsvcRand(seed), MsvcRand(seed ^ (1 << 31))
        assert [a.rand() for _ in range(50)] == [b.rand() for _ in range(50)]


def test_vba_rnd_known_answers_from_a_fresh_session() -> None:
    # The seed article's worked example prints these Rnd() values (VBA Single, 7 digits)
    # from a session that never called Randomize.
    r = VbaRnd()
    got = [float(f"{r.rnd():.7g}") for _ in range(7)]
    assert got == [0.7055475, 0.533424, 0.5795186, 0.2895625, 0.301948, 0.7747401, 0.01401764]


def test_vba_shuffle_reproduces_the_seed_articles_deal() -> None:
    # Same article: 8 values 0..7, X = Fix(Rnd * Y), swap X with Y - 1.
    assert vba_int_rnd(range(8), VbaRnd()) == [7, 0, 2, 4, 1, 6, 3, 5]


def test_vba_rnd_has_full_period() -> None:
    # Hull-Dobell conditions for modulus 2**k: c odd and a = 1 (mod 4) ...
    assert VbaRnd.C % 2 == 1
    assert VbaRnd.A % 4 == 1
    # ... and the same constants on 12 bits do visit every state once.
    r = VbaRnd(0, bits=12)
    assert len({r.step() for _ in range(4096)}) == 4096


def test_modulo_counts_for_a_deck_of_52() -> None:
    counts = _residue_counts(52)
    assert sum(counts) == 32768
    assert counts[:8] == [631] * 8
    assert counts[8:] == [630] * 44


@pytest.mark.parametrize("m", [1, 2, 3, 7, 52, 1000, 99_991])
def test_floor_counts_split_every_state(m: int) -> None:
    counts = _floor_counts(m)
    assert sum(counts) == 1 << 24
    assert max(counts) - min(counts) <= 1


def test_rand_mod_never_reaches_high_slots_of_a_big_deck() -> None:
    # rand() % 40000 <= 32767: the first swap can only bring one of the first 32768 items
    # into the last slot.
    n = 40_000
    for seed in range(5):
        assert rand_mod(range(n), MsvcRand(seed))[-1] < 32768


def test_generator_methods_take_a_seed_from_any_source() -> None:
    # Given a DrawStream they seed their generator from it: one draw, then their own.
    s = DrawStream("seed me")
    start = s.randbelow(1 << 24)
    assert vba_int_rnd(range(10), DrawStream("seed me")) == vba_int_rnd(range(10), VbaRnd(start))
    s = DrawStream("seed me")
    start = s.randbelow(1 << 32)
    assert rand_mod(range(10), DrawStream("seed me")) == rand_mod(range(10), MsvcRand(start))
