"""The worksheet functions through xlwings' own Office.js custom-function machinery.

The root conftest sets XLWINGS_ON_SERVER before xlwings is imported, so ``@xw.func`` is
the real decorator of xlwings Server and Lite, and :func:`call` sends the same JSON body
Excel's Office.js runtime POSTs. Expected values come from the core functions and the
draw protocol, never from the Excel layer itself.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import xlwings as xw
from hypothesis import given, settings
from hypothesis import strategies as st
from xlwings.server import custom_functions_meta

from excel_calls import DIV0_IN, DIV0_OUT, NA_IN, NA_OUT, VECTOR_42, call, cell, column
from xlshuffle import (
    GRID_MODES,
    deal,
    deal_hands,
    excel_serial,
    groups,
    shuffle_grid,
    shuffle_text,
    shuffled,
    standard_deck,
)
from xlshuffle import excel as udfs

NAMES = (
    "SHUFFLE",
    "SHUFFLESTR",
    "DEAL",
    "SAMPLE",
    "SAMPLEBY",
    "AUDITSAMPLE",
    "GROUPS",
    "ORDERS",
    "ALLOCATE",
    "TICKET",
    "SAMPLESIZE",
    "UPPERLIMIT",
)


def flat(rows: list[list[Any]]) -> list[Any]:
    return [v for row in rows for v in row]


def rounds(hands: list[list[Any]]) -> list[list[Any]]:
    """A deal laid out as DEAL spills it: one column per hand, one row per round."""
    return [list(r) for r in zip(*hands, strict=True)]


def as_excel(rows: list[list[Any]]) -> list[list[Any]]:
    """What Excel receives for these Python values: blanks as "", error texts as errors."""
    errors = {"#DIV/0!": DIV0_OUT, "#N/A": NA_OUT}
    return [["" if v is None else errors.get(v, v) for v in row] for row in rows]


# --------------------------------------------------------------------------- registration


@pytest.fixture(scope="module")
def meta() -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in custom_functions_meta(udfs)["functions"]}


def test_registers_exactly_the_worksheet_functions(meta: dict[str, dict[str, Any]]) -> None:
    assert sorted(meta) == sorted(NAMES)
    assert [f.__name__ for f in udfs.FUNCTIONS] == list(NAMES)


@pytest.mark.parametrize(
    ("name", "params", "optional"),
    [
        ("SHUFFLE", ["data", "seed", "by", "header"], [False, True, True, True]),
        ("SHUFFLESTR", ["text", "seed", "unit"], [False, True, True]),
        ("DEAL", ["cards", "hands", "seed", "deck"], [False, True, True, True]),
        (
            "SAMPLE",
            ["data", "k", "seed", "weights", "reserves", "exclude", "ids", "method"],
            [False, False, True, True, True, True, True, True],
        ),
        (
            "SAMPLEBY",
            ["data", "k", "strata", "seed", "weights", "reserves"],
            [False, False, False, True, True, True],
        ),
        (
            "AUDITSAMPLE",
            ["data", "k", "seed", "method", "amounts", "top_stratum"],
            [False, False, True, True, True, True],
        ),
        ("GROUPS", ["data", "k", "seed", "balance"], [False, False, True, True]),
        (
            "ORDERS",
            ["items", "ids", "seed", "k", "balanced"],
            [False, False, True, True, True],
        ),
        (
            "ALLOCATE",
            ["arms", "n", "seed", "ratio", "block_sizes", "strata"],
            [False, False, True, True, True, True],
        ),
        ("TICKET", ["ids", "seed", "number"], [False, False, True]),
        (
            "SAMPLESIZE",
            ["confidence", "tolerable", "expected", "population", "model"],
            [False, False, True, True, True],
        ),
        (
            "UPPERLIMIT",
            ["sample_size", "errors", "confidence", "population", "model"],
            [False, False, False, True, True],
        ),
    ],
)
def test_parameters_and_optional_arguments(
    meta: dict[str, dict[str, Any]], name: str, params: list[str], optional: list[bool]
) -> None:
    got = meta[name]["parameters"]
    assert [p["name"] for p in got] == params
    assert [p.get("optional", False) for p in got] == optional
    assert not any(p.get("repeating") for p in got)


@pytest.mark.parametrize("name", NAMES)
def test_not_volatile_and_spills_a_matrix(meta: dict[str, dict[str, Any]], name: str) -> None:
    assert "volatile" not in meta[name]["options"]
    assert "stream" not in meta[name]["options"]
    assert meta[name]["result"] == {"dimensionality": "matrix", "type": "any"}


@pytest.mark.parametrize("name", NAMES)
def test_descriptions_are_one_sentence_and_every_argument_is_described(
    meta: dict[str, dict[str, Any]], name: str
) -> None:
    description = meta[name]["description"]
    assert "\n" not in description
    assert description.endswith(".")
    assert description.count(". ") == 0  # one sentence
    assert len(description) <= 255  # what the Windows add-in keeps
    for param in meta[name]["parameters"]:
        assert not param["description"].startswith("Positional argument")
        assert len(param["description"]) <= 255
        if param.get("optional"):
            assert param["description"].startswith("Optional.")


# --------------------------------------------------------------------------- SHUFFLE


def test_shuffle_column_matches_the_protocol_vector() -> None:
    assert call("SHUFFLE", column(list(range(1, 11))), cell(42), None, None) == column(VECTOR_42)


@pytest.mark.parametrize("seed", [42, 42.0, "42"])
def test_seed_cells_are_normalised_like_the_protocol(seed: object) -> None:
    assert call("SHUFFLE", column(list(range(1, 11))), cell(seed), None, None) == column(VECTOR_42)


def test_shuffle_row_keeps_its_orientation() -> None:
    assert call("SHUFFLE", [list(range(1, 11))], cell(42), None, None) == [VECTOR_42]


def test_shuffle_single_cell_and_single_empty_cell() -> None:
    assert call("SHUFFLE", cell(5), cell(42), None, None) == [[5]]
    assert call("SHUFFLE", cell(""), cell(42), None, None) == [[""]]
    assert call("SHUFFLE", None, cell(42), None, None) == [[""]]


grids = st.integers(1, 7).flatmap(
    lambda width: st.lists(
        st.lists(st.integers(-5, 50) | st.text(max_size=3), min_size=width, max_size=width),
        min_size=1,
        max_size=12,
    )
)
# A text seed that reads like an error code ("#SPILL!") is refused as an error cell would be.
seeds = st.integers(0, 10**6) | st.text(min_size=1, max_size=8).filter(
    lambda s: s.strip() and not s.strip().startswith("#")
)


@settings(max_examples=60, deadline=None)
@given(rows=grids, seed=seeds, mode=st.sampled_from(GRID_MODES), header=st.booleans())
def test_shuffle_equals_the_core_in_every_mode(
    rows: list[list[Any]], seed: object, mode: str, header: bool
) -> None:
    expected = shuffle_grid(rows, by=mode, header=header, seed=seed)
    assert call("SHUFFLE", rows, cell(seed), cell(mode), cell(header)) == as_excel(expected)


@pytest.mark.parametrize(
    ("spelling", "mode"), [("Within Rows", "within-rows"), (" COLUMNS ", "columns")]
)
def test_by_is_forgiving(spelling: str, mode: str) -> None:
    rows = [[r * 10 + c for c in range(4)] for r in range(5)]
    expected = shuffle_grid(rows, by=mode, seed="by")
    assert call("SHUFFLE", rows, cell("by"), cell(spelling), None) == expected


def test_header_keeps_the_first_row() -> None:
    rows = [["name", "score"]] + [[f"p{i}", i] for i in range(8)]
    got = call("SHUFFLE", rows, cell(7), None, cell(True))
    assert got[0] == ["name", "score"]
    assert got == shuffle_grid(rows, header=True, seed=7)


def test_blanks_errors_and_dates_move_with_their_cells() -> None:
    jan1 = float(excel_serial(dt.date(2026, 1, 1)))  # Office.js sends date cells as serials
    sent = column([1, "", DIV0_IN, jan1, "text", True, NA_IN, 2.5])
    as_python = [1, None, "#DIV/0!", jan1, "text", True, "#N/A", 2.5]
    got = call("SHUFFLE", sent, cell("cells"), None, None)
    assert got == as_excel(column(shuffled(as_python, seed="cells")))
    assert DIV0_OUT in flat(got)
    assert NA_OUT in flat(got)
    assert "" in flat(got)
    assert jan1 in flat(got)


def test_a_date_seed_is_its_serial_number() -> None:
    data = column(list(range(1, 11)))
    by_date = call("SHUFFLE", data, cell(46023.0), None, None)  # a cell showing 1/1/2026
    assert flat(by_date) == shuffled(range(1, 11), seed=dt.date(2026, 1, 1))
    assert by_date == call("SHUFFLE", data, cell("46023"), None, None)


def test_without_a_seed_each_call_draws_afresh() -> None:
    data = column(list(range(30)))
    first = call("SHUFFLE", data, None, None, None)
    second = call("SHUFFLE", data, cell(""), None, None)
    assert sorted(flat(first)) == sorted(flat(second)) == list(range(30))
    assert first != second  # equal with probability 2 / 30!


# --------------------------------------------------------------------------- SAMPLE


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 15), data=st.data(), seed=seeds)
def test_sample_is_the_first_k_rows_of_shuffle(n: int, data: st.DataObject, seed: object) -> None:
    k = data.draw(st.integers(1, n))
    rows = [[f"r{i}", i] for i in range(n)]
    full = call("SHUFFLE", rows, cell(seed), None, None)
    assert call("SAMPLE", rows, cell(k), cell(seed)) == full[:k]
    assert call("SAMPLE", rows, cell(k), cell(seed)) == deal(rows, k, seed=seed)


def test_sample_of_a_row_draws_its_cells() -> None:
    assert call("SAMPLE", [list(range(1, 11))], cell(3), cell(42)) == [VECTOR_42[:3]]


# --------------------------------------------------------------------------- DEAL


@pytest.mark.parametrize(("cards", "hands", "seed"), [(5, 4, "poker night"), (13, 4, 7), (1, 1, 0)])
def test_deal_is_the_core_round_robin_one_column_per_hand(
    cards: int, hands: int, seed: Any
) -> None:
    expected = deal_hands(cards, hands, seed=seed)
    got = call("DEAL", cell(cards), cell(hands), cell(seed), None)
    assert got == rounds(expected)
    assert len(got) == cards
    assert all(len(r) == hands for r in got)
    # reading row by row gives the dealing order: the prefix of the shuffled deck
    assert flat(got) == shuffled(standard_deck(), seed=seed)[: cards * hands]


def test_deal_hands_defaults_to_one() -> None:
    assert call("DEAL", cell(5), None, cell("x"), None) == column(deal_hands(5, seed="x")[0])


def test_deal_from_numbered_balls_and_from_a_range() -> None:
    balls = call("DEAL", cell(6), cell(1), cell(2026), cell(49))
    assert flat(balls) == deal(range(1, 50), 6, seed=2026)
    names = [["Ann", "Bob"], ["Cy", ""], ["Di", "Ed"]]
    got = call("DEAL", cell(2), cell(2), cell("names"), names)
    deck = ["Ann", "Bob", "Cy", None, "Di", "Ed"]  # read row by row; the blank is a card
    assert got == as_excel(rounds(deal_hands(2, 2, seed="names", deck=deck)))


# --------------------------------------------------------------------------- GROUPS


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), k=st.integers(1, 8), seed=seeds)
def test_groups_equals_the_core_and_sizes_differ_by_at_most_one(
    n: int, k: int, seed: object
) -> None:
    got = call("GROUPS", column([f"p{i}" for i in range(n)]), cell(k), cell(seed))
    assert got == column(groups(n, k, seed=seed))
    sizes = [flat(got).count(g) for g in range(1, k + 1)]
    assert max(sizes) - min(sizes) <= 1


def test_groups_of_a_row_is_a_row() -> None:
    assert call("GROUPS", [list("abcdefghij")], cell(3), cell(42)) == [groups(10, 3, seed=42)]


# --------------------------------------------------------------------------- SHUFFLESTR


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("ABCDEFGHIJ", None),
        ("Zoe\u0308 \U0001f1e9\U0001f1ea \U0001f468\u200d\U0001f469\u200d\U0001f467", "letters"),
        ("the quick brown  fox", "words"),
    ],
)
def test_shufflestr_equals_the_core(text: str, unit: str | None) -> None:
    core_unit = "word" if unit == "words" else "grapheme"
    expected = shuffle_text(text, seed="jumble", unit=core_unit)
    got = call("SHUFFLESTR", cell(text), cell("jumble"), None if unit is None else cell(unit))
    assert got == [[expected]]


def test_shufflestr_reads_a_number_as_excel_shows_it() -> None:
    assert call("SHUFFLESTR", cell(12345.0), cell(1), None) == [[shuffle_text("12345", seed=1)]]
    assert call("SHUFFLESTR", None, cell(1), None) == [[""]]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("SAMPLE", [column([1, 2, 3]), cell(4), cell(1)], "k must be at most 3"),
        ("SAMPLE", [column([1, 2, 3]), cell(0), cell(1)], "k must be 1 or more"),
        ("SAMPLE", [column([1, 2, 3]), cell("two"), cell(1)], "k must be a whole number"),
        ("SAMPLE", [column([1, 2, 3]), cell(1.5), cell(1)], "k must be a whole number"),
        ("GROUPS", [column([1, 2, 3]), cell(True), cell(1)], "k must be a whole number"),
        ("DEAL", [cell(14), cell(4), cell(1), None], "that needs 56 cards and the deck has 52"),
        ("DEAL", [cell(3), cell(2), cell(1), cell(5)], "the deck has 5"),
        ("SHUFFLE", [column([1, 2]), cell(1), cell("diagonal"), None], "unknown mode 'diagonal'"),
        ("SHUFFLE", [column([1, 2]), cell(True), None, None], "a seed cannot be TRUE"),
        (
            "SHUFFLE",
            [column([1, 2]), cell(NA_IN), None, None],
            "the seed cell shows the error #N/A",
        ),
        ("SHUFFLE", [column([1, 2]), [[1, 2]], None, None], "the seed must be one cell"),
        ("SHUFFLE", [column([1, 2]), cell(1), None, cell("yes")], "header must be TRUE or FALSE"),
        ("SHUFFLESTR", [cell("abc"), cell(1), cell("syllables")], "unknown unit 'syllables'"),
    ],
)
def test_bad_input_is_a_one_line_xlwings_error(name: str, args: list[Any], message: str) -> None:
    with pytest.raises(xw.XlwingsError) as info:
        call(name, *args)
    text = str(info.value)
    assert text.startswith(f"{name}: ")
    assert message in text
    assert "\n" not in text


def test_bad_input_is_not_retried_by_xlwings_server() -> None:
    # xlwings Server answers a plain exception with HTTP 500 (and the client retries it)
    # but an XlwingsError with HTTP 400 and the message: the class is what matters.
    with pytest.raises(xw.XlwingsError) as info:
        call("SAMPLE", column([1]), cell(2), None)
    assert type(info.value) is xw.XlwingsError


# --------------------------------------------------------------------------- plain Python


def test_direct_calls_keep_python_values() -> None:
    when = dt.datetime(2026, 3, 14, 15, 9)
    rows = [[when], [None], [dt.date(2026, 1, 1)], ["x"]]
    got = udfs.SHUFFLE(rows, "direct")
    assert got == shuffle_grid(rows, seed="direct")
    assert udfs.SAMPLE(rows, 2, "direct") == got[:2]
    six = [1, 2, 3, 4, 5, 6]
    assert udfs.DEAL(3, 2, "direct", [six]) == rounds(deal_hands(3, 2, seed="direct", deck=six))
    assert udfs.GROUPS(rows, 2, "direct") == column(groups(4, 2, seed="direct"))
    assert udfs.SHUFFLESTR("abc", "direct") == shuffle_text("abc", seed="direct")


def test_direct_call_of_a_flat_list_is_one_row() -> None:
    assert udfs.SHUFFLE(list(range(1, 11)), 42) == [VECTOR_42]
