"""Exact chances of a prize table (protocol section 9): each entrant's chance of each prize,
as a winner and as a reserve, by every sequence of random answers enumerated.

The real draw runs here: :func:`~xlshuffle.tabledraw.raffles.choose` with the table, over
a table of tickets, fed by the lab's scripted source
(:func:`~xlshuffle.lab.proofs.draw_distribution`), so each outcome's chance is a
:class:`fractions.Fraction` and nothing is sampled. What it shows, for small cases: an
entrant wins at most one prize; the winners of each prize are those of the draw without
reserves (reserves change no one's chance of a prize); and an entrant's chance of some
prize is its chance of being among the ``k`` winners of the weighted draw. Imported and
documented through :mod:`xlshuffle.lab.raffles`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from ..draw import reduce_weights
from ..draw.errors import SizeError
from ..draw.protocol import DrawStream, Source
from ..tabledraw.entrants import Entrants
from ..tabledraw.raffle_options import DrawOptions, Prize
from ..tabledraw.raffles import choose, prize_places
from .proofs import draw_distribution, inclusion, weighted_orders

__all__ = ["PrizeChances", "prize_chances", "prize_checks"]

#: Most choice sequences :func:`prize_chances` enumerates.
MAX_SEQUENCES = 1_000_000

Place = tuple[str, int, str]


@dataclass(frozen=True)
class PrizeChances:
    """Each entrant's exact chances under a prize table.

    Attributes
    ----------
    weights : list of int
    prizes : list of Prize
    won : list of dict of str to Fraction
        ``won[i][prize]``: entrant ``i``'s chance of winning ``prize``.
    reserve : list of dict of str to Fraction
        ``reserve[i][prize]``: its chance of being one of the prize's reserves.
    none : list of Fraction
        Its chance of being neither a winner nor a reserve.
    outcomes : dict of tuple to Fraction
        Every ordered outcome of the draw (entrants in draw order) and its chance.
    """

    weights: list[int]
    prizes: list[Prize]
    won: list[dict[str, Fraction]]
    reserve: list[dict[str, Fraction]]
    none: list[Fraction]
    outcomes: dict[tuple[int, ...], Fraction]


def _tickets(weights: Sequence[int]) -> Entrants:
    """A table of one column of tickets: the entrants of the draw."""
    column: list[object] = [str(w) for w in weights]
    return Entrants(
        where="weights",
        labels=["Tickets"],
        letters=["A"],
        n=len(weights),
        values=lambda _j: column,
        cell=lambda i, _j: f"weights: entrant {i + 1}",
        fail=SizeError,
    )


def _orders(weights: Sequence[int], prizes: Sequence[Prize]) -> dict[tuple[int, ...], Fraction]:
    """Every ordered outcome of the prize table's draw, by the real code."""
    ents = _tickets(weights)
    k = sum(p.count for p in prizes)
    opts = DrawOptions(
        k=k,
        weights="Tickets",
        reserves=sum(p.reserves for p in prizes),
        prizes=tuple(prizes),
    )

    def run(source: Source) -> tuple[int, ...]:
        # without strata the draw asks its stream for randbelow only: the scripted source
        return tuple(choose(ents, opts, cast(DrawStream, source)).rows)

    return draw_distribution(run, max_leaves=MAX_SEQUENCES)


def prize_chances(weights: Sequence[int], prizes: Sequence[Prize]) -> PrizeChances:
    """Each entrant's exact chance of each prize of ``prizes`` (and of being its reserve)
    in a weighted draw with ``weights`` (protocol sections 8 and 9).

    Raises
    ------
    SizeError
        When the enumeration would pass :data:`MAX_SEQUENCES` choice sequences, or from
        the draw itself (more places than entrants with tickets).

    Examples
    --------
    >>> c = prize_chances([2, 1, 1], [Prize("Bike", 1, 0), Prize("Mug", 1, 1)])
    >>> [str(c.won[0][p]) for p in ("Bike", "Mug")], str(c.reserve[0]["Mug"])
    (['1/2', '1/3'], '1/6')
    """
    ws = reduce_weights(weights)
    places = prize_places(prizes)
    bound = sum(ws) ** len(places)
    if bound > MAX_SEQUENCES:
        raise SizeError(
            f"{len(places)} places from {sum(ws)} tickets (after dividing by their common "
            f"divisor) is up to {bound:,} choice sequences, over {MAX_SEQUENCES:,}: use "
            "smaller weights or fewer places"
        )
    outcomes = _orders(ws, prizes)
    names = list(dict.fromkeys(p.name for p in prizes))
    won = [dict.fromkeys(names, Fraction(0)) for _ in ws]
    reserve = [dict.fromkeys(names, Fraction(0)) for _ in ws]
    for order, p in outcomes.items():
        for i, (name, _, role) in zip(order, places, strict=True):
            (won if role == "winner" else reserve)[i][name] += p
    none = [
        Fraction(1) - sum(won[i].values(), Fraction(0)) - sum(reserve[i].values(), Fraction(0))
        for i in range(len(ws))
    ]
    return PrizeChances(list(weights), list(prizes), won, reserve, none, outcomes)


def prize_checks(c: PrizeChances) -> list[dict[str, Any]]:
    """What section 9 states of a prize table, checked on these chances by enumeration."""
    no_reserves = [dataclasses.replace(p, reserves=0) for p in c.prizes]
    without = prize_chances(c.weights, no_reserves) if any(p.reserves for p in c.prizes) else c
    k = sum(p.count for p in c.prizes)
    among = inclusion(weighted_orders(reduce_weights(c.weights), k), len(c.weights))
    return [
        {
            "name": "prize table: an entrant wins at most one prize (no outcome repeats one)",
            "cases": len(c.outcomes),
            "holds": all(len(set(o)) == len(o) for o in c.outcomes)
            and sum(c.outcomes.values()) == 1,
        },
        {
            "name": "prize table: reserves change no entrant's chance of any prize",
            "cases": len(c.weights) * len(c.prizes),
            "holds": all(
                c.won[i][p.name] == without.won[i][p.name]
                for i in range(len(c.weights))
                for p in c.prizes
            ),
        },
        {
            "name": "prize table: an entrant's chance of some prize is its chance among k winners",
            "cases": len(c.weights),
            "holds": all(sum(c.won[i].values()) == among[i] for i in range(len(c.weights))),
        },
    ]
