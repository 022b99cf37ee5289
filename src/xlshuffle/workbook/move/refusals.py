"""What cannot move: the refusals of a selection whose cells a draw cannot move correctly
(a protected sheet, merges across drawn rows, array formulas, pivot tables, tables cut by
the selection) and of a sheet whose merge references are damaged. Each refusal names the
cell or range and what to do."""

from __future__ import annotations

import re

from ...draw.errors import WorkbookError
from ...draw.grid import Mode
from ..package.parts import Book
from ..scan.refs import parse_area
from ..scan.sheet import SheetXml
from ..scan.xmlscan import attrs, local, tags_or_refuse, unescape
from ..selection.select import Selection

__all__ = ["check_movable", "check_unprotected"]


def _tail_elements(sx: SheetXml, names: set[bytes]) -> list[tuple[bytes, dict[bytes, bytes]]]:
    out = []
    data = sx.data
    for where in ((0, sx.content_start), (sx.content_end, len(data))):
        for tag in tags_or_refuse(data, sx.label, "the sheet", *where):
            if tag.kind in ("start", "empty") and local(tag.name) in names:
                out.append((local(tag.name), attrs(data[tag.start : tag.end])))
    return out


def check_unprotected(book: Book, sx: SheetXml, sel: Selection) -> None:
    """Refuse a protected sheet: a draw writes into it (moved cells, a group column),
    which its protection forbids in Excel."""
    for _, a in _tail_elements(sx, {b"sheetProtection"}):
        if a.get(b"sheet", b"0") in (b"1", b"true"):
            raise WorkbookError(
                f"{book.label}: sheet {sel.sheet.name!r} is protected: unprotect it in Excel "
                "(Review > Unprotect Sheet), save, and retry"
            )


def check_movable(book: Book, sx: SheetXml, sel: Selection, mode: Mode) -> None:
    """Refuse, naming the cell or range, a selection whose cells cannot move correctly."""
    where = f"{book.label}: sheet {sel.sheet.name!r}"
    check_unprotected(book, sx, sel)
    if sel.moves_nothing(mode):
        return
    _check_merges(sx, sel, mode, where)
    _check_tables(book, sel, mode, where)
    _check_pivots(book, sel, mode, where)
    _check_arrays(sx, sel, mode, where)


def _check_merges(sx: SheetXml, sel: Selection, mode: Mode, where: str) -> None:
    """A merge may travel with its row (one row, inside the moving columns), not be cut."""
    region = sel.moving_area(mode)
    for _, a in _tail_elements(sx, {b"mergeCell"}):
        area = parse_area(unescape(a.get(b"ref", b"")))
        if area is None or not region.overlaps(area):
            continue
        one_row_travels = (
            mode == "rows"
            and area.top == area.bottom
            and (sel.whole_rows or (region.left <= area.left and area.right <= region.right))
        )
        if not one_row_travels:
            raise WorkbookError(
                f"{where}: merged cells {area.a1()} span cells the draw moves apart: unmerge "
                "them (Home > Merge & Center) or choose a selection without them"
            )


def _check_tables(book: Book, sel: Selection, mode: Mode, where: str) -> None:
    """Another table in the moving cells, or a table's columns reordered."""
    for table in book.tables(sel.sheet):
        area = parse_area(table.ref)
        if area is None or (sel.table is not None and table.part == sel.table.part):
            continue
        if sel.moves_any_of(area, mode):
            raise WorkbookError(
                f"{where}: the selection cuts through table {table.name} ({table.ref}): use "
                f"--table {table.name}, or a range inside its data rows covering all its columns"
            )
    if sel.table is not None and mode == "columns":
        raise WorkbookError(
            f"{where}: moving whole columns would reorder table {sel.table.name} "
            f"({sel.table.ref}), whose column list Excel keeps separately: shuffle its rows, "
            "or convert it to a range in Excel first"
        )


def _check_pivots(book: Book, sel: Selection, mode: Mode, where: str) -> None:
    """A pivot table's output in the moving cells (it refreshes its own cells)."""
    for rel in book.rels(sel.sheet.part):
        if rel.type != "pivotTable" or rel.external or book.pkg.find(rel.target) is None:
            continue
        xml = book.read(book.pkg.find(rel.target) or rel.target)
        for tag in tags_or_refuse(xml, book.label, f"part {rel.target}"):
            if local(tag.name) == b"location" and tag.kind in ("start", "empty"):
                area = parse_area(unescape(attrs(xml[tag.start : tag.end]).get(b"ref", b"")))
                if area is not None and sel.moves_any_of(area, mode):
                    raise WorkbookError(
                        f"{where}: pivot table output {area.a1()} lies in the selection: "
                        "choose a range without it (a pivot table refreshes its own cells)"
                    )
                break


# [^<>] keeps each try inside one tag and nothing follows the type but a possessive run:
# linear, where [^>]*?...[^>]*> went cubic on "<f t='array' " repeated without a ">".
_ARRAY = re.compile(rb"<(?:[\w.-]+:)?f\s[^<>]*?\bt\s*=\s*[\"'](array|dataTable)[\"'][^<>]*+")
_REF = re.compile(rb"\sref\s*=\s*[\"']([^\"']*)[\"']")


def _check_arrays(sx: SheetXml, sel: Selection, mode: Mode, where: str) -> None:
    """Array formulas, dynamic-array spills and data tables cannot move cell by cell."""
    data = sx.data
    if data.find(b"array", sx.content_start, sx.content_end) < 0 and (
        data.find(b"dataTable", sx.content_start, sx.content_end) < 0
    ):
        return  # the common case, found at memchr speed
    for m in _ARRAY.finditer(data, sx.content_start, sx.content_end):
        ref = _REF.search(m[0])
        area = parse_area(unescape(ref[1])) if ref else None
        if area is None:
            continue
        if sel.moves_any_of(area, mode):
            kind = "a data table" if m[1] == b"dataTable" else "an array formula or spill"
            raise WorkbookError(
                f"{where}: {area.a1()} holds {kind}, which cannot move cell by cell: "
                "replace it with its values (Copy, Paste Values) or leave it out of the selection"
            )
