"""A sheet's merged cells, checked as the sheet is opened: a merge whose reference is not
a range of cells is refused before any draw reads the merges.
"""

from __future__ import annotations

import re

from ...draw.errors import WorkbookError
from .refs import MAX_ROW, parse_area
from .sheet import SheetXml
from .xmlscan import local, tags_or_refuse, unescape

__all__ = ["check_merge_refs"]


def check_merge_refs(sx: SheetXml) -> None:
    """Refuse a sheet with a merge whose ``ref`` is not a range of cells written top-left
    corner first (``A1:ZZZZZ9``, ``""``, ``B2:A1``): every check that reads merges would
    skip it, and the draw would carry a merge nobody can tell the extent of.

    Raises
    ------
    WorkbookError
        Naming the sheet and the reference.
    """
    data = sx.data
    if data.find(b"mergeCell", sx.content_end) < 0:  # merges follow <sheetData>
        return
    for tag in tags_or_refuse(data, sx.label, "the sheet", sx.content_end, len(data)):
        if tag.kind not in ("start", "empty") or local(tag.name) != b"mergeCell":
            continue
        m = _REF_ATTR.search(data, tag.start, tag.end)
        raw = m[2] if m else b""
        fast = _PLAIN_RANGE.fullmatch(raw)
        if fast and _ordered(fast):  # the usual "A1:B2", without parsing each corner
            continue
        ref = unescape(raw)
        m2 = _MERGE_REF.fullmatch(ref)
        first = parse_area(m2[1]) if m2 else None
        last = parse_area(m2[2] or m2[1]) if m2 else None
        if first is None or last is None or first.top > last.top or first.left > last.left:
            raise WorkbookError(
                f"{sx.label}: merged cells with the damaged reference {ref!r} (not a range of "
                "cells such as A1:B2): open the workbook in Excel, let it repair the file, "
                "save, and retry"
            )


def _ordered(m: re.Match[bytes]) -> bool:
    c0, r0, c1, r1 = m.groups()
    return (
        int(r0) <= int(r1) <= MAX_ROW
        and (len(c0), c0) <= (len(c1), c1)
        and (len(c1) < 3 or c1 <= b"XFD")
    )


_REF_ATTR = re.compile(rb"""\sref\s*=\s*(["'])(.*?)\1""", re.S)
_PLAIN_RANGE = re.compile(rb"([A-Z]{1,3})([1-9][0-9]{0,6}):([A-Z]{1,3})([1-9][0-9]{0,6})")
_CELL_REF = r"(\$?[A-Za-z]{1,3}\$?[0-9]{1,7})"
_MERGE_REF = re.compile(_CELL_REF + "(?::" + _CELL_REF + ")?")
