"""Raffles and audits on a workbook: tickets, reserves, exclusions, strata and audits.

:func:`draw_sample` reads the selection's data rows into an
:class:`~xlshuffle.tabledraw.entrants.Entrants` (values by column, with the engine's own
reader: shared strings, dates, a formula's cached value), lets
:mod:`xlshuffle.tabledraw.raffles` choose the rows (the same code a CSV/TSV list's draw
uses), and returns them with the table ``sample_workbook`` writes: the labels and the
drawn rows in output order, the added columns (``Role``, ``Rank``, ``Hits``) after the
last one, as a list's draw adds its fields. Blank rows kept in place
(``--keep-blank-rows``) are no entrants; ``permutation`` and the recorded exclusion name
data rows (0-based, blank ones counted) as everywhere else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from ...draw.errors import OptionError, SeedError
from ...draw.knuth import check_count
from ...draw.protocol import DrawStream
from ...draw.raffle import canonical_id
from ...tabledraw.raffle_options import parse_method
from ...tabledraw.raffle_parts import label_text
from ...tabledraw.raffles import Drawn, DrawOptions, choose, exclusion_of
from ..jobs import Job
from .datarows import DataRows, free_rows

__all__ = ["draw_options", "draw_sample", "to_data_rows"]

#: The keywords of ``sample_workbook`` that ask for a raffle or an audit, and their
#: defaults (all of them at their default: a plain sample).
DRAW_DEFAULTS: dict[str, Any] = {
    "weights": None,
    "reserves": 0,
    "exclude_ids": None,
    "id": None,
    "strata": None,
    "method": "random",
    "amount": None,
    "total": None,
    "strata_counts": None,
    "one_entry_per_id": False,
    "all_of_small_strata": False,
}


def draw_options(k: int | None, keywords: dict[str, Any]) -> DrawOptions | None:
    """The draw ``sample_workbook``'s keywords ask for, or None when each is at its
    default (a plain sample, exactly as before); OptionError for ones that cannot
    combine. ``k`` is None when ``total`` or ``strata_counts`` says how many."""
    shared = keywords["total"] is not None or keywords["strata_counts"] is not None
    if (k is None) != shared:
        raise OptionError(
            "give k, or total or strata_counts with strata (how many to draw), not both"
            if shared
            else "k is required: how many rows to draw"
        )
    if all(
        keywords[key] is None if value is None else keywords[key] == value
        for key, value in DRAW_DEFAULTS.items()
    ):  # `is None`: an array of IDs compares element by element
        return None
    ids = keywords["exclude_ids"]
    opts = DrawOptions(
        k=k or 0,
        total=keywords["total"],
        counts=_counts(keywords["strata_counts"]),
        method=parse_method(keywords["method"]),
        weights=keywords["weights"],
        amount=keywords["amount"],
        reserves=keywords["reserves"],
        strata=keywords["strata"],
        id=keywords["id"],
        excluded=None if ids is None else _canonical(ids),
        one_entry_per_id=bool(keywords["one_entry_per_id"]),
        all_of_small_strata=bool(keywords["all_of_small_strata"]),
    )
    opts.check()
    return opts


def _counts(given: object) -> tuple[tuple[str, int], ...] | None:
    """``strata_counts`` (a mapping or ``(stratum, count)`` pairs) as DrawOptions holds it."""
    if given is None:
        return None
    try:
        pairs = list(given.items()) if isinstance(given, Mapping) else list(given)  # type: ignore[call-overload]
        return tuple((label_text(a) or "", check_count("count", n)) for a, n in pairs)
    except (TypeError, ValueError, SeedError):
        raise OptionError(
            "strata_counts: give each stratum's count, {'North': 2, 'South': 1}"
        ) from None


def _canonical(ids: Iterable[object]) -> tuple[str, ...]:
    """The excluded IDs as the texts they are matched by (a number as ``42``)."""
    if isinstance(ids, str | bytes):
        raise OptionError(
            "exclude_ids: give a list of IDs (exclude_ids=['M01', 'M07']), not one text"
        )
    out = []
    for n, value in enumerate(ids, 1):
        try:
            out.append(canonical_id(value))
        except SeedError:
            raise OptionError(
                f"exclude_ids: ID {n} ({value!r}) cannot be an ID: give texts or numbers"
            ) from None
    return tuple(out)


def to_data_rows(drawn: Drawn, free: list[int]) -> Drawn:
    """``drawn`` (rows numbered among the entrants) with its rows, and the recorded
    exclusion's, numbered among all the data rows (its ``parts`` keep the entrants'
    numbering: they are the draw's own working, not written anywhere)."""
    spec = dict(drawn.spec)
    if spec.get("exclusion") is not None:
        spec["exclusion"] = {
            **spec["exclusion"],
            "rows": [free[r] for r in spec["exclusion"]["rows"]],
        }
    return dataclasses.replace(drawn, rows=[free[r] for r in drawn.rows], spec=spec)


def draw_sample(
    job: Job, opts: DrawOptions, stream: DrawStream
) -> tuple[Drawn, list[list[object]]]:
    """The rows ``opts`` draws from the job's selection (numbered among its data rows, in
    output order), and the table that shows them."""
    free = free_rows(job, job.sel.kept)
    rows = DataRows(job, free)
    ents = rows.entrants()
    excluded = exclusion_of(ents, opts, opts.columns(ents).get("id"))
    drawn = to_data_rows(choose(ents, opts, stream, excluded), free)
    return drawn, rows.table(drawn)
