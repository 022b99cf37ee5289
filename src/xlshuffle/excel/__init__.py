"""Excel worksheet functions: SHUFFLE, SHUFFLESTR, DEAL, SAMPLE, SAMPLEBY, AUDITSAMPLE, GROUPS,
ORDERS, ALLOCATE, TICKET, SAMPLESIZE, UPPERLIMIT.

One module serves the three ways xlwings runs Python in Excel: the Windows add-in (classic
UDFs, "Import Functions"), xlwings Lite (Pyodide inside Excel) and xlwings Server. Each
function is a thin layer over its plain-Python twin in :mod:`xlshuffle.functions`, which
LibreOffice Calc's add-in (:mod:`xlshuffle.calc`) calls too: each argument is read and
checked by :mod:`xlshuffle.functions.arguments` (an error cell, a broken character, a count
too large for a sheet are refused there, by name, before anything is allocated), the core
draws (draw protocol v1, so the same seed gives the same result as the Python API and the
command line), and the result goes back as a list of rows that Excel spills. ``SAMPLE``'s
tickets, reserves and exclusions, ``SAMPLEBY`` and ``AUDITSAMPLE``
(:mod:`xlshuffle.functions.samples`) draw through the command line's own table logic
(:mod:`xlshuffle.tabledraw.raffles`), so the range saved as CSV draws the same rows there.

Every argument is positional and the functions are not volatile. Without a seed they
draw a fresh one on every recomputation, and Excel recomputes them when their inputs
change, on Ctrl+Alt+F9 and, in Office.js (xlwings Lite and Server), also when rows or
columns are inserted or deleted and when the workbook is reopened in Excel on the web
(docs/excel.md, "When formulas recompute"). :mod:`xlshuffle.excel.lock` draws once and
writes plain values instead. A mistake (k larger than the rows, an unknown ``by``, a
seed that is TRUE) is turned into one line in one place, :func:`excel_function`:
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
>>> SAMPLE([["Ann"], ["Bo"], ["Cy"], ["Di"]], 1, 42, [1, 5, 0, 2], 1)  # tickets, a reserve
[['Ann', 'winner', 1], ['Di', 'reserve', 1]]
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

from typing import Any

import xlwings as xw

from .. import functions
from .allocate import ALLOCATE
from .auditing import SAMPLESIZE, UPPERLIMIT
from .orders import ORDERS
from .samples import AUDITSAMPLE, SAMPLEBY
from .tickets import TICKET
from .udf import CATEGORY, PER_ROW, SEED_DOC, excel_function

__all__ = [
    "ALLOCATE",
    "AUDITSAMPLE",
    "CATEGORY",
    "DEAL",
    "FUNCTIONS",
    "GROUPS",
    "ORDERS",
    "SAMPLE",
    "SAMPLEBY",
    "SAMPLESIZE",
    "SHUFFLE",
    "SHUFFLESTR",
    "TICKET",
    "UPPERLIMIT",
]


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
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "by",
    err_to_str=True,
    doc='Optional. What moves: "rows" (the default), "columns", "cells", "within rows" '
    'or "within columns". A single row shuffles its cells.',
)
@xw.arg("header", err_to_str=True, doc="Optional. TRUE keeps the first row (the labels) in place.")
@excel_function
def SHUFFLE(data: Any, seed: Any = None, by: Any = None, header: Any = False) -> list[Any]:
    """Returns the cells in a fair random order, same shape; whole rows move by default."""
    return functions.SHUFFLE(data, seed, by, header)


@xw.func(category=CATEGORY)
@xw.arg("text", err_to_str=True, doc="The text to jumble: one cell.")
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "unit",
    err_to_str=True,
    doc='Optional. "letters" (the default: accents and emoji stay whole) or "words" '
    "(spaces stay where they are).",
)
@excel_function
def SHUFFLESTR(text: Any, seed: Any = None, unit: Any = None) -> str:
    """Returns the text with its letters, or its words, in a fair random order."""
    return functions.SHUFFLESTR(text, seed, unit)


@xw.func(category=CATEGORY)
@xw.arg("cards", err_to_str=True, doc="Cards to each hand: a whole number of 1 or more.")
@xw.arg("hands", err_to_str=True, doc="Optional. How many hands (players); 1 by default.")
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "deck",
    ndim=2,
    err_to_str=True,
    doc="Optional. Empty for a standard 52-card deck, a number N for 1 to N, "
    "or a range whose values are the cards (read row by row).",
)
@excel_function
def DEAL(cards: Any, hands: Any = 1, seed: Any = None, deck: Any = None) -> list[Any]:
    """Deals cards as at a table: one column per hand, one row per round."""
    return functions.DEAL(cards, hands, seed, deck)


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
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "weights",
    ndim=2,
    err_to_str=True,
    doc=f"Optional. Tickets per row, {PER_ROW}: whole or decimal numbers, 0 never wins. "
    "Each draw picks among the tickets left.",
)
@xw.arg(
    "reserves",
    err_to_str=True,
    doc="Optional. Reserves drawn after the k winners (0 by default): the result gets the "
    "columns Role and Rank.",
)
@xw.arg(
    "exclude",
    ndim=2,
    err_to_str=True,
    doc="Optional. IDs that cannot win (earlier winners, staff): any range, matched against "
    "ids with spaces around them ignored.",
)
@xw.arg(
    "ids",
    ndim=2,
    err_to_str=True,
    doc=f"Optional. The IDs exclude is matched against and tickets are drawn from, {PER_ROW}. "
    "By default the first column of data.",
)
@xw.arg(
    "method",
    err_to_str=True,
    doc='Optional. "random" (the default), or "ticket": each row\'s own ticket from the seed '
    "and its ID, lowest first (rows added later never change the others' order; the result "
    'gets the column Draw ticket), or "rivest" (the order of Rivest\'s consistent sampler).',
)
@excel_function
def SAMPLE(
    data: Any,
    k: Any,
    seed: Any = None,
    weights: Any = None,
    reserves: Any = None,
    exclude: Any = None,
    ids: Any = None,
    method: Any = None,
) -> list[Any]:
    """Draws k rows without replacement, in draw order: the first k rows of SHUFFLE."""
    return functions.SAMPLE(data, k, seed, weights, reserves, exclude, ids, method)


@xw.func(category=CATEGORY)
@xw.arg(
    "data",
    ndim=2,
    err_to_str=True,
    doc="The rows to split into groups (the cells, for a single row).",
)
@xw.arg("k", err_to_str=True, doc="How many groups: a whole number of 1 or more.")
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "balance",
    ndim=2,
    err_to_str=True,
    doc="Optional. Columns of data to balance the groups by: numbers (1 is the first column) "
    "or header texts (then the first row of data is the header and gets the label Group).",
)
@excel_function
def GROUPS(data: Any, k: Any, seed: Any = None, balance: Any = None) -> list[Any]:
    """Returns a group number 1 to k for each row, in the rows' order; sizes differ by 1 at most."""
    return functions.GROUPS(data, k, seed, balance)


#: The worksheet functions, in the order the documentation lists them.
FUNCTIONS = (
    SHUFFLE,
    SHUFFLESTR,
    DEAL,
    SAMPLE,
    SAMPLEBY,
    AUDITSAMPLE,
    GROUPS,
    ORDERS,
    ALLOCATE,
    TICKET,
    SAMPLESIZE,
    UPPERLIMIT,
)
