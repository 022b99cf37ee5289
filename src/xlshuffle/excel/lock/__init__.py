"""Draw and lock: draw once on the selection, write plain values, and log how to replay it.

The commands (:mod:`.commands`) that the xlwings runtimes run as scripts or macros, and what
they are made of:

- :mod:`.book`: the workbook side: the selection, the seed cell and the ``Draw log`` sheet;
- :mod:`.log`: a locked draw as a ``Draw log`` row (:class:`~.log.Draw`), the input hash,
  and the command line that replays it;
- :mod:`.plan`: what a locked draw writes, and what ``restore last draw`` writes back;
- :mod:`.designs`: balanced teams, per-person orders and allocation lists, locked;
- :mod:`.committed`: commit to the selected list now, draw from a revealed value later.
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

__all__ = [
    "LOG_SHEET",
    "SEED_NAME",
    "assign_balanced_teams",
    "assign_groups",
    "commit_selection",
    "deal_cards",
    "draw_committed",
    "draw_raffle",
    "draw_tickets",
    "draw_winners",
    "message",
    "restore_last_draw",
    "shuffle_rows",
    "write_allocation_list",
    "write_orders",
    "write_seed",
]
