"""``xlshuffle extension``: xlshuffle's functions packaged for another spreadsheet program,
one file to install there. Each kind is a row of ``_KINDS``: its help and what it writes."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..common.files import write_atomically
from . import UsageError

__all__ = ["register"]


def _sheets() -> str:
    from ..sheets import script

    return script()


def _sheets_manifest() -> str:
    from ..sheets import manifest

    return manifest()


#: kind -> (help, the file's text, its manifest's text or None)
_KINDS: dict[str, tuple[str, Callable[[], str], Callable[[], str] | None]] = {
    "sheets": (
        "Google Sheets: one Apps Script file of custom functions and a draw-and-lock menu "
        "(docs/sheets.md)",
        _sheets,
        _sheets_manifest,
    ),
}


def register(sub: Any) -> None:
    """Add ``extension`` to the ``xlshuffle`` parser."""
    p = sub.add_parser(
        "extension",
        help="write xlshuffle's functions for another spreadsheet program",
        description="Write the file that installs xlshuffle's worksheet functions in another "
        "spreadsheet program: " + "; ".join(f"{k}: {v[0]}" for k, v in _KINDS.items()) + ".",
    )
    p.add_argument("kind", choices=sorted(_KINDS), help="the program")
    p.add_argument("-o", "--output", required=True, help="the file to write (e.g. xlshuffle.gs)")
    p.add_argument(
        "--manifest",
        metavar="FILE",
        help="also write the program's manifest (sheets: appsscript.json, optional)",
    )
    p.set_defaults(func=_cmd_extension)


def _cmd_extension(args: argparse.Namespace) -> int:
    _, text, manifest = _KINDS[args.kind]
    if args.manifest and manifest is None:
        raise UsageError(f"{args.kind} has no manifest: leave out --manifest")
    write_atomically(args.output, text().encode("utf-8"))
    print(f"wrote {args.output}")
    if args.manifest and manifest is not None:
        write_atomically(args.manifest, manifest().encode("utf-8"))
        print(f"wrote {args.manifest}")
    return 0
