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

This module is the lab's documented face: every name above is importable from here.
The measurements are written in :mod:`xlshuffle.lab.exact` (exact distributions and
reachability), :mod:`xlshuffle.lab.sampled` (sampled tests and cost) and
:mod:`xlshuffle.lab.stats` (p-values).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..draw.errors import OptionError, SizeError
from .classic import ALGORITHMS, Algorithm
from .exact import (
    ExactSummary,
    enumerate_choices,
    exact_distribution,
    exact_positions,
    iter_choices,
    reachable_deals,
    summarise,
)
from .sampled import ALPHA, Cost, CountingSource, SampleResult, measure_cost, sample
from .shared import Tick
from .stats import chi2_sf, gammaincc

__all__ = [
    "ALPHA",
    "SCHEMA",
    "Cost",
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
    "run_lab",
    "sample",
    "summarise",
]

#: Name and version of the JSON report's schema.
SCHEMA = "xlshuffle/fairness/v1"


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
    return run_lab(n, trials, algorithms, seed, exact_n, alpha, progress)[0]


def run_lab(
    n: int,
    trials: int,
    algorithms: Iterable[str] | None,
    seed: object,
    exact_n: int | None,
    alpha: float,
    progress: Tick | None,
) -> tuple[dict[str, Any], list[SampleResult]]:
    """:func:`lab_report`'s report, and the sampled results behind it (what the command
    line's figures are drawn from), from positional arguments."""
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
