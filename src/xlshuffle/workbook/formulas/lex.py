"""Formula lexing for :mod:`.formulas`: sheet bounds, the cheap shape key, and openpyxl's
reference patterns mirrored (see :mod:`.formulas` for why the key is sound)."""

from __future__ import annotations

import re
from typing import Final

from openpyxl.formula.tokenizer import Tokenizer
from openpyxl.formula.translate import Translator

from ..scan.refs import MAX_COL, MAX_ROW, col_letters

MAX_FORMULA_LENGTH: Final = 8_192
"""Excel's limit on the length of a formula, in characters, without the leading ``=``."""
CACHE_SIZE: Final = 4_096
"""Shapes a :class:`FormulaMover` keeps; the cache is emptied when it is full."""

# openpyxl's reference columns go up to ZZZ; we index all of them (errors come from bounds).
_LAST_LETTERS_COL: Final = 18_278


_COL_LETTERS: Final[tuple[str, ...]] = tuple(col_letters(i) for i in range(MAX_COL + 1))
_COL_INDEX: Final[dict[str, int]] = {col_letters(i): i for i in range(1, _LAST_LETTERS_COL + 1)}


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

_Key = tuple[str | int | None, ...]


def _shape_key(text: str, src_row: int, src_col: int) -> _Key:
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


def _cheap_parts(text: str) -> list[tuple[int, int]]:
    """Return ``(start, end)`` of every relative row part that the shape key abstracts."""
    return [m.span(3) for m in _LEX.finditer(text) if m.lastindex == 3]


# ------------------------------------------------------------ openpyxl's translate_range

_ROW_RANGE_RE: Final = Translator.ROW_RANGE_RE
_COL_RANGE_RE: Final = Translator.COL_RANGE_RE
_CELL_REF_RE: Final = Translator.CELL_REF_RE
_WSPACE_RE: Final = Tokenizer.WSPACE_RE
# openpyxl rescans the rest of the formula at every "[": refuse what would take ~1/4 s.
_BRACKET_WORK: Final = 4_000_000
_QUOTED_RE: Final = re.compile(r"'[^']*(?:''[^']*)*'|\[[^\[\]]*\]")

# A part: (start in token value, end, is_column, text). `exact` is False when a regex
# matched before a trailing newline (openpyxl then drops the newline).
_Part = tuple[int, int, bool, str]


def _range_parts(value: str) -> tuple[list[_Part], bool, int, bool]:
    """Mirror ``Translator.translate_range``: the row and column parts it rewrites.

    Returns the parts, whether the matches covered the pieces exactly, where the reference
    proper starts (after any ``Sheet!`` prefix), and whether it is a run of cell
    references (not whole rows or columns, and no piece that is a name).
    """
    base = value.rfind("!") + 1
    rest = value[base:]
    for regex, is_col in ((_ROW_RANGE_RE, False), (_COL_RANGE_RE, True)):
        m = regex.match(rest)
        if m is not None:
            parts = [(base + m.start(g), base + m.end(g), is_col, m.group(g)) for g in (1, 2)]
            return parts, m.end() == len(rest), base, False
    parts = []
    exact = cells = True
    offset = base
    for piece in rest.split(":"):
        m = _CELL_REF_RE.match(piece)
        if m is None:
            cells = False
        else:
            parts.append((offset + m.start(1), offset + m.end(1), True, m.group(1)))
            parts.append((offset + m.start(2), offset + m.end(2), False, m.group(2)))
            exact = exact and m.end() == len(piece)
        offset += len(piece) + 1
    return parts, exact, base, cells


def _part_value(part: _Part) -> int:
    digits = part[3].lstrip("$")
    return _COL_INDEX[digits.upper()] if part[2] else int(digits)


def _describe(ref: str, value: int, is_col: bool, moved: bool) -> str:
    if not moved:
        return f"reference {ref} is not inside the sheet (Excel reads it as a name)"
    if is_col:
        side = "left of column A" if value < 1 else "right of column XFD"
    else:
        side = "above row 1" if value < 1 else f"below row {MAX_ROW:,}"
    return f"reference {ref} would move {side}"


# --------------------------------------------------------------------------- the template

_POSITIONAL_NAMES: Final = (
    "ROW ROWS COLUMN COLUMNS OFFSET INDIRECT CELL INFO ADDRESS RAND RANDBETWEEN RANDARRAY "
    "NOW TODAY SUBTOTAL AGGREGATE SHEET SHEETS FORMULATEXT ISFORMULA GETPIVOTDATA "
    "HYPERLINK LAMBDA LET"
)
_FUNCS_POSITIONAL: Final = frozenset(_POSITIONAL_NAMES.split())
# Functions whose value depends only on their arguments (not on where the cell is, the
# clock, randomness or the workbook around it). Anything else is "not understood".
_PURE_NAMES: Final = """
    ABS ACOS ACOSH AND ASIN ASINH ATAN ATAN2 ATANH AVERAGE AVERAGEA AVERAGEIF AVERAGEIFS
    BIN2DEC BIN2HEX BIN2OCT CEILING CEILING.MATH CHAR CHOOSE CLEAN CODE COMBIN CONCAT
    CONCATENATE CORREL COS COSH COUNT COUNTA COUNTBLANK COUNTIF COUNTIFS DATE DATEDIF
    DATEVALUE DAY DAYS DAYS360 DB DDB DEC2BIN DEC2HEX DEC2OCT DEGREES DOLLAR EDATE EOMONTH
    EVEN EXACT EXP FACT FALSE FIND FINDB FIXED FLOOR FLOOR.MATH FV GCD HEX2BIN HEX2DEC
    HEX2OCT HLOOKUP HOUR IF IFERROR IFNA IFS INDEX INT IPMT IRR ISBLANK ISERR ISERROR
    ISEVEN ISLOGICAL ISNA ISNONTEXT ISNUMBER ISODD ISOWEEKNUM ISTEXT LARGE LCM LEFT LEFTB
    LEN LENB LN LOG LOG10 LOOKUP LOWER MATCH MAX MAXA MAXIFS MEDIAN MID MIDB MIN MINA
    MINIFS MINUTE MOD MODE MONTH MROUND N NA NETWORKDAYS NETWORKDAYS.INTL NOT NPER NPV
    NUMBERVALUE OCT2BIN OCT2DEC OCT2HEX ODD OR PI PMT POWER PPMT PRODUCT PROPER PV QUOTIENT
    RADIANS RANK RANK.AVG RANK.EQ RATE REPLACE REPLACEB REPT RIGHT RIGHTB ROMAN ROUND
    ROUNDDOWN ROUNDUP SEARCH SEARCHB SECOND SIGN SIN SINH SLN SMALL SQRT STDEV STDEV.P
    STDEV.S STDEVA STDEVP SUBSTITUTE SUM SUMIF SUMIFS SUMPRODUCT SUMSQ SWITCH SYD T TAN
    TANH TEXT TEXTJOIN TIME TIMEVALUE TRIM TRUE TRUNC TYPE UNICHAR UNICODE UPPER VALUE VAR
    VAR.P VAR.S VARA VARP VLOOKUP WEEKDAY WEEKNUM WORKDAY WORKDAY.INTL XLOOKUP XMATCH XOR
    YEAR YEARFRAC"""
_FUNCS_PURE: Final = frozenset(_PURE_NAMES.split())
_FUNC_PREFIXES: Final = ("_xlfn._xlws.", "_xlfn.", "_xlws.")
# Structured references to the formula's own table row: Table1[@Col], [@[Col A]],
# Table1[[#This Row],[Col]], Table1[@[A]:[B]]. Column names may hold '-escaped brackets.
_COLNAME: Final = r"(?:[^\[\]']|'.)*"
_THIS_ROW_RE: Final = re.compile(
    rf"(?:[A-Za-z_\\][\w.]*)?\[(?:@(?:{_COLNAME}|\[{_COLNAME}\](?::\[{_COLNAME}\])?)"
    rf"|\[#This Row\],\[{_COLNAME}\](?::\[{_COLNAME}\])?)\]",
    re.IGNORECASE,
)
