"""The ``orders`` subcommand: each person's order of a list of items, as a CSV table.

``xlshuffle orders ITEMS --ids IDS --seed S -o OUT.csv [--balanced] [-k M] [--record R]``
writes :func:`xlshuffle.lists.orders.orders_csv`'s table; ``xlshuffle verify R --input
ITEMS --ids IDS --output OUT.csv`` replays the record (:func:`verify_orders`, called by
``cli.records.cmd_verify`` for a record whose command is ``orders``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..common.targets import check_writable
from ..filedraw.inputs import table_reader

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``orders`` to the ``xlshuffle`` parser."""
    from . import add_seed

    p = subparsers.add_parser(
        "orders",
        help="give each person their own order of the items (per-person or counterbalanced)",
        description="Write a CSV table with one row per person (in the order of IDS): the ID, "
        "then the items in that person's order. ITEMS and IDS are CSV/TSV lists (a header "
        "row, then one value a row; the first column unless --items-column/--ids-column "
        "says) or text files (one value a line). A person's order depends only on the seed, "
        "the ID and the number of items (draw protocol section 13); with --balanced the "
        "orders are the rows of a randomised Williams design (section 14).",
    )
    p.add_argument("items", metavar="ITEMS", help="the items: a CSV/TSV list or a text file")
    p.add_argument("--ids", required=True, metavar="IDS", help="the people's IDs, one each")
    p.add_argument(
        "-o", "--output", required=True, metavar="OUT.csv", help="the table to write (.csv, .xlsx)"
    )
    add_seed(p, "orders")
    p.add_argument("-k", type=int, metavar="M", help="only the first M places of each order")
    p.add_argument(
        "--balanced",
        action="store_true",
        help="counterbalanced orders (Williams design): over each block of n people (2n for "
        "an odd number n of items) every item is once in each place and every item follows "
        "every other equally often; a person's order then depends on their place in IDS",
    )
    p.add_argument("--items-column", metavar="COL", help="ITEMS' column: header text or letter")
    p.add_argument("--ids-column", metavar="COL", help="IDS' column: header text or letter")
    p.add_argument(
        "--items-range",
        metavar="RANGE",
        help="for a workbook ITEMS: exactly these cells, one column or one row (A2:A41, "
        "Items!B1:K1); without it, the active sheet is read as a list (header in row 1)",
    )
    p.add_argument("--ids-range", metavar="RANGE", help="for a workbook IDS: as --items-range")
    p.add_argument("--record", metavar="FILE", help="write the JSON draw record here")
    p.set_defaults(func=cmd_orders)


def cmd_orders(args: argparse.Namespace) -> int:
    from ..lists.orders import orders_csv
    from . import UsageError, seed_note, seed_of

    if args.k is not None and args.k < 0:
        raise UsageError(f"-k must be 0 or more, not {args.k}")
    seed = seed_of(args)  # a bad seed is a usage error before any file is read
    stream = seed.stream()
    for given in (args.items, args.ids):
        if _same_file(args.output, given) or (args.record and _same_file(args.record, given)):
            raise UsageError(f"{given} is an input: write the table and record to other files")
    check_writable(args.output)
    if args.record:
        check_writable(args.record)
    readers = (
        table_reader(args.items, args.items_range, "--items-range"),
        table_reader(args.ids, args.ids_range, "--ids-range"),
    )
    rec = orders_csv(
        args.items,
        args.ids,
        args.output,
        seed=stream,
        k=args.k,
        balanced=args.balanced,
        items_column=args.items_column,
        ids_column=args.ids_column,
        readers=readers,
        render=_renderer(args.output),
    )
    rec["items_range"], rec["ids_range"] = args.items_range, args.ids_range
    if args.record:
        from .. import __version__
        from ..common.files import write_atomically

        rec["tool_version"] = __version__
        text = json.dumps(rec, indent=2, ensure_ascii=False) + "\n"
        write_atomically(args.record, text.encode("utf-8"))
    kind = "counterbalanced orders" if args.balanced else "orders"
    places = "" if args.k is None else f" (first {args.k} places)"
    print(
        f"{args.output}: {kind} of {rec['n']} items for {rec['people']} people{places}, "
        f"seed {rec['seed']}"
    )
    seed_note(seed, sys.stderr)
    return 0


def _renderer(output: str) -> Any:
    """The table's bytes for ``output``: a new workbook for ``.xlsx``, else None (CSV)."""
    if not output.lower().endswith(".xlsx"):
        return None
    from ..workbook.plaintables import table_xlsx

    return lambda table: table_xlsx(table, sheet="Orders")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)
