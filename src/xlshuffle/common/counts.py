"""Counts a draw is asked for, checked the same way for workbooks and lists: the number
of groups (``-k`` or ``--size``) and ``-k`` past the data rows."""

from __future__ import annotations

from ..draw.errors import OptionError, SizeError
from ..draw.knuth import _check_count

__all__ = ["group_count", "too_many"]


def group_count(k: object, size: object, n: int) -> int:
    """The number of groups of a draw of ``n`` rows: ``k``, or for groups of at most
    ``size`` rows ``ceil(n / size)`` (at least 1), so sizes differ by at most one."""
    if (k is None) == (size is None):
        raise OptionError("give the number of groups (-k, k=) or their size (--size, size=)")
    if size is not None:
        most = _check_count("--size", size)
        if most < 1:
            raise SizeError("--size must be 1 or more (rows in each group)")
        return max(1, -(-n // most))
    count = _check_count("k", k)
    if count < 1:
        raise SizeError("-k must be at least 1 group")
    return count


def too_many(path: str, k: int, n: int, what: str) -> str:
    """The one message for ``-k`` past the data rows, for workbooks and lists alike."""
    rows = f"{n} data row{'s' if n != 1 else ''}"
    return f"{path}: -k {k} is more than the {rows} to {what}: ask for at most {n}"
