"""Measurements that run the shuffles: sampled tests of fairness, and their cost.

:func:`sample` runs many seeded shuffles and applies a chi-square test to the counts of
every order (small ``n``) or to the position matrix (``n`` up to 52), plus a repeated-deal
(birthday) test that catches generators with too few states; :func:`measure_cost` times
one algorithm and counts its random draws per item.

Documented through :mod:`xlshuffle.lab.fairness`, which imports every public name here.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from itertools import permutations
from operator import itemgetter

from ..draw.errors import SizeError
from ..draw.protocol import Source
from ..draw.seed import Seed
from .classic import Algorithm, MsvcRand, VbaRnd
from .shared import Perm, Tick, as_algorithm
from .stats import chi2_sf, poisson_sf

__all__ = ["ALPHA", "Cost", "CountingSource", "SampleResult", "measure_cost", "sample"]


class CountingSource:
    """Wrap a source and count its ``randbelow`` calls in :attr:`draws`."""

    __slots__ = ("draws", "source")

    def __init__(self, source: Source) -> None:
        self.source = source
        self.draws = 0

    def randbelow(self, m: int, /) -> int:
        """Forward to the wrapped source, counting the call."""
        self.draws += 1
        return self.source.randbelow(m)


@dataclass(frozen=True)
class SampleResult:
    """Result of :func:`sample`.

    Attributes
    ----------
    name : str
        The algorithm's name.
    n, trials : int
        Items per shuffle and number of shuffles.
    test : str
        ``"orders"`` (chi-square over all ``n!`` orders) or ``"positions"`` (over the
        ``n x n`` position matrix).
    statistic : float
        The chi-square statistic; for positions it is scaled by ``(n-1)/n`` so that it
        follows chi-square with ``(n-1)**2`` degrees of freedom under fairness (the
        cells of a random permutation matrix are not independent).
    df : int
    p_value : float
    repeat_pairs : int or None
        Pairs of trials that produced the same order; ``None`` when repeats are expected
        anyway (``trials**2 > n!``) and the test is skipped.
    repeat_p_value : float or None
        Chance of at least that many repeated pairs from a fair shuffle (Poisson).
    positions : list of list of int
        ``positions[i][j]``: how often item ``i`` ended in slot ``j``.
    orders : dict or None
        Count of each order (``n <= 6`` only).
    alpha : float
        Threshold each p-value is compared with.
    """

    name: str
    n: int
    trials: int
    test: str
    statistic: float
    df: int
    p_value: float
    repeat_pairs: int | None
    repeat_p_value: float | None
    positions: list[list[int]]
    orders: dict[Perm, int] | None
    alpha: float

    @property
    def biased(self) -> bool:
        """True when any test rejects fairness at :attr:`alpha`."""
        p = [self.p_value] + ([] if self.repeat_p_value is None else [self.repeat_p_value])
        return min(p) < self.alpha


#: Default threshold for each sampled test. A fair shuffle fails one test with
#: probability 1e-4, and one of its two tests with at most 2e-4 (union bound).
ALPHA = 1e-4


def sample(
    alg: Algorithm | str,
    n: int,
    trials: int,
    *,
    seed: object = "xlshuffle fairness",
    alpha: float = ALPHA,
    progress: Tick | None = None,
) -> SampleResult:
    """Shuffle ``range(n)`` ``trials`` times and test the counts for fairness.

    The trials of each algorithm draw from the stream of the seed ``f"{seed}:{name}"``, so every
    run is reproducible and each algorithm sees its own stream.

    Parameters
    ----------
    alg : Algorithm or str
    n : int
        Items per shuffle, 2 or more.
    trials : int
        Number of shuffles, 1 or more.
    seed : seed, optional
    alpha : float
        Threshold for each p-value (see :data:`ALPHA`).
    progress : callable, optional
        Called once per 1,000 trials.

    Examples
    --------
    >>> r = sample("naive-swap", 3, 6000, seed=1)
    >>> r.test, r.df, r.biased
    ('orders', 5, True)
    """
    a = as_algorithm(alg)
    if n < 2:
        raise SizeError(f"n must be at least 2 items, got {n}")
    if trials < 1:
        raise SizeError(f"trials must be at least 1, got {trials}")
    stream = Seed.given(f"{seed}:{a.name}").stream()
    items = list(range(n))
    run = a.run
    results: list[Perm] = []
    done = 0
    while done < trials:
        chunk = min(1000, trials - done)
        results.extend(tuple(run(items, stream)) for _ in range(chunk))  # type: ignore[arg-type]
        done += chunk
        if progress is not None:
            progress()
    tally: Counter[Perm] = Counter(results)
    cols = [Counter(map(itemgetter(j), results)) for j in range(n)]
    positions = [[cols[j][i] for j in range(n)] for i in range(n)]
    orders_total = math.factorial(n)
    if n <= 6 and trials >= 5 * orders_total:
        expected = trials / orders_total
        stat = sum((tally.get(p, 0) - expected) ** 2 for p in permutations(range(n))) / expected
        test, df = "orders", orders_total - 1
    else:
        expected = trials / n
        raw = sum((c - expected) ** 2 for row in positions for c in row) / expected
        stat = raw * (n - 1) / n
        test, df = "positions", (n - 1) ** 2
    pairs: int | None = None
    pairs_p: float | None = None
    lam = trials * (trials - 1) / 2 / orders_total
    if lam < 0.5:  # otherwise repeats are expected from any shuffle and say nothing
        pairs = sum(c * (c - 1) // 2 for c in tally.values())
        pairs_p = poisson_sf(pairs, lam)
    return SampleResult(
        name=a.name,
        n=n,
        trials=trials,
        test=test,
        statistic=stat,
        df=df,
        p_value=chi2_sf(stat, df),
        repeat_pairs=pairs,
        repeat_p_value=pairs_p,
        positions=positions,
        orders=dict(tally) if n <= 6 else None,
        alpha=alpha,
    )


# --------------------------------------------------------------------------- cost


@dataclass(frozen=True)
class Cost:
    """Time and randomness one shuffle of ``n`` items takes."""

    n: int
    seconds: float
    draws_per_item: float
    repeats: int


def measure_cost(
    alg: Algorithm | str,
    n: int,
    *,
    seed: object = "xlshuffle cost",
    min_time: float = 0.05,
    max_repeats: int = 1000,
) -> Cost:
    """Time one algorithm on ``n`` items and count the random draws it uses.

    Shuffles repeat until ``min_time`` seconds have passed (or ``max_repeats``); the
    time reported is the fastest one, the least disturbed by other work on the machine
    (the advice of :mod:`timeit`).
    Draws are counted on separate runs: calls to the source's ``randbelow`` for the fair
    methods, calls to ``rand()`` / ``Rnd`` for the generator-driven ones (the one draw
    that seeds them is not counted).

    Examples
    --------
    >>> measure_cost("forward", 100, min_time=0).draws_per_item
    0.99
    """
    a = as_algorithm(alg)
    items = list(range(n))
    stream = Seed.given(seed).stream()
    run = a.run
    times: list[float] = []
    spent = 0.0
    while len(times) < max_repeats and (not times or spent < min_time):
        t0 = time.perf_counter()
        run(items, stream)
        times.append(time.perf_counter() - t0)
        spent += times[-1]
    repeats = len(times)
    # Draws are counted on separate runs (a counting wrapper would slow the timed ones),
    # averaged over 3 to 10 runs: the retry method's count varies a lot from run to run.
    runs = max(3, min(repeats, 10))
    draws = 0
    for _ in range(runs):
        if a.name in ("rand-mod", "vba-rnd"):
            gen: MsvcRand | VbaRnd = (
                MsvcRand(stream.randbelow(1 << 32))
                if a.name == "rand-mod"
                else VbaRnd(stream.randbelow(1 << 24))
            )
            run(items, gen)
            draws += gen.calls
        else:
            counting = CountingSource(stream)
            run(items, counting)
            draws += counting.draws
    per_item = draws / runs / n if n else 0.0
    return Cost(n=n, seconds=min(times), draws_per_item=per_item, repeats=repeats)
