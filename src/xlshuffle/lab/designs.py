"""Exact chances of the research and classroom designs (protocol sections 13-16).

The real per-person orders, counterbalanced orders, block allocation lists and balanced
teams run through the lab's scripted source (:func:`~xlshuffle.lab.exact.iter_choices`),
which answers every possible sequence of ``randbelow`` answers in turn; each outcome's
chance is added up as a :class:`fractions.Fraction`. Nothing is sampled.

A person's stream (section 13) and a combination's allocation stream (section 15) are
hashes of the seed: the lab replaces them by the scripted source (a scripted
:class:`~xlshuffle.draw.protocol.DrawStream`), a stream of uniform, independent answers.
:func:`design_checks` gathers the claims of ``xlshuffle fairness --designs``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from itertools import pairwise, product
from typing import Any

from ..draw.allocate import allocation_list
from ..draw.errors import SizeError
from ..draw.orders import balanced_orders, person_order, williams_design
from ..draw.protocol import DrawStream, Source
from ..draw.teams import balanced_groups
from .exact import enumerate_choices

__all__ = [
    "DESIGNS_SCHEMA",
    "MAX_SEQUENCES",
    "PickCounts",
    "allocation_blocks",
    "balanced_distribution",
    "design_checks",
    "designs_report",
    "person_distribution",
    "print_designs",
    "team_distribution",
]

#: Name and version of the ``--designs`` JSON report's schema.
DESIGNS_SCHEMA = "xlshuffle/fairness-designs/v1"
#: Most choice sequences one enumeration may run (more raises ``SizeError``).
MAX_SEQUENCES = 1_000_000

PickCounts = Callable[[int], list[int]] | None
Dist = dict[Any, Fraction]


class _Scripted(DrawStream):
    """A :class:`DrawStream` whose answers come from the scripted source; its sub-streams
    are itself, so every person's or combination's answers come from one enumeration."""

    __slots__ = ("source",)

    def __init__(self, source: Source) -> None:  # no seed: never hashes anything
        self.source = source
        self.seed, self.label = "lab", None
        self._start(bytes(32))

    def randbelow(self, m: int, /) -> int:
        return self.source.randbelow(m)

    def derive(
        self, domain: bytes, label_bytes: bytes, label: object, kind: type[DrawStream] | None = None
    ) -> DrawStream:
        return self  # every sub-stream (stratum, person, combination) answers from the script

    def durstenfeld(self, items: list[Any], steps: int) -> None:
        """Protocol step 5 one ``randbelow`` at a time (the stream's fast path reads words)."""
        n = len(items)
        for i in range(steps):
            j = i + self.randbelow(n - i)
            items[i], items[j] = items[j], items[i]


def _exact(draw: Callable[[DrawStream], Hashable], pick_counts: PickCounts = None) -> Dist:
    """Exact chance of each outcome of ``draw(stream)`` over every sequence of answers."""
    dist, _ = enumerate_choices(
        lambda _items, s: [draw(_Scripted(s))],
        0,
        pick_counts=pick_counts,
        max_leaves=MAX_SEQUENCES,
    )
    return {key[0]: p for key, p in dist.items()}


def person_distribution(n: int, k: int | None = None, pick_counts: PickCounts = None) -> Dist:
    """Exact chance of each order ``person_order(n, "p", k=k)`` gives one person.

    Examples
    --------
    >>> sorted(set(person_distribution(3).values()))
    [Fraction(1, 6)]
    """
    if math.perm(n, k) > MAX_SEQUENCES:
        raise SizeError(f"{n} items is too many to enumerate: use a smaller n")
    return _exact(lambda s: tuple(person_order(n, "p", seed=s, k=k)), pick_counts)


def balanced_distribution(n: int, people: int, pick_counts: PickCounts = None) -> Dist:
    """Exact chance of each outcome (every person's order) of ``balanced_orders(n, people)``."""
    rows = len(williams_design(n))
    if math.factorial(n) * math.factorial(rows) ** -(-people // rows) > MAX_SEQUENCES:
        raise SizeError(f"{n} items for {people} people is too many to enumerate")
    return _exact(lambda s: tuple(map(tuple, balanced_orders(n, people, seed=s))), pick_counts)


def allocation_blocks(ratio: Sequence[int], size: int, pick_counts: PickCounts = None) -> Dist:
    """Exact chance of each arm sequence of one block of ``size`` (``n = size``, one
    stratum combination) of ``allocation_list(["A", "B", ...], ratio=ratio)``."""
    if math.factorial(size) > MAX_SEQUENCES:
        raise SizeError(f"a block of {size} is too many to enumerate")
    arms = [chr(ord("A") + i) for i in range(len(ratio))]

    def draw(s: DrawStream) -> str:
        rows = allocation_list(arms, ratio=ratio, n=size, block_sizes=[size], seed=s)
        return "".join(r.arm for r in rows)

    return _exact(draw, pick_counts)


def team_distribution(values: Sequence[object], k: int, pick_counts: PickCounts = None) -> Dist:
    """Exact chance of each team assignment of ``balanced_groups(values, k)``."""
    n = len(values)
    if math.factorial(n) * math.factorial(k) * math.factorial(len(set(values))) > MAX_SEQUENCES:
        raise SizeError(f"{n} people in {k} teams is too many to enumerate")
    return _exact(lambda s: tuple(balanced_groups(values, k, seed=s)), pick_counts)


def _claim(name: str, cases: int, holds: bool) -> dict[str, Any]:
    return {"name": name, "cases": cases, "holds": bool(holds)}


def _uniform(dist: Dist, count: int) -> bool:
    return len(dist) == count and all(p == Fraction(1, count) for p in dist.values())


def _positions_balanced(outcome: Sequence[Sequence[int]], n: int) -> bool:
    """Each item in each position equally often, and each ordered pair of neighbours."""
    times = len(outcome) // n
    places = all(
        Counter(row[p] for row in outcome) == dict.fromkeys(range(n), times) for p in range(n)
    )
    pairs = Counter((a, b) for row in outcome for a, b in pairwise(row))
    return places and len(pairs) == n * (n - 1) and len(set(pairs.values())) == 1


def _order_claims(pick_counts: PickCounts) -> list[dict[str, Any]]:
    out = []
    for n, k in ((3, None), (4, None), (4, 2)):
        dist, count = person_distribution(n, k, pick_counts), math.perm(n, k)
        what = f"k={k} of {n}: every ordered {k}-tuple" if k else f"n={n}: every order"
        out.append(
            _claim(f"person_order {what} has chance 1/{count}", count, _uniform(dist, count))
        )
    for n in (3, 4):
        rows = len(williams_design(n))
        dist = balanced_distribution(n, rows, pick_counts)
        out.append(
            _claim(
                f"balanced_orders n={n}, {rows} people: each item in each position "
                f"{rows // n}x and each neighbour pair equally often, for every answer",
                len(dist),
                all(_positions_balanced(o, n) for o in dist),
            )
        )
        each: list[Dist] = [{} for _ in range(rows)]
        for outcome, p in dist.items():
            for j, row in enumerate(outcome):
                each[j][row] = each[j].get(row, Fraction(0)) + p
        fair, f = all(_uniform(c, math.factorial(n)) for c in each), math.factorial(n)
        out.append(
            _claim(f"balanced_orders n={n}: each person's order has chance 1/{f}", rows, fair)
        )
    return out


def _allocation_claims(pick_counts: PickCounts) -> list[dict[str, Any]]:
    out = []
    for ratio, size in (([1, 1], 4), ([2, 1], 3), ([2, 1], 6)):
        dist = allocation_blocks(ratio, size, pick_counts)
        counts = [r * size // sum(ratio) for r in ratio]
        arrangements = math.factorial(size) // math.prod(map(math.factorial, counts))
        want = {chr(ord("A") + i): c for i, c in enumerate(counts)}
        exact = all(Counter(seq) == want for seq in dist)
        label = ":".join(map(str, ratio))
        out.append(
            _claim(
                f"allocation {label} block {size}: each of {arrangements} arrangements has "
                f"chance 1/{arrangements} and the ratio is exact in every block",
                arrangements,
                exact and _uniform(dist, arrangements),
            )
        )
    return out


def _team_claims(pick_counts: PickCounts) -> list[dict[str, Any]]:
    out = []
    values = ["a", "a", "a", "b", "b", "b"]
    for k in (2, 3):
        dist = team_distribution(values, k, pick_counts)
        chance = [
            [sum(p for t, p in dist.items() if t[i] == g) for g in range(1, k + 1)]
            for i in range(len(values))
        ]
        out.append(
            _claim(
                f"balanced_groups 6 people (aaabbb), k={k}: each person in each team 1/{k}",
                len(values) * k,
                all(c == Fraction(1, k) for row in chance for c in row),
            )
        )
        within = all(_within_one(t, values, k) for t in dist)
        out.append(
            _claim(
                f"balanced_groups aaabbb, k={k}: sizes and per-value counts within one, "
                "for every answer",
                len(dist),
                within,
            )
        )
    for people, k in (("aaaaab", 2), ("aabbc", 2), ("aaabbc", 3)):
        values = list(people)
        dist = team_distribution(values, k, pick_counts)
        meets = [
            t for t in product(range(1, k + 1), repeat=len(values)) if _within_one(t, values, k)
        ]
        out.append(
            _claim(
                f"balanced_groups {people}, k={k}: every one of the {len(meets)} team "
                f"assignments that meet the balance has chance 1/{len(meets)}",
                len(meets),
                set(dist) == set(meets) and _uniform(dist, len(meets)),
            )
        )
    # not uniform in general (section 16): every balanced assignment of a b c c into three
    # teams occurs, some with chance 1/18 and the rest 1/36
    values = list("abcc")
    dist = team_distribution(values, 3, pick_counts)
    meets = [t for t in product(range(1, 4), repeat=4) if _within_one(t, values, 3)]
    out.append(
        _claim(
            f"balanced_groups abcc, k=3: each of the {len(meets)} assignments that meet the "
            "balance occurs, with chance 1/18 or 1/36 (not uniform over balanced splits, as "
            "section 16 says)",
            len(meets),
            set(dist) == set(meets) and set(dist.values()) == {Fraction(1, 18), Fraction(1, 36)},
        )
    )
    return out


def _within_one(teams: Sequence[int], values: Sequence[object], k: int) -> bool:
    for group in (None, *set(values)):
        counts = Counter(t for t, v in zip(teams, values, strict=True) if group in (None, v))
        per = [counts.get(g, 0) for g in range(1, k + 1)]
        if max(per) - min(per) > 1:
            return False
    return True


def design_checks(pick_counts: PickCounts = None) -> list[dict[str, Any]]:
    """Every claim, checked by enumeration: ``{"name", "cases", "holds"}`` each.

    ``pick_counts`` weights the answers of ``randbelow(m)`` (default uniform): a biased
    source, under which the chance claims must fail.
    """
    return [
        *_order_claims(pick_counts),
        *_allocation_claims(pick_counts),
        *_team_claims(pick_counts),
    ]


def designs_report() -> dict[str, Any]:
    """The JSON-ready report of ``xlshuffle fairness --designs`` (:data:`DESIGNS_SCHEMA`)."""
    teams = team_distribution(["a", "a", "a", "b", "b", "b"], 3)
    tables = {
        "person_order n=3: chance of each order": person_distribution(3),
        "allocation 2:1 block 3: chance of each block": allocation_blocks([2, 1], 3),
        "balanced_groups aaabbb k=3: chance person 1 is in team 1, 2, 3": {
            g: sum((p for t, p in teams.items() if t[0] == g), Fraction(0)) for g in (1, 2, 3)
        },
    }
    return {
        "schema": DESIGNS_SCHEMA,
        "checks": design_checks(),
        "tables": {
            title: {
                "".join(map(str, key)) if isinstance(key, tuple) else str(key): str(p)
                for key, p in sorted(dist.items())
            }
            for title, dist in tables.items()
        },
    }


def print_designs(report: dict[str, Any]) -> None:
    """Print the ``--designs`` report as lines: one per claim, ``holds`` or ``FAILS``."""
    print(
        "Research and classroom designs, exact (every sequence of random answers "
        "enumerated through the real code; protocol sections 13-16):"
    )
    for c in report["checks"]:
        verdict = "holds" if c["holds"] else "FAILS"
        print(f"  {verdict}: {c['name']} (cases: {c['cases']:,})")
    for title, cells in report["tables"].items():
        print(f"\n{title}:\n    " + "  ".join(f"{k} {p}" for k, p in cells.items()))
