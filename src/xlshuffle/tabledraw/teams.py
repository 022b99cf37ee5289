"""Balanced teams over any table of entrants: the draw and its balance table.

Shared by the list and workbook engines (``groups --balance``): both read their data rows
into an :class:`~xlshuffle.tabledraw.entrants.Entrants`, and :func:`draw_teams` names the
balancing columns, reads each person's values and deals the teams of protocol section 16
(:func:`xlshuffle.draw.teams.balanced_groups`), so a list and the same rows in a
workbook give the same teams for the same seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..draw.errors import EntryError, OptionError
from ..draw.protocol import DrawStream
from ..draw.teams import balance_keys, balanced_groups
from .entrants import Column, Entrants

__all__ = ["Teams", "balance_table", "draw_teams"]


@dataclass(frozen=True)
class Teams:
    """A balanced deal: the balancing columns, their names (header texts, or letters
    without a header), each person's key and team number (``1..k``)."""

    columns: list[Column]
    names: list[str]
    keys: list[tuple[str, ...]]
    numbers: list[int]

    def spec(self, k: int, label: str) -> dict[str, Any]:
        """The record's ``target["balance"]`` (without ``avoid``)."""
        return {
            "columns": [c.to_dict() for c in self.columns],
            "names": self.names,
            "label": label,
            "teams": balance_table(self.columns, self.keys, self.numbers, k),
        }


def _plain(value: object) -> object:
    """A cell's value as a balancing value: a workbook's TRUE/FALSE as the text a CSV
    list holds for it (a balancing value is compared as text, section 16)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return value


def _fine(value: object) -> bool:
    try:
        balance_keys([value])
    except EntryError:
        return False
    return True


def draw_teams(
    ents: Entrants,
    balance: Sequence[str],
    k: int,
    stream: DrawStream,
    before: Sequence[int | None] | None = None,
) -> Teams:
    """Deal ``ents`` into ``k`` teams balanced by the columns ``balance`` names (header
    text or letter, most important first), avoiding the split ``before`` if given.

    Raises OptionError for a column not there or named twice, and ``ents.fail`` naming
    the cell of a value that cannot be a balancing value.
    """
    cols = [ents.column(given, "--balance") for given in balance]
    seen = [c.index for c in cols]
    if len(set(seen)) != len(seen):
        raise OptionError(f"{ents.where}: --balance names one column twice: name each once")
    values = [ents.values(c.index) for c in cols]
    rows = [tuple(_plain(v[i]) for v in values) for i in range(ents.n)]
    try:
        keys = balance_keys(rows)
    except EntryError as exc:
        j = next((c for c, v in enumerate(rows[exc.index]) if not _fine(v)), 0)
        raise ents.fail(f"{ents.cell(exc.index, cols[j].index)}: {exc.reason}") from None
    labels = ents.labels
    names = [
        labels[c.index].strip() if labels and c.index < len(labels) else ents.letters[c.index]
        for c in cols
    ]
    numbers = balanced_groups(rows, k, seed=stream, avoid=before)
    return Teams(cols, names, keys, numbers)


def balance_table(
    cols: Sequence[Column], keys: Sequence[tuple[str, ...]], teams: Sequence[int], k: int
) -> list[dict[str, Any]]:
    """Per team: its number, size, and each column's count of each value (values in
    order of first appearance; ``""`` is the blank value).

    Examples
    --------
    >>> balance_table([Column("Sex", 1)], [("F",), ("M",), ("F",)], [1, 2, 2], 2)
    [{'team': 1, 'size': 1, 'counts': [{'F': 1, 'M': 0}]}, \
{'team': 2, 'size': 2, 'counts': [{'F': 1, 'M': 1}]}]
    """
    out = []
    for team in range(1, k + 1):
        counts = []
        for c in range(len(cols)):
            got = Counter(key[c] for key, t in zip(keys, teams, strict=True) if t == team)
            counts.append({v: got.get(v, 0) for v in dict.fromkeys(key[c] for key in keys)})
        out.append({"team": team, "size": teams.count(team), "counts": counts})
    return out
