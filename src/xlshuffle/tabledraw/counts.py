"""Options a draw is asked for, checked the same way for workbooks and lists: the number
of groups (``-k`` or ``--size``), ``-k`` past the data rows, and a group column's label
that the header holds already."""

from __future__ import annotations

from ..draw.errors import OptionError, SizeError
from ..draw.knuth import check_count

__all__ = ["group_count", "refuse_taken_label", "too_many"]


def group_count(k: object, size: object, n: int) -> int:
    """The number of groups of a draw of ``n`` rows: ``k``, or for groups of at most
    ``size`` rows ``ceil(n / size)`` (at least 1), so sizes differ by at most one."""
    if (k is None) == (size is None):
        raise OptionError("give the number of groups (-k, k=) or their size (--size, size=)")
    if size is not None:
        most = check_count("--size", size)
        if most < 1:
            raise SizeError("--size must be 1 or more (rows in each group)")
        return max(1, -(-n // most))
    count = check_count("k", k)
    if count < 1:
        raise SizeError("-k must be at least 1 group")
    return count


def too_many(path: str, k: int, n: int, what: str) -> str:
    """The one message for ``-k`` past the data rows, for workbooks and lists alike."""
    rows = f"{n} data row{'s' if n != 1 else ''}"
    return f"{path}: -k {k} is more than the {rows} to {what}: ask for at most {n}"


def refuse_taken_label(path: str, header: list[tuple[str, str]], label: str) -> None:
    """Refuse a group column headed ``label`` when a ``header`` cell (``(where, text)``,
    as ``("cell C1", "Group")``) holds it already, trimmed and in any case: the column of
    an earlier run. The message names the cell and a label that is free."""
    taken = {text.strip().casefold() for _, text in header}
    want = label.strip()
    for where, text in header:
        if text.strip().casefold() == want.casefold():
            free = next(
                f"{want} {n}"
                for n in range(2, len(taken) + 3)
                if f"{want} {n}".casefold() not in taken
            )
            raise OptionError(
                f"{path}: {where} of the header row already holds {text.strip()!r} (a "
                f'groups column of an earlier run?): name the new one with --label "{free}"'
            )
