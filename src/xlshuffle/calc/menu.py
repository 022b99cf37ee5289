"""Calc's xlshuffle menu: the draw-and-lock commands, what each asks for, and running one.

Each :class:`Command` is one of :mod:`xlshuffle.lock`'s commands, as Excel's task pane
shows them (:mod:`xlshuffle.excel.scripts`): its name is the last part of its command URL
(``org.xlshuffle.calc.lock:draw_raffle``), its title the menu's text, its fields what its
dialog asks, each with the default Excel's form shows. :func:`run` runs one on a
:class:`~xlshuffle.lock.Book` with the options given (texts typed in the dialog, or
values a macro passes) and gives back the line to show; the menu (:mod:`.dispatch`) shows
it, or the one-line mistake (:func:`xlshuffle.lock.message`).

The extension's menu (``Addons.xcu``) is written from :data:`COMMANDS` by
:mod:`xlshuffle.calc.build`, so the menu and the commands cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import lock
from ..draw.errors import OptionError
from ..lock.committed import Commitment
from ..lock.log import Draw

__all__ = ["COMMANDS", "HANDLER", "PROTOCOL", "Command", "Field", "command", "report", "run"]

#: The protocol of the menu's command URLs (``ProtocolHandler.xcu``).
PROTOCOL = "org.xlshuffle.calc.lock:"
#: The implementation name of their handler, :mod:`xlshuffle.calc.dispatch`.
HANDLER = "org.xlshuffle.calc.Lock"


@dataclass(frozen=True)
class Field:
    """One option of a command: its argument's name, its label, its default text."""

    name: str
    label: str
    default: str


@dataclass(frozen=True)
class Command:
    """A draw-and-lock command of the menu."""

    name: str
    title: str
    action: Callable[..., Any]
    fields: tuple[Field, ...] = ()

    @property
    def url(self) -> str:
        return PROTOCOL + self.name


_K = Field("k", "How many (k)", "1")

#: The menu, in its order.
COMMANDS = (
    Command("shuffle_rows", "Shuffle the selected rows and lock", lock.shuffle_rows),
    Command("draw_winners", "Draw winners from the selected rows...", lock.draw_winners, (_K,)),
    Command(
        "draw_raffle",
        "Draw a raffle by tickets, with reserves...",
        lock.draw_raffle,
        (
            Field("k", "Winners (k)", "1"),
            Field("reserves", "Reserves", "0"),
            Field("tickets", "Tickets column (header or letter)", "Tickets"),
        ),
    ),
    Command(
        "draw_tickets",
        "Draw by each row's own ticket, with reserves...",
        lock.draw_tickets,
        (
            _K,
            Field("reserves", "Reserves", "0"),
            Field("ids", "ID column (empty: the first)", ""),
            Field("tickets", "Tickets column (empty: one each)", ""),
        ),
    ),
    Command(
        "draw_prizes",
        "Draw the prizes of a prize table...",
        lock.draw_prizes,
        (
            Field("prizes", "Sheet of the prize table", "Prizes"),
            Field("tickets", "Tickets column (header or letter)", "Tickets"),
            Field("ids", "ID column (empty: the first)", ""),
        ),
    ),
    Command(
        "deal_cards",
        "Deal from the selected cards...",
        lock.deal_cards,
        (Field("cards", "Cards per hand", "5"), Field("hands", "Hands", "1")),
    ),
    Command(
        "assign_groups",
        "Assign groups to the selected rows...",
        lock.assign_groups,
        (Field("k", "Groups (k)", "2"),),
    ),
    Command(
        "assign_balanced_teams",
        "Assign balanced teams to the selected rows...",
        lock.assign_balanced_teams,
        (Field("k", "Teams (k)", "2"), Field("balance", "Balance by (headers or letters)", "")),
    ),
    Command(
        "write_orders",
        "Write each person's order of the selected items...",
        lock.write_orders,
        (
            Field("ids", "IDs (a name or an address)", "IDS"),
            Field("k", "Places (empty: all)", ""),
            Field("balanced", "Counterbalanced (TRUE or FALSE)", "FALSE"),
        ),
    ),
    Command(
        "write_allocation_list",
        "Write an allocation list for a trial...",
        lock.write_allocation_list,
        (
            Field("arms", "Arms", "A,B"),
            Field("n", "Participants (n)", "20"),
            Field("ratio", "Ratio (such as 2:1)", ""),
            Field("block_sizes", "Block sizes (such as 3,6)", ""),
            Field("strata", "Strata (such as site=North,South)", ""),
        ),
    ),
    Command(
        "commit_selection",
        "Commit to the selected list before the draw...",
        lock.commit_selection,
        (
            Field("draw", "Draw (sample, shuffle or groups)", "sample"),
            Field("k", "How many (k)", "1"),
            Field("beacon", "Public random value that will seed it", ""),
        ),
    ),
    Command(
        "draw_committed",
        "Draw the committed draw with the revealed value...",
        lock.draw_committed,
        (
            Field("reveal", "Revealed value(s), separated by ' / '", ""),
            Field("commitment", "Commitment hash (empty: the newest)", ""),
        ),
    ),
    Command(
        "replace_winner",
        "Replace a winner (next reserve)...",
        lock.replace_winner,
        (
            Field("winner", "Winner's ID (empty: the selected row)", ""),
            Field("reason", "Reason", ""),
            Field("ids", "ID column at the first round (header or letter)", ""),
        ),
    ),
    Command("restore_last_draw", "Restore the last draw", lock.restore_last_draw),
    Command("write_seed", "Write a fresh seed into the selected cell", lock.write_seed),
)

_BY_NAME = {c.name: c for c in COMMANDS}


def command(name: str) -> Command:
    """The command called ``name`` (the part of its URL after the protocol)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(_BY_NAME)
        raise OptionError(f"no command {name!r}: the commands are {known}") from None


def run(name: str, book: lock.Book, options: Mapping[str, Any]) -> str:
    """Run the command ``name`` on ``book`` with ``options`` (a field not given takes its
    default) and give the line that says what it did; a mistake raises, nothing written."""
    chosen = command(name)
    names = [f.name for f in chosen.fields]
    unknown = sorted(set(options) - set(names))
    if unknown:
        takes = f"it takes {', '.join(names)}" if names else "it takes none"
        raise OptionError(f"{name} has no option {unknown[0]!r}: {takes}")
    args = [options.get(f.name, f.default) for f in chosen.fields]
    return report(name, chosen.action(book, *args))


def report(name: str, done: Any) -> str:
    """The line to show after a command: what was drawn and where it was written, the
    commitment hash to publish, the seed written, or what was restored."""
    if isinstance(done, Draw):
        where = f"the sheet(s) {', '.join(done.new_sheets)}" if done.new_sheets else None
        return (
            f"{done.mode} of {done.sheet}!{done.address} written to "
            f"{where or done.output_address}, seed {done.seed}, logged on the "
            f"{lock.LOG_SHEET!r} sheet"
        )
    if isinstance(done, Commitment):
        listed = done.body["list"]
        return (
            f"commitment to {listed['rows']} rows of {listed['selection']}, draw: {done.what}; "
            f"logged on the {lock.LOG_SHEET!r} sheet; publish this commitment hash now: "
            f"{done.sha256}"
        )
    if name == "restore_last_draw":
        return f"restored {done}: the draw is marked restored on the {lock.LOG_SHEET!r} sheet"
    return f"wrote the seed {done} into the selected cell"
