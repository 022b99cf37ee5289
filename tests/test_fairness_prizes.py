"""Exact chances of a prize table (protocol section 9) in ``xlshuffle fairness --draws``:
the lab's enumeration of the real draw against an independent brute force.

The brute force here knows only the protocol's text: a weighted draw takes each next entrant
with chance weight / tickets still in the draw (section 8), so an ordered outcome of K
distinct entrants has the product of those chances; the first ``count`` places of the
outcome win the first prize, and so on, then each prize's reserves in the table's order
(section 9). It shares no code with xlshuffle."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from xlshuffle.cli import main
from xlshuffle.lab.raffles import draws_report, prize_chances
from xlshuffle.tabledraw.raffle_options import Prize

Table = list[tuple[str, int, int]]


def brute_force(
    weights: list[int], table: Table
) -> tuple[list[dict[str, Fraction]], list[dict[str, Fraction]], list[Fraction]]:
    places = [name for name, count, _ in table for _ in range(count)]
    roles = ["winner"] * len(places)
    for name, _, reserves in table:
        places += [name] * reserves
        roles += ["reserve"] * reserves
    won = [{name: Fraction(0) for name, _, _ in table} for _ in weights]
    held = [{name: Fraction(0) for name, _, _ in table} for _ in weights]
    nothing = [Fraction(1)] * len(weights)
    total = sum(weights)
    for order in itertools.permutations(range(len(weights)), len(places)):
        p, left = Fraction(1), total
        for i in order:
            p *= Fraction(weights[i], left)
            left -= weights[i]
        if not p:
            continue
        for i, name, role in zip(order, places, roles, strict=True):
            (won if role == "winner" else held)[i][name] += p
            nothing[i] -= p
    return won, held, nothing


CASES: list[tuple[list[int], Table]] = [
    ([2, 1, 1], [("Bike", 1, 0), ("Mug", 1, 1)]),
    ([3, 2, 1, 1, 1], [("Third", 2, 1), ("Grand", 1, 1)]),
    ([5, 3, 1, 1, 0], [("Grand", 1, 2), ("Second", 1, 0)]),
    ([1, 1, 1, 1, 1], [("Mug", 2, 1), ("Bike", 1, 1)]),
    ([4, 6, 2], [("Only", 1, 1)]),  # a common divisor: the same draw as 2 3 1
]


@pytest.mark.parametrize(("weights", "table"), CASES, ids=lambda x: str(x))
def test_each_entrants_chance_of_each_prize_is_the_brute_forces(
    weights: list[int], table: Table
) -> None:
    c = prize_chances(weights, [Prize(*row) for row in table])
    won, held, nothing = brute_force(weights, table)
    assert c.won == won
    assert c.reserve == held
    assert c.none == nothing
    for i in range(len(weights)):  # one prize at most: the chances add up to one
        assert sum(c.won[i].values()) + sum(c.reserve[i].values()) + c.none[i] == 1
    report = draws_report(weights, sum(r[1] for r in table), prizes=[Prize(*r) for r in table])
    assert all(check["holds"] for check in report["checks"]), report["checks"]
    assert report["prizes"]["entrants"][0]["won"] == {k: str(v) for k, v in won[0].items()}


def test_fairness_draws_prints_and_reports_a_prize_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "prizes.csv"
    table.write_text("Bike,1,1\nMug,2,0\n", encoding="utf-8")
    argv = ["fairness", "--draws", "--weights", "3", "2", "1", "1", "--prizes", str(table)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "weights 3 2 1 1, 3 winners" in out
    assert "Chance of each prize of the table" in out
    won, held, _ = brute_force([3, 2, 1, 1], [("Bike", 1, 1), ("Mug", 2, 0)])
    assert f"{won[1]['Mug']} (0.567)" in out and f"{held[2]['Bike']} (0.390)" in out
    assert "FAILS" not in out and out.count("  holds: prize table:") == 3
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["prizes"]["table"][0] == {"prize": "Bike", "count": 1, "reserves": 1}
    assert report["prizes"]["entrants"][3]["reserve"]["Bike"] == str(held[3]["Bike"])
    assert main([*argv, "--winners", "2"]) == 2
    assert "the prize table says how many win" in capsys.readouterr().err
