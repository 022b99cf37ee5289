"""TICKET: each entrant's own ticket from the seed and its ID (protocol section 18).

A worksheet function as plain Python, like those of :mod:`xlshuffle.functions` (which
exports it): every argument positional, checked by :mod:`xlshuffle.functions.arguments`, a
mistake raised as an :class:`~xlshuffle.XlshuffleError`. Given a range of IDs it spills one
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

from ..draw.errors import OptionError, SeedError
from ..draw.tickets import ticket
from . import arguments

__all__ = ["TICKET"]


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
