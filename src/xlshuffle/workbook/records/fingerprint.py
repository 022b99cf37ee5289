"""What a draw's selection held, kept compactly so that a restore can check its file.

A restore must undo only its own draw. The output's SHA-256 settles that for the file the
draw wrote. An output edited since (re-saved by Excel or LibreOffice, a cell changed
outside the drawn rows) is checked by its cells: undone, its selection must hold what the
input's did. The record keeps a fingerprint of the input's selection for that, taken when
the draw reads it, so the check needs no copy of the input.

The fingerprint is one CRC-32 (4 bytes) per row of the selection, base64. A row
counts by its cells in the selection's columns (every cell, for a whole-row draw), each by
its canonical form, which a re-save keeps while it renumbers shared strings and styles:
the cell's reference, type and value, a shared string by its text (an inline string
alike), a number without trailing zeros (``1`` and ``1.0`` alike) and to 14 significant
digits when it has more (LibreOffice writes 15, Excel 17), a formula only as "a formula"
(its text is translated by the draw, its cached value and type recomputed by design;
LibreOffice's ``TRUE()`` and ``FALSE()`` are the constants they replace); no style, no
metadata (``cm``, ``vm``), no namespace prefix, no empty cell, no white space between
tags.

Size: 4 bytes a row, base64 (4/3): 0.53 MB for 100,000 rows and 5.3 MB for a million,
beside the permutation's 0.6 MB and 6.9 MB. A digest per cell would name every differing
cell but grow with the width (a million rows of 50 columns: 270 MB), so a differing row is
named with its cells.

Speed: rows are canonicalised 4,096 at a time by substitutions over the block, each with
a literal prefix and a literal replacement (Python 3.11 expands a group template in
Python, once a match); shared strings are looked up by a split and a C-level map. A block
with inline strings, CDATA or comments is read cell by cell with expat.
"""

from __future__ import annotations

import base64
import re
import sys
import zlib
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import repeat
from typing import Protocol

from ...draw.errors import WorkbookError
from ..scan.refs import col_letters
from ..scan.sheet import SheetXml, cells_unnumbered, numbered_row, parse_cells
from ..values.cells import SharedStrings, ValuesError, split_cell

__all__ = [
    "DIGEST",
    "SIZE",
    "Canon",
    "Fingerprint",
    "canon",
    "differing_rows",
    "empty_digests",
    "fill_digests",
    "fingerprint_of",
]

#: The digest, named in the record so that another may replace it one day.
DIGEST = "crc32"
SIZE = 4
_BLOCK = 4096
_BLOCK_BYTES = 4 << 20
_SEPARATORS = re.compile(rb"[\x1c-\x1f]")
#: Text of an inline string that reads as its own bytes and that the fingerprint writes as
#: they are (:func:`_escaped` of its decoded text): valid UTF-8 that XML allows, without
#: a markup character or reference (``<``, ``>``, ``&``), a carriage return (a parser
#: reads it as a line feed) or an ``_x`` escape.
_PLAIN_TEXT = (
    rb"(?:[\t\n\x20-\x25\x27-\x3b\x3d\x3f-\x5e\x60-\x7f]++|_(?!x)"
    rb"|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee][\x80-\xbf]{2}"
    rb"|\xef(?!\xbf[\xbe\xbf])[\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
    rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})*+"
)


@dataclass
class Fingerprint:
    """The digests of a selection's rows, base64 (:data:`SIZE` bytes a row)."""

    rows: str

    def to_dict(self) -> dict[str, str]:
        return {"digest": DIGEST, "rows": self.rows}

    @classmethod
    def from_dict(cls, data: object) -> Fingerprint | None:
        """The fingerprint of a record's field; None when absent or of another digest."""
        if not isinstance(data, dict) or data.get("digest") != DIGEST:
            return None
        rows = data.get("rows")
        return cls(rows) if isinstance(rows, str) else None

    def digests(self) -> bytes | None:
        """The digests, or None when the text is not base64."""
        try:
            return base64.b64decode(self.rows, validate=True)
        except ValueError:
            return None


class _Canon:
    """Canonical form of blocks of rows of one sheet."""

    def __init__(
        self, sx: SheetXml, strings: Callable[[], SharedStrings | None], cols: list[int] | None
    ) -> None:
        self.sx, self.strings = sx, strings
        self.texts: list[bytes] | None = None
        x = sx.prefix
        p = re.escape(x)
        self.style = re.compile(rb' s="\d*"')
        v = rb"(?:<" + p + rb"v\b[^<>]*>[^<]*</" + p + rb"v>|<" + p + rb"v/>)?"
        self.formula = re.compile(rb"<" + p + rb"f\b[^<>]*(?:/>|>[^<]*</" + p + rb"f>)" + v)
        self.f_mark = b"<" + x + b"f/>"
        # LibreOffice writes TRUE and FALSE as the formulas TRUE() and FALSE()
        self.boolean = re.compile(
            rb"<" + p + rb"f(?: aca=\"false\")?>(?:TRUE|FALSE)\(\)</" + p + rb"f>"
        )
        # a formula's result type is the recalculation's, like its value
        self.f_type = re.compile(rb' t="\w*"(?=><' + p + rb"f/>)")
        # LibreOffice writes 15 significant digits where Excel writes 17, and does not
        # always round the 15th as Excel did: 14 count
        self.long = re.compile(rb"<v>(-?\d[\d.]{14,}(?:[eE][-+]?\d+)?)</v>")
        # metadata (rich values, dynamic arrays) that a re-save may drop
        self.meta = re.compile(rb' [cv]m="\d*"')
        self.empty_text = re.compile(rb'<c r="[A-Z]+\d+" t="S"><v></v></c>')
        self.row = re.compile(rb"<" + p + rb"row\b[^<>]*>")
        self.empty = re.compile(rb"<" + p + rb'c r="[A-Z]+\d+"(?: t="\w*")?(?:/>|></' + p + rb"c>)")
        self.zeros = re.compile(rb"\.0+</" + p + rb"v>")
        self.v_close = b"</" + x + b"v>"
        self.shared = re.compile(rb' t="s"><' + p + rb"v>(\d+)</" + p + rb"v>")
        self.text_open, self.text_close = b' t="S"><' + x + b"v>", b"</" + x + b"v>"
        self.blank = re.compile(rb">\s+<")
        # CDATA, comments, processing instructions, inline strings: read with expat,
        # but for the plain inline string, which is spelt here as _plain spells it
        self.careful = (b"<!", b"<?", b"<" + x + b"is>")
        self.inline = re.compile(
            rb"<"
            + p
            + rb'c r="([A-Z]{1,3}\d{1,7})"[^<>]*? t="inlineStr"[^<>]*><'
            + p
            + rb"is><"
            + p
            + rb't(?: xml:space="preserve")?>('
            + _PLAIN_TEXT
            + rb")</"
            + p
            + rb"t></"
            + p
            + rb"is></"
            + p
            + rb"c>"
        )
        self.inline_as = (
            b"<" + x + b'c r="',
            b'" t="S"><' + x + b"v>",
            self.v_close + b"</" + x + b"c>",
        )
        self.agreed = _Agreed(x)
        self.cell_mark = b"<" + x + b"c"
        self.others = None
        if cols is not None:
            letters = b"|".join(col_letters(c).encode() for c in cols)
            self.others = re.compile(
                rb"<"
                + p
                + rb'c r="(?!(?:'
                + letters
                + rb')\d)[A-Z]+\d+"[^<>]*?(?:/>|>.*?</'
                + p
                + rb"c>)",
                re.S,
            )

    def block(self, i0: int, i1: int) -> list[bytes]:
        """The canonical form of stored rows ``i0..i1-1``, one bytes a row."""
        s = self._values(self._markup(self._source(i0, i1)))
        rows = list(map(bytes.strip, s.split(b"\x1f")))
        if len(rows) != i1 - i0 + 1:  # a row tag inside a value: one row at a time
            raise WorkbookError(f"{self.sx.label}: a row holds the text of a row tag")
        return rows[1:]

    def _source(self, i0: int, i1: int) -> bytes:
        """The rows' bytes, written plainly where a regular expression could misread them,
        without the cells of other columns.

        Cells that say no ``r`` are numbered first (:func:`~..scan.sheet.numbered_row`).
        A block holding CDATA, a comment or an inline string is read by :meth:`_plain`,
        cell by cell, except the rows that the regular expressions read exactly as
        :meth:`_plain` does once their plain inline strings are spelt as it spells them
        (:class:`_Agreed`): found by C-level passes, a block at a time where it can be."""
        sx = self.sx
        a, b = sx.starts[i0], sx.ends[i1 - 1]
        s = sx.data[a:b]
        if not sx.cells_numbered(a, b):
            checked = cells_unnumbered(sx.data, a, b, sx.prefix)
            s = b"".join(map(self._numbered, range(i0, i1), repeat(checked)))
        if self._misread(s):
            spelt = self._spelt(s)
            agreed = not self._misread(spelt) and self.agreed(spelt)
            s = spelt if agreed else b"".join(map(self._row_source, range(i0, i1)))
        if self.others is not None:
            s = self.others.sub(b"", s)
        return s

    def _misread(self, s: bytes) -> bool:
        """Whether ``s`` holds what sends a block to :meth:`_plain`: CDATA, a comment or a
        processing instruction, an inline string. One-byte searches first: most blocks
        hold no ``!`` or ``?`` at all."""
        a, b, c = self.careful
        return (b"!" in s and a in s) or (b"?" in s and b in s) or c in s

    def _spelt(self, s: bytes) -> bytes:
        """``s`` with its plain inline strings spelt as :meth:`_plain` spells them."""
        return self.inline.sub(self._inline, s) if self.careful[2] in s else s

    def _numbered(self, i: int, checked: bool = False) -> bytes:
        """Row ``i`` of a block where cells may say no ``r``: numbered when none of its
        cells says it, as it is when every one does, read by :meth:`_plain` (which
        numbers its cells) when some do and some do not. ``checked``: the block passed
        :func:`~..scan.sheet.cells_unnumbered`."""
        sx = self.sx
        row = sx.row(i)
        new = numbered_row(row, sx.numbers[i], sx.prefix, checked=checked)
        if new is not None:
            return new
        mark = self.cell_mark
        return row if row.count(mark) == row.count(mark + b' r="') else self._plain(i)

    def _row_source(self, i: int) -> bytes:
        """Row ``i`` of a block that holds what sends it to :meth:`_plain`: spelt by C-level
        passes when the regular expressions then read it as :meth:`_plain` does, read by
        :meth:`_plain` otherwise."""
        row = self._spelt(self._numbered(i))
        return row if not self._misread(row) and self.agreed(row) else self._plain(i)

    def _inline(self, m: re.Match[bytes]) -> bytes:
        """A plain inline string cell, as :meth:`_plain` writes it."""
        head, mid, end = self.inline_as
        if not m[2]:
            return head + m[1] + b'" t="S"/>'
        return head + m[1] + mid + m[2] + end

    def _markup(self, s: bytes) -> bytes:
        """Without what a re-save may change around the values: styles, row attributes
        (each row tag becomes one separator), formula text and types, metadata, the
        number type and white space between tags. Each rule runs only when a quick search
        finds what it removes."""
        # a one-byte search first: it runs at memory speed, where the search for a
        # longer needle whose last byte is as common as '>' or '"' is 40 times slower
        if b"(" in s and b"()</" in s:
            s = self.boolean.sub(b"", s)
        s, formulas = self.formula.subn(self.f_mark, self.style.sub(b"", s))
        s = self.row.sub(b"\x1f", s)
        if b"m" in s and b'm="' in s:
            s = self.meta.sub(b"", s)
        if formulas:
            s = self.f_type.sub(b"", s)
        s = s.replace(b' t="n"', b"").replace(
            b' t="str"><' + self.sx.prefix + b"v>", self.text_open
        )
        if (
            (b"\n" in s and b">\n" in s)
            or (b"\r" in s and b">\r" in s)
            or (b"\t" in s and b">\t" in s)
            or b"> " in s
        ):
            s = self.blank.sub(b"><", s)
        return s

    def _values(self, s: bytes) -> bytes:
        """The values in one spelling: empty cells gone, ``.0`` dropped, shared strings
        as their text, no namespace prefix, numbers to 14 significant digits."""
        if b'"/>' in s or b'"></' in s:
            s = self.empty.sub(b"", s)
        if b".0" in s:
            s = self.zeros.sub(self.v_close, s)
        if b' t="s">' in s:
            parts = self.shared.split(s)
            parts[1::2] = self._texts(parts[1::2])
            s = b"".join(parts)
        prefix = self.sx.prefix
        if prefix:  # the producer's choice; a re-save may drop it
            s = s.replace(b"<" + prefix, b"<").replace(b"</" + prefix, b"</")
        s = self.long.sub(_fourteen, s)
        if b"<v></v>" in s:
            s = self.empty_text.sub(b"", s)
        return s

    def _texts(self, indexes: list[bytes]) -> list[bytes]:
        """The shared strings ``indexes`` name, as the cells' canonical ends (C-level
        maps: no Python call a cell)."""
        if self.texts is None:
            strings = self.strings()
            if strings is None:
                raise ValuesError("a shared-string cell in a workbook without shared strings")
            opening, closing = self.text_open, self.text_close
            self.texts = [opening + _escaped(t) + closing for t in strings]
        try:
            return list(map(self.texts.__getitem__, map(int, indexes)))
        except IndexError:
            i = max(map(int, indexes))
            raise ValuesError(
                f"shared string {i} does not exist ({len(self.texts)} strings)"
            ) from None

    def _plain(self, i: int) -> bytes:
        """Row ``i`` with each cell written plainly: an inline string as a shared one,
        references in double quotes, CDATA and character references decoded."""
        sx = self.sx
        row = sx.row(i)
        x = sx.prefix
        out = [row[: sx.row_tag_end(i)]]
        for cell in parse_cells(row, sx.numbers[i], x, sx.label):
            xml = row[cell.start : cell.end]
            t, _, text, inline = split_cell(xml)
            head = b"<" + x + b'c r="' + col_letters(cell.col).encode() + b'%d"' % sx.numbers[i]
            if cell.f_span is not None:
                body = self.f_mark
            elif t == "inlineStr":
                t, body = "S", b"" if not inline else b"<" + x + b"v>" + _escaped(inline)
            else:
                body = b"" if text is None else b"<" + x + b"v>" + _canonical(text)
            if body.startswith(b"<" + x + b"v>"):
                body += self.v_close
            kind = b"" if t == "n" else b' t="' + t.encode() + b'"'
            out.append(head + kind + (b">" + body + b"</" + x + b"c>" if body else b"/>"))
        out.append(b"</" + x + b"row>")
        return b"".join(out)


class _Agreed:
    """Whether rows (spelt by :meth:`_Canon._spelt`) are read by the block's regular
    expressions exactly as :meth:`_Canon._plain` reads them, told by C-level searches for
    what the two read differently: markup the block could misread (an inline string left,
    CDATA), LibreOffice's ``TRUE()``/``FALSE()`` (the block drops those, ``_plain`` keeps
    them as formulas), a row tag closed by ``/>``, a cell tag other than ``<c r="A1"``
    followed by ``s``, ``t``, ``cm``, ``vm`` in ``name="value"`` form, any element but a
    row, a cell, a formula and a ``<v>``, and text that is not its own decoded bytes
    (``&quot;`` and character references, a raw ``>`` or carriage return, bytes XML does
    not allow). Each search looks for a reason to read cell by cell; none found, the rows
    agree."""

    def __init__(self, x: bytes) -> None:
        p = re.escape(x)
        self.rules = [
            re.compile(rb"<" + p + rb"row\b[^<>]*/>"),
            re.compile(rb"<(?!" + p + rb"(?:row[\s>]|c\s|f[\s>/]|v>)|/" + p + rb"(?:row|c|f|v)>)"),
            re.compile(rb"<" + p + rb'c(?! r="[A-Z]{1,3}\d{1,7}"(?: (?:s|t|cm|vm)="[^"<>]*")*/?>)'),
            re.compile(rb">[^<]*>"),
            re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]"),
        ]
        self.entity = re.compile(rb"&(?!amp;|lt;|gt;)")

    def __call__(self, s: bytes) -> bool:
        if (b"(" in s and b"()</" in s) or b"\r" in s:
            return False
        if b"&" in s and self.entity.search(s) is not None:
            return False
        if not s.isascii():
            try:
                s.decode("utf-8")
            except UnicodeDecodeError:
                return False
            if b"\xef\xbf\xbe" in s or b"\xef\xbf\xbf" in s:
                return False
        return all(rule.search(s) is None for rule in self.rules)


def _fourteen(m: re.Match[bytes]) -> bytes:
    try:
        return b"<v>" + (b"%.14g" % float(m[1])) + b"</v>"
    except ValueError:
        return m[0]


def _crc32(rows: list[bytes]) -> bytes:
    """The rows' CRC-32s, 4 bytes each, big-endian, by C-level maps. A CRC is no
    protection against a forger (nor would 4 bytes of any digest be): the output's
    SHA-256 is the record's proof; this only tells an edited output from another file,
    and a change from none (each change is missed with odds of 1 in 4,294,967,296)."""
    out = array("I", map(zlib.crc32, rows))
    if out.itemsize != SIZE:  # not on any platform CPython supports today
        return b"".join(x.to_bytes(SIZE, "big") for x in out)
    if sys.byteorder == "little":
        out.byteswap()
    return out.tobytes()


def _canonical(text: str) -> bytes:
    """A value as the fingerprint hashes it. Frozen (records keep CRCs of it): unlike
    :func:`.xmlscan.escape_text` it leaves a carriage return as it is."""
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return out.encode("utf-8", "surrogateescape")


def _escaped(text: str) -> bytes:
    out = _canonical(text)
    if _SEPARATORS.search(out):  # from _x001F_ escapes: keep the rows apart
        out = _SEPARATORS.sub(lambda c: b"&#%d;" % c[0][0], out)
    return out


def _blocks(sx: SheetXml, i0: int, i1: int) -> Iterator[tuple[int, int]]:
    """Stored rows ``i0..i1-1`` in blocks of at most :data:`_BLOCK` rows and, unless one
    row is longer, :data:`_BLOCK_BYTES` of XML: each canonical form copies its block a
    few times, so a sheet of a few huge rows must not be one block."""
    c0 = i0
    while c0 < i1:
        c1 = min(c0 + _BLOCK, i1)
        if sx.ends[c1 - 1] - sx.starts[c0] > _BLOCK_BYTES:
            c1 = max(c0 + 1, bisect_right(sx.ends, sx.starts[c0] + _BLOCK_BYTES, c0, c1))
        yield c0, c1
        c0 = c1


def fingerprint_of(
    sx: SheetXml,
    strings: Callable[[], SharedStrings | None],
    top: int,
    bottom: int,
    cols: list[int] | None,
) -> Fingerprint:
    """The fingerprint of rows ``top..bottom`` of a sheet: of their cells in ``cols``, or
    of every cell when ``cols`` is None. ``strings()`` gives the shared strings, read
    only when a row holds one."""
    digests = empty_digests(top, bottom)
    fill_digests(digests, _Canon(sx, strings, cols), top, bottom)
    return Fingerprint(base64.b64encode(bytes(digests)).decode("ascii"))


def empty_digests(top: int, bottom: int) -> bytearray:
    """The digests of rows ``top..bottom`` when none is stored (an empty row's)."""
    return bytearray(_crc32([b""]) * max(0, bottom - top + 1))


class Canon(Protocol):
    """What :func:`fill_digests` takes: a sheet and the canonical form of its rows."""

    sx: SheetXml

    def block(self, i0: int, i1: int) -> list[bytes]: ...


def canon(
    sx: SheetXml, strings: Callable[[], SharedStrings | None], cols: list[int] | None
) -> _Canon:
    """The canonical form of the rows of ``sx`` (its :attr:`~_Canon.sx` may be set to
    another part of the same sheet: :mod:`.beside` reads the sheet a window at a time)."""
    return _Canon(sx, strings, cols)


def fill_digests(digests: bytearray, canon: Canon, top: int, bottom: int) -> None:
    """Write into ``digests`` (rows ``top..bottom``) the digest of each row of
    ``canon.sx`` that lies there."""
    sx = canon.sx
    i0, i1 = sx.index_of(top), sx.index_of(bottom + 1)
    try:
        for c0, c1 in _blocks(sx, i0, i1):
            found = _crc32(canon.block(c0, c1))
            n0 = sx.numbers[c0] - top
            if sx.numbers[c1 - 1] - top == n0 + c1 - c0 - 1:  # no gaps: one slice
                digests[n0 * SIZE : (n0 + c1 - c0) * SIZE] = found
            else:
                for k in range(c1 - c0):
                    at = (sx.numbers[c0 + k] - top) * SIZE
                    digests[at : at + SIZE] = found[k * SIZE : (k + 1) * SIZE]
    except ValuesError as exc:
        raise WorkbookError(
            f"{sx.label}: {exc.reason}: open the workbook in Excel, save it again, and retry"
        ) from None


def differing_rows(got: Fingerprint, want: Fingerprint, top: int) -> list[int]:
    """The rows whose digests differ (every row when ``want`` is damaged)."""
    a, b = got.digests(), want.digests()
    if a is None or b is None or len(a) != len(b):
        return list(range(top, top + max(len(a or b""), len(b or b"")) // SIZE)) or [top]
    if a == b:
        return []
    return [top + k // SIZE for k in range(0, len(a), SIZE) if a[k : k + SIZE] != b[k : k + SIZE]]
