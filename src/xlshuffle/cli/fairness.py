"""``xlshuffle fairness``: run the fairness lab from the command line.

Registered by :mod:`xlshuffle.cli` through ``register(subparsers)``. The lab itself is
pure standard library; ``--plot`` needs matplotlib (``pip install 'xlshuffle[plot]'``),
imported only when it is asked for. ``--draws`` runs the weighted draws' exact comparison
(:mod:`xlshuffle.lab.raffles`) instead of the shuffles; ``--designs`` the exact checks of
the research and classroom designs (:mod:`xlshuffle.lab.designs`); ``--battery`` the
stream under NIST SP 800-22 and dieharder (:mod:`xlshuffle.cli.battery`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..common.progress import Progress
from ..draw.errors import OptionError, SizeError
from ..lab.classic import ALGORITHMS
from ..lab.fairness import ALPHA, lab_steps, resolve_algorithms, run_lab
from ..lab.raffles import METHODS, draws_report
from .battery import add_battery_options, run_battery

__all__ = ["register"]

DEFAULT_SEED = "xlshuffle fairness"
MAX_N = 1000  # the position matrix has n*n cells and each trial costs O(n) or more
MAX_EXACT_N = 7  # naive swap at 7 is 823,543 choice sequences; at 8, 16.7 million
DRAWS_WEIGHTS = (5, 3, 1, 1)
DRAWS_WINNERS = 2


def _whole(low: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", "").replace(",", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {low} or more, got {value}")
        return value

    return parse


def register(subparsers: Any) -> None:
    """Add the ``fairness`` subcommand."""
    names = ", ".join(ALGORITHMS)
    p = subparsers.add_parser(
        "fairness",
        help="compare classic shuffles for bias and speed",
        description=(
            "Run the classic shuffles side by side: exact probabilities of every order "
            "for a few items, a chi-square and a repeated-deal test on many seeded "
            "shuffles, and the time and random draws each one takes. Seeded by default, "
            "so two runs print the same numbers (apart from timings)."
        ),
    )
    p.add_argument("--n", type=_whole(2), default=52, help="items per sampled shuffle (default 52)")
    p.add_argument(
        "--trials", type=_whole(1), default=20_000, help="shuffles per method (default 20000)"
    )
    p.add_argument(
        "--algorithms",
        nargs="+",
        metavar="NAME",
        help=f"methods to run (default all): {names}",
    )
    p.add_argument("--seed", default=DEFAULT_SEED, help=f"seed text (default {DEFAULT_SEED!r})")
    p.add_argument(
        "--exact-n",
        type=_whole(1),
        help=f"items for the exact enumeration (default min(N, 6), at most {MAX_EXACT_N})",
    )
    p.add_argument("--plot", metavar="DIR", help="also write the PNG figures into DIR")
    p.add_argument("--json", action="store_true", help="print the JSON report instead of a table")
    d = p.add_argument_group(
        "weighted draws",
        "--draws compares, exactly, xlshuffle's weighted draw, the monetary-unit selection and "
        "two ways by hand (running totals with RANDBETWEEN, sort by RAND()*weight), and checks "
        "the chances the draw protocol states; --n, --trials, --algorithms, --exact-n do not "
        "apply to it",
    )
    d.add_argument("--draws", action="store_true", help="compare the weighted draws instead")
    d.add_argument(
        "--weights",
        nargs="+",
        type=_whole(0),
        metavar="W",
        help=f"tickets of each entrant (default {' '.join(map(str, DRAWS_WEIGHTS))})",
    )
    d.add_argument("--winners", type=_whole(0), help=f"how many win (default {DRAWS_WINNERS})")
    d.add_argument(
        "--prizes",
        metavar="PRIZES.csv",
        help="a prize table (prize,count[,reserves] lines, as sample --prizes reads it): each "
        "entrant's exact chance of each prize and of being its reserve (the winners are the "
        "table's; not with --winners)",
    )
    p.add_argument(
        "--designs",
        action="store_true",
        help="check exactly the per-person and counterbalanced orders, block allocation lists "
        "and balanced teams instead (--json for JSON; no other option applies)",
    )
    add_battery_options(p, _whole)
    p.set_defaults(func=_cmd_fairness)


def _cmd_fairness(args: argparse.Namespace) -> int:
    if args.battery or args.dieharder is not None:
        return run_battery(args)
    if args.designs:
        return _cmd_designs(args)
    if args.draws:
        return _cmd_draws(args)
    return _cmd_shuffles(args)


def _cmd_shuffles(args: argparse.Namespace) -> int:
    if args.weights is not None or args.winners is not None:
        raise OptionError("--weights and --winners go with --draws: add --draws")
    n, trials = args.n, args.trials
    if n > MAX_N:
        raise SizeError(f"--n {n} is too large: the lab samples at most {MAX_N} items")
    exact_n = min(n, 6) if args.exact_n is None else args.exact_n
    if exact_n > MAX_EXACT_N:
        raise SizeError(
            f"--exact-n {exact_n} is too large: exact enumeration stops at {MAX_EXACT_N} items"
        )
    names = None
    if args.algorithms:
        names = [x for item in args.algorithms for x in item.split(",") if x.strip()]
    algs = resolve_algorithms(names)
    plots = None
    if args.plot:
        from ..lab import plots as figures  # needs matplotlib: fail now, not after a minute of work

        plots = figures
    total = lab_steps(len(algs), trials)
    if plots is not None:
        total += plots.figure_steps(len(algs))
    with Progress(total, "fairness") as bar:
        report, samples = run_lab(
            n, trials, [a.name for a in algs], args.seed, exact_n, ALPHA, bar.advance
        )
        written: list[Path] = []
        if plots is not None:
            written = plots.write_figures(
                Path(args.plot),
                algs,
                trials=trials,
                seed=args.seed,
                samples={n: samples},
                tick=bar.advance,
            )
    report["plots"] = [str(p) for p in written]
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_table(report)
    return 0


def _p(p: float | None) -> str:
    if p is None:
        return "-"
    if p < 1e-300:
        return "<1e-300"
    return f"{p:.2g}"


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _print_table(report: dict[str, Any]) -> None:
    rows = report["algorithms"]
    n, exact_n = report["n"], report["exact_n"]
    tests = {r["sampled"]["test"] for r in rows}
    df = rows[0]["sampled"]["df"] if rows else 0
    what = "all n! orders" if tests == {"orders"} else "the n x n position matrix"
    print(
        f"Fairness lab: {report['trials']:,} seeded shuffles of {n} items per method "
        f"(seed {report['seed']!r})."
    )
    print(
        f"chi2: chi-square over {what} ({df} degrees of freedom); repeats: pairs of "
        "identical deals (a birthday test for generators with too few states)."
    )
    print(
        f"A method is flagged when a p-value is below {report['alpha']:g}, so a fair one "
        f"is flagged with probability at most {2 * report['alpha']:g}. TVD: exact total "
        f"variation distance from uniform over the {math.factorial(exact_n):,} orders of "
        f"{exact_n} items."
    )
    print()
    header = [
        "method",
        "fair?",
        "chi2",
        "p-value",
        "repeats",
        "sampled verdict",
        f"TVD (n={exact_n})",
        "time/shuffle",
        "draws/item",
    ]
    table = [header]
    for r in rows:
        s, e, c = r["sampled"], r["exact"], r["cost"]
        repeats = "-"
        if s["repeat_pairs"] is not None:
            rp = _p(s["repeat_p_value"])
            repeats = f"{s['repeat_pairs']} (p{rp if rp.startswith('<') else '=' + rp})"
        table.append(
            [
                r["title"],
                "yes" if r["fair"] else "NO",
                f"{s['statistic']:.1f}",
                _p(s["p_value"]),
                repeats,
                "BIAS DETECTED" if s["biased"] else "no bias seen",
                "0" if e["tvd"] == "0" else f"{e['tvd_float']:.2g}",
                _time(c["seconds_per_shuffle"]),
                f"{c['draws_per_item']:.3g}",
            ]
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    right = {2, 3, 6, 7, 8}
    for k, row in enumerate(table):
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        print("  ".join(cells).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))
    missed = [r["title"] for r in rows if not r["fair"] and not r["sampled"]["biased"]]
    if missed:
        print()
        print(
            "Biased but not detected at these settings: "
            + "; ".join(missed)
            + ". Their flaws are proved exactly in docs/fairness.md (modulo counts, "
            "reachable deals); with 16 or more items and enough --trials (about 20,000 for "
            "VBA, 200,000 for rand()) they show up as repeated deals."
        )
    for path in report.get("plots", []):
        print(f"wrote {path}", file=sys.stderr)


# --------------------------------------------------------------------------- --designs


def _cmd_designs(args: argparse.Namespace) -> int:
    from ..lab.designs import designs_report, print_designs

    options = (
        ("--draws", args.draws),
        ("--algorithms", args.algorithms),
        ("--exact-n", args.exact_n),
        ("--weights", args.weights is not None),
        ("--winners", args.winners is not None),
        ("--plot", args.plot),
    )
    given = [o for o, v in options if v]
    if given:
        raise OptionError(f"{given[0]} does not apply to --designs: leave it out")
    report = designs_report()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_designs(report)
    return 0


# --------------------------------------------------------------------------- --draws


def _cmd_draws(args: argparse.Namespace) -> int:
    given = [o for o, v in (("--algorithms", args.algorithms), ("--exact-n", args.exact_n)) if v]
    if given:
        raise OptionError(f"{given[0]} does not apply to --draws: leave it out")
    weights = list(DRAWS_WEIGHTS if args.weights is None else args.weights)
    winners = DRAWS_WINNERS if args.winners is None else args.winners
    prizes = None
    if args.prizes is not None:
        from ..filedraw.sidefiles import read_prizes

        if args.winners is not None:
            raise OptionError("--winners with --prizes: the prize table says how many win")
        prizes = read_prizes(args.prizes)
        winners = sum(p.count for p in prizes)
    plots = None
    if args.plot:
        from ..lab import plots as lab_plots  # needs matplotlib: fail before any work

        plots = lab_plots
    report = draws_report(weights, winners, prizes=prizes)
    written = []
    if plots is not None:
        folder = Path(args.plot)
        folder.mkdir(parents=True, exist_ok=True)
        written.append(plots.weighted_figure(weights, winners, folder / plots.WEIGHTED_FIGURE))
    report["plots"] = [str(p) for p in written]
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_draws(report)
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def _cell(text: str) -> str:
    p = Fraction(text)
    return text if p.denominator == 1 else f"{text} ({float(p):.3f})"


def _print_prizes(prizes: dict[str, Any]) -> None:
    names = [p["prize"] for p in prizes["table"]]
    reserved = [p["prize"] for p in prizes["table"] if p["reserves"]]
    header = ["entrant", "weight", *names, *(f"reserve: {n}" for n in reserved), "nothing"]
    table = [header]
    for e in prizes["entrants"]:
        row = [str(e["index"] + 1), str(e["weight"]), *(_cell(e["won"][n]) for n in names)]
        table.append(row + [_cell(e["reserve"][n]) for n in reserved] + [_cell(e["none"])])
    print()
    print("Chance of each prize of the table (one prize at most; reserves in the table's order):")
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for j, row in enumerate(table):
        print("  ".join(c.rjust(widths[i]) for i, c in enumerate(row)).rstrip())
        if j == 0:
            print("  ".join("-" * w for w in widths))


def _print_draws(report: dict[str, Any]) -> None:
    k = report["winners"]
    print(
        f"Weighted draws, exact: weights {' '.join(map(str, report['weights']))}, {k} "
        "winner" + ("s" if k != 1 else "") + " (every sequence of random answers "
        "enumerated; sort by RAND()*weight integrated)."
    )
    for key, title, target, what in (
        ("first", "Chance of first place", "share", "weight/total"),
        ("included", f"Chance of being among the {k} winners", "proportional", "min(1,k*w/T)"),
    ):
        names = list(report["entrants"][0][key])
        header = ["entrant", "weight", what, *(METHODS[m][0] for m in names)]
        table = [header]
        for e in report["entrants"]:
            row = [str(e["index"] + 1), str(e["weight"]), _cell(e[target])]
            table.append(row + [_cell(e[key][m]) for m in names])
        print()
        print(f"{title}:")
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        for j, row in enumerate(table):
            print("  ".join(c.rjust(widths[i]) for i, c in enumerate(row)).rstrip())
            if j == 0:
                print("  ".join("-" * w for w in widths))
    print()
    print(
        "Running totals + RANDBETWEEN draws someone twice with chance "
        f"{_cell(report['duplicate'])}. xlshuffle's raffle draws each winner from those "
        "left: its chance of being among the winners is not k*w/T; the monetary-unit "
        "selection's is."
    )
    if "prizes" in report:
        _print_prizes(report["prizes"])
    print()
    print("The protocol's stated chances, checked by enumeration:")
    for c in report["checks"]:
        verdict = "holds" if c["holds"] else "FAILS"
        print(f"  {verdict}: {c['name']} (cases: {c['cases']:,})")
