"""The shape of a range argument: a single row's cells are its items, else its rows are."""

from __future__ import annotations

from typing import Any

from .arguments import Rows

__all__ = ["first_column", "is_row", "items"]


def is_row(rows: Rows) -> bool:
    """Whether the range is a single row of several cells: its cells are the items."""
    return len(rows) == 1 and len(rows[0]) > 1


def items(rows: Rows) -> tuple[int, str]:
    """How many items the data holds, and what one is called in a message."""
    return (len(rows[0]), "cell") if is_row(rows) else (len(rows), "row")


def first_column(rows: Rows) -> list[Any]:
    """The IDs when ``ids`` is omitted: the first column of data (a row's cells)."""
    return list(rows[0]) if is_row(rows) else [row[0] for row in rows]
