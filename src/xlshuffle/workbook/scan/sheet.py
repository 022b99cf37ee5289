"""One worksheet part as bytes: where its rows are, and the cells of a row.

The whole part is held as one ``bytes`` object and rows are located by offsets kept in
compact arrays (a million rows cost 24 MB of offsets, not a million objects). Rows and
cells may omit ``r=`` (their place is then the previous one plus one), use any namespace
prefix, and hold CDATA, comments or character references; rows must be in ascending
order, as the schema requires.
"""

from __future__ import annotations

import itertools
import operator
import re
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ...draw.errors import WorkbookError
from .refs import MAX_COL, MAX_ROW, col_index, col_letters
from .xmlscan import Tag, attrs, element_end, iter_tags, local, tag_end

__all__ = [
    "Cell",
    "SheetXml",
    "cell_marks",
    "cells_format",
    "cells_unnumbered",
    "no_r_attribute",
    "numbered_cell_tag",
    "numbered_cells",
    "numbered_row",
    "parse_cells",
    "plain_formula_tag",
    "sheet_label",
    "stored_at",
]

_ROW_R = re.compile(rb"\sr\s*=\s*[\"'](\d{1,8})[\"']")
_MARKUP = re.compile(rb"<[!?]")


@lru_cache(maxsize=8)
def plain_formula_tag(prefix: bytes) -> re.Pattern[bytes]:
    """The start tag of a formula whose attributes do not change what it is: ``aca`` and
    ``ca`` (when to calculate), ``bx`` (whether it assigns a name's value), ``t="normal"``.
    ``t="shared"``, ``"array"`` and ``"dataTable"`` formulas are not plain."""
    return re.compile(
        rb"<" + re.escape(prefix) + rb'f(?:\s+(?:aca|ca|bx)="[^"<>]*"|\s+t="normal")*>'
    )


@lru_cache(maxsize=8)
def _cell_without_r(prefix: bytes) -> re.Pattern[bytes]:
    """``<c`` not followed by `` r="``: a cell that does not say its place first, or
    another element whose name starts with ``c`` (a rich text's ``<color>``)."""
    return re.compile(rb"<" + re.escape(prefix) + rb'c(?! r=")')


@lru_cache(maxsize=8)
def numbered_cell_tag(prefix: bytes) -> re.Pattern[bytes]:
    """A cell tag with an ``r`` attribute anywhere in it."""
    return re.compile(rb"<" + re.escape(prefix) + rb"c\s[^<>]*?(?<=\s)r\s*=")


def _has_markup(data: bytes, start: int, end: int) -> bool:
    """Whether a comment, CDATA section or processing instruction (``<!``, ``<?``) starts
    in ``data[start:end]``: a one-byte search for ``!`` and ``?`` first (most sheets hold
    neither, and it runs at memory speed), the regular expression only when one occurs."""
    if data.find(b"!", start, end) < 0 and data.find(b"?", start, end) < 0:
        return False
    return _MARKUP.search(data, start, end) is not None


_CELL_R = re.compile(rb"\sr\s*=\s*[\"']\$?([A-Za-z]{1,3})\$?(\d{1,8})[\"']")


@dataclass
class Cell:
    """A ``<c>`` element inside a row's bytes (offsets relative to the row)."""

    col: int
    start: int
    end: int
    #: Offset of the end of the start tag.
    tag_end: int
    #: Span of the ``r`` attribute's value inside the start tag, or None when absent.
    r_span: tuple[int, int] | None
    #: The ``<f>`` element: its span, the span of its text, and its raw attributes.
    f_span: tuple[int, int] | None = None
    f_text: tuple[int, int] | None = None
    f_attrs: dict[bytes, bytes] | None = None
    #: The ``<v>`` element's span, if any.
    v_span: tuple[int, int] | None = None
    #: Whether the cell holds a value (``<v>``, ``<is>`` or a formula).
    valued: bool = False


def _fail(label: str, what: str) -> WorkbookError:
    return WorkbookError(f"{label}: {what}: open the workbook in Excel, save it again, and retry")


def _next_tag(data: bytes, pos: int, stop: int) -> Tag | None:
    return next(iter_tags(data, pos, stop), None)


def parse_cells(row: bytes, row_number: int, prefix: bytes, label: str) -> list[Cell]:
    """The cells of one row (bytes of the whole ``<row>`` element), in order.

    Raises
    ------
    WorkbookError
        Markup that does not parse, cells out of order, or references off the sheet.
    """
    cells: list[Cell] = []
    cname = prefix + b"c"
    try:
        first = _next_tag(row, 0, len(row))
        if first is None or first.kind == "empty":
            return cells
        pos, col = first.end, 0
        while True:
            tag = _next_tag(row, pos, len(row))
            if tag is None or tag.kind == "end":
                return cells
            if tag.kind == "other":
                pos = tag.end
                continue
            end = element_end(row, tag)
            pos = end
            if tag.name != cname:
                continue  # <extLst> and other row children stay where they are
            cell = _cell(row, tag, end, row_number, col, label)
            col = cell.col
            if (cells and col <= cells[-1].col) or col > MAX_COL:
                raise _fail(label, f"the cells of row {row_number} are out of order")
            if tag.kind == "start":
                _inner(row, cell, prefix)
            cells.append(cell)
    except WorkbookError:  # already one whole line (it is a ValueError too)
        raise
    except ValueError as exc:
        raise _fail(label, f"row {row_number} is not well-formed XML ({exc})") from None


def _cell(row: bytes, tag: Tag, end: int, row_number: int, col: int, label: str) -> Cell:
    """The cell whose start tag is ``tag``: its column from ``r``, or the one after
    ``col`` (the previous cell's) when it has no ``r``."""
    head = row[tag.start : tag.end]
    m = _CELL_R.search(head)
    if m is None:
        _no_r(attrs(head), f"row {row_number} has a cell", label)
        return Cell(col + 1, tag.start, end, tag.end, None)
    if int(m[2]) != row_number:
        raise _fail(label, f"cell {m[1].decode()}{m[2].decode()} sits in row {row_number}")
    return Cell(col_index(m[1].upper()), tag.start, end, tag.end, _value_span(head, m, tag.start))


def _no_r(a: dict[bytes, bytes], what: str, label: str) -> None:
    """Refuse an ``r`` attribute that the caller's pattern did not read as a reference: it
    would otherwise count as absent and the element would take the next place."""
    if b"r" in a:
        shown = a[b"r"][:20].decode("utf-8", "replace")
        raise _fail(label, f"{what} at {shown!r}, which is not a place on a sheet")


def _value_span(head: bytes, m: re.Match[bytes], base: int) -> tuple[int, int]:
    """Span (in row offsets) of the whole ``r`` value, quotes excluded."""
    eq = head.find(b"=", m.start(), m.end())
    q = eq + 1
    while head[q] not in (0x22, 0x27):
        q += 1
    return base + q + 1, base + m.end() - 1


def _inner(row: bytes, cell: Cell, prefix: bytes) -> None:
    """Find the ``<f>`` and ``<v>`` children of a cell."""
    pos, stop = cell.tag_end, cell.end
    fname, vname, isname = prefix + b"f", prefix + b"v", prefix + b"is"
    while True:
        tag = _next_tag(row, pos, stop)
        if tag is None or tag.kind == "end":
            return
        if tag.kind == "other":
            pos = tag.end
            continue
        end = element_end(row, tag, stop)
        if tag.name == fname:
            cell.f_span = (tag.start, end)
            cell.f_attrs = attrs(row[tag.start : tag.end])
            if tag.kind == "start":
                cell.f_text = (tag.end, row.rfind(b"<", tag.end, end))
            cell.valued = True
        elif tag.name == vname:
            cell.v_span = (tag.start, end)
            cell.valued = True
        elif tag.name == isname:
            cell.valued = True
        pos = end


# an ``r`` attribute (or text that reads like one, which only sends a row the careful way)
_ANY_R = re.compile(rb"\sr\s*=")


@lru_cache(maxsize=64)
def cell_marks(prefix: bytes, n: int) -> tuple[bytes, ...]:
    """``<c r="A``, ``<c r="B``... for the first ``n`` columns, and an empty end: what
    :func:`numbered_cells` writes in place of ``<c``, before the row's number."""
    marks = [b"<" + prefix + b'c r="' + col_letters(c).encode() for c in range(1, n + 1)]
    return (*marks, b"")


@lru_cache(maxsize=8)
def _not_a_cell(prefix: bytes) -> re.Pattern[bytes]:
    """``<c`` starting another name (a rich text's ``<color>``)."""
    return re.compile(rb"<" + re.escape(prefix) + rb"c[^\s>/]")


# ``r =`` with anything before it: a literal first, which a search finds quickly
_R_IS = re.compile(rb"r\s*=")
_SPACE = b" \t\r\n"


def _says_r(body: bytes) -> bool:
    """Whether an attribute ``r`` (or text reading like one) occurs in ``body``."""
    m = _R_IS.search(body)
    while m is not None:
        if m.start() and body[m.start() - 1] in _SPACE:
            return True
        m = _R_IS.search(body, m.end())
    return False


def numbered_row(row: bytes, number: int, prefix: bytes, *, checked: bool = False) -> bytes | None:
    """A row whose cells say no ``r`` (legal: each is then the one after the previous,
    the first in column A), with ``r`` written as the cell-by-cell path writes it: right
    after the name of every cell, and of the row's start tag when it has none.

    Done by a split and C-level maps, with no Python code a cell, so that such rows take
    the paths of rows that say their place. None when any cell says ``r``, or the row holds
    markup that the split could misread (a comment or CDATA, an element whose name starts
    with ``c`` inside a rich text): the caller then reads the row cell by cell. A row that
    says ``r="N"`` first says ``number`` instead. ``checked``: the rows around it passed
    :func:`cells_unnumbered`, which leaves only the row's start tag to read.

    Examples
    --------
    >>> numbered_row(b'<row spans="1:2"><c t="s"><v>0</v></c><c/></row>', 7, b"")
    b'<row r="7" spans="1:2"><c r="A7" t="s"><v>0</v></c><c r="B7"/></row>'
    >>> numbered_row(b'<x:row r="2"><x:c><x:v>1</x:v></x:c></x:row>', 9, b"x:")
    b'<x:row r="9"><x:c r="A9"><x:v>1</x:v></x:c></x:row>'
    >>> numbered_row(b'<row><c r="A7"><v>1</v></c><c><v>2</v></c></row>', 7, b"") is None
    True
    """
    h = row.find(b">") + 1
    if h <= 0 or row.count(b'"', 0, h) % 2 or row.count(b"'", 0, h) % 2:
        return None
    body = row[h:]
    if not checked and (_says_r(body) or (b"!" in body and b"<!" in body)):
        return None
    head = row[:h]
    cut = len(prefix) + 4  # <row
    # a one-byte search first: most such rows' start tags hold no "r" after the name
    if head.find(b"r", cut) < 0 or _ANY_R.search(head) is None:
        if head[cut : cut + 1] not in (b" ", b">", b"/"):
            return None
        head = head[:cut] + b' r="%d"' % number + head[cut:]
    elif head.startswith(b' r="', cut):
        head = head[:cut] + b' r="%d' % number + head[head.index(b'"', cut + 4) :]
    else:
        return None
    if not checked and _not_a_cell(prefix).search(body) is not None:
        return None
    cells = numbered_cells(body, number, prefix)
    return None if cells is None else head + cells


def numbered_cells(body: bytes, number: int, prefix: bytes) -> bytes | None:
    """``body`` (what follows a row's start tag) with ``r`` written into each cell's tag at
    row ``number``, as :func:`numbered_row` writes it; None for more cells than a sheet
    has columns. The caller knows that ``<c`` starts only cells there and none says ``r``.

    Examples
    --------
    >>> numbered_cells(b'<c t="s"><v>0</v></c><c/></row>', 7, b"")
    b'<c r="A7" t="s"><v>0</v></c><c r="B7"/></row>'
    """
    parts = body.split(b"<" + prefix + b"c")
    n = len(parts) - 1
    if not n:
        return body
    if n > MAX_COL:
        return None
    # part k ends where cell k + 1 starts: its mark, then the number, then its attributes;
    # one formatting of the parts and the number, where a join of the parts each with its
    # mark makes as many bytes objects more
    args = [b"%d" % number] * (2 * n + 1)
    args[0::2] = parts
    return cells_format(prefix, 1, n) % tuple(args)


@lru_cache(maxsize=64)
def cells_format(prefix: bytes, first: int, n: int) -> bytes:
    """What a row's cells of columns ``first..first + n - 1`` are numbered with, one
    formatting: ``%b`` (what comes before), then for each cell its mark (:func:`cell_marks`),
    ``%b"`` (the row's number) and ``%b`` (the rest of the cell)."""
    marks = cell_marks(prefix, first + n - 1)[first - 1 : first - 1 + n]
    return b"%b" + b"".join(m.replace(b"%", b"%%") + b'%b"%b' for m in marks)


def cells_unnumbered(data: bytes, start: int, end: int, prefix: bytes) -> bool:
    """Whether :func:`numbered_row` may skip reading the cells of the rows in
    ``data[start:end]``: no cell tag there says ``r``, no comment or CDATA, and ``<c``
    starts nothing but a cell. Three C-level searches over the rows, instead of three a row
    (the first two begin with a search that their common answer needs alone).
    """
    return (
        (
            no_r_attribute(data, start, end)
            or numbered_cell_tag(prefix).search(data, start, end) is None
        )
        and (data.find(b"!", start, end) < 0 or data.find(b"<!", start, end) < 0)
        and _not_a_cell(prefix).search(data, start, end) is None
    )


#: Matches of ``r\s*=`` not after white space that :func:`no_r_attribute` reads before it
#: leaves the answer to the caller's exact search (its time is bounded, whatever the text).
_R_TRIES = 64


def no_r_attribute(data: bytes, start: int, end: int) -> bool:
    r"""True when no attribute ``r`` is written in ``data[start:end]`` (no ``r`` after
    white space and before ``=``): the rows of a sheet whose rows and cells say no ``r``,
    found by one search for ``r\s*=``, several times quicker than a search of every tag.
    False when there is one, or when more than :data:`_R_TRIES` texts look like one.

    Examples
    --------
    >>> no_r_attribute(b'<row spans="1:2"><c t="s"><v>0</v></c></row>', 0, 45)
    True
    >>> no_r_attribute(b'<row><c s="1"  r = "A1"/></row>', 0, 31)
    False
    """
    m = _R_IS.search(data, start, end)
    for _ in range(_R_TRIES):
        if m is None:
            return True
        if m.start() > start and data[m.start() - 1] in _SPACE:
            return False
        m = _R_IS.search(data, m.end(), end)
    return m is None


def _closed_or_empty(data: bytes, starts: array[int], ends: array[int], close: bytes) -> bool:
    """Whether each span is a row that ends with ``close`` or a lone empty row tag (one
    ``<``, ending ``/>``; ``<`` cannot occur in an attribute value). C-level passes."""
    rep = itertools.repeat
    closed = map(data.endswith, rep(close), rep(0), ends)
    empty = map(data.endswith, rep(b"/>"), rep(0), ends)
    lone = map((1).__eq__, map(data.count, rep(b"<"), starts, ends))
    return all(map(operator.or_, closed, map(operator.and_, empty, lone)))


class SheetXml:
    """A worksheet part: the bytes, the ``<sheetData>`` span and the rows inside it.

    Parameters
    ----------
    data : bytes
        The part, inflated and checked for entity declarations (``Book.read`` does both;
        the scanners here never expand an entity either way).
    label : str
        ``"FILE: sheet 'NAME'"``, used in messages.
    """

    def __init__(self, data: bytes, label: str) -> None:
        self.data = data
        self.label = label
        self.prefix = b""
        #: ``data[:content_start]`` ends with the ``<sheetData>`` start tag and
        #: ``data[content_end:]`` starts with its end tag (both equal the end of an empty
        #: ``<sheetData/>``, which :attr:`empty_data` flags).
        self.content_start = self.content_end = 0
        self.empty_data = False
        #: How the quick scan found the rows numbered: ``"r"`` (every row tag starts
        #: ``<row r="N"``: rows cut out of the sheet data say their numbers on their own),
        #: ``"counted"`` (no row says ``r``: each is the one after the previous), ``""``
        #: (some rows do, or the quick scan did not read the rows).
        self.row_numbering = ""
        #: No comment, CDATA section or processing instruction inside <sheetData>.
        self.plain = True
        #: Indexes of rows preceded by something other than white space (elements some
        #: producers put inside <sheetData>); such content keeps its place.
        self.foreign: list[int] = []
        #: Byte spans whose cells all say ``r`` (:meth:`cells_numbered`), remembered.
        self._numbered_spans: list[tuple[int, int]] = []
        self.numbers = array("l")
        self.starts = array("q")
        self.ends = array("q")
        self._sheet_data: Tag | None = None  # its start tag, unless empty
        self._find_sheet_data()
        self._scan_rows()

    @classmethod
    def of_rows(
        cls,
        data: bytes,
        label: str,
        prefix: bytes,
        numbering: Literal["r", "counted"],
        numbers: array[int],
        starts: array[int],
    ) -> SheetXml:
        """Rows already found by the quick scan of the same bytes in another process: a
        window of a sheet (``data``, whole rows and nothing else, each ending where the
        next starts) whose rows start at ``starts`` and are numbered ``numbers``, read
        without a scan (:mod:`..records.beside` sends them).

        Raises
        ------
        ValueError
            ``starts`` and ``numbers`` differ in length, or a start is not a row tag.
        """
        sx = cls.__new__(cls)
        sx.data, sx.label, sx.prefix = data, label, prefix
        sx.content_start, sx.content_end, sx.empty_data = 0, len(data), False
        sx.row_numbering, sx.plain, sx.foreign = numbering, True, []
        sx._numbered_spans, sx._sheet_data = [], None
        tag = b"<" + prefix + b"row"
        rep = itertools.repeat
        if len(numbers) != len(starts) or not all(map(data.startswith, rep(tag), starts)):
            raise ValueError("the rows sent are not the rows of the window")
        sx.numbers, sx.starts = numbers, starts
        sx.ends = array("q", itertools.islice(starts, 1, None))
        sx.ends.append(len(data))
        return sx

    def _find_sheet_data(self) -> None:
        data = self.data
        try:
            for tag in iter_tags(data):
                if tag.kind in ("start", "empty") and local(tag.name) == b"sheetData":
                    self.prefix = tag.name[: -len(b"sheetData")]
                    if tag.kind == "empty":
                        self.content_start = self.content_end = tag.end
                        self.empty_data = True
                        return
                    self.content_start = tag.end
                    self._sheet_data = tag
                    # searched from the part's end, near which it is (a search from the
                    # start reads every row); the rows' quick scan then finds only rows
                    # and whitespace before it, or the search from the start is made
                    self._end_at(tag, data.rfind(b"</" + tag.name + b">", tag.end))
                    return
        except ValueError as exc:
            raise _fail(self.label, f"the sheet is not well-formed XML ({exc})") from None
        raise _fail(self.label, "the sheet has no <sheetData>")

    def _end_at(self, tag: Tag, end: int) -> None:
        """The rows (after the start tag ``tag``) end at ``end``, where ``</sheetData>``
        was found, unless markup (a comment, CDATA) comes first: then where the element
        ends, read tag by tag."""
        data = self.data
        self.plain = end >= 0 and not _has_markup(data, tag.end, end)
        if not self.plain:
            end = element_end(data, tag) - len(tag.name) - 3
        self.content_end = end

    def _scan_rows(self) -> None:
        start, stop = self.content_start, self.content_end
        if self.plain and self._scan_rows_quick(start, stop):
            return
        # any other layout is read up to the first </sheetData>, as a reader from the
        # start finds it
        tag = self._sheet_data
        if tag is not None:
            self._end_at(tag, self.data.find(b"</" + tag.name + b">", start))
        if not self.plain:
            self._scan_rows_careful(start, self.content_end)
        elif self.content_end == stop or not self._scan_rows_quick(start, self.content_end):
            self.numbers, self.starts, self.ends = array("l"), array("q"), array("q")
            self._scan_rows_fast(start, self.content_end)

    def _scan_rows_quick(self, start: int, stop: int) -> bool:
        """The common layout, at C speed: every row written ``<row r="N"`` and each row
        ending where the next begins. False when the sheet is laid out otherwise."""
        data, p = self.data, self.prefix
        open_tag, close_tag = b"<" + p + b"row", b"</" + p + b"row>"
        pattern = re.compile(re.escape(open_tag) + rb' r="(\d{1,7})"')
        # two C-level passes: no Python code runs per row
        starts = array("q", map(re.Match.start, pattern.finditer(data, start, stop)))
        numbers = array("l", map(int, pattern.findall(data, start, stop)))
        count = data.count(open_tag, start, stop)
        self.row_numbering = "r" if len(starts) == count else ""
        if len(starts) != count:
            if starts or not self._unnumbered(start, stop):
                return False
            # no row says its number: each is the one after the previous
            bare = re.compile(re.escape(open_tag) + rb"[ >/]")
            starts = array("q", map(re.Match.start, bare.finditer(data, start, stop)))
            if len(starts) != count or count > MAX_ROW:
                return False
            numbers = array("l", range(1, count + 1))
            self.row_numbering = "counted"
        if not starts:
            return not data[start:stop].strip()
        if data[start : starts[0]].strip():
            return False
        ends = array("q", starts[1:])
        last = data.rfind(close_tag, starts[-1], stop)
        tail = stop if last < 0 else last + len(close_tag)
        if data[tail:stop].strip():
            return False
        ends.append(tail)
        if not all(
            map(data.endswith, itertools.repeat(close_tag), itertools.repeat(0), ends)
        ) and not _closed_or_empty(data, starts, ends, close_tag):
            return False  # whitespace between rows...
        if not all(map(operator.lt, numbers, itertools.islice(numbers, 1, None))) or (
            numbers[-1] > MAX_ROW or numbers[0] < 1
        ):
            return False
        self.numbers, self.starts, self.ends = numbers, starts, ends
        return True

    def _unnumbered(self, start: int, stop: int) -> bool:
        """Whether no row tag of ``data[start:stop]`` has an ``r`` attribute (a C-level
        search of the row tags alone)."""
        if no_r_attribute(self.data, start, stop):
            return True
        tag = re.compile(rb"<" + re.escape(self.prefix) + rb"row\s[^<>]*?(?<=\s)r\s*=")
        return tag.search(self.data, start, stop) is None

    def _foreign(self, start: int, end: int) -> None:
        """Something other than rows between rows (some producers put <autoFilter> there):
        it stays where it is, so it must be whole elements."""
        try:
            pos = start
            while True:
                tag = _next_tag(self.data, pos, end)
                if tag is None:
                    break
                if tag.kind == "end" or local(tag.name) == b"row":
                    raise ValueError("a row tag out of place")
                pos = element_end(self.data, tag, end) if tag.kind == "start" else tag.end
        except ValueError as exc:
            raise _fail(self.label, f"the sheet data is not well-formed XML ({exc})") from None
        self.foreign.append(len(self.numbers))

    def _add(self, number: int, start: int, end: int) -> None:
        if self.numbers and number <= self.numbers[-1]:
            raise _fail(self.label, f"row {number} comes after row {self.numbers[-1]}")
        if not 1 <= number <= MAX_ROW:
            raise _fail(self.label, f"row {number} is not a row of a sheet (1 to {MAX_ROW:,})")
        self.numbers.append(number)
        self.starts.append(start)
        self.ends.append(end)

    def _scan_rows_fast(self, pos: int, stop: int) -> None:
        data = self.data
        open_tag = b"<" + self.prefix + b"row"
        close_tag = b"</" + self.prefix + b"row>"
        n, number = len(open_tag), 0
        find, search = data.find, _ROW_R.search
        while True:
            i = find(open_tag, pos, stop)
            gap_end = stop if i < 0 else i
            if gap_end > pos and data[pos:gap_end].strip():
                self._foreign(pos, gap_end)
            if i < 0:
                return
            if data[i + n : i + n + 1] not in (b" ", b">", b"/", b"\t", b"\r", b"\n"):
                raise _fail(self.label, "the sheet data holds something other than rows")
            j = find(b">", i, stop) + 1
            if j == 0 or (data.count(b'"', i, j) % 2 or data.count(b"'", i, j) % 2):
                j = tag_end(data, i, stop)
                if j < 0:
                    raise _fail(self.label, "a row tag never ends")
            m = search(data, i, j)
            if m is None:
                _no_r(attrs(data[i:j]), "a row is numbered", self.label)
            number = int(m[1]) if m is not None else number + 1
            if data[j - 2] == 0x2F:  # '/>'
                end = j
            else:
                k = find(close_tag, j, stop)
                if k < 0:
                    raise _fail(self.label, f"row {number} never ends")
                end = k + len(close_tag)
            self._add(number, i, end)
            pos = end

    def _scan_rows_careful(self, pos: int, stop: int) -> None:
        data = self.data
        name = self.prefix + b"row"
        number = 0
        try:
            while True:
                tag = _next_tag(data, pos, stop)
                if tag is None:
                    return
                if tag.kind == "other":
                    pos = tag.end
                    continue
                if tag.kind == "end":
                    raise _fail(self.label, "the sheet data holds an unmatched end tag")
                if tag.name != name:
                    end = element_end(data, tag, stop)
                    self.foreign.append(len(self.numbers))
                    pos = end
                    continue
                m = _ROW_R.search(data, tag.start, tag.end)
                if m is None:
                    _no_r(attrs(data[tag.start : tag.end]), "a row is numbered", self.label)
                number = int(m[1]) if m is not None else number + 1
                end = element_end(data, tag, stop)
                self._add(number, tag.start, end)
                pos = end
        except WorkbookError:  # already one whole line (it is a ValueError too)
            raise
        except ValueError as exc:
            raise _fail(self.label, f"the sheet is not well-formed XML ({exc})") from None

    # ------------------------------------------------------------------ access

    def __len__(self) -> int:
        return len(self.numbers)

    def row(self, i: int) -> bytes:
        """Bytes of the ``i``-th stored row element."""
        return self.data[self.starts[i] : self.ends[i]]

    def row_has_value(self, i: int) -> bool:
        """Whether row ``i`` holds a cell with a value or formula (not only formatting)."""
        data, p = self.data, self.prefix
        a, b = self.starts[i], self.ends[i]
        return any(
            data.find(b"<" + p + tag, a, b) >= 0 for tag in (b"v>", b"v ", b"is>", b"f>", b"f ")
        )

    def index_of(self, number: int) -> int:
        """Index of the first stored row numbered ``number`` or more (bisect)."""
        lo, hi = 0, len(self.numbers)
        nums = self.numbers
        while lo < hi:
            mid = (lo + hi) // 2
            if nums[mid] < number:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def cells(self, i: int) -> list[Cell]:
        """Parsed cells of row ``i``."""
        return parse_cells(self.row(i), self.numbers[i], self.prefix, self.label)

    def cells_numbered(self, start: int, end: int) -> bool:
        """Whether every cell tag in ``data[start:end]`` starts ``<c r="`` (one search for
        a ``<c`` that does not, half the work of counting both; remembered: the used
        columns and the fingerprint ask alike)."""
        if any(a <= start and end <= b for a, b in self._numbered_spans):
            return True
        if _cell_without_r(self.prefix).search(self.data, start, end) is not None:
            return False
        self._numbered_spans.append((start, end))
        return True

    def know_cells_numbered(self, start: int = 0, end: int | None = None) -> None:
        """Remember that every cell tag in ``data[start:end]`` (all of it by default) starts
        ``<c r="`` (another search of the same bytes found it): :meth:`cells_numbered`
        then searches nothing there."""
        self._numbered_spans.append((start, len(self.data) if end is None else end))

    def row_tag_end(self, i: int) -> int:
        """Offset (within the row's bytes) of the end of row ``i``'s start tag."""
        row = self.row(i)
        j = row.find(b">") + 1
        if row.count(b'"', 0, j) % 2 or row.count(b"'", 0, j) % 2:
            j = tag_end(row, 0)
        return j


def sheet_label(path: str, name: str) -> str:
    """How messages name a sheet: ``book.xlsx: sheet 'Data'``."""
    return f"{path}: sheet {name!r}"


def stored_at(sx: SheetXml, top: int, bottom: int, i0: int, i1: int) -> array[int]:
    """Where each row ``top..bottom`` is stored (an index of ``sx``, -1 when it is not),
    stored rows ``i0..i1-1`` being theirs: C-level when every row is stored."""
    n = bottom - top + 1
    if i1 - i0 == n and (n == 0 or sx.numbers[i0] == top):  # ascending: all there
        return array("l", range(i0, i1))
    where = array("l", [-1]) * n
    for i in range(i0, i1):
        where[sx.numbers[i] - top] = i
    return where
