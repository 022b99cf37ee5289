"""Raffles and audits on a range of cells: tickets, reserves, exclusions, strata, audits.

``SAMPLE`` (given ``weights``, ``reserves`` or ``exclude``), ``SAMPLEBY``, ``AUDITSAMPLE``
and the locked raffle hand their range and their one-value-per-row arguments to
:func:`draw`. It turns them into an :class:`~xlshuffle.tabledraw.entrants.Entrants` and lets
:func:`~xlshuffle.tabledraw.raffles.choose` pick the rows: the code the command line runs on
a CSV list, so the range saved as CSV (without a header row) draws the same rows with
the same seed. The result is laid out as the command line writes such a list: the drawn
rows in output order (strata one after another), each followed by its ``Role`` and
``Rank`` (with reserves) or its ``Hits`` (monetary-unit). A single row of data is a list
of cells: it is drawn as a column of them and its result is turned back into rows.

>>> people = [["Ann", 1], ["Bo", 5], ["Cy", 0], ["Di", 2], ["Ed", 2]]
>>> draw(people, 2, "2026 raffle", reserves=1, columns={"weights": [1, 5, 0, 2, 2]})
[['Bo', 5, 'winner', 1], ['Di', 2, 'winner', 2], ['Ed', 2, 'reserve', 1]]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from ..common.a1 import col_letters
from ..draw.errors import EntryError, OptionError
from ..draw.protocol import as_stream
from ..draw.raffle import canonical_id, exclude, exclusion_digest
from ..tabledraw.entrants import Entrants
from ..tabledraw.entries import duplicate_id
from ..tabledraw.raffle_options import Prize, parse_method
from ..tabledraw.raffles import Drawn, DrawOptions, Exclusion, choose
from .arguments import Rows

__all__ = ["ARGUMENTS", "draw"]

#: The columns :func:`draw` reads (DrawOptions' names) -> the argument that holds them.
ARGUMENTS = {"weights": "weights", "strata": "strata", "amount": "amounts", "id": "ids"}


def draw(
    rows: Rows,
    k: int,
    seed: object,
    *,
    method: str = "random",
    reserves: int = 0,
    columns: Mapping[str, Sequence[object]] | None = None,
    excluded: Sequence[object] | None = None,
    where: str = "data",
    at: Callable[[str, int], str] | None = None,
    prizes: Sequence[Prize] | None = None,
    top_stratum: int | Literal["interval"] | None = None,
) -> Rows:
    """The rows drawn from ``rows``, with the fields the command line adds to each.

    Parameters
    ----------
    rows : list of rows
        The data; a single row of several cells is a list of those cells.
    k : int
        Winners (per stratum with ``strata``), or hits for ``method="mus"``.
    seed : str, int, float, date or None
        The seed of the draw protocol; None draws a fresh one.
    method : str
        ``"random"`` (a raffle), ``"systematic"`` or ``"mus"``, as ``--method``.
    reserves : int
        Reserves drawn after the winners of a raffle.
    columns : mapping, optional
        One value per item for ``"weights"``, ``"strata"``, ``"amount"`` and ``"id"``
        (the keys of :data:`ARGUMENTS`), already checked for their count.
    excluded : sequence, optional
        IDs that cannot win, matched against ``columns["id"]``.
    where : str
        What a message calls the data (``data``, ``the selection``).
    at : callable, optional
        ``at(key, i)`` names item ``i`` (0-based) of ``columns[key]`` in a message
        (a locked draw names the cell, ``the tickets cell C7``); by default ``weights, row 3``.
    prizes : sequence of Prize, optional
        A prize table (protocol section 9): ``k`` and ``reserves`` are then its totals, and
        each drawn row gets its ``Prize``, ``Place`` and ``Role``.
    top_stratum : int, "interval" or None
        A monetary-unit selection's top stratum, as ``--top-stratum`` (cents).

    Raises
    ------
    XlshuffleError
        With a message that names the argument (``weights, row 3``) and says what to do.
    """
    columns = dict(columns or {})
    across = len(rows) == 1 and len(rows[0]) > 1
    items = [[cell] for cell in rows[0]] if across else rows
    noun = "cell" if across else "row"
    name = at or (lambda key, i: f"{ARGUMENTS[key]}, {noun} {i + 1}")
    ents = _entrants(items, columns, where, name)
    given = {key: key if key in columns else None for key in ARGUMENTS}
    opts = DrawOptions(
        k=k,
        method=parse_method(method),
        weights=given["weights"],
        amount=given["amount"],
        reserves=reserves,
        strata=given["strata"],
        id=given["id"],
        prizes=None if prizes is None else tuple(prizes),
        top_stratum=top_stratum,
    )
    if "id" in columns:  # before choose, whose refusal names the command line's options
        _unique_ids(ents, opts, name, f"{noun} of {where}")
    left_out = None
    if excluded is not None:
        left_out = _exclusion(list(columns["id"]), list(excluded), noun)
    drawn = choose(ents, opts, as_stream(seed), left_out)
    _no_credits(drawn, name)
    out = [[*items[r], *extra] for r, extra in zip(drawn.rows, drawn.extra, strict=True)]
    return [list(line) for line in zip(*out, strict=True)] if across else out


def _no_credits(drawn: Drawn, name: Callable[[str, int], str]) -> None:
    """Refuse a negative amount: the command line sets such rows aside and lists them, but a
    worksheet function returns the sample alone, where they would vanish unsaid."""
    for part in drawn.parts:
        for row, cents in part.set_aside:
            if cents < 0:
                raise OptionError(
                    f"{name('amount', row)}: the amount is below 0: a monetary-unit sample "
                    "sets credits aside as their own population, so leave them out of data "
                    "(=FILTER(...)) and audit them apart, or use xlshuffle sample, which "
                    "lists them"
                )


def _entrants(
    items: Rows,
    columns: dict[str, Sequence[object]],
    where: str,
    at: Callable[[str, int], str],
) -> Entrants:
    """The data's columns, then the per-item arguments as columns headed by their key."""
    width = len(items[0])
    keys = list(columns)

    def values(j: int) -> list[object]:
        if j < width:
            return [row[j] for row in items]
        return list(columns[keys[j - width]])

    def cell(i: int, j: int) -> str:
        return f"{where}, row {i + 1}" if j < width else at(keys[j - width], i)

    return Entrants(
        where=where,
        labels=[""] * width + keys,
        letters=[col_letters(j + 1) for j in range(width + len(keys))],
        n=len(items),
        values=values,
        cell=cell,
        fail=OptionError,
    )


def _unique_ids(
    ents: Entrants, opts: DrawOptions, name: Callable[[str, int], str], entrant: str
) -> None:
    """Refuse an ID on two items, naming the argument that holds them: each item is one
    entrant, and an ID names one (a worksheet has no ``--one-entry-per-id``)."""
    found = duplicate_id(ents, opts.columns(ents)["id"])
    if found is None:
        return
    t, rows = found
    more = f" ({len(rows)} hold it)" if len(rows) > 2 else ""
    raise OptionError(
        f"{name('id', rows[1])}: the ID {t!r} is also in {name('id', rows[0])}{more}: each "
        f"{entrant} is one entrant, named by its ID: give each its own ID in "
        f"{ARGUMENTS['id']} (by default the first column of data)"
    )


def _exclusion(ids: list[object], excluded: list[object], noun: str) -> Exclusion:
    """The rows whose ID is among ``excluded`` (protocol section 10), as ``--exclude``
    leaves them out, with the errors named by argument and position."""
    try:
        digest = exclusion_digest(excluded)
    except EntryError as exc:
        raise OptionError(f"exclude, cell {exc.index + 1}: {exc.reason}") from None
    try:
        kept = set(exclude(ids, excluded))
    except EntryError as exc:
        raise OptionError(f"ids, {noun} {exc.index + 1}: {exc.reason}") from None
    count = len({canonical_id(x) for x in excluded} - {""})
    return Exclusion(digest, count, tuple(i for i in range(len(ids)) if i not in kept))
