"""The selection and the refusals of :func:`~.inmemory.shuffle_worksheet`, read from an
openpyxl worksheet: the rules of the file engine (:mod:`.selection`, :mod:`.move.refusals`)
applied to what openpyxl holds instead of to the sheet's XML."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ...draw.errors import OptionError, WorkbookError
from ...draw.grid import Mode
from ..move.refusals import MEMORY_FIXES, TableFound, refuse_immovable
from ..package.parts import SheetInfo, TableInfo
from ..scan.refs import MAX_COL, MAX_ROW, Area, parse_area, quote_sheet
from ..selection.layout import Cell, Rows, find_data, trim_blank_tail
from ..selection.options import parse_columns
from ..selection.select import Selection

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["check_worksheet", "selection_of"]


def _used(ws: Worksheet) -> Area:
    keys = [k for k, cell in ws._cells.items() if cell._value is not None]
    if not keys:
        return Area((1, 1, 0, 1))
    rows = [r for r, _ in keys]
    cols = [c for _, c in keys]
    return Area((min(rows), min(cols), max(rows), max(cols)))


class _WorksheetRows(Rows):
    """Rows ``top..bottom`` of a worksheet, for the layout rules of :mod:`.layout`. A
    formula is read as a formula (openpyxl holds no cached value), not as its value."""

    def __init__(self, ws: Worksheet, used: Area) -> None:
        self.ws = ws
        self.numbers = range(used.top, used.bottom + 1)
        self._rows: dict[int, list[tuple[int, Any]]] = {}
        for (r, c), cell in ws._cells.items():
            if cell._value is not None and used.top <= r <= used.bottom:
                self._rows.setdefault(r, []).append((c, cell))

    def cells(self, i: int) -> list[Cell]:
        out: list[Cell] = []
        for c, cell in sorted(self._rows.get(self.numbers[i], []), key=lambda x: x[0]):
            v, t = cell._value, cell.data_type
            if t == "f":
                text = v if isinstance(v, str) else str(getattr(v, "text", "") or "")
                out.append((c, "formula", "", text.lstrip("=")))
            elif t == "e":
                out.append((c, "error", "", ""))
            elif isinstance(v, bool):
                out.append((c, "bool", "", ""))
            elif isinstance(v, str) or t in ("s", "inlineStr"):
                out.append((c, "text", str(v), ""))
            else:
                out.append((c, "number", "", ""))
        return out

    def merges(self) -> list[Area]:
        return [
            Area((m.min_row, m.min_col, m.max_row, m.max_col)) for m in self.ws.merged_cells.ranges
        ]

    def first_blank(self, i0: int, i1: int) -> int | None:
        return next((r for r in self.numbers[i0 : i1 + 1] if r not in self._rows), None)

    def last_blank(self, number: int) -> int:
        while number + 1 <= self.numbers[-1] and number + 1 not in self._rows:
            number += 1
        return number

    def columns(self, i0: int, i1: int) -> tuple[int, int]:
        cols = [c for r in self.numbers[i0 : i1 + 1] for c, _ in self._rows.get(r, [])]
        return (min(cols), max(cols)) if cols else (1, 1)


def selection_of(
    ws: Worksheet,
    *,
    cells: str | None,
    table: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    keep_blank: bool = False,
) -> Selection:
    """The selection, as :mod:`xlshuffle.workbook.selection.select` chooses it for a file
    (whole rows only for the default selection of a sheet without tables)."""
    if sum(x is not None for x in (cells, table, columns)) > 1:
        raise OptionError("give at most one of cells, table and columns")
    tables = list(dict.values(ws.tables))  # TableList.items() gives refs, not tables
    if table is None and cells is None and columns is None and len(tables) == 1:
        table = tables[0].name
    if table is not None:
        return _table_selection(ws, tables, table, header)
    used = _used(ws)
    if columns is not None:
        return _columns_selection(ws, used, parse_columns(columns), header)
    if cells is not None:
        return _range_selection(ws, used, cells, header)
    top, bottom = used.top, used.bottom
    if bottom >= top and not tables:
        rows = _WorksheetRows(ws, used)
        found = find_data(
            rows,
            0,
            len(rows.numbers) - 1,
            header=header is not False,
            where=f"sheet {ws.title!r}",
            keep_blank=keep_blank,
        )
        top, bottom = rows.numbers[found.top], rows.numbers[found.bottom]
        left, right = rows.columns(found.top, found.bottom)
        used = Area((top, left, bottom, right))
    cols = list(range(used.left, used.right + 1))
    return _selection(ws, "sheet", top, bottom, cols, True if header is None else header, True)


def _selection(
    ws: Worksheet,
    kind: str,
    top: int,
    bottom: int,
    cols: list[int],
    head: bool,
    whole: bool,
    tbl: TableInfo | None = None,
) -> Selection:
    where = Area((top, cols[0] if cols else 1, max(top, bottom), cols[-1] if cols else 1))
    return Selection(
        sheet=SheetInfo(ws.title, "", "worksheet", ws.sheet_state),
        kind=kind,
        top=top,
        bottom=bottom,
        cols=cols,
        header=head,
        whole_rows=whole,
        label=f"{quote_sheet(ws.title)}!{where.a1()}",
        table=tbl,
    )


def _table_selection(
    ws: Worksheet, tables: list[Any], table: str, header: bool | None
) -> Selection:
    """``table=``: its rows (the totals row left out) and columns; exact name first."""
    tbl = next((t for t in tables if t.name == table), None) or next(
        (t for t in tables if t.name.lower() == table.lower()), None
    )
    if tbl is None:
        raise OptionError(f"sheet {ws.title!r} has no table named {table!r}")
    area = parse_area(tbl.ref)
    if area is None:
        raise WorkbookError(f"table {tbl.name} has no readable range")
    head, totals = tbl.headerRowCount != 0, tbl.totalsRowCount or 0
    info = TableInfo(tbl.name, tbl.ref, int(head), totals, "")
    cols = list(range(area.left, area.right + 1))
    head = head if header is None else header
    return _selection(ws, "table", area.top, area.bottom - totals, cols, head, False, info)


def _columns_selection(
    ws: Worksheet, used: Area, cols: list[int], header: bool | None
) -> Selection:
    """``columns=``: those columns over the used rows, without the rows at the end blank
    in them."""
    bottom = used.bottom
    if used.bottom >= used.top:
        rows = _WorksheetRows(ws, used)
        last, _ = trim_blank_tail(rows, 0, len(rows.numbers) - 1, cols)
        bottom = rows.numbers[last]
    return _selection(
        ws, "columns", used.top, bottom, cols, True if header is None else header, False
    )


def _range_selection(ws: Worksheet, used: Area, cells: str, header: bool | None) -> Selection:
    """``cells=``: an A1 range; whole columns or rows span the used range."""
    area = parse_area(cells.replace("$", ""))
    if area is None:
        raise OptionError(f"cells {cells!r} is not an A1 range such as 'A2:D200'")
    top, left, bottom, right = area
    if bottom - top + 1 == MAX_ROW:
        top, bottom = used.top, used.bottom
    if right - left + 1 == MAX_COL:
        left, right = used.left, used.right
    return _selection(ws, "range", top, bottom, list(range(left, right + 1)), bool(header), False)


def check_worksheet(ws: Worksheet, sel: Selection, mode: Mode) -> None:
    """The refusals of the file engine (:func:`~..move.refusals.refuse_immovable`, one
    table of rules for both), on what openpyxl holds."""
    refuse_immovable(
        f"sheet {ws.title!r}",
        sel,
        mode,
        MEMORY_FIXES,
        protected=bool(ws.protection.sheet),
        merges=(
            Area((rng.min_row, rng.min_col, rng.max_row, rng.max_col))
            for rng in ws.merged_cells.ranges
        ),
        tables=(
            TableFound(
                tbl.name,
                tbl.ref,
                parse_area(tbl.ref),
                sel.table is not None and tbl.name == sel.table.name,
            )
            for tbl in dict.values(ws.tables)
        ),
        pivots=_pivots(ws),
        arrays=_arrays(ws),
    )


def _pivots(ws: Worksheet) -> Iterator[Area]:
    for pivot in getattr(ws, "_pivots", ()):  # openpyxl lists them nowhere public
        out = parse_area(str(getattr(pivot.location, "ref", "") or ""))
        if out is not None:
            yield out


def _arrays(ws: Worksheet) -> Iterator[tuple[Area, bool]]:
    from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula

    for cell in ws._cells.values():
        value = cell.value
        if isinstance(value, ArrayFormula | DataTableFormula):
            spans = parse_area(str(value.ref or "")) or Area((cell.row, cell.column) * 2)
            yield spans, isinstance(value, DataTableFormula)
