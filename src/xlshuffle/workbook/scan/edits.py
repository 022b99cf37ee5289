"""Byte edits of a part: ranges replaced in one pass, and the ``r`` attribute of a tag set.

An edit is ``(start, end, new)``: the bytes ``data[start:end]`` are replaced by ``new``
(``start == end`` inserts). Every rewrite of a sheet, a row or a cell goes through
:func:`splice`, so edits never need applying back to front by hand.

Examples
--------
>>> spliced(b"<c r=\\"A1\\"><v>1</v></c>", [(6, 8, b"B7"), (13, 14, b"2")])
b'<c r="B7"><v>2</v></c>'
>>> spliced(b"<x:c><x:v>1</x:v></x:c>", [r_edit(b"<x:c>", b"C3")])
b'<x:c r="C3"><x:v>1</x:v></x:c>'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ...draw.errors import WorkbookError

__all__ = ["r_edit", "splice", "spliced"]

_R_VALUE = re.compile(rb"\sr\s*=\s*([\"'])([^\"'<>]*)\1")
_NAME = re.compile(rb"<[^\s/>]+")


def splice(data: bytes, edits: Iterable[tuple[int, int, Any]]) -> Iterator[bytes]:
    """``data`` with byte ranges replaced, piece by piece.

    Parameters
    ----------
    data : bytes
        The original.
    edits : iterable of (int, int, bytes or iterable of bytes)
        ``(start, end, new)``, in any order; they may not overlap. Edits with the same
        ``start`` and ``end`` (insertions at one place) keep their order.

    Yields
    ------
    bytes
        The pieces of the result, in order (join them, or stream them into a zip).

    Raises
    ------
    WorkbookError
        For overlapping edits (a bug of the caller).
    """
    pos = 0
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1])):
        if start < pos:
            raise WorkbookError("internal error: overlapping edits of the sheet")
        yield data[pos:start]
        if isinstance(new, bytes):
            yield new
        else:
            yield from new
        pos = end
    yield data[pos:]


def spliced(data: bytes, edits: Iterable[tuple[int, int, Any]]) -> bytes:
    """``data`` with byte ranges replaced, as one ``bytes`` (:func:`splice`, joined)."""
    return b"".join(splice(data, edits))


def r_edit(
    head: bytes, value: bytes, span: tuple[int, int] | None = None
) -> tuple[int, int, bytes]:
    """The edit of a start tag that makes its ``r`` attribute ``value``.

    Parameters
    ----------
    head : bytes
        The start tag, from its ``<`` (offsets of the edit are relative to it).
    value : bytes
        The new reference: ``b"B7"`` for a cell, ``b"7"`` for a row.
    span : (int, int), optional
        Where the scanner found the value of ``r`` in ``head`` (quotes excluded), if it
        did; by default it is looked for here.

    Returns
    -------
    (int, int, bytes)
        The existing value replaced (the file's own quotes and spacing stay) or, for a
        tag without ``r``, `` r="value"`` inserted right after the element's name, its
        namespace prefix included (``<x:c`` -> ``<x:c r="B7"``).

    Examples
    --------
    >>> r_edit(b"<row r='5' spans=\\"1:2\\">", b"9")
    (8, 9, b'9')
    >>> r_edit(b"<x:row>", b"9")
    (6, 6, b' r="9"')
    """
    if span is None:
        m = _R_VALUE.search(head)
        span = None if m is None else m.span(2)
    if span is not None:
        return span[0], span[1], value
    name = _NAME.match(head)
    cut = name.end() if name is not None else len(head)
    return cut, cut, b' r="' + value + b'"'
