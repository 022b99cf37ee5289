"""``sample``'s options for raffles and audits: tickets, reserves, exclusions, strata.

:func:`add_draw_options` adds them to the ``sample`` parser; :func:`draw_options` turns
them into a :class:`~xlshuffle.tabledraw.raffles.DrawOptions` (None when none is given, so
a plain ``sample`` runs exactly as before) and refuses the ones that cannot combine;
:func:`draw_lines` is what the terminal shows of each stratum.
"""

from __future__ import annotations

import argparse
import dataclasses
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from ..draw.errors import EntryError, OptionError
from ..draw.values import decimal_mark, parse_amounts
from ..filedraw.sidefiles import read_counts, read_excluded, read_prizes
from ..tabledraw.raffle_options import METHODS, DrawOptions, parse_method

__all__ = ["add_draw_options", "draw_lines", "draw_options", "read_counts", "read_excluded"]


def add_draw_options(p: argparse.ArgumentParser) -> None:
    """Add ``--weights``, ``--reserves``, ``--exclude``, ``--id``,
    ``--one-entry-per-id``, ``--strata``, ``--all-of-small-strata``, ``--total``,
    ``--strata-counts``, ``--method``, ``--amount`` and the audit's options to
    ``sample``."""
    g = p.add_argument_group(
        "raffles and audits",
        "COL is a header text or a column letter (a workbook's own: D is the sheet's "
        "column D). Added output columns, after the last one: Role and Rank "
        "(--reserves), Hits (--method mus). Draws are in draw order, strata one after "
        "another in the order each first appears; audit selections in input order.",
    )
    g.add_argument(
        "--weights",
        metavar="COL",
        help="tickets per row (whole numbers or decimals; 0 never wins). Each draw is "
        "proportional to the tickets still in the draw, so a row's chance of being among "
        "the winners is NOT proportional to its tickets; for selection with chances "
        "proportional to size use --method mus",
    )
    g.add_argument(
        "--reserves",
        type=int,
        default=0,
        metavar="R",
        help="also draw R reserves after the k winners (one draw of k + R: the winners are "
        "the same as without reserves); adds the columns Role (winner/reserve) and Rank",
    )
    g.add_argument(
        "--exclude",
        metavar="FILE",
        help="IDs that cannot win: an earlier draw's record (its winners, drawn with --id), "
        "a CSV/TSV list or .xlsx workbook with the --id column (such as last month's "
        "sample -o winners.csv), or a text file of IDs, one per line; needs --id. The "
        "record keeps only their SHA-256 digest and count, and the rows left out",
    )
    g.add_argument(
        "--id",
        metavar="COL",
        help="the entrants' ID column: matched against --exclude (spaces around and "
        "Unicode forms ignored, case kept), and the record lists the winners by it",
    )
    g.add_argument(
        "--one-entry-per-id",
        action="store_true",
        help="with --id, for a list kept one row per purchase: the rows sharing an ID are "
        "one entrant, at its first row, holding one ticket per row (with --weights, the "
        "rows' tickets added up); it wins at most once, and the output shows its first row",
    )
    g.add_argument(
        "--strata",
        metavar="COL",
        help="draw -k from each stratum (the rows sharing a value of COL), each from its "
        "own sub-stream of the seed: one stratum's rows never change another's draw",
    )
    g.add_argument(
        "--all-of-small-strata",
        action="store_true",
        help="with --strata: a stratum with fewer rows than its count (-k, plus reserves) "
        "is taken whole, in the draw order of its own sub-stream, instead of refused",
    )
    g.add_argument(
        "--total",
        type=int,
        metavar="N",
        help="with --strata, instead of -k: draw N in all, shared among the strata in "
        "proportion to their entrants (rows; IDs with --one-entry-per-id) (largest "
        "remainder, ties to the stratum first seen)",
    )
    g.add_argument(
        "--strata-counts",
        metavar="FILE",
        help="with --strata, instead of -k: each stratum's count from a CSV/TSV file of "
        "lines 'stratum,count' (a header line is allowed; every stratum needs a line, 0 "
        "leaves it out)",
    )
    g.add_argument(
        "--method",
        choices=list(METHODS),
        default="random",
        help="random (default: a raffle, by --weights if given); systematic (every n/k-th "
        "row from a random start); mus (monetary-unit sampling of --amount: -k cents hit "
        "at a fixed interval, each row selected with chance proportional to its amount, "
        "rows of at least the interval always); cell (monetary-unit sampling by cells: one "
        "random cent in each of -k equal cells, as ACL's and IDEA's cell method); ticket "
        "(each entrant's own ticket from the seed and its --id, lowest first: entrants "
        "added later never change the others' order; adds the column Draw ticket); rivest "
        "(the order of Rivest's consistent_sampler)",
    )
    g.add_argument(
        "--rate",
        metavar="P",
        help="with --method ticket, instead of -k: draw every entrant whose ticket is below "
        "P (a decimal such as 0.05: each entrant drawn with that chance), so the sample "
        "only grows as entrants are added",
    )
    g.add_argument(
        "--weight-scale",
        type=int,
        metavar="N",
        help="with --method ticket --weights: N tickets per unit of weight (10 makes 2.5 "
        "be 25 tickets); stated, so that a new entrant never changes the others' tickets",
    )
    g.add_argument(
        "--prizes",
        metavar="FILE",
        help="a prize table, instead of -k and --reserves: a CSV/TSV file of lines "
        "'prize,count[,reserves]' in the order the prizes are drawn (a header line allowed). "
        "One draw: the first places win the first prize, the next the second...; then each "
        "prize's reserves in the same order. Adds the columns Prize, Place and Role",
    )
    g.add_argument(
        "--engine",
        choices=["memory", "duckdb"],
        default="memory",
        help="what reads the file: memory (default: the list or the workbook engine) or "
        "duckdb, for a ticket draw (--method ticket) on a CSV/TSV file of any size, "
        "streamed on every core (pip install 'xlshuffle[duckdb]'); Parquet files always "
        "take duckdb. The winners, the output and the record are the same",
    )
    g.add_argument(
        "--amount",
        metavar="COL",
        help="the money column of --method mus or cell (numbers or texts such as $1,234.56). "
        "Rows of amount 0 or below are set aside as their own population: counted, "
        "totalled and listed, never hit",
    )
    g.add_argument(
        "--top-stratum",
        metavar="AMOUNT",
        help="with --method mus or cell: take whole every row whose amount is AMOUNT or more "
        "(the top stratum, examined 100%%: column 'Top stratum' yes), and hit -k cents in "
        "the others; 'interval' is the interval of all the positive amounts over -k",
    )
    g.add_argument(
        "--set-aside-output",
        metavar="FILE",
        help="with --method mus or cell: also write the rows set aside (amount 0 or below) "
        "to FILE, the header and those rows in input order, as the sample is written (a "
        "list of the input's kind; for a workbook, a copy with a sheet 'Set aside', or "
        ".csv/.tsv); nothing is written when no row is set aside. The record names it and "
        "its SHA-256. An existing FILE is refused unless --overwrite",
    )
    mark = g.add_mutually_exclusive_group()
    mark.add_argument(
        "--decimal-comma",
        action="store_const",
        const="comma",
        dest="decimal",
        help="--amount's texts write decimals with a comma: 1.234,56 (the default in a "
        "semicolon list whose amounts have a decimal comma)",
    )
    mark.add_argument(
        "--decimal-point",
        action="store_const",
        const="point",
        dest="decimal",
        help="--amount's texts write decimals with a point: 1,234.56 (the default elsewhere)",
    )


def draw_options(args: argparse.Namespace) -> DrawOptions | None:
    """The draw ``args`` asks for, or None for a plain ``sample`` (UsageError for
    options that cannot combine)."""
    from . import UsageError

    shared = (args.total, args.strata_counts)
    given: tuple[object, ...]
    given = (args.weights, args.exclude, args.id, args.strata, args.amount, *shared, args.prizes)
    given += (args.top_stratum, args.decimal)
    prizes = None if args.prizes is None else read_prizes(args.prizes)
    if prizes is not None:
        if args.k is not None or args.reserves:
            raise UsageError(
                "--prizes says how many win and how many are reserves: leave out -k and --reserves"
            )
        args.k = None
    if args.k is None and prizes is None and all(x is None for x in (*shared, args.rate)):
        raise UsageError(
            "-k K is required: how many rows to draw (or, with --strata, --total N; with "
            "--method ticket, --rate P)"
        )
    if args.k is not None and any(x is not None for x in shared):
        raise UsageError("-k and --total/--strata-counts both say how many: give one")
    flags = args.one_entry_per_id or args.all_of_small_strata
    if (
        all(x is None for x in given)
        and not flags
        and not args.reserves
        and args.method == "random"
        and args.rate is None
        and args.weight_scale is None
    ):
        return None
    if args.reserves < 0:
        raise UsageError(f"--reserves must be 0 or more, not {args.reserves}")
    options = DrawOptions(
        k=args.k or sum(p.count for p in prizes or ()),
        total=args.total,
        counts=None if args.strata_counts is None else (),
        method=parse_method(args.method),
        weights=args.weights,
        amount=args.amount,
        reserves=sum(p.reserves for p in prizes) if prizes else args.reserves,
        strata=args.strata,
        id=args.id,
        excluded=None if args.exclude is None else (),
        one_entry_per_id=args.one_entry_per_id,
        all_of_small_strata=args.all_of_small_strata,
        rate=None if args.rate is None else args.rate.strip(),
        prizes=prizes,
        weight_scale=args.weight_scale,
        top_stratum=_cutoff(args.top_stratum),
        decimal=args.decimal or "auto",
    )
    try:
        options.check()
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    if args.strata_counts is not None:
        options = dataclasses.replace(options, counts=read_counts(args.strata_counts))
    if args.exclude is None:
        return options
    return dataclasses.replace(options, excluded=read_excluded(args.exclude, args.id))


def _cutoff(text: str | None) -> int | Literal["interval"] | None:
    """``--top-stratum``: ``interval``, or an amount in cents (UsageError if neither)."""
    from . import UsageError

    if text is None or text.strip().lower() == "interval":
        return None if text is None else "interval"
    try:
        (cents,) = parse_amounts([text], decimal=decimal_mark([text]))
    except EntryError as exc:
        raise UsageError(f"--top-stratum {text}: {exc.reason}") from None
    if cents < 1:
        raise UsageError(f"--top-stratum {text}: give an amount more than 0, or 'interval'")
    return cents


def draw_lines(rec: dict[str, Any]) -> list[str]:
    """The terminal's lines about a raffle or an audit: each stratum's size and count,
    an audit's start and interval, the rows excluded."""
    spec = (rec.get("target") or {}).get("draw")
    if not spec:
        return []
    lines = []
    exclusion = spec.get("exclusion")
    if exclusion:
        lines.append(
            f"  excluded: {_count(len(exclusion['rows']), 'row')} whose {exclusion['column']} "
            f"is among {_count(exclusion['ids'], 'ID')} (digest {exclusion['digest'][:16]}...)"
        )
    for part in spec["parts"]:
        name = "all rows" if part["stratum"] is None else f"stratum {part['stratum']!r}"
        audit = ""
        if "start" in part:
            audit = f", start {part['start']} of {part['population']}, interval {part['interval']}"
        elif "cells" in part:
            audit = f", {part['cells']} cells of {_money(part['interval'])}"
        lines.append(f"  {name}: {part['drawn']} of {part['size']} drawn ({spec['method']}{audit})")
        if spec["method"] in ("monetary-unit", "monetary-unit-cell"):
            lines += _monetary_lines(part, "population" in part)
    if rec.get("set_aside_output"):
        aside = sum(len(part.get("set_aside", ())) for part in spec["parts"])
        lines.append(
            f"  {rec['set_aside_output']}: the header and the {_count(aside, 'row')} set aside"
        )
    return lines


def _monetary_lines(part: dict[str, Any], monetary: bool) -> list[str]:
    """A monetary-unit part's top stratum, the population its units hit, and the rows set
    aside (amounts 0 or below), each named: none of them is left out in silence."""
    lines = []
    if "top" in part:
        book = part["population"] + part["top_amount"]
        lines.append(
            f"    book value {_money(book)} (the positive amounts): top stratum "
            f"{_money(part['top_amount'])}, sampled {_money(part['population'])}"
        )
        lines.append(
            f"    top stratum: {_count(len(part['top']), 'row')} of {_money(part['cutoff'])} "
            "or more, taken whole (examined 100%)"
        )
    elif monetary:
        lines.append(f"    book value {_money(part['population'])} (the positive amounts)")
    if "set_aside" in part:
        rows = part["set_aside"]
        shown = ", ".join(str(r + 1) for r in rows[:10]) + (", ..." if len(rows) > 10 else "")
        lines.append(
            f"    set aside: {_count(len(rows), 'row')} of amount 0 or below, "
            f"{_money(part['set_aside_amount'])} in all (data rows {shown}; the record lists "
            "them): no unit can hit them, so audit them as their own population"
        )
    return lines


def _money(cents: int | str) -> str:
    """Cents (an integer, or a fraction's text) as an amount: ``1234567`` -> ``12,345.67``."""
    value = Fraction(cents) / 100
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{exact.quantize(Decimal('0.01')):,}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
