"""The formulas of a drawn area, as text, for ``verify``.

A shuffle moves formulas and translates them as Excel translates a sorted formula
(``=B2*2`` moved from row 2 to row 9 reads ``=B9*2``), so ``verify`` cannot compare a
moved formula's text byte for byte. It compares it with its translation instead: each
formula of the input's drawn area is translated to the cell the permutation puts it in,
and the output's area must hold exactly those formulas. Each side keeps one 8-byte
digest per row, so one sheet is in memory at a time.

A formula reads as its own text, a shared formula's follower as its group's text
translated to its cell (rows are read 4,096 at a time, by one regular expression when
every formula there is a plain ``<f>``). :func:`expected_digests` and
:func:`found_digests` compare the texts as written; ``way="canonical"`` compares them
with spaces outside string literals left out and letters outside them in capitals
(:func:`canonical`), which ``verify`` does only after a difference: an output re-saved by
Excel or openpyxl (which write shared formulas and spacing their own way) still verifies,
and an edited one is refused.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Literal

from ...common.a1 import col_index
from ..formulas.translate import FormulaMoveError, FormulaMover
from ..move.cellwrite import SharedGroups
from ..scan.refs import Area
from ..scan.sheet import Cell, SheetXml, numbered_cell_tag, parse_cells, plain_formula_tag
from ..scan.xmlscan import unescape

__all__ = [
    "Text",
    "canonical",
    "expected_digests",
    "first_mismatch",
    "formula_blocks",
    "formula_cells",
    "formulas_at",
    "found_digests",
    "has_formulas",
]

Dest = Callable[[int, int], tuple[int, int]]
#: A formula's text as compared, or None for one that cannot be read at its cell.
Text = str | None

_STRING = re.compile(r'("(?:[^"]|"")*"?)')
_SPACE = re.compile(r"\s+")


def canonical(text: str) -> str:
    """Formula text as compared: without a leading ``=``, spaces outside string literals
    left out, letters outside them in capitals.

    Examples
    --------
    >>> canonical('=sum( b2 , "a b" )')
    'SUM(B2,"a b")'
    """
    text = text[1:] if text.startswith("=") else text
    parts = _STRING.split(text)
    parts[::2] = [_SPACE.sub("", p).upper() for p in parts[::2]]
    return "".join(parts)


def _span(sx: SheetXml, area: Area) -> tuple[int, int]:
    i0, i1 = sx.index_of(area.top), sx.index_of(area.bottom + 1)
    return (sx.starts[i0], sx.ends[i1 - 1]) if i0 < i1 else (0, 0)


def has_formulas(sx: SheetXml, area: Area) -> bool:
    """Whether any row of ``area`` holds a formula element."""
    start, end = _span(sx, area)
    f_open = b"<" + sx.prefix + b"f"
    at = sx.data.find(f_open, start, end)
    while at >= 0:
        if sx.data[at + len(f_open) : at + len(f_open) + 1] in (b">", b" ", b"/", b"\t", b"\n"):
            return True
        at = sx.data.find(f_open, at + 1, end)
    return False


def formula_cells(
    sx: SheetXml, area: Area, cols: set[int] | None, mover: FormulaMover
) -> Iterator[tuple[int, int, Text]]:
    """``(row, col, text)`` of each formula in ``area`` (columns ``cols``; None: all of
    the area's), its text as it reads at its own cell."""
    for cells in formula_blocks(sx, area, cols, mover):
        yield from cells


def formula_blocks(
    sx: SheetXml, area: Area, cols: set[int] | None, mover: FormulaMover
) -> Iterator[list[tuple[int, int, Text]]]:
    """:func:`formula_cells` 4,096 rows at a time: quick when every formula there is a
    plain ``<f>`` (what xlshuffle writes), cell by cell otherwise."""
    groups: list[SharedGroups] = []  # found once, when a block first needs them

    def shared() -> SharedGroups:
        if not groups:
            groups.append(SharedGroups(sx, area))
        return groups[0]

    left, right = area.left, area.right
    i0, i1 = sx.index_of(area.top), sx.index_of(area.bottom + 1)
    for b0 in range(i0, i1, _BLOCK):
        b1 = min(b0 + _BLOCK, i1)
        block = Area((sx.numbers[b0], left, sx.numbers[b1 - 1], right))
        quick = _quick_cells(sx, block, mover, shared)
        cells = quick if quick is not None else list(_careful_cells(sx, block, mover, shared()))
        yield [x for x in cells if left <= x[1] <= right and (cols is None or x[1] in cols)]


_BLOCK = 4096


def _quick_cells(
    sx: SheetXml, area: Area, mover: FormulaMover, groups: Callable[[], SharedGroups]
) -> list[tuple[int, int, Text]] | None:
    """Every formula of ``area``'s rows from one regular expression, or None when one is
    not a plain formula (:func:`~..scan.sheet.plain_formula_tag`: ``<f>``, or with
    LibreOffice's ``aca="false"``) in a cell that names itself or, in rows whose cells
    say no ``r``, one whose place is counted (then :func:`_careful_cells`). A shared
    formula as Excel fills it down (:func:`_shared_cells`) is read with them."""
    start, end = _span(sx, area)
    p, data = re.escape(sx.prefix), sx.data
    tag = plain_formula_tag(sx.prefix)
    formulas = _f_tags(sx, start, end)
    plain = data.count(b"<" + sx.prefix + b"f>", start, end)
    extra: list[tuple[int, int, Text]] = []
    if plain != formulas:  # LibreOffice's <f aca="false">, or one that is not plain
        plain = len(tag.findall(data, start, end))
        if plain != formulas:
            shared = _shared_cells(sx, start, end, mover, groups)
            if plain + len(shared) != formulas:
                return None
            extra = shared
    f = rb">" + tag.pattern + rb"([^<]*)</" + p + rb"f>"
    found = []
    for head in (rb"<" + p + rb'c r="', rb"<" + p + rb"c\s[^<>]*?(?<![\w:.-])r\s*=\s*\""):
        # r= first, as Excel and xlshuffle write it; then anywhere in the tag
        # greedy: [^<>]* stops at the start tag's end, so each try is one pass, no backtracking
        found = re.compile(head + rb'([A-Z]{1,3})(\d+)"[^<>]*' + f).findall(data, start, end)
        if len(found) == plain:
            cells = [(int(row), col_index(letters), _decoded(text)) for letters, row, text in found]
            return cells + extra
    return None if extra else _counted_cells(sx, start, end, plain)


def _shared_cells(
    sx: SheetXml, start: int, end: int, mover: FormulaMover, groups: Callable[[], SharedGroups]
) -> list[tuple[int, int, Text]]:
    """The shared formulas of ``data[start:end]`` written as Excel writes a formula filled
    down (``<f t="shared" si="0"/>``, the master with its ``ref`` and text), each in a
    cell that says ``r`` first, with their texts where they are, as
    :func:`_careful_cells` reads them: the master's translated, for a group the draw
    touches; else their own (none for a member)."""
    p = re.escape(sx.prefix)
    pattern = re.compile(
        rb"<"
        + p
        + rb'c r="([A-Z]{1,3})(\d+)"[^<>]*><'
        + p
        + rb'f t="shared"(?: ref="[A-Z$0-9:]*")? si="(\d{1,9})"(?:/>|>([^<]*)</'
        + p
        + rb"f>)"
    )
    found = pattern.findall(sx.data, start, end)
    if not found:
        return []
    known = groups().groups
    out: list[tuple[int, int, Text]] = []
    for letters, row, si, own in found:
        r, c = int(row), col_index(letters)
        group = known.get(si)
        if group is None:
            out.append((r, c, _decoded(own)))
            continue
        try:
            text: Text = mover.move(group.text, group.row, group.col, r, c)
        except (FormulaMoveError, ValueError):
            text = None
        out.append((r, c, text))
    return out


def _decoded(text: bytes) -> str:
    return unescape(text) if b"&" in text else text.decode()


def _counted_cells(
    sx: SheetXml, start: int, end: int, plain: int
) -> list[tuple[int, int, Text]] | None:
    """The formulas of ``data[start:end]`` found one by one, each cell's place read from
    its ``r`` or, in a row whose cells say none (each is then the one after the previous,
    the first in column A), counted: the cells its row has started up to it, by C-level
    searches. A draw numbers the rows it moves, so an output of such a sheet mixes both
    kinds of rows. None when a cell says its ``r`` after another attribute, when ``<c``
    starts anything but a cell (a rich text's ``<color>``), or when not every formula is
    found."""
    data, p = sx.data, sx.prefix
    c, c_r = b"<" + p + b"c", b"<" + p + b'c r="'
    tags = sum(data.count(c + end_, start, end) for end_ in (b">", b" ", b"/"))
    if tags != data.count(c, start, end):
        return None
    says_r = numbered_cell_tag(p)
    f = plain_formula_tag(p).pattern + rb"([^<]*)</" + re.escape(p) + rb"f>"
    starts, ends, numbers = sx.starts, sx.ends, sx.numbers
    found: list[tuple[int, int, Text]] = []
    for m in re.compile(f).finditer(data, start, end):
        at = m.start()
        i = bisect_right(starts, at) - 1
        cell = data.rfind(c, starts[i], at)
        ref = _REF.match(data, cell + len(c_r)) if data.startswith(c_r, cell) else None
        if ref is not None:
            found.append((int(ref[2]), col_index(ref[1]), _decoded(m[1])))
        elif cell >= 0 and says_r.search(data, starts[i], ends[i]) is None:
            found.append((numbers[i], data.count(c, starts[i], at), _decoded(m[1])))
        else:
            return None
    return found if len(found) == plain else None


_REF = re.compile(rb'([A-Z]{1,3})(\d+)"')


def _f_tags(sx: SheetXml, start: int, end: int) -> int:
    """How many formula elements of any spelling lie in ``data[start:end]``."""
    f_open = re.compile(rb"<" + re.escape(sx.prefix) + rb"f[\s>/]")
    return len(f_open.findall(sx.data, start, end))


def _careful_cells(
    sx: SheetXml, area: Area, mover: FormulaMover, groups: SharedGroups
) -> Iterator[tuple[int, int, Text]]:
    for i in range(sx.index_of(area.top), sx.index_of(area.bottom + 1)):
        row, number = sx.row(i), sx.numbers[i]
        for cell in parse_cells(row, number, sx.prefix, sx.label):
            if cell.f_span is not None:
                yield number, cell.col, _text_at(row, cell, number, groups, mover)


def _text_at(
    row: bytes, cell: Cell, number: int, groups: SharedGroups, mover: FormulaMover
) -> Text:
    a = cell.f_attrs or {}
    if a.get(b"t") == b"shared":
        group = groups.groups.get(a.get(b"si", b""))
        if group is not None:
            try:
                return mover.move(group.text, group.row, group.col, number, cell.col)
            except (FormulaMoveError, ValueError):
                return None
    f_text = cell.f_text
    return "" if f_text is None else unescape(row[f_text[0] : f_text[1]])


def _moved(mover: FormulaMover, text: Text, src: tuple[int, int], dst: tuple[int, int]) -> Text:
    if text is None:
        return None
    try:
        if src[1] == dst[1]:
            return mover.move_row(text, src[0], src[1], dst[0])[0]
        return mover.move(text, *src, *dst)
    except (FormulaMoveError, ValueError):
        return None


#: How :func:`_expected` and :func:`_found` digest a formula: ``"text"`` by its text as
#: written (the input's translated first), ``"canonical"`` by its canonical text.
Way = Literal["text", "canonical"]


def _expected(sx: SheetXml, area: Area, cols: set[int] | None, dest: Dest, way: Way) -> array[int]:
    """Per row of ``area``, the digest of the formulas the draw puts there."""
    out = array("q", [0]) * (area.bottom - area.top + 1)
    mover = FormulaMover()
    top, canon = area.top, way == "canonical"
    for cells in formula_blocks(sx, area, cols, mover):
        for r, c, text in cells:
            to = dest(r, c)
            moved = _moved(mover, text, (r, c), to)
            if canon and moved is not None:
                moved = canonical(moved)
            out[to[0] - top] ^= hash((to[1], moved))
    return out


def _found(sx: SheetXml, area: Area, cols: set[int] | None, way: Way) -> array[int]:
    """Per row of ``area``, the digest of the formulas the output holds there."""
    out = array("q", [0]) * (area.bottom - area.top + 1)
    top = area.top
    for cells in formula_blocks(sx, area, cols, FormulaMover()):
        if way == "canonical":
            cells = [(r, c, t if t is None else canonical(t)) for r, c, t in cells]
        for r, c, text in cells:
            out[r - top] ^= hash((c, text))
    return out


def expected_digests(
    sx: SheetXml, area: Area, cols: set[int] | None, dest: Dest, way: Way = "text"
) -> array[int]:
    """Per row of ``area`` (``area.top`` first), the digest of the formulas the draw puts
    there: each formula of the input's ``sx`` in ``area`` moved to ``dest(row, col)``.
    All zeros (not read cell by cell) when no row of the area holds a formula."""
    if not has_formulas(sx, area):
        return array("q", [0]) * (area.bottom - area.top + 1)
    return _expected(sx, area, cols, dest, way)


def found_digests(sx: SheetXml, area: Area, cols: set[int] | None, way: Way = "text") -> array[int]:
    """Per row of ``area``, the digest of the formulas the output's ``sx`` holds there."""
    if not has_formulas(sx, area):
        return array("q", [0]) * (area.bottom - area.top + 1)
    return _found(sx, area, cols, way)


def first_mismatch(expected: array[int], found: array[int], top: int) -> int | None:
    """The first row whose digests differ, or None."""
    if expected == found:
        return None
    pairs = zip(expected, found, strict=True)
    return next((top + p for p, (a, b) in enumerate(pairs) if a != b), None)


def formulas_at(
    before: SheetXml, after: SheetXml, area: Area, cols: set[int] | None, dest: Dest, row: int
) -> tuple[dict[int, Text], dict[int, Text]]:
    """The formulas the draw puts in output row ``row`` and those found there, by column
    (the texts of a row :func:`first_mismatch` named, for the message)."""
    mover = FormulaMover()
    put: dict[int, Text] = {}
    for r, c, text in formula_cells(before, area, cols, mover):
        to = dest(r, c)
        if to[0] == row:
            put[to[1]] = _moved(mover, text, (r, c), to)
    one = Area((row, area.left, row, area.right))
    found = {c: text for _, c, text in formula_cells(after, one, cols, mover)}
    return put, found
