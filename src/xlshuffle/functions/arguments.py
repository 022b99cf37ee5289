"""Reading worksheet-function arguments: every check of what a cell may hold, in one place.

Each reader takes an argument as a spreadsheet hands it over (a range as a list of rows;
from xlwings, error cells as their text, see ``err_to_str`` in :mod:`xlshuffle.excel`; from
Calc, tuples of rows, see :mod:`xlshuffle.calc`) and returns what the core expects, or raises an
:class:`~xlshuffle.XlshuffleError` whose message names the argument and says what to
change. Sizes are checked before anything is allocated, so an absurd count (``1E+15``
hands) is refused at once instead of filling memory.

A text that reads exactly like an error code (``"#N/A"``) cannot be told from an error
cell once xlwings has converted it, so one-cell arguments refuse both: an error upstream
is never taken for "argument omitted".
"""

from __future__ import annotations

import datetime as dt
import math
import numbers
import re
from collections.abc import Sequence
from typing import Any

from ..common.a1 import MAX_COL, MAX_ROW
from ..draw.errors import OptionError, SeedError, ShapeError, SizeError, XlshuffleError
from ..draw.protocol import excel_serial

Rows = list[list[Any]]

#: The largest whole number a cell holds exactly (Excel numbers are doubles).
MAX_WHOLE = 2**53
#: A worksheet's rows and columns: a result that spills further cannot be shown.
SHEET_ROWS = MAX_ROW
SHEET_COLUMNS = MAX_COL
#: The most cells DEAL draws: its work and memory grow with cards x hands.
MAX_DEALT = SHEET_ROWS

# What an error cell reads as with err_to_str.
ERROR_TEXTS = frozenset(
    {
        "#NULL!",
        "#DIV/0!",
        "#VALUE!",
        "#REF!",
        "#NAME?",
        "#NUM!",
        "#N/A",
        "#GETTING_DATA",
        "#SPILL!",
        "#CALC!",
        "#FIELD!",
        "#BLOCKED!",
        "#CONNECT!",
        "#BUSY!",
        "#UNKNOWN!",
    }
)

_SURROGATE = re.compile("[\ud800-\udfff]")
# Python refuses str() of an int longer than this many digits (sys.int_info); a cell's
# number never comes close, but a Python caller's could.
_MAX_INT_BITS = 4000 * 332 // 100


#: The longest message a cell or a task pane is given.
MAX_MESSAGE = 300


def message(name: str, exc: BaseException | str) -> str:
    """``"NAME: what to change"`` as Excel is given it: one line, at most
    :data:`MAX_MESSAGE` characters, encodable as UTF-8 (a lone surrogate is escaped)."""
    text = " ".join(f"{name}: {exc}".split())
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def report(name: str, exc: BaseException) -> str:
    """The one line any exception is shown as (:func:`message`): a mistake
    (:class:`~xlshuffle.XlshuffleError`) and a missing package (``ImportError``) by their
    own message, which says what to change; anything else is a bug in xlshuffle and says
    so, with the exception's type and text.

    >>> report("SAMPLE", KeyError("k"))
    "SAMPLE: internal error, please report it with the arguments: KeyError: 'k'"
    """
    if isinstance(exc, (XlshuffleError, ImportError)):
        return message(name, exc)
    detail = f"{type(exc).__name__}: {exc}"
    return message(name, f"internal error, please report it with the arguments: {detail}")


def show(value: Any) -> str:
    """A short, one-line, printable description of a value for an error message."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40])[:-1] + "...'"
    if isinstance(value, numbers.Integral) and int(value).bit_length() > 64:
        return f"a number of about {int(value).bit_length() * 30103 // 100000 + 1} digits"
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text  # 3.0 as a cell shows it: 3
    if isinstance(value, numbers.Real):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "a range"
    return f"a {type(value).__name__}"


def error_text(value: Any) -> str | None:
    """The error code a cell shows (``"#N/A"``...), or None for any other value."""
    if isinstance(value, str) and len(value) < 16:
        code = value.strip().upper()
        if code in ERROR_TEXTS:
            return code
    return None


def _surrogate(text: str) -> str | None:
    """Where a text holds half of a UTF-16 pair (text that no file or cell can store)."""
    if text.isascii():
        return None
    found = _SURROGATE.search(text)
    if found is None:
        return None
    code, position = ord(found.group()), found.start() + 1
    return f"a broken character (lone surrogate U+{code:04X}) at position {position}"


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value == "")


def one_cell(name: str, value: Any, *, optional: bool = True) -> Any:
    """The value of a one-cell argument; an error cell or a range is a mistake."""
    if isinstance(value, (list, tuple)):
        raise OptionError(f"{name} must be one cell, not a range: point it at a single cell")
    code = error_text(value)
    if code is not None:
        hint = f", or leave {name} empty for the default" if optional else ""
        raise OptionError(f"{name} shows the error {code}: fix that cell{hint}")
    return value


def seed(value: Any) -> Any:
    """A seed cell as the core takes it; empty stays empty (a fresh draw)."""
    code = error_text(value)
    if code is not None:
        raise SeedError(
            f"the seed cell shows the error {code}: fix that cell, "
            "or leave the seed empty to draw afresh"
        )
    if isinstance(value, Sequence) and not isinstance(value, str):
        raise SeedError("the seed must be one cell, not a range: point it at a single cell")
    if isinstance(value, str) and (where := _surrogate(value)):
        raise SeedError(f"the seed holds {where}: retype the seed")
    if isinstance(value, numbers.Integral) and int(value).bit_length() > _MAX_INT_BITS:
        raise SeedError(f"a seed number must have at most 4000 digits, not {show(value)}")
    return value


def count(
    name: str,
    value: Any,
    *,
    default: int | None = None,
    most: int = MAX_WHOLE,
    why: str = "",
    least: int = 1,
) -> int:
    """A whole number from ``least`` (1 or 0) to ``most`` from one cell (``default`` when
    it is empty)."""
    value = one_cell(name, value, optional=default is not None)
    if _is_empty(value):
        if default is None:
            raise SizeError(f"{name} is empty: give a whole number of {least} or more")
        return default
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SizeError(f"{name} must be a whole number of {least} or more, not {show(value)}")
    if isinstance(value, numbers.Integral):
        n = int(value)
    else:
        try:
            number = float(value)
        except (OverflowError, ValueError):
            number = math.nan
        if not number.is_integer():  # also NaN and infinities
            raise SizeError(f"{name} must be a whole number of {least} or more, not {show(value)}")
        n = int(number)
    if n < least:
        empty = ": the result would be empty" if least == 1 else ""
        raise SizeError(f"{name} must be {least} or more, not {show(value)}{empty}")
    if n > most:
        raise SizeError(f"{name} must be at most {most:,}{why}, not {show(value)}")
    return n


def flag(name: str, value: Any) -> bool:
    """TRUE or FALSE from one cell (1 and 0 too); empty is FALSE."""
    value = one_cell(name, value)
    if _is_empty(value):
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Real) and value in (0, 1):
        return bool(value)
    raise OptionError(f"{name} must be TRUE or FALSE, not {show(value)}")


def option(name: str, value: Any, choices: str) -> str | None:
    """The text of a one-cell option such as ``by``, or None when it is empty."""
    value = one_cell(name, value)
    if _is_empty(value):
        return None
    if not isinstance(value, str):
        raise OptionError(f"{name} must be one of {choices}, not {show(value)}")
    return value


def text(name: str, value: Any) -> str:
    """The text of one cell as Excel shows it in General format (numbers without '.0');
    a date is its serial number, as Office.js hands it over, in every runtime."""
    value = one_cell(name, value, optional=False)
    if value is None:
        return ""
    if isinstance(value, str):
        if where := _surrogate(value):
            raise OptionError(f"{name} holds {where}: retype that character")
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.date):  # the Windows add-in's date cell; Office.js sends a serial
        value = excel_serial(value)
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except (OverflowError, ValueError):
            number = math.nan
        if not math.isfinite(number):
            raise OptionError(f"{name} must be a text or a finite number, not {show(value)}")
        return str(int(number)) if number.is_integer() else repr(number)
    raise OptionError(f"{name} must be one cell with text or a number, not {show(value)}")


def rows(name: str, data: Any, *, values: bool = False) -> Rows:
    """The cells of a range argument as a list of rows, every cell checked, none changed.

    xlwings hands a range over as a list of rows (``ndim=2``); a single empty cell
    arrives as ``None`` and a single value from Python as itself. A flat list from Python
    is one row, as xlwings writes a flat list. With ``values``, a range of only empty
    cells is a mistake (nothing to draw from).
    """
    if data is None or isinstance(data, str) or not isinstance(data, Sequence):
        grid: Rows = [[data]]
    elif not data:
        raise SizeError(f"{name} is an empty range: select at least one cell")
    elif isinstance(data, list) and all(isinstance(row, list) for row in data):
        grid = data  # what xlwings passes: the core copies, so no copy here
    elif all(isinstance(row, Sequence) and not isinstance(row, str) for row in data):
        grid = [list(row) for row in data]
    else:
        grid = [list(data)]
    _check_cells(name, grid, values)
    return grid


def per_item(name: str, value: Any, n: int, noun: str) -> list[Any]:
    """One value per item of ``data`` (``n`` of them) from a one-column or one-row range,
    read by SAMPLE's ``weights``, SAMPLEBY's ``strata``... An error cell is refused by
    its position: unlike a data cell, it would be read as a ticket count or a label."""
    grid = rows(name, value)
    if len(grid) > 1 and len(grid[0]) > 1:
        raise ShapeError(
            f"{name} is {len(grid)} rows by {len(grid[0])} columns: give one column "
            f"(or one row) with a cell for each {noun} of data"
        )
    cells = [cell for row in grid for cell in row]
    if len(cells) != n:
        raise SizeError(
            f"{name} has {len(cells):,} cells but data has {n:,} {noun}s: give one {name} "
            f"cell for each {noun} of data"
        )
    for i, cell in enumerate(cells, 1):
        code = error_text(cell)
        if code is not None:
            raise OptionError(f"{name}, {noun} {i} shows the error {code}: fix that cell")
    return cells


def labels(name: str, cells: list[Any], noun: str, *, blank: bool) -> list[Any]:
    """``cells`` as stratum labels or IDs: TRUE and FALSE as the texts the cells show (as
    in the sheet saved as CSV); an empty cell is refused unless ``blank`` allows it (a
    blank ID is never excluded)."""
    out = []
    for i, cell in enumerate(cells, 1):
        if isinstance(cell, bool):
            cell = "TRUE" if cell else "FALSE"
        elif not blank and (cell is None or (isinstance(cell, str) and not cell.strip())):
            raise OptionError(f"{name}, {noun} {i} is empty: give every {noun} a text or a number")
        out.append(cell)
    return out


def listed(name: str, value: Any) -> list[Any]:
    """The values of a range read cell by cell, row by row (``exclude``'s IDs); an error
    cell is refused by its position."""
    cells = [cell for row in rows(name, value) for cell in row]
    for i, cell in enumerate(cells, 1):
        code = error_text(cell)
        if code is not None:
            raise OptionError(f"{name}, cell {i} shows the error {code}: fix that cell")
    return cells


def deck(value: Any) -> int | list[Any] | None:
    """DEAL's deck: None (52 cards), a number N (1 to N) or the values of a range."""
    if value is None:
        return None
    grid = rows("deck", value)
    if len(grid) == 1 and len(grid[0]) == 1:
        cell = grid[0][0]
        if isinstance(cell, numbers.Real) or error_text(cell):
            return count("deck", cell)
    cards = [cell for row in grid for cell in row]
    if all(_is_empty(cell) for cell in cards):
        raise SizeError("deck has only empty cells: leave it empty for 52 cards, or fill it")
    return cards


def _check_cells(name: str, grid: Rows, values: bool) -> None:
    width = len(grid[0])
    if width == 0:
        raise SizeError(f"{name} is an empty range: select at least one cell")
    filled = not values
    for r, row in enumerate(grid, 1):
        if len(row) != width:
            raise ShapeError(
                f"{name}: row {r} has {len(row)} cells but row 1 has {width}: "
                "every row must have the same number of cells"
            )
        for c, cell in enumerate(row, 1):
            if type(cell) is str:  # the common case first, without a call
                if not cell.isascii() and (where := _surrogate(cell)):
                    raise OptionError(
                        f"{name}: the cell in row {r}, column {c} holds {where}: "
                        "retype that character"
                    )
                filled = filled or cell != ""
            elif cell is not None:
                _check_value(name, r, c, cell)
                filled = True
    if not filled:
        raise SizeError(f"{name} has only empty cells: select the cells that hold the values")


def _check_value(name: str, r: int, c: int, cell: object) -> None:
    """A cell that is neither text nor empty: a finite number, a date, a boolean..."""
    if type(cell) is float and not math.isfinite(cell):
        raise OptionError(
            f"{name}: the cell in row {r}, column {c} is {cell!r}, not a number "
            "Excel can show: put a finite number or a text there"
        )
    if isinstance(cell, (list, tuple, dict, set)):
        raise ShapeError(
            f"{name}: the cell in row {r}, column {c} holds {show(cell)}, "
            "not a value: pass a list of rows of values"
        )
    if type(cell) is int and cell.bit_length() > 1024:
        raise OptionError(
            f"{name}: the cell in row {r}, column {c} holds {show(cell)}, more than Excel can show"
        )
