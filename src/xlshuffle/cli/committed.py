"""A draw command given a commitment (``xlshuffle sample IN --commitment C.json --reveal
V``): the options it shows on the draw's parser, and the ``xlshuffle draw`` command line it
stands for, which the command line runs instead. Light on purpose: every run of ``sample``,
``shuffle`` and ``groups`` reads it, and ``draw`` itself (:mod:`.commit`) only when asked."""

from __future__ import annotations

import argparse

from ..common.request import SIDE_OPTIONS

__all__ = ["add_committed_options", "as_committed_draw"]


# what `sample|shuffle|groups --commitment C.json` takes besides, each with a value: the
# draw's other options are the committed ones
_DRAW_OPTIONS = ("--reveal", "-o", "--output", "--record", "--salt", "--engine", *SIDE_OPTIONS)
_DRAW_OPTIONS = (*_DRAW_OPTIONS, "--set-aside-output")


def add_committed_options(p: argparse.ArgumentParser) -> None:
    """Document ``--commitment``/``--reveal`` on a draw command's parser; the command line
    hands such a call to ``xlshuffle draw`` (:func:`as_committed_draw`) before parsing."""
    group = p.add_argument_group(
        "a committed draw (as 'xlshuffle draw COMMITMENT.json IN --reveal VALUE')"
    )
    group.add_argument(
        "--commitment",
        metavar="COMMITMENT.json",
        help="draw the draw committed to by 'xlshuffle commit': its options are the "
        "committed ones, the seed comes from --reveal; give IN, --reveal, --record, -o",
    )
    group.add_argument("--reveal", action="append", metavar="VALUE", help="the revealed value")
    group.add_argument("--salt", metavar="SALT.txt", help="the salt of the entrant hashes")


def as_committed_draw(argv: list[str]) -> list[str]:
    """``argv`` of ``sample|shuffle|groups ... --commitment C.json ...`` as the
    ``draw C.json ...`` it stands for (refused unless C.json commits to that draw, by
    ``draw``); any other ``argv`` unchanged."""
    from . import UsageError

    if not argv or argv[0] not in ("sample", "shuffle", "groups"):
        return argv
    rest, commitment = list(argv[1:]), None
    for i, token in enumerate(rest):
        if token == "--commitment" and i + 1 < len(rest):
            commitment, rest = rest[i + 1], rest[:i] + rest[i + 2 :]
            break
        if token.startswith("--commitment="):
            commitment, rest = token.partition("=")[2], rest[:i] + rest[i + 1 :]
            break
    if commitment is None:
        return argv
    skip = False
    for token in rest:
        name = token.partition("=")[0]
        if skip or not token.startswith("-") or token == "-":
            skip = False
        elif name in _DRAW_OPTIONS:
            skip = "=" not in token  # each takes a value
        else:
            raise UsageError(
                f"{name}: a committed draw takes its options from the commitment; give only "
                f"IN, --reveal VALUE, --record RECORD.json, -o OUT, --salt SALT.txt and where "
                f"its pinned files are (--exclude PATH...), as 'xlshuffle draw {commitment} IN "
                "--reveal VALUE'"
            )
    return ["draw", commitment, *rest, "--as", argv[0]]
