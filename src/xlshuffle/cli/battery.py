"""``xlshuffle fairness --battery``: the protocol's stream under standard batteries.

NIST SP 800-22's tests (:mod:`xlshuffle.lab.nist`, pure Python) over ``--sequences``
sequences of ``--bits`` bits of one seed's stream, and, with ``--dieharder``, Debian's
dieharder (:mod:`xlshuffle.lab.dieharder`) fed the same stream. What such a battery can
show, and what it cannot, is in docs/fairness.md.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..common.progress import Progress
from ..draw.errors import OptionError
from ..lab.dieharder import SET, Test, dieharder_path, run_dieharder
from ..lab.nist import ALPHA, BatteryReport, battery

__all__ = ["add_battery_options", "run_battery"]

DEFAULT_SEQUENCES = 10
DEFAULT_BITS = 2**20
MAX_BITS = 2**24  # the bits are held as bytes: 16 MiB a sequence, and the FFT in Python


def add_battery_options(p: argparse.ArgumentParser, whole: Any) -> None:
    """Add ``--battery``, ``--sequences``, ``--bits`` and ``--dieharder``."""
    g = p.add_argument_group(
        "standard batteries",
        "--battery runs NIST SP 800-22's 15 tests (frequency, block frequency, runs, "
        "longest run, rank, DFT, non-overlapping and overlapping template, universal, "
        "linear complexity, serial, approximate entropy, cumulative sums, random "
        "excursions and its variant; overlapping template and linear complexity need a "
        "million bits, universal 387,840) over --sequences sequences of --bits "
        "consecutive bits of the --seed's stream; --dieharder also pipes the stream into "
        "Debian's dieharder (apt-get install dieharder)",
    )
    g.add_argument("--battery", action="store_true", help="run SP 800-22's tests instead")
    g.add_argument(
        "--sequences",
        type=whole(1),
        default=DEFAULT_SEQUENCES,
        help=f"sequences tested (default {DEFAULT_SEQUENCES}; 55 or more to judge the "
        "P-values' uniformity)",
    )
    g.add_argument(
        "--bits",
        type=whole(128),
        default=DEFAULT_BITS,
        help=f"bits per sequence (default 2**20 = {DEFAULT_BITS:,}; SP 800-22 suggests "
        "about a million, and three of its tests need one)",
    )
    g.add_argument(
        "--dieharder",
        nargs="*",
        type=_test,
        metavar="TEST",
        help="run these dieharder tests (-d numbers, or N:T for -d N -n T; none given: "
        f"{' '.join(_name(t) for t in SET)})",
    )


def _name(test: Test) -> str:
    return f"{test[0]}:{test[1]}" if isinstance(test, tuple) else str(test)


def _test(text: str) -> Test:
    """A dieharder test: ``N`` (``-d N``) or ``N:T`` (``-d N -n T``)."""
    number, _, ntup = text.partition(":")
    try:
        if not ntup:
            return int(number)
        return int(number), int(ntup)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a test number such as 0, or 201:2 with its tuple size, got {text!r}"
        ) from None


def run_battery(args: argparse.Namespace) -> int:
    """``fairness --battery``: print (or ``--json``) each test's verdict."""
    if args.bits > MAX_BITS:
        raise OptionError(f"--bits {args.bits}: at most {MAX_BITS:,} bits a sequence")
    tests = None if args.dieharder is None else tuple(args.dieharder) or SET
    if tests is not None and dieharder_path() is None:
        raise OptionError("--dieharder: dieharder is not installed (apt-get install dieharder)")
    report = None
    if args.battery:
        with Progress(args.sequences, "battery") as bar:
            report = battery(
                args.seed,
                sequences=args.sequences,
                bits=args.bits,
                progress=lambda _: bar.advance(),
            )
    found = [] if tests is None else run_dieharder(args.seed, tests)
    if args.json:
        out = {} if report is None else report.as_dict()
        print(json.dumps(out | {"dieharder": [r.as_dict() for r in found]}, indent=2))
        return 0
    if report is not None:
        _print_nist(report)
    if found:
        print(f"dieharder -g 200 on the stream of seed {args.seed!r} ({len(found)} results):")
        for d in found:
            print(f"  {d.test:<24} ntup {d.ntup:<3} p {d.p_value:.8f}  {d.assessment}")
    return 0


def _print_nist(report: BatteryReport) -> None:
    print(
        f"NIST SP 800-22 tests over {report.sequences} sequence"
        f"{'s' if report.sequences != 1 else ''} of {report.bits:,} bits of the stream of "
        f"seed {report.seed!r} (alpha {ALPHA}):"
    )
    width = max(len(r.name) for r in report.results)
    print(f"  {'test':<{width}}  P-values  passed  proportion  uniformity  verdict")
    for r in report.results:
        if not r.p_values:
            print(
                f"  {r.name:<{width}}  {'-':>8}  {'-':>6}  {'-':>10}  {'-':>10}  "
                f"not applicable ({r.not_applicable})"
            )
            continue
        uniform = "-" if r.uniformity is None else f"{r.uniformity:.4f}"
        some = ""
        if r.sequences < report.sequences:
            some = f" ({r.sequences} of {report.sequences} sequences: {r.not_applicable})"
        print(
            f"  {r.name:<{width}}  {len(r.p_values):>8}  {r.passed:>6}  "
            f"{r.proportion:>10.4f}  {uniform:>10}  {r.verdict}{some}"
        )
