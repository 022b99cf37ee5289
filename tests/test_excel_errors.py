"""Bad input to the worksheet functions: always a short, named Excel error, never a crash.

Every call goes through xlwings' own custom-function machinery (:func:`excel_calls.call`),
so the argument conversion is the one Excel gets. A mistake must come back as
:class:`xlwings.XlwingsError` (Excel shows ``#VALUE!`` with its message), in bounded
time; any other exception would be an HTTP 500 that xlwings Server retries and shows
as "An error occurred".
"""

from __future__ import annotations

import json
import time
import tracemalloc
from typing import Any

import pytest
import xlwings as xw
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from excel_calls import DIV0_IN, NA_IN, call, cell, column, refusal
from xlshuffle import excel as udfs
from xlshuffle import functions

from strategies import office_js_arguments, python_arguments

PARAMETERS = {
    "SHUFFLE": 4,
    "SHUFFLESTR": 3,
    "DEAL": 4,
    "SAMPLE": 8,
    "SAMPLEBY": 6,
    "AUDITSAMPLE": 6,
    "GROUPS": 3,
    "ORDERS": 5,
    "ALLOCATE": 5,
    "TICKET": 3,
    "SAMPLESIZE": 5,
    "UPPERLIMIT": 5,
}
VALUE_IN = {"type": "Error", "basicValue": "#VALUE!", "errorType": "Value"}
SURROGATE = "\ud800"


# --------------------------------------------------------------------------- error cells


@pytest.mark.parametrize("error", [NA_IN, DIV0_IN, VALUE_IN], ids=["NA", "DIV0", "VALUE"])
@pytest.mark.parametrize(
    ("name", "position", "argument"),
    [
        ("SHUFFLE", 2, "by"),
        ("SHUFFLE", 3, "header"),
        ("SHUFFLESTR", 0, "text"),
        ("SHUFFLESTR", 2, "unit"),
        ("DEAL", 0, "cards"),
        ("DEAL", 1, "hands"),
        ("DEAL", 3, "deck"),
        ("SAMPLE", 1, "k"),
        ("GROUPS", 1, "k"),
    ],
)
def test_an_error_cell_is_never_taken_for_an_omitted_argument(
    name: str, position: int, argument: str, error: dict[str, str]
) -> None:
    valid = {
        "SHUFFLE": [column([1, 2, 3]), cell(1), cell("rows"), cell(False)],
        "SHUFFLESTR": [cell("abc"), cell(1), cell("letters")],
        "DEAL": [cell(2), cell(2), cell(1), cell(52)],
        "SAMPLE": [column([1, 2, 3]), cell(2), cell(1)],
        "GROUPS": [column([1, 2, 3]), cell(2), cell(1)],
    }[name]
    call(name, *valid)  # the same call is fine without the error
    args = list(valid)
    args[position] = cell(error)
    text = refusal(name, *args)
    assert f"{argument} shows the error {error['basicValue']}" in text


@pytest.mark.parametrize("name", ["SHUFFLE", "SHUFFLESTR", "DEAL", "SAMPLE", "GROUPS"])
def test_an_error_cell_as_the_seed_is_named(name: str) -> None:
    args: list[Any] = {
        "SHUFFLE": [column([1, 2]), None, None, None],
        "SHUFFLESTR": [cell("ab"), None, None],
        "DEAL": [cell(1), None, None, None],
        "SAMPLE": [column([1, 2]), cell(1), None],
        "GROUPS": [column([1, 2]), cell(1), None],
    }[name]
    args[1 if name == "SHUFFLE" or name == "SHUFFLESTR" else 2] = cell(DIV0_IN)
    assert "the seed cell shows the error #DIV/0!" in refusal(name, *args)


def test_error_cells_inside_a_data_range_still_move_with_their_cell() -> None:
    got = call("SAMPLE", column([1, NA_IN, 3]), cell(3), cell("x"))
    assert {"type": "Error", "errorType": "NotAvailable"} in [r[0] for r in got]


# --------------------------------------------------------------------------- surrogates


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        (
            "SHUFFLE",
            [column(["a", "b" + SURROGATE]), cell(1), None, None],
            "data: the cell in row 2, column 1 holds a broken character "
            "(lone surrogate U+D800) at position 2",
        ),
        (
            "SHUFFLE",
            [column([1, 2]), cell("x" + SURROGATE), None, None],
            "the seed holds a broken character",
        ),
        ("SHUFFLE", [column([1, 2]), cell(1), cell(SURROGATE), None], "unknown mode '\\ud800'"),
        (
            "SHUFFLESTR",
            [cell(SURROGATE + "ab"), cell(1), None],
            "text holds a broken character (lone surrogate U+D800) at position 1",
        ),
        ("SHUFFLESTR", [cell("ab"), cell("\udfff"), None], "lone surrogate U+DFFF"),
        ("SHUFFLESTR", [cell("ab"), cell(1), cell(SURROGATE)], "unknown unit '\\ud800'"),
        ("DEAL", [cell(1), None, cell(1), [["A", SURROGATE]]], "deck: the cell in row 1, column 2"),
        ("DEAL", [cell(SURROGATE), None, None, None], "cards must be a whole number"),
        ("SAMPLE", [column(["a", SURROGATE]), cell(1), cell(1)], "data: the cell in row 2"),
        ("GROUPS", [column(["a", SURROGATE]), cell(1), cell(1)], "data: the cell in row 2"),
        ("GROUPS", [column(["a", "b"]), cell(SURROGATE), cell(1)], "k must be a whole number"),
    ],
)
def test_lone_surrogates_are_refused_by_name(name: str, args: list[Any], message: str) -> None:
    assert message in refusal(name, *args)


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        (
            "DEAL",
            [cell(10**15), None, None, None],
            "cards must be at most 1,048,576 (the rows of a sheet)",
        ),
        (
            "DEAL",
            [cell(1), cell(1e15), None, cell(1e15)],
            "hands must be at most 16,384 (the columns of a sheet)",
        ),
        (
            "DEAL",
            [cell(1000), cell(2000), None, cell(10**9)],
            "that is 2,000,000 cards and DEAL deals at most 1,048,576",
        ),
        (
            "DEAL",
            [cell(1), None, None, cell(1e30)],
            "deck must be at most 9,007,199,254,740,992, not 1e+30",
        ),
        ("DEAL", [cell(1), None, None, cell(2.0**64)], "deck must be at most"),
        ("DEAL", [cell(-1e308), None, None, None], "cards must be 1 or more, not -1e+308"),
        (
            "DEAL",
            [cell(2.5), None, None, None],
            "cards must be a whole number of 1 or more, not 2.5",
        ),
        (
            "DEAL",
            [cell(1), cell(True), None, None],
            "hands must be a whole number of 1 or more, not TRUE",
        ),
        ("DEAL", [cell(1), cell(-2), None, None], "hands must be 1 or more, not -2"),
        (
            "DEAL",
            [cell(1), None, None, cell(False)],
            "deck must be a whole number of 1 or more, not FALSE",
        ),
        (
            "DEAL",
            [cell(1), None, None, cell(float("nan"))],
            "deck: the cell in row 1, column 1 is nan",
        ),
        (
            "SAMPLE",
            [column([1, 2]), cell(1e308), None],
            "k must be at most 9,007,199,254,740,992, not 1e+308",
        ),
        ("SAMPLE", [column([1, 2]), cell(10**30), None], "k must be at most 9,007,199,254,740,992"),
        ("SAMPLE", [column([1, 2]), cell(10**5000), None], "not a number of about 5001 digits"),
        ("SAMPLE", [column([1, 2]), cell(-1), None], "k must be 1 or more, not -1"),
        (
            "SAMPLE",
            [column([1, 2]), cell(float("inf")), None],
            "k must be a whole number of 1 or more, not inf",
        ),
        (
            "SAMPLE",
            [column([1, 2]), cell(float("nan")), None],
            "k must be a whole number of 1 or more, not nan",
        ),
        ("SAMPLE", [column([1, 2]), [[1, 2]], None], "k must be one cell, not a range"),
        ("GROUPS", [column([1, 2]), cell(1e15 + 0.5), None], "k must be a whole number"),
        (
            "GROUPS",
            [column([1, 2]), cell(False), None],
            "k must be a whole number of 1 or more, not FALSE",
        ),
        (
            "SHUFFLE",
            [column([1, 2]), cell(10**5000), None, None],
            "a seed number must have at most 4000 digits",
        ),
        ("SHUFFLE", [column([1, 2]), cell(float("nan")), None, None], "a seed cannot be nan"),
        ("SHUFFLE", [column([1, 2]), cell(float("-inf")), None, None], "a seed cannot be -inf"),
        (
            "SHUFFLE",
            [column([1, float("nan")]), cell(1), None, None],
            "data: the cell in row 2, column 1 is nan",
        ),
        ("SHUFFLE", [column([1, 10**400]), cell(1), None, None], "more than Excel can show"),
        ("SHUFFLE", [column([1, 2]), cell(1), cell(3), None], "by must be one of rows"),
        (
            "SHUFFLE",
            [column([1, 2]), cell(1), None, cell(2)],
            "header must be TRUE or FALSE, not 2",
        ),
        (
            "SHUFFLE",
            [column([1, 2]), cell(1), None, cell(float("nan"))],
            "header must be TRUE or FALSE, not nan",
        ),
        (
            "SHUFFLESTR",
            [cell(float("inf")), cell(1), None],
            "text must be a text or a finite number, not inf",
        ),
        ("SHUFFLESTR", [cell(10**400), cell(1), None], "text must be a text or a finite number"),
        ("SHUFFLESTR", [[["a", "b"]], cell(1), None], "text must be one cell, not a range"),
        ("SHUFFLESTR", [cell("ab"), cell(1), cell(1)], "unit must be one of letters, words, not 1"),
    ],
)
def test_bad_numbers_are_refused_at_once(name: str, args: list[Any], message: str) -> None:
    assert message in refusal(name, *args)


def test_an_absurd_count_allocates_nothing() -> None:
    tracemalloc.start()
    try:
        for args in ([cell(1), cell(10**15), None, cell(10**15)], [cell(10**15), None, None, None]):
            with pytest.raises(xw.XlwingsError):
                call("DEAL", *args)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_the_largest_numbered_deck_deals_a_few_cards_at_once() -> None:
    started = time.perf_counter()
    got = call("DEAL", cell(6), cell(1), cell(2026), cell(2**53))
    assert time.perf_counter() - started < 1.0
    assert all(1 <= row[0] <= 2**53 for row in got)


# --------------------------------------------------------------------------- empty ranges


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("SAMPLE", [[], cell(1), None], "data is an empty range"),
        ("SAMPLE", [[[]], cell(1), None], "data is an empty range"),
        ("SAMPLE", [None, cell(1), None], "data has only empty cells"),
        ("SAMPLE", [column([None, "", None]), cell(1), None], "data has only empty cells"),
        ("GROUPS", [[[None, None]], cell(2), None], "data has only empty cells"),
        ("DEAL", [cell(1), None, None, [[None, None]]], "deck has only empty cells"),
        ("SHUFFLE", [[], cell(1), None, None], "data is an empty range"),
        ("SAMPLE", [column([1, 2]), None, None], "k is empty"),
        ("GROUPS", [column([1, 2]), cell(""), None], "k is empty"),
        ("DEAL", [None, None, None, None], "cards is empty"),
    ],
)
def test_empty_ranges_and_counts_are_named(name: str, args: list[Any], message: str) -> None:
    assert message in refusal(name, *args)


def test_shuffling_only_blanks_gives_blanks_back() -> None:
    # Deliberate: SHUFFLE keeps every cell, so blanks in are blanks out (a sheet being
    # filled in); the draws (SAMPLE, GROUPS, DEAL) have nothing to draw from and refuse.
    assert call("SHUFFLE", column([None, None]), cell(1), None, None) == [[""], [""]]
    assert call("SHUFFLESTR", None, cell(1), None) == [[""]]


def test_empty_optional_arguments_still_take_their_defaults() -> None:
    assert call("DEAL", cell(2), cell(""), cell(7), None) == call(
        "DEAL", cell(2), None, cell(7), None
    )
    shuffled = call("SHUFFLE", column([1, 2, 3]), cell(7), cell(""), cell(""))
    assert shuffled == call("SHUFFLE", column([1, 2, 3]), cell(7), None, None)


# --------------------------------------------------------------------------- any input

MAX_SECONDS = 2.0


def _check_outcome(name: str, attempt: Any) -> Any:
    """Run ``attempt``: a result, or an XlwingsError with a short one-line message."""
    started = time.perf_counter()
    try:
        result = attempt()
    except xw.XlwingsError as exc:
        result = exc
    assert time.perf_counter() - started < MAX_SECONDS
    if isinstance(result, xw.XlwingsError):
        text = str(result)
        assert type(result) is xw.XlwingsError
        assert text.startswith(f"{name}: ")
        assert "\n" not in text
        assert len(text) <= 300
        text.encode("utf-8")
    return result


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(PARAMETERS)), data=st.data())
def test_any_cells_give_a_result_or_a_one_line_excel_error(name: str, data: Any) -> None:
    args = [data.draw(office_js_arguments, label=f"arg {i}") for i in range(PARAMETERS[name])]
    result = _check_outcome(name, lambda: call(name, *args))
    if not isinstance(result, xw.XlwingsError):
        # What xlwings Server sends back: strict JSON (no NaN), encodable as UTF-8.
        json.dumps(result, allow_nan=False, ensure_ascii=False).encode("utf-8")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(PARAMETERS)), data=st.data())
def test_any_python_values_give_a_result_or_a_one_line_excel_error(name: str, data: Any) -> None:
    args = [data.draw(python_arguments, label=f"arg {i}") for i in range(PARAMETERS[name])]
    _check_outcome(name, lambda: getattr(udfs, name)(*args))


def test_the_functions_are_the_ones_the_property_test_calls() -> None:
    assert sorted(PARAMETERS) == sorted(f.__name__ for f in udfs.FUNCTIONS)


def test_a_bug_is_one_line_that_says_so_with_its_traceback_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An exception that is not a mistake (a bug in xlshuffle) must not become an HTTP 500
    that Office.js retries, nor a traceback in a cell; Python callers keep the cause."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise TypeError("unsupported operand type(s)\nsecond line")

    monkeypatch.setattr(functions, "deal", broken)  # where SAMPLE draws
    with pytest.raises(xw.XlwingsError) as info:
        udfs.SAMPLE([[1], [2], [3]], 2, 42)
    text = str(info.value)
    assert text.startswith("SAMPLE: internal error, please report it with the arguments: ")
    assert text.endswith("TypeError: unsupported operand type(s) second line")
    assert isinstance(info.value.__cause__, TypeError)
