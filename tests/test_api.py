"""The public API: grids, text, cards, errors, and what each error tells the user."""

from __future__ import annotations

import types

import pytest

import xlshuffle
from xlshuffle import (
    OptionError,
    ShapeError,
    SizeError,
    XlshuffleError,
    deal,
    deal_hands,
    graphemes,
    groups,
    parse_mode,
    permutation,
    shuffle_grid,
    shuffle_text,
    shuffled,
    standard_deck,
)


def test_public_api_is_exactly_all() -> None:
    public = {
        name
        for name, value in vars(xlshuffle).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public == set(xlshuffle.__all__) - {"__version__"}


def test_every_error_leaf_is_a_value_error() -> None:
    for cls in (xlshuffle.SeedError, SizeError, OptionError, ShapeError, xlshuffle.WorkbookError):
        assert issubclass(cls, XlshuffleError)
        assert issubclass(cls, ValueError)


# ---------------------------------------------------------------- knuth


def test_shuffled_accepts_any_iterable_and_leaves_it_alone() -> None:
    items = (1, 2, 3, 4)
    assert sorted(shuffled(iter(items), seed=1)) == [1, 2, 3, 4]
    assert items == (1, 2, 3, 4)
    assert shuffled([], seed=1) == []
    assert shuffled(["only"], seed=1) == ["only"]


def test_shuffle_in_place_works_on_any_mutable_sequence() -> None:
    import array

    arr = array.array("i", range(10))
    xlshuffle.shuffle(arr, seed=42)
    assert list(arr) == [8, 9, 3, 4, 6, 5, 0, 1, 7, 2]


@pytest.mark.parametrize(
    ("k", "message"),
    [
        (6, "cannot draw 6 from 5 items: k must be at most 5"),
        (-1, "k must be 0 or more"),
        (2.5, "k must be a whole number"),
    ],
)
def test_deal_refuses_bad_k(k: object, message: str) -> None:
    with pytest.raises(SizeError, match=message):
        deal(range(5), k, seed=1)  # type: ignore[arg-type]


def test_deal_takes_a_whole_float_k() -> None:
    assert deal(range(52), 5.0, seed="xlshuffle") == [1, 41, 36, 20, 5]  # type: ignore[arg-type]


def test_deal_from_a_huge_range_is_cheap_and_consistent() -> None:
    drawn = deal(range(1, 10**12 + 1), 3, seed="lottery")
    assert len(set(drawn)) == 3
    assert all(1 <= x <= 10**12 for x in drawn)
    assert deal(range(1, 10**12 + 1), 2, seed="lottery") == drawn[:2]


def test_permutation_and_groups_refuse_bad_sizes() -> None:
    with pytest.raises(SizeError, match="n must be 0 or more, not -1"):
        permutation(-1)
    with pytest.raises(SizeError, match="k must be at least 1 group"):
        groups(5, 0)
    assert groups(0, 3, seed=1) == []


def test_groups_example() -> None:
    assert groups(10, 3, seed="teams") == groups(10, 3, seed="teams")
    assert sorted(groups(7, 7, seed=1)) == [1, 2, 3, 4, 5, 6, 7]


# ---------------------------------------------------------------- grids


@pytest.mark.parametrize(
    ("spelling", "mode"),
    [
        ("rows", "rows"),
        ("Rows", "rows"),
        ("row", "rows"),
        ("COLUMNS", "columns"),
        ("cols", "columns"),
        ("cells", "cells"),
        ("within rows", "within-rows"),
        ("Within_Rows", "within-rows"),
        (" within   columns ", "within-columns"),
        ("within-cols", "within-columns"),
    ],
)
def test_mode_spelling_is_forgiving(spelling: str, mode: str) -> None:
    assert parse_mode(spelling) == mode


@pytest.mark.parametrize("bad", ["diagonal", "", 3, None])
def test_unknown_mode_lists_the_modes(bad: object) -> None:
    with pytest.raises(OptionError, match="rows, columns, cells, within-rows, within-columns"):
        parse_mode(bad)


def test_ragged_grid_names_the_row() -> None:
    with pytest.raises(ShapeError, match="row 3 has 1 cells but row 1 has 2"):
        shuffle_grid([[1, 2], [3, 4], [5]], seed=1)


def test_empty_grid_and_single_row() -> None:
    assert shuffle_grid([], seed=1) == []
    assert shuffle_grid([[1, 2, 3]], seed=1) == [[1, 2, 3]]


def test_columns_mode_example() -> None:
    grid = [["a", "b", "c"], [1, 2, 3]]
    order = permutation(3, seed=7)
    assert shuffle_grid(grid, by="columns", seed=7) == [[row[c] for c in order] for row in grid]


def test_cells_mode_is_one_shuffle_of_the_flattened_grid() -> None:
    grid = [[1, 2, 3], [4, 5, 6]]
    flat = shuffled([1, 2, 3, 4, 5, 6], seed=9)
    assert shuffle_grid(grid, by="cells", seed=9) == [flat[:3], flat[3:]]


def test_grid_cells_are_moved_not_changed() -> None:
    import datetime as dt

    grid = [[None, 1.5, "x"], [True, dt.date(2026, 1, 1), "#N/A"]]
    out = shuffle_grid(grid, by="cells", seed=3)
    assert sorted(map(repr, (c for r in out for c in r))) == sorted(
        map(repr, (c for r in grid for c in r))
    )


# ---------------------------------------------------------------- text


@pytest.mark.parametrize(
    "cluster",
    [
        "e\u0301",
        "\U0001f1eb\U0001f1f7",
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        "\u1100\u1161\u11a8",
        "\U0001f44d\U0001f3fd",
        "\r\n",
    ],
)
def test_grapheme_clusters_stay_whole(cluster: str) -> None:
    text = f"ab{cluster}cd{cluster}"
    for seed in range(20):
        assert graphemes(shuffle_text(text, seed=seed)).count(cluster) == 2


def test_text_units() -> None:
    assert shuffle_text("the quick brown fox", seed=42, unit="word") == "the fox quick brown"
    assert shuffle_text("  two  words ", seed=1, unit="Words").split() in (
        ["two", "words"],
        ["words", "two"],
    )
    assert shuffle_text("", seed=1) == ""
    with pytest.raises(OptionError, match="use 'grapheme' or 'word'"):
        shuffle_text("abc", unit="sentence")
    with pytest.raises(OptionError, match="needs a str"):
        shuffle_text(123)  # type: ignore[arg-type]


# ---------------------------------------------------------------- cards


def test_standard_deck_order() -> None:
    deck = standard_deck()
    assert len(deck) == 52 == len(set(deck))
    assert deck[:13] == [
        "A♣",
        "2♣",
        "3♣",
        "4♣",
        "5♣",
        "6♣",
        "7♣",
        "8♣",
        "9♣",
        "10♣",
        "J♣",
        "Q♣",
        "K♣",
    ]
    assert [c[-1] for c in deck[::13]] == ["♣", "♦", "♥", "♠"]
    big = standard_deck(jokers=2, decks=2)
    assert len(big) == 108 and big[52:54] == ["Joker", "Joker"] and big[54] == "A♣"


def test_deal_hands_is_round_robin_from_the_deal() -> None:
    dealt = deal(standard_deck(), 12, seed="poker")
    hands = deal_hands(3, 4, seed="poker")
    assert hands == [dealt[h::4] for h in range(4)]
    assert hands[0] == [dealt[0], dealt[4], dealt[8]]


def test_deal_hands_from_numbers_and_lists() -> None:
    assert deal_hands(5, 1, seed="xlshuffle", deck=52) == [[2, 42, 37, 21, 6]]
    assert deal_hands(2, 2, seed=1, deck=["a", "b", "c", "d"])[0][0] in "abcd"


def test_deal_hands_says_how_to_fix_a_short_deck() -> None:
    with pytest.raises(SizeError, match=r"needs 55 cards and the deck has 52.*more decks"):
        deal_hands(5, 11, seed=1)
    assert len(deal_hands(5, 11, seed=1, decks=2)) == 11
    with pytest.raises(SizeError, match="hands must be at least 1"):
        deal_hands(5, 0)
