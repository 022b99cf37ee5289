"""Exact answers: the probability of every order, computed, never sampled.

:func:`exact_distribution` runs a shuffle through a *scripted source* that answers every
possible sequence of choices in turn (an odometer over the questions the code actually
asks, :func:`iter_choices`), and adds up the probability of each resulting order as a
:class:`fractions.Fraction` (:func:`enumerate_choices`). Two methods need more than brute
force: "check for duplicates" has unbounded choice sequences (a Markov recursion), and
"swap two random positions" has ``n**(2n)`` sequences (a Markov chain over orders).
:func:`reachable_deals` counts exactly how many deals VBA's ``Rnd`` can make.

Documented through :mod:`xlshuffle.lab.fairness`, which imports every public name here.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..draw.errors import SizeError
from ..draw.protocol import Source
from .classic import Algorithm, VbaRnd
from .shared import Perm, Tick, as_algorithm

__all__ = [
    "ExactSummary",
    "enumerate_choices",
    "exact_distribution",
    "exact_positions",
    "iter_choices",
    "reachable_deals",
    "summarise",
]


class _Exhausted(Exception):
    """Raised by the scripted source when a choice sequence reaches the depth limit."""


class _Script:
    """A source that answers from ``prefix`` and then with 0, recording every question."""

    __slots__ = ("asked", "limit", "prefix")

    def __init__(self, prefix: list[int], limit: int | None) -> None:
        self.prefix = prefix
        self.asked: list[int] = []
        self.limit = limit

    def randbelow(self, m: int, /) -> int:
        t = len(self.asked)
        if self.limit is not None and t >= self.limit:
            raise _Exhausted
        self.asked.append(m)
        if t == len(self.prefix):
            self.prefix.append(0)
        return self.prefix[t]


def iter_choices(
    run: Callable[[Sequence[object], Source], list[object]],
    n: int,
    *,
    max_draws: int | None = None,
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], Perm | None]]:
    """Run ``run(range(n), source)`` once for every possible sequence of choices.

    Yields ``(choices, questions, order)``: the answers given, the ``m`` of each
    ``randbelow(m)`` asked, and the order produced (``None`` when the sequence was cut
    at ``max_draws`` draws; it then stands for all its continuations). The sequences
    are visited like an odometer: the last answer that can still grow is increased and
    everything after it is asked afresh, so only the questions the code really asks are
    ever answered.

    Examples
    --------
    >>> from xlshuffle.lab.classic import durstenfeld_forward
    >>> [(c, order) for c, _, order in iter_choices(durstenfeld_forward, 3)][:3]
    [((0, 0), (0, 1, 2)), ((0, 1), (0, 2, 1)), ((1, 0), (1, 0, 2))]
    """
    items = list(range(n))
    prefix: list[int] = []
    while True:
        script = _Script(prefix, max_draws)
        try:
            result: Perm | None = tuple(run(items, script))  # type: ignore[arg-type]
        except _Exhausted:
            result = None
        asked = script.asked
        yield tuple(prefix[: len(asked)]), tuple(asked), result
        # Odometer: bump the last choice that can still grow, drop everything after it.
        t = len(asked) - 1
        while t >= 0 and prefix[t] + 1 >= asked[t]:
            t -= 1
        if t < 0:
            return
        del prefix[t + 1 :]
        prefix[t] += 1


def enumerate_choices(
    run: Callable[[Sequence[object], Source], list[object]],
    n: int,
    *,
    pick_counts: Callable[[int], list[int]] | None = None,
    max_draws: int | None = None,
    max_leaves: int = 2_000_000,
) -> tuple[dict[Perm, Fraction], Fraction]:
    """Feed ``run`` every sequence of choices and return the exact order probabilities.

    Parameters
    ----------
    run : callable
        ``run(items, source) -> list``, called on ``range(n)``.
    n : int
        Number of items.
    pick_counts : callable, optional
        Weight of each answer of ``randbelow(m)``: ``pick_counts(m)[v]`` out of their sum.
        Uniform (``1/m`` each) when omitted.
    max_draws : int, optional
        Stop any sequence after this many draws; its probability goes to the leftover.
    max_leaves : int
        Refuse to run more than this many complete sequences (raises ``SizeError``).

    Returns
    -------
    (dict, Fraction)
        The probability of each order reached, and the probability of the sequences
        cut off by ``max_draws`` (0 when there is no limit).

    Examples
    --------
    >>> from xlshuffle.lab.classic import naive_swap
    >>> dist, _ = enumerate_choices(naive_swap, 3)
    >>> [str(dist[p]) for p in sorted(dist)]
    ['4/27', '5/27', '5/27', '5/27', '4/27', '4/27']
    """
    cache: dict[int, tuple[list[int], int]] = {}

    def weights(m: int) -> tuple[list[int], int]:
        if m not in cache:
            counts = [1] * m if pick_counts is None else pick_counts(m)
            cache[m] = (counts, sum(counts))
        return cache[m]

    dist: dict[Perm, Fraction] = {}
    leftover = Fraction(0)
    leaves = 0
    for choices, asked, result in iter_choices(run, n, max_draws=max_draws):
        w_num, w_den = 1, 1
        for m, v in zip(asked, choices, strict=True):
            counts, total = weights(m)
            w_num *= counts[v]
            w_den *= total
        if not w_num:
            continue
        if result is None:
            leftover += Fraction(w_num, w_den)
            continue
        leaves += 1
        if leaves > max_leaves:
            raise SizeError(f"more than {max_leaves} choice sequences for n={n}: use a smaller n")
        dist[result] = dist.get(result, Fraction(0)) + Fraction(w_num, w_den)
    return dist, leftover


def _random_swaps_exact(n: int, rounds: int) -> dict[Perm, Fraction]:
    """Markov chain over orders for :func:`~xlshuffle.lab.classic.random_swaps`."""
    dist: dict[Perm, Fraction] = {tuple(range(n)): Fraction(1)}
    step = Fraction(1, n * n)
    for _ in range(rounds):
        nxt: dict[Perm, Fraction] = {}
        for perm, p in dist.items():
            q = p * step
            for i in range(n):
                for j in range(n):
                    a = list(perm)
                    a[i], a[j] = a[j], a[i]
                    key = tuple(a)
                    nxt[key] = nxt.get(key, Fraction(0)) + q
        dist = nxt
    return dist


def _rejection_exact(n: int) -> dict[Perm, Fraction]:
    """Markov recursion for :func:`~xlshuffle.lab.classic.rejection`.

    A rejected draw leaves the deck as it was, so from a deck with ``e`` empty slots the
    next card lands in each empty slot with probability ``(1/n) / (e/n) = 1/e`` (the
    geometric series of retries summed). The recursion follows partial decks card by
    card with those probabilities.
    """
    empty = -1
    dist: dict[Perm, Fraction] = {tuple([empty] * n): Fraction(1)}
    for card in range(n):
        nxt: dict[Perm, Fraction] = {}
        for deck, p in dist.items():
            slots = [s for s, v in enumerate(deck) if v == empty]
            q = p / len(slots)
            for s in slots:
                a = list(deck)
                a[s] = card
                key = tuple(a)
                nxt[key] = nxt.get(key, Fraction(0)) + q
        dist = nxt
    return dist


def exact_distribution(alg: Algorithm | str, n: int) -> dict[Perm, Fraction]:
    """Return the exact probability of every order an algorithm can produce on ``n`` items.

    Keys are orders of ``range(n)`` (``perm[p]`` is the item in slot ``p``); orders that
    cannot occur are absent. The generator-driven methods (``rand-mod``, ``vba-rnd``) are
    modelled with independent generator outputs, each uniform over the generator's
    values: that captures their per-draw bias (modulo, floor), not their limited number
    of states (see :func:`reachable_deals` and the repeated-deal test of :func:`sample`).

    Examples
    --------
    >>> dist = exact_distribution("naive-swap", 3)
    >>> [(p, str(dist[p])) for p in sorted(dist)][:2]
    [((0, 1, 2), '4/27'), ((0, 2, 1), '5/27')]
    >>> set(exact_distribution("rejection", 3).values())
    {Fraction(1, 6)}
    """
    a = as_algorithm(alg)
    if a.name == "rejection":
        return _rejection_exact(n)
    if a.name == "random-swaps" and n >= 5:  # n**(2n) sequences: 9.7 million at n = 5
        return _random_swaps_exact(n, n)
    dist, _ = enumerate_choices(a.core, n, pick_counts=a.pick_counts)
    return dist


@dataclass(frozen=True)
class ExactSummary:
    """How far an exact distribution is from uniform.

    Attributes
    ----------
    n : int
    orders : int
        ``n!``.
    reached : int
        How many orders have a probability above zero.
    min_p, max_p : Fraction
        Smallest and largest probability over all ``n!`` orders (0 if one is missed).
    ratio : Fraction or None
        ``max_p / min_p``; ``None`` when some order is impossible.
    tvd : Fraction
        Total variation distance to uniform: ``sum(|p - 1/n!|) / 2``, the largest
        difference in probability any event can show.
    """

    n: int
    orders: int
    reached: int
    min_p: Fraction
    max_p: Fraction
    ratio: Fraction | None
    tvd: Fraction

    @property
    def fair(self) -> bool:
        """True when every order has probability exactly ``1/n!``."""
        return self.tvd == 0


def summarise(dist: dict[Perm, Fraction], n: int) -> ExactSummary:
    """Summarise an exact distribution over the orders of ``n`` items.

    Examples
    --------
    >>> s = summarise(exact_distribution("naive-swap", 3), 3)
    >>> s.ratio, s.tvd
    (Fraction(5, 4), Fraction(1, 18))
    """
    orders = math.factorial(n)
    u = Fraction(1, orders)
    probs = list(dist.values())
    missing = orders - sum(1 for p in probs if p)
    lo = Fraction(0) if missing else min(probs)
    hi = max(probs) if probs else Fraction(0)
    tvd = (sum((abs(p - u) for p in probs), Fraction(0)) + missing * u) / 2
    return ExactSummary(
        n=n,
        orders=orders,
        reached=orders - missing,
        min_p=lo,
        max_p=hi,
        ratio=None if lo == 0 else hi / lo,
        tvd=tvd,
    )


def exact_positions(dist: dict[Perm, Fraction], n: int) -> list[list[Fraction]]:
    """``m[i][j]``: exact probability that item ``i`` ends in slot ``j``."""
    m = [[Fraction(0)] * n for _ in range(n)]
    for perm, p in dist.items():
        for j, i in enumerate(perm):
            m[i][j] += p
    return m


# --------------------------------------------------------------------------- reachability


def reachable_deals(n: int, *, bits: int = 24, progress: Tick | None = None) -> int:
    """Count the different deals VBA's ``Int(Rnd * n)`` shuffle makes from every start.

    The shuffle (:func:`~xlshuffle.lab.classic.vba_int_rnd`) is fixed by the generator's
    state, so there are at most ``2**bits`` deals. This counts them exactly: states are
    split by their first pick, then each group by its second pick, and so on, until every
    group holds one state (a deal nobody else makes) or the picks run out (one deal made
    by the whole group). Work is about five passes over the ``2**bits`` states: roughly
    a minute for ``bits=24`` in CPython.

    Parameters
    ----------
    n : int
        Items per deal.
    bits : int
        State size; 24 is VBA. Smaller values run the same constants modulo
        ``2**bits`` (for tests).
    progress : callable, optional
        Called once for each of the ``n`` groups of the first pick.

    Examples
    --------
    A 12-bit relative of the generator reaches only 563 of the 720 orders of 6 items:

    >>> reachable_deals(6, bits=12), math.factorial(6)
    (563, 720)
    """
    size = 1 << bits
    mask = size - 1
    a, c = VbaRnd.A, VbaRnd.C
    if n <= 1:
        return 1

    def count(xs: list[int], k: int) -> int:
        # xs: sorted states about to answer Int(Rnd * k); all made the same picks so far.
        if k < 2:
            return 1
        total = 0
        i, end = 0, len(xs)
        while i < end:
            v = (xs[i] * k) >> bits
            j = bisect_left(xs, -(-(v + 1) * size // k), i)
            if j - i == 1:
                total += 1
            else:
                total += count(sorted([(a * x + c) & mask for x in xs[i:j]]), k - 1)
            i = j
        return total

    total = 0
    for v in range(n):
        lo, hi = -(-v * size // n), -(-(v + 1) * size // n)
        if hi - lo <= 1:
            total += hi - lo
        else:
            total += count(sorted([(a * x + c) & mask for x in range(lo, hi)]), n - 1)
        if progress is not None:
            progress()
    return total
