"""Formula templates built from openpyxl's own tokens (its reference patterns mirrored, the
functions told apart by what they depend on, :mod:`.template`) and checked against its
output: every formula :mod:`.simple` does not read."""

from __future__ import annotations

import re
from typing import Final

from openpyxl.formula.tokenizer import Token, Tokenizer, TokenizerError
from openpyxl.formula.translate import Translator

from ..scan.refs import col_letters
from .lex import COL_LETTERS, FormulaMoveError, cheap_parts
from .template import FUNCS_POSITIONAL, FUNCS_PURE, Pieces, Shape

__all__ = ["build_shape"]

# openpyxl's reference columns go up to ZZZ; we index all of them (errors come from bounds).
_LAST_LETTERS_COL: Final = 18_278
_COL_INDEX: Final[dict[str, int]] = {col_letters(i): i for i in range(1, _LAST_LETTERS_COL + 1)}


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


# ------------------------------------------------------------------------------ functions

_FUNC_PREFIXES: Final = ("_xlfn._xlws.", "_xlfn.", "_xlws.")
# Structured references to the formula's own table row: Table1[@Col], [@[Col A]],
# Table1[[#This Row],[Col]], Table1[@[A]:[B]]. Column names may hold '-escaped brackets.
_COLNAME: Final = r"(?:[^\[\]']|'.)*"
_THIS_ROW_RE: Final = re.compile(
    rf"(?:[A-Za-z_\\][\w.]*)?\[(?:@(?:{_COLNAME}|\[{_COLNAME}\](?::\[{_COLNAME}\])?)"
    rf"|\[#This Row\],\[{_COLNAME}\](?::\[{_COLNAME}\])?)\]",
    re.IGNORECASE,
)


def build_shape(text: str, src_row: int, src_col: int) -> tuple[Shape, bool, Translator | None]:
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
        return Translator("=" + text, origin=COL_LETTERS[src_col] + str(src_row))
    except TokenizerError as exc:
        raise FormulaMoveError(f"openpyxl cannot read the formula ({exc})") from None
    except (IndexError, AssertionError):  # openpyxl's own asserts, e.g. an unmatched ")"
        raise FormulaMoveError("openpyxl cannot read the formula") from None


class _Builder(Pieces):
    """One walk over openpyxl's tokens of a formula: the literal pieces and reference
    slots of its :class:`Shape`, and what decides whether the shape may be cached."""

    def __init__(self, text: str, src_row: int, src_col: int) -> None:
        super().__init__(src_row, src_col)
        self.text = text
        self.mapped = True  # every token found at its place in `text`
        self.qualified_name = False
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

    def result(self, translator: Translator) -> tuple[Shape, bool, Translator | None]:
        shape = self.shape()
        cacheable = (
            self.mapped and self.pos == len(self.text) and self.ours == cheap_parts(self.text)
        )
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
        if name not in FUNCS_PURE or name in FUNCS_POSITIONAL:
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
        at = (self.start + p_start, self.start + p_end) if self.mapped else None
        self.part(value, value[ref_start:], part_text, is_col, _part_value(part), at)
