"""``xlshuffle redraw``: a winner who does not answer, replaced by the next reserve, or,
when none is left in a committed draw, by an entrant drawn afresh.

``xlshuffle redraw R --replace ID --reason TEXT -o OUT.csv --record R2`` writes the whole
table after the round (the replaced winner kept, marked with the reason) and the round's
record beside ``R``, linked to it by its SHA-256; ``xlshuffle verify R2 --input IN
[--output OUT.csv]`` checks the chain back to the draw. A fresh round (protocol section
19) is committed first, ``redraw R --replace ID --reason TEXT --beacon TEXT --commit
C2.json``, and drawn once the value is out, ``redraw R --commitment C2.json --reveal VALUE
-o OUT.csv --record R2``.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from ..common.files import escape_undecodable, write_atomically
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
        "it follows, so nothing earlier is rewritten and 'xlshuffle verify' checks the chain. "
        "When no reserve is left in a committed draw, the place is drawn again from fresh "
        "public randomness over the entrants not yet drawn (protocol section 19): commit to "
        "the round with --beacon TEXT --commit C2.json, then, once the value is out, draw it "
        "with --commitment C2.json --reveal VALUE.",
    )
    p.add_argument("record", metavar="R", help="the draw's record, or the last round's")
    p.add_argument("--replace", metavar="ID", help="the winner's ID (--id column)")
    p.add_argument("--reason", metavar="TEXT", help="why (kept in the record)")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="the table after the round (.csv, .tsv; for a workbook's draw also .xlsx: a "
        "copy of the workbook with the table on an added sheet)",
    )
    p.add_argument(
        "--record",
        dest="round_record",
        metavar="R2",
        help="the round's record, written beside R (the chain is found by name)",
    )
    p.add_argument("--input", metavar="IN", help="the list drawn (default: the record's input)")
    fresh = p.add_argument_group("a fresh round, when no reserve is left (a committed draw)")
    fresh.add_argument(
        "--beacon",
        metavar="TEXT",
        help="commit to drawing the place again: the public random value that will seed "
        "the round, announced now (with --commit)",
    )
    fresh.add_argument(
        "--commit",
        metavar="C2.json",
        help="where the round's commitment goes (its hash is printed: publish it)",
    )
    fresh.add_argument(
        "--commitment", metavar="C2.json", help="draw the round committed to in C2.json"
    )
    fresh.add_argument(
        "--reveal",
        action="append",
        metavar="VALUE",
        help="the revealed value, as published; one per source, in the beacon's order",
    )
    p.set_defaults(func=cmd_redraw)


def _cmd_commit_round(args: argparse.Namespace) -> int:
    from ..filedraw.rounds import commit_round
    from . import UsageError

    for option in ("output", "round_record", "commitment", "reveal"):
        if getattr(args, option) is not None:
            name = {"output": "-o", "round_record": "--record"}.get(option, f"--{option}")
            raise UsageError(
                f"{name}: committing to a round draws nothing; give {name} when you draw it "
                "(redraw R --commitment C2.json --reveal VALUE)"
            )
    if args.replace is None or args.reason is None or args.commit is None:
        raise UsageError(
            "a round's commitment needs --replace ID, --reason TEXT and --commit C2.json"
        )
    if os.path.exists(args.commit):
        raise UsageError(
            f"{args.commit} exists: a commitment never overwrites a file; name another"
        )
    made = commit_round(
        args.record, args.replace, args.reason, beacon=args.beacon, input=args.input
    )
    text = json.dumps(
        {"commitment": made.body, "sha256": made.sha256}, ensure_ascii=False, indent=2
    )
    write_atomically(args.commit, escape_undecodable(text + "\n").encode("utf-8"))
    place = made.body["replace"]
    prize = f" ({place['prize']}, place {place['place']})" if place["prize"] is not None else ""
    print(
        f"{args.commit}: commitment to drawing the place of {place['id']}{prize} again from "
        f"{made.body['pool']['entrants']} entrants not yet drawn; seeded by: {args.beacon}"
    )
    print(f"publish this commitment hash now: {made.sha256}")
    return 0


def _check_round(args: argparse.Namespace) -> None:
    """Refuse a round's options that do not go together."""
    from . import UsageError

    if (args.commitment is None) != (args.reveal is None):
        raise UsageError("--commitment C2.json and --reveal VALUE go together: give both")
    if args.round_record is None:
        raise UsageError("--record R2: name the round's record (written beside R)")
    if args.commitment is None and (args.replace is None or args.reason is None):
        raise UsageError("--replace ID and --reason TEXT: name the winner replaced and why")


def cmd_redraw(args: argparse.Namespace) -> int:
    from ..filedraw.freshround import load_round
    from ..filedraw.rounds import redraw
    from . import UsageError

    if args.beacon is not None or args.commit is not None:
        if args.beacon is None or args.commit is None:
            raise UsageError("--beacon TEXT and --commit C2.json go together: give both")
        return _cmd_commit_round(args)
    _check_round(args)
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
    fresh = None
    if args.commitment is not None:
        fresh = (load_round(args.commitment), list(args.reveal))
    record, _ = redraw(
        args.record,
        args.replace,
        args.reason,
        input=args.input,
        output=args.output,
        fresh=fresh,
    )
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    write_atomically(args.round_record, escape_undecodable(text).encode("utf-8"))
    given = record["given_to"]
    prize = f" ({given['prize']})" if given["prize"] is not None else ""
    how = (
        f"reserve {given['reserve']}"
        if "reserve" in given
        else f"drawn afresh from {given['pool']} entrants with seed {record['fresh']['seed']}"
    )
    print(
        f"{record['replace']['id']} replaced ({record['reason']}): the place{prize} goes to "
        f"{given['id']}, {how}; round recorded in {args.round_record}"
    )
    return 0
