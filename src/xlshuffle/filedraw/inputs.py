"""How an input of a table draw (``orders``' items and IDs) is read: as a list or a text
file by the list engine (:func:`table_reader` gives None), or from a workbook's range or
column by the workbook engine, which is imported only for a workbook."""

from __future__ import annotations

from ..draw.errors import OptionError
from ..lists.orders import Reader

__all__ = ["WORKBOOK_EXTENSIONS", "is_workbook", "table_reader"]

#: File name endings read as workbooks (any case).
WORKBOOK_EXTENSIONS = (".xlsx", ".xlsm", ".xltx", ".xltm")


def is_workbook(path: str) -> bool:
    """Whether ``path`` names a workbook, by its extension."""
    return path.lower().endswith(WORKBOOK_EXTENSIONS)


def table_reader(path: str, cells: str | None, option: str) -> Reader | None:
    """How ``path``'s values are read: None for a list or text file (which ``cells``, the
    range given with ``option``, cannot name), or a reader of the workbook's range or of
    the column the draw names."""
    if not is_workbook(path):
        if cells is not None:
            raise OptionError(f"{option} is for a workbook; {path} is read as a list or text")
        return None
    from ..workbook.plaintables import range_values

    def read(p: object, column: str | None, col_option: str) -> tuple[list[str], str]:
        if cells is not None and column is not None:
            raise OptionError(f"{p}: give {option} or {col_option}, not both")
        given = option if cells is not None else col_option
        return range_values(str(p), cells=cells, column=column, option=given)

    return read
