"""Reading a part's XML for :mod:`.values`: an expat parser that refuses DTDs, fed to the
end, and :class:`ValuesError`, which every reader of a part or a cell raises."""

from __future__ import annotations

from collections.abc import Iterable
from xml.parsers import expat

from ...draw.errors import WorkbookError

__all__ = [
    "ASCII_DIGITS",
    "XML_SPACE",
    "ValuesError",
    "ascii_int",
    "expat_parser",
    "feed",
    "local_name",
]

#: XML's whitespace, which is less than what :meth:`str.strip` strips by default.
XML_SPACE = " \t\n\r"
#: The digits of a number in a part (:meth:`str.isdigit` takes other scripts' digits too).
ASCII_DIGITS = frozenset("0123456789")


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


def local_name(name: str) -> str:
    """The local part of an element name, whatever its prefix."""
    return name.rpartition(":")[2]


def _refuse_dtd(*_args: object) -> None:
    raise ValuesError("a document type declaration is not allowed")


def expat_parser() -> expat.XMLParserType:
    """A non-namespace-aware expat parser that refuses DTDs and buffers text."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.buffer_size = 1 << 16
    parser.StartDoctypeDeclHandler = _refuse_dtd
    parser.EntityDeclHandler = _refuse_dtd
    return parser


def feed(parser: expat.XMLParserType, xml: bytes | Iterable[bytes], what: str) -> None:
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


def ascii_int(text: str, what: str) -> int:
    """A non-negative decimal integer of ASCII digits (XML whitespace around it allowed)."""
    digits = text.strip(XML_SPACE)
    if not digits or len(digits) > 18 or not ASCII_DIGITS.issuperset(digits):
        raise ValuesError(f"{what} is not a small non-negative integer: {text[:40]!r}")
    return int(digits)
