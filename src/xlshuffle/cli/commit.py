"""``xlshuffle commit`` and ``xlshuffle draw``: a draw committed before its seed is known.

``commit IN [--draw sample|shuffle|groups] [the draw's options] --beacon TEXT -o C.json``
reads the list as the draw would (a dry run of the same command), digests its rows and
writes the commitment (protocol section 17, :mod:`xlshuffle.draw.commit`): the list, the
draw's options, the public randomness announced. ``draw C.json IN --reveal VALUE
--record R.json [-o OUT]`` refuses a list that is not the committed one, derives the seed
from the commitment hash and the revealed values, runs the committed draw with it and
writes its record with the commitment and the values (:mod:`.chain` holds the checks,
and what ``verify`` adds for such a record).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys
import tempfile
from typing import Any

from ..common.files import escape_undecodable, write_atomically
from ..draw.commit import (
    COMMITMENT_VERSION,
    commit_seed,
    commitment_sha256,
    new_salt,
    reveal_values,
    rows_sha256,
)
from ..draw.errors import ListError
from ..draw.protocol import PROTOCOL
from .chain import check_list, dry_record, entrants, load_commitment, rows_of

__all__ = ["add_committed_options", "as_committed_draw", "register"]

# options of the draw that the commitment fixes, or that a committed draw sets itself
_NOT_COMMITTED = (
    "--seed", "-o", "--output", "--record", "--in-place", "--out-dir", "--suffix",
    "--dry-run", "--json", "--overwrite", "--no-backup", "--jobs",
)  # fmt: skip


def register(subparsers: Any) -> None:
    """Add ``commit`` and ``draw`` to the ``xlshuffle`` parser."""
    p = subparsers.add_parser(
        "commit",
        allow_abbrev=False,
        help="commit to a list and a draw before its public random value is known",
        description="Fix a list, a draw (sample, shuffle or groups, with any of its "
        "options) and the public randomness that will seed it, before that randomness is "
        "known: writes the commitment and prints its hash to publish. Later, 'xlshuffle "
        "draw COMMITMENT IN --reveal VALUE' draws with the seed derived from the hash and "
        "the revealed value (draw protocol section 17).",
    )
    p.add_argument("input", metavar="IN", help="the list: a workbook or a CSV/TSV list")
    p.add_argument(
        "--draw",
        choices=("sample", "shuffle", "groups"),
        default="sample",
        help="the draw to commit to (default sample); give its options as for that command",
    )
    p.add_argument(
        "--beacon",
        required=True,
        metavar="TEXT",
        help="the public random value that will seed the draw, announced now: 'the six "
        "main numbers of EuroMillions on 2026-12-04', 'drand quicknet round 12345678'",
    )
    p.add_argument("-o", "--output", required=True, metavar="COMMITMENT.json")
    p.add_argument(
        "--entrant-hashes",
        metavar="SALT.txt",
        help="also commit one salted hash per entrant, so each can check their own line "
        "without the list being published; the secret salt is written to SALT.txt, to "
        "reveal with the draw",
    )
    p.set_defaults(func=_cmd_commit, extra_ok=True)

    p = subparsers.add_parser(
        "draw",
        help="draw a committed draw with the revealed public random value",
        description="Check that IN is the committed list, derive the seed from the "
        "commitment hash and the revealed value(s), run the committed draw and write its "
        "record with the commitment (verify checks the whole chain).",
    )
    p.add_argument("commitment", metavar="COMMITMENT.json")
    p.add_argument(
        "input",
        metavar="IN",
        nargs="?",
        help="the list (default: the file the commitment names, beside the commitment)",
    )
    p.add_argument(
        "--reveal",
        action="append",
        required=True,
        metavar="VALUE",
        help="the revealed value, as published; give one per source, in the order the "
        "beacon text names them",
    )
    p.add_argument("-o", "--output", metavar="OUT", help="where the draw writes, as its -o")
    p.add_argument("--record", required=True, metavar="RECORD.json")
    p.add_argument("--salt", metavar="SALT.txt", help="the salt file commit --entrant-hashes wrote")
    p.add_argument("--as", dest="as_draw", help=argparse.SUPPRESS)  # sample --commitment
    p.set_defaults(func=_cmd_draw)


# what `sample|shuffle|groups --commitment C.json` takes besides, each with a value: the
# draw's other options are the committed ones
_DRAW_OPTIONS = ("--reveal", "-o", "--output", "--record", "--salt")


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
                f"IN, --reveal VALUE, --record RECORD.json, -o OUT and --salt SALT.txt "
                f"(as 'xlshuffle draw {commitment} IN --reveal VALUE')"
            )
    return ["draw", commitment, *rest, "--as", argv[0]]


def _extra(args: argparse.Namespace) -> list[str]:
    from . import UsageError

    extra: list[str] = list(getattr(args, "extra", []) or [])
    for token in extra:
        name = token.partition("=")[0]
        if name in _NOT_COMMITTED:
            raise UsageError(
                f"{name} is not part of a commitment: the seed comes from the revealed "
                "value, and the output and record are named when you run 'xlshuffle draw'"
            )
    return extra


def _cmd_commit(args: argparse.Namespace) -> int:
    from .. import __version__
    from . import UsageError

    options = _extra(args)
    for path in (args.output, args.entrant_hashes):
        if path is not None and os.path.exists(path):
            raise UsageError(f"{path} exists: a commitment never overwrites a file; name another")
    record = dry_record(args.draw, args.input, options, "commitment dry run")
    rows = rows_of(args.input, record)
    header = bool(record["header"])
    body: dict[str, Any] = {
        "commitment_version": COMMITMENT_VERSION,
        "protocol": PROTOCOL,
        "draw": {"command": args.draw, "options": options},
        "list": {
            "file": os.path.basename(args.input),
            "sheet": record["sheet"],
            "selection": record["selection"],
            "header": header,
            "rows": len(rows) - (1 if header else 0),
            "sha256": rows_sha256(rows),
        },
        "beacon": args.beacon,
        "entrants": None,
        "tool_version": __version__,
        "time_utc": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()[:19] + "Z",
    }
    salt = None
    if args.entrant_hashes is not None:
        salt = new_salt()
        body["entrants"] = {"salted_sha256": entrants(rows, header, salt)}
    digest = commitment_sha256(body)
    text = json.dumps({"commitment": body, "sha256": digest}, ensure_ascii=False, indent=2)
    if salt is not None:
        write_atomically(args.entrant_hashes, (salt + "\n").encode("ascii"))
    write_atomically(args.output, escape_undecodable(text + "\n").encode("utf-8"))
    what = " ".join([args.draw, *options])
    print(
        f"{args.output}: commitment to {body['list']['rows']} rows of {args.input} "
        f"({record['selection']}), draw: {what}; seeded by: {args.beacon}"
    )
    print(f"publish this commitment hash now: {digest}")
    if salt is not None:
        print(
            f"{args.entrant_hashes}: the salt of the entrant hashes: keep it secret until the draw"
        )
    return 0


def _read_salt(path: str | None, body: dict[str, Any]) -> str | None:
    from . import UsageError

    if body.get("entrants") is None:
        if path is not None:
            raise UsageError("--salt: this commitment has no entrant hashes")
        return None
    if path is None:
        raise UsageError(
            "this commitment has entrant hashes: give --salt SALT.txt (commit wrote it) so "
            "that the record reveals it and entrants can check their lines"
        )
    with open(path, encoding="ascii", errors="replace") as fh:
        return fh.read().strip()


def _committed_file(path: str, body: dict[str, Any]) -> str:
    """The list the commitment at ``path`` names, beside it (or in the current folder)."""
    from . import UsageError

    name = os.path.basename(str(body["list"]["file"]))
    for folder in (os.path.dirname(path), os.curdir):
        if os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    raise UsageError(
        f"{path} commits to a list in {name}, which is neither beside it nor here: give IN, "
        f"as 'xlshuffle draw {path} PATH/TO/{name} --reveal VALUE ...'"
    )


def _cmd_draw(args: argparse.Namespace) -> int:
    from . import main

    body, digest = load_commitment(args.commitment)
    committed = str(body["draw"]["command"])
    if args.as_draw not in (None, committed):
        raise ListError(
            f"{args.commitment}: commits to a {committed} draw, not a {args.as_draw}: run "
            f"'xlshuffle {committed} --commitment {args.commitment} ...' or 'xlshuffle draw'"
        )
    if args.input is None:
        args.input = _committed_file(args.commitment, body)
    reveal = reveal_values(args.reveal)
    seed = commit_seed(digest, reveal)
    salt = _read_salt(args.salt, body)
    check_list(args.input, body, seed, salt)
    draw = body["draw"]
    folder = os.path.dirname(os.path.abspath(args.record))
    fd, tmp = tempfile.mkstemp(prefix=".xlshuffle-draw-", suffix=".json", dir=folder)
    os.close(fd)
    os.unlink(tmp)
    try:
        argv = [str(draw["command"]), args.input, *draw["options"], "--seed", seed]
        argv += ["-o", args.output] if args.output else []
        code = main([*argv, "--record", tmp])
        if code != 0:
            return code
        with open(tmp, encoding="utf-8") as fh:
            record = json.load(fh)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    record["commitment"] = {"body": body, "sha256": digest, "salt": salt}
    record["reveal"] = reveal
    text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    write_atomically(args.record, escape_undecodable(text).encode("utf-8"))
    print(
        f"{args.record}: committed draw {digest[:16]}... with the revealed value(s) "
        f"{' / '.join(reveal)}: seed {seed}",
        file=sys.stderr,
    )
    return 0
