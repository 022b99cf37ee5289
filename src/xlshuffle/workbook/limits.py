"""Limits that keep time and memory bounded whatever a file claims.

Each limit is checked against what a file really holds (inflated bytes, parsed rows), never
against what it declares. A file past a limit is refused with one line naming the limit; a
caller who trusts the file can raise it with :func:`raised`.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["LIMITS", "Limits", "raised"]


@dataclass
class Limits:
    """The limits in force. Sizes are bytes after inflating."""

    #: The input file itself.
    max_file_bytes: int = 2 * 1024**3
    #: One XML part read whole (workbook, relationships, styles, comments...).
    max_part_bytes: int = 256 * 1024**2
    #: The drawn sheet's XML (held in memory while its rows are moved).
    max_sheet_bytes: int = 2 * 1024**3
    #: Shared strings part (read only by ``sample`` and ``verify``).
    max_strings_bytes: int = 1024**3
    #: A part that inflates more than this many times its compressed size, past 64 MB.
    max_ratio: int = 1000
    #: Merged ranges, hyperlinks, comments... listed by the drawn sheet.
    max_anchors: int = 1_000_000
    #: Cells drawn one by one (modes cells, within-rows, within-columns).
    max_cell_draws: int = 20_000_000


#: The limits used by every call; change them with :func:`raised`.
LIMITS = Limits()


@contextlib.contextmanager
def raised(**changes: int) -> Iterator[Limits]:
    """Temporarily change limits, e.g. ``with raised(max_sheet_bytes=8 * 1024**3): ...``."""
    saved = dataclasses.asdict(LIMITS)
    unknown = sorted(set(changes) - set(saved))
    if unknown:
        raise TypeError(f"unknown limit {unknown[0]!r}: the limits are {', '.join(saved)}")
    for name, value in changes.items():
        setattr(LIMITS, name, value)
    try:
        yield LIMITS
    finally:
        for name, value in saved.items():
            setattr(LIMITS, name, value)
