"""The population digest of a ticket draw's file, computed by DuckDB (section 18, step 5).

What a committed ticket draw on a file too big for memory fixes besides the list's rows:
the SHA-256 of its entrants' sorted lines (the canonical ID, and with weights or one
entry per ID a tab and the entrant's ticket count), by the query of
:func:`~xlshuffle.sql.query.population_query`: DuckDB sorts the lines (in bounded
memory, spilling to disk) and they are hashed here as they stream out, so no text of
every ID is ever held.
"""

from __future__ import annotations

import hashlib

from ..draw.errors import ListError
from ..tabledraw.raffle_options import DrawOptions
from .query import TicketSQL, population_query
from .source import connect, open_source

__all__ = ["file_population"]

_BATCH = 10_000


def file_population(path: str, opts: DrawOptions) -> tuple[str, int]:
    """The population digest of the ticket draw ``opts`` on the CSV/TSV or Parquet file
    at ``path``, and the number of its entrants (ListError for an ID or a weight the draw
    refuses, or a file DuckDB cannot read)."""
    con = connect(spill=True)  # every ID sorted: bounded memory, spilled to disk
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
    digest, entrants = hashlib.sha256(), 0
    try:  # the sorted lines stream out (sorted in bounded memory) and are hashed as they come
        result = con.execute(population_query(draw, "duckdb", lines=True))
        while batch := result.fetchmany(_BATCH):
            text = "\n".join(line for (line,) in batch)
            digest.update((text if entrants == 0 else "\n" + text).encode("utf-8"))
            entrants += len(batch)
    except Exception as exc:  # duckdb.Error, raised by the query's refusals
        text = str(exc)
        why = text[text.index("xlshuffle: ") + 11 :] if "xlshuffle: " in text else text
        raise ListError(f"{path}: {why}") from None
    return digest.hexdigest(), entrants
