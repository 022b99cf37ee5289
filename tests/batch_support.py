"""Read-back helpers shared by the batch-mode tests."""

from __future__ import annotations

import copy
import hashlib
import shutil
from pathlib import Path
from typing import Any

import openpyxl

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def copy_fixture(name: str, folder: Path) -> Path:
    """Copy a fixture into ``folder`` so a test can never change the committed one."""
    dst = folder / name
    shutil.copyfile(FIXTURES / name, dst)
    return dst


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(path: Path, **kw: Any) -> openpyxl.Workbook:
    return openpyxl.load_workbook(path, rich_text=True, **kw)


def cell_state(cell: Any) -> tuple[Any, ...]:
    """Everything a moved cell must carry: value, style, hyperlink and comment."""
    link = cell.hyperlink.target if cell.hyperlink is not None else None
    comment = cell.comment.text if cell.comment is not None else None
    # openpyxl writes a cell holding "" as a blank cell: the one difference its own
    # round trip makes to values, so it is not counted as a change here.
    value = None if cell.value == "" else cell.value
    if hasattr(value, "ref") and hasattr(value, "text"):  # ArrayFormula: compare by content
        value = (type(value).__name__, value.ref, value.text)
    elif type(value).__name__ == "DataTableFormula":
        value = (type(value).__name__, dict(value))
    return (
        value,
        cell.data_type if value is not None else None,
        # StyleProxy does not compare by value: compare copies of the style objects
        copy.copy(cell.font),
        copy.copy(cell.fill),
        copy.copy(cell.border),
        copy.copy(cell.alignment),
        cell.number_format,
        copy.copy(cell.protection),
        link,
        comment,
    )


def sheet_state(ws: Any) -> dict[tuple[int, int], tuple[Any, ...]]:
    """Every stored cell of a sheet, by (row, column)."""
    return {key: cell_state(cell) for key, cell in ws._cells.items()}


def grid(ws: Any, rows: range, cols: range) -> list[list[Any]]:
    return [[ws.cell(r, c).value for c in cols] for r in rows]


def state_at(ws: Any, row: int, col: int) -> tuple[Any, ...]:
    """The state of a position, blank or not (reading it creates a default cell)."""
    return cell_state(ws.cell(row, col))
