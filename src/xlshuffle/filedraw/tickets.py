"""Every entrant's ticket and place in a ticket draw of a file (protocol section 18): what
``xlshuffle tickets`` lists, so that observers and entrants see where each one stands.

The entrants are read as a sample reads them, by the list engine or the workbook engine,
and drawn whole, in increasing ticket order (a rate of 1): the listing is the draw's whole
order, of which any sample by ``-k`` or by a rate is a prefix (per stratum).
"""

from __future__ import annotations

import dataclasses

from ..common.request import DrawRequest, SampleOptions
from ..draw.errors import OptionError
from ..tabledraw.entrants import Entrants
from ..tabledraw.raffles import TICKET_LABEL, choose, exclusion_of

__all__ = ["entrants_of", "ticket_list"]


def ticket_list(request: DrawRequest) -> list[list[object]]:
    """The rows of the listing of ``request`` (a sample whose draw options name a ticket
    method): a header, then one row per entrant in draw order, each ``Place`` (1-based,
    within its stratum), the ID, the stratum (with strata), the entrant's ticket count
    (with weights or one entry per ID) and its ticket (``Draw ticket``).

    Raises
    ------
    XlshuffleError
        A file, an ID or an option the draw cannot take (the message says why).
    """
    asked = request.options
    if not isinstance(asked, SampleOptions) or asked.draw is None or not asked.draw.tickets:
        raise OptionError("a ticket listing takes a sample request with a ticket method")
    opts = dataclasses.replace(asked.draw, k=0, total=None, counts=None, rate="1", reserves=0)
    ents = entrants_of(request)
    cols = opts.columns(ents)
    drawn = choose(ents, opts, request.seed.stream(), exclusion_of(ents, opts, cols.get("id")))
    ids = ents.values(cols["id"].index)
    weighed = "weights" in cols or opts.one_entry_per_id
    head: list[object] = ["Place", cols["id"].given]
    head += ["Stratum"] if "strata" in cols else []
    head += ["Tickets"] if weighed else []
    table: list[list[object]] = [[*head, TICKET_LABEL]]
    for part in drawn.parts:
        counts = part.counts if weighed else None
        for place, (row, ticket) in enumerate(zip(part.rows, part.tickets, strict=True), 1):
            line: list[object] = [place, ids[row]]
            line += [part.label] if "strata" in cols else []
            line += [counts[place - 1]] if counts is not None else []
            table.append([*line, ticket])
    return table


def entrants_of(request: DrawRequest) -> Entrants:
    """The entrants ``request`` reads, by the list engine or the workbook engine."""
    from ..lists import is_list

    if is_list(request.src):
        from ..lists.raffle import request_entrants

        return request_entrants(request)
    from ..workbook.api import request_entrants as workbook_entrants

    return workbook_entrants(request)
