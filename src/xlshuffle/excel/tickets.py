"""TICKET: each entrant's own ticket from the seed and its ID (protocol section 18).

Excel's side, through xlwings: the argument descriptions Excel's function wizard shows,
and the one-line error boundary (:func:`~xlshuffle.excel.udf.excel_function`) around
:mod:`xlshuffle.functions.tickets`, which draws.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from .. import functions
from .udf import CATEGORY, excel_function

__all__ = ["TICKET"]


@xw.func(category=CATEGORY)
@xw.arg(
    "ids",
    ndim=2,
    err_to_str=True,
    doc="An entrant's ID, or a range of IDs (one ticket each, in the range's shape; a blank "
    "cell gets none). Spaces around an ID are ignored, case is kept.",
)
@xw.arg(
    "seed",
    err_to_str=True,
    doc="The draw's seed (required: a ticket exists only for a seed), as SAMPLE takes it.",
)
@xw.arg(
    "number",
    err_to_str=True,
    doc="Optional. Which of an entrant's tickets (0, the default, is the first; an entrant "
    "holding w tickets has 0 to w-1 and keeps the lowest).",
)
@excel_function
def TICKET(ids: Any, seed: Any, number: Any = None) -> Any:
    """Returns each ID's ticket: 64 hex digits from the seed and the ID; lowest is drawn first."""
    return functions.TICKET(ids, seed, number)
