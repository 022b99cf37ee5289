"""A CSV/TSV or Parquet file as DuckDB reads it for a ticket draw: :func:`open_source`.

What every DuckDB pass over a file shares (the sample's draw and census, the listing of
every ticket, the population digest): the FROM item that reads it (every field as text
for a CSV/TSV list, as the list engine reads it), its columns, the rows numbered in file
order, the columns a draw's options name, checked as section 10 reads IDs and labels.
duckdb is imported when a connection is made (the ``duckdb`` extra).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import Any

from ..common.a1 import col_letters
from ..common.filekinds import is_table_file
from ..draw.errors import ListError, OptionError
from ..tabledraw.entrants import Column, find_column
from ..tabledraw.raffle_options import DrawOptions

__all__ = [
    "SPILL_LIMIT",
    "Connection",
    "Source",
    "connect",
    "is_table_file",
    "literal",
    "open_source",
    "quoted",
]

#: A DuckDB connection (Connection; not named, so that importing this module
#: never imports duckdb, not even for type checking)
Connection = Any


def literal(text: str) -> str:
    """``text`` as a SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def quoted(name: str) -> str:
    """A column name as a SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


#: The memory a pass that sorts every row may hold before it spills to disk.
SPILL_LIMIT = "512MB"


def connect(*, spill: bool = False) -> Connection:
    """A new in-memory DuckDB connection, its progress bar off; ``spill``: for a pass that
    sorts every row, held to :data:`SPILL_LIMIT` of memory, the rest spilled to a
    temporary folder DuckDB makes and removes (by default DuckDB holds up to 80% of the
    machine's memory before it spills)."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    if spill:
        folder = os.path.join(tempfile.gettempdir(), f"xlshuffle-duckdb-{os.getpid()}")
        con.execute(f"SET memory_limit = {literal(SPILL_LIMIT)}")
        con.execute(f"SET temp_directory = {literal(folder)}")
    return con


#: The column types whose text is an ID's or a label's as section 10 reads it (a float's
#: text, 42.0, would not be "42"; a date's would not be its serial number).
_TEXT_OR_WHOLE = frozenset(
    {"VARCHAR", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT"}
    | {"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
)


@dataclass(frozen=True)
class Source:
    """A file as DuckDB reads it: its FROM item, its columns, and how rows are numbered."""

    path: str
    reader: str
    names: list[str]
    types: list[str]
    delimiter: str | None  # None for Parquet

    @property
    def parquet(self) -> bool:
        return self.delimiter is None

    def numbered(self) -> str:
        """A FROM item of the rows with ``xls_row``, their 0-based place in the file."""
        if self.parquet:
            return (
                f"(SELECT *, file_row_number AS xls_row FROM "
                f"read_parquet({literal(self.path)}, file_row_number = true))"
            )
        # a CSV reader numbers rows only in one thread: the passes that need it read little
        return f"(SELECT *, row_number() OVER () - 1 AS xls_row FROM {self.reader})"

    def columns(self, opts: DrawOptions) -> dict[str, Column]:
        """The columns ``opts`` names (``id``, ``strata``, ``weights``), found by name or
        letter; an ID or a stratum column must hold texts or whole numbers."""
        named = {"id": opts.id, "strata": opts.strata, "weights": opts.weights}
        letters = [col_letters(j + 1) for j in range(len(self.names))]
        cols = {
            key: Column(given, find_column(self.path, self.names, letters, given, f"--{key}"))
            for key, given in named.items()
            if given is not None
        }
        for key in ("id", "strata"):
            if key in cols and self.types[cols[key].index] not in _TEXT_OR_WHOLE:
                raise OptionError(
                    f"{self.path}: --{key} {cols[key].given}: a column of "
                    f"{self.types[cols[key].index]} cannot hold IDs or labels here: store them "
                    "as text or whole numbers (a whole number's text is the ID, as section 10 "
                    "reads it)"
                )
        return cols

    def name(self, column: Column) -> str:
        """The column's name in the file."""
        return self.names[column.index]


def open_source(con: Connection, path: str) -> Source:
    """``path`` as DuckDB reads it (ListError for a missing file or one DuckDB cannot read
    as a table): a Parquet file as its own columns, a CSV/TSV list (a tab for ``.tsv`` and
    ``.tab``, else a comma) every field as text, the first row naming the columns."""
    if not os.path.isfile(path):
        raise ListError(f"{path}: no such file")
    if is_table_file(path):
        reader, delimiter = f"read_parquet({literal(path)})", None
    else:
        delimiter = "\t" if path.lower().endswith((".tsv", ".tab")) else ","
        reader = (
            f"read_csv({literal(path)}, delim = {literal(delimiter)}, quote = '\"', "
            "escape = '\"', header = true, all_varchar = true, null_padding = true)"
        )
    try:
        described = con.execute(f"DESCRIBE SELECT * FROM {reader}").fetchall()
    except Exception as exc:  # duckdb.Error: a file DuckDB cannot read as a table
        raise ListError(f"{path}: DuckDB cannot read it as a table: {exc}") from None
    return Source(path, reader, [d[0] for d in described], [d[1] for d in described], delimiter)
