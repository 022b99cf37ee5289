"""Moving cells inside one sheet part, as bytes.

Two paths, one rule each:

* :func:`move_rows` - whole ``<row>`` elements change places (the default selection with
  ``--by rows``). A row carries every attribute but ``r`` (height, style, hidden, outline
  level...) and every cell, and only the references change.
* :func:`move_cells` - selected cells change places (ranges, tables, column lists and every
  other mode). Rows keep their attributes: they belong to the position.

Either way a moved cell keeps its XML - style, type, shared-string index, inline or rich
text, error value, metadata - with only ``r`` rewritten; its formula is translated as
Excel translates a sorted formula, and its cached value is dropped unless it must still
hold. Shared formulas touched by the move are expanded into plain formulas first.
"""

from __future__ import annotations

import re
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..draw.errors import WorkbookError
from .formulas import FormulaMoveError, FormulaMover
from .refs import Area, cell_ref, col_index, parse_area
from .sheet import Cell, SheetXml, parse_cells
from .xmlscan import escape_text, local, tag_end, unescape

__all__ = ["Region", "SharedGroups", "move_cells", "move_rows"]

Dest = Callable[[int, int], tuple[int, int]]
_CHUNK = 1 << 20


@dataclass
class SharedGroup:
    """A shared formula: its master cell, text and the range its followers fill."""

    row: int
    col: int
    text: str
    area: Area


class SharedGroups:
    """The shared formulas of a sheet whose range meets the area ``touched``."""

    def __init__(self, sx: SheetXml, touched: Area) -> None:
        self.groups: dict[bytes, SharedGroup] = {}
        data, p = sx.data, sx.prefix
        pat = re.compile(rb"<" + re.escape(p) + rb"f\s[^>]*?t\s*=\s*[\"']shared[\"']")
        done: set[int] = set()
        for m in pat.finditer(data, sx.content_start, sx.content_end):
            i = _row_index_at(sx, m.start())
            if i in done:
                continue
            done.add(i)
            row = sx.row(i)
            for cell in parse_cells(row, sx.numbers[i], p, sx.label):
                a = cell.f_attrs
                if a is None or a.get(b"t") != b"shared" or cell.f_text is None:
                    continue
                area = parse_area(unescape(a.get(b"ref", b"")))
                if area is None or not area.overlaps(touched):
                    continue
                text = unescape(row[cell.f_text[0] : cell.f_text[1]])
                group = SharedGroup(sx.numbers[i], cell.col, text, area)
                self.groups[a.get(b"si", b"")] = group
        #: Rows holding members of these groups, which must be rewritten even where they
        #: do not move (their formulas become plain ones).
        self.rows = sorted(
            {r for g in self.groups.values() for r in range(g.area.top, g.area.bottom + 1)}
        )

    def __bool__(self) -> bool:
        return bool(self.groups)


def _row_index_at(sx: SheetXml, offset: int) -> int:
    lo, hi = 0, len(sx.starts)
    while lo < hi:
        mid = (lo + hi) // 2
        if sx.starts[mid] <= offset:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


@dataclass
class Region:
    """What the draw moves: body rows ``top..bottom`` and the moving columns."""

    top: int
    bottom: int
    cols: list[int]


class _CellWriter:
    """Rewrites one cell's XML for its new place."""

    def __init__(self, sx: SheetXml, mover: FormulaMover, shared: SharedGroups) -> None:
        self.sx = sx
        self.mover = mover
        self.shared = shared
        p = sx.prefix
        self.fname = p + b"f"

    def write(
        self,
        row: bytes,
        cell: Cell,
        src: tuple[int, int],
        dst: tuple[int, int],
        *,
        whole_row: bool,
    ) -> bytes:
        xml = row[cell.start : cell.end]
        base = cell.start
        edits: list[tuple[int, int, bytes]] = []
        ref = cell_ref(*dst).encode()
        if cell.r_span is not None:
            if src != dst:
                edits.append((cell.r_span[0] - base, cell.r_span[1] - base, ref))
        else:
            at = len(self.sx.prefix) + 2
            edits.append((at, at, b' r="' + ref + b'"'))
        if cell.f_span is not None:
            edits.extend(self._formula(row, cell, src, dst, whole_row=whole_row))
        if not edits:
            return xml
        for start, end, new in sorted(edits, reverse=True):
            xml = xml[:start] + new + xml[end:]
        return xml

    def _formula(
        self, row: bytes, cell: Cell, src: tuple[int, int], dst: tuple[int, int], *,
        whole_row: bool,
    ) -> list[tuple[int, int, bytes]]:  # fmt: skip
        base = cell.start
        a = cell.f_attrs or {}
        f_span = cell.f_span or (0, 0)
        kind = a.get(b"t", b"normal")
        edits: list[tuple[int, int, bytes]] = []
        where = cell_ref(*src)
        group = self.shared.groups.get(a.get(b"si", b"")) if kind == b"shared" else None
        try:
            if group is not None:
                # the formula as it reads at its own cell, and where it goes
                text = self.mover.move(group.text, group.row, group.col, *src)
                new = self.mover.move(group.text, group.row, group.col, *dst)
                kept = b"".join(
                    b" " + k + b'="' + v + b'"'
                    for k, v in a.items()
                    if local(k) not in (b"t", b"ref", b"si")
                )
                f_xml = (
                    b"<" + self.fname + kept + b">" + escape_text(new) + b"</" + self.fname + b">"
                )
                edits.append((f_span[0] - base, f_span[1] - base, f_xml))
            elif kind in (b"normal", b"shared") and cell.f_text is not None and src != dst:
                text = unescape(row[cell.f_text[0] : cell.f_text[1]])
                new = self.mover.move(text, *src, *dst)
                edits.append((cell.f_text[0] - base, cell.f_text[1] - base, escape_text(new)))
            else:
                text = None
                if src == dst:
                    return edits
                if kind != b"normal":
                    raise WorkbookError(
                        f"{self.sx.label}: cell {where} holds a {kind.decode()} formula, "
                        "which cannot move cell by cell: leave it out of the selection"
                    )
        except FormulaMoveError as exc:
            raise WorkbookError(
                f"{self.sx.label}: the formula in {where} cannot move to {cell_ref(*dst)} "
                f"({exc.reason}): replace it with its value (Copy, Paste Values) or choose a "
                "selection without it"
            ) from None
        if src != dst and cell.v_span is not None:
            formula = text if text is not None else ""
            keep = whole_row and self.mover.keeps_value_on_row_move(formula, src[0], src[1])
            if not keep:
                edits.append((cell.v_span[0] - base, cell.v_span[1] - base, b""))
        return edits


_ROW_NUMBER = re.compile(rb"\sr\s*=\s*[\"']\d")


def has_number(row: bytes) -> bool:
    """Whether a row element says its number (``r=``); without it, its place is implied by
    the rows before it, which a draw changes."""
    return _ROW_NUMBER.search(row, 0, tag_end(row, 0)) is not None


def _rewrite_row_tag(row: bytes, tag_end: int, number: int) -> bytes:
    head = row[:tag_end]
    m = re.search(rb"\sr\s*=\s*([\"'])\d+\1", head)
    new = b' r="%d"' % number
    if m is not None:
        head = head[: m.start()] + new + head[m.end() :]
    else:
        name_end = re.match(rb"<[^\s/>]+", head)
        cut = name_end.end() if name_end else 4
        head = head[:cut] + new + head[cut:]
    return head + row[tag_end:]


def move_rows(
    sx: SheetXml,
    region: Region,
    perm: list[int],
    mover: FormulaMover,
    shared: SharedGroups,
) -> Iterator[bytes]:
    """The body rows of ``region`` in their new order: position ``p`` gets the row that was
    at ``top + perm[p]``. Yields the new bytes from the first body row's place to the end
    of the last one."""
    top = region.top
    n = region.bottom - top + 1
    where = array("l", [-1]) * n
    i0, i1 = sx.index_of(top), sx.index_of(region.bottom + 1)
    for i in range(i0, i1):
        where[sx.numbers[i] - top] = i
    p = re.escape(sx.prefix)
    fast = re.compile(rb"(<" + p + rb'(?:c r="[A-Z]{1,3}|row r="))(\d+)(?=")')
    c_space, c_close, c_empty = (b"<" + sx.prefix + b"c ", b"<" + sx.prefix + b"c>",
                                 b"<" + sx.prefix + b"c/")  # fmt: skip
    fmark, plain_f = b"<" + sx.prefix + b"f", b"<" + sx.prefix + b"f>"
    shared_mark = b"shared"
    writer = _CellWriter(sx, mover, shared)
    formulas = _PlainFormulas(sx, mover)
    buf: list[bytes] = []
    size = 0
    for pos, s in enumerate(perm):
        i = where[s]
        if i < 0:
            continue
        row = sx.row(i)
        src, dst = top + s, top + pos
        if src == dst and shared and shared_mark in row:
            row = _rewrite_row(sx, writer, i, src, dst)
        elif src == dst and not has_number(row):
            row = _rewrite_row_tag(row, tag_end(row, 0), dst)  # rows before it moved
        elif src != dst:
            new = None
            n_f = row.count(fmark)
            if (n_f == 0 or n_f == row.count(plain_f)) and b"<!" not in row:
                parts = fast.split(row)
                k = len(parts) // 3
                if parts[2::3].count(b"%d" % src) == k and k == 1 + row.count(c_space) + row.count(
                    c_close
                ) + row.count(c_empty):
                    parts[2::3] = [b"%d" % dst] * k
                    new = b"".join(parts)
                    if n_f:
                        new = formulas.move(new, src, dst)
            if new is None:
                new = _rewrite_row(sx, writer, i, src, dst)
            row = new
        buf.append(row)
        size += len(row)
        if size >= _CHUNK:
            yield b"".join(buf)
            buf, size = [], 0
    if buf:
        yield b"".join(buf)


class _PlainFormulas:
    """The quick path for rows whose formulas are all plain ``<f>text</f>``: the cell's
    column is read back from its ``r`` (already rewritten, same column), the text is
    translated, and the cached ``<v>`` right after it is dropped unless it still holds."""

    def __init__(self, sx: SheetXml, mover: FormulaMover) -> None:
        p = sx.prefix
        self.open, self.close = b"<" + p + b"f>", b"</" + p + b"f>"
        self.v_open, self.v_close = b"<" + p + b"v>", b"</" + p + b"v>"
        self.cell = b"<" + p + b'c r="'
        self.mover = mover
        self.label = sx.label

    def move(self, row: bytes, src: int, dst: int) -> bytes:
        out = []
        pos = 0
        find, rfind = row.find, row.rfind
        while True:
            i = find(self.open, pos)
            if i < 0:
                break
            j = find(self.close, i)
            c = rfind(self.cell, 0, i) + len(self.cell)
            k = c
            while 65 <= row[k] <= 90:
                k += 1
            col = col_index(row[c:k])
            text = unescape(row[i + len(self.open) : j])
            try:
                moved = self.mover.move(text, src, col, dst, col)
            except FormulaMoveError as exc:
                raise WorkbookError(
                    f"{self.label}: the formula in {cell_ref(src, col)} cannot move to "
                    f"{cell_ref(dst, col)} ({exc.reason}): replace it with its value (Copy, "
                    "Paste Values) or choose a selection without it"
                ) from None
            out.append(row[pos : i + len(self.open)])
            out.append(escape_text(moved))
            out.append(self.close)
            pos = j + len(self.close)
            if row.startswith(self.v_open, pos) and not self.mover.keeps_value_on_row_move(
                text, src, col
            ):
                pos = find(self.v_close, pos) + len(self.v_close)
        out.append(row[pos:])
        return b"".join(out)


def expand_shared(sx: SheetXml, indexes: list[int], mover: FormulaMover,
                  shared: SharedGroups) -> dict[int, bytes]:  # fmt: skip
    """Rows that stay in place but hold members of touched shared formulas: the same rows
    with those formulas written out as plain ones."""
    writer = _CellWriter(sx, mover, shared)
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


def _rewrite_row(sx: SheetXml, writer: _CellWriter, i: int, src: int, dst: int) -> bytes:
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
    return _rewrite_row_tag(new, tag_end(new, 0), dst)


def move_cells(
    sx: SheetXml,
    region: Region,
    dest: Dest,
    mover: FormulaMover,
    shared: SharedGroups,
    *,
    whole_row_formulas: bool = False,
) -> tuple[int, int, bytes]:
    """Move the cells of ``region`` (rows ``top..bottom``, columns ``cols``) to
    ``dest(row, col)``; every other cell of those rows stays, and so does every row's start
    tag. Returns ``(start, end, new)``: the byte range of the old rows and its replacement."""
    colset = set(region.cols)
    i0, i1 = sx.index_of(region.top), sx.index_of(region.bottom + 1)
    writer = _CellWriter(sx, mover, shared)
    rows: dict[int, list[tuple[int, bytes]]] = defaultdict(list)
    heads: dict[int, tuple[bytes, bytes]] = {}
    for i in range(i0, i1):
        number = sx.numbers[i]
        row = sx.row(i)
        cells = parse_cells(row, number, sx.prefix, sx.label)
        tag_end_at = sx.row_tag_end(i)
        last = cells[-1].end if cells else tag_end_at
        close = row.rfind(b"</")
        tail = row[last:close] if close > last else b""
        heads[number] = (row[:tag_end_at], tail)
        for cell in cells:
            src = (number, cell.col)
            dst = dest(*src) if cell.col in colset else src
            rows[dst[0]].append(
                (dst[1], writer.write(row, cell, src, dst, whole_row=whole_row_formulas))
            )
    out = []
    close_tag = b"</" + sx.prefix + b"row>"
    for number in sorted(set(rows) | set(heads)):
        cells_out = sorted(rows.get(number, []))
        if number in heads:
            head, tail = heads[number]
            if head.endswith(b"/>"):
                head = head[:-2].rstrip() + b">"
            if not has_number(head):
                head = _rewrite_row_tag(head, len(head), number)
            head = _fix_spans(head, cells_out)
        else:
            head, tail = b"<" + sx.prefix + b'row r="%d">' % number, b""
        out.append(head + b"".join(x for _, x in cells_out) + tail + close_tag)
    start = sx.starts[i0] if i0 < i1 else sx.content_end
    end = sx.ends[i1 - 1] if i0 < i1 else start
    if i0 == i1 and i0 < len(sx.starts):
        start = end = sx.starts[i0]
    return start, end, b"".join(out)


def _fix_spans(head: bytes, cells: list[tuple[int, bytes]]) -> bytes:
    m = re.search(rb"\sspans\s*=\s*[\"'](\d+):(\d+)[\"']", head)
    if m is None or not cells:
        return head
    lo, hi = min(int(m[1]), cells[0][0]), max(int(m[2]), cells[-1][0])
    return head[: m.start()] + b' spans="%d:%d"' % (lo, hi) + head[m.end() :]
