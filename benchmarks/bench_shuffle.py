"""Benchmark: seeded xlshuffle.shuffle of 1,048,576 items against the standard library.

Usage: python benchmarks/bench_shuffle.py [--n 1048576] [--repeat 7]

Every contender shuffles a fresh copy of the same list in the same process, one after
another within each repetition, so a busy machine slows them alike. Reported: the minimum
and median wall time of each, and their ratios to ``random.shuffle`` (the named
baseline). ``numpy.random.Generator.permutation`` is added when numpy is installed (it is
in the ``dev`` extra). Copying the list is outside the timed region.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

import xlshuffle


def _contenders(n: int) -> dict[str, Callable[[list[int]], object]]:
    rng = random.Random(20260101)
    found: dict[str, Callable[[list[int]], object]] = {
        "random.shuffle (baseline)": rng.shuffle,
        "xlshuffle.shuffle (seeded)": lambda items: xlshuffle.shuffle(items, seed="bench"),
    }
    try:
        import numpy as np
    except ImportError:
        print("numpy is not installed: skipping numpy.random.Generator.permutation")
        return found
    gen = np.random.default_rng(20260101)
    array = np.arange(n)
    found["numpy Generator.permutation (array)"] = lambda _items: gen.permutation(array)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1 << 20, help="items (default 1,048,576)")
    parser.add_argument("--repeat", type=int, default=7, help="repetitions (default 7)")
    args = parser.parse_args()
    base = list(range(args.n))
    contenders = _contenders(args.n)
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.repeat):
        for name, run in contenders.items():
            work = base.copy()
            t0 = time.perf_counter()
            run(work)
            times[name].append(time.perf_counter() - t0)
    print(f"{args.n:,} items, {args.repeat} repetitions, CPython {platform.python_version()}")
    baseline = "random.shuffle (baseline)"
    b_min, b_med = min(times[baseline]), statistics.median(times[baseline])
    print(f"{'contender':38} {'min':>9} {'median':>9} {'min ratio':>10} {'median ratio':>13}")
    for name, ts in times.items():
        t_min, t_med = min(ts), statistics.median(ts)
        print(
            f"{name:38} {t_min * 1e3:7.1f}ms {t_med * 1e3:7.1f}ms "
            f"{t_min / b_min:9.2f}x {t_med / b_med:12.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
