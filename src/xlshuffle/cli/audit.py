"""``xlshuffle plan`` and ``xlshuffle evaluate``: an audit sample's size before it is drawn,
and its upper limit after it is audited.

``plan attribute`` and ``plan mus`` give the sample size (``draw/auditplan.py``);
``evaluate attribute`` the upper deviation limit, and ``evaluate mus SAMPLE`` the Stringer
bound of the sample file ``xlshuffle sample --method mus`` wrote, with an audited-value
column added (``draw/auditeval.py``). Each prints a few lines, or with ``--json`` one JSON
object. Rates and the confidence are decimals (``0.95``) or percentages (``95%``).
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction
from typing import Any

from ..draw.auditeval import MusEvaluation, attribute_upper_limit, mus_upper_limit
from ..draw.auditplan import MODELS, SamplePlan, attribute_sample_size, model_of, mus_sample_size
from ..draw.errors import EntryError, ListError, OptionError
from ..draw.values import DecimalMark, decimal_mark, parse_amounts
from ..filedraw.inputs import table_reader
from ..lists.api import is_list
from ..lists.orders import read_values
from ..lists.table import sniff_delimiter
from ..tabledraw.raffles import TOP_LABEL

__all__ = ["register"]

_RATE = "a decimal (0.95) or a percentage (95%%)"


def register(sub: Any) -> None:
    """Add ``plan`` and ``evaluate`` to the ``xlshuffle`` parser."""
    from . import Parser, one_or_more, whole_number

    plan = sub.add_parser(
        "plan",
        help="an audit sample's size: attribute or monetary-unit sampling",
        description="The smallest sample whose upper limit, if it holds the errors expected, "
        "stays below the tolerable rate at the confidence asked (the AICPA Audit Sampling "
        "guide's tables; jfa's planning()).",
    )
    kinds = plan.add_subparsers(dest="kind", metavar="KIND", parser_class=Parser, required=True)
    p = kinds.add_parser(
        "attribute",
        help="items to test for a deviation rate",
        description="The sample size of an attribute (deviation) test.",
    )
    _confidence(p)
    p.add_argument("--tolerable-rate", required=True, metavar="R", help=f"tolerable rate: {_RATE}")
    p.add_argument("--expected-rate", default="0", metavar="E", help="expected rate (default 0)")
    p.add_argument("--population", type=one_or_more, metavar="N", help="items in the population")
    _model(p, "binomial", MODELS, "the hypergeometric model needs --population")
    _json(p)
    p.set_defaults(func=_plan_attribute)

    p = kinds.add_parser(
        "mus",
        help="monetary units to hit for a tolerable misstatement",
        description="The sample size of a monetary-unit sample: the attribute plan on the "
        "units of money, with the tolerable rate T/B and the expected rate E/B.",
    )
    _confidence(p)
    p.add_argument("--book-value", required=True, metavar="B", help="the population's amount")
    p.add_argument("--tolerable", required=True, metavar="T", help="tolerable misstatement")
    p.add_argument("--expected", default="0", metavar="E", help="expected misstatement (0)")
    _model(p, "poisson", MODELS, "the hypergeometric population is B in whole units")
    _json(p)
    p.set_defaults(func=_plan_mus)

    ev = sub.add_parser(
        "evaluate",
        help="an audited sample's upper limit: attribute or monetary-unit sampling",
        description="The upper limit on the population's deviation rate or misstatement at "
        "the confidence asked, after the sample is audited.",
    )
    kinds = ev.add_subparsers(dest="kind", metavar="KIND", parser_class=Parser, required=True)
    p = kinds.add_parser(
        "attribute",
        help="the upper deviation limit",
        description="The upper deviation limit after K deviations in N items (binomial: "
        "the one-sided Clopper-Pearson bound, AICPA Table A-3).",
    )
    p.add_argument(
        "--sample-size", required=True, type=one_or_more, metavar="N", help="items tested"
    )
    p.add_argument("--deviations", required=True, type=whole_number, metavar="K", help="found")
    _confidence(p)
    p.add_argument("--population", type=one_or_more, metavar="N", help="items in the population")
    p.add_argument("--tolerable-rate", metavar="R", help="give it for a conclusion")
    _model(p, "binomial", MODELS, "the hypergeometric model needs --population")
    _json(p)
    p.set_defaults(func=_evaluate_attribute)

    p = kinds.add_parser(
        "mus",
        help="the upper misstatement limit (Stringer)",
        description="The upper misstatement limit of a monetary-unit sample (the Stringer "
        "bound) and its projected misstatement, from the sample file `xlshuffle sample "
        "--method mus` wrote with an audited-value column added. Each hit counts: an item "
        "hit twice (its Hits) has its tainting twice.",
    )
    p.add_argument("sample", metavar="SAMPLE", help="the sample: a CSV/TSV list or a workbook")
    p.add_argument("--book", required=True, metavar="COL", help="the recorded amounts' column")
    p.add_argument("--audited", required=True, metavar="COL", help="the audited amounts' column")
    p.add_argument(
        "--hits",
        metavar="COL",
        help="each item's hits (default: the column Hits when there is one, else 1 each)",
    )
    p.add_argument(
        "--top",
        metavar="COL",
        help="which items are the top stratum, examined 100%%: yes or no (default: the "
        "column Top stratum when there is one); their misstatement is added as known",
    )
    p.add_argument(
        "--book-value",
        required=True,
        metavar="B",
        help="the population's amount (its positive amounts, the top stratum included)",
    )
    _confidence(p)
    p.add_argument("--tolerable", metavar="T", help="tolerable misstatement, for a conclusion")
    _model(p, "poisson", ("poisson", "binomial"), "the factors of the bound")
    mark = p.add_mutually_exclusive_group()
    for name in ("comma", "point"):
        mark.add_argument(
            f"--decimal-{name}",
            action="store_const",
            const=name,
            dest="decimal",
            help=f"the amounts' texts write decimals with a {name} (default: a comma in a "
            "semicolon list whose amounts have one, as sample reads them; else a point)",
        )
    p.add_argument(
        "--bound",
        choices=["stringer", "cell"],
        default="stringer",
        help="stringer (default) or cell: the cell evaluation (Leslie, Teitlebaum and "
        "Anderson), for a sample drawn with --method cell",
    )
    _json(p)
    p.set_defaults(func=_evaluate_mus)


def _confidence(p: argparse.ArgumentParser) -> None:
    p.add_argument("--confidence", required=True, metavar="C", help=f"confidence: {_RATE}")


def _json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _model(p: argparse.ArgumentParser, default: str, choices: tuple[str, ...], note: str) -> None:
    def parse(text: str) -> str:
        try:
            model = model_of(text)
        except OptionError:
            model = None
        if model not in choices:
            raise argparse.ArgumentTypeError(f"use one of {', '.join(choices)}, not {text!r}")
        return model

    p.add_argument(
        "--model",
        type=parse,
        default=default,
        metavar="|".join(choices),
        help=f"the model (default {default}; {note})",
    )


# --------------------------------------------------------------------------- plan


def _plan_attribute(args: argparse.Namespace) -> int:
    plan = attribute_sample_size(
        confidence=args.confidence,
        tolerable_rate=args.tolerable_rate,
        expected_rate=args.expected_rate,
        population=args.population,
        model=args.model,
    )
    if args.json:
        return _print_json(plan.as_dict())
    noun = "deviation" if plan.errors_allowed == 1 else "deviations"
    print(
        f"sample size {plan.sample_size} ({plan.model}, confidence {_pct(plan.confidence)}, "
        f"tolerable rate {_pct(plan.tolerable_rate)}, expected rate "
        f"{_pct(plan.expected_rate)}{_of(plan)})"
    )
    print(
        f"  with {_number(plan.errors_allowed)} {noun} in the sample the upper limit is "
        f"{_pct_up(plan.upper_limit)}, below {_pct(plan.tolerable_rate)}"
    )
    return 0


def _plan_mus(args: argparse.Namespace) -> int:
    plan = mus_sample_size(
        confidence=args.confidence,
        book_value=_amount(args.book_value),
        tolerable=_amount(args.tolerable),
        expected=_amount(args.expected),
        model=args.model,
    )
    if args.json:
        return _print_json(plan.as_dict())
    b, interval = plan.book_value, plan.interval
    assert b is not None  # a monetary-unit plan has them
    assert interval is not None
    print(
        f"sample size {plan.sample_size} ({plan.model}, confidence {_pct(plan.confidence)}, "
        f"book value {_money(b)}, tolerable {_money(plan.tolerable_rate * b)}, expected "
        f"{_money(plan.expected_rate * b)})"
    )
    print(
        f"  interval {_money(interval)}; with taintings summing to "
        f"{_number(plan.errors_allowed)} the upper limit is "
        f"{_money_up(plan.upper_limit * _decimal(b))}, below {_money(plan.tolerable_rate * b)}"
    )
    print(
        f"  draw it: xlshuffle sample LIST -k {plan.sample_size} --method mus --amount COL "
        "--seed SEED -o SAMPLE.csv"
    )
    return 0


def _of(plan: SamplePlan) -> str:
    return "" if plan.population is None else f", population {plan.population:,}"


# --------------------------------------------------------------------------- evaluate


def _evaluate_attribute(args: argparse.Namespace) -> int:
    e = attribute_upper_limit(
        sample_size=args.sample_size,
        deviations=args.deviations,
        confidence=args.confidence,
        population=args.population,
        model=args.model,
        tolerable_rate=args.tolerable_rate,
    )
    if args.json:
        return _print_json(e.as_dict())
    noun = "deviation" if e.deviations == 1 else "deviations"
    pop = "" if e.population is None else f", population {e.population:,}"
    print(
        f"{e.deviations} {noun} in {e.sample_size} items ({_pct(e.sample_rate)}): upper "
        f"limit {_pct_up(e.upper_limit)} ({e.model}, confidence {_pct(e.confidence)}{pop})"
    )
    if e.tolerable_rate is not None:
        print(f"  {_conclusion(e.accepted, _pct(e.tolerable_rate), 'rate')}")
    return 0


def _evaluate_mus(args: argparse.Namespace) -> int:
    book = _column(args.sample, args.book, "--book")
    audited = _column(args.sample, args.audited, "--audited")
    hits = _hits(args.sample, args.hits)
    top = _top(args.sample, args.top)
    try:
        e = mus_upper_limit(
            book,
            audited,
            book_value=_amount(args.book_value),
            confidence=args.confidence,
            hits=hits,
            model=args.model,
            tolerable=None if args.tolerable is None else _amount(args.tolerable),
            bound=args.bound,
            top=top,
            decimal=args.decimal or _mark(args.sample, book, audited),
        )
    except EntryError as exc:  # a cell of the file: the file's fault, named by its row
        raise ListError(f"{args.sample}: data row {exc.index + 1}: {exc.reason}") from None
    if args.json:
        return _print_json({"sample": args.sample, **e.as_dict()})
    _print_mus(args.sample, e)
    return 0


def _print_mus(path: str, e: MusEvaluation) -> None:
    over, under = e.overstatements, e.understatements
    bound = "" if e.bound == "stringer" else ", cell bound"
    print(
        f"{path}: {e.sample_size} hits, {over} overstated, {under} understated "
        f"({e.model} factors{bound}, confidence {_pct(e.confidence)}, book value "
        f"{_money(e.book_value)}, interval {_money(e.interval)})"
    )
    if e.top_items:
        print(
            f"  top stratum: {e.top_items} item{'s' if e.top_items != 1 else ''}, book "
            f"{_money(e.top_book)}, examined 100%: known misstatement {_money(e.known)} "
            f"(the book value above is the sampled population's, "
            f"{_money(e.book_value + e.top_book)} less the top stratum)"
        )
    rows = [
        ("basic precision", _money(e.basic_precision)),
        ("projected misstatement", _money(e.projected)),
        *([("known misstatement", _money(e.known_over))] if e.top_items else []),
        ("precision gap widening", _money(e.precision_gap_widening)),
        ("upper misstatement limit", _money_up(e.upper_limit)),
    ]
    width = max(len(v) for _, v in rows)
    for label, value in rows:
        print(f"  {label:<25}{value:>{width}}")
    if e.tolerable is not None:
        print(f"  {_conclusion(e.accepted, _money(e.tolerable), 'misstatement')}")


def _conclusion(accepted: bool | None, tolerable: str, what: str) -> str:
    if accepted:
        return f"below the tolerable {what} {tolerable}: the sample supports the assertion"
    return f"not below the tolerable {what} {tolerable}: the sample does not support it"


def _column(path: str, column: str, option: str) -> list[str]:
    reader = table_reader(path, None, option)
    if reader is None:
        values, _ = read_values(path, column=column, option=option)
    else:
        values, _ = reader(path, column, option)
    return values


def _hits(path: str, column: str | None) -> list[str] | None:
    """``--hits``, or the column Hits that ``sample --method mus`` writes when there is one."""
    if column is not None:
        return _column(path, column, "--hits")
    try:
        return _column(path, "Hits", "--hits")
    except OptionError:
        return None


def _amount(text: str) -> str:
    """An amount option as the core reads it: ``41.047,15`` (a decimal comma, which only
    that form can have) becomes ``41047.15``; anything else is left as given."""
    try:
        if decimal_mark([text]) != "comma":
            return text
        (value,) = parse_amounts([text], places=6, decimal="comma")
    except EntryError:
        return text  # read, and refused if it must be, as before
    return str(Decimal(value) / 10**6)


def _mark(path: str, book: list[str], audited: list[str]) -> DecimalMark:
    """How a sample file writes decimals, as ``sample`` decides it: a semicolon list by its
    amounts' cells, anything else with a point."""
    if not is_list(path):
        return "point"
    with open(path, "rb") as fh:
        if sniff_delimiter(path, fh.readline()) != ";":
            return "point"
    try:
        return decimal_mark([*book, *audited])
    except EntryError as exc:
        column, row = (
            ("--book", exc.index) if exc.index < len(book) else ("--audited", exc.index - len(book))
        )
        raise ListError(f"{path}: data row {row + 1} ({column}): {exc.reason}") from None


def _top(path: str, column: str | None) -> list[bool] | None:
    """``--top``, or the column Top stratum that ``sample --top-stratum`` writes: yes/no."""
    try:
        values = _column(path, column or TOP_LABEL, "--top")
    except OptionError:
        if column is not None:
            raise
        return None
    out = []
    for i, v in enumerate(values):
        text = v.strip().lower()
        if text not in ("yes", "no", ""):
            raise ListError(
                f"{path}: data row {i + 1}: top stratum {v!r}: write yes (examined 100%) or no"
            )
        out.append(text == "yes")
    return out


# --------------------------------------------------------------------------- printing


def _print_json(obj: dict[str, object]) -> int:
    json.dump(obj, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def _pct(value: Fraction) -> str:
    """A rate as a percentage with the digits it has (at most 4 decimals)."""
    text = f"{float(value * 100):.4f}".rstrip("0").rstrip(".")
    return f"{text}%"


def _pct_up(value: Decimal) -> str:
    """An upper limit as a percentage, rounded up to four decimals (never shown lower)."""
    return f"{(value * 100).quantize(Decimal('0.0001'), rounding=ROUND_CEILING)}%"


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _money(value: Fraction | Decimal) -> str:
    """An amount to the cent, exactly (half to even)."""
    exact = value if isinstance(value, Decimal) else _decimal(value)
    return f"{exact.quantize(Decimal('0.01')):,}"


def _money_up(value: Decimal) -> str:
    """An amount rounded up to cents: an upper limit is never shown lower than it is."""
    return f"{value.quantize(Decimal('0.01'), rounding=ROUND_CEILING):,}"
