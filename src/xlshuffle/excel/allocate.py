"""ALLOCATE: a permuted-block allocation list for a trial, as a worksheet function.

Excel's side, through xlwings: the argument descriptions Excel's function wizard shows,
and the one-line error boundary (:func:`~xlshuffle.excel.udf.excel_function`) around
:mod:`xlshuffle.functions.allocate`, which draws.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from .. import functions
from .udf import CATEGORY, SEED_DOC, excel_function

__all__ = ["ALLOCATE"]


@xw.func(category=CATEGORY)
@xw.arg(
    "arms",
    ndim=2,
    err_to_str=True,
    doc='The arms\' names: a range with one name per cell, or one cell such as "A,B".',
)
@xw.arg(
    "n",
    err_to_str=True,
    doc="How many rows are wanted: the list has at least n (the last block is complete); "
    "use its first n rows.",
)
@xw.arg("seed", err_to_str=True, doc=SEED_DOC)
@xw.arg(
    "ratio",
    ndim=2,
    err_to_str=True,
    doc='Optional. Whole numbers, one per arm: a text such as "2:1" or a range (1 each by '
    "default).",
)
@xw.arg(
    "block_sizes",
    ndim=2,
    err_to_str=True,
    doc='Optional. The allowed block sizes, each a multiple of the ratio\'s sum: "3,6", a '
    "number or a range (by default 2 and 4 times the sum).",
)
@xw.arg(
    "strata",
    ndim=2,
    err_to_str=True,
    doc='Optional. Stratum factors and their values: a text such as "site=North,South;sex=F,M", '
    "or a range with one factor per row, its name first and its values in the cells right of "
    "it. One sequence per combination, first factor slowest.",
)
@excel_function
def ALLOCATE(
    arms: Any,
    n: Any,
    seed: Any = None,
    ratio: Any = None,
    block_sizes: Any = None,
    strata: Any = None,
) -> list[Any]:
    """Returns a permuted-block allocation list: Seq, the strata, Block, BlockSize and Arm."""
    return functions.ALLOCATE(arms, n, seed, ratio, block_sizes, strata)
