"""The population a committed ticket draw fixes: the digest of its entrants (protocol
section 18, step 5), computed by the engine that reads the file.

A ticket draw is fair only if nobody could add an ID after the seed was known, hoping
for a low ticket. Its commitment holds, besides the list's rows, ``population``: the
SHA-256 of the entrants' sorted lines (each canonical ID, and with weights or one entry
per ID a tab and its ticket count) and how many there are, which a database computes
from its own copy of the list (``xlshuffle sql --population``). Exclusions leave no mark
on it: the exclusion list is pinned by its own hash.
"""

from __future__ import annotations

from typing import Any

from ..common.request import DrawRequest, SampleOptions
from ..draw.errors import EntryError
from ..draw.raffle import canonical_id
from ..draw.tickets import population_digest
from ..draw.values import whole_tickets
from ..tabledraw.raffle_options import DrawOptions
from .tickets import entrants_of

__all__ = ["population_of"]


def population_of(request: DrawRequest) -> dict[str, Any] | None:
    """A commitment's ``population`` for ``request`` (``{"sha256": ..., "entrants": n}``),
    or None when it is not a ticket draw.

    Raises
    ------
    XlshuffleError
        An ID or a weight the draw refuses (the message names its cell or row).
    """
    asked = request.options
    if not isinstance(asked, SampleOptions) or asked.draw is None or not asked.draw.tickets:
        return None
    from ..sql.source import is_table_file

    if request.engine == "duckdb" or is_table_file(request.src):
        from ..sql.population import file_population

        digest, entrants = file_population(request.src, asked.draw)
    else:
        digest, entrants = _in_memory(request, asked.draw)
    return {"sha256": digest, "entrants": entrants}


def _in_memory(request: DrawRequest, opts: DrawOptions) -> tuple[str, int]:
    ents = entrants_of(request)
    cols = opts.columns(ents)
    column = cols["id"]
    values = ents.values(column.index)
    weights: list[int] | None = None
    if "weights" in cols:
        scale = opts.weight_scale or 1
        weights = ents.read(cols["weights"], range(ents.n), lambda v: whole_tickets(v, scale=scale))
    if not opts.one_entry_per_id:
        try:
            return population_digest(values, weights), len(values)
        except EntryError as exc:
            raise ents.fail(f"{ents.cell(exc.index, column.index)}: {exc.reason}") from None
    held: dict[str, int] = {}  # each ID's tickets: its rows, or their weights' sum
    for n, value in enumerate(values):
        text = canonical_id(value)
        if not text or "\n" in text or "\r" in text:
            try:
                population_digest([value])  # its refusal, in its words
            except EntryError as exc:
                raise ents.fail(f"{ents.cell(n, column.index)}: {exc.reason}") from None
        held[text] = held.get(text, 0) + (1 if weights is None else weights[n])
    return population_digest(list(held), list(held.values())), len(held)
