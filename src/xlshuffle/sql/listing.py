"""Every entrant's place and ticket in a ticket draw of a file, through DuckDB: what
``xlshuffle tickets --engine duckdb`` lists (protocol section 18).

The rows are those the list engine lists (:func:`xlshuffle.filedraw.tickets.ticket_list`):
a header, then each entrant in draw order, its place within its stratum, its ID as the
file writes it (with one entry per ID, its first row's), its stratum's label (its first
row's), its ticket count (with weights or one entry per ID) and its ticket. They stream
out of the query of :func:`~xlshuffle.sql.query.listing_query` (DuckDB sorts in bounded
memory, spilling to disk), a batch at a time, so a file of any size is listed. The
strata's order (as first seen) and labels come from a census of the file first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..common.request import DrawRequest, SampleOptions
from ..draw.errors import ListError, OptionError
from ..draw.tickets import rivest_ticket
from ..tabledraw.raffles import TICKET_LABEL
from .exclusion import excluding_of
from .query import TicketSQL, id_expression, listing_query
from .source import connect, open_source, quoted

__all__ = ["file_listing"]

_BATCH = 10_000


def file_listing(request: DrawRequest) -> Iterator[list[object]]:
    """The rows of the listing of ``request`` (a sample whose draw options name a ticket
    method) on its CSV/TSV or Parquet file, the header first, streamed.

    Raises
    ------
    XlshuffleError
        A file, an ID or an option the draw cannot take (the message says why).
    """
    asked = request.options
    if not isinstance(asked, SampleOptions) or asked.draw is None or not asked.draw.tickets:
        raise OptionError("a ticket listing takes a sample request with a ticket method")
    opts = asked.draw
    con = connect(spill=True)  # the whole file sorted: bounded memory, spilled to disk
    src = open_source(con, request.src)
    cols = src.columns(opts)
    seed = request.seed.text
    id_name = src.name(cols["id"])
    excluding = excluding_of(opts, None, 0)
    grouped = opts.one_entry_per_id
    table = src.numbered() if grouped else src.reader
    kept = ""
    if excluding is not None:
        excluding.prepare(con)
        kept = f" WHERE NOT ({excluding.out(id_expression(id_name, 'duckdb'))})"
        table = f"(SELECT * FROM {table}{kept})"
    labels: dict[str, object] = {}
    if "strata" in cols:  # each stratum's label as its first row writes it, as first seen
        label = quoted(src.name(cols["strata"]))
        sql = (
            f"SELECT nfc_normalize(CAST({label} AS VARCHAR)), arg_min({label}, xls_row) "
            f"FROM {src.numbered()}{kept} GROUP BY 1 ORDER BY min(xls_row)"
        )
        labels = dict(con.execute(sql).fetchall())
    if opts.method == "rivest":
        con.create_function(
            "xls_rivest", lambda text: rivest_ticket(seed, text), ["VARCHAR"], "VARCHAR"
        )
    draw = TicketSQL(
        table=table,
        id=id_name,
        seed=seed,
        weights=None if "weights" not in cols else src.name(cols["weights"]),
        scale=opts.weight_scale or 1,
        strata=None if "strata" not in cols else src.name(cols["strata"]),
        carry=(id_name,),
        grouped=grouped,
        rivest=opts.method == "rivest",
        first_row="xls_row" if grouped else None,
        strata_order=tuple(labels) if "strata" in cols else None,
    )
    weighed = draw.weighed
    head: list[object] = ["Place", cols["id"].given]
    head += ["Stratum"] if "strata" in cols else []
    head += ["Tickets"] if weighed else []
    yield [*head, TICKET_LABEL]
    try:
        result = con.execute(listing_query(draw, "duckdb"))
    except Exception as exc:  # duckdb.Error, raised by the query's refusals
        raise ListError(f"{request.src}: {_reason(exc)}") from None
    strata = labels if "strata" in cols else None
    last = None
    for row in _fetched(result, request.src):
        if not grouped and row[1] == last:  # one ID, one ticket: its rows are neighbours
            raise ListError(
                f"{request.src}: the ID {last!r} is on two rows: a ticket belongs to one "
                "entrant (give each row its own ID, or ask for one entry per ID)"
            )
        last = row[1]
        line: list[object] = [row[0], row[-1]]  # the place, the ID as the file writes it
        at = 2
        if strata is not None:
            line.append(strata[row[at]])
            at += 1
        if weighed:
            line.append(row[at])
            at += 1
        yield [*line, row[at]]


def _fetched(result: Any, src: str) -> Iterator[tuple[Any, ...]]:
    """The query's rows, a batch at a time."""
    while True:
        try:
            batch = result.fetchmany(_BATCH)
        except Exception as exc:  # duckdb.Error, raised by the query's refusals
            raise ListError(f"{src}: {_reason(exc)}") from None
        if not batch:
            return
        yield from batch


def _reason(exc: Exception) -> str:
    text = str(exc)
    return text[text.index("xlshuffle: ") + 11 :] if "xlshuffle: " in text else text
