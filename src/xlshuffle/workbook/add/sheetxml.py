"""Draws that move nothing: ``sample`` (winners to a new sheet or CSV) and ``groups`` (a
group-number column).

The sample sheet is built from the drawn rows' own cell XML, so the winners keep their
styles, number formats, shared strings and rich text; a formula is replaced by the value
Excel last computed for it. The group column is one new cell per row, right of every
stored cell of the sheet; nothing else in the rows changes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...draw.errors import WorkbookError
from ..package.parts import STRICT_MAIN, Book
from ..scan.edits import r_edit, spliced
from ..scan.refs import MAX_COL, cell_ref, col_letters
from ..scan.rowfind import used_cols
from ..scan.sheet import Cell, SheetXml
from ..scan.xmlscan import escape_text, tag_end
from ..selection.select import Selection

__all__ = ["free_column", "group_column_edits", "sample_sheet_xml"]

_TRANSITIONAL_MAIN = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _inline(ref: str, text: str) -> bytes:
    return (
        b'<c r="'
        + ref.encode()
        + b'" t="inlineStr"><is><t xml:space="preserve">'
        + escape_text(text)
        + b"</t></is></c>"
    )


def _copy_cell(row: bytes, cell: Cell, ref: str) -> bytes:
    """The cell's XML at ``ref``, its formula replaced by its cached value."""
    xml, base = row[cell.start : cell.end], cell.start
    r_span = None if cell.r_span is None else (cell.r_span[0] - base, cell.r_span[1] - base)
    edits = [r_edit(xml[: cell.tag_end - base], ref.encode(), r_span)]
    if cell.f_span is not None:
        edits.append((cell.f_span[0] - base, cell.f_span[1] - base, b""))
    xml = spliced(xml, edits)
    head_end = tag_end(xml, 0)
    head = re.sub(rb"\s(?:cm|vm)\s*=\s*[\"'][^\"']*[\"']", b"", xml[:head_end])
    return head + xml[head_end:]


def _strip_prefix(xml: bytes, prefix: bytes) -> bytes:
    if not prefix:
        return xml
    return xml.replace(b"<" + prefix, b"<").replace(b"</" + prefix, b"</")


def sample_sheet_xml(
    book: Book,
    sx: SheetXml,
    sel: Selection,
    drawn: list[int],
    *,
    added: tuple[Sequence[str], Sequence[Sequence[object]]] | None = None,
) -> bytes:
    """A new worksheet: ``Rank`` and the header labels, then one row per winner in draw
    order (``drawn`` holds 0-based data-row indexes).

    With ``added`` (labels, and one list of values per drawn row), there is no ``Rank``
    column first: the labels and the rows, then the added columns after the last one, as
    a CSV/TSV list's draw writes them (``Role``, ``Rank``, ``Hits``)."""
    cols = sel.cols
    first = 1 if added is not None else 2
    pos = {c: j + first for j, c in enumerate(cols)}
    more = first + len(cols)  # the first added column
    out = [b'<row r="1">']
    if added is None:
        out.append(_inline("A1", "Rank"))
    if sel.header:
        out.append(_copied(sx, sel.top, 1, pos))
    else:
        out.extend(_inline(cell_ref(1, pos[c]), col_letters(c)) for c in cols)
    if added is not None:
        out.extend(_added(1, more, added[0]))
    out.append(b"</row>")
    for rank, index in enumerate(drawn, 1):
        r = rank + 1
        out.append(b'<row r="%d">' % r)
        if added is None:
            out.append(b'<c r="A%d"><v>%d</v></c>' % (r, rank))
        out.append(_copied(sx, sel.body_top + index, r, pos))
        if added is not None:
            out.extend(_added(r, more, added[1][rank - 1]))
        out.append(b"</row>")
    ns = STRICT_MAIN if book.strict else _TRANSITIONAL_MAIN
    return (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="'
        + ns
        + b'"><sheetData>'
        + b"".join(out)
        + b"</sheetData></worksheet>"
    )


def _added(r: int, col: int, values: Sequence[object]) -> list[bytes]:
    """Cells of row ``r`` from column ``col`` on: whole numbers as numbers, the rest as
    inline text (``winner``, ``reserve``); None as no cell (a round's blank note)."""
    out = []
    for j, value in enumerate(values):
        ref = cell_ref(r, col + j)
        if value is None:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            out.append(b'<c r="%s"><v>%d</v></c>' % (ref.encode(), value))
        else:
            out.append(_inline(ref, str(value)))
    return out


def _copied(sx: SheetXml, number: int, new_row: int, pos: dict[int, int]) -> bytes:
    i = sx.index_of(number)
    if i >= len(sx) or sx.numbers[i] != number:
        return b""
    row = sx.row(i)
    parts = [
        _copy_cell(row, cell, cell_ref(new_row, pos[cell.col]))
        for cell in sx.cells(i)
        if cell.col in pos
    ]
    return _strip_prefix(b"".join(parts), sx.prefix)


def group_column_edits(
    sx: SheetXml,
    sel: Selection,
    numbers: list[int | None],
    label: str,
    only: list[int] | None = None,
) -> list[tuple[int, int, bytes]]:
    """The byte edits that add a column right of every stored cell of the sheet: header
    ``label``, then one group number per data row; with ``only``, for those data rows
    (indexes) only: blank rows kept in place get none."""
    col = free_column(sx)
    letters = col_letters(col)
    p = sx.prefix
    letters_b = letters.encode()

    def cell(r: int, k: int) -> bytes:
        if k < 0:
            x = _inline(f"{letters}{r}", label)
        else:
            x = b'<c r="%s%d"><v>%d</v></c>' % (letters_b, r, numbers[k] or 0)
        return x.replace(b"<", b"<" + p).replace(b"<" + p + b"/", b"</" + p) if p else x

    edits: list[tuple[int, int, bytes]] = []
    close = b"</" + p + b"row>"
    # rows the sheet does not store are written in runs, one edit per run: a used range
    # of a million rows with five stored costs one join, not a million edits
    run = bytearray()
    i = sx.index_of(sel.top)
    body_top = sel.body_top
    ks = (
        range(-1 if sel.header else 0, len(numbers))
        if only is None
        else ([-1, *only] if sel.header else only)
    )
    for k in ks:
        r = body_top + k
        while i < len(sx) and sx.numbers[i] <= r:  # the stored rows up to this one
            if run:  # a run goes before the next stored row
                edits.append((sx.starts[i], sx.starts[i], bytes(run)))
                run = bytearray()
            if sx.numbers[i] == r:
                break
            i += 1  # a kept row is passed
        if i < len(sx) and sx.numbers[i] == r:
            edits.extend(_into_row(sx, i, col, cell(r, k), close))
        else:
            run += b"<" + p + b'row r="%d">' % r + cell(r, k) + close
    if run:
        at = sx.starts[i] if i < len(sx) else sx.content_end
        edits.append((at, at, bytes(run)))
    return edits


def free_column(sx: SheetXml) -> int:
    """The column right of every stored cell, refused past XFD (Excel refuses the file)."""
    col = used_cols(sx, 0, len(sx) - 1)[1] + 1 if len(sx) else 1
    if col > MAX_COL:
        raise WorkbookError(
            f"{sx.label}: cells in column XFD, the last column, leave no column right of "
            "them for the group numbers: move or clear the cells of column XFD (or copy the "
            "list to a sheet of its own), then retry"
        )
    return col


def _into_row(
    sx: SheetXml, i: int, col: int, cell: bytes, close: bytes
) -> list[tuple[int, int, bytes]]:
    """The edits that append ``cell`` to stored row ``i`` and widen its ``spans``."""
    row = sx.row(i)
    end = sx.row_tag_end(i)
    if row[end - 2 : end] == b"/>":
        head = _spans(row[: end - 2].rstrip() + b">", col)
        return [(sx.starts[i], sx.ends[i], head + cell + close)]
    at = sx.ends[i] - len(close)
    edits = [(at, at, cell)]
    head = _spans(row[:end], col)
    if head != row[:end]:
        edits.append((sx.starts[i], sx.starts[i] + end, head))
    return edits


def _spans(head: bytes, col: int) -> bytes:
    m = re.search(rb"\sspans\s*=\s*[\"'](\d+):(\d+)[\"']", head)
    if m is None:
        return head
    return head[: m.start()] + b' spans="%s:%d"' % (m[1], max(int(m[2]), col)) + head[m.end() :]
