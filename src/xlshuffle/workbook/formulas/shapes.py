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
                f"the range {value} names a sheet at both ends, which xlshuffle does not "
                "translate; write it as Sheet!A1:B2"
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
