"""A translated formula as a template (:class:`Shape`): literal pieces around reference
slots, offsets from the source cell; and what decides whether a formula's value holds
where its row moves (the functions that depend only on their arguments)."""

from __future__ import annotations

from typing import Final

from ..scan.refs import MAX_COL, MAX_ROW
from .lex import COL_LETTERS

__all__ = ["FUNCS_POSITIONAL", "FUNCS_PURE", "Pieces", "Shape", "describe_ref"]


def describe_ref(ref: str, value: int, is_col: bool, moved: bool) -> str:
    """Why reference ``ref`` (a part of it at ``value``) cannot move: outside the sheet
    where it is (``moved`` False) or where it would go."""
    if not moved:
        return f"reference {ref} is not inside the sheet (Excel reads it as a name)"
    if is_col:
        side = "left of column A" if value < 1 else "right of column XFD"
    else:
        side = "above row 1" if value < 1 else f"below row {MAX_ROW:,}"
    return f"reference {ref} would move {side}"


# ------------------------------------------------------------------------------ functions

_POSITIONAL_NAMES: Final = (
    "ROW ROWS COLUMN COLUMNS OFFSET INDIRECT CELL INFO ADDRESS RAND RANDBETWEEN RANDARRAY "
    "NOW TODAY SUBTOTAL AGGREGATE SHEET SHEETS FORMULATEXT ISFORMULA GETPIVOTDATA "
    "HYPERLINK LAMBDA LET"
)
FUNCS_POSITIONAL: Final = frozenset(_POSITIONAL_NAMES.split())
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
FUNCS_PURE: Final = frozenset(_PURE_NAMES.split())

# --------------------------------------------------------------------------- the template


class Shape:
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
                here[i] = COL_LETTERS[src_col + off]
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
        letters = COL_LETTERS
        return self.fmt % tuple(
            [letters[dst_col + off] if is_col else dst_row + off for is_col, off in self.pairs]
        )

    def explain(self, src_row: int, src_col: int, dst_row: int, dst_col: int) -> str:
        """Why :meth:`fits` said no; meaningful for the shape's own formula only."""
        for (is_col, off, _), ref in zip(self.slots, self.refs, strict=True):
            limit = MAX_COL if is_col else MAX_ROW
            base_src, base_dst = (src_col, dst_col) if is_col else (src_row, dst_row)
            if not 0 < base_src + off <= limit:
                return describe_ref(ref, base_src + off, is_col, moved=False)
            if not 0 < base_dst + off <= limit:
                return describe_ref(ref, base_dst + off, is_col, moved=True)
        return "the formula does not fit the sheet"  # pragma: no cover - fits() said no


class Pieces:
    """A :class:`Shape` as a reading of a formula builds it, token by token: the literal
    text so far (``buf``), the pieces and slots before it, the references, where the
    relative row parts sit (``ours``), the first error, and whether the value stays
    right when its row moves. Both readers (openpyxl's tokens, :mod:`.shapes`; simple
    formulas read from their text, :mod:`.simple`) add reference parts by :meth:`part`."""

    def __init__(self, src_row: int, src_col: int) -> None:
        self.src_row, self.src_col = src_row, src_col
        self.lits: list[str] = []
        self.slots: list[tuple[bool, int]] = []
        self.refs: list[str] = []
        self.ours: list[tuple[int, int]] = []  # where the relative row parts sit
        self.error: str | None = None
        self.row_local = True
        self.buf = ""

    def part(
        self, value: str, ref: str, text: str, is_col: bool, val: int, at: tuple[int, int] | None
    ) -> None:
        """One row or column part ``text`` (at ``val``) of the reference ``value`` (the
        reference proper ``ref``): kept where it is absolute, else a slot; ``at``: where
        it sits in the formula, when known."""
        if text.startswith("$"):
            self.buf += text
            if not is_col:
                self.row_local = False
            if not 0 < val <= (MAX_COL if is_col else MAX_ROW) and self.error is None:
                self.error = describe_ref(value, val, is_col, moved=False)
            return
        if not is_col and val != self.src_row:
            self.row_local = False
        self.lits.append(self.buf)
        self.buf = ""
        self.slots.append((is_col, val - (self.src_col if is_col else self.src_row)))
        self.refs.append(ref)
        if at is not None and not is_col:
            self.ours.append(at)

    def shape(self) -> Shape:
        """The shape read, its last literal piece closed."""
        self.lits.append(self.buf)
        return Shape(self.lits, self.slots, self.refs, self.error, self.row_local, self.src_col)
