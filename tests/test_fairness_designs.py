"""The fairness lab's proofs of the research and classroom designs, held against closed
forms worked out here.

``xlshuffle.lab.designs`` runs the real per-person and counterbalanced orders, block
allocation lists and balanced teams through the scripted source; each test compares its
Fractions with ``1/n!``, ``prod(count!)/s!`` or ``1/k`` computed in this file. A biased
source must make the chance claims fail, or these checks prove nothing.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import pytest

from xlshuffle.cli import main
from xlshuffle.draw.errors import SizeError
from xlshuffle.draw.orders import williams_design
from xlshuffle.lab.designs import (
    allocation_blocks,
    balanced_distribution,
    design_checks,
    person_distribution,
    team_distribution,
)


@pytest.mark.parametrize(("n", "k"), [(3, None), (4, None), (4, 2), (5, 3)])
def test_person_order_every_order_equally_likely(n: int, k: int | None) -> None:
    dist = person_distribution(n, k)
    want = Fraction(math.factorial(n - (k or n)), math.factorial(n))
    assert set(dist) == set(itertools.permutations(range(n), k or n))
    assert all(p == want for p in dist.values())


@pytest.mark.parametrize("n", [3, 4])
def test_balanced_orders_positions_and_each_person_uniform(n: int) -> None:
    rows = len(williams_design(n))
    dist = balanced_distribution(n, rows)
    assert sum(dist.values()) == 1
    for outcome in dist:
        for p in range(n):
            assert Counter(row[p] for row in outcome) == dict.fromkeys(range(n), rows // n)
    for j in range(rows):
        person: Counter[tuple[int, ...]] = Counter()
        for outcome, p in dist.items():
            person[outcome[j]] += p  # type: ignore[assignment]
        assert set(person) == set(itertools.permutations(range(n)))
        assert all(p == Fraction(1, math.factorial(n)) for p in person.values())


@pytest.mark.parametrize(("ratio", "size"), [([1, 1], 4), ([2, 1], 3), ([2, 1], 6), ([1, 1], 6)])
def test_allocation_block_arrangements_equally_likely(ratio: list[int], size: int) -> None:
    counts = [r * size // sum(ratio) for r in ratio]
    arms = "".join(a * c for a, c in zip("AB", counts, strict=True))
    want = Fraction(math.prod(math.factorial(c) for c in counts), math.factorial(size))
    dist = allocation_blocks(ratio, size)
    assert set(dist) == {"".join(p) for p in itertools.permutations(arms)}
    assert all(p == want for p in dist.values())


@pytest.mark.parametrize("k", [2, 3])
def test_balanced_groups_chances_and_balance(k: int) -> None:
    values = ["a", "a", "a", "b", "b", "b"]
    dist = team_distribution(values, k)
    for i in range(len(values)):
        for team in range(1, k + 1):
            assert sum(p for t, p in dist.items() if t[i] == team) == Fraction(1, k)
    for teams in dist:
        for keep in (None, "a", "b"):
            per = Counter(t for t, v in zip(teams, values, strict=True) if keep in (None, v))
            sizes = [per.get(g, 0) for g in range(1, k + 1)]
            assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize(
    ("people", "k"),
    [
        ("aaabbb", 2),
        ("aabb", 3),
        ("aaaaab", 2),
        ("aabbc", 2),
        pytest.param("aabbbcc", 3, marks=pytest.mark.slow),  # 3**7 assignments: seconds
    ],
)
def test_balanced_groups_is_uniform_over_the_balanced_assignments(people: str, k: int) -> None:
    # every labelled assignment (person -> team) whose team sizes, and each value's count
    # per team, differ by at most one: enumerated here, on its own
    values = list(people)
    meets = []
    for teams in itertools.product(range(1, k + 1), repeat=len(values)):
        spreads = []
        for keep in (None, *set(values)):
            per = Counter(t for t, v in zip(teams, values, strict=True) if keep in (None, v))
            spreads.append(
                max(per.get(g, 0) for g in range(1, k + 1))
                - min(per.get(g, 0) for g in range(1, k + 1))
            )
        if max(spreads) <= 1:
            meets.append(teams)
    dist = team_distribution(values, k)
    assert set(dist) == set(meets)
    assert set(dist.values()) == {Fraction(1, len(meets))}


def test_balanced_groups_is_not_uniform_in_general() -> None:
    # protocol section 16 says so; the lab's smallest case: a b c c into three teams
    values = list("abcc")
    dist = team_distribution(values, 3)
    assert len(dist) == 30  # every assignment with sizes 2,1,1 and the two c's apart
    assert sorted(set(dist.values())) == [Fraction(1, 36), Fraction(1, 18)]


def test_every_claim_holds() -> None:
    checks = design_checks()
    assert len(checks) == 18
    assert all(c["holds"] for c in checks), [c["name"] for c in checks if not c["holds"]]


def test_a_biased_source_fails_the_chance_claims() -> None:
    # randbelow(m) answers 0 twice as often as any other: no longer uniform
    checks = design_checks(lambda m: [2] + [1] * (m - 1))
    failed = {c["name"] for c in checks if not c["holds"]}
    assert "person_order n=3: every order has chance 1/6" in failed
    assert any(name.startswith("allocation 1:1 block 4") for name in failed)
    assert any("each person in each team 1/2" in name for name in failed)
    assert any(name.startswith("balanced_groups aaabbc, k=3: every one") for name in failed)
    # the structural guarantees hold whatever the answers
    assert all(c["holds"] for c in checks if "for every answer" in c["name"])


def test_enumeration_is_bounded() -> None:
    with pytest.raises(SizeError):
        person_distribution(11)
    with pytest.raises(SizeError):
        allocation_blocks([1, 1], 12)


def test_cli_designs_prints_one_holding_line_per_claim(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fairness", "--designs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    claims = [x for x in lines if x.startswith(("  holds: ", "  FAILS: "))]
    assert len(claims) == 18
    assert all("holds" in x for x in claims)
    assert "    AAB 1/3  ABA 1/3  BAA 1/3" in lines


def test_cli_designs_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fairness", "--designs", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == "xlshuffle/fairness-designs/v1"
    assert all(c["holds"] for c in report["checks"])
    tables = report["tables"]
    assert tables["person_order n=3: chance of each order"]["021"] == "1/6"
    assert set(
        tables["balanced_groups aaabbb k=3: chance person 1 is in team 1, 2, 3"].values()
    ) == {"1/3"}


@pytest.mark.parametrize("extra", [["--draws"], ["--algorithms", "forward"], ["--winners", "2"]])
def test_cli_designs_refuses_other_options(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fairness", "--designs", *extra]) == 2
    assert "does not apply to --designs" in capsys.readouterr().err


def test_the_real_streams_are_restored_after_the_lab() -> None:
    from xlshuffle.draw import allocate, orders

    before = (orders.person_stream, allocate.allocation_stream)
    design_checks()
    assert (orders.person_stream, allocate.allocation_stream) == before
    assert orders.person_order(["A", "B", "C", "D"], "Ann", seed="class 4B") == list("CADB")
