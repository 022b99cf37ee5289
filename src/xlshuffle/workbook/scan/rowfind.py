"""Where the values and cells of a sheet are, found by C-level searches rather than row
by row: the used rows (:func:`valued_rows`) and the used columns (:func:`used_cols`)."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from itertools import repeat, tee
from operator import add

from .refs import MAX_COL, col_index
from .sheet import SheetXml, no_r_attribute, numbered_cell_tag

__all__ = ["used_cols", "valued_rows"]


def valued_rows(sx: SheetXml) -> tuple[int, int] | None:
    """Indexes of the first and last stored rows that hold a value or formula (as
    :meth:`.SheetXml.row_has_value`), found from each end by ``find``/``rfind`` of the markers: a
    million empty rows after the data cost no Python code per row."""
    n = len(sx.numbers)
    if not n:
        return None
    data, starts, ends = sx.data, sx.starts, sx.ends
    marks = [b"<" + sx.prefix + tag for tag in (b"v>", b"v ", b"is>", b"f>", b"f ")]
    lo, hi = starts[0], ends[n - 1]
    first = n
    for mark in marks:  # each mark only looks before the first valued row found so far
        stop = hi if first == n else ends[first]
        pos = data.find(mark, lo, stop)
        while pos >= 0:
            i = bisect.bisect_right(starts, pos) - 1
            if pos + len(mark) <= ends[i]:
                first = min(first, i)
                break
            pos = data.find(mark, ends[i], stop)  # between rows: foreign content
    if first == n:
        return None
    last = first
    for mark in marks:  # each mark only looks after the last valued row found so far
        end = hi
        while True:
            pos = data.rfind(mark, starts[last], end)
            if pos < 0:
                break
            i = bisect.bisect_right(starts, pos) - 1
            if pos + len(mark) <= ends[i]:
                last = max(last, i)
                break
            end = pos + len(mark) - 1
    return first, last


def used_cols(sx: SheetXml, i0: int, i1: int) -> tuple[int, int]:
    """Leftmost and rightmost stored cell of rows ``i0..i1`` (indexes).

    Cells are in column order inside a row, so each row's first and last cell are
    enough; when every cell of the rows starts ``<c r="`` (one count of each) those are
    found by C-level searches, and only the few distinct references are read in Python.
    """
    if i1 < i0:
        return 1, 1
    if sx.plain:
        found = _used_cols_by_search(sx, i0, i1)
        if found is not None:
            return found
    data, p = sx.data, sx.prefix
    mark = b"<" + p + b'c r="'
    a, b = sx.starts[i0], sx.ends[i1]
    if not sx.plain or not sx.cells_numbered(a, b):
        if sx.plain and data.find(mark, a, b) < 0:
            found = _used_cols_unnumbered(sx, i0, i1, data.count(b"<" + p + b"c", a, b))
            if found is not None:
                return found
        return _used_cols_careful(sx, i0, i1)
    starts, ends = sx.starts[i0 : i1 + 1], sx.ends[i0 : i1 + 1]
    n = len(mark)
    heads: set[bytes] = set()
    for find in (data.find, data.rfind):
        # the three bytes after each mark (none in a row without a cell), by lazy C-level
        # maps: no Python code a row, and no list of a million positions
        at, at_too = tee(filter((-1).__ne__, map(find, repeat(mark), starts, ends)))
        after = map(slice, map(add, at, repeat(n)), map(add, at_too, repeat(n + 3)))
        heads.update(map(data.__getitem__, after))
    letters = {h.rstrip(b'0123456789"') for h in heads}
    if not all(map(_LETTERS.fullmatch, letters)):
        return _used_cols_careful(sx, i0, i1)
    cols = [col_index(x) for x in letters]
    return (min(cols), max(cols)) if cols else (1, 1)


_LETTERS = re.compile(rb"[A-Z]{1,3}")
_FIRST_REF = re.compile(rb"([A-Z])\d")


def _used_cols_by_search(sx: SheetXml, i0: int, i1: int) -> tuple[int, int] | None:
    """:func:`used_cols` of rows whose cells all say ``r`` first, by two searches over
    them rather than two a row, for the common sheet: every cell in one of the columns
    ``A`` to the one the first and last rows end in (at most ``Z``), and one in ``A``.
    None when that does not hold (then each row is read). The first search also finds
    that every cell says ``r`` first, which the sheet remembers
    (:meth:`~.sheet.SheetXml.cells_numbered` then searches nothing)."""
    data, p = sx.data, sx.prefix
    mark = b"<" + p + b'c r="'
    last = b"A"
    for i in (i0, i1):
        at = data.rfind(mark, sx.starts[i], sx.ends[i])
        m = _FIRST_REF.match(data, at + len(mark)) if at >= 0 else None
        if at >= 0 and m is None:
            return None  # a two-letter column, or a reference written otherwise
        last = max(last, m[1] if m is not None else b"A")
    a, b = sx.starts[i0], sx.ends[i1]
    if _outside(p, last).search(data, a, b) is not None:
        return None  # a cell beyond, one that says no r first, or another <c... element
    sx.know_cells_numbered(a, b)
    if _in_column_a(p).search(data, a, b) is None:
        return None
    return 1, col_index(last)


@lru_cache(maxsize=32)
def _outside(prefix: bytes, last: bytes) -> re.Pattern[bytes]:
    """``<c`` that does not start a cell whose reference is one of the columns ``A`` to
    ``last`` and a digit, written first."""
    return re.compile(rb"<" + re.escape(prefix) + rb'c(?! r="[A-' + last + rb"]\d)")


@lru_cache(maxsize=8)
def _in_column_a(prefix: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"<" + re.escape(prefix) + rb'c r="A\d')


def _used_cols_unnumbered(sx: SheetXml, i0: int, i1: int, cells: int) -> tuple[int, int] | None:
    """:func:`used_cols` of rows whose cells say no ``r`` (each cell is the one after the
    previous, the first in column A): columns 1 to the most cells in a row, counted by
    C-level maps. None when a cell tag has an ``r`` after another attribute, or when
    ``<c`` starts anything but a cell (a rich text's ``<color>``)."""
    data, p = sx.data, sx.prefix
    a, b = sx.starts[i0], sx.ends[i1]
    if not no_r_attribute(data, a, b) and numbered_cell_tag(p).search(data, a, b) is not None:
        return None
    starts, ends = sx.starts[i0 : i1 + 1], sx.ends[i0 : i1 + 1]
    c = b"<" + p + b"c"
    per_row = [list(map(data.count, repeat(c + end), starts, ends)) for end in (b">", b" ", b"/")]
    counts = list(map(add, map(add, per_row[0], per_row[1]), per_row[2]))
    if sum(counts) != cells:
        return None
    most = max(counts, default=0)
    if most > MAX_COL:
        return None
    return (1, most) if most else (1, 1)


def _used_cols_careful(sx: SheetXml, i0: int, i1: int) -> tuple[int, int]:
    lo, hi = MAX_COL + 1, 0
    for i in range(i0, i1 + 1):
        cells = sx.cells(i)
        if cells:
            lo, hi = min(lo, cells[0].col), max(hi, cells[-1].col)
    return (lo, hi) if hi else (1, 1)
