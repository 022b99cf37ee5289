"""The population digest of a ticket draw's file, computed by DuckDB (section 18, step 5).

What a committed ticket draw on a file too big for memory fixes besides the list's rows:
the SHA-256 of its entrants' sorted lines (the canonical ID, and with weights or one
entry per ID a tab and the entrant's ticket count), by the query of
:func:`~xlshuffle.sql.query.population_query`, streamed over the file.
"""

from __future__ import annotations

from ..draw.errors import ListError
from ..tabledraw.raffle_options import DrawOptions
from .query import TicketSQL, population_query
from .source import connect, open_source

__all__ = ["file_population"]


def file_population(path: str, opts: DrawOptions) -> tuple[str, int]:
    """The population digest of the ticket draw ``opts`` on the CSV/TSV or Parquet file
    at ``path``, and the number of its entrants (ListError for an ID or a weight the draw
    refuses, or a file DuckDB cannot read)."""
    con = connect()
    src = open_source(con, path)
    cols = src.columns(opts)
    draw = TicketSQL(
        table=src.reader,
        id=src.name(cols["id"]),
        seed="population",  # the digest does not depend on the seed
        weights=None if "weights" not in cols else src.name(cols["weights"]),
        scale=opts.weight_scale or 1,
        grouped=opts.one_entry_per_id,
    )
    try:
        digest, entrants = con.execute(population_query(draw, "duckdb", count=True)).fetchone()
    except Exception as exc:  # duckdb.Error, raised by the query's refusals
        text = str(exc)
        why = text[text.index("xlshuffle: ") + 11 :] if "xlshuffle: " in text else text
        raise ListError(f"{path}: {why}") from None
    return str(digest), int(entrants)
