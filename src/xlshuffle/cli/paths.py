"""The files of a batch run: the inputs its patterns name, and the output of each."""

from __future__ import annotations

import argparse
import glob
import os
import re

from ..common.filekinds import LIST_EXTENSIONS, WORKBOOK_EXTENSIONS

__all__ = ["DEFAULT_SUFFIX", "PathUsageError", "destination", "expand"]

_EXTENSIONS = WORKBOOK_EXTENSIONS + LIST_EXTENSIONS
_BACKUP = re.compile(r"\.bak(?:-\d+)?\.[^.]+$", re.IGNORECASE)  # NAME.bak.xlsx, NAME.bak-2.csv
DEFAULT_SUFFIX = {"shuffle": ".shuffled", "groups": ".groups", "sample": ".sample"}


class PathUsageError(Exception):
    """Raised inside a handler for a command line that cannot work (exit code 2)."""


def expand(patterns: list[str], skip_suffix: str) -> list[str]:
    """Files, folders (their workbooks) and glob patterns -> paths, in a stable order."""
    out: list[str] = []
    for pattern in patterns:
        if os.path.isdir(pattern):
            found = sorted(
                os.path.join(pattern, name)
                for name in os.listdir(pattern)
                if name.lower().endswith(_EXTENSIONS)
                and not name.startswith(("~$", ".~"))
                and not _BACKUP.search(name)
                and not os.path.splitext(name)[0].endswith(skip_suffix)
            )
            if not found:
                kinds = ", ".join(_EXTENSIONS)
                raise PathUsageError(f"{pattern}: the folder holds no workbook or list ({kinds})")
            out.extend(found)
        elif not os.path.exists(pattern) and glob.has_magic(pattern):
            matched = sorted(glob.glob(pattern))
            if not matched:
                raise PathUsageError(f"{pattern}: no file matches this pattern")
            out.extend(matched)
        else:
            out.append(pattern)
    seen: set[str] = set()
    return [p for p in out if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]


def destination(args: argparse.Namespace, path: str, many: bool) -> str | None:
    if args.in_place:
        return None
    if args.output is not None:
        if many:
            raise PathUsageError("-o takes one input: use --out-dir or --suffix for several")
        return None if args.output == "-" else str(args.output)
    stem, ext = os.path.splitext(os.path.basename(path))
    if args.command == "sample" and args.suffix is None and args.out_dir is None:
        if many and not args.json:  # --json: each file's winners in its own JSON line
            raise PathUsageError(
                "sample prints CSV for one input: use --out-dir or --suffix for several "
                "(or --json: one JSON document per file, a line each)"
            )
        return None
    if args.out_dir is not None:
        return os.path.join(args.out_dir, stem + ext)
    suffix = args.suffix if args.suffix is not None else DEFAULT_SUFFIX[args.command]
    return os.path.join(os.path.dirname(path), stem + suffix + ext)
