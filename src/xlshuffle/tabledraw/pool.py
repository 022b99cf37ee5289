"""Who a draw can still draw (protocol section 19, step 2): its entrants neither drawn
nor excluded, and one of them drawn by the draw's own rule.

A fresh round (:mod:`xlshuffle.filedraw.freshround`) commits to the pool by its size and
digest (:meth:`Pool.account`) and, once its seed is known, draws one entrant of it
(:meth:`Pool.draw`); :class:`~xlshuffle.tabledraw.rounds.Standing` holds the pool of a draw
beside where its drawn entrants stand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..draw.errors import ListError, OptionError, SizeError
from ..draw.raffle import exclusion_digest
from ..draw.seed import Seed
from .entrants import Entrants
from .exclusions import Exclusion
from .raffle_options import DrawOptions
from .raffles import choose

__all__ = ["Pool"]


@dataclass(frozen=True)
class Pool:
    """Who a draw can still draw (section 19, step 2): the draw's entrants (``ents``,
    entrant ``i`` being data row ``rows[i]``), its options, the entrants its exclusion left
    out and each entrant's canonical ID."""

    ents: Entrants
    opts: DrawOptions
    excluded: frozenset[int]
    ids: tuple[str, ...]
    rows: tuple[int, ...]

    def check(self) -> None:
        """Refuse a draw that has no fresh rounds: strata, an audit's selection."""
        if self.opts.strata is not None:
            raise OptionError(
                "a draw with strata has no fresh rounds (protocol section 19): draw the "
                "stratum again as a new committed draw, excluding the entrants drawn"
            )
        if self.opts.method in ("systematic", "mus"):
            raise OptionError("an audit's selection has no rounds: a round replaces a winner")

    def members(self, drawn: Iterable[str]) -> list[int]:
        """The pool's entrants, in input order: not excluded, ID neither blank nor drawn."""
        gone = {*drawn, ""}
        return [i for i in range(self.ents.n) if i not in self.excluded and self.ids[i] not in gone]

    def account(self, drawn: Iterable[str]) -> dict[str, Any]:
        """The round commitment's ``pool``: its size (distinct IDs) and digest."""
        ids = {self.ids[i] for i in self.members(drawn)}
        return {"entrants": len(ids), "sha256": exclusion_digest(sorted(ids))}

    def draw(self, seed: str, drawn: Iterable[str]) -> int:
        """The data row drawn from the pool with ``seed`` (section 19, step 5): the
        draw's own rule, one winner, no reserves, no prize table, no rate."""
        self.check()
        keep = set(self.members(drawn))
        if not keep:
            raise ListError("the pool is empty: every entrant has been drawn or excluded")
        o = self.opts
        one = DrawOptions(
            k=1,
            method=o.method,
            weights=o.weights,
            id=o.id,
            one_entry_per_id=o.one_entry_per_id,
            weight_scale=o.weight_scale,
        )
        out = tuple(i for i in range(self.ents.n) if i not in keep)
        try:
            chosen = choose(self.ents, one, Seed.given(seed).stream(), Exclusion("", 0, out))
        except SizeError as exc:
            raise ListError(f"the pool cannot be drawn: {exc}") from None
        return self.rows[chosen.rows[0]]
