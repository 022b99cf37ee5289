"""Entrants by ID: one row each, or (``--one-entry-per-id``) one per distinct ID.

Under ``--id`` an entrant is a row, and two rows with one ID would let one person win
twice: :func:`check_unique_ids` refuses them, naming the ID and its cells. A list kept one
row per purchase asks for :func:`entries_by_id` instead (protocol section 10): the rows
sharing a canonical ID are one entrant at its first row, holding the tickets of all of
them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..draw.errors import EntryError, SeedError
from ..draw.raffle import canonical_id
from .entrants import Column, Entrants

__all__ = ["canonical_ids", "check_unique_ids", "duplicate_id", "entries_by_id"]

_SHOWN = 3  # cells named in a message


def canonical_ids(values: list[object]) -> list[str]:
    """Each value's canonical ID (EntryError naming the first that can be none)."""
    out = []
    for i, value in enumerate(values):
        try:
            out.append(canonical_id(value))
        except SeedError:
            raise EntryError(
                i, f"the ID {value!r} cannot be used: write a text or a number"
            ) from None
    return out


def _cells(ents: Entrants, column: Column, rows: Sequence[int]) -> str:
    """``cell A2, cell A4, ...`` (``Tickets!B4`` in a workbook), the file's name left out."""
    prefix = f"{ents.where}: "
    names = [ents.cell(i, column.index).removeprefix(prefix) for i in rows[:_SHOWN]]
    return ", ".join(names) + (", ..." if len(rows) > _SHOWN else "")


def duplicate_id(ents: Entrants, column: Column) -> tuple[str, list[int]] | None:
    """The first (non-blank) canonical ID on two rows or more, and all its rows; None
    when every row's ID is its own (or blank)."""
    ids = ents.read(column, range(ents.n), canonical_ids)
    first: dict[str, int] = {}
    for i, t in enumerate(ids):
        if t and first.setdefault(t, i) != i:
            return t, [j for j in range(first[t], ents.n) if ids[j] == t]
    return None


def check_unique_ids(ents: Entrants, column: Column) -> None:
    """Refuse two entrants with one (non-blank) canonical ID, naming the ID and its rows
    and the command line's options (a worksheet function checks first, in its words)."""
    found = duplicate_id(ents, column)
    if found is not None:
        t, rows = found
        raise ents.fail(
            f"{ents.where}: --id {column.given}: the ID {t!r} is on {len(rows)} rows "
            f"({_cells(ents, column, rows)}): give each entrant an ID of its own, or add "
            "--one-entry-per-id if each row is one entry of the person its ID names"
        )


def entries_by_id(
    ents: Entrants, column: Column, rows: Sequence[int]
) -> tuple[list[int], dict[int, list[int]]]:
    """The entrants among ``rows`` (input order) with one entry per ID: each distinct
    canonical ID's first row, in input order, and each first row's rows (itself first).
    A blank ID is refused, naming its cell: it says whose entry the row is not."""
    ids = ents.read(column, rows, canonical_ids)
    by_id: dict[str, int] = {}
    members: dict[int, list[int]] = {}
    for r, t in zip(rows, ids, strict=True):
        if not t:
            raise ents.fail(
                f"{ents.cell(r, column.index)}: the ID is blank: with --one-entry-per-id "
                "every row needs the ID of the person whose entry it is"
            )
        head = by_id.setdefault(t, r)
        members.setdefault(head, []).append(r)
    return list(members), members
