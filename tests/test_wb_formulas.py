"""FormulaMover: Excel's sort semantics for formulas, checked by hand and against openpyxl.

The known answers below were written from Excel's rules (relative references move with
the cell, ``$`` parts stay, references to other sheets move too, a reference pushed off
the grid is an error), not computed with the code under test.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.formula.tokenizer import Token, Tokenizer, TokenizerError
from openpyxl.formula.translate import Translator, TranslatorError

from xlshuffle.common.a1 import col_letters
from xlshuffle.workbook.formulas.lex import COL_LETTERS, shape_key
from xlshuffle.workbook.formulas.shapes import build_shape
from xlshuffle.workbook.formulas.simple import simple_shape
from xlshuffle.workbook.formulas.template import Shape
from xlshuffle.workbook.formulas.translate import (
    MAX_COL,
    MAX_FORMULA_LENGTH,
    MAX_ROW,
    FormulaMoveError,
    FormulaMover,
    column_letter,
)

# ------------------------------------------------------------------ known answers


# (text, src (row, col), dst (row, col), expected)
VECTORS = [
    ("C2*2", (2, 4), (9, 4), "C9*2"),
    ("C2*2+$A$1", (2, 4), (3, 4), "C3*2+$A$1"),
    ("$A1+A$1", (1, 2), (3, 4), "$A3+C$1"),
    ("SUM(B2:C3)", (4, 4), (5, 6), "SUM(D3:E4)"),
    ("SUM($B$2:C3)", (4, 4), (6, 4), "SUM($B$2:C5)"),
    ("SUM(A:A)", (1, 2), (1, 4), "SUM(C:C)"),
    ("SUM($A:$B)", (1, 2), (7, 9), "SUM($A:$B)"),
    ("SUM(3:3)", (3, 1), (5, 1), "SUM(5:5)"),
    ("SUM($3:4)", (3, 1), (5, 1), "SUM($3:6)"),
    ("Sheet2!B2", (2, 2), (4, 2), "Sheet2!B4"),
    ("'My sheet'!B2:C3", (1, 1), (2, 2), "'My sheet'!C3:D4"),
    ("'Q1 2024'!A1*A1", (1, 1), (3, 1), "'Q1 2024'!A3*A3"),
    ("[1]Sheet1!A1", (1, 1), (2, 1), "[1]Sheet1!A2"),
    ("Table1[@Score]*2", (2, 3), (9, 3), "Table1[@Score]*2"),
    ("Table1[[#This Row],[Q1]]+B2", (2, 3), (3, 3), "Table1[[#This Row],[Q1]]+B3"),
    ('"A1"&A1', (1, 2), (2, 2), '"A1"&A2'),
    ('"say ""B2"""&B2', (2, 3), (4, 3), '"say ""B2"""&B4'),
    ("LOG10(A10)", (10, 2), (11, 2), "LOG10(A11)"),
    ("ATAN2(A1,B1)", (1, 3), (2, 3), "ATAN2(A2,B2)"),
    ("DAYS360(A1,B1)", (1, 3), (3, 3), "DAYS360(A3,B3)"),
    ("#REF!+A1", (1, 2), (2, 2), "#REF!+A2"),
    ("IFERROR(A1,#N/A)", (1, 2), (2, 3), "IFERROR(B2,#N/A)"),
    ("SUM({1,2;3,4})+A1", (1, 2), (2, 2), "SUM({1,2;3,4})+A2"),
    ("Rate*A1", (1, 2), (2, 2), "Rate*A2"),  # a defined name stays
    ("A1B+A1", (1, 2), (2, 2), "A1B+A2"),  # A1B is a name, not a cell
    ("R1C1+A1", (1, 2), (2, 2), "R1C1+A2"),  # R1C1-looking names stay in A1 mode
    ("Sheet1:Sheet3!A1", (1, 2), (2, 2), "Sheet1:Sheet3!A2"),  # 3-D reference
    ("1E+5*A1", (1, 2), (2, 2), "1E+5*A2"),
    ("XFD1+A1", (1, 1), (2, 1), "XFD2+A2"),
    ("A1048575", (1, 1), (2, 1), "A1048576"),  # the last row is allowed
    ("XFC1", (1, 1), (1, 2), "XFD1"),  # the last column is allowed
    ("A1 + B1", (1, 3), (2, 3), "A2 + B2"),
    ("Sheet2!Rate+A1", (1, 2), (2, 2), "Sheet2!Rate+A2"),  # openpyxl drops "Sheet2!"
    ("", (1, 1), (2, 2), ""),
]


@pytest.mark.parametrize(("text", "src", "dst", "expected"), VECTORS)
def test_known_answers(
    text: str, src: tuple[int, int], dst: tuple[int, int], expected: str
) -> None:
    mover = FormulaMover()
    assert mover.move(text, *src, *dst) == expected
    # the second call of the same shape comes from the cache and agrees
    assert mover.move(text, *src, *dst) == expected


OFF_SHEET = [
    ("A1", (2, 2), (1, 2), "above row 1"),
    ("A1", (2, 2), (2, 1), "left of column A"),
    ("A1048576", (1, 1), (2, 1), "below row 1,048,576"),
    ("XFD1", (1, 1), (1, 2), "right of column XFD"),
    ("SUM(A:A)", (1, 2), (1, 1), "left of column A"),
    ("SUM(1:3)", (2, 1), (1, 1), "above row 1"),
    ("Sheet2!A1", (5, 5), (4, 5), "above row 1"),
    ("XFE1", (1, 1), (2, 1), "not inside the sheet"),  # Excel reads XFE1 as a name
    ("A2000000", (1, 1), (2, 1), "not inside the sheet"),
    ("$XFE$1", (1, 1), (2, 1), "not inside the sheet"),
]


@pytest.mark.parametrize(("text", "src", "dst", "phrase"), OFF_SHEET)
def test_off_sheet_moves_raise(
    text: str, src: tuple[int, int], dst: tuple[int, int], phrase: str
) -> None:
    mover = FormulaMover()
    for _ in range(2):  # built, then cached
        with pytest.raises(FormulaMoveError) as info:
            mover.move(text, *src, *dst)
        assert phrase in info.value.reason


def test_error_names_the_reference() -> None:
    with pytest.raises(FormulaMoveError, match=r"^reference B1 would move above row 1$"):
        FormulaMover().move("B1", 2, 1, 1, 1)


def test_cached_off_sheet_error_names_this_formulas_reference() -> None:
    mover = FormulaMover()
    assert mover.move("C3*2", 3, 1, 4, 1) == "C4*2"
    # C2 at row 2 moving to row 0 is impossible; instead move C2*2 up by 2 rows (same shape)
    with pytest.raises(FormulaMoveError) as info:
        mover.move("C1*2", 2, 1, 1, 1)  # C1 would reach row 0: a cached shape's error
    assert info.value.reason == "reference C1 would move above row 1"


def test_boundaries_exactly() -> None:
    mover = FormulaMover()
    assert mover.move("A1", 1, 1, MAX_ROW, 1) == f"A{MAX_ROW}"
    assert mover.move("A1", 1, 1, 1, MAX_COL) == "XFD1"
    assert mover.move("XFD1048576", MAX_ROW, MAX_COL, 1, 1) == "A1"
    with pytest.raises(FormulaMoveError, match="below row 1,048,576"):
        mover.move("A2", 1, 1, MAX_ROW, 1)
    with pytest.raises(FormulaMoveError, match="right of column XFD"):
        mover.move("B1", 1, 1, 1, MAX_COL)
    with pytest.raises(FormulaMoveError, match="above row 1"):
        mover.move("A1", 2, 1, 1, 1)
    with pytest.raises(FormulaMoveError, match="left of column A"):
        mover.move("A1", 1, 2, 1, 1)


def test_same_cell_returns_text_unchanged() -> None:
    mover = FormulaMover()
    text = "A1+XFE1+'broken"
    assert mover.move(text, 5, 5, 5, 5) is text
    assert mover.hits == mover.misses == 0


def test_ambiguous_sheet_range_is_refused() -> None:
    # openpyxl would move only B2 (it splits at the last "!"); Excel moves both ends.
    assert Translator("=Sheet1!A1:Sheet1!B2", "C3").translate_formula("C4") == (
        "=Sheet1!A1:Sheet1!B3"
    )
    with pytest.raises(FormulaMoveError, match="names a sheet at both ends"):
        FormulaMover().move("Sheet1!A1:Sheet1!B2", 3, 3, 4, 3)


def test_openpyxl_quirks_are_kept() -> None:
    mover = FormulaMover()
    assert mover.move("a1+$b1", 1, 1, 2, 2) == "B2+$b2"  # relative columns in upper case
    assert mover.move("A1   +  B1", 1, 1, 2, 1) == "A2 + B2"  # whitespace runs shrink
    assert mover.move("LOG10 (A1)", 1, 1, 2, 1) == "LOG11 (A2)"  # a cell, intersected


def test_untokenizable_and_bad_cells() -> None:
    mover = FormulaMover()
    with pytest.raises(FormulaMoveError, match="cannot read"):
        mover.move('"open', 1, 1, 2, 1)
    with pytest.raises(FormulaMoveError, match="cannot read"):
        mover.move("A1#", 1, 1, 2, 1)
    with pytest.raises(FormulaMoveError, match="8,192"):
        mover.move("A" * (MAX_FORMULA_LENGTH + 1), 1, 1, 2, 1)
    with pytest.raises(ValueError, match="not inside the sheet"):
        mover.move("A1", 0, 1, 2, 1)
    with pytest.raises(ValueError, match="not inside the sheet"):
        mover.move("A1", 1, 1, 1, MAX_COL + 1)


def test_col_letters_table_is_col_letters() -> None:
    assert tuple(col_letters(i) for i in range(MAX_COL + 1)) == COL_LETTERS
    assert (COL_LETTERS[1], COL_LETTERS[26], COL_LETTERS[27], COL_LETTERS[MAX_COL]) == (
        "A",
        "Z",
        "AA",
        "XFD",
    )


def test_column_letter() -> None:
    assert [column_letter(i) for i in (1, 26, 27, 702, 703, MAX_COL)] == [
        "A",
        "Z",
        "AA",
        "ZZ",
        "AAA",
        "XFD",
    ]
    with pytest.raises(ValueError, match="column"):
        column_letter(MAX_COL + 1)


# --------------------------------------------------------------- the shape cache


def test_cache_is_hit_for_one_shape_down_a_column() -> None:
    mover = FormulaMover()
    for r in range(1, 201):
        assert mover.move(f"C{r}*2+$A$1+B{r + 1}", r, 4, r + 7, 4) == (f"C{r + 7}*2+$A$1+B{r + 8}")
    assert mover.misses == 1
    assert mover.hits == 199


def test_shape_key_abstracts_relative_rows_only() -> None:
    assert shape_key("C2*2", 2, 4) == shape_key("C3*2", 3, 4)
    assert shape_key("C2*2", 2, 4) != shape_key("C3*3", 3, 4)
    assert shape_key("C$2*2", 2, 4) != shape_key("C$3*2", 3, 4)
    assert shape_key("C2*2", 2, 4) != shape_key("C2*2", 2, 5)


# Pairs of formulas that a naive key (all digit runs relative to the row) would merge.
COLLISIONS = [
    [("LOG10(A10)", 10), ("LOG11(A11)", 11)],  # a function name is not a reference
    [("A1B+A1", 1), ("A2B+A2", 2)],  # a name that starts like a cell
    [('"C2"&C2', 2), ('"C3"&C3', 3)],  # text in a string
    [("'Q1 2024'!A1", 1), ("'Q2 2024'!A2", 2)],  # a quoted sheet name
    [("R1C1+A1", 1), ("R2C2+A2", 2)],  # R1C1-looking names
    [("Q1_2024+A1", 1), ("Q2_2024+A2", 2)],
    [("Table1[Q1]+A1", 1), ("Table1[Q2]+A2", 2)],  # a table column
    [("A1.5+A1", 1), ("A2.5+A2", 2)],
    [("DEC2BIN(A2)", 2), ("DEC3BIN(A3)", 3)],
    [("SUM(1:1)", 1), ("SUM(2:2)", 2), ("SUM(3:3)*3", 3)],
    [("A1*1", 1), ("A2*2", 2)],  # the number is not a row
    [("1E1+E1", 1), ("1E2+E2", 2)],
]


@pytest.mark.parametrize("cases", COLLISIONS)
def test_naive_collisions_translate_like_openpyxl(cases: list[tuple[str, int]]) -> None:
    mover = FormulaMover()
    for _ in range(2):
        for text, row in cases:
            for dst in (row + 1, row + 5):
                expected = Translator("=" + text, f"B{row}").translate_formula(f"C{dst}")[1:]
                assert mover.move(text, row, 2, dst, 3) == expected, (text, row, dst)


def test_cache_is_bounded() -> None:
    mover = FormulaMover()
    for i in range(5000):
        mover.move(f"A1*{i}", 1, 1, 2, 1)
    assert len(mover._cache) <= 4096


# ----------------------------------------------------- differential against openpyxl

SHEETS = ["", "Sheet2!", "'My sheet'!", "'Q1 2024'!", "[1]Sheet1!", "Sheet1:Sheet3!"]
FUNCS = ["SUM", "LOG10", "ATAN2", "DAYS360", "IF", "MAX", "DEC2HEX", "ROUND"]
NAMES = ["Rate", "A1B", "R1C1", "Q1_2024", "Table1[@Score]", "Table1[[#This Row],[Q1]]"]
LITS = ['"A1"', '"C2 and ""D3"""', "2", "1.5", "1E+5", "TRUE", "#REF!", "#N/A", "{1,2;3,4}"]
OPS = ["+", "-", "*", "/", "&", "^", "=", "<>", ">=", " ", ",", ":"]


def _col(index: int) -> str:
    return column_letter(index)


@st.composite
def formula_shapes(draw: st.DrawFn) -> list[object]:
    """A formula as pieces; a reference is (kind, row offset, column, $col, $row, sheet)."""

    def ref() -> tuple[str, int, int, bool, bool, str, int, int]:
        kind = draw(st.sampled_from(["cell", "cell", "range", "cols", "rows"]))
        return (
            kind,
            draw(st.integers(-3, 3)),
            draw(st.integers(1, 30)),
            draw(st.booleans()),
            draw(st.booleans()),
            draw(st.sampled_from(SHEETS)),
            draw(st.integers(0, 2)),
            draw(st.integers(0, 2)),
        )

    def atom() -> object:
        which = draw(st.integers(0, 9))
        if which < 5:
            return ref()
        if which < 7:
            return draw(st.sampled_from(LITS))
        return draw(st.sampled_from(NAMES))

    def expr(depth: int) -> list[object]:
        if depth > 0 and draw(st.integers(0, 3)) == 0:
            func = draw(st.sampled_from(FUNCS))
            args = [expr(depth - 1) for _ in range(draw(st.integers(1, 3)))]
            out: list[object] = [func + "("]
            for i, arg in enumerate(args):
                if i:
                    out.append(",")
                out.extend(arg)
            out.append(")")
            return out
        out = [atom()]
        for _ in range(draw(st.integers(0, 2))):
            out.append(draw(st.sampled_from(OPS)))
            out.append(atom())
        return out

    return expr(2)


def render_shape(pieces: list[object], row: int) -> str | None:
    """The text of a shape whose relative rows are offsets from `row` (None: off-sheet)."""
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        assert isinstance(piece, tuple)
        kind, off, col, dcol, drow, sheet, w, h = piece
        r = row + off
        if not (r >= 1 and r + h <= MAX_ROW):
            return None
        d_c, d_r = ("$" if dcol else ""), ("$" if drow else "")
        if kind == "cell":
            out.append(f"{sheet}{d_c}{_col(col)}{d_r}{r}")
        elif kind == "range":
            out.append(f"{sheet}{d_c}{_col(col)}{d_r}{r}:{_col(col + w)}{r + h}")
        elif kind == "cols":
            out.append(f"{sheet}{d_c}{_col(col)}:{_col(col + w)}")
        else:
            out.append(f"{sheet}{d_r}{r}:{r + h}")
    return "".join(out)


class ExcelTranslator(Translator):  # type: ignore[misc]
    """openpyxl's Translator with its one bug on our inputs fixed: it drops the sheet of a
    sheet-qualified name (``Sheet2!Rate`` became ``Rate``); Excel never changes a name."""

    @classmethod
    def translate_range(cls, range_str: str, rdelta: int, cdelta: int) -> str:
        _, rest = cls.strip_ws_name(range_str)
        if not (
            cls.ROW_RANGE_RE.match(rest)
            or cls.COL_RANGE_RE.match(rest)
            or ":" in rest
            or cls.CELL_REF_RE.match(rest)
        ):
            return str(range_str)
        return str(super().translate_range(range_str, rdelta, cdelta))


def openpyxl_move(text: str, src: tuple[int, int], dst: tuple[int, int]) -> str | None:
    """openpyxl's answer, or None where it refuses or leaves the sheet past XFD/1,048,576.

    Also None for ``Sheet1!A1:Sheet1!B2``, which openpyxl moves only half of (we refuse it).
    """
    try:
        tokens = Tokenizer("=" + text).items
    except TokenizerError:
        return None  # unreadable: we refuse too
    for token in tokens:
        unquoted = re.sub(r"'[^']*(?:''[^']*)*'|\[[^\]]*\]", "", token.value)
        if token.subtype == Token.RANGE and unquoted.count("!") > 1:
            return None
    try:
        out = ExcelTranslator("=" + text, _col(src[1]) + str(src[0])).translate_formula(
            _col(dst[1]) + str(dst[0])
        )
    except TranslatorError:
        return None
    moved_ref = False
    for token in Tokenizer(out).items:
        if token.type == Token.OPERAND and token.subtype == Token.RANGE:
            ref = token.value.rsplit("!", 1)[-1]
            cols: list[str] = []
            rows: list[str] = []
            for regex, into in ((Translator.ROW_RANGE_RE, rows), (Translator.COL_RANGE_RE, cols)):
                m = regex.match(ref)
                if m:
                    into.extend(m.groups())
            if not (rows or cols):
                for piece in ref.split(":"):
                    m = Translator.CELL_REF_RE.match(piece)
                    if m:
                        cols.append(m.group(1))
                        rows.append(m.group(2))
            moved_ref = moved_ref or bool(rows or cols)
            if any(_col_index(c.lstrip("$")) > MAX_COL for c in cols):
                return None
            if any(int(r.lstrip("$")) > MAX_ROW for r in rows):
                return None
    return str(out[1:])


def _col_index(letters: str) -> int:
    index = 0
    for ch in letters.upper():
        index = index * 26 + ord(ch) - 64
    return index


cells = st.tuples(st.integers(1, 40), st.integers(1, 40)) | st.tuples(
    st.integers(MAX_ROW - 40, MAX_ROW), st.integers(MAX_COL - 40, MAX_COL)
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=formula_shapes(),
    src=cells,
    moves=st.lists(st.tuples(st.integers(-5, 5), st.integers(-3, 3)), min_size=1, max_size=3),
)
def test_differential_against_openpyxl(
    shape: list[object], src: tuple[int, int], moves: list[tuple[int, int]]
) -> None:
    mover = FormulaMover()
    done = 0
    for step in range(4):  # the same shape at several rows: the cache path
        row = min(src[0] + step, MAX_ROW)
        text = render_shape(shape, row)
        if text is None:
            continue
        for d_row, d_col in moves:
            dst = (row + d_row, src[1] + d_col)
            if not (1 <= dst[0] <= MAX_ROW and 1 <= dst[1] <= MAX_COL):
                continue
            expected = openpyxl_move(text, (row, src[1]), dst)
            if dst == (row, src[1]):
                expected = text
            if expected is None:
                with pytest.raises(FormulaMoveError):
                    mover.move(text, row, src[1], *dst)
            else:
                assert mover.move(text, row, src[1], *dst) == expected
                done += dst != (row, src[1])
    if done >= 2 and len(mover._cache) == 1 and None not in mover._cache.values():
        assert mover.hits > 0  # one shape, cacheable, moved twice: the second was a hit


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("AB12$:!'\"[]#(),+ E.xLOG_@{};\n")), max_size=25),
    src=st.tuples(st.integers(1, 12), st.integers(1, 5)),
    dst=st.tuples(st.integers(1, 12), st.integers(1, 5)),
)
def test_differential_on_noise(text: str, src: tuple[int, int], dst: tuple[int, int]) -> None:
    """Arbitrary character soup: never a wrong answer, only openpyxl's or a refusal."""
    mover = FormulaMover()
    for row in (src[0], src[0] + 1):  # twice: the second is usually a cache hit
        try:
            expected = openpyxl_move(text, (row, src[1]), (row + dst[0] - src[0], dst[1]))
        except Exception:  # openpyxl cannot read it: we must refuse
            expected = None
        try:
            got: str | None = mover.move(text, row, src[1], row + dst[0] - src[0], dst[1])
        except FormulaMoveError:
            got = None
        if (row, src[1]) == (row + dst[0] - src[0], dst[1]):
            assert got == text
        elif got is not None:
            assert got == expected


# ------------------------------------------------------------ keeps_value_on_row_move

KEEPS = [
    ("1+2", True),
    ('"text"&"more"', True),
    ("B7*2", True),
    ("$B7*C7", True),
    ("SUM(B7:F7)", True),
    ("ROUND(B7/C7,2)", True),
    ("IF(B7>0,B7,#N/A)", True),
    ("Table1[@Score]*2", True),
    ("Table1[[#This Row],[Score]]+B7", True),
    ("{1,2;3,4}", True),
    ("B6", False),  # the row above
    ("B$7", False),  # an absolute row stays row 7 while the formula moves
    ("SUM(B7:B8)", False),
    ("SUM(B:B)", False),
    ("SUM(7:7)", False),
    ("Sheet2!B7", False),
    ("Rate*B7", False),  # a defined name
    ("Table1[Score]", False),  # the whole column of a table
    ("ROW()", False),
    ("ROW(B7)", False),
    ("OFFSET(B7,0,1)", False),
    ('INDIRECT("B7")', False),
    ("RAND()*B7", False),
    ("NOW()", False),
    ("_xlfn.RANDARRAY(2)", False),
    ("SUBTOTAL(9,B7:C7)", False),
    ("MyUdf(B7)", False),  # not understood
    ("XFE7", False),  # a name to Excel
    ("A7#", False),  # unreadable to openpyxl
]


@pytest.mark.parametrize(("text", "keeps"), KEEPS)
def test_keeps_value_on_row_move(text: str, keeps: bool) -> None:
    mover = FormulaMover()
    assert mover.keeps_value_on_row_move(text, 7, 4) is keeps
    assert mover.keeps_value_on_row_move(text, 7, 4) is keeps  # cached


def test_keeps_value_is_per_row() -> None:
    mover = FormulaMover()
    assert mover.keeps_value_on_row_move("B7*2", 7, 4)
    assert mover.keeps_value_on_row_move("B8*2", 8, 4)
    assert not mover.keeps_value_on_row_move("B7*2", 8, 4)


# -------------------------------------------------------------------- hostile input

HOSTILE = ["(", "'", '"', "A1", "$", "[", "[a]", '"a"&', "A1+", ":", "#", "1:", "A1:", "'a'!", "{"]


@pytest.mark.parametrize("unit", HOSTILE)
def test_crafted_input_is_bounded(unit: str) -> None:
    mover = FormulaMover()
    for size in (50_000, MAX_FORMULA_LENGTH):
        text = (unit * (size // len(unit) + 1))[:size]
        # Either an answer or FormulaMoveError, nothing else; pytest's durations show the time.
        with contextlib.suppress(FormulaMoveError):
            mover.move(text, 5, 5, 6, 6)
        assert mover.keeps_value_on_row_move(text, 5, 5) in (True, False)


@pytest.mark.parametrize(
    "text", ["C2*2+$A$1", "ROW(B2)-1", "SUM(A2:B2)", "Sheet2!B2", "A1+1", "$B$2*B2", "1+2"]
)
def test_move_row_is_move_and_keeps_value_in_one_lookup(text: str) -> None:
    for mover in (FormulaMover(), FormulaMover()):
        for _ in range(2):  # the first call builds the shape, the second reads the cache
            want = (mover.move(text, 2, 3, 9, 3), mover.keeps_value_on_row_move(text, 2, 3))
            assert mover.move_row(text, 2, 3, 9) == want


# ------------------------------------------------------ simple formulas, without openpyxl


def _fields(shape: Shape) -> tuple[object, ...]:
    return tuple(getattr(shape, name) for name in Shape.__slots__)


def _both_readings(text: str, row: int, col: int) -> None:
    """Where :func:`simple_shape` reads ``text``, its shape and cacheability are those of
    openpyxl's tokens (:func:`build_shape`), and openpyxl can read it at all."""
    simple = simple_shape(text, row, col)
    try:
        built, cacheable, _ = build_shape(text, row, col)
    except FormulaMoveError:
        assert simple is None, text
        return
    if simple is not None:
        assert _fields(simple[0]) == _fields(built), text
        assert simple[1] == cacheable, text


SIMPLE_OPS = ["+", "-", "*", "/", "&", "^", "=", "<>", ">=", "<=", "<", ">", ","]
SIMPLE_FUNCS = [*FUNCS, "ROW", "NOW", "OFFSET", "A1", "FOO", "CEILING.MATH", "PI"]


@st.composite
def simple_formulas(draw: st.DrawFn) -> str:
    """Formulas of cells, ranges of two cells, numbers, operators, percent signs,
    parentheses and function calls, some off the sheet (row 0 is not written: no cell
    has it; XFE and rows past 1,048,576 are)."""

    def cell() -> str:
        letters = draw(st.sampled_from(["A", "B", "E", "Z", "AB", "XFD", "XFE", "ZZZ", "LOG"]))
        row = draw(st.sampled_from([1, 2, 3, 9, 10, 99, MAX_ROW, MAX_ROW + 1, 9_999_999]))
        return (
            ("$" if draw(st.booleans()) else "")
            + letters
            + ("$" if draw(st.booleans()) else "")
            + str(row)
        )

    def atom() -> str:
        which = draw(st.integers(0, 5))
        if which < 3:
            return cell()
        if which == 3:
            return cell() + ":" + cell()
        return draw(st.sampled_from(["2", "1.5", "0", "007", "100"]))

    def expr(depth: int) -> str:
        if depth > 0 and draw(st.integers(0, 2)) == 0:
            args = ",".join(expr(depth - 1) for _ in range(draw(st.integers(0, 3))))
            return draw(st.sampled_from(SIMPLE_FUNCS)) + "(" + args + ")"
        out = draw(st.sampled_from(["", "-", "+"])) + atom()
        for _ in range(draw(st.integers(0, 3))):
            out += draw(st.sampled_from(SIMPLE_OPS)) + atom() + draw(st.sampled_from(["", "%"]))
        if depth > 0 and draw(st.integers(0, 3)) == 0:
            out = "(" + out + ")"
        return out

    return expr(2)


@settings(max_examples=400, deadline=None)
@given(text=simple_formulas(), row=st.integers(1, 12), col=st.integers(1, 6))
def test_simple_shapes_are_the_shapes_of_openpyxls_tokens(text: str, row: int, col: int) -> None:
    _both_readings(text, row, col)
    if "(" not in text and ")" not in text:
        assert simple_shape(text, row, col) is not None, text


@settings(max_examples=400, deadline=None)
@given(
    text=simple_formulas(),
    noise=st.lists(
        st.tuples(st.integers(0, 40), st.sampled_from(list(" :!'\"[]#{};\nEe.a_@$(0)"))),
        min_size=1,
        max_size=3,
    ),
    row=st.integers(1, 12),
)
def test_simple_formulas_with_noise_are_read_as_openpyxl_reads_them(
    text: str, noise: list[tuple[int, str]], row: int
) -> None:
    for at, ch in noise:
        at = min(at, len(text))
        text = text[:at] + ch + text[at:]
    _both_readings(text, row, 3)


@pytest.mark.parametrize(
    "text",
    ["A2*2", "SUM(B2:D2)/C2", "IF(B2>0,B2,0)", "$A$1+B2", "ROUND(A2*1.5,2)", "-A2%", "(A2+B2)*2"],
)
def test_the_usual_formulas_are_read_without_openpyxl(text: str) -> None:
    assert simple_shape(text, 2, 5) is not None
    _both_readings(text, 2, 5)


@pytest.mark.parametrize(
    "text",
    [
        *(")(", "A2)+(B2", "SUM(A2", "A2:B", "a2*2", "A2 *2", 'A2&"x"', "1E+5*A2", "Sheet2!A2"),
        *("A2:B2:C3", "#REF!+A2", "{1,2}", "A2;B2", "LOG10 (A2)", "Rate*A2", "TRUE", "A2.5", ""),
    ],
)
def test_other_formulas_are_left_to_openpyxl(text: str) -> None:
    assert simple_shape(text, 2, 5) is None
