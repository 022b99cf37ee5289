"""Hypothesis properties of the seeded functions: what must hold for every seed and input."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import xlshuffle
from xlshuffle import deal, groups, permutation, shuffle, shuffle_grid, shuffled

from strategies import grids, item_lists, seeds


@given(item_lists, seeds)
def test_shuffled_is_a_permutation(items: list[int], seed: object) -> None:
    assert Counter(shuffled(items, seed=seed)) == Counter(items)


@given(item_lists, seeds)
def test_same_seed_same_result(items: list[int], seed: object) -> None:
    assert shuffled(items, seed=seed) == shuffled(items, seed=seed)


@given(item_lists, seeds)
def test_in_place_shuffle_equals_shuffled(items: list[int], seed: object) -> None:
    work = list(items)
    shuffle(work, seed=seed)
    assert work == shuffled(items, seed=seed)


@given(item_lists, seeds, st.data())
def test_deal_is_the_prefix_of_the_shuffle(
    items: list[int], seed: object, data: st.DataObject
) -> None:
    k = data.draw(st.integers(min_value=0, max_value=len(items)))
    assert deal(items, k, seed=seed) == shuffled(items, seed=seed)[:k]


@given(st.integers(min_value=0, max_value=5000), seeds, st.data())
def test_sparse_deal_of_a_range_is_the_same_prefix(
    n: int, seed: object, data: st.DataObject
) -> None:
    k = data.draw(st.integers(min_value=0, max_value=min(n, 40)))
    assert deal(range(n), k, seed=seed) == permutation(n, seed=seed)[:k]


@given(st.integers(min_value=0, max_value=300), st.integers(min_value=1, max_value=20), seeds)
def test_groups_are_balanced_and_follow_the_shuffled_order(n: int, k: int, seed: object) -> None:
    g = groups(n, k, seed=seed)
    sizes = Counter(g)
    assert len(g) == n
    assert set(sizes) <= set(range(1, k + 1))
    if n:
        assert max(sizes.values()) - min(sizes.get(c, 0) for c in range(1, min(n, k) + 1)) <= 1
    perm = permutation(n, seed=seed)
    assert all(g[item] == p % k + 1 for p, item in enumerate(perm))


@given(grids(), seeds)
def test_rows_mode_moves_whole_rows(grid: list[list[int]], seed: object) -> None:
    out = shuffle_grid(grid, by="rows", seed=seed)
    assert Counter(map(tuple, out)) == Counter(map(tuple, grid))
    assert out == [list(r) for r in shuffled(grid, seed=seed)]


@given(grids(), seeds)
def test_columns_mode_moves_whole_columns(grid: list[list[int]], seed: object) -> None:
    out = shuffle_grid(grid, by="columns", seed=seed)
    columns = Counter(zip(*grid, strict=True))
    assert Counter(zip(*out, strict=True)) == columns


@given(grids(), seeds)
def test_cells_mode_keeps_the_shape_and_the_cells(grid: list[list[int]], seed: object) -> None:
    out = shuffle_grid(grid, by="cells", seed=seed)
    assert [len(r) for r in out] == [len(r) for r in grid]
    assert sorted(c for r in out for c in r) == sorted(c for r in grid for c in r)


@given(grids(), seeds)
def test_within_rows_keeps_each_row_its_own(grid: list[list[int]], seed: object) -> None:
    out = shuffle_grid(grid, by="within-rows", seed=seed)
    assert [sorted(r) for r in out] == [sorted(r) for r in grid]


@given(grids(), seeds)
def test_within_columns_keeps_each_column_its_own(grid: list[list[int]], seed: object) -> None:
    out = shuffle_grid(grid, by="within-columns", seed=seed)
    assert [sorted(c) for c in zip(*out, strict=True)] == [
        sorted(c) for c in zip(*grid, strict=True)
    ]


@given(grids(), seeds, st.sampled_from(xlshuffle.GRID_MODES))
def test_header_row_never_mixes_with_the_data(grid: list[list[int]], seed: object, by: str) -> None:
    out = shuffle_grid(grid, by=by, header=True, seed=seed)
    if by == "columns":  # labels travel with their columns
        assert Counter(zip(*out, strict=True)) == Counter(zip(*grid, strict=True))
    else:
        assert out[0] == grid[0]
        body = shuffle_grid(grid[1:], by=by, seed=seed)
        assert out[1:] == body


@given(st.text(max_size=40), seeds)
def test_text_shuffle_keeps_every_grapheme(text: str, seed: object) -> None:
    out = xlshuffle.shuffle_text(text, seed=seed)
    assert Counter(out) == Counter(text)  # not a code point gained or lost
    # Clusters keep their shape when read again, unless two of them fuse when they meet:
    # a lone combining mark after a control ('\x1f\u0308'), regional indicators, Hangul
    # jamo... Shuffling such a text necessarily makes new clusters (hypothesis found
    # '000\x1f\U00010376'); the promise is then only about the pieces that were shuffled.
    clusters = set(xlshuffle.graphemes(text))
    if all(xlshuffle.graphemes(a + b) == [a, b] for a in clusters for b in clusters):
        assert Counter(xlshuffle.graphemes(out)) == Counter(xlshuffle.graphemes(text))


def test_text_shuffle_with_fusing_clusters_keeps_its_pieces() -> None:
    text = "000\x1f\U00010376"  # the lone mark is a cluster of its own after the control
    pieces = xlshuffle.graphemes(text)
    out = xlshuffle.shuffle_text(text, seed="0")
    assert sorted(pieces) == sorted(["0", "0", "0", "\x1f", "\U00010376"])
    assert Counter(out) == Counter(text)


@given(st.text(alphabet=" \tab\u00e9c\n", max_size=40), seeds)
def test_word_shuffle_keeps_words_and_the_white_space_layout(text: str, seed: object) -> None:
    out = xlshuffle.shuffle_text(text, seed=seed, unit="word")
    assert Counter(out.split()) == Counter(text.split())
    assert re.findall(r"\s+", out) == re.findall(r"\s+", text)
    assert out[:1].isspace() == text[:1].isspace()
