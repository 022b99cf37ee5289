"""Move cell formulas the way Excel does when it sorts rows, fast enough for a million cells.

When Excel sorts, each moved cell's formula is translated: relative references move with
the cell, absolute ones (``$``) stay. openpyxl's :class:`~openpyxl.formula.translate.Translator`
does exactly that, and is the reference here, but one call costs 10-27 us. A sheet of a
million formulas usually holds a handful of *shapes*: ``C2*2`` in row 2 and ``C3*2`` in
row 3 are the same formula in relative terms. :class:`FormulaMover` translates the first
formula of a shape with openpyxl, keeps the result as a template (literal pieces plus
reference slots) and renders every later formula of that shape from the template.

Why the cache is sound
----------------------
The shape key comes from one linear regex pass (``_LEX``). It skips ``"..."`` strings,
``'...'`` sheet names, ``[...]`` groups and error literals (``#REF!``...), and finds the
*relative row parts* of references: the digits of a cell reference ``$?L{1,3}D{1,7}`` or
of a row range ``$?D{1,7}:$?D{1,7}`` that is a whole word (no word character, ``$``,
``.``, ``\\`` or ``?`` on either side) and not followed by ``(``. The key is the text with
those digits replaced by their offsets from the source row, plus the source column;
everything else (column letters, absolute parts) stays verbatim. Shapes are therefore
shared down a column, which is what a row shuffle moves. Two texts with one key differ
only in such digit runs, each 1-7 ASCII digits without a leading zero.

openpyxl's tokenizer and translator never look at such characters except through
decisions that every such run answers alike: digits are never delimiters; a token
holding one can never read as a number (``float``; letters or ``:`` always sit next to
it), a boolean or a scientific-notation prefix; the runs hold no ``:``, ``!``, quote or
bracket, so splitting and the anchored reference regexes see the same pieces; and none
can lie inside an error literal, which the key keeps verbatim. Hence every text of a
key tokenizes the same way, and the translated parts are in the same places.

What the cheap pass *guesses* is then checked once per shape against openpyxl itself:
the template is built from openpyxl's tokens, and the shape is cached only if the
relative row parts openpyxl translates are exactly those of the key, at the same text
positions (relative columns are verbatim in the key and the source column is part of it,
so their offsets are the same for every text of the key). A function name such as
``LOG10(``, a name such as ``A1B`` or ``R1C1``, text inside ``"..."``, a sheet name
``'Q1 2024'`` are therefore either verbatim in the key or
make the shape uncacheable (every formula of it goes through openpyxl). The rendered
template is also compared with openpyxl's own output when the shape is built (for a
probe destination) and on the first move that uses it.

Differences from openpyxl (on purpose)
--------------------------------------
* openpyxl moves a reference past row 1,048,576 or column XFD without complaint (and
  reads ``XFE1`` or ``A2000000`` as cells although Excel reads them as names). Here every
  reference openpyxl would translate must lie inside the sheet before and after the move,
  else :class:`FormulaMoveError`; Excel itself turns such references into ``#REF!``.
* openpyxl drops the sheet of a sheet-scoped name (``Sheet2!Rate`` becomes ``Rate``);
  names do not move, so it stays ``Sheet2!Rate`` here.
* openpyxl moves only the second half of ``Sheet1!A1:Sheet1!B2`` (it splits at the last
  ``!``); Excel moves both. Such a range raises :class:`FormulaMoveError`.

Quirks kept from openpyxl: a run of spaces and newlines becomes its first character,
a newline inside an operand moves before it, relative column letters come out in upper
case (``a1`` becomes ``B2``), ``LOG10 (A1)`` (with a space) is an intersection of the cell
``LOG10`` with ``A1`` and both move.
"""

from __future__ import annotations

import re
from typing import Final

from openpyxl.formula.tokenizer import Token, Tokenizer, TokenizerError
from openpyxl.formula.translate import Translator

__all__ = [
    "CACHE_SIZE",
    "MAX_COL",
    "MAX_FORMULA_LENGTH",
    "MAX_ROW",
    "FormulaMoveError",
    "FormulaMover",
    "column_letter",
]

MAX_ROW: Final = 1_048_576
"""Last row of an .xlsx sheet."""
MAX_COL: Final = 16_384
"""Last column of an .xlsx sheet (XFD)."""
MAX_FORMULA_LENGTH: Final = 8_192
"""Excel's limit on the length of a formula, in characters, without the leading ``=``."""
CACHE_SIZE: Final = 4_096
"""Shapes a :class:`FormulaMover` keeps; the cache is emptied when it is full."""

# openpyxl's reference columns go up to ZZZ; we index all of them (errors come from bounds).
_LAST_LETTERS_COL: Final = 18_278


def _letters(index: int) -> str:
    out = ""
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


_COL_LETTERS: Final[tuple[str, ...]] = tuple(_letters(i) for i in range(MAX_COL + 1))
_COL_INDEX: Final[dict[str, int]] = {_letters(i): i for i in range(1, _LAST_LETTERS_COL + 1)}


def column_letter(index: int) -> str:
    """Return the letters of column `index` (1 is ``A``, 16,384 is ``XFD``).

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
    return _COL_LETTERS[index]


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


class _Shape:
    """A translated formula: literal pieces around reference slots, offsets from the source.

    ``lits`` has one more item than ``slots``; slot ``i`` is ``(is_column, offset)`` and is
    rendered between ``lits[i]`` and ``lits[i + 1]``.
    """

    __slots__ = (
        "col_hi",
        "col_lo",
        "error",
        "fmt",
        "fmt_here",
        "only_row",
        "pairs",
        "refs",
        "row_hi",
        "row_lo",
        "row_local",
        "row_offs",
        "slots",
        "src_col",
    )

    def __init__(
        self,
        lits: list[str],
        slots: list[tuple[bool, int]],
        refs: list[str],
        error: str | None,
        row_local: bool,
        src_col: int,
    ) -> None:
        self.fmt = "%s".join(lit.replace("%", "%%") for lit in lits)
        self.pairs = tuple(slots)
        self.slots = tuple(
            (is_col, off, lit) for (is_col, off), lit in zip(slots, lits[1:], strict=True)
        )
        self.refs = tuple(refs)
        self.error = error
        self.row_local = row_local and error is None
        self.src_col = src_col
        col_offs = [off for is_col, off in slots if is_col] or [0]
        row_offs = [off for is_col, off in slots if not is_col]
        self.col_lo, self.col_hi = min(col_offs), max(col_offs)
        self.row_lo, self.row_hi = min(row_offs or [0]), max(row_offs or [0])
        self.row_offs = tuple(row_offs)
        # Rows move, columns stay (a row shuffle): the columns are rendered once, here.
        here = ["%s"] * len(slots)
        for i, (is_col, off) in enumerate(slots):
            if is_col and 0 < src_col + off <= MAX_COL:
                here[i] = _COL_LETTERS[src_col + off]
        self.fmt_here = "".join(
            lit.replace("%", "%%") + value for lit, value in zip(lits, [*here, ""], strict=True)
        )
        self.only_row = row_offs[0] if len(row_offs) == 1 else None

    def render(self, src_row: int, src_col: int, dst_row: int, dst_col: int) -> str | None:
        """The formula at the destination, or None if a slot leaves the sheet."""
        lo_r, hi_r, lo_c, hi_c = self.row_lo, self.row_hi, self.col_lo, self.col_hi
        if not (
            src_row + lo_r > 0
            and src_row + hi_r <= MAX_ROW
            and dst_row + lo_r > 0
            and dst_row + hi_r <= MAX_ROW
            and src_col + lo_c > 0
            and src_col + hi_c <= MAX_COL
            and dst_col + lo_c > 0
            and dst_col + hi_c <= MAX_COL
            and self.error is None
        ):
            return None
        if dst_col == self.src_col:
            if self.only_row is not None:
                return self.fmt_here % (dst_row + self.only_row)
            return self.fmt_here % tuple([dst_row + off for off in self.row_offs])
        letters = _COL_LETTERS
        return self.fmt % tuple(
            [letters[dst_col + off] if is_col else dst_row + off for is_col, off in self.pairs]
        )

    def explain(self, src_row: int, src_col: int, dst_row: int, dst_col: int) -> str:
        """Why :meth:`fits` said no; meaningful for the shape's own formula only."""
        for (is_col, off, _), ref in zip(self.slots, self.refs, strict=True):
            limit = MAX_COL if is_col else MAX_ROW
            base_src, base_dst = (src_col, dst_col) if is_col else (src_row, dst_row)
            if not 0 < base_src + off <= limit:
                return _describe(ref, base_src + off, is_col, moved=False)
            if not 0 < base_dst + off <= limit:
                return _describe(ref, base_dst + off, is_col, moved=True)
        return "the formula does not fit the sheet"  # pragma: no cover - fits() said no


def _build(text: str, src_row: int, src_col: int) -> tuple[_Shape, bool, Translator | None]:
    """Tokenize `text` with openpyxl and template its translation.

    Returns the shape, whether it may be cached (the parts openpyxl translates are exactly
    the relative row parts of the shape key, at the same places), and the Translator to
    check the result against (None where this module differs from openpyxl on purpose).
    """
    if text.count("[") * len(text) > _BRACKET_WORK:
        raise FormulaMoveError("the formula has too many [ ] groups for openpyxl to read")
    try:
        translator = Translator("=" + text, origin=_COL_LETTERS[src_col] + str(src_row))
    except TokenizerError as exc:
        raise FormulaMoveError(f"openpyxl cannot read the formula ({exc})") from None
    except (IndexError, AssertionError):  # openpyxl's own asserts, e.g. an unmatched ")"
        raise FormulaMoveError("openpyxl cannot read the formula") from None
    tokens = translator.get_tokens()
    lits: list[str] = []
    slots: list[tuple[bool, int]] = []
    refs: list[str] = []
    ours: list[tuple[int, int]] = []
    error: str | None = None
    row_local = True
    mapped = True
    qualified_name = False
    buf = ""
    pos = start = 0
    for token in tokens:
        value: str = token.value
        # Where the token sits in `text`; openpyxl shortens runs of whitespace.
        if token.type == Token.WSPACE:
            ws = _WSPACE_RE.match(text, pos)
            if ws is None or text[pos] != value:
                mapped = False
            else:
                pos = ws.end()
        elif text.startswith(value, pos):
            start, pos = pos, pos + len(value)
        else:
            mapped = False
        if token.type == Token.FUNC and token.subtype == Token.OPEN:
            name = value[:-1].upper()
            for prefix in _FUNC_PREFIXES:
                name = name.removeprefix(prefix.upper())
            if name not in _FUNCS_PURE or name in _FUNCS_POSITIONAL:
                row_local = False
        if not (token.type == Token.OPERAND and token.subtype == Token.RANGE):
            buf += value
            continue
        parts, exact, ref_start, cells = _range_parts(value)
        mapped = mapped and exact
        if ref_start and _QUOTED_RE.sub("", value[:ref_start]).count("!") > 1:
            raise FormulaMoveError(
                f"openpyxl would move only the end of the range {value}; move it by hand"
            )
        if not parts and ref_start:
            qualified_name = True  # openpyxl drops the "Sheet!" of a name; Excel keeps it
        if not parts and _THIS_ROW_RE.fullmatch(value):
            buf += value
            continue
        if ref_start or not cells:
            row_local = False  # another sheet, whole rows or columns, a name in the range
        at = 0
        for part in parts:
            p_start, p_end, is_col, part_text = part
            buf += value[at:p_start]
            at = p_end
            val = _part_value(part)
            limit = MAX_COL if is_col else MAX_ROW
            if part_text.startswith("$"):
                buf += part_text
                if not is_col:
                    row_local = False
                if not 0 < val <= limit and error is None:
                    error = _describe(value, val, is_col, moved=False)
                continue
            if not is_col and val != src_row:
                row_local = False
            lits.append(buf)
            buf = ""
            slots.append((is_col, val - (src_col if is_col else src_row)))
            refs.append(value[ref_start:])
            if mapped and not is_col:
                ours.append((start + p_start, start + p_end))
        buf += value[at:] if exact else ""
    lits.append(buf)
    cacheable = mapped and pos == len(text) and ours == _cheap_parts(text)
    shape = _Shape(lits, slots, refs, error, row_local, src_col)
    return shape, cacheable, None if qualified_name else translator


# ------------------------------------------------------------------------------ the mover


class FormulaMover:
    """Translate formula text from one cell to another, as Excel does when it sorts.

    Formula text is XML-unescaped and has no leading ``=``. The result is exactly what
    openpyxl's ``Translator("=" + text, origin).translate_formula(dest)`` gives, minus the
    ``=``, except that references must stay inside the sheet (see the module notes).
    One instance per sheet or run: it holds a cache of up to :data:`CACHE_SIZE` shapes.

    Attributes
    ----------
    hits : int
        Calls answered from the cache.
    misses : int
        Calls that went through openpyxl.

    Examples
    --------
    >>> mover = FormulaMover()
    >>> mover.move("C2*2+$A$1", 2, 4, 9, 4)
    'C9*2+$A$1'
    >>> mover.move("C3*2+$A$1", 3, 4, 10, 4), mover.hits, mover.misses
    ('C10*2+$A$1', 1, 1)
    >>> mover.move("SUM(B2:C2)", 2, 4, 2, 5)
    'SUM(C2:D2)'
    >>> mover.move("A1", 2, 2, 1, 2)
    Traceback (most recent call last):
    ...
    xlshuffle.workbook.formulas.FormulaMoveError: reference A1 would move above row 1
    >>> mover.keeps_value_on_row_move("B7*C7", 7, 4), mover.keeps_value_on_row_move("B6", 7, 4)
    (True, False)
    """

    def __init__(self) -> None:
        self._cache: dict[_Key, _Shape | None] = {}
        self.hits = 0
        self.misses = 0

    def _shape(self, text: str, row: int, col: int) -> tuple[_Shape, Translator | None, bool]:
        """The cached shape of `text` at (`row`, `col`), or a new one and its Translator."""
        if len(text) > MAX_FORMULA_LENGTH:
            raise FormulaMoveError(
                f"the formula is {len(text):,} characters long; Excel allows {MAX_FORMULA_LENGTH:,}"
            )
        if not (0 < row <= MAX_ROW and 0 < col <= MAX_COL):
            raise ValueError(f"cell (row {row}, column {col}) is not inside the sheet")
        cache = self._cache
        key = _shape_key(text, row, col)
        shape = cache.get(key)
        if shape is not None:
            return shape, None, False
        self.misses += 1
        built, cacheable, translator = _build(text, row, col)
        if translator is not None:  # check the template against openpyxl, one row down or up
            probe = row + 1 if row < MAX_ROW else row - 1
            out = built.render(row, col, probe, col)
            expected = translator.translate_formula(_COL_LETTERS[col] + str(probe))[1:]
            if out is not None and out != expected:  # pragma: no cover - a bug here
                cache[key] = None
                raise FormulaMoveError(f"internal check failed: {out!r}, not {expected!r}")
        if key not in cache:  # remember the shape, or that it cannot be cached
            if len(cache) >= CACHE_SIZE:
                cache.clear()
            cache[key] = built if cacheable else None
        return built, translator, True

    def move(self, text: str, src_row: int, src_col: int, dst_row: int, dst_col: int) -> str:
        """Return `text` as it reads after moving from the source cell to the destination.

        Parameters
        ----------
        text : str
            Formula text, XML-unescaped, without the leading ``=``.
        src_row, src_col : int
            The cell the formula is in (1-based; column 1 is ``A``).
        dst_row, dst_col : int
            The cell it moves to.

        Returns
        -------
        str
            The translated formula text, without ``=``; `text` itself when the cells are
            the same.

        Raises
        ------
        FormulaMoveError
            If a reference would leave the sheet or is not inside it, the text is longer
            than 8,192 characters, or openpyxl cannot tokenize it.
        ValueError
            If a cell is not inside the sheet.
        """
        if src_row == dst_row and src_col == dst_col:
            return text
        if len(text) <= MAX_FORMULA_LENGTH and (
            0 < src_row <= MAX_ROW and 0 < src_col <= MAX_COL
        ):  # the fast path: a cached shape that fits
            shape = self._cache.get(_shape_key(text, src_row, src_col))
            if shape is not None:
                out = shape.render(src_row, src_col, dst_row, dst_col)
                if out is not None:
                    self.hits += 1
                    return out
        if not (0 < dst_row <= MAX_ROW and 0 < dst_col <= MAX_COL):
            raise ValueError(f"cell (row {dst_row}, column {dst_col}) is not inside the sheet")
        shape, translator, fresh = self._shape(text, src_row, src_col)
        out = shape.render(src_row, src_col, dst_row, dst_col)
        if out is None:
            if not fresh:  # cached: explain with this formula's own references
                shape = _build(text, src_row, src_col)[0]
            raise FormulaMoveError(shape.error or shape.explain(src_row, src_col, dst_row, dst_col))
        if translator is not None:  # a shape built just now: check it against openpyxl
            expected = translator.translate_formula(_COL_LETTERS[dst_col] + str(dst_row))
            if out != expected[1:]:
                self._cache[_shape_key(text, src_row, src_col)] = None
                raise FormulaMoveError(  # pragma: no cover - a bug in this module
                    f"internal check failed: {out!r} is not openpyxl's {expected[1:]!r}"
                )
        return out

    def keeps_value_on_row_move(self, text: str, row: int, col: int) -> bool:
        """Whether the formula's cached value still holds after its whole row moves.

        True only when every reference is on the formula's own sheet and inside its own row
        (a cell or a range whose row parts are relative and equal `row`), there are no
        whole-row or whole-column references, no defined names or structured references
        other than this-row ones (``[@Col]``, ``[#This Row]``), and every function is a
        known one that depends only on its arguments (no ``ROW``, ``OFFSET``,
        ``INDIRECT``, ``RAND``, ``NOW``, ``SUBTOTAL``...). Constants-only formulas keep
        their value. Anything not understood is False.

        Parameters
        ----------
        text : str
            Formula text, XML-unescaped, without the leading ``=``.
        row, col : int
            The cell the formula is in.

        Returns
        -------
        bool
            Whether the value survives the row move unchanged.
        """
        try:
            shape = self._shape(text, row, col)[0]
        except FormulaMoveError:
            return False
        return shape.row_local and shape.render(row, col, row, col) is not None
