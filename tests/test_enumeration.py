"""Exact enumeration: every sequence of random choices, fed through a scripted source.

The forward Durstenfeld shuffle on n items asks randbelow(n), randbelow(n-1), ... randbelow(2):
n! choice sequences. A fair shuffle maps them one-to-one onto the n! permutations. These
tests drive the public functions with a scripted source, so they check the real code path
(not a copy of the algorithm), and they fail on the classic biased swap.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from xlshuffle import deal, shuffled
from xlshuffle.draw.knuth import durstenfeld


class ScriptedSource:
    """A source that answers randbelow from a fixed list and checks what it is asked."""

    def __init__(self, choices: Sequence[int]) -> None:
        self._choices: Iterator[int] = iter(choices)
        self.asked: list[int] = []

    def randbelow(self, m: int, /) -> int:
        self.asked.append(m)
        r = next(self._choices)
        if not 0 <= r < m:
            raise AssertionError(f"scripted choice {r} out of range for randbelow({m})")
        return r


def choice_sequences(n: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(*(range(m) for m in range(n, 1, -1)))


@pytest.mark.parametrize("n", range(0, 7))
def test_every_choice_sequence_gives_a_distinct_permutation(n: int) -> None:
    seen = Counter()
    for choices in choice_sequences(n):
        source = ScriptedSource(choices)
        seen[tuple(shuffled(range(n), seed=source))] += 1
        assert source.asked == list(range(n, 1, -1))
    assert len(seen) == math.factorial(n)
    assert set(seen.values()) == {1}
    assert set(seen) == set(itertools.permutations(range(n)))


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 1), (5, 2), (5, 4), (6, 3)])
def test_every_partial_deal_is_equally_likely(n: int, k: int) -> None:
    # A deal of k makes min(k, n-1) choices: n * (n-1) * ... choice sequences, each deal once.
    steps = min(k, n - 1)
    counts = Counter(
        tuple(deal(range(n), k, seed=ScriptedSource(c)))
        for c in itertools.product(*(range(n - i) for i in range(steps)))
    )
    assert len(counts) == math.perm(n, k)
    assert set(counts.values()) == {1}


def naive_swap(items: list[int], randbelow: ScriptedSource) -> None:
    """The classic mistake: swap each position with *any* position (n**n paths)."""
    n = len(items)
    for i in range(n):
        j = randbelow.randbelow(n)
        items[i], items[j] = items[j], items[i]


def test_the_same_enumeration_exposes_the_naive_swap() -> None:
    n = 3
    counts = Counter()
    for choices in itertools.product(range(n), repeat=n):
        items = [1, 2, 3]
        naive_swap(items, ScriptedSource(choices))
        counts["".join(map(str, items))] += 1
    assert sum(counts.values()) == 27
    assert [counts[p] for p in ("123", "132", "213", "231", "312", "321")] == [4, 5, 5, 5, 4, 4]


def test_seam_and_public_path_agree() -> None:
    for choices in choice_sequences(5):
        a = list(range(5))
        durstenfeld(a, 4, ScriptedSource(choices).randbelow)
        assert a == shuffled(range(5), seed=ScriptedSource(choices))
