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
from ..draw.protocol import DrawStream

__all__ = ["orders_record", "register", "verify_orders"]


def register(subparsers: Any) -> None:
    """Add ``orders`` to the ``xlshuffle`` parser."""
    from . import seed_help

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
    p.add_argument("--seed", help=seed_help("orders"))
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
    from . import UsageError, seed_note

    if args.k is not None and args.k < 0:
        raise UsageError(f"-k must be 0 or more, not {args.k}")
    stream = DrawStream(args.seed)  # a bad seed is a usage error before any file is read
    for given in (args.items, args.ids):
        if _same_file(args.output, given) or (args.record and _same_file(args.record, given)):
            raise UsageError(f"{given} is an input: write the table and record to other files")
    check_writable(args.output)
    if args.record:
        check_writable(args.record)
    readers = (
        _reader(args.items, args.items_range, "--items-range"),
        _reader(args.ids, args.ids_range, "--ids-range"),
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
    seed_note(stream, args.seed, sys.stderr)
    return 0


def _is_book(path: str) -> bool:
    return path.lower().endswith((".xlsx", ".xlsm", ".xltx", ".xltm"))


def _reader(path: str, cells: str | None, option: str) -> Any:
    """How ``path``'s values are read: None (a list or text file) or from a workbook."""
    from . import UsageError

    if not _is_book(path):
        if cells is not None:
            raise UsageError(f"{option} is for a workbook; {path} is read as a list or text")
        return None
    from ..workbook.tables import range_values

    def read(p: str, column: str | None, col_option: str) -> tuple[list[str], str]:
        if cells is not None and column is not None:
            raise UsageError(f"{p}: give {option} or {col_option}, not both")
        given = option if cells is not None else col_option
        return range_values(p, cells=cells, column=column, option=given)

    return read


def _renderer(output: str) -> Any:
    """The table's bytes for ``output``: a new workbook for ``.xlsx``, else None (CSV)."""
    if not output.lower().endswith(".xlsx"):
        return None
    from ..workbook.tables import table_xlsx

    return lambda table: table_xlsx(table, sheet="Orders")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def orders_record(path: str) -> dict[str, Any] | None:
    """The record in ``path`` if it is an ``orders`` record, else None (any other record,
    or a file the general record reader should explain)."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError, RecursionError):  # the record reader explains these
        return None
    if not isinstance(data, dict) or data.get("command") != "orders":
        return None
    _check_orders_fields(data, path)
    return data


_TEXT, _WHOLE, _NONE = (str,), (int,), (type(None),)
# each field verify reads: its kinds, and whether a record may leave it out
_ORDERS_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "seed": (_TEXT, True),
    "items": (_TEXT, True),
    "ids": (_TEXT, True),
    "items_sha256": (_TEXT, True),
    "ids_sha256": (_TEXT, True),
    "people": (_WHOLE, True),
    "k": (_WHOLE + _NONE, False),
    "balanced": ((bool,), False),
    "items_column": (_TEXT + _WHOLE + _NONE, False),
    "ids_column": (_TEXT + _WHOLE + _NONE, False),
    "items_range": (_TEXT + _NONE, False),
    "ids_range": (_TEXT + _NONE, False),
}


def _check_orders_fields(record: dict[str, Any], path: str) -> None:
    """Refuse an orders record whose fields are missing or of the wrong kind, naming it."""
    from ..draw.errors import ListError

    for name, (kinds, required) in _ORDERS_FIELDS.items():
        if name not in record:
            if required:
                raise ListError(
                    f"{path}: not a complete orders record (no {name}): give the record file "
                    "xlshuffle orders wrote"
                )
            continue
        value = record[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            want = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise ListError(
                f"{path}: field {name!r} of the orders record is {type(value).__name__}, not "
                f"{want}: give the record file xlshuffle orders wrote"
            )


def verify_orders(args: argparse.Namespace, record: dict[str, Any]) -> int:
    """Replay an ``orders`` record from ``--input`` and ``--ids``; check ``--output``."""
    from ..lists.orders import verify_orders_csv
    from . import UsageError

    if args.input is None or args.ids is None:
        raise UsageError(
            f"{args.record}: an orders record is replayed from its inputs: give --input ITEMS "
            "and --ids IDS (and --output OUT.csv to check the table)"
        )
    readers = (
        _reader(args.input, record.get("items_range"), "items_range"),
        _reader(args.ids, record.get("ids_range"), "ids_range"),
    )
    read_saved = None
    if args.output is not None and _is_book(args.output):
        from ..workbook.tables import read_table

        read_saved = read_table
    verify_orders_csv(
        record, args.input, args.ids, args.output, readers=readers, read_saved=read_saved
    )
    checked = "inputs and output" if args.output is not None else "inputs"
    print(
        f"ok: orders of {record['items']} for {record['people']} people with seed "
        f"{record['seed']} drawn again; {checked} checked"
    )
    return 0
