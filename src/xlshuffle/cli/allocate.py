"""``xlshuffle allocate``: a block allocation list for a trial, written to CSV files.

Registered into ``xlshuffle`` by :func:`register`; needs no input file (like ``deal``). The
list is :func:`xlshuffle.draw.allocate.allocation_list` (protocol section 15); the files and
the record are :mod:`xlshuffle.lists.allocation`'s. ``xlshuffle verify REC --output OUT``
replays a record through :func:`verify`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..common.files import escape_undecodable, write_atomically
from ..draw.errors import OptionError, SizeError
from ..lists import allocation as files
from ..tabledraw.winners import delimiter_for

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``allocate`` to the ``xlshuffle`` parser."""
    from . import add_seed

    p = subparsers.add_parser(
        "allocate",
        help="write a permuted-block allocation list for a trial (CSV or .xlsx)",
        description="Write a permuted-block allocation list (draw protocol v1, section 15): "
        "each block's size is drawn from --block-sizes and holds the arms exactly in --ratio, "
        "in a random order; one sequence per combination of --strata values, each of at "
        "least --n rows (the last block is complete: use the first N rows of each). Keep the "
        "seed and the record as secret as the list: they rebuild it.",
    )
    p.add_argument("--arms", required=True, help="the arms' names, comma-separated: A,B")
    p.add_argument("--ratio", help="whole numbers per arm, colon-separated: 2:1 (default 1:1)")
    p.add_argument("--n", required=True, help="rows wanted per stratum combination")
    p.add_argument(
        "--block-sizes",
        required=True,
        help="allowed block sizes, comma-separated, each a multiple of the ratio's sum: 3,6",
    )
    add_seed(p, "list")
    p.add_argument(
        "--strata",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="a stratum factor and its values; repeat for more (first factor slowest)",
    )
    p.add_argument(
        "-o", "--output", required=True, metavar="OUT.csv", help="the full list (.csv or .xlsx)"
    )
    p.add_argument("--record", metavar="FILE", help="write the JSON record for verify")
    p.add_argument(
        "--codes-only",
        metavar="FILE",
        help="also write Seq, strata and a concealment code per row: no arms, no blocks",
    )
    p.add_argument(
        "--redcap",
        metavar="FILE",
        help="also write REDCap's allocation table: redcap_randomization_group (the arm's "
        "number, 1 for the first arm) and one column per stratum field",
    )
    p.set_defaults(func=_cmd_allocate)


def _split(option: str, text: str, sep: str) -> list[str]:
    from . import UsageError

    parts = [p.strip() for p in text.split(sep)]
    if not all(parts):
        raise UsageError(f"{option} {text!r} has an empty item: separate the items with '{sep}'")
    return parts


def _whole(option: str, text: str) -> int:
    from . import UsageError

    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{option} takes whole numbers, not {text!r}") from None


def _strata(specs: list[str]) -> list[tuple[str, list[str]]]:
    from . import UsageError

    out = []
    for spec in specs:
        name, eq, values = spec.partition("=")
        if not eq or not name.strip() or not values.strip():
            raise UsageError(
                f"--strata {spec!r} is not NAME=V1,V2: for example --strata site=North,South"
            )
        out.append((name.strip(), _split(f"--strata {name.strip()}:", values, ",")))
    return out


def options_of(args: argparse.Namespace) -> dict[str, Any]:
    """The options as the record keeps them (lists of texts and whole numbers)."""
    arms = _split("--arms", args.arms, ",")
    ratio = [1] * len(arms)
    if args.ratio is not None:
        ratio = [_whole("--ratio", r) for r in _split("--ratio", args.ratio, ":")]
    sizes = [_whole("--block-sizes", s) for s in _split("--block-sizes", args.block_sizes, ",")]
    strata = _strata(args.strata)
    return {
        "arms": arms,
        "ratio": ratio,
        "n": _whole("--n", args.n),
        "block_sizes": sizes,
        "strata": [[name, values] for name, values in strata],
    }


# which option a refusal of the core is about, by how its message starts (a name the user
# gave comes later in the message, so it cannot mislead)
_OPTION_OF = (
    (("n must", "n = "), "--n"),
    (("the block size", "a block size", "give at least one block size"), "--block-sizes"),
    (("the ratio", "a part of the ratio", "each part of the ratio"), "--ratio"),
    (("give at least two arms", "the arm", "an arm"), "--arms"),
    (("the stratum", "a stratum", "stratum", "a value of stratum", "the strata"), "--strata"),
)


def _cmd_allocate(args: argparse.Namespace) -> int:
    from .. import __version__
    from . import UsageError, seed_note, seed_of

    options = options_of(args)
    paths = [p for p in (args.output, args.record, args.codes_only, args.redcap) if p]
    if len(set(map(os.path.abspath, paths))) < len(paths):
        raise UsageError(
            "-o, --record, --codes-only and --redcap name the same file: give each its own"
        )
    seed = seed_of(args)
    stream = seed.stream()
    try:
        rows = files.replay(options, stream)
    except (OptionError, SizeError) as exc:
        text = str(exc)
        option = next((o for starts, o in _OPTION_OF if text.startswith(starts)), "allocate")
        raise UsageError(f"{option}: {text}") from None
    names = [name for name, _ in options["strata"]]
    if args.redcap is not None and (_is_book(args.redcap) or delimiter_for(args.redcap) != ","):
        raise UsageError(f"--redcap {args.redcap}: REDCap imports CSV: give a .csv file")
    made = files.tables(rows, names, options["arms"])
    written: dict[str, tuple[str, bytes] | None] = {
        "output": (args.output, _bytes(args.output, made["output"], "Allocation")),
        "codes_only": None,
        "redcap": None,
    }
    if args.codes_only is not None:
        written["codes_only"] = (
            args.codes_only,
            _bytes(args.codes_only, made["codes_only"], "Codes"),
        )
    if args.redcap is not None:
        written["redcap"] = (args.redcap, files.redcap_csv(rows, names, options["arms"]))
    for item in written.values():
        if item is not None:
            write_atomically(*item)
    if args.record is not None:
        record = files.allocation_record(
            seed=stream, options=options, rows=rows, files=written, tool_version=__version__
        )
        text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
        write_atomically(args.record, escape_undecodable(text).encode("utf-8"))
    also = [item[0] for key, item in written.items() if key != "output" and item is not None]
    print(_summary(args.output, options["n"], rows, also))
    seed_note(seed, sys.stderr)
    return 0


def _is_book(path: str) -> bool:
    return path.lower().endswith(".xlsx")


def _bytes(path: str, table: list[list[object]], sheet: str) -> bytes:
    """A table's file: a new workbook of one sheet for ``.xlsx``, else CSV (TSV for a
    ``.tsv`` or ``.tab`` name)."""
    if not _is_book(path):
        return files.csv_bytes(table, delimiter_for(path))
    from ..workbook.plaintables import table_xlsx

    return table_xlsx(table, sheet=sheet)


def _summary(output: str, n: int, rows: list[Any], also: list[str]) -> str:
    combos = len({r.strata for r in rows})
    sequences = "1 sequence" if combos == 1 else f"{combos} sequences"
    blocks = len({(r.strata, r.block) for r in rows})
    return (
        f"{output}: {len(rows)} rows in {sequences} ({blocks} blocks); use the first {n} "
        f"rows of each" + (f"; also wrote {', '.join(also)}" if also else "")
    )
