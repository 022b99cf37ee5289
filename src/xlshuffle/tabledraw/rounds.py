"""Rounds, the rule: where every drawn entrant of a draw stands after its rounds, and the
place of a winner who does not answer given to the next reserve of its prize.

:class:`Standing` is the draw's drawn entrants in draw order (:class:`Placed`: its fields,
prize, place, role and note); :meth:`Standing.replace` is the rule of a round (protocol
section 9: the first reserve of the same prize not yet called, the next reserve by rank
without a prize table, takes the place; the winner stays, marked ``replaced`` with the
reason), and :meth:`Standing.fresh` a fresh round's (section 19: one entrant drawn from the
:class:`~xlshuffle.tabledraw.pool.Pool`). Plain values in, plain values out: ``xlshuffle
redraw`` (:mod:`xlshuffle.filedraw.rounds`) builds the standing from a draw's record and
its input, Excel's *replace a winner* (:mod:`xlshuffle.lock.rounds`) from the locked
cells, and both call the same rule.

>>> from xlshuffle.draw.raffle import RESERVE, WINNER
>>> drawn = Standing(
...     ("Name",),
...     (Placed(0, "Ann", ("Ann",), None, 1, WINNER), Placed(3, "Di", ("Di",), None, 1, RESERVE)),
...     False,
... )
>>> after, change = drawn.replace("Ann", "no answer")
>>> for row in after.table():
...     print(row)
['Name', 'Place', 'Role', 'Note']
['Ann', 1, 'replaced', 'no answer']
['Di', 1, 'winner', 'replaces Ann (reserve 1)']
>>> change["given_to"]
{'id': 'Di', 'prize': None, 'reserve': 1}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..draw.errors import OptionError
from ..draw.raffle import RESERVE, WINNER, canonical_id
from .pool import Pool
from .raffles import Drawn

__all__ = ["REPLACED", "Placed", "Standing", "placed_of"]

#: The role of a winner whose place went to a reserve.
REPLACED = "replaced"


@dataclass(frozen=True)
class Placed:
    """One drawn entrant: its data row (0-based; Excel's rounds, which read the locked
    result rather than the list, number the result's rows), ID, fields, prize (None
    without a prize table), place within its prize and role, its role's rank among the
    reserves, and a note (why it was replaced, or whom it replaces)."""

    row: int
    id: str
    values: tuple[object, ...]
    prize: str | None
    place: int
    role: str
    note: str = ""


@dataclass(frozen=True)
class Standing:
    """Every drawn entrant of a draw after its rounds, in draw order, and the list's
    labels (its header fields). ``pool`` is who the draw can still draw and ``row_values``
    a data row's fields (for a fresh round); ``commitment`` the hash of the draw's
    commitment (None for a draw that was not committed)."""

    labels: tuple[str, ...]
    placed: tuple[Placed, ...]
    prizes: bool
    pool: Pool | None = field(default=None, compare=False)
    row_values: Callable[[int], tuple[object, ...]] | None = field(default=None, compare=False)
    commitment: str | None = field(default=None, compare=False)

    def table(self) -> list[list[object]]:
        """The rows ``redraw`` writes: the labels, then each drawn entrant's fields and
        its Prize (with a prize table), Place, Role and Note."""
        added = zip(self.placed, self.added(), strict=True)
        return [self.added_labels(), *([*p.values, *x] for p, x in added)]

    def added_labels(self) -> list[object]:
        """The table's labels: the list's, then Prize (with a prize table), Place, Role
        and Note."""
        return [*self.labels, *(["Prize"] if self.prizes else []), "Place", "Role", "Note"]

    def added(self) -> list[list[object]]:
        """What the table adds to each drawn entrant's fields, in draw order."""
        return [[*([p.prize] if self.prizes else []), p.place, p.role, p.note] for p in self.placed]

    def _with(self, placed: list[Placed]) -> Standing:
        return dataclasses.replace(self, placed=tuple(placed))

    def winner(self, entrant: str, *, option: str = "--replace") -> tuple[int, Placed]:
        """Where the winner ``entrant`` (an ID, as typed) stands, and the entrant: refused
        unless a winner has this ID (``option`` names where the ID was given)."""
        wanted = canonical_id(entrant)
        at = next((n for n, p in enumerate(self.placed) if p.id == wanted), None)
        if at is None:
            raise OptionError(
                f"{option} {entrant}: no entrant drawn has this ID: give the ID of a winner"
            )
        out = self.placed[at]
        if out.role != WINNER:
            raise OptionError(
                f"{option} {entrant}: this entrant is a{'n' if out.role[0] in 'aeiou' else ''} "
                f"{out.role}, not a winner: only a winner's place can go to a reserve"
            )
        return at, out

    def vacancy(self, entrant: str, reason: str) -> tuple[int, Placed, str]:
        """Where the winner ``entrant`` stands, the entrant, and the reason stripped:
        refused unless ``entrant`` is a winner and the reason is not blank."""
        at, out = self.winner(entrant)
        if not reason.strip():
            raise OptionError("--reason: say why the winner is replaced (it goes in the record)")
        return at, out, reason.strip()

    def reserve(self, prize: str | None) -> int | None:
        """Where the first reserve of ``prize`` not yet called stands (None when none is
        left): the reserve a round gives the place to."""
        return next(
            (n for n, p in enumerate(self.placed) if p.role == RESERVE and p.prize == prize),
            None,
        )

    def replace(self, entrant: str, reason: str) -> tuple[Standing, dict[str, Any]]:
        """The standing after the winner ``entrant``'s place goes to the first reserve of
        its prize not yet called; and the record's account of the change."""
        at, out, why = self.vacancy(entrant, reason)
        step = self.reserve(out.prize)
        if step is None:
            prize = f" of {out.prize!r}" if out.prize is not None else ""
            raise OptionError(
                f"--replace {entrant}: no reserve{prize} is left to call: draw the place again "
                "from fresh public randomness (a committed draw: xlshuffle redraw R --replace "
                "ID --reason TEXT --beacon TEXT --commit C2.json, then --commitment C2.json "
                "--reveal VALUE), or draw again from the entrants not yet drawn (xlshuffle "
                "sample ... --exclude R --id COL)"
            )
        reserve = self.placed[step]
        placed = list(self.placed)
        placed[at] = dataclasses.replace(out, role=REPLACED, note=why)
        placed[step] = dataclasses.replace(
            reserve,
            role=WINNER,
            place=out.place,
            note=f"replaces {out.id} (reserve {reserve.place})",
        )
        change = {
            "replace": {"id": out.id, "prize": out.prize, "place": out.place},
            "reason": why,
            "given_to": {"id": reserve.id, "prize": reserve.prize, "reserve": reserve.place},
        }
        return self._with(placed), change

    def fresh_pool(
        self, entrant: str, reason: str
    ) -> tuple[dict[str, Any], Pool, Callable[[int], tuple[object, ...]]]:
        """A fresh round's ``replace`` and the pool it draws from (protocol section 19),
        refused unless the draw was committed and no reserve of the prize is left."""
        _, out, _ = self.vacancy(entrant, reason)
        if self.commitment is None or self.pool is None or self.row_values is None:
            raise OptionError(
                "a place is drawn again from fresh public randomness only in a committed draw "
                "(xlshuffle commit, then draw): draw again from the entrants not yet drawn "
                "(xlshuffle sample ... --exclude R --id COL)"
            )
        if self.reserve(out.prize) is not None:
            prize = f" of {out.prize!r}" if out.prize is not None else ""
            raise OptionError(
                f"--replace {entrant}: a reserve{prize} is still to be called: the place goes "
                "to it (redraw without --beacon or --commitment)"
            )
        self.pool.check()
        place = {"id": out.id, "prize": out.prize, "place": out.place}
        return place, self.pool, self.row_values

    def drawn_ids(self) -> list[str]:
        """The IDs drawn so far (section 19, step 1)."""
        return [p.id for p in self.placed]

    def fresh(self, entrant: str, reason: str, seed: str) -> tuple[Standing, dict[str, Any]]:
        """The standing after the winner ``entrant``'s place goes to the entrant the pool
        draws with ``seed`` (section 19, step 5); and the record's account of the change."""
        at, out, why = self.vacancy(entrant, reason)
        _, pool, values = self.fresh_pool(entrant, reason)
        drawn = self.drawn_ids()
        size = pool.account(drawn)["entrants"]
        row = pool.draw(seed, drawn)
        new = Placed(
            row,
            pool.ids[pool.rows.index(row)],
            values(row),
            out.prize,
            out.place,
            WINNER,
            f"replaces {out.id} (fresh draw)",
        )
        placed = list(self.placed)
        placed[at] = dataclasses.replace(out, role=REPLACED, note=why)
        placed.append(new)
        change = {
            "replace": {"id": out.id, "prize": out.prize, "place": out.place},
            "reason": why,
            "given_to": {"id": new.id, "prize": new.prize, "pool": size},
        }
        return self._with(placed), change


def placed_of(
    drawn: Drawn, ids: list[str], values: Callable[[int], tuple[object, ...]]
) -> list[Placed]:
    """Each drawn row (``drawn.rows``: data rows) as a Placed, in draw order."""
    at = {label: n for n, label in enumerate(drawn.extra_labels)}
    out = []
    for n, (row, extra) in enumerate(zip(drawn.rows, drawn.extra, strict=True), 1):
        prize = str(extra[at["Prize"]]) if "Prize" in at else None
        rank = at.get("Place", at.get("Rank"))
        place = n if rank is None else int(str(extra[rank]))
        role = str(extra[at["Role"]]) if "Role" in at else WINNER
        out.append(Placed(row, ids[n - 1], values(row), prize, place, role))
    return out
