"""Options shared by the workbook subcommands: the size limits (``--max-mb``)."""

from __future__ import annotations

import argparse

__all__ = ["add_limits", "limits_of"]


def add_limits(p: argparse.ArgumentParser) -> None:
    """Add ``--max-mb`` to a subcommand."""
    p.add_argument(
        "--max-mb",
        type=int,
        metavar="MB",
        help="raise the size limits (file, sheet XML, parts; default 2048 MB for files and "
        "sheets, 256 MB for other parts) for a genuine workbook that needs it",
    )


def limits_of(args: argparse.Namespace) -> dict[str, int]:
    """The limits ``--max-mb`` asks for, as keyword arguments of
    :func:`xlshuffle.workbook.raised` (none when it is not given)."""
    if args.max_mb is None:
        return {}
    if args.max_mb < 1:
        from . import UsageError

        raise UsageError("--max-mb must be 1 or more")
    size = args.max_mb * 1024**2
    return {
        "max_file_bytes": size,
        "max_sheet_bytes": size,
        "max_part_bytes": size,
        "max_strings_bytes": size,
    }
