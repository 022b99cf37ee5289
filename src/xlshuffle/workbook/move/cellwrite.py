"""Rewriting one cell's XML for its new place, and the formula bookkeeping it needs.

Used by :mod:`.move`: :class:`SharedGroups` finds the shared formulas a draw touches,
:class:`CellWriter` rewrites a cell (reference, formula, cached value), and
:class:`PlainFormulas` is the quick path for whole rows whose formulas are plain.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...draw.errors import WorkbookError
from ..formulas.translate import FormulaMoveError, FormulaMover
from ..scan.edits import r_edit, spliced
from ..scan.refs import MAX_ROW, Area, cell_ref, col_index, parse_area
from ..scan.sheet import Cell, SheetXml, parse_cells, plain_formula_tag
from ..scan.xmlscan import escape_text, escape_text_like, local, tag_end, unescape

__all__ = [
    "CellWriter",
    "PlainFormulas",
    "SharedFormulas",
    "SharedGroups",
    "has_number",
    "rewrite_row_tag",
]


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
        # a group is defined by its master, the one formula of it that says the range it
        # fills (``ref``): its members (a shared formula filled down, one a row) are not
        # read, nor their rows
        pat = re.compile(
            rb"<" + re.escape(p) + rb"f(?=[^<>]*?\sref\s*=)\s[^<>]*?t\s*=\s*[\"']shared[\"']"
        )  # one tag a try
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


class CellWriter:
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
        r_span = cell.r_span
        if r_span is None or src != dst:
            span = None if r_span is None else (r_span[0] - base, r_span[1] - base)
            edits.append(r_edit(xml[: cell.tag_end - base], cell_ref(*dst).encode(), span))
        if cell.f_span is not None:
            edits.extend(self._formula(row, cell, src, dst, whole_row=whole_row))
        return spliced(xml, edits) if edits else xml

    def _formula(
        self,
        row: bytes,
        cell: Cell,
        src: tuple[int, int],
        dst: tuple[int, int],
        *,
        whole_row: bool,
    ) -> list[tuple[int, int, bytes]]:
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
                raw = row[cell.f_text[0] : cell.f_text[1]]
                text = unescape(raw)
                new = self.mover.move(text, *src, *dst)
                edits.append(
                    (cell.f_text[0] - base, cell.f_text[1] - base, escape_text_like(new, raw))
                )
            else:
                text = None
                if src == dst:
                    return edits
                if kind != b"normal":
                    shown = kind.decode("ascii", "replace")  # the file's own bytes
                    raise WorkbookError(
                        f"{self.sx.label}: cell {where} holds a {shown} formula, "
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


def rewrite_row_tag(row: bytes, tag_end: int, number: int) -> bytes:
    """``row`` with ``r="number"`` in its start tag (which ends at ``tag_end``)."""
    return spliced(row, [r_edit(row[:tag_end], b"%d" % number)])


_LETTERS = re.compile(rb"[A-Z]{1,3}")
_UNSEEN = object()
_SPECIAL = re.compile(r"[&<>]")


class PlainFormulas:
    """The quick path for rows whose formulas are all plain (``<f>text</f>``, or with the
    attributes of :meth:`plain`, such as LibreOffice's ``aca="false"``): the text is
    translated, and the cached ``<v>`` right after it is dropped unless it still holds.

    A whole-row move shifts every relative row by the same amount and no column, so the
    translation depends on the text and the row shift alone, and most formulas of a
    sheet read alike once their row number is blanked out: ``A7*2`` in row 7 and
    ``A8*2`` in row 8 are both ``A\0*2``. The first formula of such a pattern goes
    through :class:`FormulaMover`; if its translation is exactly the pattern with the new
    row number filled in (every occurrence of the row number was a relative row part),
    the pattern is kept and later formulas are two ``bytes.replace`` calls. Otherwise
    (``A5*5`` in row 5, ``LOG10(A10)``, an absolute ``$A$7``) the pattern is marked and
    every formula of it goes through the mover.
    """

    _MAX_PATTERNS = 4096

    def __init__(self, sx: SheetXml, mover: FormulaMover) -> None:
        p = sx.prefix
        self.open, self.close = b"<" + p + b"f", b"</" + p + b"f>"
        self.bare, self.calc = b"<" + p + b"f>", b"<" + p + b'f aca="false">'
        self.tag = plain_formula_tag(p)
        self.v_open, self.v_close = b"<" + p + b"v>", b"</" + p + b"v>"
        self.cell = b"<" + p + b'c r="'
        self.mover = mover
        self.label = sx.label
        self.patterns: dict[bytes, tuple[bytes, bool] | None] = {}

    def _translate(self, row: bytes, at: int, raw: bytes, src: int, dst: int) -> tuple[bytes, bool]:
        """The mover's translation of the formula ``raw`` found at ``row[at]``."""
        start = row.rfind(self.cell, 0, at) + len(self.cell)
        m = _LETTERS.match(row, start)
        col = col_index(m[0]) if m is not None else 0
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WorkbookError(
                f"{self.label}: the formula in {cell_ref(src, col)} is not UTF-8 text: open the "
                "workbook in Excel, save it again, and retry"
            ) from None
        if "&" in text:
            text = unescape(raw)
        try:
            moved, keep = self.mover.move_row(text, src, col, dst)
        except FormulaMoveError as exc:
            raise WorkbookError(
                f"{self.label}: the formula in {cell_ref(src, col)} cannot move to "
                f"{cell_ref(dst, col)} ({exc.reason}): replace it with its value (Copy, "
                "Paste Values) or choose a selection without it"
            ) from None
        return (
            escape_text_like(moved, raw)
            if _SPECIAL.search(moved) or b"&" in raw
            else moved.encode()
        ), keep

    def plain(self, row: bytes, n: int = -1) -> bool:
        """Whether every ``<f`` of ``row`` (``n`` of them, when the caller counted them)
        starts a plain formula: ``<f>``, or a start tag whose attributes leave the formula
        what its text says (LibreOffice's ``aca="false"``, ``ca``, ``bx``,
        ``t="normal"``). Counts first, the regular expression only for other spellings."""
        if n < 0:
            n = row.count(self.open)
        k = row.count(self.bare)
        if k == n:
            return True
        k += row.count(self.calc)
        return k == n or len(self.tag.findall(row)) == n

    def move_one(self, row: bytes, src: int, dst: int) -> bytes | None:
        """:meth:`move` for a row holding one plain formula (the caller counted), when its
        shape is known and keeps its cached value: a few searches, two replacements. None
        otherwise, for :meth:`move`."""
        i = row.find(self.open) + len(self.open)
        i = i + 1 if row[i] == 0x3E else row.find(b">", i) + 1  # '>': no attribute
        j = row.find(self.close, i)
        pattern = self.patterns.get(row[i:j].replace(b"%d" % src, b"\0"))
        if pattern is None or not pattern[1]:
            return None
        return b"".join((row[:i], pattern[0].replace(b"\0", b"%d" % dst), row[j:]))

    def move(self, row: bytes, src: int, dst: int, *, keep_values: bool = True) -> bytes:
        """``row`` (references already rewritten) with each formula translated. Without
        ``keep_values`` (cells moved out of their row, as :class:`CellWriter` does with
        ``whole_row=False``) every cached value is dropped."""
        out: list[bytes] = []
        pos = 0
        find = row.find
        src_b, dst_b = b"%d" % src, b"%d" % dst
        open_, close, patterns = self.open, self.close, self.patterns
        i = find(open_)
        while i >= 0:
            i += len(open_)
            i = i + 1 if row[i] == 0x3E else find(b">", i) + 1  # '>': no attribute
            j = find(close, i)
            raw = row[i:j]
            blank = raw.replace(src_b, b"\0")
            pattern = patterns.get(blank, _UNSEEN)
            if isinstance(pattern, tuple):
                moved, keep = pattern[0].replace(b"\0", dst_b), pattern[1]
            else:
                moved, keep = self._translate(row, i, raw, src, dst)
                if pattern is _UNSEEN and b"\0" not in raw:
                    if len(patterns) >= self._MAX_PATTERNS:
                        patterns.clear()
                    fits = b"\0" in blank and blank.replace(b"\0", dst_b) == moved
                    patterns[blank] = (blank, keep) if fits else None
            out += (row[pos:i], moved, close)
            pos = j + len(close)
            if not (keep and keep_values) and row.startswith(self.v_open, pos):
                end = find(self.v_close, pos)
                pos = pos if end < 0 else end + len(self.v_close)
            i = find(open_, pos)
        out.append(row[pos:])
        return b"".join(out)


class SharedFormulas:
    """The quick path for rows whose formulas are members (or the master) of shared
    formulas that the draw touches, as Excel writes a formula filled down: the row's
    references are renumbered by the caller, and each formula is written out as a plain
    one where it lands, as :class:`CellWriter` writes it: the master's text translated to
    the new cell, the cached value kept only if it still holds (a whole row) or the cell
    stays where it is (a block).

    The master's translation to any row is found once per group and column: translated to
    two far rows, with each row's number blanked out, it must read the same (every
    relative row part is the formula's own row, as in ``A2*2`` filled down), and then each
    row's text is that pattern with its number filled in, and whether the value holds is
    the same for every row. Otherwise each row's text is translated by the mover, which
    costs a few microseconds, where reading the row cell by cell costs a hundred.
    """

    # far apart, near the last row: no relative row part other than the formula's own
    # reads the same at both (a part below them would leave the sheet)
    _PROBES = (MAX_ROW - 3, MAX_ROW // 2 - 1)

    def __init__(self, sx: SheetXml, mover: FormulaMover, shared: SharedGroups) -> None:
        p = sx.prefix
        self.mover, self.shared = mover, shared
        self.tag = re.compile(
            rb"<"
            + re.escape(p)
            + rb'f t="shared"(?: ref="[A-Z$0-9:]*")? si="(\d{1,9})"(?:/>|>[^<]*</'
            + re.escape(p)
            + rb"f>)"
        )
        self.open, self.close = b"<" + p + b"f>", b"</" + p + b"f>"
        self.v_open, self.v_close, self.v_empty = (
            b"<" + p + b"v>",
            b"</" + p + b"v>",
            b"<" + p + b"v/>",
        )
        self.cell, self.cell_close = b"<" + p + b'c r="', b"</" + p + b"c>"
        self.member_open, self.f_mark = b"<" + p + b'f t="shared" si="', b"<" + p + b"f"
        self.shared_open = b"<" + p + b'f t="shared"'
        #: a member's pattern (:meth:`_pattern`) by its ``si`` and its column's letters
        self.members: dict[tuple[bytes, bytes], tuple[bytes, bool] | None] = {}
        #: by the group's master (row, column) and the formula's column
        self.patterns: dict[tuple[int, int, int], tuple[bytes, bool] | None] = {}

    def member(self, row: bytes, at: int, dst: int) -> bytes | None:
        """:meth:`move_row` for a row whose one formula is a member
        (``<f t="shared" si="N"/>``, at ``row[at]``) of a group whose translation is one
        pattern in its column: a few searches and a lookup, as Excel's filled-down rows
        are nearly all. None otherwise (then :meth:`move_row`)."""
        a = at + len(self.member_open)
        e = row.find(b'"/>', a)
        if e < 0 or e - a > 9 or row.find(self.f_mark, e) >= 0:
            return None
        c = row.rfind(self.cell, 0, at)
        if c < 0:
            return None
        c += len(self.cell)
        letters = row[c : row.find(b'"', c)].rstrip(b"0123456789")
        key = (row[a:e], letters)
        members = self.members
        if key not in members:
            group = self.shared.groups.get(key[0])
            if group is None or _LETTERS.fullmatch(letters) is None:
                members[key] = None
            else:
                members[key] = self._pattern_of(group, col_index(letters))
        pattern = members[key]
        end = e + 3
        v_end = self._value_end(row, end)
        if pattern is None or v_end < 0:
            return None
        text = pattern[0].replace(b"\0", b"%d" % dst)
        value = row[end:v_end] if pattern[1] else b""
        return b"".join((row[:at], self.open, text, self.close, value, row[v_end:]))

    def move_row(self, row: bytes, src: int, dst: int) -> bytes | None:
        """``row`` (its references already at ``dst``, every formula in it a shared one)
        with its shared formulas written out for row ``dst``, as :class:`CellWriter`
        writes a whole row's: each value kept only if it still holds. None when a cell
        holds more than its formula and value, a formula is not one of a touched group,
        or one cannot move (the caller's careful path then says why)."""
        return self._write_all(row, dst, lambda group, col: self._keeps(group, col, src))

    def write_out(self, cells: bytes, number: int, *, keep_values: bool) -> bytes | None:
        """``cells`` (whole cells of row ``number``, their references already there) with
        each shared formula written out as a plain one, as :class:`CellWriter` writes a
        cell of a block (``whole_row=False``): its value kept only with ``keep_values``
        (a cell that stays where it is). None as :meth:`move_row` says it."""
        return self._write_all(cells, number, lambda group, col: keep_values)

    def _write_all(
        self, cells: bytes, number: int, keep: Callable[[SharedGroup, int], bool]
    ) -> bytes | None:
        out: list[bytes] = []
        pos = written = 0
        for m in self.tag.finditer(cells):
            found = self._cell(cells, m)
            if found is None:
                return None
            group, col, end, v_end = found
            try:
                text, kept = self._text(group, col, number), keep(group, col)
            except (FormulaMoveError, ValueError):
                return None
            out += (cells[pos : m.start()], self.open, text, self.close)
            pos = end if kept else v_end
            written += 1
        if written != cells.count(self.shared_open):
            return None  # one spelt otherwise (ca="1" too, which CellWriter keeps)
        out.append(cells[pos:])
        return b"".join(out)

    def _cell(self, row: bytes, m: re.Match[bytes]) -> tuple[SharedGroup, int, int, int] | None:
        """The group and column of the shared formula ``m`` found in ``row``, where its tag
        ends and where its cached value does (at the cell's end); None when the group is
        not touched or the cell holds more."""
        group = self.shared.groups.get(m[1])
        end = m.end()
        v_end = self._value_end(row, end)
        start = row.rfind(self.cell, 0, m.start())
        letters = None if start < 0 else _LETTERS.match(row, start + len(self.cell))
        if group is None or v_end < 0 or letters is None:
            return None
        return group, col_index(letters[0]), end, v_end

    def _value_end(self, row: bytes, end: int) -> int:
        """Where the cached value that follows a formula ending at ``row[end]`` ends (none:
        ``end``), or -1 when the cell does not end there."""
        if row.startswith(self.v_open, end):
            v_end = row.find(self.v_close, end) + len(self.v_close)
        elif row.startswith(self.v_empty, end):
            v_end = end + len(self.v_empty)
        else:
            v_end = end
        return v_end if row.startswith(self.cell_close, v_end) else -1

    def _text(self, group: SharedGroup, col: int, number: int) -> bytes:
        """The group's formula in (``number``, ``col``), as the file writes it."""
        pattern = self._pattern_of(group, col)
        if pattern is not None:
            return pattern[0].replace(b"\0", b"%d" % number)
        return escape_text(self.mover.move(group.text, group.row, group.col, number, col))

    def _keeps(self, group: SharedGroup, col: int, number: int) -> bool:
        """Whether the group's formula in (``number``, ``col``) keeps its value when its
        whole row moves."""
        pattern = self._pattern_of(group, col)
        if pattern is not None:
            return pattern[1]
        mover = self.mover
        here = mover.move(group.text, group.row, group.col, number, col)
        return mover.keeps_value_on_row_move(here, number, col)

    def _pattern_of(self, group: SharedGroup, col: int) -> tuple[bytes, bool] | None:
        key = (group.row, group.col, col)
        patterns = self.patterns
        if key not in patterns:
            patterns[key] = self._pattern(group, col)
        return patterns[key]

    def _pattern(self, group: SharedGroup, col: int) -> tuple[bytes, bool] | None:
        """The group's text in column ``col`` with its row number as ``\\0``, and whether
        its value holds, when that is the same for every row; None otherwise."""
        mover = self.mover
        try:
            read = [
                escape_text(mover.move(group.text, group.row, group.col, x, col)).replace(
                    b"%d" % x, b"\0"
                )
                for x in self._PROBES
            ]
            x = self._PROBES[0]
            keep = mover.keeps_value_on_row_move(
                mover.move(group.text, group.row, group.col, x, col), x, col
            )
        except (FormulaMoveError, ValueError):
            return None
        if read[0] != read[1] or b"\0" not in read[0]:
            return None
        return read[0], keep
