"""Grids (lists of rows): shuffle whole rows, whole columns, all cells, or within each line.

Vocabulary follows numpy: *shuffle* moves whole rows or columns and keeps each one
intact; *within* ("permuted" in numpy) shuffles inside each row or column independently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from .errors import OptionError, ShapeError
from .knuth import permutation, shuffled
from .protocol import resolve_source

__all__ = ["GRID_MODES", "Mode", "parse_mode", "shuffle_grid"]

T = TypeVar("T")

#: What moves in a grid draw: one of :data:`GRID_MODES`.
Mode = Literal["rows", "columns", "cells", "within-rows", "within-columns"]

#: The grid modes, in their canonical spelling.
GRID_MODES: tuple[Mode, ...] = ("rows", "columns", "cells", "within-rows", "within-columns")

_ALIASES = {
    "row": "rows",
    "column": "columns",
    "cols": "columns",
    "col": "columns",
    "cell": "cells",
    "within-row": "within-rows",
    "within-column": "within-columns",
    "within-cols": "within-columns",
}


def parse_mode(by: object) -> Mode:
    """Return the canonical grid mode for a forgiving spelling of it.

    Case, spaces, underscores and hyphens do not matter: ``"Within Rows"``,
    ``"within_rows"`` and ``"within-rows"`` all mean ``"within-rows"``.

    Raises
    ------
    OptionError
        If ``by`` names no mode; the message lists the modes.

    Examples
    --------
    >>> parse_mode(" Within Columns "), parse_mode("ROWS")
    ('within-columns', 'rows')
    """
    if not isinstance(by, str):
        raise OptionError(f"by must be one of {', '.join(GRID_MODES)}, not {by!r}")
    key = "-".join(by.strip().lower().replace("_", " ").replace("-", " ").split())
    key = _ALIASES.get(key, key)
    if key not in GRID_MODES:
        raise OptionError(f"unknown mode {by!r}: use one of {', '.join(GRID_MODES)}")
    return key


def _check_rectangular(rows: Sequence[Sequence[T]]) -> int:
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ShapeError(
                f"row {r + 1} has {len(row)} cells but row 1 has {width}: "
                "every row must have the same number of cells (pad short rows with None)"
            )
    return width


def shuffle_grid(
    rows: Sequence[Sequence[T]],
    *,
    by: str = "rows",
    header: bool = False,
    seed: object = None,
) -> list[list[T]]:
    """Return a shuffled copy of a rectangular grid given as a list of rows.

    Parameters
    ----------
    rows : sequence of sequences
        The grid, one inner sequence per row; every row must have the same length.
    by : {"rows", "columns", "cells", "within-rows", "within-columns"}, optional
        What moves (spelling is forgiving, see :func:`parse_mode`):

        - ``"rows"`` (default): whole rows move, each row stays together.
        - ``"columns"``: whole columns move, each column stays together.
        - ``"cells"``: every cell may go anywhere; the shape is kept.
        - ``"within-rows"``: each row is shuffled on its own, rows stay in place.
        - ``"within-columns"``: each column is shuffled on its own.
    header : bool, optional
        Keep the first row as labels: it never mixes with the data. In ``"columns"``
        mode the labels travel with their columns; in every other mode the first row
        stays exactly where it is.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol. Modes that need several permutations take them from
        the one stream in order: ``"within-rows"`` row after row from the top,
        ``"within-columns"`` column after column from the left.

    Returns
    -------
    list of lists

    Raises
    ------
    ShapeError
        If the rows differ in length.
    OptionError
        If ``by`` names no mode.

    Examples
    --------
    >>> grid = [[1, "a"], [2, "b"], [3, "c"], [4, "d"]]
    >>> shuffle_grid(grid, seed=42)
    [[1, 'a'], [4, 'd'], [2, 'b'], [3, 'c']]
    >>> shuffle_grid(grid, by="within-columns", seed=42)
    [[1, 'd'], [4, 'a'], [2, 'c'], [3, 'b']]
    """
    mode = parse_mode(by)
    if not rows:
        return []
    width = _check_rectangular(rows)
    head = [list(rows[0])] if header else []
    body = rows[1:] if header else rows
    source = resolve_source(seed)

    if mode == "rows":
        return head + [list(r) for r in shuffled(body, seed=source)]
    if mode == "columns":
        order = permutation(width, seed=source)
        return [[row[c] for c in order] for row in rows]
    if mode == "cells":
        flat = shuffled([cell for row in body for cell in row], seed=source)
        return head + [flat[r * width : (r + 1) * width] for r in range(len(body))]
    if mode == "within-rows":
        return head + [shuffled(row, seed=source) for row in body]
    # within-columns: one permutation per column, left to right
    columns = [shuffled([row[c] for row in body], seed=source) for c in range(width)]
    return head + [[columns[c][r] for c in range(width)] for r in range(len(body))]
