"""Python values of worksheet cells, read from the raw bytes of an .xlsx package's parts.

The byte-level workbook engine hands this module the bytes of three kinds of part and of
single ``<c>`` elements; it never builds a DOM. Everything is parsed with the standard
library's streaming :mod:`xml.parsers.expat` (no namespace processing, so the producer's
prefix -- ``<x:c>``, ``<c>`` -- does not matter and Transitional and Strict parts read the
same). A byte-level fast path for plain ``<c><v>..</v></c>`` cells was tried and measured
no faster than expat (about 5 microseconds a cell either way), so there is one parser.

* :class:`SharedStrings` -- the ``sharedStrings.xml`` table, bounded in count and size;
* :class:`CellStyles` -- which ``cellXfs`` entries of ``styles.xml`` are dates or times;
* :func:`workbook_date1904` -- the 1900 or 1904 date system of ``workbook.xml``;
* :func:`cell_value` -- the Python value of one ``<c>`` element;
* :func:`text_of` -- the CSV text of such a value.

Values follow ``openpyxl.load_workbook(..., data_only=True)`` except where Excel disagrees
with openpyxl; the differences are listed in :func:`cell_value`.

Inputs are untrusted. Document type declarations are refused, expat (2.4 or later)
limits entity amplification, no regular expression is used, every scan is linear in the
input, and the shared-string table has a cap on its number of strings and characters.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
from collections.abc import Iterable, Iterator
from typing import TypeAlias
from xml.parsers import expat

from ..draw.errors import WorkbookError

__all__ = [
    "CellStyles",
    "SharedStrings",
    "ValuesError",
    "cell_value",
    "text_of",
    "workbook_date1904",
]

CellValue: TypeAlias = (
    bool | int | float | str | _dt.datetime | _dt.date | _dt.time | _dt.timedelta | None
)

# Built-in number formats (ECMA-376 Part 1, 18.8.30) that show a date or a time: 14-22
# and 45-47 everywhere, 27-36 and 50-58 in the East Asian locales (zh-tw, zh-cn, ja-jp,
# ko-kr), where every one of them is a date or a time. The Thai ids 59-81 are not
# included: half of them are numbers and Excel outside th-th shows them as General.
_BUILTIN_DATE_IDS = frozenset([*range(14, 23), *range(27, 37), *range(45, 48), *range(50, 59)])
_BUILTIN_ELAPSED_IDS = frozenset([46])  # [h]:mm:ss

_WINDOWS_EPOCH = _dt.datetime(1899, 12, 30)
_MAC_EPOCH = _dt.datetime(1904, 1, 1)
_SECS_PER_DAY = 86400

_XML_SPACE = " \t\n\r"
_HEX = frozenset("0123456789abcdefABCDEF")
_ASCII_DIGITS = frozenset("0123456789")

_MAX_STYLES = 1_000_000  # Excel allows 64,000 cell formats
_MAX_FORMATS = 100_000


class ValuesError(WorkbookError):
    """A part or a cell that cannot be read: malformed XML, too many shared strings...

    It is a :class:`~xlshuffle.WorkbookError` (so also a :class:`ValueError`).

    Parameters
    ----------
    reason : str
        A short phrase saying what is wrong, also available as :attr:`reason`.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --------------------------------------------------------------------------- XML plumbing


def _local(name: str) -> str:
    """The local part of an element name, whatever its prefix."""
    return name.rpartition(":")[2]


def _refuse_dtd(*_args: object) -> None:
    raise ValuesError("a document type declaration is not allowed")


def _parser() -> expat.XMLParserType:
    """A non-namespace-aware expat parser that refuses DTDs and buffers text."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.buffer_size = 1 << 16
    parser.StartDoctypeDeclHandler = _refuse_dtd
    parser.EntityDeclHandler = _refuse_dtd
    return parser


def _feed(parser: expat.XMLParserType, xml: bytes | Iterable[bytes], what: str) -> None:
    """Parse ``xml`` (bytes or chunks of bytes) to the end, or raise :class:`ValuesError`."""
    chunks: Iterable[bytes] = (
        (bytes(xml),) if isinstance(xml, bytes | bytearray | memoryview) else xml
    )
    try:
        for chunk in chunks:
            parser.Parse(bytes(chunk), False)
        parser.Parse(b"", True)
    except ValuesError:
        raise
    except expat.ExpatError as exc:
        raise ValuesError(f"{what} is not well-formed XML ({exc})") from None
    except (ValueError, LookupError) as exc:  # an encoding pyexpat cannot use (shift_jis, rot13)
        raise ValuesError(f"{what} has an unusable encoding ({exc})") from None


def _unescape_xstring(text: str) -> str:
    """Decode the ``_xHHHH_`` escapes of an ST_Xstring (ECMA-376 Part 1, 22.9.2.19).

    Excel writes characters that XML cannot carry (a lone CR, control characters) as
    ``_x000D_``, and a literal ``_x`` sequence that would be mistaken for one as
    ``_x005F_x...``. A lone surrogate escape is left as it is.
    """
    if "_x" not in text:
        return text
    pieces: list[str] = []
    start = search = 0
    while (at := text.find("_x", search)) >= 0:
        code = _hex4(text, at)
        if code is None:
            search = at + 1
            continue
        end = at + 7
        low = _hex4(text, end) if 0xD800 <= code <= 0xDBFF else None
        if low is not None and 0xDC00 <= low <= 0xDFFF:
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            end += 7
        if 0xD800 <= code <= 0xDFFF:
            search = at + 1
            continue
        pieces.append(text[start:at])
        pieces.append(chr(code))
        start = search = end
    pieces.append(text[start:])
    return "".join(pieces)


def _hex4(text: str, at: int) -> int | None:
    """The code of an ``_xHHHH_`` escape starting at ``at``, or None."""
    digits = text[at + 2 : at + 6]
    if (
        text[at : at + 2] == "_x"
        and len(digits) == 4
        and text[at + 6 : at + 7] == "_"
        and _HEX.issuperset(digits)
    ):
        return int(digits, 16)
    return None


def _ascii_int(text: str, what: str) -> int:
    """A non-negative decimal integer of ASCII digits (XML whitespace around it allowed)."""
    digits = text.strip(_XML_SPACE)
    if not digits or len(digits) > 18 or not _ASCII_DIGITS.issuperset(digits):
        raise ValuesError(f"{what} is not a small non-negative integer: {text[:40]!r}")
    return int(digits)


# --------------------------------------------------------------------------- shared strings


class _TextCollector:
    """Collects the plain text of ``<si>``/``<is>``: ``<t>`` and ``<r><t>``, not ``<rPh>``.

    ``base`` is the depth of the ``si``/``is`` element in the element stack.
    """

    __slots__ = ("base", "pieces", "stack", "t_depth")

    def __init__(self, stack: list[str], base: int) -> None:
        self.stack = stack
        self.base = base
        self.pieces: list[str] = []
        self.t_depth = -1

    def start(self, local: str) -> None:
        # called after the element is pushed on the stack
        depth = len(self.stack) - 1 - self.base
        if local == "t" and (depth == 1 or (depth == 2 and self.stack[-2] == "r")):
            self.t_depth = len(self.stack)

    def end(self) -> None:
        # called before the element is popped
        if len(self.stack) == self.t_depth:
            self.t_depth = -1

    def text(self) -> str:
        return _unescape_xstring("".join(self.pieces))


class SharedStrings:
    """The shared-string table of a workbook: the plain text of each ``<si>``.

    Parameters
    ----------
    strings : iterable of str, optional
        The strings, in order. Use :meth:`parse` to read them from a part.

    Examples
    --------
    >>> sst = SharedStrings.parse(
    ...     b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    ...     b"<si><t>Ann</t></si><si><r><t>B</t></r><r><rPr><b/></rPr><t>ob</t></r></si></sst>"
    ... )
    >>> len(sst), sst[0], sst[1]
    (2, 'Ann', 'Bob')
    """

    __slots__ = ("_strings",)

    def __init__(self, strings: Iterable[str] = ()) -> None:
        self._strings = list(strings)

    @classmethod
    def parse(
        cls,
        xml: bytes | Iterable[bytes],
        *,
        max_strings: int = 5_000_000,
        max_chars: int = 500_000_000,
    ) -> SharedStrings:
        """Read a ``sharedStrings.xml`` part.

        Parameters
        ----------
        xml : bytes or iterable of bytes
            The part, whole or as chunks (which may split tags, references and UTF-8
            sequences anywhere), so that it can be streamed out of the zip.
        max_strings : int, keyword-only
            Most ``<si>`` entries accepted.
        max_chars : int, keyword-only
            Most characters of text accepted, over all strings.

        Returns
        -------
        SharedStrings
            One string per ``<si>``: its ``<t>``, or its ``<r><t>`` runs concatenated, with
            phonetic ``<rPh>`` text left out, whitespace kept exactly (``xml:space`` or
            not, as Excel does) and ``_xHHHH_`` escapes decoded.

        Raises
        ------
        ValuesError
            The part is not well-formed XML, has a DTD, is not an ``<sst>``, or exceeds
            ``max_strings`` or ``max_chars`` (raised as soon as the limit is passed).
        """
        strings: list[str] = []
        stack: list[str] = []
        collector: _TextCollector | None = None
        chars = 0

        def start(name: str, _attrs: dict[str, str]) -> None:
            nonlocal collector
            local = _local(name)
            stack.append(local)
            if len(stack) == 1:
                if local != "sst":
                    raise ValuesError(f"the shared strings part starts with <{name}>, not <sst>")
            elif len(stack) == 2 and local == "si":
                if len(strings) >= max_strings:
                    raise ValuesError(f"more than {max_strings:,} shared strings")
                collector = _TextCollector(stack, 1)
            elif collector is not None:
                collector.start(local)

        def end(_name: str) -> None:
            nonlocal collector
            if collector is not None:
                if len(stack) == 2:
                    strings.append(collector.text())
                    collector = None
                else:
                    collector.end()
            stack.pop()

        def characters(data: str) -> None:
            nonlocal chars
            if collector is not None and collector.t_depth == len(stack):
                chars += len(data)
                if chars > max_chars:
                    raise ValuesError(f"more than {max_chars:,} characters of shared strings")
                collector.pieces.append(data)

        parser = _parser()
        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.CharacterDataHandler = characters
        _feed(parser, xml, "the shared strings part")
        return cls(strings)

    def __len__(self) -> int:
        return len(self._strings)

    def __getitem__(self, index: int) -> str:
        """The string at ``index`` (0-based, as in ``<c t="s"><v>index</v></c>``).

        Raises
        ------
        ValuesError
            There is no such string (negative indices are not accepted either).
        """
        if 0 <= index < len(self._strings):
            return self._strings[index]
        raise ValuesError(f"shared string {index} does not exist ({len(self._strings)} strings)")

    def __iter__(self) -> Iterator[str]:
        return iter(self._strings)

    def __repr__(self) -> str:
        return f"<SharedStrings: {len(self._strings)} strings>"


# --------------------------------------------------------------------------- styles


def _scan_format(code: str) -> tuple[bool, bool]:
    """Whether a number format code shows a date/time, and whether it is elapsed time.

    Only the first section (before an unquoted ``;``) counts, as in openpyxl. Quoted
    text, ``\\x`` escapes, ``_x`` spaces, ``*x`` fills and bracketed colours, conditions
    and locales are skipped; ``d m y h s`` (any case), ``A/P`` (``AM/PM`` holds ``M``)
    and the elapsed-time brackets ``[h] [hh] [m] [mm] [s] [ss]`` are date/time tokens.
    """
    is_date = is_elapsed = False
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if ch == ";":
            break
        if ch == '"':
            close = code.find('"', i + 1)
            if close < 0:
                break
            i = close + 1
        elif ch in "\\_*":
            i += 2
        elif ch == "[":
            close = code.find("]", i + 1)
            if close < 0:
                break
            inner = code[i + 1 : close].lower()
            if inner in ("h", "hh", "m", "mm", "s", "ss"):
                is_date = is_elapsed = True
            i = close + 1
        else:
            if ch in "dmhysDMHYS" or code[i : i + 3] in ("A/P", "a/p"):
                is_date = True
            i += 1
    return is_date, is_elapsed


class CellStyles:
    """Which cell formats (``cellXfs`` of ``styles.xml``) show dates, times or durations.

    ``CellStyles()`` is a workbook without a styles part: no cell is a date.

    Examples
    --------
    >>> styles = CellStyles.parse(
    ...     b'<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    ...     b'<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
    ...     b'<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="46"/>'
    ...     b"</cellXfs></styleSheet>"
    ... )
    >>> [styles.is_date(i) for i in range(4)], styles.is_elapsed(2)
    ([False, True, True, False], True)
    """

    __slots__ = ("_dates", "_elapsed")

    def __init__(
        self, *, date_styles: Iterable[int] = (), elapsed_styles: Iterable[int] = ()
    ) -> None:
        self._dates = frozenset(date_styles)
        self._elapsed = frozenset(elapsed_styles)

    @classmethod
    def parse(cls, styles_xml: bytes | None) -> CellStyles:
        """Read a ``styles.xml`` part (``None`` when the workbook has none).

        A cell format is a date when its ``numFmtId`` names a custom ``<numFmt>`` whose
        ``formatCode`` has date/time tokens outside quoted text, escapes and brackets
        (see ``openpyxl.styles.numbers.is_date_format``), or, with no custom format of
        that id, a built-in date/time id: 14-22, 27-36, 45-47 or 50-58. The East Asian
        ids 27-36 and 50-58 are dates in every locale that defines them (ECMA-376 Part 1,
        18.8.30; xlrd and calamine agree); openpyxl knows no format for them and reads
        such cells as numbers.

        Parameters
        ----------
        styles_xml : bytes or None
            The part.

        Returns
        -------
        CellStyles

        Raises
        ------
        ValuesError
            The part is not well-formed XML, has a DTD, or has an impossible number of
            formats or a ``numFmtId`` that is not an integer.
        """
        if styles_xml is None:
            return cls()
        custom: dict[int, str] = {}
        xf_formats: list[int] = []
        stack: list[str] = []

        def start(name: str, attrs: dict[str, str]) -> None:
            local = _local(name)
            stack.append(local)
            if len(stack) != 3:
                return
            if local == "numFmt" and stack[1] == "numFmts":
                if len(custom) >= _MAX_FORMATS:
                    raise ValuesError("too many number formats")
                num_fmt_id = _ascii_int(attrs.get("numFmtId", ""), "a numFmtId")
                custom[num_fmt_id] = attrs.get("formatCode", "")
            elif local == "xf" and stack[1] == "cellXfs":
                if len(xf_formats) >= _MAX_STYLES:
                    raise ValuesError("too many cell formats")
                xf_formats.append(_ascii_int(attrs.get("numFmtId", "0"), "a numFmtId"))

        def end(_name: str) -> None:
            stack.pop()

        parser = _parser()
        parser.StartElementHandler = start
        parser.EndElementHandler = end
        _feed(parser, styles_xml, "the styles part")

        dates: list[int] = []
        elapsed: list[int] = []
        for index, num_fmt_id in enumerate(xf_formats):
            if num_fmt_id in custom:
                is_date, is_elapsed = _scan_format(custom[num_fmt_id])
            else:
                is_date = num_fmt_id in _BUILTIN_DATE_IDS
                is_elapsed = num_fmt_id in _BUILTIN_ELAPSED_IDS
            if is_date:
                dates.append(index)
                if is_elapsed:
                    elapsed.append(index)
        return cls(date_styles=dates, elapsed_styles=elapsed)

    def is_date(self, style_index: int) -> bool:
        """Whether cell format ``style_index`` (the ``s`` of a ``<c>``) shows a date/time.

        An index with no cell format is not a date.
        """
        return style_index in self._dates

    def is_elapsed(self, style_index: int) -> bool:
        """Whether cell format ``style_index`` shows elapsed time (``[h]:mm:ss``).

        Such cells are read as :class:`datetime.timedelta`, as openpyxl does.
        """
        return style_index in self._elapsed

    def __repr__(self) -> str:
        return f"<CellStyles: {len(self._dates)} date formats>"


# --------------------------------------------------------------------------- workbook


class _Found(Exception):
    """Stops parsing once the answer is known."""


def workbook_date1904(workbook_xml: bytes) -> bool:
    """Whether a ``workbook.xml`` part uses the 1904 date system.

    Parameters
    ----------
    workbook_xml : bytes
        The part.

    Returns
    -------
    bool
        True when ``<workbookPr>`` (any prefix) has ``date1904="1"`` or ``"true"``.

    Raises
    ------
    ValuesError
        The part is not well-formed XML (up to its ``<workbookPr>``) or has a DTD.

    Examples
    --------
    >>> workbook_date1904(b'<x:workbook xmlns:x="u"><x:workbookPr date1904="1"/></x:workbook>')
    True
    """
    found: list[bool] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        if _local(name) == "workbookPr":
            found.append(attrs.get("date1904", "").strip(_XML_SPACE) in ("1", "true"))
            raise _Found

    parser = _parser()
    parser.StartElementHandler = start
    with contextlib.suppress(_Found):
        _feed(parser, workbook_xml, "the workbook part")
    return bool(found and found[0])


# --------------------------------------------------------------------------- cells

# (t, s, text of <v> or None, text of <is> or None)
_Parsed = tuple[str, str, str | None, str | None]


class _CellSplitter:
    """expat handlers that pick ``t``, ``s``, the first ``<v>`` and the first ``<is>``."""

    __slots__ = ("collector", "head", "in_is", "in_v", "stack", "value")

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.head: dict[str, str] = {}
        self.value: list[str] | None = None
        self.in_v = False
        self.collector: _TextCollector | None = None
        self.in_is = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        local = _local(name)
        stack = self.stack
        stack.append(local)
        depth = len(stack)
        if depth == 1:
            if local != "c":
                raise ValuesError(f"a cell must be a <c> element, not <{name}>")
            self.head = attrs
        elif depth == 2:
            if local == "v" and self.value is None:
                self.value = []
                self.in_v = True
            elif local == "is" and self.collector is None:
                self.collector = _TextCollector(stack, 1)
                self.in_is = True
        elif self.in_is and self.collector is not None:
            self.collector.start(local)

    def end(self, _name: str) -> None:
        depth = len(self.stack)
        if depth == 2:
            self.in_v = self.in_is = False
        elif self.in_is and self.collector is not None:
            self.collector.end()
        self.stack.pop()

    def characters(self, data: str) -> None:
        if self.in_v and self.value is not None and len(self.stack) == 2:
            self.value.append(data)
        elif (
            self.in_is and self.collector is not None and self.collector.t_depth == len(self.stack)
        ):
            self.collector.pieces.append(data)


def _split_cell(data: bytes) -> _Parsed:
    """The ``t`` and ``s`` attributes, ``<v>`` text and ``<is>`` text of a ``<c>`` element."""
    splitter = _CellSplitter()
    parser = _parser()
    parser.StartElementHandler = splitter.start
    parser.EndElementHandler = splitter.end
    parser.CharacterDataHandler = splitter.characters
    _feed(parser, data, "the cell")
    value, collector = splitter.value, splitter.collector
    return (
        splitter.head.get("t", "n"),
        splitter.head.get("s", "0"),
        None if value is None else "".join(value),
        None if collector is None else collector.text(),
    )


def _number(text: str) -> int | float:
    """An xsd:double literal: int when it is an integer literal, else float."""
    literal = text.strip(_XML_SPACE)
    body = literal[1:] if literal[:1] in ("+", "-") else literal
    if body and _ASCII_DIGITS.issuperset(body):
        try:
            return int(literal)
        except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
            return float(literal)
    mantissa, e, exponent = body.lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    if e and exponent[:1] in ("+", "-"):
        exponent = exponent[1:]
    if (
        (whole or fraction)
        and _ASCII_DIGITS.issuperset(whole)
        and _ASCII_DIGITS.issuperset(fraction)
        and (not e or (exponent and _ASCII_DIGITS.issuperset(exponent)))
    ):
        return float(literal)
    raise ValuesError(f"a numeric cell holds {text[:40]!r}, which is not a number")


def _from_excel(value: int | float, *, date1904: bool, elapsed: bool) -> CellValue:
    """``openpyxl.utils.datetime.from_excel``, line for line; '#VALUE!' when out of range."""
    try:
        if elapsed:
            delta = _dt.timedelta(days=value)
            if delta.microseconds:
                delta = _dt.timedelta(
                    seconds=delta.total_seconds() // 1,
                    microseconds=round(delta.microseconds, -3),
                )
            return delta
        day, fraction = divmod(value, 1)
        diff = _dt.timedelta(milliseconds=round(fraction * _SECS_PER_DAY * 1000))
        if 0 <= value < 1 and diff.days == 0:
            minutes, seconds = divmod(diff.seconds, 60)
            hours, minutes = divmod(minutes, 60)
            return _dt.time(hours, minutes, seconds, diff.microseconds)
        if 0 < value < 60 and not date1904:
            day += 1  # serials 1-59 are before Excel's fictitious 1900-02-29
        epoch = _MAC_EPOCH if date1904 else _WINDOWS_EPOCH
        return epoch + _dt.timedelta(days=day) + diff
    except (OverflowError, ValueError):
        return "#VALUE!"


def _iso8601(text: str) -> _dt.datetime | _dt.date | _dt.time:
    """The value of a ``t="d"`` cell: an ISO 8601 date, time or date and time (naive)."""
    literal = text.strip(_XML_SPACE)
    if literal[-1:] in ("Z", "z"):
        literal = literal[:-1]
    try:
        date_part, t, time_part = literal.partition("T")
        if t and not date_part:
            return _dt.time.fromisoformat(time_part).replace(tzinfo=None)
        if t:
            return _dt.datetime.fromisoformat(literal).replace(tzinfo=None)
        if ":" in literal:
            return _dt.time.fromisoformat(literal).replace(tzinfo=None)
        return _dt.date.fromisoformat(literal)
    except ValueError:
        raise ValuesError(f"a date cell holds {text[:40]!r}, which is not ISO 8601") from None


def cell_value(
    cell_xml: bytes,
    *,
    strings: SharedStrings | None,
    styles: CellStyles,
    date1904: bool,
) -> CellValue:
    """The Python value of one ``<c>...</c>`` element (the bytes of the whole element).

    Parameters
    ----------
    cell_xml : bytes
        The element, with any prefix (``<c>``, ``<x:c>``), in UTF-8.
    strings : SharedStrings or None
        The workbook's shared strings (None when it has no such part).
    styles : CellStyles
        The workbook's cell formats, to tell dates from numbers.
    date1904 : bool
        Whether the workbook uses the 1904 date system (:func:`workbook_date1904`).

    Returns
    -------
    object
        By the cell's ``t`` attribute:

        * ``"s"``: ``strings[int(v)]``;
        * ``"inlineStr"``: the text of ``<is>`` (``<t>`` or the ``<r><t>`` runs, not
          ``<rPh>``), None without ``<is>``;
        * ``"str"``: the text of ``<v>`` (a formula's string result), ``""`` when empty;
        * ``"b"``: True or False; ``"e"``: the error text, such as ``'#N/A'``;
        * ``"d"``: :class:`~datetime.datetime`, :class:`~datetime.date` or
          :class:`~datetime.time` from ISO 8601, naive (a zone is dropped);
        * ``"n"`` or none: int when ``<v>`` is an integer literal (17 digits stay exact),
          else float. When the style is a date format, the serial is converted exactly as
          ``openpyxl.utils.datetime.from_excel`` does: a :class:`~datetime.datetime`
          (1900 system: serials below 60 are shifted by Excel's fictitious 1900-02-29, so
          59 and 60 are both 1900-02-28; 1904 system: days since 1904-01-01), a
          :class:`~datetime.time` when ``0 <= serial < 1``, a
          :class:`~datetime.timedelta` for elapsed-time formats (``[h]:mm:ss``), and the
          text ``'#VALUE!'`` for a serial outside the years 1-9999.

        No ``<v>`` (or an empty one, except for ``"str"``) gives None; a formula cell
        without a cached value does too. The formula itself is ignored. Whitespace of
        text is kept as it is; in shared and inline strings ``_xHHHH_`` escapes are
        decoded, as Excel does.

    Raises
    ------
    ValuesError
        Malformed XML, a DTD, an unknown ``t``, a value that does not fit its type, a
        shared string that does not exist or no shared strings part for a ``t="s"`` cell.

    Notes
    -----
    Differences from ``openpyxl.load_workbook(..., data_only=True)``: openpyxl reads an
    empty ``<v/>`` of a ``t="str"`` cell as None (here ``""``); it leaves ``_xHHHH_``
    escapes undecoded but deletes every ``x005F_`` from shared strings; it reads the East
    Asian date formats 27-36 and 50-58 as numbers. At the worksheet level (outside this
    function) openpyxl also gives None for a value hidden under a merged range and puts
    a hyperlink's target into an empty cell that has one. Invalid values (a non-number
    in a numeric cell, ``t="b"`` with ``2``) make openpyxl fail with assorted exceptions;
    here they raise ValuesError.

    Examples
    --------
    >>> styles = CellStyles(date_styles=[1])
    >>> sst = SharedStrings(["Ann", "Bob"])
    >>> def value(xml):
    ...     return cell_value(xml, strings=sst, styles=styles, date1904=False)
    >>> value(b'<c r="A1" t="s"><v>1</v></c>')
    'Bob'
    >>> value(b'<x:c r="B1"><x:v>12345678901234567</x:v></x:c>')
    12345678901234567
    >>> value(b'<c r="C1" s="1"><v>45292.5</v></c>')
    datetime.datetime(2024, 1, 1, 12, 0)
    >>> value(b'<c r="D1" t="inlineStr"><is><t xml:space="preserve"> a&amp;b </t></is></c>')
    ' a&b '
    >>> value(b'<c r="E1" t="e"><f>1/0</f><v>#DIV/0!</v></c>'), value(b'<c r="F1"/>')
    ('#DIV/0!', None)
    """
    t, s, text, inline = _split_cell(cell_xml)
    if t == "inlineStr":
        return inline
    if t == "str":
        return text
    if text is None or not text.strip(_XML_SPACE):
        return None
    if t == "n":
        number = _number(text)
        style = _ascii_int(s, "a style index")
        if styles.is_date(style):
            return _from_excel(number, date1904=date1904, elapsed=styles.is_elapsed(style))
        return number
    if t == "s":
        if strings is None:
            raise ValuesError("a shared-string cell in a workbook without shared strings")
        return strings[_ascii_int(text, "a shared string index")]
    if t == "b":
        flag = text.strip(_XML_SPACE)
        if flag in ("1", "true"):
            return True
        if flag in ("0", "false"):
            return False
        raise ValuesError(f"a boolean cell holds {text[:40]!r}")
    if t == "e":
        return text
    if t == "d":
        return _iso8601(text)
    raise ValuesError(f"unknown cell type t={t[:20]!r}")


def text_of(value: object) -> str:
    """The CSV text of a cell value, by today's rules of ``xlshuffle sample``.

    None is ``""``; dates, times and datetimes are ``.isoformat()``; a float with an
    integral value loses its ``.0`` (``3.0`` -> ``"3"``); anything else is ``str(value)``,
    so booleans are ``"True"``/``"False"`` (not Excel's ``TRUE``/``FALSE``) and a
    duration is ``str(timedelta)``.

    Examples
    --------
    >>> [text_of(v) for v in (None, 3.0, 2.5, True, "x", _dt.date(2024, 1, 2))]
    ['', '3', '2.5', 'True', 'x', '2024-01-02']
    """
    if value is None:
        return ""
    if isinstance(value, _dt.datetime | _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
