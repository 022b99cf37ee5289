"""Hypothesis strategies for the workbook engine's property tests: small random workbooks.

A :class:`BookSpec` is drawn by :func:`book_specs` and written with openpyxl by
:func:`write_book`. The drawn sheet ``Data`` has a header row of distinct labels (row 1)
and up to 12 data rows of up to 5 columns holding values of every type, styles, formulas
(relative, absolute, mixed, cross-sheet, same-row), merges within one data row, comments,
hyperlinks, row heights and hidden rows. A second sheet holds values the cross-sheet
formulas point at, and formulas pointing back at the drawn sheet.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

SHEET = "Data"
OTHER = "Other sheet"  # a name that must be quoted in formulas
Q_OTHER = "'Other sheet'"

# openpyxl refuses control characters but \t, \n and \r; surrogates cannot be encoded.
_chars = st.characters(blacklist_categories=("Cs", "Cc"))
_texts = st.one_of(
    st.text(_chars, max_size=10),
    st.sampled_from([" ", "  padded  ", "a\nb", "\tt", "x\r\ny", "'quoted", "_x0041_", "é", "𝔘"]),
)
_floats = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    # 17 significant digits, the most a double needs to round-trip
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda x: float(f"{x:.16e}")),
    st.sampled_from([0.1 + 0.2, 1 / 3, 2.0**53 + 2, 5e-324, -0.0, 1e21, 123456789.12345678]),
)


@dataclass(frozen=True)
class Value:
    """A literal value; ``as_text`` writes a string starting with "=" as a string."""

    value: Any
    as_text: bool = False


values = st.one_of(
    st.none(),
    st.integers(min_value=-(10**15), max_value=10**15).map(Value),
    _floats.map(Value),
    _texts.map(Value),
    st.booleans().map(Value),
    st.dates(min_value=dt.date(1900, 3, 1), max_value=dt.date(9999, 12, 31)).map(Value),
    st.datetimes(min_value=dt.datetime(1900, 3, 1), max_value=dt.datetime(9999, 12, 31)).map(
        lambda d: Value(d.replace(microsecond=0))
    ),
    st.text(_chars, max_size=8).map(lambda t: Value("=" + t, as_text=True)),
)

# no date formats: openpyxl warns on reading a number outside the dates as a date
NUMBER_FORMATS = ["General", "0.00", "#,##0", "0%", "@", "0.000E+00", "0.0000000000000000"]
COLOURS = ["FFFF0000", "FF00FF00", "FF0000FF", "FFFFFF00"]


@dataclass(frozen=True)
class Style:
    bold: bool
    fill: str | None
    number_format: str | None


styles = st.builds(
    Style,
    bold=st.booleans(),
    fill=st.none() | st.sampled_from(COLOURS),
    number_format=st.none() | st.sampled_from(NUMBER_FORMATS),
)


@dataclass
class BookSpec:
    """What :func:`write_book` writes. Positions are (row, column), 1-based, on ``Data``."""

    labels: list[str]
    n_data: int
    cells: dict[tuple[int, int], Any] = field(default_factory=dict)  # Value or formula str
    styles: dict[tuple[int, int], Style] = field(default_factory=dict)
    merges: list[tuple[int, int, int]] = field(default_factory=list)  # (row, left, right)
    comments: dict[tuple[int, int], str] = field(default_factory=dict)
    links: dict[tuple[int, int], str] = field(default_factory=dict)
    heights: dict[int, float] = field(default_factory=dict)
    hidden: set[int] = field(default_factory=set)
    extras: bool = False  # data validation, conditional formatting, defined names

    @property
    def n_cols(self) -> int:
        return len(self.labels)

    @property
    def bottom(self) -> int:
        return self.n_data + 1

    def formulas(self) -> dict[tuple[int, int], str]:
        return {p: v for p, v in self.cells.items() if isinstance(v, str)}


def _col(n_cols: int) -> st.SearchStrategy[str]:
    # one column beyond the data, so that some references point at empty cells
    return st.integers(1, n_cols + 1).map(get_column_letter)


@st.composite
def formulas(draw: st.DrawFn, row: int, n_cols: int, bottom: int) -> str:
    """A formula for a cell of row ``row``: relative, absolute, mixed, cross-sheet..."""
    rows = st.integers(1, bottom)

    def ref() -> str:
        kind = draw(st.sampled_from(["same-row", "relative", "absolute", "mixed-col", "mixed-row"]))
        col = draw(_col(n_cols))
        r = row if kind == "same-row" else draw(rows)
        if kind == "absolute":
            return f"${col}${r}"
        if kind == "mixed-col":
            return f"${col}{r}"
        if kind == "mixed-row":
            return f"{col}${r}"
        return f"{col}{r}"

    shape = draw(
        st.sampled_from(["ref", "sum", "other", "other-abs", "concat", "if", "range-other"])
    )
    if shape == "ref":
        return f"={ref()}"
    if shape == "sum":
        a, b = ref(), ref()
        return f"=SUM({a}:{b})"
    if shape == "other":
        return f"={Q_OTHER}!{draw(_col(3))}{draw(rows)}*2"
    if shape == "other-abs":
        return f"={Q_OTHER}!${draw(_col(3))}${draw(rows)}+{ref()}"
    if shape == "concat":
        return f'={ref()}&" x "&{ref()}'
    if shape == "if":
        return f'=IF({ref()}>0,{ref()},"no")'
    return f"=SUM({Q_OTHER}!A1:{draw(_col(3))}{draw(rows)})-{ref()}"


@st.composite
def book_specs(
    draw: st.DrawFn,
    *,
    max_rows: int = 12,
    max_cols: int = 5,
    min_rows: int = 0,
    with_formulas: bool = True,
    with_merges: bool = True,
    layout_traps: bool = False,
) -> BookSpec:
    """A random :class:`BookSpec`; without ``layout_traps``, one that none of the layout
    rules of the default selection (docs/batch.md) applies to: see :func:`_clean_layout`."""
    n_cols = draw(st.integers(1, max_cols))
    n_data = draw(st.integers(min_rows, max_rows))
    labels = draw(
        st.lists(
            # openpyxl writes a string that starts with "=" as a formula: not a label
            st.text(_chars, min_size=1, max_size=6).filter(lambda t: not t.startswith("=")),
            min_size=n_cols,
            max_size=n_cols,
            unique_by=str.casefold,
        )
    )
    spec = BookSpec(labels=labels, n_data=n_data)
    bottom = spec.bottom
    body = [(r, c) for r in range(2, bottom + 1) for c in range(1, n_cols + 1)]
    everywhere = [(1, c) for c in range(1, n_cols + 1)] + body
    for pos in body:
        if with_formulas and draw(st.integers(0, 9)) == 0:
            spec.cells[pos] = draw(formulas(pos[0], n_cols, bottom))
        else:
            v = draw(values)
            if v is not None:
                spec.cells[pos] = v
    for pos in everywhere:
        if draw(st.integers(0, 3)) == 0:
            spec.styles[pos] = draw(styles)
    covered: set[tuple[int, int]] = set()
    if with_merges and n_cols >= 2 and n_data and draw(st.booleans()):
        for r in draw(st.sets(st.integers(2, bottom), max_size=3)):
            left = draw(st.integers(1, n_cols - 1))
            right = draw(st.integers(left + 1, n_cols))
            spec.merges.append((r, left, right))
            covered |= {(r, c) for c in range(left + 1, right + 1)}
            for c in range(left + 1, right + 1):  # only the anchor keeps a value
                spec.cells.pop((r, c), None)
    free = [p for p in body if p not in covered]
    if free:
        for pos in draw(st.sets(st.sampled_from(free), max_size=3)):
            spec.comments[pos] = draw(st.text(_chars, min_size=1, max_size=8))
        for i, pos in enumerate(sorted(draw(st.sets(st.sampled_from(free), max_size=3)))):
            spec.links[pos] = f"https://example.com/{i}/{pos[0]}-{pos[1]}"
    for r in draw(st.sets(st.integers(1, bottom), max_size=4)):
        spec.heights[r] = draw(st.sampled_from([9.75, 21.0, 33.5]))
    spec.hidden = draw(st.sets(st.integers(2, bottom), max_size=2)) if n_data else set()
    spec.extras = draw(st.booleans())
    if not layout_traps:
        _clean_layout(spec)
    return spec


def _solid(v: Any) -> bool:
    if v is None or isinstance(v, str):  # a formula is something
        return v is not None
    return not isinstance(v.value, str) or bool(v.value.strip())


def _clean_layout(spec: BookSpec) -> None:
    """Make the default selection the whole used range (what the default-selection
    properties check): every label and every data row holds something, row 2 is not
    all text (a second header row), and the last row starts with a number and sums
    nothing (a total row). Titles need a row with one value above a wider one: none."""
    spec.labels = [t if t.strip() else f"#{c}{t}" for c, t in enumerate(spec.labels, 1)]
    for r in range(2, spec.bottom + 1):
        row = [spec.cells.get((r, c)) for c in range(1, spec.n_cols + 1)]
        solid = [v for v in row if _solid(v)]
        all_text = all(isinstance(v, Value) and isinstance(v.value, str) for v in solid)
        if not solid or (r == 2 and all_text) or r == spec.bottom:
            spec.cells[(r, 1)] = Value(r)
    for (r, c), v in list(spec.cells.items()):
        if r == spec.bottom and isinstance(v, str) and "SUM(" in v.upper():
            spec.cells[(r, c)] = Value(c)


def write_book(spec: BookSpec, path: Path) -> Path:
    """Write ``spec`` with openpyxl to ``path``; the drawn sheet is the active one."""
    wb = Workbook()
    ws = wb.active
    ws.title = SHEET
    for c, label in enumerate(spec.labels, 1):
        ws.cell(1, c, label)
    for (r, c), v in sorted(spec.cells.items()):
        cell = ws.cell(r, c)
        if isinstance(v, str):
            cell.value = v  # a formula
        else:
            cell.value = v.value
            if v.as_text:
                cell.data_type = "s"
    for (r, c), s in spec.styles.items():
        cell = ws.cell(r, c)
        if s.bold:
            cell.font = Font(bold=True)
        if s.fill:
            cell.fill = PatternFill("solid", fgColor=s.fill)
        if s.number_format:
            cell.number_format = s.number_format
    for (r, c), text in spec.comments.items():
        ws.cell(r, c).comment = Comment(text, "tester")
    for (r, c), url in spec.links.items():
        ws.cell(r, c).hyperlink = url
    for r, left, right in spec.merges:
        ws.merge_cells(start_row=r, start_column=left, end_row=r, end_column=right)
    for r, h in spec.heights.items():
        ws.row_dimensions[r].height = h
    for r in spec.hidden:
        ws.row_dimensions[r].hidden = True
    if spec.extras:
        dv = DataValidation(type="whole", operator="between", formula1="0", formula2="9")
        dv.add("B2:B4")
        ws.add_data_validation(dv)
        ws.conditional_formatting.add(
            "A2:A5", CellIsRule(operator="greaterThan", formula=["0"], font=Font(italic=True))
        )
        wb.defined_names["first_data"] = DefinedName("first_data", attr_text=f"{SHEET}!$A$2")
    other = wb.create_sheet(OTHER)
    for r in range(1, spec.bottom + 1):
        for c in range(1, 4):
            other.cell(r, c, r * 10 + c)
    other.cell(1, 5, f"={SHEET}!A2+{SHEET}!$B$3")
    wb.active = 0
    wb.save(path)
    return path


# ---------------------------------------------------------------- raw sheet XML

_RAW_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://'
    b'schemas.openxmlformats.org/spreadsheetml/2006/main">'
)


@st.composite
def _raw_cell(draw: st.DrawFn, r: int, c: int, odd: bool) -> bytes:
    """One ``<c>`` of row ``r``, column ``c``: the kinds Excel writes, and with ``odd`` the
    kinds the quick cut of move/block.py must hand over to the careful one."""
    ref = b' r="%s%d"' % (get_column_letter(c).encode(), r)
    style = draw(st.sampled_from([b"", b' s="1"', b' s="15"', b' s="5"', b' s="%d"' % r]))
    kinds = [
        "number",
        "empty",
        "shared",
        "inline",
        "formula",
        "formula-no-value",
        "formula-escaped",
        "absolute",
        "row-above",
    ]
    if odd:
        kinds += ["no-r", "lower-case", "single-quotes", "array", "non-ascii-formula", "cr"]
    kind = draw(st.sampled_from(kinds))
    if kind == "no-r":
        ref = b""
    elif kind == "lower-case":
        ref = ref.lower()
    elif kind == "single-quotes":
        ref = ref.replace(b'"', b"'")
    v = b"<v>%d</v>" % draw(st.integers(0, 99))
    body = {
        "number": v,
        "empty": None,
        "shared": b' t="s">' + v,
        "inline": b' t="inlineStr"><is><t xml:space="preserve"> x%d &amp; y</t></is>' % r,
        "formula": b"><f>A%d*2</f>" % r + v,
        "formula-no-value": b"><f>SUM(A%d:B%d)</f>" % (r, r),
        "formula-escaped": b' t="str"><f>A%d&amp;&quot;&gt;&quot;</f><v>q</v>' % r,
        "absolute": b"><f>$A$2+B%d</f>" % r + v,
        "row-above": b"><f>A%d+1</f>" % max(1, r - 1) + v,
        "array": b'><f t="array" ref="%s%d">A%d</f>' % (get_column_letter(c).encode(), r, r) + v,
        "non-ascii-formula": f'><f>A{r}&amp;"é"</f>'.encode() + v,
        "cr": b'><f>A%d&amp;"a\rb"</f>' % r + v,
        "no-r": v,
        "lower-case": v,
        "single-quotes": v,
    }[kind]
    if body is None:
        return b"<c" + ref + style + b"/>"
    if not body.startswith(b" t=") and not body.startswith(b">"):
        body = b">" + body
    return b"<c" + ref + style + body + b"</c>"


@st.composite
def raw_sheets(draw: st.DrawFn, max_rows: int = 10, max_cols: int = 5) -> tuple[bytes, int, int]:
    """``(sheet XML, last row, columns)``: a header row and data rows written as bytes, most
    as Excel writes them, some with what the quick cut of move/block.py refuses (cells
    without ``r``, gaps, comments, self-closing and unnumbered rows, shared formulas...)."""
    n_cols = draw(st.integers(1, max_cols))
    n_rows = draw(st.integers(2, max_rows))
    rows = []
    for r in range(1, n_rows + 1):
        odd = draw(st.integers(0, 5)) == 0
        if r > 1 and draw(st.integers(0, 9)) == 0:
            continue  # a row with nothing stored
        attrs = b"" if odd and draw(st.booleans()) else b' r="%d"' % r
        attrs += draw(
            st.sampled_from([b"", b' spans="1:%d"' % n_cols, b' spans="2:3"', b" spans='1:1'"])
        )
        attrs += draw(
            st.sampled_from([b"", b' ht="21" customHeight="1"', b' s="2" customFormat="1"'])
        )
        if draw(st.integers(0, 9)) == 0:
            rows.append(b"<row" + attrs + b"/>")
            continue
        cols = sorted(draw(st.sets(st.integers(1, n_cols + 1), max_size=n_cols + 1)))
        if r == 1:
            head = b'<c r="%s1" t="inlineStr"><is><t>h%d</t></is></c>'
            cells = [head % (get_column_letter(c).encode(), c) for c in range(1, n_cols + 1)]
        else:
            cells = [draw(_raw_cell(r, c, odd)) for c in cols]
        if odd and cells:
            trap = draw(st.sampled_from(["gap", "comment", "swap", "ext", "shared-formula"]))
            at = draw(st.integers(0, len(cells) - 1))
            if trap == "gap":
                cells[at] = b"\n  " + cells[at]
            elif trap == "comment":
                cells[at] = b"<!-- a note -->" + cells[at]
            elif trap == "swap" and len(cells) > 1:
                cells[0], cells[-1] = cells[-1], cells[0]
            elif trap == "ext":
                cells.append(b"<extLst/>")
            elif trap == "shared-formula" and r < n_rows:
                col = get_column_letter(n_cols + 2).encode()
                cells.append(
                    b'<c r="%s%d"><f t="shared" ref="%s%d:%s%d" si="0">A%d</f><v>1</v></c>'
                    % (col, r, col, r, col, r + 1, r)
                )
        sep = b"\n" if draw(st.integers(0, 7)) == 0 else b""
        rows.append(b"<row" + attrs + b">" + b"".join(cells) + b"</row>" + sep)
    return _RAW_HEAD + b"<sheetData>" + b"".join(rows) + b"</sheetData></worksheet>", n_rows, n_cols
