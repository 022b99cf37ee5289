"""Cell styles and the date system, for :mod:`.values`: which styles show dates or times."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

from .xmlread import XML_SPACE, ValuesError, ascii_int, expat_parser, feed, local_name

__all__ = ["CellStyles", "workbook_date1904"]

# Built-in number formats (ECMA-376 Part 1, 18.8.30) that show a date or a time: 14-22
# and 45-47 everywhere, 27-36 and 50-58 in the East Asian locales (zh-tw, zh-cn, ja-jp,
# ko-kr), where every one of them is a date or a time. The Thai ids 59-81 are not
# included: half of them are numbers and Excel outside th-th shows them as General.
_BUILTIN_DATE_IDS = frozenset([*range(14, 23), *range(27, 37), *range(45, 48), *range(50, 59)])
_BUILTIN_ELAPSED_IDS = frozenset([46])  # [h]:mm:ss

_MAX_STYLES = 1_000_000  # Excel allows 64,000 cell formats
_MAX_FORMATS = 100_000


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


class _StylesReader:
    """The expat handlers of :meth:`CellStyles.parse`: the custom number formats and the
    number format of each cell format (``<cellXfs><xf>``), in order."""

    def __init__(self) -> None:
        self.custom: dict[int, str] = {}
        self.xf_formats: list[int] = []
        self.stack: list[str] = []

    def start(self, name: str, attrs: dict[str, str]) -> None:
        local = local_name(name)
        stack = self.stack
        stack.append(local)
        if len(stack) != 3:
            return
        if local == "numFmt" and stack[1] == "numFmts":
            if len(self.custom) >= _MAX_FORMATS:
                raise ValuesError("too many number formats")
            num_fmt_id = ascii_int(attrs.get("numFmtId", ""), "a numFmtId")
            self.custom[num_fmt_id] = attrs.get("formatCode", "")
        elif local == "xf" and stack[1] == "cellXfs":
            if len(self.xf_formats) >= _MAX_STYLES:
                raise ValuesError("too many cell formats")
            self.xf_formats.append(ascii_int(attrs.get("numFmtId", "0"), "a numFmtId"))

    def end(self, _name: str) -> None:
        self.stack.pop()


def _kind_of(num_fmt_id: int, custom: dict[int, str]) -> tuple[bool, bool]:
    """Whether number format ``num_fmt_id`` shows a date/time, and an elapsed time."""
    if num_fmt_id in custom:
        return _scan_format(custom[num_fmt_id])
    return num_fmt_id in _BUILTIN_DATE_IDS, num_fmt_id in _BUILTIN_ELAPSED_IDS


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
        reader = _StylesReader()
        parser = expat_parser()
        parser.StartElementHandler = reader.start
        parser.EndElementHandler = reader.end
        feed(parser, styles_xml, "the styles part")
        dates: list[int] = []
        elapsed: list[int] = []
        for index, num_fmt_id in enumerate(reader.xf_formats):
            is_date, is_elapsed = _kind_of(num_fmt_id, reader.custom)
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
        if local_name(name) == "workbookPr":
            found.append(attrs.get("date1904", "").strip(XML_SPACE) in ("1", "true"))
            raise _Found

    parser = expat_parser()
    parser.StartElementHandler = start
    with contextlib.suppress(_Found):
        feed(parser, workbook_xml, "the workbook part")
    return bool(found and found[0])
