"""The fairness lab: exact and sampled measurements of the classic shuffles.

Pure standard library (matplotlib lives in ``xlshuffle.lab.plots``). Four measurements:

Exact
    :func:`exact_distribution` runs a shuffle through a *scripted source* that answers
    every possible sequence of choices in turn (an odometer over the questions the code
    actually asks), and adds up the probability of each resulting order as a
    :class:`fractions.Fraction`. Nothing is sampled: naive swap on 3 items comes out
    exactly 4/27, 5/27, 5/27, 5/27, 4/27, 4/27. Two methods need more than brute force:
    "check for duplicates" has unbounded choice sequences (handled by a Markov recursion,
    which a test brackets with the truncated enumeration of the real code), and "swap two
    random positions" has ``n**(2n)`` sequences (handled by a Markov chain over orders).
Sampled
    :func:`sample` runs many seeded shuffles and applies a chi-square test to the counts of
    every order (small ``n``) or to the position matrix (item ``i`` lands in slot ``j``,
    ``n`` up to 52), plus a repeated-deal (birthday) test that catches generators with too
    few states. p-values come from :func:`chi2_sf`, a pure-Python regularised incomplete
    gamma function.
Reachability
    :func:`reachable_deals` counts, exactly, how many different deals VBA's 24-bit ``Rnd``
    can produce from all ``2**24`` starting states.
Cost
    :func:`measure_cost` times one algorithm and counts its random draws per item.

:func:`lab_report` runs them all and returns the JSON-ready report described in
``docs/fairness.md`` (schema ``xlshuffle/fairness/v1``).
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from operator import itemgetter
from typing import Any

from ..draw.errors import OptionError, SizeError
from ..draw.protocol import DrawStream, Source
from .classic import ALGORITHMS, Algorithm, MsvcRand, VbaRnd

__all__ = [
    "SCHEMA",
    "CountingSource",
    "ExactSummary",
    "SampleResult",
    "chi2_sf",
    "enumerate_choices",
    "exact_distribution",
    "exact_positions",
    "gammaincc",
    "iter_choices",
    "lab_report",
    "lab_steps",
    "measure_cost",
    "reachable_deals",
    "resolve_algorithms",
    "sample",
    "summarise",
]

#: Name and version of the JSON report's schema.
SCHEMA = "xlshuffle/fairness/v1"

Perm = tuple[int, ...]
Tick = Callable[[], None]  # called once per step of work, e.g. Progress.advance

# --------------------------------------------------------------------------- helpers


def resolve_algorithms(names: Iterable[str] | None) -> list[Algorithm]:
    """Return the algorithms named (all of them for ``None``), in the lab's order.

    Raises
    ------
    OptionError
        For an unknown name; the message lists the known ones.
    """
    if names is None:
        return list(ALGORITHMS.values())
    wanted = []
    for name in names:
        key = name.strip().lower()
        if key not in ALGORITHMS:
            known = ", ".join(ALGORITHMS)
            raise OptionError(f"unknown algorithm {name!r}: choose from {known}")
        wanted.append(key)
    return [a for a in ALGORITHMS.values() if a.name in wanted]


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


def _algorithm(alg: Algorithm | str) -> Algorithm:
    return ALGORITHMS[alg] if isinstance(alg, str) else alg


# --------------------------------------------------------------------------- exact


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
    a = _algorithm(alg)
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


# --------------------------------------------------------------------------- p-values

_EPS = 1e-15
_TINY = 1e-300


def gammaincc(a: float, x: float) -> float:
    """Regularised upper incomplete gamma function ``Q(a, x) = Gamma(a, x) / Gamma(a)``.

    A series for the lower function when ``x < a + 1`` and Lentz's continued fraction
    otherwise (the split of Numerical Recipes, section 6.2), in double precision.

    Examples
    --------
    >>> round(gammaincc(1.0, 2.0), 12) == round(math.exp(-2.0), 12)
    True
    """
    if a <= 0:
        raise ValueError(f"gammaincc needs a > 0, got {a}")
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(1_000_000):
            k += 1
            term *= x / k
            total += term
            if term < total * _EPS:
                return max(0.0, 1.0 - total * math.exp(log_front))
        raise ArithmeticError(f"gammaincc series did not converge for a={a}, x={x}")
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, 1_000_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            return math.exp(log_front) * h
    raise ArithmeticError(f"gammaincc fraction did not converge for a={a}, x={x}")


def chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution: ``P(X >= x)`` with ``df`` degrees of freedom.

    Examples
    --------
    >>> round(chi2_sf(3.841458820694124, 1), 6)
    0.05
    """
    return gammaincc(df / 2, x / 2)


def _poisson_sf(r: int, lam: float) -> float:
    """``P(X >= r)`` for ``X ~ Poisson(lam)``, summing the tail directly (no cancellation)."""
    if r <= 0:
        return 1.0
    if lam <= 0:
        return 0.0
    term = math.exp(r * math.log(lam) - lam - math.lgamma(r + 1))
    total = 0.0
    k = r
    while term > total * _EPS and k < r + 100_000:
        total += term
        k += 1
        term *= lam / k
    return min(1.0, total)


# --------------------------------------------------------------------------- sampled


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

    The trials of each algorithm draw from ``DrawStream(f"{seed}:{name}")``, so every
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
    a = _algorithm(alg)
    if n < 2:
        raise SizeError(f"n must be at least 2 items, got {n}")
    if trials < 1:
        raise SizeError(f"trials must be at least 1, got {trials}")
    stream = DrawStream(f"{seed}:{a.name}")
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
        pairs_p = _poisson_sf(pairs, lam)
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
    a = _algorithm(alg)
    items = list(range(n))
    stream = DrawStream(seed)
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


# --------------------------------------------------------------------------- report


def lab_steps(algorithms: int, trials: int) -> int:
    """How many times :func:`lab_report` calls ``progress`` (for a progress bar)."""
    return algorithms * (-(-trials // 1000) + 2)


def lab_report(
    *,
    n: int = 52,
    trials: int = 20_000,
    algorithms: Iterable[str] | None = None,
    seed: object = "xlshuffle fairness",
    exact_n: int | None = None,
    alpha: float = ALPHA,
    progress: Tick | None = None,
) -> dict[str, Any]:
    """Run the whole lab and return the JSON-ready report (schema :data:`SCHEMA`).

    Every algorithm gets an exact enumeration at ``exact_n`` items (``min(n, 6)`` by
    default), ``trials`` sampled shuffles of ``n`` items, and a cost measurement at
    ``n``. ``progress`` is called :func:`lab_steps` times.

    Examples
    --------
    >>> r = lab_report(n=4, trials=200, algorithms=["forward", "naive-swap"])
    >>> r["schema"], [a["exact"]["tvd"] for a in r["algorithms"]]
    ('xlshuffle/fairness/v1', ['0', '25/384'])
    """
    return _lab(n, trials, algorithms, seed, exact_n, alpha, progress)[0]


def _lab(
    n: int,
    trials: int,
    algorithms: Iterable[str] | None,
    seed: object,
    exact_n: int | None,
    alpha: float,
    progress: Tick | None,
) -> tuple[dict[str, Any], list[SampleResult]]:
    algs = resolve_algorithms(algorithms)
    if exact_n is None:
        exact_n = min(n, 6)
    if n < 2:
        raise SizeError(f"n must be at least 2 items, got {n}")
    rows = []
    samples = []
    for a in algs:
        dist = exact_distribution(a, exact_n)
        s = summarise(dist, exact_n)
        if progress is not None:
            progress()
        r = sample(a, n, trials, seed=seed, alpha=alpha, progress=progress)
        samples.append(r)
        c = measure_cost(a, n, seed=f"{seed}:cost")
        if progress is not None:
            progress()
        rows.append(
            {
                "name": a.name,
                "title": a.title,
                "fair": a.fair,
                "why": a.why,
                "complexity": a.complexity,
                "exact": {
                    "n": exact_n,
                    "orders": s.orders,
                    "reached": s.reached,
                    "min_p": str(s.min_p),
                    "max_p": str(s.max_p),
                    "ratio": None if s.ratio is None else float(s.ratio),
                    "tvd": str(s.tvd),
                    "tvd_float": float(s.tvd),
                },
                "sampled": {
                    "test": r.test,
                    "statistic": r.statistic,
                    "df": r.df,
                    "p_value": r.p_value,
                    "repeat_pairs": r.repeat_pairs,
                    "repeat_p_value": r.repeat_p_value,
                    "biased": r.biased,
                },
                "cost": {
                    "n": c.n,
                    "seconds_per_shuffle": c.seconds,
                    "draws_per_item": c.draws_per_item,
                },
            }
        )
    report = {
        "schema": SCHEMA,
        "n": n,
        "trials": trials,
        "seed": str(seed),
        "alpha": alpha,
        "exact_n": exact_n,
        "algorithms": rows,
    }
    return report, samples
