"""Options shared by the workbook subcommands: the limits (``--max-mb``, ``--max-cells``,
``--max-ranges``, ``--max-ratio``), each raising one documented limit of
:class:`xlshuffle.workbook.limits.Limits` for a genuine workbook that needs it."""

from __future__ import annotations

import argparse

__all__ = ["add_limits", "limits_of"]


def add_limits(p: argparse.ArgumentParser, *, moves: bool = True) -> None:
    """Add the limit options to a subcommand (``--max-cells`` and ``--max-ranges`` only
    where cells move: ``shuffle`` and ``restore``)."""
    p.add_argument(
        "--max-mb",
        type=int,
        metavar="MB",
        help="raise the size limits (file, sheet XML, parts; default 2048 MB for files and "
        "sheets, 256 MB for other parts) for a genuine workbook that needs it",
    )
    if moves:
        _add_move_limits(p)
    p.add_argument(
        "--max-ratio",
        type=int,
        metavar="N",
        help="raise the zip-bomb limit: how "
        "many times a part over 64 MB may inflate (default 1,000)",
    )


def _add_move_limits(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-cells",
        type=int,
        metavar="N",
        help="raise the limit on cells drawn "
        "one by one (--by cells, within-rows, within-columns; default 20,000,000)",
    )
    p.add_argument(
        "--max-ranges",
        type=int,
        metavar="N",
        help="raise the limit on merged "
        "ranges, links and comments a sheet lists (default 1,000,000)",
    )


def limits_of(args: argparse.Namespace) -> dict[str, int]:
    """The limits ``--max-mb`` asks for, as keyword arguments of
    :func:`xlshuffle.workbook.raised` (none when it is not given)."""
    from . import UsageError

    out: dict[str, int] = {}
    for option, key in (
        ("max_cells", "max_cell_draws"),
        ("max_ranges", "max_anchors"),
        ("max_ratio", "max_ratio"),
        ("max_mb", ""),
    ):
        value = getattr(args, option, None)
        if value is None:
            continue
        if value < 1:
            raise UsageError(f"--{option.replace('_', '-')} must be 1 or more")
        if key:
            out[key] = value
        else:
            size = value * 1024**2
            out |= dict.fromkeys(
                ("max_file_bytes", "max_sheet_bytes", "max_part_bytes", "max_strings_bytes"),
                size,
            )
    return out
