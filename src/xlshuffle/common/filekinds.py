"""Which engine reads a file, told by its name: a workbook, a CSV/TSV list, a Parquet table.

One place for the extensions, read by the command line (the files a folder holds), the
draw runner (which engine draws a request) and the engines. It imports nothing, so that a
run decides without loading the engines it does not use.

Examples
--------
>>> is_list("entrants.CSV"), is_list("book.xlsx"), is_table_file("big.parquet")
(True, False, True)
"""

from __future__ import annotations

import os

__all__ = [
    "LIST_EXTENSIONS",
    "TABLE_EXTENSIONS",
    "WORKBOOK_EXTENSIONS",
    "is_list",
    "is_table_file",
]

#: Workbooks the workbook engine reads (macro-enabled files and templates too).
WORKBOOK_EXTENSIONS = (".xlsx", ".xlsm", ".xltx", ".xltm")
#: CSV/TSV lists, which the list engine reads (and DuckDB, when asked).
LIST_EXTENSIONS = (".csv", ".tsv", ".tab")
#: Files only the DuckDB engine reads.
TABLE_EXTENSIONS = (".parquet", ".parq")


def is_list(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a CSV/TSV list (by its extension, in any case)."""
    return os.fspath(path).lower().endswith(LIST_EXTENSIONS)


def is_table_file(path: str | os.PathLike[str]) -> bool:
    """Whether only the DuckDB engine reads ``path`` (a Parquet file)."""
    return os.fspath(path).lower().endswith(TABLE_EXTENSIONS)
