"""``--keep-blank-rows``: blank rows inside the data stay where they are.

The draw is over the ``m`` other data rows, by the same protocol (``permutation(m)``);
the record's ``permutation`` spreads it over all ``n`` data rows, a blank row's entry
being its own index, and ``target["kept"]`` lists the blank rows (``["7", "12-13"]``,
row numbers), so that ``verify`` replays ``permutation(m)`` and spreads it the same way.
A list without blank rows draws exactly as without the option.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .sheet import SheetXml

__all__ = ["blank_rows", "free_indexes", "kept_indexes", "kept_runs", "spread"]


def blank_rows(sx: SheetXml, top: int, bottom: int, cols: Sequence[int]) -> list[int]:
    """Row numbers ``top..bottom`` without a value in ``cols`` (rows not stored too)."""
    wanted, out = set(cols), list[int]()
    expect = top
    for i in range(sx.index_of(top), sx.index_of(bottom + 1)):
        number = sx.numbers[i]
        out.extend(range(expect, number))
        expect = number + 1
        if not any(c.valued and c.col in wanted for c in sx.cells(i)):
            out.append(number)
    out.extend(range(expect, bottom + 1))
    return out


def kept_runs(numbers: Sequence[int]) -> list[str]:
    """Ascending row numbers as runs: ``[7, 12, 13]`` -> ``["7", "12-13"]``."""
    runs: list[list[int]] = []
    for r in numbers:
        if runs and runs[-1][1] == r - 1:
            runs[-1][1] = r
        else:
            runs.append([r, r])
    return [str(a) if a == b else f"{a}-{b}" for a, b in runs]


def kept_indexes(target: dict[str, Any], body_top: int, n: int) -> list[int]:
    """The data-row indexes (0-based) of ``target["kept"]``, for a body starting at row
    ``body_top`` with ``n`` rows; a ValueError for runs that do not fit."""
    out: list[int] = []
    for run in target.get("kept") or []:
        first, _, last = str(run).partition("-")
        a, b = int(first) - body_top, int(last or first) - body_top
        if not 0 <= a <= b < n or (out and a <= out[-1]):
            raise ValueError(f"kept rows {run} are not inside the data rows, in order")
        out.extend(range(a, b + 1))
    return out


def free_indexes(n: int, kept: Sequence[int]) -> list[int]:
    """The data-row indexes that are not kept, ascending."""
    skip = set(kept)
    return [i for i in range(n) if i not in skip]


def spread(perm: Sequence[int], n: int, kept: Sequence[int]) -> list[int]:
    """A permutation of the ``m`` free rows as one of all ``n`` data rows, kept rows in
    place: ``spread([1, 0], 3, [1]) == [2, 1, 0]``."""
    free = free_indexes(n, kept)
    full = list(range(n))
    for p, s in enumerate(perm):
        full[free[p]] = free[s]
    return full
