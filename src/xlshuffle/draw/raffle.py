"""Raffles: winners and reserves from one draw, and entrants excluded before it.

Protocol sections 9 and 10. Reserves need no randomness of their own: the winners and the
reserves are the first ``k`` and the next ``R`` of one draw of ``k + R`` (weighted or plain),
so drawing reserves never changes the winners. Excluded entrants (earlier winners, staff)
are removed before the draw, which then runs over the others in their input order; they
are matched by a canonical ID text, and a record carries :func:`exclusion_digest` of the
excluded IDs so the list can be checked later without being published.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .errors import EntryError, SeedError, SizeError
from .knuth import check_count
from .protocol import normalise_seed

__all__ = ["Placing", "canonical_id", "exclude", "exclusion_digest", "placings"]

WINNER = "winner"
RESERVE = "reserve"


class Placing(NamedTuple):
    """One drawn entrant's place: its draw position, its index, its role and its rank.

    ``position`` counts from 1 over the whole draw order; ``entrant`` is the 0-based index
    drawn; ``role`` is ``"winner"`` or ``"reserve"``; ``rank`` counts from 1 within the
    role (winner 1, 2, ...; reserve 1, 2, ...).
    """

    position: int
    entrant: int
    role: str
    rank: int


def placings(drawn: Sequence[int], winners: int) -> list[Placing]:
    """Give each drawn index its role: the first ``winners`` win, the rest are reserves.

    Draw ``winners + reserves`` with :func:`~xlshuffle.draw.knuth.deal` or
    :func:`~xlshuffle.draw.weighted.weighted_sample`, then call this. By the prefix
    property the winners are exactly the draw of ``winners`` alone, and reserve 1 is who a
    draw of one more would have added (protocol section 9).

    Parameters
    ----------
    drawn : sequence of int
        The drawn indexes, in draw order.
    winners : int
        How many of them win, ``0 <= winners <= len(drawn)``.

    Returns
    -------
    list of Placing

    Examples
    --------
    >>> from xlshuffle.draw.weighted import weighted_sample
    >>> for p in placings(weighted_sample([1, 5, 0, 2, 2], 3, seed="2026 raffle"), 2):
    ...     print(p.position, p.entrant, p.role, p.rank)
    1 1 winner 1
    2 3 winner 2
    3 4 reserve 1
    """
    winners = check_count("winners", winners)
    if winners > len(drawn):
        raise SizeError(
            f"{winners} winners asked for but only {len(drawn)} drawn: draw winners + "
            "reserves entrants, then split them"
        )
    return [
        Placing(
            p + 1,
            index,
            WINNER if p < winners else RESERVE,
            p + 1 if p < winners else p + 1 - winners,
        )
        for p, index in enumerate(drawn)
    ]


def canonical_id(value: object) -> str:
    """Return the text an entrant ID is matched by (protocol section 10).

    Text: Unicode NFC, then the surrounding white space removed (what Python's
    ``str.strip()`` removes), case kept. A number or date: the text the seed rule gives it
    (``42.0`` -> ``"42"``, ``0.5`` -> ``"0.5"``). ``None`` is the blank ID ``""``.

    Raises
    ------
    SeedError
        For a boolean, NaN, an infinity or another type (as a seed would).

    Examples
    --------
    >>> canonical_id("  Zoe\\u0308 "), canonical_id(42.0), canonical_id("ann") == "Ann"
    ('Zoë', '42', False)
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value).strip()
    return normalise_seed(value).decode("utf-8")


def _canonical_ids(ids: Iterable[object], what: str) -> list[str]:
    out = []
    for i, value in enumerate(ids):
        try:
            text = canonical_id(value)
        except SeedError:
            raise EntryError(i, f"{value!r} cannot be {what}: use a text or a number") from None
        if what != "an entrant ID" and ("\n" in text or "\r" in text):  # the digest's separator
            raise EntryError(i, f"{what} {text!r} holds a line break: remove it")
        out.append(text)
    return out


def exclusion_digest(ids: Iterable[object]) -> str:
    """SHA-256 (hex) of a list of excluded IDs, for a draw record (protocol section 10).

    The digest is over the canonical IDs (:func:`canonical_id`), blank ones dropped,
    de-duplicated, sorted by code point and joined by ``"\\n"``, in UTF-8. So the order
    of the list, repeats, and spacing or Unicode form differences do not change it.

    Examples
    --------
    >>> exclusion_digest(["Bo", " Ann", "Bo"]) == exclusion_digest(["Ann", "Bo"])
    True
    >>> exclusion_digest([])[:16]
    'e3b0c44298fc1c14'
    """
    texts = sorted({t for t in _canonical_ids(ids, "an excluded ID") if t})
    return hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()


def exclude(entrant_ids: Iterable[object], excluded: Iterable[object]) -> list[int]:
    """Return the indexes of the entrants that stay in the draw, in input order.

    An entrant is excluded when its canonical ID (:func:`canonical_id`) is among the
    excluded ones; blank excluded IDs are ignored, so a blank entrant ID is never
    excluded. The draw then runs over the kept entrants (protocol section 10): draw from
    ``[weights[i] for i in kept]`` and map each drawn position ``p`` back to ``kept[p]``.

    Examples
    --------
    >>> exclude(["Ann", "Bo", 42.0, "Cy "], ["Cy", "42"])
    [0, 1]
    """
    drop = {t for t in _canonical_ids(excluded, "an excluded ID") if t}
    return [i for i, t in enumerate(_canonical_ids(entrant_ids, "an entrant ID")) if t not in drop]
