"""``xlshuffle commit`` and ``xlshuffle draw``: a draw committed before its seed is known.

``commit IN [--draw sample|shuffle|groups] [the draw's options] --beacon TEXT -o C.json``
builds the draw's typed request with the draw's own parser, and
:func:`xlshuffle.filedraw.commitment.commit` writes the commitment (protocol section 17):
the list's digest, the canonical request, every side file pinned, the public randomness
announced. ``draw C.json IN --reveal VALUE --record R.json [-o OUT]`` rebuilds the
committed request (:func:`~xlshuffle.filedraw.commitment.committed_request`) and draws it
through the library with the seed the commitment hash and the revealed values give,
refusing a list or a side file that is not the committed one.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from typing import Any

from ..common.files import escape_undecodable, write_atomically
from ..common.request import SIDE_OPTIONS, DrawRequest, Output
from ..common.targets import check_writable
from ..draw.commit import UNREVEALED_SEED
from ..draw.errors import ListError, OptionError
from ..draw.seed import Seed
from ..filedraw import commitment
from .report import outcome, report
from .request import check_options, draw_of, requests_of

__all__ = ["register"]

# options of the draw that the commitment fixes, or that a committed draw sets itself
_NOT_COMMITTED = (
    "--seed", "-o", "--output", "--record", "--in-place", "--out-dir", "--suffix",
    "--dry-run", "--json", "--overwrite", "--no-backup", "--jobs", "--set-aside-output",
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
        "without the list being published (with --id, also one per ID, so an entrant "
        "checks by their ID alone); the secret salt is written to SALT.txt, to reveal "
        "with the draw",
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
    p.add_argument(
        "--set-aside-output",
        metavar="FILE",
        help="for a committed monetary-unit sample: where its rows set aside go, as "
        "sample's --set-aside-output (an existing FILE is refused)",
    )
    p.add_argument("--record", required=True, metavar="RECORD.json")
    p.add_argument("--salt", metavar="SALT.txt", help="the salt file commit --entrant-hashes wrote")
    for option in SIDE_OPTIONS:
        p.add_argument(
            option,
            metavar="PATH",
            help=f"where the file the commitment pinned for {option} is (default: beside the "
            "commitment, or here); refused unless its SHA-256 is the pinned one",
        )
    p.add_argument(
        "--engine",
        choices=["memory", "duckdb"],
        default="memory",
        help="what reads the list, as sample's --engine: duckdb for a committed ticket draw "
        "on a CSV/TSV list of any size (the draw is the same)",
    )
    p.add_argument("--as", dest="as_draw", help=argparse.SUPPRESS)  # sample --commitment
    p.set_defaults(func=_cmd_draw)


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


def request_of(command: str, src: str, options: list[str]) -> DrawRequest:
    """The request of ``xlshuffle COMMAND SRC OPTIONS...``: the draw's own parser and
    checks, no file drawn."""
    from . import UsageError, build_parser, parse_command

    try:
        args = parse_command(build_parser(), [command, src, *options])
    except UsageError as exc:  # the draw's parser: name the draw's help
        text = str(exc)
        if " (see 'xlshuffle " in text:
            text = (
                f"{text.partition(' (see ')[0]}: the draw's options are those "
                f"'xlshuffle {command}' takes (see 'xlshuffle {command} --help')"
            )
        raise UsageError(text) from None
    if args is None or getattr(args, "commitment", None) is not None:
        raise UsageError(f"{command}: give the draw's options, not another commitment")
    check_options(args)
    options_, side_files = draw_of(args)
    return requests_of(args, [(src, None)], Seed(UNREVEALED_SEED), options_, side_files)[0]


def _cmd_commit(args: argparse.Namespace) -> int:
    from .. import __version__
    from . import UsageError

    options = _extra(args)
    for path in (args.output, args.entrant_hashes):
        if path is not None and os.path.exists(path):
            raise UsageError(f"{path} exists: a commitment never overwrites a file; name another")
    request = request_of(args.draw, args.input, options)
    made, record, salt = commitment.commit(
        request,
        beacon=args.beacon,
        entrant_hashes=args.entrant_hashes is not None,
        tool_version=__version__,
    )
    if salt is not None:
        write_atomically(args.entrant_hashes, (salt + "\n").encode("ascii"))
    write_atomically(args.output, escape_undecodable(made.to_json() + "\n").encode("utf-8"))
    what = " ".join([args.draw, *options])
    print(
        f"{args.output}: commitment to {made.body['list']['rows']} rows of {args.input} "
        f"({record['selection']}), draw: {what}; seeded by: {args.beacon}"
    )
    for pin in made.body["inputs"]:
        print(f"  {pin['option']} {pin['file']}: pinned (SHA-256 {pin['sha256'][:16]}...)")
    print(f"publish this commitment hash now: {made.sha256}")
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
    from . import UsageError

    made = commitment.load_commitment(args.commitment)
    if args.as_draw not in (None, made.command):
        raise ListError(
            f"{args.commitment}: commits to a {made.command} draw, not a {args.as_draw}: run "
            f"'xlshuffle {made.command} --commitment {args.commitment} ...' or 'xlshuffle draw'"
        )
    src = args.input if args.input is not None else _committed_file(args.commitment, made.body)
    salt = _read_salt(args.salt, made.body)
    unpinned = made.unpinned()
    if unpinned:
        print(
            f"xlshuffle: {args.commitment} is a commitment of version 1, which did not pin the "
            f"files its options name ({', '.join(unpinned)}): they are read as they are now",
            file=sys.stderr,
        )
    given = {o: getattr(args, o[2:].replace("-", "_")) for o in SIDE_OPTIONS}
    located: dict[str, str] = {o: path for o, path in given.items() if path is not None}
    request = commitment.committed_request(made, args.commitment, src, located)
    aside = args.set_aside_output
    if aside is not None:
        if os.path.isfile(aside):
            raise UsageError(
                f"--set-aside-output {aside} exists already, maybe from an earlier draw: "
                "nothing was drawn; move it away or choose another name"
            )
        try:
            check_writable(aside)
        except OptionError as exc:
            raise UsageError(f"--set-aside-output {exc}") from None
    request = request.replace(output=Output(path=args.output, set_aside=aside), engine=args.engine)
    out = io.BytesIO()
    result = commitment.draw(request, made, args.reveal, salt=salt, out=out)
    record = result.record
    shown = argparse.Namespace(command=made.command, json=False, dry_run=False, in_place=False)
    report(shown, [request], [outcome(request, result, out)])
    text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    write_atomically(args.record, escape_undecodable(text).encode("utf-8"))
    print(
        f"{args.record}: committed draw {made.sha256[:16]}... with the revealed value(s) "
        f"{' / '.join(record['reveal'])}: seed {record['seed']}",
        file=sys.stderr,
    )
    return 0
