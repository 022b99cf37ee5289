"""Small edits of a package part's XML, each changing the bytes of one element."""

from __future__ import annotations

from ...draw.errors import WorkbookError
from ..scan.xmlscan import attrs, element_end, iter_tags, local, tags_or_refuse, unescape

__all__ = ["drop_element", "insert_before_end", "not_well_formed", "root_prefix"]


def not_well_formed(label: str, part: str, what: object) -> WorkbookError:
    """The refusal of a part that does not parse, naming it and the way out."""
    return WorkbookError(
        f"{label}: part {part} is not well-formed XML ({what}): open the workbook in Excel, "
        "save it again, and retry"
    )


def root_prefix(xml: bytes, label: str, part: str) -> bytes:
    """The namespace prefix of the part's root element (``b"x:"``, or ``b""``)."""
    root = next(
        (t for t in tags_or_refuse(xml, label, f"part {part}") if t.kind in ("start", "empty")),
        None,
    )
    if root is None or xml.rstrip().rfind(b"</") < 0:
        raise not_well_formed(label, part, "no root element to add to")
    name = root.name
    return name[: name.find(b":") + 1] if b":" in name else b""


def insert_before_end(xml: bytes, element: bytes) -> bytes:
    """``xml`` with ``element`` added as the root's last child."""
    at = xml.rstrip().rfind(b"</")
    return xml[:at] + element + xml[at:]


def drop_element(xml: bytes, name: bytes, key: bytes, value: str) -> bytes:
    """``xml`` without the first ``name`` element whose attribute ``key`` is ``value``
    (case-insensitive); unchanged when there is none."""
    for tag in iter_tags(xml):
        if tag.kind in ("start", "empty") and local(tag.name) == name:
            a = attrs(xml[tag.start : tag.end])
            if unescape(a.get(key, b"")).lower() == value.lower():
                try:
                    return xml[: tag.start] + xml[element_end(xml, tag) :]
                except ValueError:
                    return xml  # an element that never ends is left for Excel to judge
    return xml
