"""Formula templates for :mod:`.formulas`: a translated formula as literal pieces and
reference slots, built from openpyxl's own tokens and checked against its output."""

from __future__ import annotations

from openpyxl.formula.tokenizer import Token, TokenizerError
from openpyxl.formula.translate import Translator

from ..scan.refs import MAX_COL, MAX_ROW
from .lex import (  # noqa: F401 - the module's vocabulary
    _BRACKET_WORK,
    _COL_INDEX,
    _COL_LETTERS,
    _FUNC_PREFIXES,
    _FUNCS_POSITIONAL,
    _FUNCS_PURE,
    _QUOTED_RE,
    _THIS_ROW_RE,
    _WSPACE_RE,
    MAX_FORMULA_LENGTH,
    FormulaMoveError,
    _cheap_parts,
    _describe,
    _Part,
    _part_value,
    _range_parts,
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
    translator = _translator(text, src_row, src_col)
    builder = _Builder(text, src_row, src_col)
    for token in translator.get_tokens():
        builder.add(token)
    return builder.result(translator)


def _translator(text: str, src_row: int, src_col: int) -> Translator:
    """openpyxl's Translator of `text` at its source cell (its tokens are read once)."""
    if text.count("[") * len(text) > _BRACKET_WORK:
        raise FormulaMoveError("the formula has too many [ ] groups for openpyxl to read")
    try:
        return Translator("=" + text, origin=_COL_LETTERS[src_col] + str(src_row))
    except TokenizerError as exc:
        raise FormulaMoveError(f"openpyxl cannot read the formula ({exc})") from None
    except (IndexError, AssertionError):  # openpyxl's own asserts, e.g. an unmatched ")"
        raise FormulaMoveError("openpyxl cannot read the formula") from None


class _Builder:
    """One walk over openpyxl's tokens of a formula: the literal pieces and reference
    slots of its :class:`_Shape`, and what decides whether the shape may be cached."""

    def __init__(self, text: str, src_row: int, src_col: int) -> None:
        self.text, self.src_row, self.src_col = text, src_row, src_col
        self.lits: list[str] = []
        self.slots: list[tuple[bool, int]] = []
        self.refs: list[str] = []
        self.ours: list[tuple[int, int]] = []  # where the relative row parts sit in `text`
        self.error: str | None = None
        self.row_local = True
        self.mapped = True  # every token found at its place in `text`
        self.qualified_name = False
        self.buf = ""
        self.pos = self.start = 0

    def add(self, token: Token) -> None:
        value: str = token.value
        self._locate(token)
        if token.type == Token.FUNC and token.subtype == Token.OPEN:
            self._function(value)
        if token.type == Token.OPERAND and token.subtype == Token.RANGE:
            self._range(value)
        else:
            self.buf += value

    def result(self, translator: Translator) -> tuple[_Shape, bool, Translator | None]:
        self.lits.append(self.buf)
        cacheable = (
            self.mapped and self.pos == len(self.text) and self.ours == _cheap_parts(self.text)
        )
        shape = _Shape(self.lits, self.slots, self.refs, self.error, self.row_local, self.src_col)
        return shape, cacheable, None if self.qualified_name else translator

    def _locate(self, token: Token) -> None:
        """Where the token sits in `text`; openpyxl shortens runs of whitespace."""
        value: str = token.value
        text, pos = self.text, self.pos
        if token.type == Token.WSPACE:
            ws = _WSPACE_RE.match(text, pos)
            if ws is None or text[pos] != value:
                self.mapped = False
            else:
                self.pos = ws.end()
        elif text.startswith(value, pos):
            self.start, self.pos = pos, pos + len(value)
        else:
            self.mapped = False

    def _function(self, value: str) -> None:
        name = value[:-1].upper()
        for prefix in _FUNC_PREFIXES:
            name = name.removeprefix(prefix.upper())
        if name not in _FUNCS_PURE or name in _FUNCS_POSITIONAL:
            self.row_local = False

    def _range(self, value: str) -> None:
        parts, exact, ref_start, cells = _range_parts(value)
        self.mapped = self.mapped and exact
        if ref_start and _QUOTED_RE.sub("", value[:ref_start]).count("!") > 1:
            raise FormulaMoveError(
                f"the range {value} names a sheet at both ends, which xlshuffle does not "
                "translate; write it as Sheet!A1:B2"
            )
        if not parts and ref_start:
            self.qualified_name = True  # openpyxl drops the "Sheet!" of a name; Excel keeps it
        if not parts and _THIS_ROW_RE.fullmatch(value):
            self.buf += value
            return
        if ref_start or not cells:
            self.row_local = False  # another sheet, whole rows or columns, a name in the range
        at = 0
        for part in parts:
            self.buf += value[at : part[0]]
            at = part[1]
            self._part(part, value, ref_start)
        self.buf += value[at:] if exact else ""

    def _part(self, part: _Part, value: str, ref_start: int) -> None:
        """One row or column part of the reference `value`: kept (absolute) or a slot."""
        p_start, p_end, is_col, part_text = part
        val = _part_value(part)
        if part_text.startswith("$"):
            self.buf += part_text
            if not is_col:
                self.row_local = False
            limit = MAX_COL if is_col else MAX_ROW
            if not 0 < val <= limit and self.error is None:
                self.error = _describe(value, val, is_col, moved=False)
            return
        if not is_col and val != self.src_row:
            self.row_local = False
        self.lits.append(self.buf)
        self.buf = ""
        self.slots.append((is_col, val - (self.src_col if is_col else self.src_row)))
        self.refs.append(value[ref_start:])
        if self.mapped and not is_col:
            self.ours.append((self.start + p_start, self.start + p_end))


# ------------------------------------------------------------------------------ the mover
