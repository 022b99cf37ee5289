"""The fast path of :func:`.cells.move_cells` for the common case: a block of contiguous
columns moving with its rows (``--by rows`` with a range, a table or a column list).

Every row of the region is cut in five: start tag | cells left of the block | block cells
| cells right of it | what follows the last cell. The row written at place ``p`` is its
own start tag (``spans`` widened by :func:`fix_spans`), its own left cells,
the block cells of the row drawn for ``p`` renumbered, its own right cells and its own
tail: the start tag and the cells outside the block belong to the place. The output is
byte for byte what :func:`.cells.move_cells` writes, streamed in chunks, with no cell
parsed in the common case.

A row takes the quick cut of :class:`~.rowcut.RowCut` (its bytes match a plain grammar,
its cells are in order and every one says the row's number). Any other row is parsed and
written cell by cell (:class:`~.cellwrite.CellWriter`), as :func:`.cells.move_cells` does;
rows of both kinds mix freely.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..formulas.translate import FormulaMover
from ..scan.sheet import SheetXml, cells_format, parse_cells, stored_at
from .cellwrite import (
    CellWriter,
    PlainFormulas,
    SharedFormulas,
    SharedGroups,
    has_number,
    rewrite_row_tag,
)
from .rowcut import RowCut, RowShape, fix_spans

__all__ = ["BlockMover"]

_CHUNK = 1 << 20


@dataclass
class _Own:
    """What a row keeps at its place: start tag, the cells outside the block, the tail.
    ``gaps`` (what precedes each cell, when anything does) is for the careful write."""

    head: bytes
    left: list[bytes]
    right: list[bytes]
    #: first and last columns of the left cells, of the right cells (0 when none)
    edges: tuple[int, int, int, int] = (0, 0, 0, 0)
    tail: bytes = b""
    gaps: list[bytes] | None = None
    numbered: bool = True  # the start tag says ``r=``


def _numbered(parts: list[bytes], prefix: bytes, first: int, number: bytes) -> bytes:
    """Cells that say no ``r`` (``parts``: each one's tag after ``<c``, of the columns
    from ``first`` on) with ``r`` written for row ``number``, by one formatting."""
    args = [number] * (2 * len(parts) + 1)
    args[0], args[2::2] = b"", parts
    return cells_format(prefix, first, len(parts)) % tuple(args)


class BlockMover(RowCut):
    """Rows ``top..bottom`` of ``sx`` with the cells of columns ``c0..c1`` drawn by ``perm``
    (``perm[p] = s``: place ``top + p`` gets the block of row ``top + s``).

    ``quick`` and ``careful`` count the rows cut each way, once as a place and once as a
    source of block cells (for tests).
    """

    def __init__(
        self,
        sx: SheetXml,
        top: int,
        bottom: int,
        cols: list[int],
        mover: FormulaMover,
        shared: SharedGroups,
    ) -> None:
        super().__init__(sx, cols[0], cols[-1])
        self.top, self.bottom = top, bottom
        self.writer = CellWriter(sx, mover, shared)
        self.formulas = PlainFormulas(sx, mover)
        self.fmark = b"<" + sx.prefix + b"f"
        # a shared formula (RowCut's grammar reads Excel's) in the block, or of a group the
        # draw touches anywhere in a row, is written out as a plain one
        self.shared_mark = b"<" + sx.prefix + b'f t="shared"'
        self.touched = bool(shared)
        self.shared_formulas = SharedFormulas(sx, mover, shared)
        self.heads: dict[tuple[bytes, int, int], bytes] = {}
        self.quick = self.careful = 0

    # ------------------------------------------------------------------ the stream

    # One loop over a million rows, kept inline on purpose: a call per row costs more than
    # the row (the streaming path is measured against move_rows in benchmarks/).
    def rows(self, perm: Sequence[int]) -> Iterator[bytes]:  # noqa: C901
        """The new bytes from the first row of the region to the end of its last one."""
        sx, top = self.sx, self.top
        i0, i1 = sx.index_of(top), sx.index_of(self.bottom + 1)
        where = stored_at(sx, top, self.bottom, i0, i1)
        data, starts, ends, close_tag = sx.data, sx.starts, sx.ends, self.close_tag
        buf: list[bytes] = []
        size = 0
        plain = self._plain
        for pos, s in enumerate(perm):
            io, i = where[pos], where[s]
            dst = top + pos
            row = plain(io, i, top + s, dst) if io >= 0 and i >= 0 else None
            if row is not None:
                if io + 1 < i1 and ends[io] != starts[io + 1]:
                    row += data[ends[io] : starts[io + 1]]
                buf.append(row)
                size += len(row)
                if size >= _CHUNK:
                    yield b"".join(buf)
                    buf, size = [], 0
                continue
            own = self._own(io, dst) if io >= 0 else None
            block: list[bytes] = []
            b_lo = b_hi = 0
            if i >= 0:
                # cells that follow gaps of their new row are written one by one
                by_cell = own is not None and own.gaps is not None
                block, b_lo, b_hi = self._block(i, top + s, dst, by_cell)
            if own is None:
                if not block:
                    continue
                row = b"<" + sx.prefix + b'row r="%d">' % dst + b"".join(block) + close_tag
            else:
                row = self._join(own, block, b_lo, b_hi, dst)
                if io + 1 < i1 and ends[io] != starts[io + 1]:
                    row += data[ends[io] : starts[io + 1]]
            buf.append(row)
            size += len(row)
            if size >= _CHUNK:
                yield b"".join(buf)
                buf, size = [], 0
        if buf:
            yield b"".join(buf)

    def _plain(self, io: int, i: int, src: int, dst: int) -> bytes | None:  # noqa: C901 - per row, inline
        """Place ``dst`` (row ``io``) with the block of row ``i`` (numbered ``src``) when both
        rows cut quickly, in one go: the common case, without the pieces of :meth:`_own`
        and :meth:`_block`. None otherwise."""
        sx = self.sx
        if not sx.data.startswith(self.row_r, sx.starts[io]) and self.cells_unnumbered():
            done = self._bare(io, i, src, dst)
            if done is not None:
                return done
        row = self._row(io, dst)
        own = self._shape(row, dst)
        if own is None or row.endswith(b"/>"):
            return None
        source = self._row(i, src)
        shape = self._shape(source, src)
        if shape is None:
            return None
        end = len(row) - len(self.close_tag)
        cols, a, b, n = own.cols, own.a, own.b, len(own.cols)
        h = row.find(b">") + 1
        at = self._at
        if a == b and shape.a == shape.b:  # no block on either side: the cells stay whole
            pa = pb = h
        elif a == 0 and b == n:  # every own cell in the block
            pa, pb = h, end
        else:
            pa, pb = at(row, own, a, dst, h), at(row, own, b, dst, h)
        left: bytes | None = row[h:pa]
        right: bytes | None = row[pb:end]
        if self.touched and self.shared_mark in row:  # its cells that stay: written out
            left, right = self._kept(row[h:pa], dst), self._kept(row[pb:end], dst)
        if left is None or right is None:
            return None
        if shape.a < shape.b:
            seg = self._source_block(source, shape, src, dst)
            if seg is None:
                return None
            b_lo, b_hi = shape.cols[shape.a], shape.cols[shape.b - 1]
        else:
            seg, b_lo, b_hi = b"", 0, 0
        lo = cols[0] if a else (b_lo or (cols[b] if b < n else 0))
        hi = cols[-1] if b < n else (b_hi or (cols[a - 1] if a else 0))
        self.quick += 2
        # the start tag after r="N" (spans and the rest) is alike in most rows: widened once
        k = len(self.row_r) + len(b"%d" % dst) + 1
        key = (row[k:h], lo, hi)
        rest = self.heads.get(key)
        if rest is None:
            if len(self.heads) >= self._MAX_SHAPES:
                self.heads.clear()
            rest = self.heads[key] = fix_spans(key[0], lo, hi)
        return row[:k] + rest + left + seg + right + self.close_tag

    def _source_block(self, source: bytes, shape: RowShape, src: int, dst: int) -> bytes | None:
        """The block cells of ``source`` (row ``src``, of shape ``shape``) written for row
        ``dst``: references renumbered, plain formulas translated, shared ones written out
        (:class:`~.cellwrite.SharedFormulas`); None when they go the careful way."""
        hs = source.find(b">") + 1
        if shape.a == 0 and shape.b == len(shape.cols):
            seg = source[hs : len(source) - len(self.close_tag)]
        else:
            at = self._at
            seg = source[at(source, shape, shape.a, src, hs) : at(source, shape, shape.b, src, hs)]
        shared = self.shared_mark in seg
        if shared and seg.count(self.fmark) != seg.count(self.shared_mark):
            return None  # plain formulas beside shared ones
        if src != dst:
            q = b'%d"' % src
            if seg.count(q) != shape.b - shape.a:  # "5" also ends another value
                return None
            seg = seg.replace(q, b'%d"' % dst)
            if not shared and self.fmark in seg:
                seg = self.formulas.move(seg, src, dst, keep_values=False)
        if shared:
            return self.shared_formulas.write_out(seg, dst, keep_values=src == dst)
        return seg

    def _kept(self, cells: bytes, number: int) -> bytes | None:
        """Cells of row ``number`` that stay where they are, their shared formulas of a
        touched group written out (values kept); None when they go the careful way."""
        if self.shared_mark not in cells:
            return cells
        return self.shared_formulas.write_out(cells, number, keep_values=True)

    def _bare(self, io: int, i: int, src: int, dst: int) -> bytes | None:
        """:meth:`_plain` for rows whose start tags and cells say no ``r``: the place's
        cells and the source's block cells numbered at ``dst`` as they are written, which
        is what numbering both rows whole and renumbering the block writes, byte for byte.
        None when either row is not plain once numbered."""
        sx = self.sx
        data, starts, ends = sx.data, sx.starts, sx.ends
        if data.startswith(self.row_r, starts[i]):
            return None
        row = data[starts[io] : ends[io]]
        own = self.bare_shape(row)
        if own is None or row.endswith(b"/>") or (self.touched and self.shared_mark in row):
            return None
        source = data[starts[i] : ends[i]]
        shape = self.bare_shape(source)
        if shape is None:
            return None
        c_any, close_n, prefix = self.c_any, len(self.close_tag), sx.prefix
        dq = b'%d"' % dst
        cols, a, b, n = own.cols, own.a, own.b, len(own.cols)
        h = row.find(b">") + 1
        number = dq[:-1]
        if n and (a or b < n):  # cell k is its mark, the number and parts[k + 1]
            parts = row[h : len(row) - close_n].split(c_any)
            left = _numbered(parts[1 : a + 1], prefix, 1, number) if a else b""
            right = _numbered(parts[b + 1 :], prefix, b + 1, number) if b < n else b""
        else:  # no own cell stays
            left = right = b""
        if shape.a < shape.b:
            sa, sb = shape.a, shape.b
            parts = source[source.find(b">") + 1 : len(source) - close_n].split(c_any)[
                sa + 1 : sb + 1
            ]
            cells = b"".join(parts)
            if (src != dst and b'%d"' % src in cells) or self.shared_mark in cells:
                return None  # "5" also ends another value, or a shared formula moves
            seg = _numbered(parts, prefix, sa + 1, number)
            if src != dst and self.fmark in seg:
                seg = self.formulas.move(seg, src, dst, keep_values=False)
            b_lo, b_hi = shape.cols[sa], shape.cols[sb - 1]
        else:
            seg, b_lo, b_hi = b"", 0, 0
        lo = cols[0] if a else (b_lo or (cols[b] if b < n else 0))
        hi = cols[-1] if b < n else (b_hi or (cols[a - 1] if a else 0))
        self.quick += 2
        key = (row[len(prefix) + 4 : h], lo, hi)
        rest = self.heads.get(key)
        if rest is None:
            if len(self.heads) >= self._MAX_SHAPES:
                self.heads.clear()
            rest = self.heads[key] = fix_spans(key[0], lo, hi)
        return self.row_r + dq + rest + left + seg + right + self.close_tag

    def _join(self, own: _Own, block: list[bytes], b_lo: int, b_hi: int, dst: int) -> bytes:
        head = own.head
        if head.endswith(b"/>"):
            head = head[:-2].rstrip() + b">"
        if not own.numbered and not has_number(head):
            head = rewrite_row_tag(head, len(head), dst)
        left_lo, left_hi, right_lo, right_hi = own.edges
        head = fix_spans(head, left_lo or b_lo or right_lo, right_hi or b_hi or left_hi)
        cells = own.left + block + own.right
        if own.gaps is None:
            body = b"".join(cells)
        else:
            gaps = own.gaps
            body = b"".join((gaps[j] if j < len(gaps) else b"") + x for j, x in enumerate(cells))
        return head + body + own.tail + self.close_tag

    def _own(self, i: int, number: int) -> _Own:
        row = self._row(i, number)
        shape = self._shape(row, number)
        if shape is None or (self.touched and self.shared_mark in row):
            return self._own_careful(i, number)
        self.quick += 1
        if row.endswith(b"/>"):
            return _Own(row, [], [])
        h = row.find(b">") + 1
        cols, a, b = shape.cols, shape.a, shape.b
        n = len(cols)
        left = [row[h : self._at(row, shape, a, number, h)]] if a else []
        right = (
            [row[self._at(row, shape, b, number, h) : len(row) - len(self.close_tag)]]
            if b < n
            else []
        )
        edges = (
            cols[0] if a else 0,
            cols[a - 1] if a else 0,
            cols[b] if b < n else 0,
            cols[-1] if b < n else 0,
        )
        return _Own(row[:h], left, right, edges)

    def _own_careful(self, i: int, number: int) -> _Own:
        self.careful += 1
        sx, write = self.sx, self.writer.write
        row = sx.row(i)
        cells = parse_cells(row, number, sx.prefix, sx.label)
        tag_end_at = sx.row_tag_end(i)
        last = cells[-1].end if cells else tag_end_at
        close = row.rfind(b"</")
        tail = row[last:close] if close > last else b""
        ends = [tag_end_at] + [c.end for c in cells[:-1]] if cells else []
        gaps = [row[a:b] for a, b in zip(ends, [c.start for c in cells], strict=True)]
        left = [c for c in cells if c.col < self.c0]
        right = [c for c in cells if c.col > self.c1]
        return _Own(
            row[:tag_end_at],
            [write(row, c, (number, c.col), (number, c.col), whole_row=False) for c in left],
            [write(row, c, (number, c.col), (number, c.col), whole_row=False) for c in right],
            (
                left[0].col if left else 0,
                left[-1].col if left else 0,
                right[0].col if right else 0,
                right[-1].col if right else 0,
            ),
            tail,
            gaps if any(gaps) else None,
            numbered=False,  # not known: asked when the row is written
        )

    def _block(self, i: int, src: int, dst: int, by_cell: bool) -> tuple[list[bytes], int, int]:
        """Row ``i``'s block cells written for row ``dst``, their first and last column."""
        row = self._row(i, src)
        shape = None if by_cell else self._shape(row, src)
        if shape is not None:
            self.quick += 1
        if shape is not None and shape.a < shape.b:
            h = row.find(b">") + 1
            seg = row[self._at(row, shape, shape.a, src, h) : self._at(row, shape, shape.b, src, h)]
            if self.shared_mark in seg:
                self.quick -= 1
                return self._block_careful(i, src, dst)
            if src != dst:
                q = b'%d"' % src
                if seg.count(q) != shape.b - shape.a:  # "5" also ends another value
                    self.quick -= 1
                    return self._block_careful(i, src, dst)
                seg = seg.replace(q, b'%d"' % dst)
                if self.fmark in seg:
                    seg = self.formulas.move(seg, src, dst, keep_values=False)
            return [seg], shape.cols[shape.a], shape.cols[shape.b - 1]
        if shape is not None:
            return [], 0, 0
        return self._block_careful(i, src, dst)

    def _block_careful(self, i: int, src: int, dst: int) -> tuple[list[bytes], int, int]:
        self.careful += 1
        sx, write = self.sx, self.writer.write
        row = sx.row(i)
        cells = [
            c for c in parse_cells(row, src, sx.prefix, sx.label) if self.c0 <= c.col <= self.c1
        ]
        if not cells:
            return [], 0, 0
        out = [write(row, c, (src, c.col), (dst, c.col), whole_row=False) for c in cells]
        return out, cells[0].col, cells[-1].col
