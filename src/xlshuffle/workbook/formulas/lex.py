"""Formula lexing for :mod:`.formulas`: the cheap shape key a formula is cached by (see
:mod:`.translate` for why it is sound), and what the package shares: the formula length
limit, column letters and :class:`FormulaMoveError`."""

from __future__ import annotations

import re
from itertools import chain, islice, product
from string import ascii_uppercase
from typing import Final

from ..scan.refs import MAX_COL, col_letters

__all__ = [
    "COL_LETTERS",
    "MAX_FORMULA_LENGTH",
    "FormulaMoveError",
    "ShapeKey",
    "cheap_parts",
    "column_letter",
    "shape_key",
]

MAX_FORMULA_LENGTH: Final = 8_192
"""Excel's limit on the length of a formula, in characters, without the leading ``=``."""

#: The letters of each column by its number (``COL_LETTERS[1] == "A"``), to XFD, unchecked:
#: A-Z, then AA-ZZ, then AAA-XFD, in the order of :func:`itertools.product` (a sixth of the
#: time of 16,384 calls to ``col_letters``, at every start).
COL_LETTERS: Final[tuple[str, ...]] = (
    "",
    *islice(
        chain.from_iterable(map("".join, product(ascii_uppercase, repeat=k)) for k in (1, 2, 3)),
        MAX_COL,
    ),
)


def column_letter(index: int) -> str:
    """Return the letters of column `index` (1 is ``A``, 16,384 is ``XFD``), checked.

    :func:`~xlshuffle.workbook.scan.refs.col_letters` with the column's bounds enforced.

    Parameters
    ----------
    index : int
        Column number, 1 to 16,384.

    Returns
    -------
    str
        The column letters.

    Raises
    ------
    ValueError
        If `index` is not a column of the sheet.

    Examples
    --------
    >>> column_letter(1), column_letter(28), column_letter(16384)
    ('A', 'AB', 'XFD')
    """
    if not 1 <= index <= MAX_COL:
        raise ValueError(f"column {index} is not between 1 and {MAX_COL}")
    return col_letters(index)


class FormulaMoveError(Exception):
    """A formula that cannot move.

    A reference would leave the sheet (row < 1 or > 1,048,576, column < A or > XFD), a
    reference is not inside the sheet to start with, the formula is longer than 8,192
    characters, or openpyxl cannot tokenize it.

    Parameters
    ----------
    reason : str
        A short human phrase, e.g. ``"reference B1 would move above row 1"``; kept in
        :attr:`reason` so that the engine can wrap it into a one-line error naming the
        file and cell.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# Public as xlshuffle.workbook.formulas.translate.FormulaMoveError, which is how tracebacks name it.
FormulaMoveError.__module__ = "xlshuffle.workbook.formulas.translate"


# ----------------------------------------------------------------------------- cheap pass

_WORD: Final = r"\w$.\\?"  # characters that glue onto a reference and make it a name
_ROWS: Final = r"[1-9][0-9]{0,6}"  # openpyxl's row pattern (ASCII digits only)
_UNITS: Final = (  # skipped whole, kept verbatim
    r'"[^"]*(?:""[^"]*)*"'  # a string literal
    r"|'[^']*(?:''[^']*)*'"  # a quoted sheet or book name
    r"|\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]"  # [1], [@Col], [[#This Row],[Col]]
    r"|\#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|GETTING_DATA)"  # openpyxl's errors
)
_SLOT: Final = (  # group 2: what precedes a relative row part in its reference; group 3: it
    rf"((?<![{_WORD}])(?:\$?[A-Za-z]{{1,3}}|\${_ROWS}:|(?={_ROWS}:\$?{_ROWS}(?![{_WORD}(])))"
    rf"|(?<=[0-9]):)({_ROWS})(?![{_WORD}(])"
)
_LEX: Final = re.compile(f"({_UNITS})|{_SLOT}")
# Every alternative is linear: the quantified groups start with a character that the
# quantifier before them cannot match, so nothing backtracks more than once per position,
# and a failed string or bracket alternative means no closer exists further on.
_SPLIT: Final = _LEX.split

#: What :func:`shape_key` returns: formulas with one key share one template.
ShapeKey = tuple[str | int | None, ...]


def shape_key(text: str, src_row: int, src_col: int) -> ShapeKey:
    """Return the shape key of `text` in the cell at `src_row`, `src_col`.

    ``_LEX.split`` gives ``[text, unit, prefix, row, text, unit, prefix, row, ..., text]``;
    each relative row part becomes its offset from `src_row` and the source column is
    appended (columns stay verbatim, so shapes are shared along a column, which is what
    a row shuffle moves).
    """
    parts: list[str | int | None] = _SPLIT(text)
    if len(parts) == 5:  # one match, the common case
        row = parts[3]
        if row is not None:
            parts[3] = int(row) - src_row
    elif len(parts) > 5:
        parts[3::4] = [None if r is None else int(r) - src_row for r in parts[3::4]]
    parts.append(src_col)
    return tuple(parts)


def cheap_parts(text: str) -> list[tuple[int, int]]:
    """Return ``(start, end)`` of every relative row part that the shape key abstracts."""
    return [m.span(3) for m in _LEX.finditer(text) if m.lastindex == 3]
