"""``xlshuffle tickets``: every entrant's ticket and place in a ticket draw (section 18).

``xlshuffle tickets IN --id COL --seed S [-o OUT.csv]`` writes a header row, then one row
per entrant in draw order: its place, its ID (and stratum, ticket count) and its ticket as
64 hex digits. A sample by ``--method ticket`` of the same file, seed and options draws a
prefix of this order (per stratum), so observers can see where every entrant stands and an
entrant can find their own ticket, which depends only on the seed and their ID.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator
from typing import Any

from ..common.files import atomic_writer
from ..common.request import DrawRequest, Output, Region, SampleOptions, SideFile
from ..common.targets import check_writable
from ..filedraw.sidefiles import read_excluded
from ..tabledraw.raffle_options import DrawOptions, parse_method
from ..tabledraw.winners import csv_text, delimiter_for

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``tickets`` to the ``xlshuffle`` parser."""
    from . import add_seed

    p = subparsers.add_parser(
        "tickets",
        help="list every entrant's ticket and place in a ticket draw",
        description="Write every entrant of IN (a CSV/TSV list or a workbook's data rows) "
        "in draw order: its place, its ID and its ticket, the SHA-256 of the seed's key "
        "and the ID (draw protocol section 18) as 64 hex digits, lowest first. An "
        "entrant's ticket depends only on the seed and its ID, so adding entrants never "
        "changes the others' order; 'xlshuffle sample IN --method ticket' with the same "
        "seed and options draws the first of this order (in each stratum).",
    )
    p.add_argument("input", metavar="IN", help="a CSV/TSV list or a workbook")
    p.add_argument("--id", required=True, metavar="COL", help="the entrants' ID column")
    p.add_argument(
        "-o", "--output", metavar="OUT", help="write here (.csv or .tsv; default stdout)"
    )
    add_seed(p, "tickets")
    p.add_argument(
        "--method",
        choices=["ticket", "rivest"],
        default="ticket",
        help="ticket (default: section 18's tickets) or rivest (consistent_sampler's order "
        "and tickets, decimals written low digit first)",
    )
    p.add_argument("--weights", metavar="COL", help="tickets per entrant (--method ticket)")
    p.add_argument("--weight-scale", type=int, metavar="N", help="tickets per unit of weight")
    p.add_argument("--strata", metavar="COL", help="number the places within each stratum")
    p.add_argument("--exclude", metavar="FILE", help="IDs left out (as sample --exclude reads)")
    p.add_argument(
        "--one-entry-per-id",
        action="store_true",
        help="the rows sharing an ID are one entrant, holding a ticket per row",
    )
    p.add_argument("--sheet", help="a workbook's sheet (default: the active sheet)")
    sel = p.add_mutually_exclusive_group()
    sel.add_argument("--range", metavar="A1:D9", help="a workbook's cells, such as A1:D200")
    sel.add_argument("--table", help="a workbook's Excel table, by name")
    sel.add_argument("--columns", metavar="B,D", help="only these columns of a workbook")
    p.add_argument(
        "--header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the first row is a header (default: on, off for --range)",
    )
    p.add_argument("--keep-blank-rows", action="store_true", help="blank rows are no entrants")
    p.add_argument(
        "--engine",
        choices=["memory", "duckdb"],
        default="memory",
        help="what reads the file: memory (default) or duckdb, for a CSV/TSV list of any size, "
        "streamed (pip install 'xlshuffle[duckdb]'); Parquet files always take duckdb. The "
        "listing is the same",
    )
    p.set_defaults(func=cmd_tickets)


_BATCH = 10_000


def _chunks(rows: Iterator[list[object]], delimiter: str, written: list[int]) -> Iterator[bytes]:
    """The listing's CSV text, a batch of rows at a time (the header's batch first);
    ``written[0]`` counts the entrants' rows."""
    batch = [next(rows)]
    for row in rows:
        batch.append(row)
        if len(batch) == _BATCH:
            written[0] += len(batch)
            yield csv_text(batch, delimiter).encode("utf-8")
            batch = []
    written[0] += len(batch)
    yield csv_text(batch, delimiter).encode("utf-8")


def cmd_tickets(args: argparse.Namespace) -> int:
    from ..filedraw.tickets import ticket_list
    from . import UsageError, seed_note, seed_of

    seed = seed_of(args)
    draw = DrawOptions(
        k=0,
        rate="1",
        method=parse_method(args.method),
        weights=args.weights,
        weight_scale=args.weight_scale,
        strata=args.strata,
        id=args.id,
        excluded=None if args.exclude is None else read_excluded(args.exclude, args.id),
        one_entry_per_id=args.one_entry_per_id,
    )
    try:
        draw.check()
    except ValueError as exc:
        raise UsageError(str(exc).replace("--rate", "a ticket listing's rate")) from None
    if args.output:
        check_writable(args.output)
    sides = () if args.exclude is None else (SideFile.read("--exclude", args.exclude),)
    request = DrawRequest(
        kind="sample",
        src=args.input,
        seed=seed,
        options=SampleOptions(k=None, draw=draw),
        region=Region.of_options(args),
        output=Output(dry_run=True),
        side_files=sides,
    )
    from ..sql.source import is_table_file

    delimiter = delimiter_for(args.output or "out.csv")
    if args.engine == "duckdb" or is_table_file(args.input):
        if request.region.workbook_only() or args.header is False:
            raise UsageError(
                "--engine duckdb reads a CSV/TSV list with a header row, or a Parquet file: "
                "leave out the workbook's options and --no-header"
            )
        from ..sql.listing import file_listing

        rows = file_listing(request)
    else:
        rows = iter(ticket_list(request))
    written = [-1]  # the header is no entrant
    chunks = _chunks(rows, delimiter, written)
    if args.output:
        first = next(chunks)  # the refusals come before any file is written
        with atomic_writer(args.output) as fh:
            for chunk in itertools.chain([first], chunks):
                fh.write(chunk)
        print(f"{args.input} -> {args.output}: {written[0]} entrants' tickets, seed {seed}")
    else:
        for chunk in chunks:
            sys.stdout.write(chunk.decode("utf-8"))
    seed_note(seed, sys.stderr)
    return 0
