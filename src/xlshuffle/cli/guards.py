"""Refusals a batch run makes before anything is drawn: files that are evidence of an
earlier draw."""

from __future__ import annotations

import argparse
import errno
import os

from ..common.request import DrawRequest

__all__ = ["refuse_overwrite"]


def refuse_overwrite(args: argparse.Namespace, requests: list[DrawRequest]) -> None:
    """Refuse, before anything is drawn, to replace a record or a default output: they
    are evidence of an earlier draw. A file named with ``-o`` is replaced as asked."""
    found = []
    if args.record and _is_file(args.record):
        found.append((args.record, "--record file"))
    aside = getattr(args, "set_aside_output", None)
    if aside and _is_file(aside):
        found.append((aside, "--set-aside-output file"))
    if args.output is None and not args.in_place:
        found += [
            (r.output.path, "output") for r in requests if r.output.path and _is_file(r.output.path)
        ]
    if found:
        path, what = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise FileExistsError(
            errno.EEXIST,
            f"the {what} exists already{more}, maybe from an earlier draw: nothing was "
            "drawn; move it away, choose another name, or add --overwrite to replace it",
            path,
        )


def _is_file(path: str) -> bool:
    """Whether ``path`` is a regular file (through links): FIFOs and devices such as
    ``/dev/null`` hold no evidence."""
    return os.path.isfile(path)
