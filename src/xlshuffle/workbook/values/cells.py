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
* :func:`cell_value` -- the Python value of one ``<c>`` element (its CSV text is
  :func:`xlshuffle.common.celltext.text_of`).

Values follow ``openpyxl.load_workbook(..., data_only=True)`` except where Excel disagrees
with openpyxl; the differences are listed in :func:`cell_value`.

Inputs are untrusted. Document type declarations are refused, expat (2.4 or later)
limits entity amplification, no regular expression is used, every scan is linear in the
input, and the shared-string table has a cap on its number of strings and characters.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import TypeAlias

from .strings import SharedStrings, TextCollector
from .styles import CellStyles, workbook_date1904
from .xmlread import (
    ASCII_DIGITS,
    XML_SPACE,
    ValuesError,
    ascii_int,
    expat_parser,
    feed,
    local_name,
)

__all__ = [
    "CellStyles",
    "SharedStrings",
    "ValuesError",
    "cell_value",
    "split_cell",
    "unsaved_formula",
    "workbook_date1904",
]


CellValue: TypeAlias = (
    bool | int | float | str | _dt.datetime | _dt.date | _dt.time | _dt.timedelta | None
)

_WINDOWS_EPOCH = _dt.datetime(1899, 12, 30)
_MAC_EPOCH = _dt.datetime(1904, 1, 1)
_SECS_PER_DAY = 86400

_Parsed = tuple[str, str, str | None, str | None]


class _CellSplitter:
    """expat handlers that pick ``t``, ``s``, the first ``<v>`` and the first ``<is>``, and
    note an ``<f>``."""

    __slots__ = ("collector", "formula", "head", "in_is", "in_v", "stack", "value")

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.head: dict[str, str] = {}
        self.value: list[str] | None = None
        self.in_v = False
        self.collector: TextCollector | None = None
        self.in_is = False
        self.formula = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        local = local_name(name)
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
                self.collector = TextCollector(stack, 1)
                self.in_is = True
            elif local == "f":
                self.formula = True
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


def _split(data: bytes) -> _CellSplitter:
    splitter = _CellSplitter()
    parser = expat_parser()
    parser.StartElementHandler = splitter.start
    parser.EndElementHandler = splitter.end
    parser.CharacterDataHandler = splitter.characters
    feed(parser, data, "the cell")
    return splitter


def split_cell(data: bytes) -> _Parsed:
    """The ``t`` and ``s`` attributes, ``<v>`` text and ``<is>`` text of a ``<c>`` element."""
    splitter = _split(data)
    value, collector = splitter.value, splitter.collector
    return (
        splitter.head.get("t", "n"),
        splitter.head.get("s", "0"),
        None if value is None else "".join(value),
        None if collector is None else collector.text(),
    )


def unsaved_formula(cell_xml: bytes) -> bool:
    """Whether a ``<c>`` element is a formula without a saved value: an ``<f>`` and no
    ``<v>``, or an empty one (openpyxl writes ``<f>B2*2</f><v></v>``), which
    :func:`cell_value` reads as None, like an empty cell. A string result saved empty
    (``t="str"``) is a value; so is an inline string.

    Examples
    --------
    >>> unsaved_formula(b'<c r="B3"><f>B2*2</f><v></v></c>'), unsaved_formula(b'<c><f>1</f></c>')
    (True, True)
    >>> unsaved_formula(b'<c><f>B2</f><v>2</v></c>')
    False
    >>> unsaved_formula(b'<c t="str"><f>""</f><v/></c>')  # an empty text, saved
    False
    >>> unsaved_formula(b'<c r="B3"/>')
    False
    """
    splitter = _split(cell_xml)
    if not splitter.formula:
        return False
    t = splitter.head.get("t", "n")
    if t in ("str", "inlineStr"):
        return t == "str" and splitter.value is None
    return splitter.value is None or not "".join(splitter.value).strip(XML_SPACE)


def _number(text: str) -> int | float:
    """An xsd:double literal: int when it is an integer literal, else float."""
    literal = text.strip(XML_SPACE)
    body = literal[1:] if literal[:1] in ("+", "-") else literal
    if body and ASCII_DIGITS.issuperset(body):
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
        and ASCII_DIGITS.issuperset(whole)
        and ASCII_DIGITS.issuperset(fraction)
        and (not e or (exponent and ASCII_DIGITS.issuperset(exponent)))
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
    literal = text.strip(XML_SPACE)
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
    t, s, text, inline = split_cell(cell_xml)
    if t == "inlineStr":
        return inline
    if t == "str":
        return text
    if text is None or not text.strip(XML_SPACE):
        return None
    if t == "n":
        return _numeric(text, s, styles, date1904)
    if t == "s":
        if strings is None:
            raise ValuesError("a shared-string cell in a workbook without shared strings")
        return strings[ascii_int(text, "a shared string index")]
    read = _READERS.get(t)
    if read is None:
        raise ValuesError(f"unknown cell type t={t[:20]!r}")
    return read(text)


def _numeric(text: str, s: str, styles: CellStyles, date1904: bool) -> CellValue:
    """A number cell: int or float, or a date, time or duration by its style."""
    number = _number(text)
    style = ascii_int(s, "a style index")
    if styles.is_date(style):
        return _from_excel(number, date1904=date1904, elapsed=styles.is_elapsed(style))
    return number


def _boolean(text: str) -> bool:
    flag = text.strip(XML_SPACE)
    if flag in ("1", "true"):
        return True
    if flag in ("0", "false"):
        return False
    raise ValuesError(f"a boolean cell holds {text[:40]!r}")


def _error(text: str) -> str:
    return text


#: how the text of ``<v>`` reads for the other cell types
_READERS: dict[str, Callable[[str], CellValue]] = {"b": _boolean, "e": _error, "d": _iso8601}
