"""Exact chances of the raffle and audit draws (protocol sections 8-12), and of the ways by hand.

Every draw of :mod:`xlshuffle.draw` takes a source with ``randbelow``, so the lab runs the
real code through its scripted source (:func:`~xlshuffle.lab.exact.enumerate_choices`),
which answers every possible sequence of answers in turn, and adds up each outcome's
chance as a :class:`fractions.Fraction` (:func:`draw_distribution`). Nothing is sampled.

What it shows, for small cases:

* the weighted draw gives each ordered outcome the chance *product of weight / remaining
  total* (:func:`weighted_orders`, :func:`successive_chance`), so weight 0 never wins;
* reserves are the continuation of the winners' draw (:func:`reserve_prefix`);
* a stratified draw is uniform within each stratum, strata independent
  (:func:`strata_distribution`);
* systematic and monetary-unit selections give each item the chance the protocol states,
  ``k/n`` and ``min(1, a*k/T)`` (:func:`audit_chances`).

Beside them, the ways by hand (from ``byhand``): running totals with ``RANDBETWEEN``
(a winner can win twice) and sorting by ``RAND()*weight`` (not proportional), and the
point users of ``sample(weights=..., replace=False)`` miss: a raffle's chance of being among
``k`` winners is not ``k * weight / total``; the monetary-unit selection's is
(:func:`compare_weighted`). With a prize table (section 9), each entrant's exact chance
of each prize and of being its reserve (:func:`prize_chances`, from :mod:`.prizes`).
:func:`draws_report` gathers it all for ``xlshuffle fairness --draws``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..draw import reduce_weights
from ..draw.errors import SizeError
from ..tabledraw.raffle_options import Prize
from .byhand import rand_key_chances, rand_times_weight, running_totals
from .prizes import PrizeChances, prize_chances, prize_checks
from .proofs import (
    AuditChances,
    audit_chances,
    draw_distribution,
    first_place,
    inclusion,
    reserve_prefix,
    strata_distribution,
    successive_chance,
    weighted_orders,
)

__all__ = [
    "DRAWS_SCHEMA",
    "METHODS",
    "AuditChances",
    "PrizeChances",
    "WeightedComparison",
    "audit_chances",
    "compare_weighted",
    "draw_distribution",
    "draws_report",
    "first_place",
    "inclusion",
    "prize_chances",
    "rand_key_chances",
    "rand_times_weight",
    "reserve_prefix",
    "running_totals",
    "strata_distribution",
    "successive_chance",
    "weighted_orders",
]

#: Name and version of the ``--draws`` JSON report's schema.
DRAWS_SCHEMA = "xlshuffle/fairness-draws/v1"
#: Most choice sequences :func:`draws_report` enumerates per method.
MAX_SEQUENCES = 1_000_000
#: The weighted methods compared: name -> (title, what it promises or gets wrong).
METHODS: dict[str, tuple[str, str]] = {
    "xlshuffle": ("xlshuffle weighted draw", "a raffle: each draw weight / remaining total"),
    "monetary-unit": ("monetary-unit selection", "chance min(1, k * weight / total)"),
    "running-totals": ("running totals + RANDBETWEEN", "a winner can win again"),
    "rand-times-weight": ("sort by RAND()*weight", "big weights win too often"),
}


@dataclass(frozen=True)
class WeightedComparison:
    """First place and inclusion chances of each weighted method, exactly.

    Attributes
    ----------
    weights : list of int
    k : int
        Winners drawn.
    share : list of Fraction
        ``weight / total``: the fair first-place chance.
    proportional : list of Fraction
        ``min(1, k * weight / total)``: what a PPS design promises as inclusion chance.
    first : dict of str to list of Fraction
        Chance of first place, by method name of :data:`METHODS` (no monetary-unit: its
        selection has no order).
    included : dict of str to list of Fraction
        Chance of being among the winners (at least once, for running totals).
    duplicate : Fraction
        Running totals: chance that some entrant is drawn more than once.
    """

    weights: list[int]
    k: int
    share: list[Fraction]
    proportional: list[Fraction]
    first: dict[str, list[Fraction]]
    included: dict[str, list[Fraction]]
    duplicate: Fraction


def _sequences(weights: Sequence[int], k: int) -> int:
    """An upper bound of the choice sequences the comparison enumerates."""
    return int(sum(weights) ** k)


def compare_weighted(weights: Sequence[int], k: int) -> WeightedComparison:
    """Compare the weighted methods of :data:`METHODS` on ``weights``, ``k`` winners, exactly.

    The xlshuffle draw, the monetary-unit selection and running totals are enumerated,
    all on the weights divided by their GCD (which gives the same chances);
    ``RAND()*weight`` is integrated (:func:`rand_key_chances`).

    Raises
    ------
    SizeError
        When no entrant has a ticket, when the enumeration would pass
        :data:`MAX_SEQUENCES` choice sequences, or from the draws themselves (``k`` more
        than the entrants with tickets).

    Examples
    --------
    >>> c = compare_weighted([5, 3, 1, 1], 2)
    >>> [str(p) for p in c.included["xlshuffle"]], str(c.duplicate)
    (['52/63', '2/3', '16/63', '16/63'], '9/25')
    """
    ws = reduce_weights(weights)
    if not any(ws):
        raise SizeError("the weights add up to 0: give at least one entrant a ticket")
    if _sequences(ws, k) > MAX_SEQUENCES:
        raise SizeError(
            f"{k} winners from {sum(ws)} tickets (after dividing by their common divisor) "
            f"is up to {_sequences(ws, k):,} choice sequences, over {MAX_SEQUENCES:,}: "
            "use smaller weights or fewer winners"
        )
    n, total = len(ws), sum(ws)
    raffle = weighted_orders(ws, k)
    by_hand = draw_distribution(lambda s: tuple(running_totals(ws, k, s)))
    mus = audit_chances(ws, k) if k else None
    share = [Fraction(w, total) for w in ws]
    return WeightedComparison(
        weights=list(weights),
        k=k,
        share=share,
        proportional=[min(Fraction(1), k * s) for s in share],
        first={
            "xlshuffle": first_place(raffle, n) if k else share,
            "running-totals": first_place(by_hand, n) if k else share,
            "rand-times-weight": rand_key_chances(ws, 1),
        },
        included={
            "xlshuffle": inclusion(raffle, n),
            "monetary-unit": mus.items if mus else [Fraction(0)] * n,
            "running-totals": inclusion(by_hand, n),
            "rand-times-weight": rand_key_chances(ws, k),
        },
        duplicate=sum((p for o, p in by_hand.items() if len(set(o)) < len(o)), Fraction(0)),
    )


def _checks(weights: Sequence[int], k: int) -> list[dict[str, Any]]:
    """The protocol's stated chances, checked on these weights by enumeration."""
    orders = weighted_orders(weights, k)
    zeros = [i for i, w in enumerate(weights) if w == 0]
    positive = len(weights) - len(zeros)
    sequences, failures = reserve_prefix(weights, min(k, positive - 1), 1) if positive else (0, 0)
    systematic = audit_chances(len(weights), k)
    mus = audit_chances(list(weights), k)
    total = sum(weights)
    stated = [min(Fraction(1), Fraction(a * k, total)) for a in weights]
    return [
        {
            "name": "weighted draw: each ordered outcome has chance prod(weight / remaining)",
            "cases": len(orders),
            "holds": all(p == successive_chance(weights, o) for o, p in orders.items())
            and sum(orders.values()) == 1,
        },
        {
            "name": "weighted draw: an entrant with weight 0 never wins",
            "cases": len(zeros),
            "holds": not any(i in o for o in orders for i in zeros),
        },
        {
            "name": "reserves: winners and reserves are one draw's prefix and continuation",
            "cases": sequences,
            "holds": failures == 0,
        },
        {
            "name": f"systematic {k} of {len(weights)}: every item has chance k/n",
            "cases": len(weights),
            "holds": all(p == Fraction(k, len(weights)) for p in systematic.items),
        },
        {
            "name": "monetary-unit: every cent k/T, every item min(1, a*k/T), top stratum always",
            "cases": total,
            "holds": mus.items == stated
            and all(p == Fraction(k, total) for p in mus.units)
            and all(mus.always[i] for i, a in enumerate(weights) if a * k >= total),
        },
    ]


def draws_report(
    weights: Sequence[int], k: int, *, prizes: Sequence[Prize] | None = None
) -> dict[str, Any]:
    """The JSON-ready report of ``xlshuffle fairness --draws`` (schema :data:`DRAWS_SCHEMA`).

    Fractions are strings (``"41/60"``). Raises ``SizeError`` as :func:`compare_weighted`.
    With ``prizes`` (a prize table; ``k`` is then its number of winners), ``prizes`` gives
    each entrant's chance of each prize and of being its reserve (:func:`prize_chances`),
    and the checks those of section 9.

    Examples
    --------
    >>> r = draws_report([2, 1, 1], 2)
    >>> r["entrants"][0]["included"]["xlshuffle"], all(c["holds"] for c in r["checks"])
    ('5/6', True)
    """
    c = compare_weighted(weights, k)
    entrants = [
        {
            "index": i,
            "weight": w,
            "share": str(c.share[i]),
            "proportional": str(c.proportional[i]),
            "first": {m: str(ps[i]) for m, ps in c.first.items()},
            "included": {m: str(ps[i]) for m, ps in c.included.items()},
        }
        for i, w in enumerate(c.weights)
    ]
    report: dict[str, Any] = {
        "schema": DRAWS_SCHEMA,
        "weights": c.weights,
        "winners": k,
        "methods": [
            {"name": name, "title": title, "note": note} for name, (title, note) in METHODS.items()
        ],
        "entrants": entrants,
        "duplicate": str(c.duplicate),
        "checks": _checks(reduce_weights(weights), k),
    }
    if prizes is not None:
        table = prize_chances(weights, prizes)
        report["prizes"] = _prize_report(table)
        report["checks"] += prize_checks(table)
    return report


def _prize_report(c: PrizeChances) -> dict[str, Any]:
    """The report's ``prizes``: the table, and each entrant's chances of each prize."""
    return {
        "table": [{"prize": p.name, "count": p.count, "reserves": p.reserves} for p in c.prizes],
        "entrants": [
            {
                "index": i,
                "weight": w,
                "won": {name: str(p) for name, p in c.won[i].items()},
                "reserve": {name: str(p) for name, p in c.reserve[i].items()},
                "none": str(c.none[i]),
            }
            for i, w in enumerate(c.weights)
        ],
    }
