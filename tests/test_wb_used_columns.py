"""The used columns of a sheet's rows (``scan.rowfind.used_cols``) against a reading of
every cell reference by a regular expression of this test's own: whichever way the engine
finds them (two searches over the rows for the common sheet, or each row's first and last
cell), the answer is the same."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from xlshuffle.workbook.scan.rowfind import used_cols
from xlshuffle.workbook.scan.sheet import SheetXml

_REF = re.compile(rb'<c r="([A-Z]+)\d+"')


def _letters(col: int) -> str:
    out = ""
    while col:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


def _col(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def _sheet(rows: list[list[int]]) -> bytes:
    body = b"".join(
        b'<row r="%d">' % (r + 1)
        + b"".join(b'<c r="%s%d"><v>1</v></c>' % (_letters(c).encode(), r + 1) for c in cols)
        + b"</row>"
        for r, cols in enumerate(rows)
    )
    return (
        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b"<sheetData>" + body + b"</sheetData></worksheet>"
    )


_ROWS = st.lists(
    st.lists(st.sampled_from([1, 2, 3, 5, 8, 26, 27, 52, 703]), unique=True).map(sorted),
    min_size=1,
    max_size=12,
)


@given(rows=_ROWS)
def test_used_columns_are_the_leftmost_and_rightmost_cells(rows: list[list[int]]) -> None:
    data = _sheet(rows)
    cols = [_col(m[1]) for m in _REF.finditer(data)]
    sx = SheetXml(data, "t.xlsx: sheet 'S'")
    want = (min(cols), max(cols)) if cols else (1, 1)
    assert used_cols(sx, 0, len(sx) - 1) == want


def test_the_common_sheet_is_answered_by_searches() -> None:
    """Columns A to E in every row: the answer, and the same for one cell further right in
    a middle row, which only a search of every row finds."""
    rows = [[1, 2, 3, 4, 5]] * 50
    sx = SheetXml(_sheet(rows), "t")
    assert used_cols(sx, 0, len(sx) - 1) == (1, 5)
    rows = [*rows[:20], [1, 2, 3, 4, 5, 6], *rows[20:]]
    sx = SheetXml(_sheet(rows), "t")
    assert used_cols(sx, 0, len(sx) - 1) == (1, 6)
    rows = [[2, 3]] * 5 + [[3, 27]] + [[2]] * 5
    sx = SheetXml(_sheet(rows), "t")
    assert used_cols(sx, 0, len(sx) - 1) == (2, 27)
