"""``xlshuffle extension``: the spreadsheet extensions, built from this installation.

``xlshuffle extension calc -o xlshuffle.oxt`` writes LibreOffice Calc's extension (the
worksheet functions as a UNO add-in: :func:`xlshuffle.calc.build.build_calc`);
``xlshuffle extension sheets -o xlshuffle.gs`` writes Google Sheets' Apps Script file (the
worksheet functions and a draw-and-lock menu: :func:`xlshuffle.sheets.script`), and
``xlshuffle extension sheets-manifest -o appsscript.json`` its optional manifest. Each kind
of extension is one row of :data:`BUILDERS`: its subcommand, what it writes, the file name it
suggests and the function that writes it; adding one is adding a row.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["BUILDERS", "Builder", "register"]


@dataclass(frozen=True)
class Builder:
    """One kind of extension: ``build(output)`` writes it and returns what it holds."""

    name: str
    help: str
    suffix: str
    build: Callable[[str], list[str]]


def _calc(output: str) -> list[str]:
    from ..calc.build import build_calc

    return build_calc(output)


def _sheets(output: str) -> list[str]:
    from ..sheets import write_script

    return write_script(output)


def _sheets_manifest(output: str) -> list[str]:
    from ..sheets import write_manifest

    return write_manifest(output)


#: The extensions, by subcommand.
BUILDERS = (
    Builder(
        "calc",
        "LibreOffice Calc's extension (.oxt): the worksheet functions as a UNO add-in "
        "(needs the LibreOffice SDK's unoidl-write: apt-get install libreoffice-dev)",
        ".oxt",
        _calc,
    ),
    Builder(
        "sheets",
        "Google Sheets' Apps Script file (.gs): the worksheet functions and a draw-and-lock "
        "menu, to paste into Extensions > Apps Script (docs/sheets.md)",
        ".gs",
        _sheets,
    ),
    Builder(
        "sheets-manifest",
        "the Apps Script manifest (appsscript.json) for the .gs file, optional: the V8 "
        "runtime, the scopes of the menu, the script's time zone",
        ".json",
        _sheets_manifest,
    ),
)


def register(subparsers: Any) -> None:
    """Add ``extension`` and a subcommand per :data:`BUILDERS` row to the parser."""
    p = subparsers.add_parser(
        "extension",
        help="write a spreadsheet's extension holding the worksheet functions",
        description="Write the extension that gives a spreadsheet xlshuffle's worksheet "
        "functions, built from this installation: the same functions, the same results for "
        "the same seed as Excel and the command line.",
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    for b in BUILDERS:
        k = kinds.add_parser(b.name, help=b.help, description=b.help)
        k.add_argument(
            "-o", "--output", required=True, metavar="FILE", help=f"the file to write ({b.suffix})"
        )
        k.set_defaults(func=_run, builder=b)


def _run(args: argparse.Namespace) -> int:
    builder: Builder = args.builder
    entries = builder.build(args.output)
    print(f"wrote {args.output}: {len(entries)} files", file=sys.stderr)
    return 0
