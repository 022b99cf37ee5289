"""``--keep-blank-rows``: blank rows inside the data stay where they are.

The draw is over the ``m`` other data rows, by the same protocol (``permutation(m)``);
the record's ``permutation`` spreads it over all ``n`` data rows, a blank row's entry
being its own index, and ``target["kept"]`` lists the blank rows (``["7", "12-13"]``,
row numbers), so that ``verify`` replays ``permutation(m)`` and spreads it the same way.
A list without blank rows draws exactly as without the option. Blank rows are held as
runs ``(first, last)`` of row numbers: a million of them cost a few C-level extends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..scan.sheet import SheetXml

__all__ = ["blank_runs_in", "free_indexes", "kept_runs", "parse_kept", "spread"]

Runs = list[tuple[int, int]]


def blank_runs_in(sx: SheetXml, top: int, bottom: int, cols: Sequence[int]) -> Runs:
    """Runs of rows ``top..bottom`` without a value in ``cols`` (rows not stored too)."""
    wanted, out = set(cols), list[tuple[int, int]]()

    def add(a: int, b: int) -> None:
        if out and out[-1][1] == a - 1:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))

    expect = top
    for i in range(sx.index_of(top), sx.index_of(bottom + 1)):
        number = sx.numbers[i]
        if number > expect:
            add(expect, number - 1)
        expect = number + 1
        if not any(c.valued and c.col in wanted for c in sx.cells(i)):
            add(number, number)
    if expect <= bottom:
        add(expect, bottom)
    return out


def kept_runs(runs: Runs) -> list[str]:
    """Runs as the record writes them: ``[(7, 7), (12, 13)]`` -> ``["7", "12-13"]``."""
    return [str(a) if a == b else f"{a}-{b}" for a, b in runs]


def parse_kept(target: dict[str, Any], body_top: int, n: int) -> Runs:
    """``target["kept"]`` as runs, checked to lie inside the ``n`` data rows from row
    ``body_top``, ascending; a ValueError otherwise."""
    out: Runs = []
    for run in target.get("kept") or []:
        first, _, last = str(run).partition("-")
        a, b = int(first), int(last or first)
        if not body_top <= a <= b < body_top + n or (out and a <= out[-1][1]):
            raise ValueError(f"kept rows {run} are not inside the data rows, in order")
        out.append((a, b))
    return out


def free_indexes(n: int, runs: Runs, body_top: int) -> list[int]:
    """The data-row indexes (0-based, from row ``body_top``) outside ``runs``."""
    free: list[int] = []
    at = 0
    for a, b in runs:
        free.extend(range(at, a - body_top))
        at = b - body_top + 1
    free.extend(range(at, n))
    return free


def spread(perm: Sequence[int], n: int, free: Sequence[int]) -> list[int]:
    """A permutation of the ``m`` free rows as one of all ``n`` data rows, the others in
    place: ``spread([1, 0], 3, [0, 2]) == [2, 1, 0]``."""
    full = list(range(n))
    for p, s in enumerate(perm):
        full[free[p]] = free[s]
    return full
