"""Excel worksheet functions: SHUFFLE, SHUFFLESTR, DEAL, SAMPLE and GROUPS, through xlwings.

One module serves the three ways xlwings runs Python in Excel: the Windows add-in (classic
UDFs, "Import Functions"), xlwings Lite (Pyodide inside Excel) and xlwings Server. Each
function is a thin layer over the core: each argument is read and checked by
:mod:`xlshuffle.excel._cells` (an error cell, a broken character, a count too large for a
sheet are refused there, by name, before anything is allocated), the core draws (draw
protocol v1, so the same seed gives the same result as the Python API and the command
line), and the result goes back as a list of rows that Excel spills.

Every argument is positional and the functions are not volatile. Without a seed they
draw a fresh one on every recomputation, and Excel recomputes them when their inputs
change, on Ctrl+Alt+F9 and, in Office.js (xlwings Lite and Server), also when rows or
columns are inserted or deleted and when the workbook is reopened in Excel on the web
(docs/excel.md, "When formulas recompute"). :mod:`xlshuffle.excel.lock` draws once and
writes plain values instead. A mistake (k larger than the rows, an unknown ``by``, a
seed that is TRUE) is turned into one line in one place, :func:`_excel_function`:
:class:`xlwings.XlwingsError` in Office.js (Excel shows ``#VALUE!`` with the message),
the text ``"#VALUE! NAME: ..."`` under the classic Windows add-in, which would
otherwise show a traceback in the cell.

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
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, ParamSpec, TypeVar, cast

import xlwings as xw

from ..draw.cards import deal_hands
from ..draw.errors import SizeError, XlshuffleError
from ..draw.grid import parse_mode, shuffle_grid
from ..draw.knuth import deal, groups
from ..draw.text import shuffle_text
from . import _cells
from ._cells import Rows

__all__ = ["CATEGORY", "DEAL", "FUNCTIONS", "GROUPS", "SAMPLE", "SHUFFLE", "SHUFFLESTR"]

#: The category the Windows add-in files the functions under in Excel's function wizard.
CATEGORY = "xlshuffle"

_SEED_DOC = (
    "Optional. A number, text or date: the same seed gives the same result everywhere. "
    "Leave it empty to draw afresh whenever the inputs change."
)

P = ParamSpec("P")
R = TypeVar("R")


# --------------------------------------------------------------------------- boundary


def _excel_function(func: Callable[P, R]) -> Callable[P, R]:
    """The one translation point from xlshuffle's errors to what Excel shows.

    A mistake (an :class:`~xlshuffle.XlshuffleError`, whose message says what to change)
    becomes one line, ``"NAME: what to change"``: at most 300 characters, encodable as
    UTF-8. How it reaches the cell depends on the runtime:

    - xlwings Server and Lite (Office.js): raised as :class:`xlwings.XlwingsError`,
      which they keep (Excel shows ``#VALUE!`` with the message on hover) and do not
      retry.
    - The classic Windows add-in shows the *text* of any exception in the cell, and for
      an ordinary exception that text is a whole Python traceback (xlwings #1108). So
      there the message is returned, as the text ``"#VALUE! NAME: what to change"``.

    A missing package (``ImportError``, whose message names it) gets the same line.
    Anything else is a bug in xlshuffle; it gets the same one line, saying so, rather
    than a traceback or an HTTP 500 that Office.js retries. Its traceback stays
    attached (``__cause__``) for whoever calls the function from Python.
    """
    name = func.__name__

    @functools.wraps(func)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            mistake = isinstance(exc, XlshuffleError)
            text = _cells.report(name, exc)
            if _classic_add_in():
                return cast(R, f"#VALUE! {text}")
            raise xw.XlwingsError(text) from (None if mistake else exc)

    return call


#: The modules of xlwings' classic (COM) add-in that call a worksheet function.
_CLASSIC_CALLERS = frozenset({"xlwings.udfs", "xlwings.com_server"})


def _classic_add_in() -> bool:
    """Whether xlwings' classic Windows add-in made this call (its ``call_udf`` is on the
    stack). Only asked on the way out with an error, so it costs a call nothing."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") in _CLASSIC_CALLERS:
            return True
        frame = frame.f_back
    return False


def _is_row(rows: Rows) -> bool:
    """Whether the range is a single row of several cells: its cells are the items."""
    return len(rows) == 1 and len(rows[0]) > 1


# --------------------------------------------------------------------------- functions
# Every argument takes err_to_str: an error cell arrives as its text ("#N/A") and is
# refused by name, where without it xlwings passes None and an optional argument would
# silently take its default.


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
    err_to_str=True,
    doc='Optional. What moves: "rows" (the default), "columns", "cells", "within rows" '
    'or "within columns". A single row shuffles its cells.',
)
@xw.arg("header", err_to_str=True, doc="Optional. TRUE keeps the first row (the labels) in place.")
@_excel_function
def SHUFFLE(data: Any, seed: Any = None, by: Any = None, header: Any = False) -> list[Any]:
    """Returns the cells in a fair random order, same shape; whole rows move by default."""
    rows = _cells.rows("data", data)
    by = _cells.option("by", by, "rows, columns, cells, within rows, within columns")
    default = "columns" if _is_row(rows) else "rows"  # a row's cells are its columns
    mode = default if by is None else parse_mode(by)
    header = _cells.flag("header", header)
    return shuffle_grid(rows, by=mode, header=header, seed=_cells.seed(seed))


@xw.func(category=CATEGORY)
@xw.arg("text", err_to_str=True, doc="The text to jumble: one cell.")
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@xw.arg(
    "unit",
    err_to_str=True,
    doc='Optional. "letters" (the default: accents and emoji stay whole) or "words" '
    "(spaces stay where they are).",
)
@_excel_function
def SHUFFLESTR(text: Any, seed: Any = None, unit: Any = None) -> str:
    """Returns the text with its letters, or its words, in a fair random order."""
    unit = _cells.option("unit", unit, "letters, words")
    return shuffle_text(
        _cells.text("text", text),
        seed=_cells.seed(seed),
        unit="grapheme" if unit is None else unit,
    )


@xw.func(category=CATEGORY)
@xw.arg("cards", err_to_str=True, doc="Cards to each hand: a whole number of 1 or more.")
@xw.arg("hands", err_to_str=True, doc="Optional. How many hands (players); 1 by default.")
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
    n_cards = _cells.count("cards", cards, most=_cells.SHEET_ROWS, why=" (the rows of a sheet)")
    n_hands = _cells.count(
        "hands", hands, default=1, most=_cells.SHEET_COLUMNS, why=" (the columns of a sheet)"
    )
    if n_cards * n_hands > _cells.MAX_DEALT:
        raise SizeError(
            f"cannot deal {n_cards:,} cards to {n_hands:,} hands: that is "
            f"{n_cards * n_hands:,} cards and DEAL deals at most {_cells.MAX_DEALT:,}; "
            "deal fewer cards or hands"
        )
    dealt = deal_hands(n_cards, n_hands, seed=_cells.seed(seed), deck=_cells.deck(deck))
    return [list(round_) for round_ in zip(*dealt, strict=True)]


@xw.func(category=CATEGORY)
@xw.arg(
    "data",
    ndim=2,
    err_to_str=True,
    doc="The rows to draw from (the cells, for a single row).",
)
@xw.arg(
    "k",
    err_to_str=True,
    doc="How many rows to draw, without replacement: 1 up to the number of rows.",
)
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@_excel_function
def SAMPLE(data: Any, k: Any, seed: Any = None) -> list[Any]:
    """Draws k rows without replacement, in draw order: the first k rows of SHUFFLE."""
    rows = _cells.rows("data", data, values=True)
    n = _cells.count("k", k)
    if _is_row(rows):
        return [deal(rows[0], n, seed=_cells.seed(seed))]
    return deal(rows, n, seed=_cells.seed(seed))


@xw.func(category=CATEGORY)
@xw.arg(
    "data",
    ndim=2,
    err_to_str=True,
    doc="The rows to split into groups (the cells, for a single row).",
)
@xw.arg("k", err_to_str=True, doc="How many groups: a whole number of 1 or more.")
@xw.arg("seed", err_to_str=True, doc=_SEED_DOC)
@_excel_function
def GROUPS(data: Any, k: Any, seed: Any = None) -> list[Any]:
    """Returns a group number 1 to k for each row, in the rows' order; sizes differ by 1 at most."""
    rows = _cells.rows("data", data, values=True)
    n = _cells.count("k", k)
    if _is_row(rows):
        return [groups(len(rows[0]), n, seed=_cells.seed(seed))]
    return [[g] for g in groups(len(rows), n, seed=_cells.seed(seed))]


#: The worksheet functions, in the order the documentation lists them.
FUNCTIONS = (SHUFFLE, SHUFFLESTR, DEAL, SAMPLE, GROUPS)
