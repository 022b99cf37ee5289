"""Fresh rounds (protocol section 19): a winner's place drawn again from fresh public
randomness, when no reserve is left to call, for a committed draw.

A round is committed to as its draw was, before the randomness exists: its commitment
(:func:`round_commitment`) fixes the record it follows (by SHA-256), the winner replaced
and why, the **pool** (the draw's entrants not yet drawn, by count and digest) and the
public source announced. Once the value is out, the seed is section 17's rule over the
round's commitment hash, and :meth:`Pool.draw` draws one entrant of the pool by the draw's
own rule (a deal, tickets, a ticket order; the pool is :mod:`xlshuffle.tabledraw.pool`'s).
:mod:`.rounds` builds the standing and the record around it; nothing here reads a file
but a round's commitment.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable
from typing import Any, TypeGuard

from ..draw.commit import commit_seed, commitment_sha256
from ..draw.errors import ListError, OptionError
from ..draw.protocol import PROTOCOL
from .commitment import Commitment, checked_hash

__all__ = ["ROUND_VERSION", "load_round", "round_commitment", "round_of_record"]

#: The version of a round's commitment (protocol section 19, step 3).
ROUND_VERSION = 1


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
