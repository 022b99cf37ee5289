"""The rows of a sheet part as the layout rules (:mod:`.layout`) read them.

Only a few rows are read cell by cell (the top and the bottom of the used range); blank
rows inside the data are found by C-level searches over :class:`~.sheet.SheetXml`'s row
offsets, and shared strings are looked up one by one in the raw part, never parsed
whole, so a million-row sheet costs a few C-level passes.
"""

from __future__ import annotations

import re
from itertools import compress, count, islice, repeat
from operator import add, lt, ne

from ...draw.errors import WorkbookError
from ..limits import LIMITS
from ..package.parts import Book
from ..scan.refs import Area, cell_ref, parse_area
from ..scan.rowfind import used_cols
from ..scan.sheet import SheetXml
from ..scan.xmlscan import attrs, iter_tags, local, unescape
from ..values.cells import CellStyles, SharedStrings, ValuesError, cell_value
from .layout import Cell, Rows

__all__ = ["SheetRows"]

_T = re.compile(rb"\st\s*=\s*[\"']([^\"']*)[\"']")
_NO_STYLES = CellStyles()
_CHUNK = 1 << 16
_UNIQUE = re.compile(rb"\suniqueCount\s*=\s*[\"'](\d+)")


class SheetRows(Rows):
    """The stored rows of a sheet part; shared strings are looked up one by one."""

    def __init__(self, book: Book, sx: SheetXml) -> None:
        self.book, self.sx, self.numbers = book, sx, sx.numbers
        self._sst: bytes | None = None
        self._whole: SharedStrings | None = None
        self._mark, self._chunks = b"<si", list[int]()

    def cells(self, i: int) -> list[Cell]:
        try:
            return self._cells(i)
        except ValuesError as exc:  # a damaged cell: say where, once
            why = exc.reason
        except UnicodeError:  # a type attribute that is not UTF-8
            why = "not UTF-8 text"
        raise WorkbookError(
            f"{self.sx.label}: row {self.numbers[i]}: {why}: open the workbook in Excel, "
            "save it again, and retry"
        )

    def _cells(self, i: int) -> list[Cell]:
        row = self.sx.row(i)
        out = []
        for cell in self.sx.cells(i):
            if not cell.valued:
                continue
            m = _T.search(row, cell.start, cell.tag_end)
            t = m[1].decode("ascii", "replace") if m else "n"
            f = unescape(row[cell.f_text[0] : cell.f_text[1]]) if cell.f_text else ""
            v = b""
            if cell.v_span is not None:
                s, e = cell.v_span
                gt = row.find(b">", s, e)
                v = b"" if row[gt - 1] == 0x2F else row[gt + 1 : row.rfind(b"<", s, e)]
            if t == "s":
                index = v.strip()
                shared = self.shared(int(index)) if index.isdigit() else None
                if shared is None:  # a broken cell is not a blank one
                    where = cell_ref(self.numbers[i], cell.col)
                    shown = index.decode("ascii", "replace")
                    raise WorkbookError(
                        f"{self.sx.label}: cell {where}: shared string {shown} does not "
                        "exist: open the workbook in Excel, save it again, and retry"
                    )
                out.append((cell.col, "text", shared, f))
            elif t == "inlineStr" or (t == "str" and cell.v_span is not None):
                text = cell_value(
                    row[cell.start : cell.end], strings=None, styles=_NO_STYLES, date1904=False
                )
                out.append((cell.col, "text", "" if text is None else str(text), f))
            elif v.strip():
                out.append((cell.col, {"b": "bool", "e": "error"}.get(t, "number"), "", f))
            elif cell.f_span is not None:
                out.append((cell.col, "formula", "", f))
        return out

    def merges(self) -> list[Area]:
        data = self.sx.data
        refs = (
            unescape(attrs(data[t.start : t.end]).get(b"ref", b""))
            for t in iter_tags(data, self.sx.content_end, len(data))
            if t.kind in ("start", "empty") and local(t.name) == b"mergeCell"
        )
        try:
            return [a for a in map(parse_area, refs) if a is not None]
        except ValueError as exc:  # markup after <sheetData> that does not end
            raise WorkbookError(
                f"{self.sx.label}: the sheet is not well-formed XML ({exc}): open the "
                "workbook in Excel, save it again, and retry"
            ) from None

    def first_blank(self, i0: int, i1: int) -> int | None:
        sx = self.sx
        nums, data, p = sx.numbers, sx.data, sx.prefix
        first: int | None = None
        if nums[i1] - nums[i0] != i1 - i0:  # a missing row: C-level search for the jump
            after = map(add, islice(nums, i0, i1), repeat(1))
            k = next(compress(count(i0), map(ne, islice(nums, i0 + 1, i1 + 1), after)))
            first = nums[k] + 1
        # A row whose last cell has content holds a value: when every row ends so (one
        # C-level count) none is blank; else rows without <v> are candidates, each checked.
        if data.count(b"</" + p + b"c></" + p + b"row>", sx.starts[i0], sx.ends[i1]) != (
            i1 - i0 + 1
        ):
            v = map(
                data.find,
                repeat(b"<" + p + b"v>"),
                islice(sx.starts, i0, i1 + 1),
                islice(sx.ends, i0, i1 + 1),
            )
            for i in compress(count(i0), map(lt, v, repeat(0))):
                if first is not None and nums[i] > first:
                    break
                if not sx.row_has_value(i):
                    return nums[i]
        return first

    def last_blank(self, number: int) -> int:
        nums, last = self.numbers, number
        while True:  # missing rows are skipped at once; stops at the next valued row
            k = self.sx.index_of(last + 1)
            if k >= len(nums):
                return last
            if nums[k] > last + 1:
                last = nums[k] - 1
            elif not self.sx.row_has_value(k):
                last += 1
            else:
                return last

    def columns(self, i0: int, i1: int) -> tuple[int, int]:
        return used_cols(self.sx, i0, i1)

    def shared(self, index: int) -> str | None:
        """Shared string ``index``, found in the raw part without parsing it whole
        (``None`` if there is none)."""
        try:
            return self._shared(index)
        except ValuesError as exc:  # the parser does not know the file's name
            raise WorkbookError(
                f"{self.book.label}: {exc.reason}: open the workbook in Excel, save it again, "
                "and retry"
            ) from None

    def _shared(self, index: int) -> str | None:
        if self._sst is None:
            self._load()
        if self._whole is not None:
            return str(self._whole[index]) if 0 <= index < len(self._whole) else None
        data, mark, seen = self._sst or b"", self._mark, 0
        for c, k in enumerate(self._chunks):
            if seen + k > index:  # the <si> is in chunk c: step to it
                at = c * _CHUNK - 1
                for _ in range(index - seen + 1):
                    at = data.find(mark, at + 1)
                end = data.find(b"</" + mark[1:] + b">", at)
                if data[data.find(b">", at) - 1] == 0x2F or end < 0:
                    return ""  # <si/>
                si = data[at : end + len(mark) + 2]
                return str(SharedStrings.parse(b"<sst>" + si + b"</sst>")[0])
            seen += k
        return None

    def _load(self) -> None:
        book, part = self.book, None
        for rel in book.rels(book.part):
            if rel.type == "sharedStrings" and not rel.external:
                part = book.pkg.find(rel.target)
        data = self._sst = b"" if part is None else book.read(part, limit=LIMITS.max_strings_bytes)
        root = re.search(rb"<([\w.-]+:)?sst[\s>]", data)
        self._mark = b"<" + (root[1] or b"" if root else b"") + b"si"
        # the <si> starting in [a, a + _CHUNK): one C-level count per chunk
        n = _CHUNK + len(self._mark) - 1
        self._chunks = [data.count(self._mark, a, a + n) for a in range(0, len(data), _CHUNK)]
        at = root.start() if root else 0
        unique = _UNIQUE.search(data, at, data.find(b">", at) + 1)
        if root is None or (
            (unique is None or int(unique[1]) != sum(self._chunks))
            and (b"<!" in data or data.find(b"<?", root.end()) >= 0)
        ):  # a "<si" in a comment or CDATA would shift the count: parse the careful way
            self._whole = SharedStrings.parse(data) if data else SharedStrings()
