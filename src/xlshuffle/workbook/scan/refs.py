"""A1 references: column letters, cells and ranges, 1-based as Excel writes them.

The sheet's limits (``MAX_ROW``, ``MAX_COL``) and the column-letter converters
(``col_index``, ``col_letters``) are defined once, in ``xlshuffle.common.a1``, which the
worksheet functions share; the workbook engine takes them from here.
"""

from __future__ import annotations

import re

from ...common.a1 import MAX_COL, MAX_ROW, col_index, col_letters

__all__ = [
    "MAX_COL",
    "MAX_ROW",
    "Area",
    "cell_ref",
    "col_index",
    "col_letters",
    "parse_area",
    "quote_sheet",
    "split_sheet",
]

_CELL = re.compile(r"\$?([A-Za-z]{1,3})?\$?(\d{1,7})?")


def cell_ref(row: int, col: int) -> str:
    """(7, 2) -> ``"B7"``."""
    return f"{col_letters(col)}{row}"


class Area(tuple[int, int, int, int]):
    """A rectangle ``(top, left, bottom, right)``, 1-based and inclusive."""

    __slots__ = ()

    @property
    def top(self) -> int:
        return self[0]

    @property
    def left(self) -> int:
        return self[1]

    @property
    def bottom(self) -> int:
        return self[2]

    @property
    def right(self) -> int:
        return self[3]

    def a1(self) -> str:
        """``"A1:D9"`` (one cell: ``"A1"``)."""
        first = cell_ref(self.top, self.left)
        last = cell_ref(self.bottom, self.right)
        return first if first == last else f"{first}:{last}"

    def overlaps(self, other: tuple[int, int, int, int]) -> bool:
        t, left, b, r = other
        return not (b < self.top or t > self.bottom or r < self.left or left > self.right)

    def shares_rows(self, other: tuple[int, int, int, int]) -> bool:
        """Whether the two have a row in common, whatever their columns."""
        return not (other[2] < self.top or other[0] > self.bottom)

    def contains(self, other: tuple[int, int, int, int]) -> bool:
        t, left, b, r = other
        return self.top <= t and b <= self.bottom and self.left <= left and r <= self.right


def parse_area(text: str) -> Area | None:
    """``"B2:D9"``, ``"$B$2"``, ``"A:D"`` or ``"2:9"`` -> an :class:`Area`; None if it is not
    a reference on the sheet. Whole columns run over every row, whole rows over every
    column; corners may come in any order."""
    parts = text.strip().split(":")
    if not 1 <= len(parts) <= 2:
        return None
    corners = []
    for part in parts:
        m = _CELL.fullmatch(part.strip())
        if m is None or (m[1] is None and m[2] is None):
            return None
        col = col_index(m[1]) if m[1] else None
        row = int(m[2]) if m[2] else None
        if (col is not None and not 1 <= col <= MAX_COL) or (
            row is not None and not 1 <= row <= MAX_ROW
        ):
            return None
        corners.append((row, col))
    (r0, c0), (r1, c1) = corners[0], corners[-1]
    if (r0 is None) != (r1 is None) or (c0 is None) != (c1 is None):
        return None
    if r0 is None or r1 is None:
        r0, r1 = 1, MAX_ROW
    if c0 is None or c1 is None:
        c0, c1 = 1, MAX_COL
    return Area((min(r0, r1), min(c0, c1), max(r0, r1), max(c0, c1)))


# a sheet name Excel writes bare: a word not starting with a digit that is not a cell
# reference in A1 or R1C1 style (Excel quotes "Q1", "R2C3", "2024", "Class 7B", "It's")
_BARE_SHEET = re.compile(r"[^\W\d]\w*")
_LOOKS_LIKE_REF = re.compile(r"[A-Za-z]{1,3}\d+|[Rr]\d*(?:[Cc]\d*)?|[Cc]\d*", re.ASCII)
_QUOTED_PREFIX = re.compile(r"'((?:[^']|'')+)'!(.*)", re.DOTALL)


def quote_sheet(name: str) -> str:
    """A sheet name as Excel writes it before ``!``: quoted (inner ``'`` doubled) when it
    must be.

    >>> quote_sheet("Sheet1"), quote_sheet("Class 7B"), quote_sheet("It's"), quote_sheet("Q1")
    ('Sheet1', "'Class 7B'", "'It''s'", "'Q1'")
    """
    if _BARE_SHEET.fullmatch(name) and not _LOOKS_LIKE_REF.fullmatch(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def split_sheet(text: str) -> tuple[str | None, str]:
    """``"'Class 7B'!A2:C23"`` or ``"Class 7B!A2:C23"`` -> ``("Class 7B", "A2:C23")``;
    a range without a sheet -> ``(None, text)``.

    >>> split_sheet("'It''s'!A1:B3"), split_sheet("Sheet1!A1"), split_sheet("A1:B2")
    (("It's", 'A1:B3'), ('Sheet1', 'A1'), (None, 'A1:B2'))
    """
    stripped = text.strip()
    m = _QUOTED_PREFIX.fullmatch(stripped)
    if m is not None:
        return m[1].replace("''", "'"), m[2]
    sheet, bang, ref = stripped.rpartition("!")
    if not bang or not sheet:
        return None, text
    return sheet, ref
