"""Draw and lock as xlwings Lite and xlwings Server scripts (buttons in the task pane).

Import them into Lite's ``main.py`` (``from xlshuffle.excel.scripts import *``) or into
the module an xlwings Server loads its scripts from; each shows as a button, and its
arguments (``k``, ``reserves``, ``tickets``, ``cards``, ``hands``, ``balance``, ``ids``,
``arms``, ``winner``, ``reason``...) as form fields above
it. Every script is a thin wrapper over :mod:`xlshuffle.excel.lock` and gets the
workbook from xlwings (``book: xw.Book``: the Office.js workbook as JSON, whose writes go
back to Excel as actions when the script returns).

A mistake (a bad selection or count, a log that does not match the sheet) writes nothing
and raises :class:`xlwings.XlwingsError` with one line, at most 300 characters, that
says what to change: xlwings Server answers it as HTTP 400 with the message (no retry,
no traceback), which the add-in shows; Lite shows the message in its output pane. A
bug gets one line too, saying so (:func:`xlshuffle.functions.arguments.report`).

The tests drive these through xlwings' own ``custom_scripts_call`` with a real
``xw.Book`` built from an Office.js JSON payload (tests/test_excel_lock.py). On Windows
``xw.script`` is xlwings' ``sub``, but these take the book as an argument, which a
button cannot pass: the Windows add-in uses :mod:`xlshuffle.excel.subs`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import xlwings as xw

from ..draw.errors import XlshuffleError
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


def _run(command: str, func: Callable[..., Any], book: xw.Book, *args: Any) -> Any:
    try:
        return func(book, *args)
    except Exception as exc:  # one line, never a traceback (a bug's cause stays attached)
        cause = None if isinstance(exc, XlshuffleError) else exc
        raise xw.XlwingsError(lock.message(command, exc)) from cause


def _report(draw: Any) -> None:
    where = f"the sheet(s) {', '.join(draw.new_sheets)}" if draw.new_sheets else draw.output_address
    print(
        f"xlshuffle: {draw.mode} of {draw.sheet}!{draw.address} written to "
        f"{where}, seed {draw.seed}, logged on the {lock.LOG_SHEET!r} sheet"
    )


@xw.script(name="xlshuffle: shuffle the selected rows")
def shuffle_rows(book: xw.Book) -> None:
    """Shuffles the selected rows in place, as plain values, and logs the draw."""
    _report(_run("shuffle rows", lock.shuffle_rows, book))


@xw.script(name="xlshuffle: draw winners from the selected rows")
def draw_winners(book: xw.Book, k: int = 1) -> None:
    """Draws k of the selected rows, in draw order, into the cells right of them."""
    _report(_run("draw winners", lock.draw_winners, book, k))


@xw.script(name="xlshuffle: draw a raffle by tickets, with reserves")
def draw_raffle(book: xw.Book, k: int = 1, reserves: int = 0, tickets: str = "Tickets") -> None:
    """Draws k winners and the reserves of the selected rows by their tickets column."""
    _report(_run("draw raffle", lock.draw_raffle, book, k, reserves, tickets))


@xw.script(name="xlshuffle: draw the prizes of a prize table")
def draw_prizes(
    book: xw.Book, prizes: str = "Prizes", tickets: str = "Tickets", ids: str = ""
) -> None:
    """Draws every winner and reserve of the prize table on the sheet named prizes."""
    _report(_run("draw prizes", lock.draw_prizes, book, prizes, tickets, ids))


@xw.script(name="xlshuffle: replace a winner by the next reserve")
def replace_winner(book: xw.Book, winner: str = "", reason: str = "", ids: str = "") -> None:
    """Gives a winner's place in the locked raffle or prize draw to the next reserve."""
    done = _run("replace winner", lock.replace_winner, book, winner, reason, ids)
    prize = f" ({done.prize})" if done.prize is not None else ""
    print(
        f"xlshuffle: round {done.number}: {done.replaced} replaced ({done.reason}), the "
        f"place{prize} goes to {done.given_to}, reserve {done.reserve}; written to "
        f"{done.sheet}!{done.output_address}, logged on the {lock.LOG_SHEET!r} sheet"
    )


@xw.script(name="xlshuffle: draw by each row's own ticket (a ticket draw)")
def draw_tickets(
    book: xw.Book, k: int = 1, reserves: int = 0, ids: str = "", tickets: str = ""
) -> None:
    """Draws k winners and the reserves of the selected rows by each row's own ticket."""
    _report(_run("draw tickets", lock.draw_tickets, book, k, reserves, ids, tickets))


@xw.script(name="xlshuffle: deal from the selected cards")
def deal_cards(book: xw.Book, cards: int = 5, hands: int = 1) -> None:
    """Deals cards to hands from the selected cells, one column per hand, right of them."""
    _report(_run("deal", lock.deal_cards, book, cards, hands))


@xw.script(name="xlshuffle: assign groups to the selected rows")
def assign_groups(book: xw.Book, k: int = 2) -> None:
    """Writes a group number 1 to k for each selected row in the column right of them."""
    _report(_run("assign groups", lock.assign_groups, book, k))


@xw.script(name="xlshuffle: assign balanced teams to the selected rows")
def assign_balanced_teams(book: xw.Book, k: int = 2, balance: str = "") -> None:
    """Writes a team number 1 to k for each selected row, balanced by the named columns."""
    _report(_run("assign balanced teams", lock.assign_balanced_teams, book, k, balance))


@xw.script(name="xlshuffle: write each person's order of the selected items")
def write_orders(book: xw.Book, ids: str = "IDS", k: str = "", balanced: bool = False) -> None:
    """Writes each ID's own order of the selected items on a new sheet, Orders."""
    _report(_run("write orders", lock.write_orders, book, ids, k, balanced))


@xw.script(name="xlshuffle: write an allocation list for a trial")
def write_allocation_list(
    book: xw.Book,
    arms: str = "A,B",
    n: int = 20,
    ratio: str = "",
    block_sizes: str = "",
    strata: str = "",
) -> None:
    """Writes a permuted-block allocation list on a new sheet, and its codes on another."""
    args = (arms, n, ratio, block_sizes, strata)
    _report(_run("write allocation list", lock.write_allocation_list, book, *args))


@xw.script(name="xlshuffle: commit to the selected list before the draw")
def commit_selection(book: xw.Book, draw: str = "sample", k: int = 1, beacon: str = "") -> None:
    """Commits to the selected rows, a draw and the public random value that will seed it."""
    done = _run("commit selection", lock.commit_selection, book, draw, k, beacon)
    listed = done.body["list"]
    print(
        f"xlshuffle: commitment to {listed['rows']} rows of {listed['selection']}, draw: "
        f"{done.what}; seeded by: {done.body['beacon']}; logged on the {lock.LOG_SHEET!r} sheet"
    )
    print(f"publish this commitment hash now: {done.sha256}")


@xw.script(name="xlshuffle: draw the committed draw with the revealed value")
def draw_committed(book: xw.Book, reveal: str = "", commitment: str = "") -> None:
    """Draws the newest commitment (or the one named by its hash) with the revealed value."""
    _report(_run("draw committed", lock.draw_committed, book, reveal, commitment))


@xw.script(name="xlshuffle: restore the last draw")
def restore_last_draw(book: xw.Book) -> None:
    """Puts back what the newest draw on the Draw log sheet replaced."""
    where = _run("restore last draw", lock.restore_last_draw, book)
    print(f"xlshuffle: restored {where}")


@xw.script(name="xlshuffle: write a fresh seed into the selected cell")
def write_seed(book: xw.Book) -> None:
    """Writes a fresh random seed, as text, into the selected cell."""
    seed = _run("write seed", lock.write_seed, book)
    print(f"xlshuffle: seed {seed}")
