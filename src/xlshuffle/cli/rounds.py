"""``xlshuffle redraw``: a winner who does not answer, replaced by the next reserve.

``xlshuffle redraw R --replace ID --reason TEXT -o OUT.csv --record R2`` writes the whole
table after the round (the replaced winner kept, marked with the reason) and the round's
record beside ``R``, linked to it by its SHA-256; ``xlshuffle verify R2 --input IN
[--output OUT.csv]`` checks the chain back to the draw.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from ..common.files import write_atomically
from ..common.targets import check_writable

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``redraw`` to the ``xlshuffle`` parser."""
    p = subparsers.add_parser(
        "redraw",
        help="give a winner's place to the next reserve, in a new record linked to the last",
        description="When a winner does not answer: their place goes to the first reserve of "
        "their prize not yet called (the next reserve by rank, without a prize table). The "
        "draw is read again from its input; OUT lists every drawn entrant, the replaced "
        "winner kept with the reason, and the round's record holds the SHA-256 of the record "
        "it follows, so nothing earlier is rewritten and 'xlshuffle verify' checks the chain.",
    )
    p.add_argument("record", metavar="R", help="the draw's record, or the last round's")
    p.add_argument("--replace", required=True, metavar="ID", help="the winner's ID (--id column)")
    p.add_argument("--reason", required=True, metavar="TEXT", help="why (kept in the record)")
    p.add_argument("-o", "--output", metavar="OUT", help="the table after the round (.csv, .tsv)")
    p.add_argument(
        "--record",
        dest="round_record",
        required=True,
        metavar="R2",
        help="the round's record, written beside R (the chain is found by name)",
    )
    p.add_argument("--input", metavar="IN", help="the list drawn (default: the record's input)")
    p.set_defaults(func=cmd_redraw)


def cmd_redraw(args: argparse.Namespace) -> int:
    from ..filedraw.rounds import redraw
    from . import UsageError

    here = os.path.dirname(os.path.abspath(args.record))
    if os.path.dirname(os.path.abspath(args.round_record)) != here:
        raise UsageError(
            f"--record {args.round_record}: write the round's record beside {args.record}, "
            "where verify looks for the records before it"
        )
    for path in (args.round_record, args.output):
        if path is not None and os.path.abspath(path) == os.path.abspath(args.record):
            raise UsageError(f"{path} is the record this round follows: write to another file")
        if path is not None:
            check_writable(path)
    record, _ = redraw(args.record, args.replace, args.reason, input=args.input, output=args.output)
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    write_atomically(args.round_record, text.encode("utf-8"))
    given = record["given_to"]
    prize = f" ({given['prize']})" if given["prize"] is not None else ""
    print(
        f"{record['replace']['id']} replaced ({record['reason']}): the place{prize} goes to "
        f"{given['id']}, reserve {given['reserve']}; round recorded in {args.round_record}"
    )
    return 0
