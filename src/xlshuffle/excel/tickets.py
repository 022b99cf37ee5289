"""TICKET: each entrant's own ticket from the seed and its ID (protocol section 18).

A worksheet function like those of :mod:`xlshuffle.excel` (which exports it): every
argument positional, checked by :mod:`xlshuffle.excel.arguments`, a mistake turned into one
line by :func:`xlshuffle.excel.udf.excel_function`. Given a range of IDs it spills one
ticket per cell, in the range's shape, so ``=SORTBY(A2:C300, TICKET(A2:A300, F1))`` puts the
rows in the ticket draw's order: the order ``SAMPLE(..., method "ticket")`` and
``xlshuffle tickets`` give, which entrants added later never change. A blank cell has no
ticket (an empty text).

>>> TICKET("M-017", "2026")
'5ae9d10ac149e9740e01fc1035eb6e4e60942b1baa39787c1490c3fddf11ae66'
>>> [row[0][:8] for row in TICKET([["ann"], ["bo"], [None]], "2026")]
['a213c249', '0a1b0322', '']
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from ..draw.errors import OptionError, SeedError
from ..draw.tickets import ticket
from . import arguments
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
    given = arguments.seed(seed)
    if given is None or (isinstance(given, str) and not given.strip()):
        raise SeedError("a ticket needs a seed: give the seed of the draw it belongs to")
    nth = arguments.count("number", number, default=0, least=0)
    rows = arguments.rows("ids", ids)
    out = [[_one(value, given, nth) for value in row] for row in rows]
    if isinstance(ids, list | tuple):
        return out
    return out[0][0]  # one value from Python: one ticket


def _one(value: object, seed: object, number: int) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    try:
        return ticket(seed, value, number)
    except (OptionError, SeedError) as exc:
        raise OptionError(f"ids: {value!r}: {exc}") from None
