"""Draw and lock in Excel: the commands of :mod:`xlshuffle.lock` on an xlwings ``Book``.

Each command here takes the book xlwings hands a script (the Office.js book of xlwings
Lite and Server) or a macro (the COM book of the Windows add-in), wraps it as
:class:`~.xlbook.XlBook` and runs :mod:`xlshuffle.lock`'s command of the same name, which
every spreadsheet shares (Calc's menu runs them too: :mod:`xlshuffle.calc.dispatch`). The
runtimes' wrappers are :mod:`xlshuffle.excel.scripts` and :mod:`xlshuffle.excel.subs`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from ... import lock
from ...lock import LOG_SHEET, SEED_NAME, Book, message
from .xlbook import XlBook

__all__ = [
    "LOG_SHEET",
    "SEED_NAME",
    "assign_balanced_teams",
    "assign_groups",
    "commit_selection",
    "deal_cards",
    "draw_committed",
    "draw_prizes",
    "draw_raffle",
    "draw_tickets",
    "draw_winners",
    "message",
    "replace_winner",
    "restore_last_draw",
    "shuffle_rows",
    "write_allocation_list",
    "write_orders",
    "write_seed",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _on_xlwings(command: Callable[Concatenate[Book, _P], _R]) -> Callable[Concatenate[Any, _P], _R]:
    """``command`` taking an xlwings ``Book`` in place of a :class:`~xlshuffle.lock.Book`."""

    @functools.wraps(command)
    def run(book: Any, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return command(XlBook(book), *args, **kwargs)

    return run


shuffle_rows = _on_xlwings(lock.shuffle_rows)
draw_winners = _on_xlwings(lock.draw_winners)
draw_raffle = _on_xlwings(lock.draw_raffle)
draw_tickets = _on_xlwings(lock.draw_tickets)
draw_prizes = _on_xlwings(lock.draw_prizes)
deal_cards = _on_xlwings(lock.deal_cards)
assign_groups = _on_xlwings(lock.assign_groups)
assign_balanced_teams = _on_xlwings(lock.assign_balanced_teams)
write_orders = _on_xlwings(lock.write_orders)
write_allocation_list = _on_xlwings(lock.write_allocation_list)
commit_selection = _on_xlwings(lock.commit_selection)
draw_committed = _on_xlwings(lock.draw_committed)
restore_last_draw = _on_xlwings(lock.restore_last_draw)
replace_winner = _on_xlwings(lock.replace_winner)
write_seed = _on_xlwings(lock.write_seed)
