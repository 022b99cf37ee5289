"""The draw the command line asks for, as one :class:`~xlshuffle.common.request.DrawRequest`
per input file (``shuffle``, ``sample``, ``groups``).

The options are read once, here: the mode, the counts, the draw's own options and the
files beyond the list (``--exclude``, ``--strata-counts``, ``--avoid``), each read with
the SHA-256 of its bytes so that a commitment can pin it.
"""

from __future__ import annotations

import argparse
import os

from ..common.names import check_cell_text, check_sheet_name
from ..common.request import (
    DrawKind,
    DrawRequest,
    GroupsOptions,
    Options,
    Output,
    Region,
    SampleOptions,
    ShuffleOptions,
    SideFile,
    SideOption,
)
from ..common.targets import check_writable
from ..draw.errors import OptionError
from ..draw.grid import parse_mode
from ..draw.seed import Seed
from .draws import draw_options
from .options import limits_of

__all__ = ["check_options", "draw_of", "requests_of"]


def draw_of(args: argparse.Namespace) -> tuple[Options, tuple[SideFile, ...]]:
    """The options of ``args.command`` and the side files they read."""
    command: DrawKind = args.command
    if command == "shuffle":
        return ShuffleOptions(by=parse_mode(args.by)), ()
    if command == "groups":
        avoid = None if args.avoid is None else SideFile.read("--avoid", args.avoid)
        balance = tuple(args.balance or ()) if (args.balance or args.avoid) else None
        options = GroupsOptions(
            k=args.k, size=args.size, label=args.label, balance=balance, avoid=args.avoid
        )
        return options, () if avoid is None else (avoid,)
    draw = draw_options(args)  # reads --strata-counts and --exclude
    named: tuple[tuple[SideOption, str | None], ...] = (
        ("--strata-counts", args.strata_counts),
        ("--exclude", args.exclude),
        ("--prizes", args.prizes),
    )
    sides = tuple(
        SideFile.read(option, path)
        for option, path in named
        if draw is not None and path is not None
    )
    return SampleOptions(k=args.k, sheet_name=args.sheet_name, draw=draw), sides


def requests_of(
    args: argparse.Namespace,
    sources: list[tuple[str, str | None]],
    seed: Seed,
    options: Options,
    side_files: tuple[SideFile, ...],
) -> list[DrawRequest]:
    """One request per ``(input, output)`` of ``sources``; without ``--seed`` each of
    several files draws its own fresh seed (one run, many draws)."""
    from . import UsageError

    many = len(sources) > 1
    if many and getattr(args, "set_aside_output", None) is not None:
        raise UsageError("--set-aside-output takes one input: draw each file on its own")
    region = Region.of_options(args)
    limits = tuple(limits_of(args).items())
    return [
        DrawRequest(
            kind=args.command,
            src=src,
            seed=Seed.given(None) if (seed.fresh and many) else seed,
            options=options,
            region=region,
            output=Output(
                path=dst,
                in_place=args.in_place,
                backup=not args.no_backup,
                dry_run=args.dry_run,
                set_aside=getattr(args, "set_aside_output", None),
            ),
            limits=limits,
            side_files=side_files,
            engine=getattr(args, "engine", "memory"),
        )
        for src, dst in sources
    ]


def check_options(args: argparse.Namespace) -> None:
    """Usage errors that no file can cure, found before any file is read."""
    from . import UsageError

    command: str = args.command
    if args.jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    least = 0 if command == "sample" else 1  # groups --size leaves -k None
    if command != "shuffle" and args.k is not None and args.k < least:
        raise UsageError(f"-k must be {least} or more, not {args.k}")
    if command == "groups" and args.size is not None and args.size < 1:
        raise UsageError(f"--size must be 1 or more, not {args.size}")
    if args.no_backup and not args.in_place:
        raise UsageError("--no-backup only makes sense with --in-place")
    try:  # written into the file: refused before any file is read
        if command == "groups":
            check_cell_text(args.label, option="--label")
        if command == "sample":
            check_sheet_name(args.sheet_name, option="--sheet-name")
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    if args.record:  # found out before anything is drawn or written, not after
        check_writable(args.record)
    aside = getattr(args, "set_aside_output", None)
    if aside is not None:
        _check_set_aside(args, aside)


def _check_set_aside(args: argparse.Namespace, aside: str) -> None:
    """``--set-aside-output``: one input's monetary-unit sample, to a file of its own."""
    from . import UsageError

    if args.method not in ("mus", "cell"):
        raise UsageError(
            "--set-aside-output writes the rows a monetary-unit sample sets aside: add "
            "--method mus (or cell) and --amount COL, or leave it out"
        )
    for option, other in (("-o", args.output), ("--record", args.record)):
        if other is not None and os.path.realpath(other) == os.path.realpath(aside):
            raise UsageError(f"--set-aside-output {aside}: {option} names it too: name another")
    try:
        check_writable(aside)
    except OptionError as exc:
        raise UsageError(f"--set-aside-output {exc}") from None
