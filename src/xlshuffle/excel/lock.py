"""Draw and lock: draw once on the selection, write plain values, log how to replay it.

An unseeded worksheet function draws again whenever Excel recomputes it, and Excel on
the web and xlwings Lite recompute more often than people expect (docs/excel.md,
"When formulas recompute"). The commands here draw once, write the result as plain
values (``.value`` only: formatting stays) and append a row to the ``Draw log`` sheet
that says how anyone can recompute the draw:

- :func:`shuffle_rows`: shuffle the selected rows in place (``=SHUFFLE``).
- :func:`draw_winners`: draw ``k`` of the selected rows, in draw order (``=SAMPLE``).
- :func:`deal_cards`: deal ``cards`` cards to ``hands`` hands from the selected cells,
  read row by row (``=DEAL``).
- :func:`assign_groups`: a group number 1..k for each selected row (``=GROUPS``).
- :func:`restore_last_draw`: undo the newest draw of the log not yet restored.
- :func:`write_seed`: write a fresh seed, as text, into the selected cell.

Winners, deals and groups are written into the cells right of the selection (the
column after its last one), which must be empty. The seed is the value of the cell
named ``SEED`` (a defined name) when that cell is filled, else a fresh seed from the
operating system (:func:`~xlshuffle.draw.new_seed`).

Each function takes a workbook with xlwings' ``Book`` API: the Office.js book that
xlwings Lite and Server hand to a script, or the COM book of the Windows add-in. It
raises an :class:`~xlshuffle.XlshuffleError` with a one-line message for a mistake, before
anything is written. The runtime wrappers are in :mod:`xlshuffle.excel.scripts` (Lite,
Server) and :mod:`xlshuffle.excel.subs` (Windows add-in).
"""

from __future__ import annotations

import datetime as dt
import sys
from typing import Any

from ..draw.errors import OptionError, SeedError, ShapeError, SizeError, WorkbookError
from ..draw.protocol import new_seed, normalise_seed
from . import _cells
from ._lockcore import LOG_COLUMNS, Draw, Rows, log_entry, log_text, plan, undo, values_sha256

__all__ = [
    "LOG_SHEET",
    "SEED_NAME",
    "assign_groups",
    "deal_cards",
    "draw_winners",
    "message",
    "restore_last_draw",
    "shuffle_rows",
    "write_seed",
]

#: The sheet the draws are logged on (created with a header row when missing).
LOG_SHEET = "Draw log"
#: The defined name of the optional seed cell.
SEED_NAME = "SEED"
#: The most cells a command reads: a whole column selected by mistake is refused.
MAX_CELLS = 1_000_000
#: The longest seed a locked draw takes: Excel keeps at most 255 characters of a text
#: in a formula, and the log's formula quotes the seed.
MAX_SEED = 255
#: The most rows the ``Draw log`` sheet may reach: it is read whole at each draw.
MAX_LOG_ROWS = MAX_CELLS // 16

_TEXT = "@"  # the number format that keeps what is written as text


def _version() -> str:
    """The running xlshuffle's version, for the log.

    The excel layer may not import the package root (tests/test_layers.py), but importing
    this module has loaded it, so its ``__version__`` is at hand: in an installed
    package, in a source checkout and in the Lite bundle, which has no distribution
    metadata.
    """
    return str(sys.modules[__name__.partition(".")[0]].__version__)


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def message(command: str, exc: BaseException) -> str:
    """The one line a runtime shows for a command that failed (:func:`._cells.report`)."""
    return _cells.report(command, exc)


def _number(value: Any) -> Any:
    """A count typed into a form's text box ("3") as the number it reads as."""
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return value
    return value


def _address(rng: Any) -> str:
    return str(rng.get_address(False, False))


def _values(rng: Any) -> Rows:
    value = rng.options(ndim=2, err_to_str=True).value
    return [list(row) for row in value]


# --------------------------------------------------------------------------- reading


def _selection(book: Any, *, least_rows: int = 2) -> tuple[Any, Any, Rows]:
    """The selected range, its sheet and its values; a selection that cannot be drawn
    from is refused by name."""
    rng = _selected(book)
    address = _address(rng)
    rows, columns = rng.shape
    if rows >= _cells.SHEET_ROWS or columns >= _cells.SHEET_COLUMNS:
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
    values = _values(rng)
    _cells.rows("the selection", values, values=True)
    return rng.sheet, rng, values


def _selected(book: Any) -> Any:
    """The selected block of cells; a shape, nothing or several areas are refused."""
    try:
        rng = book.selection
        address = None if rng is None else _address(rng)
    except Exception:  # the Office.js book cannot parse a selection of several areas
        rng = address = None
    if rng is None or address in (None, "", "None") or "," in address or ";" in address:
        raise ShapeError(
            "select one block of cells first (nothing, a shape or several areas are selected)"
        )
    return rng


def _seed(book: Any) -> tuple[str, str]:
    """The seed text and where it came from: the SEED cell when filled, else the OS."""
    cell = _seed_cell(book)
    if cell is not None:
        value = cell.options(err_to_str=True).value
        if not (value is None or value == ""):
            where = f"{cell.sheet.name}!{_address(cell)}"
            try:
                value = _cells.seed(value)
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


def _seed_cell(book: Any) -> Any:
    for name in book.names:
        if name.name.rpartition("!")[2].upper() != SEED_NAME:
            continue
        try:
            cell = name.refers_to_range
        except Exception:  # a name that is a constant or a formula, not a cell
            cell = None
        if cell is None or cell.shape != (1, 1):
            raise SeedError(f"the name {name.name} must refer to one cell, the seed cell")
        return cell
    return None


def _beside(sheet: Any, rng: Any, height: int, width: int) -> Any:
    """The empty block right of the selection where a result goes."""
    top, left = rng.row, rng.column + rng.shape[1]
    if left + width - 1 > _cells.SHEET_COLUMNS or top + height - 1 > _cells.SHEET_ROWS:
        raise SizeError("the result does not fit right of the selection: select cells further left")
    target = sheet.range((top, left), (top + height - 1, left + width - 1))
    if any(v is not None and v != "" for row in _values(target) for v in row):
        raise OptionError(
            f"the cells {_address(target)} right of the selection are not empty: the result "
            "goes there, so clear them or move the list"
        )
    return target


# --------------------------------------------------------------------------- the log


def _log(book: Any) -> tuple[Any, Rows] | None:
    """The log sheet and its rows (header first; none for an empty sheet), or None.

    Read before anything is written, so that a sheet of that name which is not a log
    refuses the command while the workbook is still untouched.
    """
    for sheet in book.sheets:
        if sheet.name.casefold() == LOG_SHEET.casefold():
            rows = _values(sheet.range((1, 1), _corner(sheet.used_range)))
            if all(v is None or v == "" for v in rows[0]):
                return sheet, []
            if [str(v).strip() for v in rows[0][:3]] != list(LOG_COLUMNS[:3]):
                raise WorkbookError(
                    f"the sheet {LOG_SHEET!r} is not an xlshuffle draw log (its first row "
                    f"is not {', '.join(LOG_COLUMNS[:3])}, ...): rename that sheet"
                )
            return sheet, rows
    return None


def _corner(used: Any) -> tuple[int, int]:
    """The log's last cell: its last used row, in the log's own columns only."""
    last = used.row + used.shape[0] - 1
    if last > MAX_LOG_ROWS:
        raise SizeError(
            f"the sheet {LOG_SHEET!r} reaches row {last:,}; a log holds at most "
            f"{MAX_LOG_ROWS:,} rows: rename that sheet to start a new log"
        )
    return last, len(LOG_COLUMNS)


def _entry(value: Any) -> Any:
    """What to write through ``.value`` so that the cell holds exactly ``value``.

    Excel takes a text written through ``.value`` (Office.js and COM alike) as if it were
    typed: ``=1+1`` becomes a live formula, ``007`` the number 7, ``1/2`` a date, ``TRUE``
    a boolean, and a leading apostrophe vanishes. An apostrophe in front (Excel's quote
    prefix, which is not part of the value) keeps any text as it is. The error codes go
    bare, so that an error cell stays that error.
    """
    if isinstance(value, str) and value and value not in _cells.ERROR_TEXTS:
        return "'" + value
    return value


def _write(rng: Any, values: Rows) -> None:
    """Write plain values: texts stay texts, numbers numbers, errors errors."""
    rng.value = [[_entry(v) for v in row] for row in values]


def _write_text(rng: Any, values: Rows) -> None:
    rng.number_format = _TEXT  # before the values: a cell typed later stays text too
    _write(rng, values)


def _append(book: Any, log: tuple[Any, Rows] | None, draw: Draw) -> None:
    if log is None:
        active = book.sheets.active
        sheet = book.sheets.add(name=LOG_SHEET, after=book.sheets[len(book.sheets) - 1])
        active.activate()
        log = sheet, []
    sheet, rows = log
    lines = [] if rows else [list(LOG_COLUMNS)]
    lines.append(draw.log_row())
    top = len(rows) + 1
    _write_text(sheet.range((top, 1), (top + len(lines) - 1, len(LOG_COLUMNS))), lines)


# --------------------------------------------------------------------------- commands


def _lock(book: Any, mode: str, k: int | None = None, hands: int | None = None) -> Draw:
    sheet, rng, rows = _selection(book, least_rows=1 if mode == "deal" else 2)
    if mode == "deal" and len(rows) * len(rows[0]) < 2:
        raise SizeError("the selection is one cell: select the cards, at least 2 cells")
    if mode == "winners" and k is not None and k > len(rows):
        raise SizeError(
            f"cannot draw {k} winners from {len(rows)} rows: draw fewer or select more rows"
        )
    seed, seed_from = _seed(book)
    log = _log(book)
    output = plan(mode, rows, seed, k, hands)
    target = rng if mode == "shuffle" else _beside(sheet, rng, len(output), len(output[0]))
    draw = Draw(
        mode=mode,
        sheet=sheet.name,
        address=_address(rng),
        book=book.name,
        seed=seed,
        seed_from=seed_from,
        version=_version(),
        time=_now(),
        rows=rows,
        output=output,
        output_address=_address(target),
        k=k,
        hands=hands,
    )
    _write(target, output)
    _append(book, log, draw)
    return draw


def shuffle_rows(book: Any) -> Draw:
    """Shuffle the selected rows in place (each row stays together) and log the draw."""
    return _lock(book, "shuffle")


def draw_winners(book: Any, k: Any = 1) -> Draw:
    """Draw ``k`` of the selected rows, in draw order, into the cells right of them."""
    return _lock(book, "winners", k=_cells.count("k", _number(k)))


def deal_cards(book: Any, cards: Any = 5, hands: Any = 1) -> Draw:
    """Deal from the selected cells (read row by row): one column per hand, right of them."""
    n_cards = _cells.count("cards", _number(cards), most=_cells.SHEET_ROWS)
    n_hands = _cells.count("hands", _number(hands), most=_cells.SHEET_COLUMNS)
    return _lock(book, "deal", k=n_cards, hands=n_hands)


def assign_groups(book: Any, k: Any = 2) -> Draw:
    """Write a group number 1..k for each selected row in the column right of them."""
    return _lock(book, "groups", k=_cells.count("k", _number(k)))


def write_seed(book: Any) -> str:
    """Write a fresh seed from the operating system, as text, into the selected cell."""
    rng = _selected(book)
    if rng.shape != (1, 1):
        raise ShapeError(f"select one cell for the seed, not {_address(rng)}")
    seed = new_seed()
    _write_text(rng, [[seed]])
    return seed


def restore_last_draw(book: Any) -> str:
    """Put back what the newest draw of the log not yet restored replaced; mark it restored.

    A shuffle gets its original row order back (recomputed from the seed); winners,
    deals and groups are cleared (their cells were empty before). Refused when the
    cells no longer hold what the draw wrote (the log's output SHA-256).
    """
    log = _log(book)
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
        ),
        None,
    )
    if index is None:
        raise WorkbookError(f"the {LOG_SHEET!r} sheet lists no draw to restore")
    entry = log_entry(rows[index], f"row {index + 1} of {LOG_SHEET!r}", most=MAX_CELLS)
    try:
        target = book.sheets[entry["sheet"]].range(entry["output"])
    except Exception:
        raise WorkbookError(
            f"the sheet {entry['sheet']!r} or its range {entry['output']!r} of the draw at "
            f"{entry['time (UTC)']} is gone: nothing was restored"
        ) from None
    current = _values(target)
    if values_sha256(current) != entry["output sha256"]:
        raise WorkbookError(
            f"{entry['sheet']}!{entry['output']} changed since the draw at "
            f"{entry['time (UTC)']} (its values no longer match the log's output sha256): "
            "nothing was restored"
        )
    if entry["mode"] == "shuffle":
        before = undo("shuffle", current, entry["seed"])
        if values_sha256(before) != entry["input sha256"]:
            raise WorkbookError(
                f"undoing the draw at {entry['time (UTC)']} does not give the logged input "
                "back (input sha256 differs): nothing was restored"
            )
        _write(target, before)
    else:
        target.clear_contents()
    _write_text(sheet.range((index + 1, column["restored (UTC)"] + 1)), [[_now()]])
    return f"{entry['sheet']}!{entry['output']}"
