"""Draw and lock: draw once on the selection, write plain values, and log how to replay it.

The commands (:mod:`.commands`), for any spreadsheet with an adapter to
:class:`~.spreadsheet.Book` (Excel's in :mod:`xlshuffle.excel.lock`, Calc's in
:mod:`xlshuffle.calc.unobook`), and what they are made of:

- :mod:`.spreadsheet`: what a command needs of a workbook, its sheets and its cells;
- :mod:`.book`: the workbook side: the selection, the seed cell and the ``Draw log`` sheet;
- :mod:`.log`: a locked draw as a ``Draw log`` row (:class:`~.log.Draw`), the input hash,
  and the command line that replays it;
- :mod:`.plan`: what a locked draw writes, and what ``restore last draw`` writes back;
- :mod:`.designs`: balanced teams, per-person orders and allocation lists, locked;
- :mod:`.committed`: commit to the selected list now, draw from a revealed value later;
- :mod:`.prizes`: a draw with a prize table on a sheet of its own (section 9);
- :mod:`.rounds`: a winner of a locked raffle or prize draw replaced by the next reserve.
"""

from .commands import (
    LOG_SHEET,
    SEED_NAME,
    assign_balanced_teams,
    assign_groups,
    commit_selection,
    deal_cards,
    draw_committed,
    draw_raffle,
    draw_tickets,
    draw_winners,
    message,
    restore_last_draw,
    shuffle_rows,
    write_allocation_list,
    write_orders,
    write_seed,
)
from .prizes import draw_prizes
from .rounds import replace_winner
from .spreadsheet import Book, Name, Range, Sheet

__all__ = [
    "LOG_SHEET",
    "SEED_NAME",
    "Book",
    "Name",
    "Range",
    "Sheet",
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
