"""Where the values of a sheet are, found by C-level searches rather than row by row."""

from __future__ import annotations

import bisect

from .sheet import SheetXml

__all__ = ["valued_rows"]


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
