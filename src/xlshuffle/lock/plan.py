"""Draw and lock, what a locked draw writes: :func:`plan` from the selection's rows and
the seed, and :func:`undo`, what ``restore last draw`` writes back over a shuffle. Plain
values in, plain values out: nothing here touches a workbook or xlwings."""

from __future__ import annotations

from collections.abc import Callable

from ..draw.errors import ShapeError, SizeError
from ..draw.knuth import deal, group_numbers, permutation
from ..functions import raffle
from .log import LockMode, Rows

__all__ = ["plan", "undo"]


def plan(
    mode: LockMode,
    rows: Rows,
    seed: str,
    k: int | None = None,
    hands: int | None = None,
    *,
    reserves: int = 0,
    tickets: int | None = None,
    ticket_cell: Callable[[int], str] | None = None,
    ids: int | None = None,
    id_cell: Callable[[int], str] | None = None,
) -> Rows:
    """What a locked draw of ``mode`` writes, from the selection's rows and the seed.

    ``shuffle``: the rows in a new order (``SHUFFLE``); ``winners``: ``k`` rows in draw
    order (``SAMPLE``); ``groups``: one column of group numbers 1..k (``GROUPS``);
    ``deal``: ``k`` cards to each of ``hands`` hands from the cells read row by row,
    one column per hand (``DEAL``); ``raffle``: ``k`` winners and ``reserves`` reserves
    by the tickets in column ``tickets`` of the rows (0-based; None: one each), with
    Role and Rank when there are reserves (``SAMPLE`` with weights and reserves); a
    ticket that cannot be read is named by ``ticket_cell(i)`` (``cell C7``); ``tickets``
    (mode): a ticket draw (section 18) of ``k`` winners and ``reserves`` reserves by the
    IDs in column ``ids`` (and the ticket counts in column ``tickets``, whole numbers),
    each row followed by Role and Rank (with reserves) and its ``Draw ticket``, as
    ``SAMPLE`` with method ``"ticket"`` writes; an ID is named by ``id_cell(i)``.
    """
    if mode == "tickets":
        if ids is None:
            raise ShapeError("a ticket draw needs its IDs column")
        columns = {"id": [row[ids] for row in rows]}
        if tickets is not None:
            columns["weights"] = [row[tickets] for row in rows]
        names = {"id": id_cell, "weights": ticket_cell}

        def name_of(key: str, i: int) -> str:
            name = names[key]
            return f"{key}, row {i + 1}" if name is None else name(i)

        return raffle.draw(
            rows,
            _need(k),
            seed,
            method="ticket",
            reserves=reserves,
            columns=columns,
            where="the selection",
            at=name_of,
        )
    if mode == "raffle":
        columns = {} if tickets is None else {"weights": [row[tickets] for row in rows]}
        at = None if ticket_cell is None else (lambda _key, i: ticket_cell(i))
        return raffle.draw(
            rows, _need(k), seed, reserves=reserves, columns=columns, where="the selection", at=at
        )
    if mode == "shuffle":
        return [list(rows[p]) for p in permutation(len(rows), seed=seed)]
    if mode == "winners":
        return [list(row) for row in deal(rows, _need(k), seed=seed)]
    if mode == "groups":
        return [[g] for g in group_numbers(permutation(len(rows), seed=seed), _need(k))]
    cards, players = _need(k), _need(hands)
    deck = [cell for row in rows for cell in row]
    if cards * players > len(deck):
        raise SizeError(
            f"cannot deal {cards} cards to {players} hands: that needs {cards * players} "
            f"cards and the selection has {len(deck)}; deal fewer or select more cells"
        )
    dealt = deal(deck, cards * players, seed=seed)
    return [dealt[r * players : (r + 1) * players] for r in range(cards)]


def undo(mode: str, current: Rows, seed: str) -> Rows:
    """What ``restore last draw`` writes back over a shuffle: the rows before the draw.

    ``current`` holds the shuffled rows; position ``p`` holds the original row
    ``perm[p]``, so the original row ``perm[p]`` is ``current[p]``.
    """
    if mode != "shuffle":
        raise ShapeError(f"only a shuffle is undone row by row, not {mode!r}")
    perm = permutation(len(current), seed=seed)
    original: Rows = [[] for _ in current]
    for p, item in enumerate(perm):
        original[item] = list(current[p])
    return original


def _need(value: int | None) -> int:
    if value is None:
        raise SizeError("a count is missing")
    return value


# --------------------------------------------------------------------------- the log
