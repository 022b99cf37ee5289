"""Benchmark: 1,000 winners from 1,000,000 entrants by tickets, against the plain sample.

Usage: python benchmarks/bench_raffle.py [--n 1000000] [--k 1000] [--repeat 5] [--cli]

The plain seeded sample of the same list (``xlshuffle.draw.deal``: a partial Fisher-Yates
deal, what ``sample -k`` draws) is the named floor. Contenders, each timed in the same
process, one after another within each repetition:

- ``xlshuffle.weighted_sample`` with whole tickets 1..10 (the integers the draw runs on);
- ``parse_weights`` + ``weighted_sample`` from the texts a CSV holds (``"3"``, ``"2.5"``);
- ``weighted_sample`` with reserves and strata are the same draw and are not timed apart.

With ``--cli`` the whole command runs too, in a fresh process each: ``xlshuffle sample
list.csv -k K`` against ``... --weights Tickets`` on a CSV of N rows (written once, outside
the timed region). Reported: minimum and median wall time, and ratios to the floor.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from xlshuffle.draw import deal, parse_weights, weighted_sample


def _contenders(n: int, k: int) -> dict[str, Callable[[], object]]:
    rng = random.Random(20261126)
    tickets = [rng.randint(1, 10) for _ in range(n)]
    texts = [str(t) if t % 3 else f"{t}.5" for t in tickets]
    items = list(range(n))
    return {
        "xlshuffle.deal (plain sample, floor)": lambda: deal(items, k, seed="bench"),
        "weighted_sample (whole tickets)": lambda: weighted_sample(tickets, k, seed="bench"),
        "parse_weights + weighted_sample (texts)": lambda: weighted_sample(
            parse_weights(texts), k, seed="bench"
        ),
    }


def _time(contenders: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeat):
        for name, run in contenders.items():
            t0 = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t0)
    return times


def _cli(n: int, k: int, repeat: int) -> dict[str, list[float]]:
    folder = tempfile.mkdtemp(prefix="bench-raffle-")
    src = os.path.join(folder, "list.csv")
    rng = random.Random(7)
    with open(src, "w", encoding="utf-8", newline="") as fh:
        fh.write("ID,Name,Tickets\n")
        fh.writelines(f"E{i},Entrant {i},{rng.randint(1, 10)}\n" for i in range(n))
    base = [sys.executable, "-m", "xlshuffle", "sample", src, "-k", str(k), "--seed", "b"]
    runs = {
        "xlshuffle sample -k (plain, floor)": base,
        "xlshuffle sample -k --weights Tickets": [*base, "--weights", "Tickets"],
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, argv in runs.items():
            out = os.path.join(folder, "out.csv")
            t0 = time.perf_counter()
            subprocess.run([*argv, "-o", out, "--overwrite"], check=True, capture_output=True)
            times[name].append(time.perf_counter() - t0)
    return times


def _report(times: dict[str, list[float]]) -> None:
    floor = next(iter(times))
    f_min, f_med = min(times[floor]), statistics.median(times[floor])
    print(f"{'contender':42} {'min':>9} {'median':>9} {'min ratio':>10} {'median ratio':>13}")
    for name, ts in times.items():
        t_min, t_med = min(ts), statistics.median(ts)
        print(f"{name:42} {t_min:8.3f}s {t_med:8.3f}s {t_min / f_min:9.2f}x {t_med / f_med:12.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="entrants (default 1,000,000)")
    parser.add_argument("--k", type=int, default=1000, help="winners (default 1,000)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (default 5)")
    parser.add_argument("--cli", action="store_true", help="also time the whole command")
    args = parser.parse_args()
    print(
        f"{args.k:,} winners from {args.n:,} entrants, {args.repeat} repetitions, "
        f"CPython {platform.python_version()}"
    )
    _report(_time(_contenders(args.n, args.k), args.repeat))
    if args.cli:
        print(f"\nthe whole command on a CSV of {args.n:,} rows (fresh process each run):")
        _report(_cli(args.n, args.k, max(1, args.repeat // 2)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
