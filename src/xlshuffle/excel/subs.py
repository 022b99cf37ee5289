"""Draw and lock as macros of the xlwings Windows add-in (``@xw.sub``).

Each is a thin wrapper over :mod:`xlshuffle.excel.lock` that takes the workbook from
``xw.Book.caller()``. Run one from a button or VBA with ``RunPython``::

    RunPython "import xlshuffle.excel.subs as x; x.draw_winners(3)"

or add ``xlshuffle.excel.subs`` to the add-in's *UDF Modules* and click *Import
Functions*: xlwings writes a VBA ``Sub`` for each (``shuffle_rows``, ``draw_winners``...)
that a button can run. A mistake writes nothing and shows a message box (xlwings'
``App.alert``) with one line that says what to change; never a traceback.

With ``XLWINGS_ON_SERVER`` set (xlwings Lite, Server, and the tests on Linux) xlwings
has no ``sub`` decorator, so these stay plain functions there: the tests call them with
``xw.Book.caller`` returning a real Office.js ``xw.Book``, whose ``App.alert`` becomes
an ``alert`` action (tests/test_excel_lock.py). The COM side itself needs Windows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import xlwings as xw

from . import lock

__all__ = [
    "assign_balanced_teams",
    "assign_groups",
    "commit_selection",
    "deal_cards",
    "draw_committed",
    "draw_prizes",
    "draw_raffle",
    "draw_tickets",
    "draw_winners",
    "replace_winner",
    "restore_last_draw",
    "shuffle_rows",
    "write_allocation_list",
    "write_orders",
    "write_seed",
]

F = TypeVar("F", bound=Callable[..., Any])


def _plain(func: F) -> F:
    return func


_sub: Callable[[F], F] = getattr(xw, "sub", None) or _plain

# The macros are annotated "-> Any", not "-> None": the Windows add-in converts what a
# sub returns with the converter its return annotation names, and has none for NoneType
# (the draw would succeed, then Excel would show an AttributeError).


def _run(command: str, func: Callable[..., Any], *args: Any) -> Any:
    book = xw.Book.caller()
    try:
        return func(book, *args)
    except Exception as exc:  # one line in a message box, never a traceback
        book.app.alert(lock.message(command, exc), title="xlshuffle", mode="critical")
        return None


@_sub
def shuffle_rows() -> Any:
    """Shuffles the selected rows in place, as plain values, and logs the draw."""
    _run("shuffle rows", lock.shuffle_rows)


@_sub
def draw_winners(k: Any = 1) -> Any:
    """Draws k of the selected rows, in draw order, into the cells right of them."""
    _run("draw winners", lock.draw_winners, k)


@_sub
def draw_raffle(k: Any = 1, reserves: Any = 0, tickets: Any = "Tickets") -> Any:
    """Draws k winners and the reserves of the selected rows by their tickets column."""
    _run("draw raffle", lock.draw_raffle, k, reserves, tickets)


@_sub
def draw_prizes(prizes: Any = "Prizes", tickets: Any = "Tickets", ids: Any = "") -> Any:
    """Draws every winner and reserve of the prize table on the sheet named prizes."""
    _run("draw prizes", lock.draw_prizes, prizes, tickets, ids)


@_sub
def replace_winner(winner: Any = "", reason: Any = "", ids: Any = "") -> Any:
    """Gives a winner's place in the locked raffle or prize draw to the next reserve."""
    _run("replace winner", lock.replace_winner, winner, reason, ids)


@_sub
def draw_tickets(k: Any = 1, reserves: Any = 0, ids: Any = "", tickets: Any = "") -> Any:
    """Draws k winners and the reserves of the selected rows by each row's own ticket."""
    _run("draw tickets", lock.draw_tickets, k, reserves, ids, tickets)


@_sub
def deal_cards(cards: Any = 5, hands: Any = 1) -> Any:
    """Deals cards to hands from the selected cells, one column per hand, right of them."""
    _run("deal", lock.deal_cards, cards, hands)


@_sub
def assign_groups(k: Any = 2) -> Any:
    """Writes a group number 1 to k for each selected row in the column right of them."""
    _run("assign groups", lock.assign_groups, k)


@_sub
def assign_balanced_teams(k: Any = 2, balance: Any = "") -> Any:
    """Writes a team number 1 to k for each selected row, balanced by the named columns."""
    _run("assign balanced teams", lock.assign_balanced_teams, k, balance)


@_sub
def write_orders(ids: Any = "IDS", k: Any = "", balanced: Any = False) -> Any:
    """Writes each ID's own order of the selected items on a new sheet, Orders."""
    _run("write orders", lock.write_orders, ids, k, balanced)


@_sub
def write_allocation_list(
    arms: Any = "A,B", n: Any = 20, ratio: Any = "", block_sizes: Any = "", strata: Any = ""
) -> Any:
    """Writes a permuted-block allocation list on a new sheet, and its codes on another."""
    _run("write allocation list", lock.write_allocation_list, arms, n, ratio, block_sizes, strata)


@_sub
def commit_selection(draw: Any = "sample", k: Any = 1, beacon: Any = "") -> Any:
    """Commits to the selected rows, a draw and the public random value that will seed it."""
    done = _run("commit selection", lock.commit_selection, draw, k, beacon)
    if done is not None:  # the hash to publish, shown (it is also on the Draw log sheet)
        text = f"publish this commitment hash now: {done.sha256}"
        xw.Book.caller().app.alert(text, title="xlshuffle", mode="info")


@_sub
def draw_committed(reveal: Any = "", commitment: Any = "") -> Any:
    """Draws the newest commitment (or the one named by its hash) with the revealed value."""
    _run("draw committed", lock.draw_committed, reveal, commitment)


@_sub
def restore_last_draw() -> Any:
    """Puts back what the newest draw on the Draw log sheet replaced."""
    _run("restore last draw", lock.restore_last_draw)


@_sub
def write_seed() -> Any:
    """Writes a fresh random seed, as text, into the selected cell."""
    _run("write seed", lock.write_seed)
