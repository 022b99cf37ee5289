"""Regenerate docs/fairness.md and docs/img/fairness-*.png from real runs of the lab.

Usage: python tools/make_fairness_docs.py [--trials 20000] [--quick] [--only raffles]

Every number in the page is computed here (exact fractions, p-values, reachability
counts, timings of this machine); nothing is typed in by hand. ``--quick`` skips the
reachability counts (about two minutes) and writes "not computed" in their place.
Needs the ``plot`` extra (matplotlib).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import platform
import sys
import time
from fractions import Fraction
from itertools import permutations
from pathlib import Path

from raffles_docs import raffles_section, splice, write_figure  # tools/, beside this file

from xlshuffle.cli.fairness import _print_table
from xlshuffle.common.progress import Progress
from xlshuffle.lab import plots as _plots
from xlshuffle.lab.classic import ALGORITHMS, _floor_counts, _residue_counts
from xlshuffle.lab.fairness import (
    exact_distribution,
    lab_steps,
    measure_cost,
    reachable_deals,
    run_lab,
    sample,
    summarise,
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
IMG = DOCS / "img"
SEED = "xlshuffle fairness"


def exact_tables() -> tuple[str, str]:
    """The n = 3 table of fractions and the n = 3..6 summary table."""
    orders = list(permutations(range(3)))
    head = "| method | " + " | ".join("".join(str(i + 1) for i in p) for p in orders) + " |"
    lines = [head, "|---|" + "---:|" * len(orders)]
    for a in ALGORITHMS.values():
        dist = exact_distribution(a, 3)
        cells = [str(dist.get(p, Fraction(0))) for p in orders]
        lines.append(f"| {a.title} | " + " | ".join(cells) + " |")
    three = "\n".join(lines)
    lines = [
        "| method | fair? | " + " | ".join(f"n={n}: max/min, TVD" for n in range(3, 7)) + " |",
        "|---|---|" + "---|" * 4,
    ]
    for a in ALGORITHMS.values():
        cells = []
        for n in range(3, 7):
            s = summarise(exact_distribution(a, n), n)
            ratio = "-" if s.ratio is None else f"{float(s.ratio):.6g}"
            cells.append(f"{ratio}, {float(s.tvd):.3g}")
        lines.append(f"| {a.title} | {'yes' if a.fair else 'NO'} | " + " | ".join(cells) + " |")
    return three, "\n".join(lines)


def methods_table() -> str:
    lines = ["| method | `--algorithms` | fair? | why | time |", "|---|---|---|---|---|"]
    for a in ALGORITHMS.values():
        fair = "yes" if a.fair else "**no**"
        lines.append(f"| {a.title} | `{a.name}` | {fair} | {a.why} | {a.complexity} |")
    return "\n".join(lines)


def cost_table(sizes: tuple[int, ...]) -> str:
    head = "| method | " + " | ".join(f"n={n:,}" for n in sizes) + " | draws/item at n=100,000 |"
    lines = [head, "|---|" + "---:|" * (len(sizes) + 1)]
    for a in ALGORITHMS.values():
        costs = [measure_cost(a, n, seed="docs cost") for n in sizes]
        cells = [_fmt_time(c.seconds) for c in costs]
        lines.append(f"| {a.title} | " + " | ".join(cells) + f" | {costs[-1].draws_per_item:.3g} |")
    return "\n".join(lines)


def _fmt_time(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} µs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000)
    parser.add_argument("--quick", action="store_true", help="skip the reachability counts")
    parser.add_argument(
        "--only",
        choices=["raffles"],
        help="rewrite only this section of the page as it is (and its figure): seconds",
    )
    args = parser.parse_args()
    IMG.mkdir(parents=True, exist_ok=True)
    if args.only == "raffles":
        page = DOCS / "fairness.md"
        page.write_text(splice(page.read_text(encoding="utf-8"), raffles_section()), "utf-8")
        figure = write_figure(IMG)
        print(f"wrote docs/fairness.md (raffles) and {figure.relative_to(ROOT)}", file=sys.stderr)
        return 0
    started = time.perf_counter()
    algs = list(ALGORITHMS.values())

    total = lab_steps(len(algs), args.trials) + _plots.figure_steps(len(algs))
    with Progress(total, "lab") as bar:
        report, samples = run_lab(52, args.trials, None, SEED, 6, 1e-4, bar.advance)
        figures = _plots.write_figures(
            IMG, algs, trials=args.trials, seed=SEED, samples={52: samples}, tick=bar.advance
        )
        figures.append(write_figure(IMG))
    table = io.StringIO()
    with contextlib.redirect_stdout(table):
        _print_table(report)
    for f in figures:
        kb = f.stat().st_size / 1024
        print(f"{f.relative_to(ROOT)}: {kb:.0f} KB", file=sys.stderr)
        if kb >= 200:
            print(f"  warning: {f.name} is over 200 KB", file=sys.stderr)

    three, summary = exact_tables()
    mod52 = _residue_counts(52)
    floor52 = _floor_counts(52)
    rand16 = sample("rand-mod", 16, 200_000, seed=SEED)
    fair16 = sample("forward", 16, 200_000, seed=SEED)
    reach = {}
    if not args.quick:
        for n in (10, 52):
            t = time.perf_counter()
            reach[n] = (reachable_deals(n), time.perf_counter() - t)
            print(f"reachable deals n={n}: {reach[n][0]:,} ({reach[n][1]:.0f} s)", file=sys.stderr)
    costs = cost_table((10, 1_000, 100_000))

    def reach_row(n: int) -> str:
        if n not in reach:
            return f"| {n} | {math.factorial(n):.4g} | not computed (`--quick`) | |"
        count = reach[n][0]
        share = count / math.factorial(n)
        return f"| {n} | {math.factorial(n):,.4g} | {count:,} | {share:.3g} |"

    text = TEMPLATE.format(
        methods=methods_table(),
        battery=BATTERY,
        three=three,
        summary=summary,
        table=table.getvalue().rstrip(),
        trials=f"{args.trials:,}",
        vba_pairs=next(r for r in samples if r.name == "vba-rnd").repeat_pairs,
        vba_expected=args.trials * (args.trials - 1) / 2 / 2**24,
        fair_expected=args.trials * (args.trials - 1) / 2 / math.factorial(52),
        mod_hi=mod52[0],
        mod_lo=mod52[-1],
        mod_hi_count=mod52.count(mod52[0]),
        floor_hi=max(floor52),
        floor_lo=min(floor52),
        floor_hi_count=floor52.count(max(floor52)),
        reach10=reach_row(10),
        reach52=reach_row(52),
        rand16_pairs=rand16.repeat_pairs,
        rand16_p=f"{rand16.repeat_p_value:.2g}",
        fair16_pairs=fair16.repeat_pairs,
        fair16_p=f"{fair16.repeat_p_value:.2g}",
        costs=costs,
        raffles=raffles_section(),
        python=f"CPython {platform.python_version()} on {platform.machine()}",
        seconds=f"{time.perf_counter() - started:.0f}",
    )
    (DOCS / "fairness.md").write_text(text, encoding="utf-8")
    print(f"wrote docs/fairness.md in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


#: The batteries' section: their runs take most of an hour, so their results are kept here
#: as they were printed, with the commands that print them again.
BATTERY = (Path(__file__).resolve().parent / "fairness_battery.md").read_text(encoding="utf-8")

TEMPLATE = """\
# The fairness lab

<!-- Generated by tools/make_fairness_docs.py: edit the template there, not this file. -->

Which ways of shuffling are fair, which are not, and what each costs: the methods from the
articles xlshuffle grew from, run side by side. One command reproduces every number here:

```
xlshuffle fairness                      # table: 20,000 shuffles of 52 cards per method
xlshuffle fairness --n 3 --trials 60000 # all 6 orders counted directly
xlshuffle fairness --plot figures/      # also write the PNG figures
xlshuffle fairness --json               # machine-readable report (schema below)
xlshuffle fairness --draws              # raffles and audits: exact chances
xlshuffle fairness --battery            # the stream under NIST SP 800-22 (and --dieharder)
```

Runs are seeded (`--seed`, default `'xlshuffle fairness'`), so the same command prints the
same statistics every time; only the timings change. The code is in `xlshuffle.lab.classic`
(the methods) and `xlshuffle.lab.fairness` (the measurements, pure standard library).

![Exact chance of each order of 3 items](img/fairness-headline.png)

## The methods

Every method takes the same *source*: any object with `randbelow(m)`. The two that
reproduce old generators take one seed from it and then use their own generator, as the
original code did (`srand`, `Randomize`).

{methods}

"Fair" is a proof, not a measurement: for the fair methods the choices run over exactly
`n!` equally likely sequences, one per order (or, for the retry method, a retry changes
nothing). The tests enumerate it for every `n <= 6`.

## Exact: every sequence of choices

For a few items there is no need to sample. `exact_distribution` runs the real code
through a scripted source that answers every possible sequence of choices in turn, and
adds up each order's probability as an exact fraction. For 3 items:

{three}

Naive swap makes 3 x 3 x 3 = 27 equally likely choice sequences, and 27 cannot be split
evenly over 6 orders: 4, 5, 5, 5, 4, 4. Sorting with a coin-flip comparator can only make
probabilities with a power of two below, never 1/6.

Two methods need more than brute force. The retry method ("check for duplicates") can
retry forever, so its choice sequences have no end: a rejected draw leaves the deck as it
was, so the next card lands in each of the `e` empty slots with probability exactly `1/e`,
and a Markov recursion over partial decks gives the exact answer. A test checks it
against the real code cut off after `L` draws: every order's truncated probability is at
most the exact one, which is at most the truncated one plus the cut-off mass, for growing
`L`. "Swap two random positions `n` times" has `n^(2n)` sequences (2.2 billion at 6), so
it runs as a Markov chain over the orders (checked against enumeration for 3 and 4).

How far from uniform, for 3 to 6 items (max/min: most likely over least likely order;
TVD: total variation distance from uniform, the largest difference in probability any
event can show):

{summary}

![Exact probability of every order of 3 items](img/fairness-orders-n3.png)

![Exact probability of every order of 4 items](img/fairness-orders-n4.png)

## The old generators

The `rand() % n` and `Int(Rnd * n)` loops are Durstenfeld's, and right; their generators
are the problem. The exact rows above model them with independent generator outputs, which
shows only their small per-draw bias:

* **Modulo bias.** Microsoft's `rand()` returns 32768 values. `rand() % 52` gives slots 0..7
  from {mod_hi} values each ({mod_hi_count} slots) and the rest from {mod_lo}: 1/630 more
  often. Above 32768 items, the high slots are never drawn at all.
* **Floor bias.** VBA's `Int(Rnd * 52)` splits 2^24 values into {floor_hi_count} slots of
  {floor_hi} and the rest of {floor_lo}: a bias of about 1 in 322,000.
* **Too few deals.** The whole shuffle is fixed by the generator's state. VBA's `Rnd` has
  2^24 = 16,777,216 states (KB 231847: `x = (x * 1140671485 + 12820163) mod 2^24`),
  Microsoft's `rand()` 2^31 that matter (bit 31 of its state never reaches the output).
  `reachable_deals` counts exactly how many different deals VBA can make, splitting the
  2^24 states by their first pick, then their second, and so on:

| items | orders | deals VBA can make | share of orders |
|---:|---:|---:|---:|
{reach10}
{reach52}

Even for 10 items some orders never appear; for a deck, 16.8 million of 8.07e67 orders.
This is what a sampled test can see: deals repeat. Among the {trials} VBA deals of 52 cards
in the run below, {vba_pairs} pairs were the same deal ({vba_expected:.1f} expected from 2^24
states; for a fair deck the expected number is {fair_expected:.1g}). `rand() % n` repeats too:
{rand16_pairs} pairs among 200,000 deals of 16 cards (p = {rand16_p}), where the draw
protocol's shuffle made {fair16_pairs} (p = {fair16_p}).

## Sampled: what many shuffles show

`xlshuffle fairness` shuffles `range(n)` many times per method (each method from its own
seeded stream) and runs two tests:

* **Chi-square.** For `n <= 6` with at least 5 expected per order: over all `n!` orders
  (`n! - 1` degrees of freedom). Otherwise over the `n x n` position matrix (item `i`
  ended in slot `j`), scaled by `(n-1)/n` because the cells of a random permutation
  matrix are correlated: the scaled statistic follows chi-square with `(n-1)^2` degrees
  of freedom for a fair shuffle.
* **Repeated deals** (a birthday test), when `n!` is so large that a fair shuffle almost
  never repeats (`trials^2 / 2 < n! / 2`): the number of pairs of identical deals, with
  its Poisson p-value.

A method is flagged when a p-value is below 1e-4, so a fair method is flagged with
probability at most 2e-4 (two tests), and at most 1.2e-3 for any of the six fair
methods. The run behind this page ({trials} shuffles of 52 cards per method, this machine):

```
{table}
```

`fair?` is the proof, `sampled verdict` what this many shuffles can see. The modulo bias of
`rand() % n` at 52 cards needs about 10^8 shuffles; its repeated deals need 200,000 (see
above). Where each card lands, as a multiple of the fair 1/n:

![Position heatmaps for 52 cards](img/fairness-positions-n52.png)

![Position heatmaps for 10 items](img/fairness-positions-n10.png)

Naive swap tends to leave a card in a slot just before its starting one (the red band
below the diagonal); "swap two positions `n`
times" leaves 13.5% of cards where they were (e^-2, against 1/52); the random-comparator
merge sort leaves stripes from its halving.

## Cost

Time per shuffle (the fastest of several runs) and random draws per item, on this machine
({python}, 2 cores shared with other work: differences under 2x are noise), each method
fed by the draw-protocol stream. Pencil-and-paper Fisher-Yates is O(n^2) (striking an item out
shifts the rest), the retry method needs `H(n) ~ ln n + 0.58` draws per item (the coupon
collector), and the random-comparator sort about `log2 n`:

{costs}

![Time per shuffle and draws per item against n](img/fairness-cost.png)

{raffles}

{battery}
## JSON report (schema `xlshuffle/fairness/v1`)

`xlshuffle fairness --json` prints one object. Keys are only ever added within v1; a
change of meaning gets a new schema name.

| key | type | meaning |
|---|---|---|
| `schema` | string | `"xlshuffle/fairness/v1"` |
| `n`, `trials`, `seed` | int, int, string | the sampled run |
| `alpha` | float | threshold of each sampled test (1e-4) |
| `exact_n` | int | items of the exact enumeration |
| `plots` | list of strings | PNG files written (`--plot`), else empty |
| `algorithms[]` | list | one object per method, in the order above |
| `.name`, `.title` | string | `--algorithms` name, display name |
| `.fair` | bool | proved fair (not measured) |
| `.why`, `.complexity` | string | one-line reason, time for `n` items |
| `.exact.n`, `.exact.orders`, `.exact.reached` | int | items, `n!`, orders with probability > 0 |
| `.exact.min_p`, `.exact.max_p`, `.exact.tvd` | string | exact fractions such as `"4/27"` |
| `.exact.ratio` | float or null | `max_p / min_p`; null if some order is impossible |
| `.exact.tvd_float` | float | the TVD as a float |
| `.sampled.test` | string | `"orders"` or `"positions"` |
| `.sampled.statistic`, `.sampled.df`, `.sampled.p_value` | float, int, float | chi-square |
| `.sampled.repeat_pairs`, `.sampled.repeat_p_value` | int, float or both null | repeated deals |
| `.sampled.biased` | bool | some p-value below `alpha` |
| `.cost.n` | int | items of the cost run (= `n`) |
| `.cost.seconds_per_shuffle` | float | fastest time of several runs |
| `.cost.draws_per_item` | float | random draws per item |

## How the p-values are computed

`chi2_sf(x, df)` is the regularised upper incomplete gamma function `Q(df/2, x/2)`: a
series below `x = a + 1` and Lentz's continued fraction above, in pure Python. The tests
check it against the closed form for whole `a` (a Poisson sum), `erfc` for `a = 1/2`,
printed table values, and SciPy when it is installed.

Regenerate this page with `python tools/make_fairness_docs.py` (about {seconds} s here).
"""


if __name__ == "__main__":
    raise SystemExit(main())
