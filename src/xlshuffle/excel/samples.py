"""SAMPLEBY and AUDITSAMPLE: a sample from each stratum, and an audit's selection.

Excel's side, through xlwings: the argument descriptions Excel's function wizard shows,
and the one-line error boundary (:func:`~xlshuffle.excel.udf.excel_function`) around
:mod:`xlshuffle.functions.samples`, which draws.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from .. import functions
from .udf import CATEGORY, PER_ROW, SEED_DOC, excel_function

__all__ = ["AUDITSAMPLE", "SAMPLEBY"]


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
    doc="How many rows to draw from each stratum: 1 up to the rows of its smallest stratum.",
)
@xw.arg(
    "strata",
    ndim=2,
    err_to_str=True,
    doc=f"Each row's stratum (group) label, {PER_ROW}: a text or a number.",
)
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "weights",
    ndim=2,
    err_to_str=True,
    doc=f"Optional. Tickets per row, {PER_ROW}: each stratum draws by its rows' tickets.",
)
@xw.arg(
    "reserves",
    err_to_str=True,
    doc="Optional. Reserves drawn after each stratum's k winners (0 by default): the result "
    "gets the columns Role and Rank.",
)
@excel_function
def SAMPLEBY(
    data: Any, k: Any, strata: Any, seed: Any = None, weights: Any = None, reserves: Any = None
) -> list[Any]:
    """Draws k rows from each stratum on its own, the strata in order of first appearance."""
    return functions.SAMPLEBY(data, k, strata, seed, weights, reserves)


@xw.func(category=CATEGORY)
@xw.arg(
    "data",
    ndim=2,
    err_to_str=True,
    doc="The items to select from, one per row, in their ledger order (the cells, for a "
    "single row).",
)
@xw.arg(
    "k",
    err_to_str=True,
    doc="How many to select: rows for systematic, hits (cents) for mus, where a row hit "
    "twice is selected once.",
)
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "method",
    err_to_str=True,
    doc='Optional. "systematic": every n/k-th row from a random start (the default without '
    'amounts); "mus": monetary-unit, chances proportional to amounts, with a Hits column; '
    '"cell": monetary-unit, one random unit in each of k equal cells.',
)
@xw.arg(
    "amounts",
    ndim=2,
    err_to_str=True,
    doc=f"Optional. Each row's money amount for mus or cell, {PER_ROW}: numbers or texts "
    "such as $1,234.56, at most 2 decimal places, 0 or more.",
)
@xw.arg(
    "top_stratum",
    err_to_str=True,
    doc="Optional. For mus or cell: rows of this amount or more are all selected (the top "
    'stratum, a Top stratum column says yes), k units hit the others; "interval": the '
    "amounts' total over k.",
)
@excel_function
def AUDITSAMPLE(
    data: Any,
    k: Any,
    seed: Any = None,
    method: Any = None,
    amounts: Any = None,
    top_stratum: Any = None,
) -> list[Any]:
    """Selects rows for an audit at a fixed interval from one random start, in the rows' order."""
    return functions.AUDITSAMPLE(data, k, seed, method, amounts, top_stratum)
