"""Fresh rounds (protocol section 19): a winner's place drawn again from fresh public
randomness, when no reserve is left to call, for a committed draw.

A round is committed to as its draw was, before the randomness exists: its commitment
(:func:`round_commitment`) fixes the record it follows (by SHA-256), the winner replaced
and why, the **pool** (the draw's entrants not yet drawn, by count and digest) and the
public source announced. Once the value is out, the seed is section 17's rule over the
round's commitment hash, and :meth:`Pool.draw` draws one entrant of the pool by the draw's
own rule (a deal, tickets, a ticket order). :mod:`.rounds` builds the standing and the
record around it; nothing here reads a file but a round's commitment.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

from ..draw.commit import commit_seed, commitment_sha256
from ..draw.errors import ListError, OptionError, SizeError
from ..draw.protocol import PROTOCOL
from ..draw.raffle import exclusion_digest
from ..draw.seed import Seed
from ..tabledraw.entrants import Entrants
from ..tabledraw.exclusions import Exclusion
from ..tabledraw.raffle_options import DrawOptions
from ..tabledraw.raffles import choose
from .commitment import Commitment, checked_hash

__all__ = ["ROUND_VERSION", "Pool", "load_round", "round_commitment", "round_of_record"]

#: The version of a round's commitment (protocol section 19, step 3).
ROUND_VERSION = 1


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


def round_commitment(
    *,
    previous: dict[str, str],
    draw: str,
    replace: dict[str, Any],
    reason: str,
    pool: dict[str, Any],
    beacon: str,
    tool_version: str,
    now: Callable[[], _dt.datetime] | None = None,
) -> Commitment:
    """A round's commitment (section 19, step 3) and its hash."""
    if not beacon.strip():
        raise OptionError("--beacon is blank: name the public randomness that will seed the round")
    time = (now or (lambda: _dt.datetime.now(_dt.UTC)))().replace(microsecond=0)
    body = {
        "round_version": ROUND_VERSION,
        "protocol": PROTOCOL,
        "draw": draw,
        "previous": previous,
        "replace": replace,
        "reason": reason,
        "pool": pool,
        "beacon": beacon,
        "tool_version": tool_version,
        "time_utc": time.isoformat()[:19] + "Z",
    }
    return Commitment(body, commitment_sha256(body))


def _is_round(body: object) -> TypeGuard[dict[str, Any]]:
    keys = ("draw", "previous", "replace", "reason", "pool", "beacon")
    return (
        isinstance(body, dict)
        and body.get("round_version") == ROUND_VERSION
        and all(key in body for key in keys)
        and isinstance(body["previous"], dict)
        and isinstance(body["replace"], dict)
        and isinstance(body["pool"], dict)
    )


def load_round(path: str) -> Commitment:
    """The round's commitment in the file at ``path`` (as ``redraw --commit`` wrote it),
    its hash checked against its body."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        body, digest = data["commitment"], data["sha256"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        body, digest = None, None
    if not _is_round(body):
        raise ListError(
            f"{path}: not a round's commitment (xlshuffle redraw ... --beacon TEXT --commit "
            "C2.json writes one)"
        )
    return Commitment(body, checked_hash(path, body, digest))


def round_of_record(record: dict[str, Any], where: str) -> tuple[Commitment, str]:
    """A fresh round's record's commitment (its hash checked) and the seed its revealed
    values give (``where`` names the record in messages)."""
    fresh = record.get("fresh")
    fresh = fresh if isinstance(fresh, dict) else {}
    held = fresh.get("commitment")
    held = held if isinstance(held, dict) else {}
    body = held.get("body")
    if not _is_round(body):
        raise ListError(f"{where}: its fresh round's commitment is damaged")
    made = Commitment(body, checked_hash(where, body, held.get("sha256")))
    try:
        seed = commit_seed(made.sha256, [str(v) for v in fresh.get("reveal") or []])
    except OptionError as exc:
        raise ListError(f"{where}: its revealed values: {exc}") from None
    if fresh.get("seed") != seed:
        raise ListError(
            f"{where}: the round's seed {fresh.get('seed')!r} is not the one its commitment "
            f"{made.sha256[:16]}... and the revealed value(s) give ({seed!r})"
        )
    return made, seed
