"""Shared strings for :mod:`.values`: the ``sharedStrings.xml`` table, and the text of a
string item (``<si>``, or a cell's inline ``<is>``) with its ``_xHHHH_`` escapes decoded."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .xmlread import ValuesError, expat_parser, feed, local_name

__all__ = ["SharedStrings", "TextCollector"]

_HEX = frozenset("0123456789abcdefABCDEF")


# ------------------------------------------------------------------------------ string items


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


class TextCollector:
    """Collects the plain text of ``<si>``/``<is>``: ``<t>`` and ``<r><t>``, not ``<rPh>``.

    ``base`` is the depth of the ``si``/``is`` element in the element stack. The shared
    strings table reads its ``<si>`` with it, and a cell (:mod:`.cells`) its ``<is>``.
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


# --------------------------------------------------------------------------- shared strings


class _StringsReader:
    """The expat handlers of :meth:`SharedStrings.parse`: one string per ``<si>``."""

    def __init__(self, max_strings: int, max_chars: int) -> None:
        self.strings: list[str] = []
        self.stack: list[str] = []
        self.collector: TextCollector | None = None
        self.chars = 0
        self.max_strings, self.max_chars = max_strings, max_chars

    def start(self, name: str, _attrs: dict[str, str]) -> None:
        local = local_name(name)
        stack = self.stack
        stack.append(local)
        if len(stack) == 1:
            if local != "sst":
                raise ValuesError(f"the shared strings part starts with <{name}>, not <sst>")
        elif len(stack) == 2 and local == "si":
            if len(self.strings) >= self.max_strings:
                raise ValuesError(f"more than {self.max_strings:,} shared strings")
            self.collector = TextCollector(stack, 1)
        elif self.collector is not None:
            self.collector.start(local)

    def end(self, _name: str) -> None:
        collector = self.collector
        if collector is not None:
            if len(self.stack) == 2:
                self.strings.append(collector.text())
                self.collector = None
            else:
                collector.end()
        self.stack.pop()

    def characters(self, data: str) -> None:
        collector = self.collector
        if collector is not None and collector.t_depth == len(self.stack):
            self.chars += len(data)
            if self.chars > self.max_chars:
                raise ValuesError(f"more than {self.max_chars:,} characters of shared strings")
            collector.pieces.append(data)


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
        reader = _StringsReader(max_strings, max_chars)
        parser = expat_parser()
        parser.StartElementHandler = reader.start
        parser.EndElementHandler = reader.end
        parser.CharacterDataHandler = reader.characters
        feed(parser, xml, "the shared strings part")
        return cls(reader.strings)

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
