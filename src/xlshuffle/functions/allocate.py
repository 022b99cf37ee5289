"""ALLOCATE: a permuted-block allocation list for a trial, as a worksheet function.

A worksheet function as plain Python, like those of :mod:`xlshuffle.functions` (which
exports it): every argument positional, checked here and by
:mod:`xlshuffle.functions.arguments`, a mistake raised as an
:class:`~xlshuffle.XlshuffleError`. The list is
:func:`xlshuffle.draw.allocate.allocation_list` (protocol section 15), so
``xlshuffle allocate --arms A,B --ratio 2:1 --n 6 --block-sizes 3,6 --seed trial`` writes
the same rows (a seed cell of 42 is the command line's ``--seed 42``). With ``strata``
(``"site=North,South;sex=F,M"``, or a range with one stratum per row) the rows are those
of ``--strata site=North,South --strata sex=F,M``: Seq, one column per stratum, Block,
BlockSize and Arm.

>>> rows = ALLOCATE([["A"], ["B"]], 6, "trial", "2:1", "3,6")
>>> rows[:4]
[[1, 1, 3, 'A'], [2, 1, 3, 'A'], [3, 1, 3, 'B'], [4, 2, 6, 'A']]
>>> "".join(row[3] for row in rows), len(rows)
('AABABAAAB', 9)
>>> ALLOCATE("A,B", 2, "trial", None, 2, "site=N,S")
[[1, 'N', 1, 2, 'B'], [2, 'N', 1, 2, 'A'], [1, 'S', 1, 2, 'A'], [2, 'S', 1, 2, 'B']]
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..draw.allocate import MAX_ROWS, AllocationRow, allocation_list, stratum_combinations
from ..draw.errors import OptionError
from ..draw.raffle import canonical_id
from . import arguments

__all__ = ["ALLOCATE", "allocation"]


def _parts(name: str, value: Any, sep: str, *, numbers: bool = True) -> list[Any]:
    """A list from a range (one value per cell, empty cells skipped) or from one text cell
    of values separated by ``sep`` (``"2:1"``, ``"3,6"``, ``"A,B"``); with ``numbers``,
    whole numbers (``2.0`` and ``"2"`` are 2), else the cells as they are."""
    cells = [c for c in arguments.listed(name, value) if not (c is None or c == "")]
    if not cells:
        raise OptionError(f"{name} has only empty cells: fill it, or leave it out")
    if len(cells) == 1 and isinstance(cells[0], str) and sep in cells[0]:
        cells = [part.strip() for part in cells[0].split(sep)]
        if not all(cells):
            raise OptionError(f"{name} has an empty item: separate the items with '{sep}'")
    return [_whole(name, c) for c in cells] if numbers else cells


def _whole(name: str, cell: Any) -> int:
    """One whole number of ``name``, from a number cell or a text such as ``"2"``."""
    if isinstance(cell, str) and cell.strip().isdecimal():
        return int(cell.strip())
    if isinstance(cell, int) and not isinstance(cell, bool):
        return cell
    if isinstance(cell, float) and cell.is_integer():
        return int(cell)
    raise OptionError(f"{name} must hold whole numbers, not {arguments.show(cell)}")


def ALLOCATE(
    arms: Any,
    n: Any,
    seed: Any = None,
    ratio: Any = None,
    block_sizes: Any = None,
    strata: Any = None,
) -> list[Any]:
    """Returns a permuted-block allocation list: Seq, the strata, Block, BlockSize and Arm."""
    _, rows = allocation(arms, n, seed, ratio, block_sizes, strata)
    return [[r.seq, *r.strata, r.block, r.block_size, r.arm] for r in rows]


def allocation(
    arms: Any, n: Any, seed: Any, ratio: Any, block_sizes: Any, strata: Any
) -> tuple[dict[str, Any], list[AllocationRow]]:
    """ALLOCATE's options as the command line takes them (``arms``, ``ratio``, ``n``,
    ``block_sizes`` and ``strata``, canonical texts and whole numbers) and its rows (with
    their codes), or an :class:`~xlshuffle.XlshuffleError` naming the argument: what the
    worksheet function and the locked *write allocation list* both write."""
    names = _parts("arms", arms, ",", numbers=False)
    count = arguments.count("n", n, most=MAX_ROWS)
    parts = None if ratio is None else _parts("ratio", ratio, ":")
    if block_sizes is None:
        given = [1] * len(names) if parts is None else parts
        unit = sum(given) // (math.gcd(*given) or 1)
        sizes: list[Any] = [2 * unit, 4 * unit]
    else:
        sizes = _parts("block_sizes", block_sizes, ",")
    factors = None if strata is None else _strata(strata)
    rows = allocation_list(
        names, ratio=parts, n=count, block_sizes=sizes, seed=arguments.seed(seed), strata=factors
    )
    heads, combos = stratum_combinations(factors)
    options = {
        "arms": [canonical_id(a) for a in names],
        "ratio": [1] * len(names) if parts is None else parts,
        "n": count,
        "block_sizes": sizes,
        "strata": [[h, list(dict.fromkeys(c[i] for c in combos))] for i, h in enumerate(heads)],
    }
    return options, rows


_EXAMPLE = 'write them as "site=North,South;sex=F,M"'


def _strata(value: Any) -> list[tuple[str, list[Any]]]:
    """The stratum factors of ``strata``: texts ``NAME=V1,V2`` (several in a cell separated
    by ``;`` or line breaks), or a range with a factor per row, its name in the first cell
    and its values in the others (one cell of values separated by ``,`` is split)."""
    arguments.listed("strata", value)  # an error cell, by its position
    grid = arguments.rows("strata", value, values=True)
    filled = [[c for c in row if not (c is None or c == "")] for row in grid]
    if any(isinstance(c, str) and "=" in c for row in filled for c in row):
        factors = [f for row in filled for c in row for f in _specs(c)]
    else:
        factors = [_factor(row) for row in filled if row]
    names = [str(name).strip() for name, _ in factors]
    for i, name in enumerate(names):
        if name in names[:i] or "|" in name:
            why = (
                "is given twice: give each stratum once"
                if "|" not in name
                else ("holds '|': rename it without '|' (and '=')")
            )
            raise OptionError(f"strata: the stratum {name!r} {why}")
    try:
        stratum_combinations(factors)
    except OptionError as exc:
        raise OptionError(f"strata: {exc}") from None
    return factors


def _specs(cell: Any) -> list[tuple[str, list[Any]]]:
    if not isinstance(cell, str):
        raise OptionError(f"strata: {arguments.show(cell)} is not NAME=V1,V2: {_EXAMPLE}")
    out = []
    for spec in (s.strip() for s in re.split(r"[;\n]", cell)):
        name, eq, values = spec.partition("=")
        if spec and (not eq or not name.strip() or not values.strip()):
            raise OptionError(f"strata: {arguments.show(spec)} is not NAME=V1,V2: {_EXAMPLE}")
        if spec:
            out.append((name.strip(), _values(name.strip(), [values])))
    return out


def _factor(row: list[Any]) -> tuple[str, list[Any]]:
    name, *values = ("TRUE" if c is True else "FALSE" if c is False else c for c in row)
    if not values:
        raise OptionError(
            f"strata: the stratum {arguments.show(name)} has no values: put them in the cells "
            f"right of its name, or {_EXAMPLE}"
        )
    return name, _values(name, values)


def _values(name: Any, values: list[Any]) -> list[Any]:
    if len(values) == 1 and isinstance(values[0], str):
        values = [v.strip() for v in values[0].split(",")]
        if not all(values):
            raise OptionError(
                f"strata: stratum {arguments.show(name)} has an empty value: separate its "
                "values with ',', as in site=North,South"
            )
    return values
