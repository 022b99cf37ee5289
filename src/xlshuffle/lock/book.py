"""Draw and lock, the workbook side: the selection, the seed cell and the ``Draw log``.

Everything :mod:`xlshuffle.lock`'s commands read from or write to a workbook, through a
:class:`~.spreadsheet.Book` (Excel's through xlwings, Calc's through UNO): the selected
block and its values, the ``SEED`` cell, the empty cells right of the selection, the header
row above it, and the log sheet, read before anything is written and appended to last.
What is written is plain values, never formats except the log's text format.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from collections.abc import Sequence
from typing import Any

from ..common.a1 import col_index
from ..draw.errors import OptionError, SeedError, ShapeError, SizeError, WorkbookError
from ..draw.protocol import new_seed, normalise_seed
from ..functions import arguments
from .log import LOG_COLUMNS, Draw, Rows, log_text
from .spreadsheet import Book, Range, Sheet

__all__ = [
    "COMMIT_COLUMNS",
    "LOG_SHEET",
    "MAX_CELLS",
    "SEED_NAME",
    "a1",
    "append",
    "append_row",
    "beside",
    "cells",
    "locked_draw",
    "log_sheet",
    "now",
    "number",
    "seed_of",
    "selected",
    "selection",
    "ticket_column",
    "version",
    "write",
    "write_text",
]

#: The sheet the draws are logged on (created with a header row when missing).
LOG_SHEET = "Draw log"
#: The defined name of the optional seed cell.
SEED_NAME = "SEED"
#: The most cells a command reads: a whole column selected by mistake is refused.
MAX_CELLS = 1_000_000
#: The log's columns after :data:`~.log.LOG_COLUMNS`, filled only by committed
#: draws (commit, then draw: protocol section 17) and written with their header cells
#: only then, so that a log without committed draws keeps its width.
COMMIT_COLUMNS = ("commitment sha256", "list sha256", "beacon", "reveal", "commitment")
#: The longest seed a locked draw takes: Excel keeps at most 255 characters of a text
#: in a formula, and the log's formula quotes the seed.
MAX_SEED = 255
#: The most rows the ``Draw log`` sheet may reach: it is read whole at each draw.
MAX_LOG_ROWS = MAX_CELLS // 16


def version() -> str:
    """The running xlshuffle's version, for the log.

    The lock layer may not import the package root (tests/test_layers.py), but importing
    this module has loaded it, so its ``__version__`` is at hand: in an installed
    package, in a source checkout, in the Lite bundle and in the Calc extension, which
    have no distribution metadata.
    """
    return str(sys.modules[__name__.partition(".")[0]].__version__)


def now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def locked_draw(
    book: Book, sheet: str, address: str, seed: str, seed_from: str, **fields: Any
) -> Draw:
    """The :class:`~.log.Draw` of ``book``'s sheet ``sheet`` at ``address``, drawn with
    ``seed`` (read from ``seed_from``) by this version of xlshuffle, now; ``fields``: the
    rest of it (mode, rows, output...)."""
    return Draw(
        sheet=sheet,
        address=address,
        book=book.name,
        seed=seed,
        seed_from=seed_from,
        version=version(),
        time=now(),
        **fields,
    )


def number(value: Any) -> Any:
    """A count typed into a form's text box ("3") as the number it reads as."""
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return value
    return value


def a1(rng: Range) -> str:
    return rng.address()


def cells(rng: Range) -> Rows:
    return rng.values()


# --------------------------------------------------------------------------- reading


def selection(
    book: Book, *, least_rows: int = 2, rng: Range | None = None
) -> tuple[Sheet, Range, Rows]:
    """The selected range (or ``rng``), its sheet and its values; a selection that
    cannot be drawn from is refused by name."""
    rng = selected(book) if rng is None else rng
    address = a1(rng)
    rows, columns = rng.shape
    if rows >= arguments.SHEET_ROWS or columns >= arguments.SHEET_COLUMNS:
        raise SizeError(
            f"the selection {address} is whole rows or columns: select only the cells "
            "that hold the list"
        )
    if rows * columns > MAX_CELLS:
        raise SizeError(
            f"the selection {address} has {rows * columns:,} cells; a draw takes at most "
            f"{MAX_CELLS:,}: select only the cells that hold the list"
        )
    if rows < least_rows:
        raise SizeError(
            f"the selection {address} has {rows} row{'s' if rows != 1 else ''}: select "
            f"at least {least_rows} rows (one row per entry)"
        )
    values = cells(rng)
    arguments.rows("the selection", values, values=True)
    return rng.sheet, rng, values


def selected(book: Book) -> Range:
    """The selected block of cells; a shape, nothing or several areas are refused."""
    rng = book.selection
    address = None if rng is None else a1(rng)
    if rng is None or address in (None, "", "None") or "," in address or ";" in address:
        raise ShapeError(
            "select one block of cells first (nothing, a shape or several areas are selected)"
        )
    return rng


def seed_of(book: Book) -> tuple[str, str]:
    """The seed text and where it came from: the SEED cell when filled, else the OS."""
    cell = _seed_cell(book)
    if cell is not None:
        value = cells(cell)[0][0]
        if not (value is None or value == ""):
            where = f"{cell.sheet.name}!{a1(cell)}"
            try:
                value = arguments.seed(value)
                text = normalise_seed(value).decode("utf-8")
            except SeedError as exc:
                raise SeedError(f"the {SEED_NAME} cell {where}: {exc}") from None
            if len(text) > MAX_SEED:
                raise SeedError(
                    f"the {SEED_NAME} cell {where} holds a seed of {len(text):,} characters; "
                    f"a locked draw's seed has at most {MAX_SEED} (the longest text a logged "
                    "formula can hold): use a shorter seed"
                )
            return text, f"{SEED_NAME} cell {where}"
    return new_seed(), "fresh (operating system)"


def _seed_cell(book: Book) -> Range | None:
    for name in book.names:
        if name.name.rpartition("!")[2].upper() != SEED_NAME:
            continue
        cell = name.refers_to_range  # None for a constant or a formula, not a cell
        if cell is None or cell.shape != (1, 1):
            raise SeedError(f"the name {name.name} must refer to one cell, the seed cell")
        return cell
    return None


def beside(sheet: Sheet, rng: Range, height: int, width: int) -> Range:
    """The empty block right of the selection where a result goes."""
    top, left = rng.row, rng.column + rng.shape[1]
    if left + width - 1 > arguments.SHEET_COLUMNS or top + height - 1 > arguments.SHEET_ROWS:
        raise SizeError("the result does not fit right of the selection: select cells further left")
    target = sheet.range(top, left, top + height - 1, left + width - 1)
    if any(v is not None and v != "" for row in cells(target) for v in row):
        raise OptionError(
            f"the cells {a1(target)} right of the selection are not empty: the result "
            "goes there, so clear them or move the list"
        )
    return target


def ticket_column(sheet: Sheet, rng: Range, given: str, option: str = "tickets") -> int | None:
    """The sheet column (1-based) of a raffle's tickets: the selected column headed
    ``given`` in the row above the selection (case and spaces around it ignored), else
    the selected column whose letters ``given`` is; None for an empty ``given`` (every
    row one ticket). Anything else is refused, saying what the header row holds, the
    message naming ``argument`` (``tickets``, or ``ids`` for a ticket draw's IDs)."""
    text = given.strip()
    if not text:
        return None
    left, width = rng.column, rng.shape[1]
    heads: list[str] = []
    if rng.row > 1:
        above = sheet.range(rng.row - 1, left, rng.row - 1, left + width - 1)
        heads = [log_text(v).strip() for v in cells(above)[0]]
        found = [j for j, head in enumerate(heads) if head.casefold() == text.casefold()]
        if len(found) > 1:
            raise OptionError(
                f"{option}: {len(found)} selected columns are headed {text!r} in row "
                f"{rng.row - 1}: name the {option} column by its letter instead"
            )
        if found:
            return int(left + found[0])
    if re.fullmatch("[A-Za-z]{1,3}", text):
        column = col_index(text)
        if left <= column < left + width:
            return column
        raise OptionError(
            f"{option}: column {text.upper()} is not in the selection {a1(rng)}: select the "
            f"{option} column with the list, or name a selected column"
        )
    shown = ", ".join(repr(h) for h in heads if h)[:120] or "nothing"
    raise OptionError(
        f"{option}: no selected column is headed {text!r} (the row above the selection "
        f"holds {shown}): name the {option} column by its header or its letter, or leave "
        f"{option} empty"
        + (" for one ticket each" if option == "tickets" else " for the first column")
    )


# --------------------------------------------------------------------------- the log


def log_sheet(book: Book) -> tuple[Sheet, Rows] | None:
    """The log sheet and its rows (header first; none for an empty sheet), or None.

    Read before anything is written, so that a sheet of that name which is not a log
    refuses the command while the workbook is still untouched.
    """
    for sheet in book.sheets:
        if sheet.name.casefold() == LOG_SHEET.casefold():
            rows = cells(sheet.range(1, 1, *_corner(sheet.used_range)))
            if all(v is None or v == "" for v in rows[0]):
                return sheet, []
            if [str(v).strip() for v in rows[0][:3]] != list(LOG_COLUMNS[:3]):
                raise WorkbookError(
                    f"the sheet {LOG_SHEET!r} is not an xlshuffle draw log (its first row "
                    f"is not {', '.join(LOG_COLUMNS[:3])}, ...): rename that sheet"
                )
            return sheet, rows
    return None


def _corner(used: Range) -> tuple[int, int]:
    """The log's last cell: its last used row, in the log's own columns only."""
    last = used.row + used.shape[0] - 1
    if last > MAX_LOG_ROWS:
        raise SizeError(
            f"the sheet {LOG_SHEET!r} reaches row {last:,}; a log holds at most "
            f"{MAX_LOG_ROWS:,} rows: rename that sheet to start a new log"
        )
    return last, len(LOG_COLUMNS) + len(COMMIT_COLUMNS)


def write(rng: Range, values: Rows) -> None:
    """Write plain values: texts stay texts, numbers numbers, errors errors."""
    rng.write(values)


def write_text(rng: Range, values: Rows) -> None:
    rng.write_text(values)


def append(
    book: Book, log: tuple[Sheet, Rows] | None, draw: Draw, more: Sequence[str] = ()
) -> None:
    """Append the draw's row to the log, followed by ``more``: the values of
    :data:`COMMIT_COLUMNS` of a committed draw."""
    append_row(book, log, [*draw.log_row(), *more])


def append_row(book: Book, log: tuple[Sheet, Rows] | None, row: list[str]) -> None:
    """Append a row of texts to the log (created with its header row when missing). A
    log begun before the columns the row fills were added gets their header cells first."""
    columns = [*LOG_COLUMNS, *COMMIT_COLUMNS][: max(len(row), len(LOG_COLUMNS))]
    if log is None:
        log = book.add_sheet(LOG_SHEET), []
    sheet, rows = log
    added = LOG_COLUMNS.index("reserves")
    if rows and not all(log_text(v) for v in rows[0][added : len(columns)]):
        header = sheet.range(1, added + 1, 1, len(columns))
        write_text(header, [columns[added:]])
    lines = [] if rows else [columns]
    lines.append(row + [""] * (len(columns) - len(row)))
    top = len(rows) + 1
    write_text(sheet.range(top, 1, top + len(lines) - 1, len(columns)), lines)
