"""Excel worksheet functions: SHUFFLE, SHUFFLESTR, DEAL, SAMPLE and GROUPS, through xlwings.

One module serves the three ways xlwings runs Python in Excel: the Windows add-in (classic
UDFs, "Import Functions"), xlwings Lite (Pyodide inside Excel) and xlwings Server. Each
function is a thin layer over the core: cells come in through :func:`_rows`, the core
draws (draw protocol v1, so the same seed gives the same result as the Python API and the
command line), and the result goes back as a list of rows that Excel spills.

Every argument is positional and the functions are not volatile: they recompute when
their inputs change, never because an unrelated cell changed. Without a seed they draw a
fresh one on every recomputation. A mistake (k larger than the rows, an unknown ``by``, a
seed that is TRUE) becomes :class:`xlwings.XlwingsError` in one place,
:func:`_excel_function`, which Excel shows as ``#VALUE!`` with the message.

The functions are plain Python as well; a range is a list of rows:

>>> from xlshuffle.excel import SHUFFLE, SHUFFLESTR, DEAL, SAMPLE, GROUPS
>>> column = [[n] for n in range(1, 11)]
>>> [row[0] for row in SHUFFLE(column, 42)]
[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
>>> SAMPLE(column, 3, 42)
[[9], [10], [4]]
>>> SHUFFLE([list(range(1, 11))], 42)  # a single row keeps its orientation
[[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]]
>>> DEAL(2, 3, "xlshuffle")
[['2♣', '3♠', 'J♥'], ['8♦', '6♣', '4♦']]
>>> [row[0] for row in GROUPS(column, 3, 42)]
[1, 2, 1, 3, 1, 3, 2, 3, 1, 2]
>>> SHUFFLESTR("the quick brown fox", 42, "words")
'the fox quick brown'
>>> SHUFFLE(column, 42, "diagonal")
Traceback (most recent call last):
...
xlwings.XlwingsError: SHUFFLE: unknown mode 'diagonal': use one of rows, columns, cells, ...
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar

import xlwings as xw

from ..draw.cards import deal_hands
from ..draw.errors import OptionError, SeedError, SizeError, XlshuffleError
from ..draw.grid import parse_mode, shuffle_grid
from ..draw.knuth import _check_count, deal, groups
from ..draw.text import shuffle_text

__all__ = ["CATEGORY", "DEAL", "FUNCTIONS", "GROUPS", "SAMPLE", "SHUFFLE", "SHUFFLESTR"]

#: The category the Windows add-in files the functions under in Excel's function wizard.
CATEGORY = "xlshuffle"

# What an error cell reads as with err_to_str. A seed cell showing one of these is a
# mistake upstream: drawing afresh instead would hide it.
_ERROR_TEXTS = frozenset(
    {
        "#NULL!",
        "#DIV/0!",
        "#VALUE!",
        "#REF!",
        "#NAME?",
        "#NUM!",
        "#N/A",
        "#GETTING_DATA",
        "#SPILL!",
        "#CALC!",
        "#FIELD!",
        "#BLOCKED!",
        "#CONNECT!",
        "#BUSY!",
        "#UNKNOWN!",
    }
)

_SEED_DOC = (
    "Optional. A number, text or date: the same seed gives the same result everywhere. "
    "Leave it empty to draw afresh whenever the inputs change."
)

P = ParamSpec("P")
R = TypeVar("R")
Rows = list[list[Any]]


# --------------------------------------------------------------------------- boundary


def _excel_function(func: Callable[P, R]) -> Callable[P, R]:
    """The one translation point from xlshuffle's errors to what Excel shows.

    An :class:`~xlshuffle.XlshuffleError` (a user mistake, with a message that says what
    to change) becomes :class:`xlwings.XlwingsError`: xlwings Server and Lite keep its
    message (Excel shows ``#VALUE!`` with the message on hover) and do not retry it, the
    Windows add-in shows the message in the cell. Anything else is a bug and propagates.
    """

    @functools.wraps(func)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except XlshuffleError as exc:
            raise xw.XlwingsError(f"{func.__name__}: {exc}") from None

    return call


def _rows(data: Any) -> Rows:
    """The cells of a range argument as a list of rows, cells untouched.

    xlwings hands a range over as a list of rows (``ndim=2``); a single empty cell
    arrives as ``None`` and a single value from Python as itself. A flat list from Python
    is one row, as xlwings writes a flat list.
    """
    if data is None or isinstance(data, str) or not isinstance(data, Sequence):
        return [[data]]
    if not data:
        raise SizeError("the range is empty: select at least one cell")
    if isinstance(data, list) and all(isinstance(row, list) for row in data):
        return data  # what xlwings passes: the core copies, so no copy here
    if all(isinstance(row, Sequence) and not isinstance(row, str) for row in data):
        return [list(row) for row in data]
    return [list(data)]


def _is_row(rows: Rows) -> bool:
    """Whether the range is a single row of several cells: its cells are the items."""
    return len(rows) == 1 and len(rows[0]) > 1


def _seed(seed: Any) -> Any:
    if isinstance(seed, str) and seed.strip().upper() in _ERROR_TEXTS:
        raise SeedError(
            f"the seed cell shows the error {seed.strip()}: fix that cell, "
            "or leave the seed empty to draw afresh"
        )
    if isinstance(seed, Sequence) and not isinstance(seed, str):
        raise SeedError("the seed must be one cell, not a range: point it at a single cell")
    return seed


def _count(name: str, value: Any, *, default: int | None = None) -> int:
    """A whole number of at least 1 from a cell (``1``, ``1.0``, or ``default`` if empty)."""
    if value is None or value == "":
        if default is None:
            raise SizeError(f"{name} is empty: give a whole number of 1 or more")
        return default
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SizeError(f"{name} must be a whole number of 1 or more, not {value!r}")
    n = _check_count(name, value)
    if n < 1:
        raise SizeError(f"{name} must be 1 or more, not {n}: the result would be empty")
    return n


def _flag(name: str, value: Any) -> bool:
    if value is None or value == "":
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Real) and value in (0, 1):
        return bool(value)
    raise OptionError(f"{name} must be TRUE or FALSE, not {value!r}")


def _text(value: Any) -> str:
    """The text of a cell as Excel shows it in General format (numbers without '.0')."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, numbers.Real):
        number = float(value)
        return str(int(number)) if number.is_integer() else repr(number)
    raise OptionError(f"text must be one cell with text or a number, not {value!r}")


# --------------------------------------------------------------------------- functions


@xw.func(category=CATEGORY)
@xw.arg(
    "data",
    ndim=2,
    err_to_str=True,
    doc="The cells to shuffle, any shape. Blanks, errors, dates and text move with their cell.",
)
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@xw.arg(
    "by",
    doc='Optional. What moves: "rows" (the default), "columns", "cells", "within rows" '
    'or "within columns". A single row shuffles its cells.',
)
@xw.arg("header", doc="Optional. TRUE keeps the first row (the labels) in place.")
@_excel_function
def SHUFFLE(data: Any, seed: Any = None, by: Any = None, header: Any = False) -> list[Any]:
    """Returns the cells in a fair random order, same shape; whole rows move by default."""
    rows = _rows(data)
    default = "columns" if _is_row(rows) else "rows"  # a row's cells are its columns
    mode = default if by is None or by == "" else parse_mode(by)
    return shuffle_grid(rows, by=mode, header=_flag("header", header), seed=_seed(seed))


@xw.func(category=CATEGORY)
@xw.arg("text", doc="The text to jumble: one cell.")
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@xw.arg(
    "unit",
    doc='Optional. "letters" (the default: accents and emoji stay whole) or "words" '
    "(spaces stay where they are).",
)
@_excel_function
def SHUFFLESTR(text: Any, seed: Any = None, unit: Any = None) -> str:
    """Returns the text with its letters, or its words, in a fair random order."""
    return shuffle_text(
        _text(text), seed=_seed(seed), unit="grapheme" if unit in (None, "") else unit
    )


@xw.func(category=CATEGORY)
@xw.arg("cards", doc="Cards to each hand: a whole number of 1 or more.")
@xw.arg("hands", doc="Optional. How many hands (players); 1 by default.")
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@xw.arg(
    "deck",
    ndim=2,
    err_to_str=True,
    doc="Optional. Empty for a standard 52-card deck, a number N for 1 to N, "
    "or a range whose values are the cards (read row by row).",
)
@_excel_function
def DEAL(cards: Any, hands: Any = 1, seed: Any = None, deck: Any = None) -> list[Any]:
    """Deals cards as at a table: one column per hand, one row per round."""
    pool: int | list[Any] | None = None
    if deck is not None:
        rows = _rows(deck)
        if len(rows) == 1 and len(rows[0]) == 1 and isinstance(rows[0][0], numbers.Real):
            pool = _count("deck", rows[0][0])
        else:
            pool = [cell for row in rows for cell in row]
    dealt = deal_hands(
        _count("cards", cards), _count("hands", hands, default=1), seed=_seed(seed), deck=pool
    )
    return [list(round_) for round_ in zip(*dealt, strict=True)]


@xw.func(category=CATEGORY)
@xw.arg(
    "data",
    ndim=2,
    err_to_str=True,
    doc="The rows to draw from (the cells, for a single row).",
)
@xw.arg("k", doc="How many rows to draw, without replacement: 1 up to the number of rows.")
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@_excel_function
def SAMPLE(data: Any, k: Any, seed: Any = None) -> list[Any]:
    """Draws k rows without replacement, in draw order: the first k rows of SHUFFLE."""
    rows = _rows(data)
    if _is_row(rows):
        return [deal(rows[0], _count("k", k), seed=_seed(seed))]
    return deal(rows, _count("k", k), seed=_seed(seed))


@xw.func(category=CATEGORY)
@xw.arg(
    "data",
    ndim=2,
    err_to_str=True,
    doc="The rows to split into groups (the cells, for a single row).",
)
@xw.arg("k", doc="How many groups: a whole number of 1 or more.")
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@_excel_function
def GROUPS(data: Any, k: Any, seed: Any = None) -> list[Any]:
    """Returns a group number 1 to k for each row, in the rows' order; sizes differ by 1 at most."""
    rows = _rows(data)
    if _is_row(rows):
        return [groups(len(rows[0]), _count("k", k), seed=_seed(seed))]
    return [[g] for g in groups(len(rows), _count("k", k), seed=_seed(seed))]


#: The worksheet functions, in the order the documentation lists them.
FUNCTIONS = (SHUFFLE, SHUFFLESTR, DEAL, SAMPLE, GROUPS)
