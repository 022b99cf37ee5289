"""A small, linear-time XML scanner for the parts of a workbook, working on bytes.

No DOM and no entity expansion: a part that declares a DOCTYPE is refused before anything
else looks at it. Every scan here is a loop of ``bytes.find`` calls and regular
expressions without nested quantifiers, so its cost is linear in the part's size whatever
the part holds (unterminated tags, thousands of quotes...). Names keep their namespace
prefix; :func:`local` drops it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...draw.errors import WorkbookError

__all__ = [
    "Tag",
    "attrs",
    "check_no_doctype",
    "escape_attr",
    "escape_text",
    "iter_tags",
    "local",
    "tag_end",
    "tags_or_refuse",
    "unescape",
]

# A quote or the end of a tag: attribute values may hold '>' (legal XML), so a tag ends
# at the first '>' outside quotes.
_QUOTE_OR_GT = re.compile(rb"[\"'>]")
# One attribute after whitespace; values never hold their own quote character.
_ATTR = re.compile(rb"\s([^\s=<>/\"']+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_NAME = re.compile(rb"[^\s/>]+")


def check_no_doctype(data: bytes, label: str, part: str) -> None:
    """Refuse a part that declares a document type or entities (XML bombs, external
    entities): Excel never writes one."""
    # "!" first: a one-byte search runs at memory speed, and most parts hold none
    if b"!" in data and b"<!" in data and (b"<!DOCTYPE" in data or b"<!ENTITY" in data):
        raise WorkbookError(
            f"{label}: part {part} declares XML entities (<!DOCTYPE>), which Excel never "
            "writes and which can hide an XML bomb: open the workbook in Excel and save it "
            "again if you trust it"
        )


def local(name: bytes) -> bytes:
    """``b"x:row"`` -> ``b"row"``."""
    return name.rpartition(b":")[2]


def tag_end(data: bytes, start: int, limit: int = -1) -> int:
    """Index just past the ``>`` that ends the tag opening at ``start``; -1 if none.

    Quotes are honoured, so a ``>`` inside an attribute value does not end the tag.
    """
    end = len(data) if limit < 0 else limit
    pos = start + 1
    while True:
        m = _QUOTE_OR_GT.search(data, pos, end)
        if m is None:
            return -1
        ch = data[m.start()]
        if ch == 0x3E:  # '>'
            return m.end()
        close = data.find(b"'" if ch == 0x27 else b'"', m.end(), end)
        if close < 0:
            return -1
        pos = close + 1


def attrs(tag: bytes) -> dict[bytes, bytes]:
    """Attributes of one start tag, raw (still escaped), by qualified name."""
    return {m[1]: m[2] if m[2] is not None else m[3] for m in _ATTR.finditer(tag)}


@dataclass
class Tag:
    """One piece of markup: ``kind`` is ``"start"``, ``"end"``, ``"empty"`` (``<a/>``) or
    ``"other"`` (comment, CDATA, processing instruction); ``name`` is qualified."""

    kind: str
    name: bytes
    start: int
    end: int


def iter_tags(data: bytes, start: int = 0, end: int = -1) -> Iterator[Tag]:
    """Every tag between ``start`` and ``end``, in order, text skipped.

    Raises
    ------
    ValueError
        Markup that never ends (the caller names the part).
    """
    stop = len(data) if end < 0 else end
    pos = start
    while True:
        i = data.find(b"<", pos, stop)
        if i < 0:
            return
        nxt = data[i + 1 : i + 2]
        if nxt == b"!":
            pos = _declaration_end(data, i, stop)
            yield Tag("other", b"", i, pos)
            continue
        if nxt == b"?":
            j = data.find(b"?>", i, stop)
            if j < 0:
                raise ValueError("unterminated processing instruction")
            yield Tag("other", b"", i, j + 2)
            pos = j + 2
            continue
        j = tag_end(data, i, stop)
        if j < 0:
            raise ValueError("unterminated tag")
        if nxt == b"/":
            m = _NAME.match(data, i + 2, j)
            yield Tag("end", m[0] if m else b"", i, j)
        else:
            m = _NAME.match(data, i + 1, j)
            kind = "empty" if data[j - 2 : j - 1] == b"/" else "start"
            yield Tag(kind, m[0] if m else b"", i, j)
        pos = j


def _declaration_end(data: bytes, i: int, stop: int) -> int:
    """Where the ``<!`` markup at ``i`` (a comment, CDATA or a declaration) ends."""
    if data.startswith(b"<!--", i):
        j, close = data.find(b"-->", i + 4, stop), 3
    elif data.startswith(b"<![CDATA[", i):
        j, close = data.find(b"]]>", i + 9, stop), 3
    else:
        j, close = data.find(b">", i, stop), 1
    if j < 0:
        raise ValueError("unterminated markup")
    return j + close


def tags_or_refuse(data: bytes, label: str, part: str, start: int = 0, end: int = -1) -> list[Tag]:
    """Every tag of :func:`iter_tags`, or a one-line :class:`WorkbookError` naming ``label``
    (the file) and ``part`` when the markup never ends."""
    try:
        return list(iter_tags(data, start, end))
    except ValueError as exc:
        raise WorkbookError(
            f"{label}: {part} is not well-formed XML ({exc}): open the workbook in Excel, "
            "save it again, and retry"
        ) from None


def element_end(data: bytes, tag: Tag, stop: int = -1) -> int:
    """Index just past the element that ``tag`` (a start or empty tag) opens."""
    if tag.kind == "empty":
        return tag.end
    depth = 0
    for t in iter_tags(data, tag.end, stop):
        if t.kind == "start" and t.name == tag.name:
            depth += 1
        elif t.kind == "end" and t.name == tag.name:
            if depth == 0:
                return t.end
            depth -= 1
    raise ValueError(f"element <{tag.name.decode('ascii', 'replace')}> never ends")


def unescape(text: bytes) -> str:
    """XML text or attribute value -> str: entities, character references and CDATA."""
    s = text.decode("utf-8", "surrogateescape")
    if "<![CDATA[" in s:
        parts = []
        pos = 0
        while True:
            i = s.find("<![CDATA[", pos)
            if i < 0:
                parts.append(html.unescape(s[pos:]) if "&" in s[pos:] else s[pos:])
                break
            chunk = s[pos:i]
            parts.append(html.unescape(chunk) if "&" in chunk else chunk)
            j = s.find("]]>", i + 9)
            j = len(s) if j < 0 else j
            parts.append(s[i + 9 : j])
            pos = j + 3
        return "".join(parts)
    return html.unescape(s) if "&" in s else s


def escape_text(s: str) -> bytes:
    """str -> XML text content, a carriage return as ``&#13;``. Bytes that :func:`unescape`
    kept as surrogates (a file's text that is not UTF-8) are written back as they were: a
    cell copied or rewritten in place keeps its own bytes, and a formula that must be
    *translated* is refused before (``FormulaMoveError``)."""
    out = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if "\r" in out:  # a parser reads a raw CR as LF (XML 1.0 section 2.11)
        out = out.replace("\r", "&#13;")
    return out.encode("utf-8", "surrogateescape")


def escape_text_like(s: str, raw: bytes) -> bytes:
    """:func:`escape_text`, also spelling quotes as ``raw`` (the text it replaces) did:
    some producers write ``&quot;`` in formulas, and a restore gives back their bytes."""
    out = escape_text(s)
    if b"&quot;" in raw:
        out = out.replace(b'"', b"&quot;")
    if b"&apos;" in raw:
        out = out.replace(b"'", b"&apos;")
    return out


def escape_attr(s: str) -> bytes:
    """str -> a double-quoted attribute value (without the quotes)."""
    return escape_text(s).replace(b'"', b"&quot;")
