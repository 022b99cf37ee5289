"""Benchmark: research and classroom draws (orders, allocation lists, balanced teams)
against a plain seeded shuffle.

Usage: python benchmarks/bench_designs.py [--repeat 5] [--cli]

Three jobs, each against a named floor timed in the same run:

- **orders**: 300 respondents x 40 items. Floor: ``xlshuffle.shuffle`` of the 40 items
  once per respondent from one stream (the same amount of ``randbelow`` work, with no
  per-person sub-stream). Contenders: ``person_orders`` (one sub-stream per ID, section
  13) and ``balanced_orders`` (a randomised Williams design, section 14).
- **allocate**: a 10,000-patient list in 8 strata (site x 4, sex x 2, n = 1,250 each;
  blocks of 4 and 8, ratio 1:1). Floor: ``random.Random(seed).shuffle`` of the same
  number of blocks (what a hand-written Python allocation script does), then
  ``allocation_list`` (exact ``randbelow``, a sub-stream per stratum, a code per row).
- **teams**: 1,000 students into 40 teams balanced by year (5 values) and sex. Floor:
  ``xlshuffle.groups`` (a plain seeded split); contender: ``balanced_groups``.

With ``--cli`` the whole commands run too, in a fresh process each: ``xlshuffle orders``
(300 x 40, CSV in and out) and ``xlshuffle allocate`` (the list above, with
``--codes-only`` and ``--redcap``), against ``python -c "import xlshuffle.cli"`` as the
floor (the fixed cost of starting Python and importing the command line). Reported:
minimum and median wall time and ratios to each job's floor.
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

from xlshuffle import allocation_list, groups, shuffle
from xlshuffle.draw import DrawStream
from xlshuffle.draw.orders import balanced_orders, person_orders
from xlshuffle.draw.teams import balanced_groups

PEOPLE, ITEMS = 300, 40
STRATA = [("site", ["North", "South", "East", "West"]), ("sex", ["F", "M"])]
PER_STRATUM = 1250
STUDENTS, TEAMS = 1000, 40


def _orders() -> dict[str, Callable[[], object]]:
    items = [f"Q{i + 1}" for i in range(ITEMS)]
    ids = [f"R{i + 1:04}" for i in range(PEOPLE)]

    def floor() -> None:
        stream = DrawStream("bench")
        for _ in ids:
            shuffle(items, seed=stream)

    return {
        "shuffle x 300 from one stream (floor)": floor,
        "person_orders (section 13)": lambda: person_orders(items, ids, seed="bench"),
        "balanced_orders (section 14)": lambda: balanced_orders(items, ids, seed="bench"),
    }


def _allocate() -> dict[str, Callable[[], object]]:
    blocks = PER_STRATUM // 6 + 1  # blocks of 4 and 8 average 6

    def floor() -> None:
        rng = random.Random(2026)
        for _ in range(len(STRATA[0][1]) * len(STRATA[1][1])):
            for _ in range(blocks):
                block = ["A", "B"] * (rng.choice((4, 8)) // 2)
                rng.shuffle(block)

    return {
        "random.shuffle of the blocks (floor)": floor,
        "allocation_list (section 15)": lambda: allocation_list(
            ["A", "B"], n=PER_STRATUM, block_sizes=[4, 8], seed="bench", strata=STRATA
        ),
    }


def _teams() -> dict[str, Callable[[], object]]:
    rng = random.Random(7)
    people = [(f"Y{rng.randint(7, 11)}", rng.choice("FM")) for _ in range(STUDENTS)]
    return {
        "groups (plain split, floor)": lambda: groups(STUDENTS, TEAMS, seed="bench"),
        "balanced_groups (section 16)": lambda: balanced_groups(people, TEAMS, seed="bench"),
    }


def _time(contenders: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeat):
        for name, run in contenders.items():
            t0 = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t0)
    return times


def _cli(repeat: int) -> dict[str, list[float]]:
    folder = tempfile.mkdtemp(prefix="bench-designs-")
    items, ids = os.path.join(folder, "items.txt"), os.path.join(folder, "ids.csv")
    with open(items, "w", encoding="utf-8") as fh:
        fh.writelines(f"Question {i + 1}\n" for i in range(ITEMS))
    with open(ids, "w", encoding="utf-8") as fh:
        fh.write("ID\n")
        fh.writelines(f"R{i + 1:04}\n" for i in range(PEOPLE))
    x = [sys.executable, "-m", "xlshuffle"]
    out = os.path.join(folder, "out.csv")
    runs = {
        "python -c 'import xlshuffle.cli' (floor)": [sys.executable, "-c", "import xlshuffle.cli"],
        "xlshuffle orders 300 x 40": [*x, "orders", items, "--ids", ids, "--seed", "b", "-o", out],
        "xlshuffle orders 300 x 40 --balanced": [
            *x, "orders", items, "--ids", ids, "--seed", "b", "-o", out, "--balanced",
        ],
        "xlshuffle allocate 10,000 in 8 strata": [
            *x, "allocate", "--arms", "A,B", "--n", str(PER_STRATUM), "--block-sizes", "4,8",
            "--seed", "b", "--strata", "site=North,South,East,West", "--strata", "sex=F,M",
            "-o", out, "--codes-only", os.path.join(folder, "codes.csv"),
            "--redcap", os.path.join(folder, "redcap.csv"),
        ],
    }  # fmt: skip
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, argv in runs.items():
            if os.path.exists(out):
                os.remove(out)
            t0 = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True)
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
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (default 5)")
    parser.add_argument("--cli", action="store_true", help="also time the whole commands")
    args = parser.parse_args()
    print(f"{args.repeat} repetitions, CPython {platform.python_version()}")
    for title, jobs in (
        (f"orders: {PEOPLE} respondents x {ITEMS} items", _orders),
        (f"allocate: {8 * PER_STRATUM:,} patients in 8 strata, blocks of 4 and 8", _allocate),
        (f"teams: {STUDENTS:,} students into {TEAMS} teams by year and sex", _teams),
    ):
        print(f"\n{title}")
        _report(_time(jobs(), args.repeat))
    if args.cli:
        print("\nthe whole commands (fresh process each run):")
        _report(_cli(max(1, args.repeat // 2)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
