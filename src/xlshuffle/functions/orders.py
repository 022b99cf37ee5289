"""ORDERS: each person's own order of the items, one spilled row per person.

A worksheet function as plain Python, like those of :mod:`xlshuffle.functions` (which
exports it): every argument positional, checked by :mod:`xlshuffle.functions.arguments`, a
mistake raised as an :class:`~xlshuffle.XlshuffleError`. Each row is the ID, then the items in
that person's order: :func:`xlshuffle.draw.orders.person_orders` (draw protocol section
13), or :func:`~xlshuffle.draw.orders.balanced_orders` (section 14) with ``balanced``
TRUE; so the same seed gives the rows ``xlshuffle orders ITEMS --ids IDS`` writes.

>>> ORDERS([["A"], ["B"], ["C"], ["D"]], [["Ann"], ["Bo"]], "class 4B")
[['Ann', 'C', 'A', 'D', 'B'], ['Bo', 'D', 'C', 'A', 'B']]
>>> ORDERS([["A", "B", "C", "D"]], [["Ann"], ["Bo"]], "class 4B", 2, True)
[['Ann', 'A', 'C'], ['Bo', 'D', 'A']]
"""

from __future__ import annotations

from typing import Any

from ..draw.errors import EntryError, OptionError, ShapeError, SizeError
from ..draw.orders import balanced_orders, person_orders
from . import arguments

__all__ = ["ORDERS", "orders_rows"]


def ORDERS(
    items: Any, ids: Any, seed: Any = None, k: Any = None, balanced: Any = False
) -> list[Any]:
    """Returns each person's own fair random order of the items: a row per ID, ID first."""
    return orders_rows(items, ids, seed, k, balanced)


def orders_rows(items: Any, ids: Any, seed: Any, k: Any, balanced: Any) -> list[Any]:
    """ORDERS' rows, or an :class:`~xlshuffle.XlshuffleError` naming the argument: what
    the worksheet function and the locked *write orders* both write."""
    pool = _line("items", items)
    people = _line("ids", ids)
    for i, cell in enumerate(people, 1):
        code = arguments.error_text(cell)
        if code is not None:
            raise OptionError(f"ids, cell {i} shows the error {code}: fix that cell")
    people = arguments.labels("ids", people, "cell", blank=False)
    n = len(pool)
    places = arguments.count("k", k, default=n, least=0, most=n, why=" (the number of items)")
    if places + 1 > arguments.SHEET_COLUMNS:
        raise SizeError(
            f"{places:,} places and the ID do not fit in a row of a sheet "
            f"({arguments.SHEET_COLUMNS:,} columns): give k at most {arguments.SHEET_COLUMNS - 1:,}"
        )
    draw = balanced_orders if arguments.flag("balanced", balanced) else person_orders
    try:
        orders = draw(pool, people, seed=arguments.seed(seed), k=places)
    except EntryError as exc:
        raise OptionError(f"ids, cell {exc.index + 1}: {exc.reason}") from None
    return [[pid, *order] for pid, order in zip(people, orders, strict=True)]


def _line(name: str, value: Any) -> list[Any]:
    """The cells of a one-column or one-row range, in order."""
    grid = arguments.rows(name, value, values=True)
    if len(grid) > 1 and len(grid[0]) > 1:
        raise ShapeError(
            f"{name} is {len(grid)} rows by {len(grid[0])} columns: give one column or one row"
        )
    return [cell for row in grid for cell in row]
