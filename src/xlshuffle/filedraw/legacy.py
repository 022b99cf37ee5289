"""The draw of a commitment of version 1, from the texts of its options.

Before version 2, ``xlshuffle commit`` stated the committed draw as the command line's
options (``["-k", "2", "--weights", "Tickets"]``), and Excel's draw-and-lock commands still
do. Version 1 is frozen, and so is this table of the options it can hold: the draw options
of ``sample``, ``shuffle`` and ``groups`` as they were when version 1 was written.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from ..common.request import (
    SIDE_OPTIONS,
    DrawRequest,
    GroupsOptions,
    Options,
    Region,
    SampleOptions,
    ShuffleOptions,
    SideFile,
)
from ..draw.commit import UNREVEALED_SEED
from ..draw.errors import ListError
from ..draw.grid import parse_mode
from ..draw.seed import Seed
from ..tabledraw.raffle_options import DrawOptions, parse_method
from .sidefiles import read_counts, read_excluded

__all__ = ["legacy_request"]

_LIMITS = {
    "max_cells": "max_cell_draws",
    "max_ranges": "max_anchors",
    "max_ratio": "max_ratio",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ListError(f"a version 1 commitment's options: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="commitment", add_help=False, allow_abbrev=False)
    for name in ("--sheet", "--range", "--table", "--columns", "--by", "--label"):
        p.add_argument(name)
    p.add_argument("--header", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--keep-blank-rows", action="store_true")
    for name in ("-k", "--size", "--reserves", "--total"):
        p.add_argument(name, type=int)
    for name in ("--max-mb", "--max-cells", "--max-ranges", "--max-ratio"):
        p.add_argument(name, type=int)
    for name in ("--weights", "--id", "--strata", "--amount", "--method", "--sheet-name"):
        p.add_argument(name)
    for name in SIDE_OPTIONS:
        p.add_argument(name)
    p.add_argument("--balance", action="append")
    return p


def legacy_request(command: str, src: str, options: list[str]) -> DrawRequest:
    """The request of ``xlshuffle COMMAND SRC OPTIONS...`` as version 1 committed it, its
    side files read as they are now (version 1 did not pin them)."""
    args = _parser().parse_args(options)
    sides = tuple(
        SideFile.read(option, path)
        for option in SIDE_OPTIONS
        if (path := getattr(args, option[2:].replace("-", "_"))) is not None
    )
    return DrawRequest(
        kind=command,  # type: ignore[arg-type]  # checked by DrawRequest
        src=src,
        seed=Seed(UNREVEALED_SEED),
        options=_options(command, args),
        region=Region.of_options(args),
        limits=_limits(args),
        side_files=sides,
    )


def _options(command: str, args: argparse.Namespace) -> Options:
    if command == "shuffle":
        return ShuffleOptions(by=parse_mode(args.by or "rows"))
    if command == "groups":
        balance = tuple(args.balance or ()) if (args.balance or args.avoid) else None
        return GroupsOptions(
            k=args.k,
            size=args.size,
            label=args.label or "Group",
            balance=balance,
            avoid=args.avoid,
        )
    given = (args.weights, args.exclude, args.id, args.strata, args.amount)
    plain = all(x is None for x in (*given, args.total, args.strata_counts))
    if plain and not args.reserves and args.method in (None, "random"):
        return SampleOptions(k=args.k, sheet_name=args.sheet_name or "Sample")
    draw = DrawOptions(
        k=args.k or 0,
        total=args.total,
        counts=None if args.strata_counts is None else read_counts(args.strata_counts),
        method=parse_method(args.method or "random"),
        weights=args.weights,
        amount=args.amount,
        reserves=args.reserves or 0,
        strata=args.strata,
        id=args.id,
        excluded=None if args.exclude is None else read_excluded(args.exclude, args.id),
    )
    return SampleOptions(k=args.k, sheet_name=args.sheet_name or "Sample", draw=draw)


def _limits(args: argparse.Namespace) -> tuple[tuple[str, int], ...]:
    out = [(key, getattr(args, name)) for name, key in _LIMITS.items() if getattr(args, name)]
    if args.max_mb:
        size = args.max_mb * 1024**2
        names = ("max_file_bytes", "max_sheet_bytes", "max_part_bytes", "max_strings_bytes")
        out += [(name, size) for name in names]
    return tuple(out)
