"""What cannot move: the refusals of a selection whose cells a draw cannot move correctly
(a protected sheet, merges across drawn rows, tables cut by the selection, pivot tables,
array formulas), one table of rules for the file engine and the openpyxl adapter alike.
Each refusal names the cell or range and what to do."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ...draw.errors import WorkbookError
from ...draw.grid import Mode
from ..package.parts import Book
from ..scan.refs import Area, parse_area
from ..scan.sheet import SheetXml
from ..scan.xmlscan import attrs, local, tags_or_refuse, unescape
from ..selection.select import Selection

__all__ = [
    "FILE_FIXES",
    "MEMORY_FIXES",
    "Fixes",
    "TableFound",
    "check_movable",
    "check_unprotected",
    "refuse_immovable",
]


# --------------------------------------------------------------------- the table of refusals
# What cannot move is decided here, on areas, for both engines: the file engine finds the
# merges, tables, pivot tables and array formulas in the sheet's XML (below), the openpyxl
# adapter (``workbook.inmemory.rules``) in what openpyxl holds; both call
# :func:`refuse_immovable`, so a rule and its message are written once.


@dataclass(frozen=True)
class Fixes:
    """How a front end names the way out of each refusal: the command line (a file's draw)
    and the keywords of ``shuffle_worksheet`` (a worksheet in memory) say it differently."""

    #: after "is protected: "
    unprotect: str
    #: after "merged cells ... span cells the draw moves apart: "
    unmerge: str
    #: after "the selection cuts through table T (A1:C9): use "; ``{name}`` is the table's
    whole_table: str
    #: after "holds an array formula ..., which cannot move cell by cell: "
    values: str


#: The command line's fixes (a workbook file drawn by ``xlshuffle`` or ``shuffle_workbook``).
FILE_FIXES = Fixes(
    unprotect="unprotect it in Excel (Review > Unprotect Sheet), save, and retry",
    unmerge="unmerge them (Home > Merge & Center) or choose a selection without them",
    whole_table="--table {name}, or a range inside its data rows covering all its columns",
    values="replace it with its values (Copy, Paste Values) or leave it out of the selection",
)
#: ``shuffle_worksheet``'s fixes (its keywords, and openpyxl instead of Excel's menus).
MEMORY_FIXES = Fixes(
    unprotect="unprotect it first",
    unmerge="unmerge them or choose a selection without them",
    whole_table="table={name!r}, or cells= inside its data rows covering all its columns",
    values="replace it with its values or leave it out of the selection",
)


@dataclass(frozen=True)
class TableFound:
    """A table of the sheet as a refusal sees it: its name, its ``ref`` as written, its
    area (None when the ref is not a range) and whether it is the selection's own table."""

    name: str
    ref: str
    area: Area | None
    selected: bool


def refuse_immovable(
    where: str,
    sel: Selection,
    mode: Mode,
    fixes: Fixes,
    *,
    protected: bool,
    merges: Iterable[Area],
    tables: Iterable[TableFound],
    pivots: Iterable[Area],
    arrays: Iterable[tuple[Area, bool]],
) -> None:
    """Refuse, in this order and naming the cell or range, a selection whose cells cannot
    move correctly.

    ``where`` names the sheet (``book.xlsx: sheet 'Data'``). Each of ``merges``,
    ``tables``, ``pivots`` and ``arrays`` (an array formula's or a data table's area, and
    whether it is a data table) is read only when the refusals before it have passed, so
    an engine may find them lazily. ``fixes`` says how the caller's front end gets out.

    Raises
    ------
    WorkbookError
        At the first refusal.
    """
    if protected:
        raise WorkbookError(f"{where} is protected: {fixes.unprotect}")
    if sel.moves_nothing(mode):
        return
    _refuse_merges(where, sel, mode, merges, fixes)
    _refuse_tables(where, sel, mode, tables, fixes)
    for area in pivots:  # a pivot table refreshes its own cells
        if sel.moves_any_of(area, mode):
            raise WorkbookError(
                f"{where}: pivot table output {area.a1()} lies in the selection: "
                "choose a range without it (a pivot table refreshes its own cells)"
            )
    for area, data_table in arrays:  # array formulas, spills and data tables
        if sel.moves_any_of(area, mode):
            kind = "a data table" if data_table else "an array formula or spill"
            raise WorkbookError(
                f"{where}: {area.a1()} holds {kind}, which cannot move cell by cell: {fixes.values}"
            )


def _refuse_merges(
    where: str, sel: Selection, mode: Mode, merges: Iterable[Area], fixes: Fixes
) -> None:
    """A merge may travel with its row (one row, inside the moving columns), not be cut."""
    region = sel.moving_area(mode)
    for area in merges:
        one_row_travels = (
            mode == "rows"
            and area.top == area.bottom
            and (sel.whole_rows or (region.left <= area.left and area.right <= region.right))
        )
        if region.overlaps(area) and not one_row_travels:
            raise WorkbookError(
                f"{where}: merged cells {area.a1()} span cells the draw moves apart: "
                f"{fixes.unmerge}"
            )


def _refuse_tables(
    where: str, sel: Selection, mode: Mode, tables: Iterable[TableFound], fixes: Fixes
) -> None:
    """Another table in the moving cells, or a table's columns reordered."""
    for table in tables:
        if table.area is not None and not table.selected and sel.moves_any_of(table.area, mode):
            raise WorkbookError(
                f"{where}: the selection cuts through table {table.name} ({table.ref}): use "
                + fixes.whole_table.format(name=table.name)
            )
    if sel.table is not None and mode == "columns":
        raise WorkbookError(
            f"{where}: moving whole columns would reorder table {sel.table.name} "
            f"({sel.table.ref}), whose column list Excel keeps separately: shuffle its rows, "
            "or convert it to a range in Excel first"
        )


# ------------------------------------------------------------- what the sheet's XML holds


def _tail_elements(sx: SheetXml, names: set[bytes]) -> list[tuple[bytes, dict[bytes, bytes]]]:
    out = []
    data = sx.data
    for where in ((0, sx.content_start), (sx.content_end, len(data))):
        for tag in tags_or_refuse(data, sx.label, "the sheet", *where):
            if tag.kind in ("start", "empty") and local(tag.name) in names:
                out.append((local(tag.name), attrs(data[tag.start : tag.end])))
    return out


def _protected(sx: SheetXml) -> bool:
    return any(
        a.get(b"sheet", b"0") in (b"1", b"true")
        for _, a in _tail_elements(sx, {b"sheetProtection"})
    )


def check_unprotected(book: Book, sx: SheetXml, sel: Selection) -> None:
    """Refuse a protected sheet: a draw writes into it (moved cells, a group column),
    which its protection forbids in Excel."""
    if _protected(sx):
        raise WorkbookError(
            f"{book.label}: sheet {sel.sheet.name!r} is protected: {FILE_FIXES.unprotect}"
        )


def check_movable(book: Book, sx: SheetXml, sel: Selection, mode: Mode) -> None:
    """Refuse, naming the cell or range, a selection whose cells cannot move correctly."""
    refuse_immovable(
        f"{book.label}: sheet {sel.sheet.name!r}",
        sel,
        mode,
        FILE_FIXES,
        protected=_protected(sx),
        merges=_merges(sx),
        tables=_tables(book, sel),
        pivots=_pivots(book, sel),
        arrays=_arrays(sx),
    )


def _merges(sx: SheetXml) -> Iterator[Area]:
    for _, a in _tail_elements(sx, {b"mergeCell"}):
        area = parse_area(unescape(a.get(b"ref", b"")))
        if area is not None:
            yield area


def _tables(book: Book, sel: Selection) -> Iterator[TableFound]:
    for table in book.tables(sel.sheet):
        selected = sel.table is not None and table.part == sel.table.part
        yield TableFound(table.name, table.ref, parse_area(table.ref), selected)


def _pivots(book: Book, sel: Selection) -> Iterator[Area]:
    """The output areas of the sheet's pivot tables."""
    for rel in book.rels(sel.sheet.part):
        if rel.type != "pivotTable" or rel.external or book.pkg.find(rel.target) is None:
            continue
        xml = book.read(book.pkg.find(rel.target) or rel.target)
        for tag in tags_or_refuse(xml, book.label, f"part {rel.target}"):
            if local(tag.name) == b"location" and tag.kind in ("start", "empty"):
                area = parse_area(unescape(attrs(xml[tag.start : tag.end]).get(b"ref", b"")))
                if area is not None:
                    yield area
                break


# [^<>] keeps each try inside one tag and nothing follows the type but a possessive run:
# linear, where [^>]*?...[^>]*> went cubic on "<f t='array' " repeated without a ">".
_ARRAY = re.compile(rb"<(?:[\w.-]+:)?f\s[^<>]*?\bt\s*=\s*[\"'](array|dataTable)[\"'][^<>]*+")
_REF = re.compile(rb"\sref\s*=\s*[\"']([^\"']*)[\"']")


def _arrays(sx: SheetXml) -> Iterator[tuple[Area, bool]]:
    """Array formulas, dynamic-array spills and data tables: each one's area, and whether
    it is a data table."""
    data, start, end = sx.data, sx.content_start, sx.content_end
    # the common case, found at memchr speed: a byte of each word first ("y" and "T" are
    # rare in a sheet's rows; a longer word's search runs many times slower)
    if (data.find(b"y", start, end) < 0 or data.find(b"array", start, end) < 0) and (
        data.find(b"T", start, end) < 0 or data.find(b"dataTable", start, end) < 0
    ):
        return
    for m in _ARRAY.finditer(data, sx.content_start, sx.content_end):
        ref = _REF.search(m[0])
        area = parse_area(unescape(ref[1])) if ref else None
        if area is not None:
            yield area, m[1] == b"dataTable"
