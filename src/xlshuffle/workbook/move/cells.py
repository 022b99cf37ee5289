"""Moving cells inside one sheet part, as bytes.

Two paths, one rule each:

* :func:`move_rows` - whole ``<row>`` elements change places (the default selection with
  ``--by rows``). A row carries every attribute but ``r`` (height, style, hidden, outline
  level...) and every cell, and only the references change.
* :func:`move_cells` - selected cells change places (ranges, tables, column lists and every
  other mode). Rows keep their attributes: they belong to the position. With ``--by rows``
  and contiguous columns, :class:`.block.BlockMover` writes the same bytes, streamed.

Either way a moved cell keeps its XML - style, type, shared-string index, inline or rich
text, error value, metadata - with only ``r`` rewritten; its formula is translated as
Excel translates a sorted formula, and its cached value is dropped unless it must still
hold. Shared formulas touched by the move are expanded into plain formulas first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..formulas.translate import FormulaMover
from ..scan.sheet import SheetXml, cells_unnumbered, numbered_row, parse_cells, stored_at
from ..scan.xmlscan import tag_end
from .cellwrite import (
    CellWriter,
    PlainFormulas,
    SharedFormulas,
    SharedGroups,
    has_number,
    rewrite_row_tag,
)
from .rowcut import fix_spans

__all__ = ["Region", "SharedGroups", "expand_shared", "move_cells", "move_rows"]

Dest = Callable[[int, int], tuple[int, int]]
_CHUNK = 1 << 20


@dataclass
class Region:
    """What the draw moves: body rows ``top..bottom`` and the moving columns."""

    top: int
    bottom: int
    cols: list[int]


def move_rows(
    sx: SheetXml,
    region: Region,
    perm: Sequence[int],
    mover: FormulaMover,
    shared: SharedGroups,
) -> Iterator[bytes]:
    """The body rows of ``region`` in their new order: position ``p`` gets the row that was
    at ``top + perm[p]``. Yields the new bytes from the first body row's place to the end
    of the last one."""
    top = region.top
    i0, i1 = sx.index_of(top), sx.index_of(region.bottom + 1)
    where = stored_at(sx, top, region.bottom, i0, i1)
    quick = _QuickRows(sx, mover, shared)
    data, starts, ends = sx.data, sx.starts, sx.ends
    if i0 < i1:
        quick.unnumbered = cells_unnumbered(data, starts[i0], ends[i1 - 1], sx.prefix)
    row_of = quick.renumber
    # the whitespace between rows (indentation) belongs to the places, not to the rows:
    # the k-th row written is followed by the k-th gap, so a restore gives back the bytes
    gaps: list[bytes] = []
    if i1 - i0 > 1 and sum(ends[i0:i1]) - sum(starts[i0:i1]) != ends[i1 - 1] - starts[i0]:
        gaps = [data[ends[i] : starts[i + 1]] for i in range(i0, i1 - 1)]
    buf: list[bytes] = []
    size = 0
    k = 0
    # dst: the place's number; a row missing at its source leaves the place empty
    for dst, s in enumerate(perm, top):
        i = where[s]
        if i < 0:
            continue
        row = row_of(data[starts[i] : ends[i]], i, top + s, dst)
        if gaps:
            if k < len(gaps):
                row += gaps[k]
            k += 1
        buf.append(row)
        size += len(row)
        if size >= _CHUNK:
            yield b"".join(buf)
            buf, size = [], 0
    if buf:
        yield b"".join(buf)


_CAPITALS = bytes(range(65, 91))


class _QuickRows:
    """Renumbering whole rows.

    The quick path is ``bytes.replace`` of ``5"`` by ``9"`` (row 5 to row 9). It is
    right when the row starts with ``<row r="5"``, every cell starts with
    ``<c r="LETTERS5"`` (one count in the row with its capitals deleted) and ``5"``
    occurs nowhere else (one count). A row whose cells say no ``r`` is numbered for its
    new place by :func:`~..scan.sheet.numbered_row` instead, as the careful way numbers
    it. Plain formulas (LibreOffice's ``aca="false"`` too) are then translated one by
    one, and a row's one shared formula (a formula Excel filled down) is written out as
    a plain one (:class:`~.cellwrite.SharedFormulas`). Any other row goes the careful
    way, which handles everything.
    """

    def __init__(self, sx: SheetXml, mover: FormulaMover, shared: SharedGroups) -> None:
        p = sx.prefix
        self.sx, self.shared = sx, shared
        self.row_r = b"<" + p + b'row r="'
        # inside a row only cells start with "<c" (the other child is <extLst>)
        self.c_any = b"<" + p + b"c"
        self.cell = (b"<" + p + b'c r="').translate(None, _CAPITALS)
        self.fmark = b"<" + p + b"f"
        self.writer = CellWriter(sx, mover, shared)
        self.formulas = PlainFormulas(sx, mover)
        self.shared_formulas = SharedFormulas(sx, mover, shared)
        #: No cell of the moved rows says ``r`` (:func:`~..scan.sheet.cells_unnumbered`).
        self.unnumbered = False
        self.renumber = self._renumber()

    def row(self, row: bytes, i: int, src: int, dst: int) -> bytes:
        """Row ``i`` (bytes ``row``) renumbered from ``src`` to ``dst``."""
        return self.renumber(row, i, src, dst)

    def _renumber(self) -> Callable[[bytes, int, int, int], bytes]:  # noqa: C901 - per row, inline
        """:meth:`row` as a function whose constants are its own locals: it runs once a
        row, a million times for a million rows, where each attribute read costs."""
        sx, writer, formulas = self.sx, self.writer, self.formulas
        row_r, c_any, cell, fmark = self.row_r, self.c_any, self.cell, self.fmark
        n_r, plain_sheet, prefix = len(self.row_r), sx.plain, sx.prefix
        plain_formulas, move, move_one = formulas.plain, formulas.move, formulas.move_one
        bare, f_close, patterns = formulas.bare, formulas.close, formulas.patterns
        n_bare, calc, n_calc = len(bare), formulas.calc, len(formulas.calc)
        shared, shared_row = writer.shared, self.shared_formulas.move_row
        shared_mark = b"<" + prefix + b'f t="shared"'
        member, shared_member = self.shared_formulas.member_open, self.shared_formulas.member
        # the quick scan found every row starting <row r="
        starts_r = sx.row_numbering == "r"

        def renumber(row: bytes, i: int, src: int, dst: int) -> bytes:  # noqa: C901 - per row
            if src == dst:
                return _unmoved(sx, writer, row, i, src)
            q = b'%d"' % src
            new: bytes | None = None
            # the row's start tag first: a row that says no r fails it, and counts nothing
            if row.startswith(q, n_r) and (starts_r or row.startswith(row_r)):
                n_c = row.count(c_any)
                if (
                    row.count(q) == n_c + 1
                    and (plain_sheet or b"<!" not in row)
                    and (not n_c or row.translate(None, _CAPITALS).count(cell + q) == n_c)
                ):
                    new = row.replace(q, b'%d"' % dst)
            if new is None:  # cells that say no r (their places counted), or the careful way
                new = numbered_row(row, dst, prefix, checked=self.unnumbered)
            if new is not None:
                # one plain formula (PlainFormulas.move_one, inline), <f> or LibreOffice's
                # <f aca="false">: found by searches that read the row about once
                f = new.find(fmark)
                if f < 0:
                    return new
                if new.startswith(bare, f):
                    a = f + n_bare
                elif new.startswith(calc, f):
                    a = f + n_calc
                else:
                    a = -1
                    if shared and new.startswith(member, f):  # a formula filled down
                        done = shared_member(new, f, dst)
                        if done is not None:
                            return done
                if a >= 0:
                    j = new.find(f_close, a)
                    if j >= 0 and new.find(fmark, j) < 0:
                        pattern = patterns.get(new[a:j].replace(b"%d" % src, b"\0"))
                        if pattern is None or not pattern[1]:
                            return move(new, src, dst)
                        return b"".join((new[:a], pattern[0].replace(b"\0", b"%d" % dst), new[j:]))
                n_f = new.count(fmark)
                if plain_formulas(new, n_f):
                    done = move_one(new, src, dst) if n_f == 1 else None
                    return move(new, src, dst) if done is None else done
                if shared and new.count(shared_mark) == n_f:  # formulas filled down
                    done = shared_row(new, src, dst)
                    if done is not None:
                        return done
            return _rewrite_row(sx, writer, i, src, dst)

        return renumber


def expand_shared(
    sx: SheetXml, indexes: list[int], mover: FormulaMover, shared: SharedGroups
) -> dict[int, bytes]:
    """Rows that stay in place but hold members of touched shared formulas: the same rows
    with those formulas written out as plain ones."""
    writer = CellWriter(sx, mover, shared)
    out = {}
    for i in indexes:
        row = sx.row(i)
        number = sx.numbers[i]
        parts, pos = [], 0
        for cell in parse_cells(row, number, sx.prefix, sx.label):
            if cell.f_attrs is None or cell.f_attrs.get(b"t") != b"shared":
                continue
            parts.append(row[pos : cell.start])
            here = (number, cell.col)
            parts.append(writer.write(row, cell, here, here, whole_row=True))
            pos = cell.end
        parts.append(row[pos:])
        out[i] = b"".join(parts)
    return out


def _unmoved(sx: SheetXml, writer: CellWriter, row: bytes, i: int, number: int) -> bytes:
    """Row ``i`` (bytes ``row``, number ``number``) drawn to its own place: as it is, but
    for members of shared formulas that the draw touches (written out) and a number it
    does not say."""
    if writer.shared and b"shared" in row:
        return _rewrite_row(sx, writer, i, number, number)
    return row if has_number(row) else rewrite_row_tag(row, tag_end(row, 0), number)


def _rewrite_row(sx: SheetXml, writer: CellWriter, i: int, src: int, dst: int) -> bytes:
    row = sx.row(i)
    cells = parse_cells(row, src, sx.prefix, sx.label)
    out = []
    pos = 0
    for cell in cells:
        out.append(row[pos : cell.start])
        out.append(writer.write(row, cell, (src, cell.col), (dst, cell.col), whole_row=True))
        pos = cell.end
    out.append(row[pos:])
    new = b"".join(out)
    return rewrite_row_tag(new, tag_end(new, 0), dst)


def move_cells(
    sx: SheetXml,
    region: Region,
    dest: Dest,
    mover: FormulaMover,
    shared: SharedGroups,
) -> tuple[int, int, bytes]:
    """Move the cells of ``region`` (rows ``top..bottom``, columns ``cols``) to
    ``dest(row, col)``; every other cell of those rows stays, and so does every row's start
    tag. Returns ``(start, end, new)``: the byte range of the old rows and its replacement."""
    colset = set(region.cols)
    i0, i1 = sx.index_of(region.top), sx.index_of(region.bottom + 1)
    writer = CellWriter(sx, mover, shared)
    rows: dict[int, list[tuple[int, bytes]]] = defaultdict(list)
    heads: dict[int, tuple[bytes, bytes]] = {}
    # what lies between cells and between rows (indentation, XML comments) belongs to
    # the places: the j-th cell written in a row is preceded by the j-th gap, so a restore
    # gives back the bytes
    seps: dict[int, list[bytes]] = {}
    after: dict[int, bytes] = {}
    for i in range(i0, i1):
        number = sx.numbers[i]
        row = sx.row(i)
        cells = parse_cells(row, number, sx.prefix, sx.label)
        tag_end_at = sx.row_tag_end(i)
        last = cells[-1].end if cells else tag_end_at
        close = row.rfind(b"</")
        tail = row[last:close] if close > last else b""
        heads[number] = (row[:tag_end_at], tail)
        ends = [tag_end_at] + [c.end for c in cells[:-1]] if cells else []
        gaps = [row[a:b] for a, b in zip(ends, [c.start for c in cells], strict=True)]
        if any(gaps):
            seps[number] = gaps
        if i + 1 < i1 and sx.ends[i] != sx.starts[i + 1]:
            after[number] = sx.data[sx.ends[i] : sx.starts[i + 1]]
        for cell in cells:
            src = (number, cell.col)
            dst = dest(*src) if cell.col in colset else src
            rows[dst[0]].append((dst[1], writer.write(row, cell, src, dst, whole_row=False)))
    out = [
        _written_row(sx, number, sorted(rows.get(number, [])), heads.get(number), seps.get(number))
        + after.get(number, b"")
        for number in sorted(set(rows) | set(heads))
    ]
    start = sx.starts[i0] if i0 < i1 else sx.content_end
    end = sx.ends[i1 - 1] if i0 < i1 else start
    if i0 == i1 and i0 < len(sx.starts):
        start = end = sx.starts[i0]
    return start, end, b"".join(out)


def _written_row(
    sx: SheetXml,
    number: int,
    cells: list[tuple[int, bytes]],
    head_tail: tuple[bytes, bytes] | None,
    between: list[bytes] | None,
) -> bytes:
    """Row ``number`` with ``cells`` (column, XML) in order: its own start tag and tail
    (``head_tail``; a new ``<row>`` for a place the sheet did not store), ``spans``
    widened, and the place's gaps before its cells (``between``)."""
    if head_tail is not None:
        head, tail = head_tail
        if head.endswith(b"/>"):
            head = head[:-2].rstrip() + b">"
        if not has_number(head):
            head = rewrite_row_tag(head, len(head), number)
        head = _fix_spans(head, cells)
    else:
        head, tail = b"<" + sx.prefix + b'row r="%d">' % number, b""
    if between is None:
        body = b"".join(x for _, x in cells)
    else:
        body = b"".join(
            (between[j] if j < len(between) else b"") + x for j, (_, x) in enumerate(cells)
        )
    return head + body + tail + b"</" + sx.prefix + b"row>"


def _fix_spans(head: bytes, cells: list[tuple[int, bytes]]) -> bytes:
    return fix_spans(head, cells[0][0], cells[-1][0]) if cells else head
