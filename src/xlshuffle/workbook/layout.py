"""Where the data is when nothing says so: the layout rules of the default selection.

Real draw lists are not clean tables. With no ``--range``, ``--table`` or ``--columns``
(and a sheet without Excel tables) these rules narrow the used range: rows left out stay
in place and are listed, with their reason, in the selection and the record; a layout
that cannot be read for sure is refused with a one-line hint:

* **title rows** - up to 3 rows above the header that each hold one text cell (a merged
  title too) are left out (``"title"``), with blank rows around them (``"blank"``), when
  the header labels at least two columns and at least half of the 10 rows under it hold
  two values or more (a wide table);
* **blank rows at the end** - rows at the bottom whose cells hold nothing but empty text
  or spaces are left out (``"blank"``); rows with no value at all are never in the used
  range;
* **total rows** - up to 3 last rows whose first non-empty cell reads Total, Totals,
  Grand total, Sum, Summe, Gesamt, Somme, Total général, 合計... (any case), or that hold a
  ``SUM``/``SUBTOTAL``/``AGGREGATE`` of a range of their own column above them, are left
  out (``"total"``), and the blank rows between them and the data with them;
* **two header rows** - a row right under the header whose cells are all text, when one
  of them stands over a column of numbers, dates or booleans, or under a merged header
  cell; and merged cells joining the header row to the row below: refused, naming the
  ``--range`` that draws the data rows only (could be data with a typo: not guessed);
* **a blank row inside the data** - a missing or value-less row between the header and
  the last data row: refused, naming the ``--range`` that draws the rows above it (two
  lists, or a gap: not guessed).

``--columns`` only gets the second rule, in its columns. Cost at a million rows: cells
are read in the top 30 rows and the bottom rows left out; blank rows inside the data are
found by C-level searches over :class:`~.sheet.SheetXml`'s row offsets; shared strings
are looked up one by one in the raw part, never parsed whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, count, islice, repeat
from operator import add, lt, ne
from typing import Protocol

from ..draw.errors import WorkbookError
from .limits import LIMITS
from .parts import Book
from .refs import Area, col_index, col_letters, parse_area
from .sheet import SheetXml
from .strings import SharedStrings
from .values import CellStyles, cell_value
from .xmlscan import attrs, iter_tags, local, unescape

__all__ = ["Excluded", "Layout", "Rows", "SheetRows", "find_data", "trim_blank_tail"]

TITLE_ROWS = 3  # most title rows skipped
TOP_WINDOW = 20  # rows looked at for titles and the header
BELOW = 10  # rows under the header that show the table's shape
TOTAL_ROWS = 3  # most summary rows left out at the bottom

_TOTAL_WORDS = frozenset(
    ["total", "totals", "grand total", "sum", "summe", "gesamt", "gesamtsumme", "somme",
     "total général", "totale", "totaal", "suma", "subtotal", "合計", "合计", "总计", "總計"]
)  # fmt: skip
_AGGREGATE = re.compile(r"\s*=?\s*(?:_xlfn\.)?(?:SUM|SUBTOTAL|AGGREGATE)\s*\((?:[^():]*,)?\s*"
                        r"\$?([A-Z]{1,3})\$?(\d+)\s*:\s*\$?([A-Z]{1,3})\$?(\d+)\s*\)\s*",
                        re.IGNORECASE)  # fmt: skip
_T = re.compile(rb"\st\s*=\s*[\"']([^\"']*)[\"']")
_NO_STYLES = CellStyles()
_CHUNK = 1 << 16
_UNIQUE = re.compile(rb"\suniqueCount\s*=\s*[\"'](\d+)")


@dataclass(frozen=True)
class Excluded:
    """Rows ``first..last`` (numbers) of the used range that are not data, and why:
    ``"title"``, ``"blank"`` or ``"total"``."""

    first: int
    last: int
    why: str

    def rows(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"

    def to_dict(self) -> dict[str, str]:
        return {"rows": self.rows(), "why": self.why}

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> Excluded:
        first, _, last = str(data["rows"]).partition("-")
        return cls(int(first), int(last or first), str(data["why"]))


@dataclass
class Layout:
    """Indexes of the top row (the header, if any) and last data row; rows left out."""

    top: int
    bottom: int
    excluded: list[Excluded] = field(default_factory=list)


#: A cell as the rules see it: (column, kind, text, formula). ``kind`` is ``"text"``,
#: ``"number"`` (dates too), ``"bool"``, ``"error"`` or ``"formula"`` (a formula whose
#: value is not known); ``formula`` is the formula's text, ``""`` for none.
Cell = tuple[int, str, str, str]


class Rows(Protocol):
    """The rows the rules read, by index: a file's stored rows or a worksheet's rows, of
    ascending ``numbers``. :meth:`cells` is called for a few rows only."""

    numbers: Sequence[int]

    def cells(self, i: int) -> list[Cell]:
        """The cells of row ``i`` that hold a value (empty text included)."""

    def merges(self) -> list[Area]: ...

    def first_blank(self, i0: int, i1: int) -> int | None:
        """The first row number without a value in rows ``i0..i1`` (missing ones too)."""

    def last_blank(self, number: int) -> int:
        """The last row of the run of rows without a value that starts at ``number``."""

    def columns(self, i0: int, i1: int) -> tuple[int, int]:
        """Leftmost and rightmost used column of rows ``i0..i1`` (for messages)."""


class SheetRows(Rows):
    """The stored rows of a sheet part; shared strings are looked up one by one."""

    def __init__(self, book: Book, sx: SheetXml) -> None:
        self.book, self.sx, self.numbers = book, sx, sx.numbers
        self._sst: bytes | None = None
        self._whole: SharedStrings | None = None
        self._mark, self._chunks = b"<si", list[int]()

    def cells(self, i: int) -> list[Cell]:
        row = self.sx.row(i)
        out = []
        for cell in self.sx.cells(i):
            if not cell.valued:
                continue
            m = _T.search(row, cell.start, cell.tag_end)
            t = m[1].decode() if m else "n"
            f = unescape(row[cell.f_text[0] : cell.f_text[1]]) if cell.f_text else ""
            v = b""
            if cell.v_span is not None:
                s, e = cell.v_span
                gt = row.find(b">", s, e)
                v = b"" if row[gt - 1] == 0x2F else row[gt + 1 : row.rfind(b"<", s, e)]
            if t == "s":
                index = v.strip()
                out.append(
                    (cell.col, "text", self.shared(int(index)) if index.isdigit() else "", f)
                )
            elif t == "inlineStr" or (t == "str" and cell.v_span is not None):
                text = cell_value(row[cell.start : cell.end], strings=None, styles=_NO_STYLES,
                                  date1904=False)  # fmt: skip
                out.append((cell.col, "text", "" if text is None else str(text), f))
            elif v.strip():
                out.append((cell.col, {"b": "bool", "e": "error"}.get(t, "number"), "", f))
            elif cell.f_span is not None:
                out.append((cell.col, "formula", "", f))
        return out

    def merges(self) -> list[Area]:
        data = self.sx.data
        refs = (unescape(attrs(data[t.start : t.end]).get(b"ref", b""))
                for t in iter_tags(data, self.sx.content_end, len(data))
                if t.kind in ("start", "empty") and local(t.name) == b"mergeCell")  # fmt: skip
        return [a for a in map(parse_area, refs) if a is not None]

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
            v = map(data.find, repeat(b"<" + p + b"v>"), islice(sx.starts, i0, i1 + 1),
                    islice(sx.ends, i0, i1 + 1))  # fmt: skip
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
        from .select import used_cols  # select imports this module

        return used_cols(self.sx, i0, i1)

    def shared(self, index: int) -> str:
        """Shared string ``index``, found in the raw part without parsing it whole."""
        if self._sst is None:
            self._load()
        if self._whole is not None:
            return self._whole[index] if 0 <= index < len(self._whole) else ""
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
                return SharedStrings.parse(b"<sst>" + si + b"</sst>")[0]
            seen += k
        return ""

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


# ------------------------------------------------------------------------- the rules


def _filled(cells: list[Cell], cols: set[int] | None = None) -> list[Cell]:
    return [c for c in cells if (c[1] != "text" or c[2].strip()) and (cols is None or c[0] in cols)]


def _is_total(cells: list[Cell], number: int) -> bool:
    """A first non-empty cell reading Total..., or a sum of the column above."""
    if cells and cells[0][1] == "text":
        t = " ".join(cells[0][2].casefold().split()).rstrip(":").strip()
        if t in _TOTAL_WORDS or t.startswith(("total ", "totals ", "grand total")):
            return True
    for col, _, _, formula in cells:
        m = _AGGREGATE.fullmatch(formula)
        if m and col_index(m[1].upper()) == col_index(m[3].upper()) == col and (
                max(int(m[2]), int(m[4])) < number):  # fmt: skip
            return True
    return False


def _runs(reasons: dict[int, str]) -> list[Excluded]:
    """Row number -> reason, as runs of consecutive rows with one reason."""
    out: list[Excluded] = []
    for r in sorted(reasons):
        if out and out[-1].last == r - 1 and out[-1].why == reasons[r]:
            out[-1] = Excluded(out[-1].first, r, reasons[r])
        else:
            out.append(Excluded(r, r, reasons[r]))
    return out


def _tail(rows: Rows, top: int, last: int, cols: set[int] | None,
          totals: bool) -> tuple[int, dict[int, str]]:  # fmt: skip
    """The last data row (index), leaving out blank and total rows at the bottom."""
    nums = rows.numbers
    reasons: dict[int, str] = {}
    n_totals = 0
    while last > top:
        filled = _filled(rows.cells(last), cols)
        if not filled:
            why = "blank"
        elif totals and n_totals < TOTAL_ROWS and _is_total(filled, nums[last]):
            why, n_totals = "total", n_totals + 1
        else:
            break
        reasons[nums[last]] = why
        reasons.update(dict.fromkeys(range(nums[last - 1] + 1, nums[last]), "blank"))
        last -= 1
    return last, reasons


def trim_blank_tail(rows: Rows, first: int, last: int,
                    cols: Sequence[int]) -> tuple[int, list[Excluded]]:  # fmt: skip
    """``--columns``: the last row (index) with a value in ``cols``; the rows after it."""
    last, reasons = _tail(rows, first, last, set(cols), totals=False)
    return last, _runs(reasons)


def find_data(rows: Rows, first: int, last: int, *, header: bool, where: str) -> Layout:
    """The default selection's rows inside the used rows ``first..last`` (indexes); a
    WorkbookError (``where`` starts it) for two header rows or a blank row in the data."""
    nums = rows.numbers
    window = [(i, _filled(rows.cells(i))) for i in range(first, min(last, first + TOP_WINDOW) + 1)]
    reasons: dict[int, str] = {}
    top = first
    head = next((k for k, (_, f) in enumerate(window) if len(f) >= 2), None)
    if head:  # rows above the first row with two values: titles?
        above = [(i, f) for i, f in window[:head] if f]
        below = [f for _, f in window[head + 1 : head + 1 + BELOW] if f]
        anchors = {(a.top, a.left) for a in rows.merges() if a.right > a.left}
        titles = len(above) <= TITLE_ROWS and all(
            len(f) == 1 and (f[0][1] == "text" or (nums[i], f[0][0]) in anchors) for i, f in above
        )
        if titles and below and 2 * sum(len(f) >= 2 for f in below) >= len(below):
            top = window[head][0]
            reasons.update(dict.fromkeys(range(nums[first], nums[top]), "blank"))
            reasons.update((nums[i], "title") for i, _ in above)
    bottom, tail = _tail(rows, top, last, None, totals=True)
    reasons.update(tail)
    if header and bottom > top:
        _check_one_header(rows, top, bottom, where)
    _check_no_gap(rows, top, bottom, header, where)
    return Layout(top, bottom, _runs(reasons))


def _range(rows: Rows, top: int, bottom: int, first: int, last: int) -> str:
    """``A3:D40``: rows ``first..last`` (numbers), columns used in rows ``top..bottom``."""
    left, right = rows.columns(top, bottom)
    return f"{col_letters(left)}{first}:{col_letters(right)}{last}"


def _check_one_header(rows: Rows, top: int, bottom: int, where: str) -> None:
    nums = rows.numbers
    h, end = nums[top], nums[bottom]

    def hint(first: int) -> str:
        return (f"give --range {_range(rows, top, bottom, first, end)} to draw the rows "
                "under them (rows above stay as they are)")  # fmt: skip

    merges = rows.merges()
    for m in merges:
        if m.top <= h < m.bottom:
            raise WorkbookError(
                f"{where}: merged cells {m.a1()} join header row {h} to row {h + 1}, so the "
                f"header looks like rows {h}-{m.bottom}: unmerge them, or {hint(m.bottom + 1)}"
            )
    if nums[top + 1] != h + 1:
        return
    second = _filled(rows.cells(top + 1))
    if not second or any(c[1] != "text" for c in second):
        return
    under: dict[int, set[str]] = {}
    for i in range(top + 2, min(bottom, top + 1 + BELOW) + 1):
        for col, kind, _, _ in _filled(rows.cells(i)):
            under.setdefault(col, set()).add(kind)
    spans = [m for m in merges if m.top == m.bottom == h and m.right > m.left]
    for col, _, _, _ in second:
        kinds = under.get(col, set())
        grouped = next((m for m in spans if m.left <= col <= m.right), None)
        if grouped or (kinds and kinds <= {"number", "bool"}):
            why = (f"merged header cell {grouped.a1()} stands over it" if grouped else
                   f"{col_letters(col)}{h + 1} is text over numbers")  # fmt: skip
            raise WorkbookError(
                f"{where}: rows {h}-{h + 1} look like two header rows ({why}): if row "
                f"{h + 1} is a header, {hint(h + 2)}; if it is data, give --range "
                f"{_range(rows, top, bottom, h, end)} --header"
            )


def _check_no_gap(rows: Rows, top: int, bottom: int, header: bool, where: str) -> None:
    """Refuse a blank row among the data rows: two lists, or a gap? Not guessed."""
    i0 = top + 1 if header else top
    if bottom <= i0:
        return
    first = rows.first_blank(i0, bottom)
    if first is None:
        return
    last, nums = rows.last_blank(first), rows.numbers
    n0, it = nums[top], "it" if first == last else "them"
    what = f"row {first} is" if first == last else f"rows {first}-{last} are"
    block = (f", or give --range {_range(rows, top, bottom, n0, first - 1)}"
             f"{' --header' if header else ''} to draw only the rows above {it}"
             ) if first - 1 > (n0 if header else n0 - 1) else ""  # fmt: skip
    raise WorkbookError(
        f"{where}: {what} blank inside the data {_range(rows, top, bottom, n0, nums[bottom])}: "
        f"delete {it}{block}"
    )
