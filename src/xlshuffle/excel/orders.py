"""ORDERS: each person's own order of the items, one spilled row per person.

Excel's side, through xlwings: the argument descriptions Excel's function wizard shows,
and the one-line error boundary (:func:`~xlshuffle.excel.udf.excel_function`) around
:mod:`xlshuffle.functions.orders`, which draws.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from .. import functions
from .udf import CATEGORY, SEED_DOC, excel_function

__all__ = ["ORDERS"]


@xw.func(category=CATEGORY)
@xw.arg("items", ndim=2, err_to_str=True, doc="The items to order: one column or one row.")
@xw.arg(
    "ids",
    ndim=2,
    err_to_str=True,
    doc="The people's IDs, one column or one row: each ID gets a row with its own order.",
)
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "k",
    err_to_str=True,
    doc="Optional. Only the first k places of each order (all of them by default).",
)
@xw.arg(
    "balanced",
    err_to_str=True,
    doc="Optional. TRUE for counterbalanced orders (a Williams design): over each block of "
    "people every item is once in each place.",
)
@excel_function
def ORDERS(
    items: Any, ids: Any, seed: Any = None, k: Any = None, balanced: Any = False
) -> list[Any]:
    """Returns each person's own fair random order of the items: a row per ID, ID first."""
    return functions.ORDERS(items, ids, seed, k, balanced)
