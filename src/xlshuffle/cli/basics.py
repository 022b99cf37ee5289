"""The subcommands that need nothing but the core: ``lines`` (shuffle or sample the lines
of a file, like ``shuf``), ``deal`` (cards to hands) and ``seed`` (a fresh seed to
announce)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..draw.cards import deal_hands
from ..draw.protocol import new_seed
from . import UsageError, add_seed, one_or_more, seed_note, seed_of, whole_number

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add ``lines``, ``deal`` and ``seed`` to the ``xlshuffle`` parser."""
    p = sub.add_parser(
        "lines",
        help="shuffle or sample the lines of a file (like shuf)",
        description="Shuffle or sample the lines of a file, byte for byte: a line ends after "
        "\\n and keeps its own \\n or \\r\\n; a last line without one is written with the "
        "file's own ending (its first line's).",
    )
    p.add_argument("file", nargs="?", default="-", help="input file (default: stdin)")
    p.add_argument("-n", type=whole_number, help="output at most N lines, in draw order")
    add_seed(p, "order")
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    p.add_argument(
        "--header",
        action="store_true",
        help="the first line is a header: it stays first and is not drawn (-n counts the "
        "lines after it)",
    )
    p.add_argument(
        "--max-mb",
        type=int,
        default=2048,
        metavar="MB",
        help="refuse a larger input (default 2048 MB), before reading all of it",
    )
    p.add_argument(
        "--max-lines",
        type=int,
        default=100_000_000,
        metavar="N",
        help="refuse an input of more lines (default 100,000,000: 400 MB of offsets), "
        "before reading all of it",
    )
    p.set_defaults(func=_cmd_lines)

    p = sub.add_parser(
        "deal",
        help="deal playing cards to hands",
        description="Deal cards round-robin to hands from one or more shuffled decks (52 "
        "cards, plus jokers), or numbers 1..N with --deck N: the same seed gives the same "
        "deal as xlshuffle.deal_hands, and as the Excel function DEAL for one deck without "
        "jokers.",
    )
    p.add_argument("--cards", type=one_or_more, default=5, help="cards per hand (default 5)")
    p.add_argument("--hands", type=one_or_more, default=1, help="number of hands (default 1)")
    p.add_argument("--deck", type=one_or_more, help="deal from the numbers 1..N instead of cards")
    p.add_argument("--jokers", type=whole_number, default=0, help="jokers per deck")
    p.add_argument("--decks", type=one_or_more, default=1, help="decks shuffled together")
    add_seed(p, "deal")
    p.add_argument("--json", action="store_true", help="print a JSON record")
    p.set_defaults(func=_cmd_deal)

    p = sub.add_parser(
        "seed",
        help="print a fresh random seed",
        description="Print a fresh seed (128 bits from the operating system's random source, "
        "as 26 letters and digits) to announce before a draw and pass to --seed.",
    )
    p.add_argument("-c", "--count", type=whole_number, default=1, help="how many seeds")
    p.set_defaults(func=_cmd_seed)


def _cmd_lines(args: argparse.Namespace) -> int:
    from ..common.files import atomic_writer
    from ..lists import LineList, read_limited

    if args.max_mb < 1:
        raise UsageError("--max-mb must be 1 or more")
    if args.max_lines < 1:
        raise UsageError("--max-lines must be 1 or more")
    limit = args.max_mb * 1024**2
    if args.file == "-":
        data = read_limited(sys.stdin.buffer, limit, "stdin", max_lines=args.max_lines)
    else:
        with open(args.file, "rb") as fh:
            data = read_limited(fh, limit, args.file, max_lines=args.max_lines)
    head = b""
    if args.header:  # the first line stays first; removed in place, not copied
        end = data.find(b"\n") + 1 or len(data)
        head = bytes(data[:end])
        del data[:end]
    lines = LineList(data)
    if head.endswith(b"\n"):  # a last line without one takes the file's first line's
        lines.ending = b"\r\n" if head.endswith(b"\r\n") else b"\n"
    seed = seed_of(args)
    order = lines.draw(args.n, seed.stream())
    if args.output:
        with atomic_writer(args.output) as out:
            out.write(head)
            for chunk in lines.chunks(order):
                out.write(chunk)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(head)
        for chunk in lines.chunks(order):
            sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.flush()
    seed_note(seed, sys.stderr)
    return 0


# --------------------------------------------------------------------------- deal


def _cmd_deal(args: argparse.Namespace) -> int:
    seed = seed_of(args)
    deck: Any = args.deck
    hands = deal_hands(
        args.cards, args.hands, seed=seed.stream(), deck=deck, jokers=args.jokers, decks=args.decks
    )
    if args.json:
        record = {
            "protocol": "xlshuffle/draw/v1",
            "seed": seed.text,
            "deck": deck,  # N for the numbers 1..N, else null (cards)
            "decks": args.decks,
            "jokers": args.jokers,
            "hands": hands,
        }
        print(json.dumps(record, ensure_ascii=False))
    else:
        for h, hand in enumerate(hands, 1):
            print(f"Hand {h}: " + " ".join(str(c) for c in hand))
    seed_note(seed, sys.stderr)
    return 0


def _cmd_seed(args: argparse.Namespace) -> int:
    for _ in range(args.count):
        print(new_seed())
    return 0


# --------------------------------------------------------------------------- parser
