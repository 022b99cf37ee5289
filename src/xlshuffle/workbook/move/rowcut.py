"""Rows cut around a block of contiguous columns, as bytes: start tag | cells left of the
block | block cells | cells right of it | what follows the last cell (:class:`RowCut`).

A row takes the quick cut when its bytes, digits deleted, match the plain grammar of
:func:`_grammar` (``<c r=...>`` cells holding at most a plain ``<f>`` or a shared formula
as Excel fills one down, a ``<v>`` and an inline ``<is><t>``; no gap, comment or other
child), its cells are in order and every one says the row's number. A row whose cells
say no ``r`` is numbered first (:meth:`RowCut._row`), as the careful path numbers it;
where no cell of the sheet says ``r``, its shape is known without numbering it
(:meth:`RowCut.bare_shape`), and the block path numbers only the cells it writes. The
shape is analysed once and remembered: the rows of a sheet share a handful. The
streaming block path (:mod:`.block`) and verify's row digests
(:func:`~..records.rowdigest.block_digests`) both cut rows this way.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import pairwise

from ..scan.refs import MAX_COL, col_index
from ..scan.sheet import SheetXml, cells_unnumbered, numbered_row

__all__ = ["RowCut", "RowShape", "fix_spans"]

_DIGITS = b"0123456789"
_CAPITALS = bytes(range(65, 91))
_SPANS = re.compile(rb"\sspans\s*=\s*[\"'](\d+):(\d+)[\"']")


def fix_spans(head: bytes, lo: int, hi: int) -> bytes:
    """``head`` with its ``spans`` widened to hold columns ``lo..hi`` (0 when no cell)."""
    m = _SPANS.search(head)
    if m is None or not hi:
        return head
    lo, hi = min(int(m[1]), lo), max(int(m[2]), hi)
    return head[: m.start()] + b' spans="%d:%d"' % (lo, hi) + head[m.end() :]


def _grammar(prefix: bytes) -> re.Pattern[bytes]:
    """A plain row with its digits deleted (so the rows of a sheet share a few shapes)."""
    p = re.escape(prefix.translate(None, _DIGITS))
    attr = rb'\s+[A-Za-z_][\w:.-]*="[^"<>]*"'
    text = rb"[^<]*"
    # a formula the quick translation reads exactly as CellWriter does: ASCII, no CR; its
    # start tag plain or with attributes that leave it what its text says (LibreOffice's
    # aca="false"), as PlainFormulas.plain reads them
    formula = (
        rb"<"
        + p
        + rb'f(?:\s+(?:aca|ca|bx)="[^"<>]*"|\s+t="normal")*>[^<\r\x80-\xff]+</'
        + p
        + rb"f>"
    )
    # a shared formula as Excel fills it down (a member, or the master with its range):
    # the block path keeps such a cell where it stays and sends one that moves, or one
    # of a group the draw touches, the careful way
    shared = (
        rb"<"
        + p
        + rb'f t="shared"(?: ref="[A-Z$:]*")? si=""(?:/>|>[^<\r\x80-\xff]+</'
        + p
        + rb"f>)"
    )
    formula = rb"(?:" + formula + rb"|" + shared + rb")"
    inline = (
        rb"<"
        + p
        + rb"is><"
        + p
        + rb"t(?:"
        + attr
        + rb")*>"
        + text
        + rb"</"
        + p
        + rb"t></"
        + p
        + rb"is>"
    )
    cell = (
        rb"<"
        + p
        + rb'c r="[A-Z]{1,3}"(?:'
        + attr
        + rb")*(?:/>|>(?:"
        + formula
        + rb")?(?:<"
        + p
        + rb"v>"
        + text
        + rb"</"
        + p
        + rb"v>)?(?:"
        + inline
        + rb")?</"
        + p
        + rb"c>)"
    )
    row = rb"<" + p + rb'row r=""(?:' + attr + rb")*(?:/>|>(?:" + cell + rb")*</" + p + rb"row>)"
    return re.compile(row)


@dataclass
class RowShape:
    """What a plain row shape says: its cells' columns and which of them are the block's."""

    letters: list[bytes]
    cols: list[int]
    a: int  # first block cell
    b: int  # first cell right of the block


_UNSEEN = RowShape([], [], 0, 0)


class RowCut:
    """The quick cut of the rows of ``sx`` around the block of columns ``c0..c1``."""

    _MAX_SHAPES = 4096
    _NUMBERED_BYTES = 64 << 20

    def __init__(self, sx: SheetXml, c0: int, c1: int) -> None:
        self.sx, self.c0, self.c1 = sx, c0, c1
        p = sx.prefix
        self.grammar = _grammar(p)
        self.cell_letters = re.compile(rb"<" + re.escape(p) + rb'c r="([A-Z]{1,3})"')
        self.row_r, self.c_r = b"<" + p + b'row r="', b"<" + p + b'c r="'
        self.c_any = b"<" + p + b"c"
        self.c_r_bare = self.c_r.translate(None, _CAPITALS)
        self.close_tag = b"</" + p + b"row>"
        self.shapes: dict[bytes, RowShape | None] = {}
        #: the shapes of rows that say no ``r``, by their bytes without digits
        self.bare_shapes: dict[bytes, RowShape | None] = {}
        self.numbered: dict[tuple[int, int], bytes] = {}
        self.numbered_bytes = 0
        #: Whether no cell of the sheet says ``r`` (:func:`~..scan.sheet.cells_unnumbered`),
        #: found when a row first needs numbering.
        self.unnumbered: bool | None = None

    def _row(self, i: int, number: int) -> bytes:
        """Row ``i`` as the quick cut reads it at place ``number``: a row whose cells say no
        ``r`` numbered there as the careful path numbers it
        (:func:`~..scan.sheet.numbered_row`), any other as it is."""
        sx = self.sx
        row = sx.data[sx.starts[i] : sx.ends[i]]
        if self._says_r(row):
            return row
        # a block move reads each row twice, at its place and as a source, both times at
        # its own number: numbered once, kept while they take less than _NUMBERED_BYTES
        key = (i, number)
        done = self.numbered.get(key)
        if done is None:
            done = self._number(row, number)
            if self.numbered_bytes < self._NUMBERED_BYTES:
                self.numbered[key] = done
                self.numbered_bytes += len(done)
        else:  # its second reading: not asked again
            del self.numbered[key]
            self.numbered_bytes -= len(done)
        return done

    def _number(self, row: bytes, number: int) -> bytes:
        """``row`` numbered at ``number`` (:func:`~..scan.sheet.numbered_row`), or as it is."""
        return numbered_row(row, number, self.sx.prefix, checked=self.cells_unnumbered()) or row

    def cells_unnumbered(self) -> bool:
        """Whether no cell of the sheet says ``r`` and ``<c`` starts only cells
        (:func:`~..scan.sheet.cells_unnumbered`), found once."""
        if self.unnumbered is None:
            sx = self.sx
            start, end = sx.content_start, sx.content_end
            self.unnumbered = cells_unnumbered(sx.data, start, end, sx.prefix)
        return self.unnumbered

    def bare_shape(self, row: bytes) -> RowShape | None:
        """The plain shape that ``row``, whose start tag and cells say no ``r``, takes once
        numbered (:func:`~..scan.sheet.numbered_row`), without numbering it: the shape of
        its bytes without digits, numbered once. None when numbering would not give a
        plain row, or its start tag says ``r`` somewhere. Only where
        :meth:`cells_unnumbered` holds."""
        key = row.translate(None, _DIGITS)
        shape = self.bare_shapes.get(key, _UNSEEN)
        if shape is _UNSEEN:
            numbered = numbered_row(key, 1, self.sx.prefix, checked=True)
            if key.startswith(self.row_r) or numbered is None:
                shape = None
            else:
                shape = self._analyse(numbered.translate(None, _DIGITS))
            if len(self.bare_shapes) >= self._MAX_SHAPES:
                self.bare_shapes.clear()
            self.bare_shapes[key] = shape
        return shape

    def _says_r(self, row: bytes) -> bool:
        """Whether ``row`` says its number, and its cells theirs (or it has none)."""
        return row.startswith(self.row_r) and (self.c_r in row or self.c_any not in row)

    def block_of(self, i: int) -> bytes | None:
        """The block cells of row ``i`` as they stand (``b""`` when none; in a row whose
        cells say no ``r``, numbered as a draw numbers them), or None when the row takes
        the careful way."""
        row = self.sx.row(i)
        number = self.sx.numbers[i]
        if not self._says_r(row):
            row = self._number(row, number)
        shape = self._shape(row, number)
        if shape is None:
            return None
        if shape.a == shape.b:
            return b""
        h = row.find(b">") + 1
        return row[
            self._at(row, shape, shape.a, number, h) : self._at(row, shape, shape.b, number, h)
        ]

    def _shape(self, row: bytes, number: int) -> RowShape | None:
        """The row's plain shape, if it has one and says ``number`` everywhere."""
        key = row.translate(None, _DIGITS)
        shape = self.shapes.get(key, _UNSEEN)
        if shape is _UNSEEN:
            shape = self._analyse(key)
            if len(self.shapes) >= self._MAX_SHAPES:
                self.shapes.clear()
            self.shapes[key] = shape
        if shape is None:
            return None
        q = b'%d"' % number
        if not row.startswith(self.row_r + q):
            return None
        n = len(shape.cols)
        if n and row.translate(None, _CAPITALS).count(self.c_r_bare + q) != n:
            return None
        return shape

    def _analyse(self, key: bytes) -> RowShape | None:
        if self.grammar.fullmatch(key) is None:
            return None
        letters = self.cell_letters.findall(key)
        cols = [col_index(x) for x in letters]
        if any(a >= b for a, b in pairwise(cols)) or (cols and cols[-1] > MAX_COL):
            return None  # the careful path says what is wrong
        return RowShape(letters, cols, bisect_left(cols, self.c0), bisect_right(cols, self.c1))

    def _at(self, row: bytes, shape: RowShape, k: int, number: int, head_end: int) -> int:
        """Where cell ``k`` of a plain row starts (the closing tag for ``k == n``)."""
        if k == 0:
            return head_end
        if k == len(shape.cols):
            return len(row) - len(self.close_tag)
        return row.find(self.c_r + shape.letters[k] + b'%d"' % number, head_end)
