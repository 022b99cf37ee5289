"""Balanced teams on a range of cells: the columns ``balance`` names, and the team numbers.

``GROUPS`` with ``balance`` and the locked *assign balanced teams* read their balancing
columns here and hand each row's values to :func:`~xlshuffle.draw.teams.balanced_groups`
(protocol section 16), as ``xlshuffle groups IN --balance COL`` hands a CSV list's fields:
so the range saved as CSV draws the same teams with the same seed. A cell is the value the
CSV file would hold: TRUE and FALSE their texts, a number its text by section 10 (``7.0``
is ``7``), an empty cell the blank value.

>>> rows = [["Name", "Sex"], ["Ann", "F"], ["Bo", "M"], ["Cy", "M"], ["Dee", "F"]]
>>> teams(rows[1:], 2, 42, [1])
[1, 1, 2, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..draw.errors import EntryError, OptionError, SeedError
from ..draw.raffle import canonical_id
from ..draw.teams import balanced_groups
from . import arguments
from .arguments import Rows

__all__ = ["balance_columns", "head", "names", "teams"]


def head(cell: Any) -> str:
    """A header cell's text, as the CSV file would hold it (outer spaces removed)."""
    try:
        return canonical_id(_value(cell))
    except SeedError:
        return ""


def names(name: str, value: Any) -> list[Any]:
    """The columns ``balance`` names, as given: numbers (1-based, as whole numbers) and
    header texts. One text cell that is no single header may list several, separated by
    commas; the caller splits it (:func:`balance_columns`)."""
    given = [c for c in arguments.listed(name, value) if not (c is None or c == "")]
    if not given:
        raise OptionError(f"{name} has only empty cells: name a column, or leave {name} out")
    out: list[Any] = []
    for cell in given:
        if isinstance(cell, bool) or not isinstance(cell, str | int | float):
            raise OptionError(
                f"{name} must name columns by header text or number, not {arguments.show(cell)}"
            )
        if isinstance(cell, str):
            out.append(cell.strip())
        else:
            out.append(arguments.count(name, cell))
    return out


def balance_columns(name: str, given: list[Any], heads: list[str] | None, width: int) -> list[int]:
    """The 0-based columns of ``given`` (from :func:`names`) among ``width`` columns whose
    header texts are ``heads`` (None: no header row). A text matches a header with case
    and outer spaces ignored; a text that matches none and holds commas is several."""
    out: list[int] = []
    for item in given:
        if isinstance(item, int):
            if item > width:
                raise OptionError(
                    f"{name}: column {item} is past the {width} column(s) of the data: give "
                    f"a number from 1 to {width}, or a header text"
                )
            out.append(item - 1)
            continue
        found = _header(name, item, heads)
        if found is None and "," in item:
            out += [_need(name, part.strip(), heads) for part in item.split(",")]
        else:
            out.append(_need(name, item, heads) if found is None else found)
    if len(set(out)) < len(out):
        raise OptionError(f"{name} names one column twice: name each column once")
    return out


def _header(name: str, text: str, heads: list[str] | None) -> int | None:
    if heads is None:
        return None
    found = [j for j, head in enumerate(heads) if head.casefold() == text.casefold()]
    if len(found) > 1:
        raise OptionError(
            f"{name}: {len(found)} columns are headed {text!r}: name the column by its number"
        )
    return found[0] if found else None


def _need(name: str, text: str, heads: list[str] | None) -> int:
    found = _header(name, text, heads)
    if found is None:
        shown = ", ".join(repr(h) for h in heads or [] if h)[:120] or "nothing"
        raise OptionError(
            f"{name}: no column is headed {text!r} (the first row holds {shown}): name the "
            "column by its header text or its number"
        )
    return found


def _value(cell: Any) -> Any:
    """A cell as the balancing value the CSV file would hold (booleans as their text)."""
    if isinstance(cell, bool):
        return "TRUE" if cell else "FALSE"
    return cell


def teams(
    rows: Rows,
    k: int,
    seed: Any,
    columns: Sequence[int],
    *,
    where: str = "data",
    first: int = 1,
) -> list[int]:
    """Each row's team number 1..k, balanced by ``columns`` (0-based) of ``rows``; ``first``
    is the row number a message gives the first row."""
    values = [tuple(_value(row[c]) for c in columns) for row in rows]
    try:
        return balanced_groups(values, k, seed=seed)
    except EntryError as exc:  # not expected from cells: named all the same
        raise OptionError(f"{where}, row {exc.index + first}: {exc.reason}") from None
