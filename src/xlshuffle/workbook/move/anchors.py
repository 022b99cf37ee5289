"""Things that point at cells and travel with them: one helper per kind, one table of kinds.

After a move, merged ranges and hyperlinks of the sheet (``mergeCell@ref``,
``hyperlink@ref``), legacy comments (``comment@ref``), the VML note shapes Excel shows
them with (``<x:Row>``, ``<x:Column>``, ``<x:Anchor>``), and threaded comments
(``threadedComment@ref``) follow their cells. Data validation, conditional formatting,
defined names, charts, autofilters and print areas belong to positions, as when Excel
sorts, and stay.

A pointer whose cells do not all move the same way (a merge over two drawn rows, a
hyperlink over half a moving block) cannot follow them: that is refused, naming it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...draw.errors import WorkbookError
from ..limits import LIMITS
from ..scan.edits import spliced
from ..scan.refs import Area, parse_area
from ..scan.xmlscan import attrs, escape_attr, iter_tags, local, unescape

__all__ = ["ANCHORED", "DestOf", "moved_area", "retarget_refs", "retarget_vml"]

#: Where a cell goes: ``(row, col)`` for a moving cell, None for one that stays.
DestOf = Callable[[int, int], "tuple[int, int] | None"]


def moved_area(
    area: Area, dest_of: DestOf, what: str, *, bounds: Area, axis: str = ""
) -> Area | None:
    """The new place of ``area`` when all its cells move alike; None when none moves.

    ``bounds`` holds every moving cell (the cells of ``area`` outside it stay); ``axis``
    says that inside the bounds a cell's move does not depend on its column (``"rows"``)
    or on its row (``"cols"``). So the cost follows the cells that can tell, not the cells
    the area claims: a merge across a whole row costs one look in a whole-row draw, and the
    first disagreement refuses.

    Raises
    ------
    WorkbookError
        Some of its cells move and others do not, or they move apart.
    """
    top, left, bottom, right = area
    if not bounds.overlaps(area):
        return None
    t, lf, b, r = bounds
    top, left, bottom, right = max(top, t), max(left, lf), min(bottom, b), min(right, r)
    partial = (top, left, bottom, right) != tuple(area)
    rows = range(top, bottom + 1) if axis != "cols" else range(top, top + 1)
    cols = range(left, right + 1) if axis != "rows" else range(left, left + 1)
    shifts: set[tuple[int, int]] = set()
    stays = partial
    for r in rows:
        for c in cols:
            d = dest_of(r, c)
            if d is None:
                stays = True
            else:
                shifts.add((d[0] - r, d[1] - c))
            if shifts and (stays or len(shifts) > 1):
                break
        else:
            continue
        break
    if not shifts:
        return None
    if stays or len(shifts) > 1:
        raise WorkbookError(
            f"{what} {area.a1()} covers cells that the draw moves apart: "
            + (
                "unmerge it (Home > Merge & Center) or choose a selection that leaves it out"
                if what.endswith("merged cells")
                else "remove it or choose a selection that leaves it out"
            )
        )
    ((dr, dc),) = shifts
    return Area((top + dr, left + dc, bottom + dr, right + dc))


@dataclass
class _Kind:
    element: bytes
    attribute: bytes
    what: str


#: The kinds of element whose ``ref`` follows its cells, by the part they live in.
ANCHORED = {
    "sheet": (
        _Kind(b"mergeCell", b"ref", "merged cells"),
        _Kind(b"hyperlink", b"ref", "hyperlink"),
    ),
    "comments": (_Kind(b"comment", b"ref", "comment"),),
    "threadedComments": (_Kind(b"threadedComment", b"ref", "threaded comment"),),
}


def retarget_refs(
    xml: bytes,
    kinds: tuple[_Kind, ...],
    dest_of: DestOf,
    label: str,
    start: int = 0,
    *,
    bounds: Area,
    axis: str = "",
) -> bytes | None:
    """``xml`` with the anchored ``ref``s moved, or None when nothing moved (``bounds`` and
    ``axis`` as in :func:`moved_area`)."""
    edits: list[tuple[int, int, bytes]] = []
    names = {k.element: k for k in kinds}
    count = 0
    try:
        tags = list(iter_tags(xml, start))
    except ValueError as exc:
        raise WorkbookError(f"{label} is not well-formed XML ({exc})") from None
    for tag in tags:
        kind = names.get(local(tag.name)) if tag.kind in ("start", "empty") else None
        if kind is None:
            continue
        count += 1
        if count > LIMITS.max_anchors:
            raise WorkbookError(
                f"{label} lists more than {LIMITS.max_anchors:,} {kind.what} entries: raise "
                "the limit (--max-ranges N, workbook.raised(max_anchors=N)) if the workbook "
                "is genuine"
            )
        edit = _moved_ref(xml[tag.start : tag.end], kind, dest_of, label, bounds, axis)
        if edit is not None:
            edits.append((tag.start + edit[0], tag.start + edit[1], edit[2]))
    return spliced(xml, edits) if edits else None


def _moved_ref(
    head: bytes, kind: _Kind, dest_of: DestOf, label: str, bounds: Area, axis: str
) -> tuple[int, int, bytes] | None:
    """The edit (offsets in ``head``) that moves the anchor of one start tag, or None."""
    raw = attrs(head).get(kind.attribute)
    area = None if raw is None else parse_area(unescape(raw))
    if area is None:
        return None
    new = moved_area(area, dest_of, f"{label}: {kind.what}", bounds=bounds, axis=axis)
    if new is None:
        return None
    m = re.search(rb"\s" + kind.attribute + rb"\s*=\s*([\"'])[^\"']*\1", head)
    if m is None:
        return None
    return m.start(), m.end(), b" " + kind.attribute + b'="' + escape_attr(new.a1()) + b'"'


_CLIENT = re.compile(rb"<(?:[\w.-]+:)?ClientData\b[^<>]*>")
_FIELD = re.compile(rb"<((?:[\w.-]+:)?)(Row|Column|Anchor)>([^<]*)</\1\2>")
_NUMBER = re.compile(rb"-?\d+")


def retarget_vml(vml: bytes, dest_of: DestOf) -> bytes | None:
    """The legacy VML drawing with note shapes moved with their cells (``<x:Row>`` and
    ``<x:Column>`` are 0-based; the anchor's rows and columns shift alike)."""
    out, pos, changed = [], 0, False
    for m in _CLIENT.finditer(vml):
        end = vml.find(b"ClientData>", m.end())
        if end < 0:
            break
        block = vml[m.end() : end]
        fields = {f[2]: f for f in _FIELD.finditer(block)}
        row, col = fields.get(b"Row"), fields.get(b"Column")
        if (
            row is None
            or col is None
            or not row[3].strip().isdigit()
            or not col[3].strip().isdigit()
        ):
            continue
        r, c = int(row[3]) + 1, int(col[3]) + 1
        d = dest_of(r, c)
        if d is None:
            continue
        dr, dc = d[0] - r, d[1] - c
        new_block = block
        for f in sorted(fields.values(), key=lambda f: -f.start()):
            # only the numbers change: Excel writes the anchor on its own indented line,
            # and the spacing is kept so that a restore gives back the input's bytes
            value = f[3]
            if f[2] == b"Row":
                value = _NUMBER.sub(b"%d" % (d[0] - 1), value, count=1)
            elif f[2] == b"Column":
                value = _NUMBER.sub(b"%d" % (d[1] - 1), value, count=1)
            else:
                nums = _NUMBER.findall(value)
                if len(nums) == 8 and not _NUMBER.sub(b"", value).replace(b",", b"").strip():
                    shifts = iter((dc, 0, dr, 0, dc, 0, dr, 0))
                    value = _NUMBER.sub(lambda n, s=shifts: b"%d" % (int(n[0]) + next(s)), value)
            tag = f[1] + f[2]
            new_block = (
                new_block[: f.start()]
                + b"<"
                + tag
                + b">"
                + value
                + b"</"
                + tag
                + b">"
                + new_block[f.end() :]
            )
        out.append(vml[pos : m.end()])
        out.append(new_block)
        pos = end
        changed = True
    if not changed:
        return None
    out.append(vml[pos:])
    return b"".join(out)
