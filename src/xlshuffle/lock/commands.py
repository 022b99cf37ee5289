"""Draw and lock: draw once on the selection, write plain values, log how to replay it.

An unseeded worksheet function draws again whenever Excel recomputes it, and Excel on
the web and xlwings Lite recompute more often than people expect (docs/excel.md,
"When formulas recompute"), as Calc does on a hard recalculation. The commands here draw
once, write the result as plain values (formatting stays) and append a row to the ``Draw
log`` sheet that says how anyone can recompute the draw:

- :func:`shuffle_rows`: shuffle the selected rows in place (``=SHUFFLE``).
- :func:`draw_winners`: draw ``k`` of the selected rows, in draw order (``=SAMPLE``).
- :func:`draw_raffle`: draw ``k`` winners and ``reserves`` reserves by a tickets column
  (``=SAMPLE`` with ``weights`` and ``reserves``).
- :func:`draw_tickets`: draw ``k`` winners and ``reserves`` reserves of the selected rows
  by each row's own ticket from the seed and its ID, lowest first (protocol section 18;
  ``=SAMPLE`` with method ``"ticket"``), each row followed by its ticket.
- :func:`deal_cards`: deal ``cards`` cards to ``hands`` hands from the selected cells,
  read row by row (``=DEAL``).
- :func:`assign_groups`: a group number 1..k for each selected row (``=GROUPS``).
- :func:`assign_balanced_teams`: a team number 1..k for each selected row, balanced by
  columns of the selection (``=GROUPS`` with ``balance``).
- :func:`write_orders`: each person's order of the selected items, on a new sheet
  (``=ORDERS``).
- :func:`write_allocation_list`: a permuted-block allocation list on a new sheet, and its
  codes on another (``=ALLOCATE``).
- :func:`commit_selection`: commit to the selected list, a draw and the public random
  value that will seed it, before that value is known (protocol section 17): logs the
  commitment hash to publish.
- :func:`draw_committed`: draw a committed draw with the revealed value, refused if the
  list changed since it was committed.
- :func:`restore_last_draw`: undo the newest draw of the log not yet restored.
- :func:`write_seed`: write a fresh seed, as text, into the selected cell.

Winners, raffles, deals and groups are written into the cells right of the selection (the
column after its last one), which must be empty. The seed is the value of the cell
named ``SEED`` (a defined name) when that cell is filled, else a fresh seed from the
operating system (:func:`~xlshuffle.draw.new_seed`).

Each function takes a :class:`~.spreadsheet.Book`: Excel's (:mod:`xlshuffle.excel.lock`
adapts xlwings' ``Book``, the Office.js book of xlwings Lite and Server or the COM book
of the Windows add-in) or Calc's (:mod:`xlshuffle.calc.unobook`). It raises an
:class:`~xlshuffle.XlshuffleError` with a one-line message for a mistake, before
anything is written. The runtime wrappers are in :mod:`xlshuffle.excel.scripts` (Lite,
Server), :mod:`xlshuffle.excel.subs` (Windows add-in) and :mod:`xlshuffle.calc.dispatch`
(Calc's menu).
"""

from __future__ import annotations

from typing import Any

from ..common.a1 import col_letters
from ..draw.errors import ShapeError, SizeError, WorkbookError
from ..draw.protocol import new_seed
from ..functions import arguments
from . import committed
from .book import (
    LOG_SHEET,
    MAX_CELLS,
    SEED_NAME,
    a1,
    append,
    beside,
    cells,
    locked_draw,
    log_sheet,
    now,
    number,
    seed_of,
    selected,
    selection,
    ticket_column,
    write,
    write_text,
)
from .committed import COMMIT_MODE, Commitment
from .designs import (
    assign_balanced_teams,
    check_added,
    write_allocation_list,
    write_orders,
)
from .log import (
    LOG_COLUMNS,
    SHEET_SEPARATOR,
    Draw,
    LockMode,
    log_entry,
    log_text,
    values_sha256,
)
from .plan import plan, undo
from .rounds import ROUND_MODE, undo_round
from .spreadsheet import Book, Range

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


def message(command: str, exc: BaseException) -> str:
    """The one line a runtime shows for a command that failed (:func:`.arguments.report`)."""
    return arguments.report(command, exc)


# --------------------------------------------------------------------------- commands


def _lock(
    book: Book,
    mode: LockMode,
    k: int | None = None,
    hands: int | None = None,
    *,
    reserves: int | None = None,
    tickets: str = "",
    ids: str | None = None,
    at: Range | None = None,
    seeded: tuple[str, str] | None = None,
    more: tuple[str, ...] = (),
) -> Draw:
    """Draw ``mode`` on the selection (or the range ``at``), write and log it; a
    committed draw gives its own seed and where it came from (``seeded``) and the
    values of its log's commitment columns (``more``)."""
    sheet, rng, rows = selection(book, least_rows=1 if mode == "deal" else 2, rng=at)
    if mode == "deal" and len(rows) * len(rows[0]) < 2:
        raise SizeError("the selection is one cell: select the cards, at least 2 cells")
    if mode == "winners" and k is not None and k > len(rows):
        raise SizeError(
            f"cannot draw {k} winners from {len(rows)} rows: draw fewer or select more rows"
        )
    column = ticket_column(sheet, rng, tickets) if mode in ("raffle", "tickets") else None
    id_column = None
    if mode == "tickets":  # the IDs' column, by default the selection's first
        id_column = ticket_column(sheet, rng, ids or "", "ids") or rng.column
    seed, seed_from = seed_of(book) if seeded is None else seeded
    log = log_sheet(book)

    def span(col: int) -> str:
        return f"{col_letters(col)}{rng.row}:{col_letters(col)}{rng.row + len(rows) - 1}"

    def named(what: str, col: int) -> Any:
        return lambda i: f"the {what} cell {col_letters(col)}{rng.row + i}"

    tickets_at = None if column is None else span(column)
    if column is None and id_column is None:
        output = plan(mode, rows, seed, k, hands, reserves=reserves or 0)
    else:
        output = plan(
            mode,
            rows,
            seed,
            k,
            reserves=reserves or 0,
            tickets=None if column is None else column - rng.column,
            ticket_cell=None if column is None else named("tickets", column),
            ids=None if id_column is None else id_column - rng.column,
            id_cell=None if id_column is None else named("ID", id_column),
        )
    more_options = "" if id_column is None else f"ids {span(id_column)}"
    target = rng if mode == "shuffle" else beside(sheet, rng, len(output), len(output[0]))
    draw = locked_draw(
        book,
        sheet.name,
        a1(rng),
        seed,
        seed_from,
        mode=mode,
        rows=rows,
        output=output,
        output_address=a1(target),
        k=k,
        hands=hands,
        reserves=reserves,
        tickets=tickets_at,
        options=more_options,
    )
    write(target, output)
    append(book, log, draw, more)
    return draw


def shuffle_rows(book: Book) -> Draw:
    """Shuffle the selected rows in place (each row stays together) and log the draw."""
    return _lock(book, "shuffle")


def draw_winners(book: Book, k: Any = 1) -> Draw:
    """Draw ``k`` of the selected rows, in draw order, into the cells right of them."""
    return _lock(book, "winners", k=arguments.count("k", number(k)))


def deal_cards(book: Book, cards: Any = 5, hands: Any = 1) -> Draw:
    """Deal from the selected cells (read row by row): one column per hand, right of them."""
    n_cards = arguments.count("cards", number(cards), most=arguments.SHEET_ROWS)
    n_hands = arguments.count("hands", number(hands), most=arguments.SHEET_COLUMNS)
    return _lock(book, "deal", k=n_cards, hands=n_hands)


def draw_raffle(book: Book, k: Any = 1, reserves: Any = 0, tickets: Any = "Tickets") -> Draw:
    """Draw ``k`` winners and then ``reserves`` reserves of the selected rows by their
    tickets, into the cells right of them: each row followed by its Role and Rank when
    there are reserves (``=SAMPLE`` with ``weights`` and ``reserves``).

    ``tickets`` names the column of ticket counts: the selected column headed so in the
    row above the selection, or a column letter; empty gives every row one ticket.
    """
    n = arguments.count("k", number(k))
    extra = arguments.count("reserves", number(reserves), default=0, least=0)
    given = "" if tickets is None else str(tickets)
    return _lock(book, "raffle", k=n, reserves=extra, tickets=given)


def draw_tickets(
    book: Book, k: Any = 1, reserves: Any = 0, ids: Any = "", tickets: Any = ""
) -> Draw:
    """Draw ``k`` winners and then ``reserves`` reserves of the selected rows by each
    row's own ticket, the SHA-256 of the seed's key and its ID (protocol section 18),
    lowest first, into the cells right of them: each row followed by its Role and Rank
    when there are reserves, and its ``Draw ticket`` (``=SAMPLE`` with method
    ``"ticket"``). Rows added to the list later never change the others' order.

    ``ids`` names the IDs column as ``tickets`` names a raffle's (its header in the row
    above the selection, or its letter; empty: the selection's first column); ``tickets``
    names a column of whole ticket counts (empty: one ticket each).
    """
    n = arguments.count("k", number(k))
    extra = arguments.count("reserves", number(reserves), default=0, least=0)
    given = "" if tickets is None else str(tickets)
    return _lock(
        book, "tickets", k=n, reserves=extra, tickets=given, ids="" if ids is None else str(ids)
    )


def assign_groups(book: Book, k: Any = 2) -> Draw:
    """Write a group number 1..k for each selected row in the column right of them."""
    return _lock(book, "groups", k=arguments.count("k", number(k)))


def commit_selection(book: Book, draw: Any = "sample", k: Any = 1, beacon: Any = "") -> Commitment:
    """Commit to the selected rows, the draw ``draw`` (``sample``: ``k`` winners,
    ``shuffle``, ``groups``: ``k`` groups) and the public random value ``beacon``
    announces; log the commitment, whose hash is to be published now (section 17)."""
    return committed.commit(book, draw, k, beacon)


def draw_committed(book: Book, reveal: Any = "", commitment: Any = "") -> Draw:
    """Draw the newest commitment of the log (or the one whose hash begins with
    ``commitment``) with the seed its hash and the ``reveal`` values give (several
    separated by `` / ``), exactly as the plain command draws; refused if the committed
    cells changed."""
    return committed.draw(book, reveal, commitment, _lock)


def write_seed(book: Book) -> str:
    """Write a fresh seed from the operating system, as text, into the selected cell."""
    rng = selected(book)
    if rng.shape != (1, 1):
        raise ShapeError(f"select one cell for the seed, not {a1(rng)}")
    seed = new_seed()
    write_text(rng, [[seed]])
    return seed


def restore_last_draw(book: Book) -> str:
    """Put back what the newest draw of the log not yet restored replaced; mark it restored.

    A shuffle gets its original row order back (recomputed from the seed); winners,
    deals, groups and teams are cleared (their cells were empty before); the sheets that
    orders and allocation lists added are deleted; a round's result gets the standing
    before it back (:func:`~.rounds.undo_round`). Refused when the
    cells no longer hold what the draw wrote (the log's output SHA-256).
    """
    log = log_sheet(book)
    if log is None:
        raise WorkbookError(f"there is no {LOG_SHEET!r} sheet: no draw to restore")
    sheet, rows = log
    column = {name: i for i, name in enumerate(LOG_COLUMNS)}
    index = next(
        (
            i
            for i in range(len(rows) - 1, 0, -1)
            if log_text(rows[i][column["time (UTC)"]])
            and not log_text(rows[i][column["restored (UTC)"]])
            and log_text(rows[i][column["mode"]]) != COMMIT_MODE  # a commitment draws nothing
        ),
        None,
    )
    if index is None:
        raise WorkbookError(f"the {LOG_SHEET!r} sheet lists no draw to restore")
    entry = log_entry(rows[index], f"row {index + 1} of {LOG_SHEET!r}", most=MAX_CELLS)
    added = [name for name in entry["new sheets"].split(SHEET_SEPARATOR) if name]
    where = added[0] if added else entry["sheet"]
    try:
        target = book.sheet(where).at(entry["output"])
    except Exception:
        raise WorkbookError(
            f"the sheet {where!r} or its range {entry['output']!r} of the draw at "
            f"{entry['time (UTC)']} is gone: nothing was restored"
        ) from None
    current = cells(target)
    if values_sha256(current) != entry["output sha256"]:
        raise WorkbookError(
            f"{where}!{entry['output']} changed since the draw at "
            f"{entry['time (UTC)']} (its values no longer match the log's output sha256): "
            "nothing was restored"
        )
    check_added(book, entry, added)
    if entry["mode"] == "shuffle":
        write(target, _unshuffled(current, entry))
    elif entry["mode"] == ROUND_MODE:
        undo_round(book, rows, index)
    elif not added:
        target.clear_contents()
    write_text(sheet.range(index + 1, column["restored (UTC)"] + 1), [[now()]])
    for name in added:  # after the mark: deleting a sheet moves the sheets after it
        if name in {s.name for s in book.sheets}:
            book.sheet(name).delete()
    return f"{where}!{entry['output']}"


def _unshuffled(current: list[list[Any]], entry: dict[str, str]) -> list[list[Any]]:
    """A shuffle's rows before the draw, checked against the logged input."""
    before = undo("shuffle", current, entry["seed"])
    if values_sha256(before) != entry["input sha256"]:
        raise WorkbookError(
            f"undoing the draw at {entry['time (UTC)']} does not give the logged input "
            "back (input sha256 differs): nothing was restored"
        )
    return before
