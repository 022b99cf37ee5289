"""Ticket draws: every entrant's own tickets, from the seed and its ID alone.

Protocol section 18. An entrant's ticket is a SHA-256 of the seed's key and the entrant's
canonical ID (section 10), written as 64 lower-case hex digits; entrants are drawn in
increasing ticket order, ties broken by ID. Nothing else about the list enters a ticket,
so adding, removing or reordering other entrants never changes it: the winners of a list
are the first of any longer list that holds them, and a sample drawn by a rate only grows
as entrants are added. An entrant holding ``w`` tickets (a weighted draw) draws ``w``
ticket numbers and keeps the smallest, which draws each next winner with chance
proportional to the tickets still in the draw, exactly.

``method="rivest"`` gives instead the order of Rivest's ``consistent_sampler`` (1.0.10,
sampling without replacement), the tool election auditors use.

The text hashed is built so that a SQL engine computes a ticket with its own SHA-256 of a
text and concatenation alone (:func:`ticket_prefix` gives the constant part).

Examples
--------
>>> t = ticket("2026", "M-017")
>>> len(t), t == ticket(2026, " M-017 ")  # a seed and an ID as sections 1 and 10 read them
(64, True)
>>> ticket_order(["A-1", "A-2", "A-3", "B-1", "B-2", "B-3"], "314159", method="rivest")[:4]
[4, 5, 2, 1]
"""

from __future__ import annotations

import hashlib
import heapq
import math
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Literal, NamedTuple

from .errors import EntryError, OptionError, SizeError
from .protocol import PROTOCOL, normalise_seed
from .raffle import canonical_id

__all__ = [
    "MAX_TICKETS",
    "TICKET_DOMAIN",
    "TicketMethod",
    "Ticketed",
    "draw_tickets",
    "population_digest",
    "rate_threshold",
    "rivest_ticket",
    "ticket",
    "ticket_order",
    "ticket_prefix",
    "tickets_of",
]

#: What a ticket's hashed text starts with (section 18).
TICKET_DOMAIN = "xlshuffle/ticket/v1/"
#: The most ticket numbers one draw computes (an entrant's weight is its ticket count):
#: a draw past it is refused before any is computed, so time stays bounded.
MAX_TICKETS = 50_000_000

#: ``ticket``: section 18's tickets (SQL-friendly hex); ``rivest``: consistent_sampler's.
TicketMethod = Literal["ticket", "rivest"]

_KEY_DOMAIN = PROTOCOL.encode("ascii") + b"\x00"
_TOP = 1 << 256


def _key_hex(seed: object) -> str:
    """Step 2's key of ``seed``, as 64 lower-case hex digits."""
    return hashlib.sha256(_KEY_DOMAIN + normalise_seed(seed)).hexdigest()


def ticket_prefix(seed: object) -> str:
    """The constant start of every ticket's hashed text for ``seed``: the domain and the
    seed's key (``xlshuffle/ticket/v1/<64 hex digits>/``); ticket number ``j`` of an ID
    is the SHA-256 of ``prefix + str(j) + "/" + id``.

    Examples
    --------
    >>> ticket_prefix("2026")[:20], len(ticket_prefix("2026"))
    ('xlshuffle/ticket/v1/', 85)
    """
    return f"{TICKET_DOMAIN}{_key_hex(seed)}/"


def _id_text(value: object, index: int | None = None) -> str:
    """The canonical ID text of a ticket draw's entrant (``index``, 0-based, for messages)."""
    text = canonical_id(value)
    reason = None
    if text == "":
        reason = "the ID is blank: every entrant of a ticket draw needs one"
    elif "\n" in text or "\r" in text:
        reason = f"the ID {text!r} holds a line break, which a ticket draw's ID may not"
    if reason is None:
        return text
    raise OptionError(reason) if index is None else EntryError(index, reason)


def ticket(seed: object, entrant_id: object, number: int = 0) -> str:
    """Ticket number ``number`` (0-based) of the entrant ``entrant_id`` for ``seed``.

    Parameters
    ----------
    seed : str, int, float, date
        Read as section 1 reads a seed.
    entrant_id : object
        Read as section 10 reads an ID (``" M-017 "`` is ``"M-017"``, ``42.0`` is ``"42"``);
        blank IDs and IDs with a line break are refused.
    number : int, optional
        Which of the entrant's tickets (an entrant with ``w`` tickets holds ``0 .. w-1``).

    Returns
    -------
    str
        64 lower-case hex digits; tickets compare as texts.

    Examples
    --------
    >>> ticket("2026", "M-017") < ticket("2026", "M-018")
    True
    """
    if number < 0:
        raise SizeError(f"a ticket's number is 0 or more, not {number}")
    text = f"{ticket_prefix(seed)}{number}/{_id_text(entrant_id)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rivest_ticket(seed: object, entrant_id: object) -> str:
    """The first ticket ``consistent_sampler`` 1.0.10 gives ``entrant_id`` for ``seed``:
    ``"0."`` and the decimal digits of a SHA-256, low-order digit first.

    The seed is its text as section 1 writes it (``314159``, ``"314159"`` alike); the ID
    its canonical text (section 10). Tickets compare as texts.

    Examples
    --------
    >>> rivest_ticket(314159, "B-2")[:12]
    '0.4103108580'
    """
    seed_hash = hashlib.sha256(normalise_seed(seed)).hexdigest()
    return _rivest(seed_hash, _id_text(entrant_id))


def _rivest(seed_hash: str, text: str) -> str:
    value = int.from_bytes(hashlib.sha256((seed_hash + text).encode("utf-8")).digest(), "big")
    return "0." + f"{value:064d}"[::-1]


class Ticketed(NamedTuple):
    """One entrant's place in a ticket draw: its 0-based index, its ID text and its ticket
    (the smallest of its ticket numbers)."""

    entrant: int
    id: str
    ticket: str


def tickets_of(
    ids: Iterable[object],
    seed: object,
    *,
    weights: Sequence[int] | None = None,
    method: TicketMethod = "ticket",
) -> Iterator[Ticketed]:
    """Each entrant's ticket, in input order; entrants with no ticket (weight 0) left out.

    Parameters
    ----------
    ids : iterable
        The entrants' IDs (section 10); they must be distinct.
    seed : str, int, float, date
    weights : sequence of int, optional
        Whole ticket counts, one per entrant (``None``: one each). Not with ``rivest``.
    method : {"ticket", "rivest"}

    Raises
    ------
    EntryError
        A blank ID, an ID with a line break, or one ID twice.
    OptionError
        Weights with ``rivest``, or more than :data:`MAX_TICKETS` ticket numbers.
    """
    texts = [_id_text(v, n) for n, v in enumerate(ids)]
    _check_distinct(texts)
    if weights is not None:
        _check_weights(weights, len(texts), method)
    if method == "rivest":
        seed_hash = hashlib.sha256(normalise_seed(seed)).hexdigest()
        for n, text in enumerate(texts):
            yield Ticketed(n, text, _rivest(seed_hash, text))
        return
    base = hashlib.sha256(ticket_prefix(seed).encode("ascii"))
    for n, text in enumerate(texts):
        w = 1 if weights is None else weights[n]
        if w == 0:
            continue
        tail = f"/{text}".encode()

        def number(j: int, tail: bytes = tail) -> str:
            h = base.copy()
            h.update(str(j).encode("ascii") + tail)
            return h.hexdigest()

        yield Ticketed(n, text, min(map(number, range(w))))


def _check_weights(weights: Sequence[int], n: int, method: TicketMethod) -> None:
    if method == "rivest":
        raise OptionError(
            "the rivest order has one ticket per entrant: leave out the weights, or use the "
            "ticket method"
        )
    if len(weights) != n:
        raise SizeError(f"{len(weights)} weights for {n} entrants")
    for n, w in enumerate(weights):
        if w < 0:
            raise EntryError(n, f"the ticket count {w} is negative: give 0 or more")
    total = sum(weights)
    if total > MAX_TICKETS:
        raise OptionError(
            f"the weights give {total:,} tickets, more than the {MAX_TICKETS:,} a draw "
            "computes: give them at a coarser scale"
        )


def _check_distinct(texts: Sequence[str]) -> None:
    seen: dict[str, int] = {}
    for n, text in enumerate(texts):
        first = seen.setdefault(text, n)
        if first != n:
            raise EntryError(
                n,
                f"has the same ID {text!r} as entrant {first}: a ticket belongs to one "
                "entrant (give each row its own ID, or ask for one entry per ID)",
            )


def rate_threshold(rate: Fraction) -> str | None:
    """The hex text a ticket must be below to be drawn at ``rate`` (``0 < rate <= 1``):
    ``ceil(rate * 2**256)`` as 64 hex digits, or ``None`` when every ticket is (rate 1).

    Examples
    --------
    >>> rate_threshold(Fraction(1, 2))
    '8000000000000000000000000000000000000000000000000000000000000000'
    >>> rate_threshold(Fraction(1)) is None
    True
    """
    if not 0 < rate <= 1:
        raise OptionError(f"a rate is more than 0 and at most 1, not {rate}")
    bound = math.ceil(rate * _TOP)
    return None if bound >= _TOP else f"{bound:064x}"


def ticket_order(
    ids: Sequence[object],
    seed: object,
    *,
    k: int | None = None,
    rate: Fraction | None = None,
    reserves: int = 0,
    weights: Sequence[int] | None = None,
    method: TicketMethod = "ticket",
) -> list[int]:
    """The entrants drawn, by index, in increasing ticket order (ties by ID).

    Parameters
    ----------
    ids : sequence
        The entrants' IDs (section 10), distinct.
    seed : str, int, float, date
    k : int, optional
        How many win (``None`` with no ``rate``: every entrant, the whole order).
    rate : Fraction, optional
        Instead of ``k``: every entrant whose ticket is below ``rate * 2**256`` wins
        (with ``rivest``, only 1: every entrant).
    reserves : int, optional
        How many more follow the winners in the order (section 9).
    weights : sequence of int, optional
        Whole ticket counts (an entrant's ticket is the smallest of its ticket numbers).
    method : {"ticket", "rivest"}

    Returns
    -------
    list of int
        Winners first, then reserves.

    Examples
    --------
    >>> ticket_order(["ann", "bo", "cy", "di"], "2026", k=2)
    [1, 3]

    An entrant added later takes its place among the others, whose order stays:

    >>> ticket_order(["ann", "bo", "cy", "di", "ed"], "2026")
    [1, 4, 3, 0, 2]
    """
    drawn = draw_tickets(
        ids, seed, k=k, rate=rate, reserves=reserves, weights=weights, method=method
    )
    return [t.entrant for t in drawn[0]]


def draw_tickets(
    ids: Sequence[object],
    seed: object,
    *,
    k: int | None = None,
    rate: Fraction | None = None,
    reserves: int = 0,
    weights: Sequence[int] | None = None,
    method: TicketMethod = "ticket",
) -> tuple[list[Ticketed], int]:
    """:func:`ticket_order` with each drawn entrant's ticket, and how many of them win
    (the rest are reserves): what a record and an output's ``Ticket`` column show."""
    if k is not None and rate is not None:
        raise OptionError("give k or a rate, not both")
    if rate is not None and rate != 1 and method == "rivest":
        raise OptionError("a rate below 1 takes section 18's tickets: use the ticket method")
    if (k is not None and k < 0) or reserves < 0:
        raise SizeError("k and reserves are 0 or more")
    found = tickets_of(ids, seed, weights=weights, method=method)
    keyed = ((t.ticket, t.id, t) for t in found)
    if rate is not None:
        threshold = rate_threshold(rate)
        ordered = sorted(keyed)
        won = sum(1 for t, _, _ in ordered if threshold is None or t < threshold)
        return [t for _, _, t in ordered[: won + reserves]], won
    if k is None:
        ordered = sorted(keyed)
        return [t for _, _, t in ordered], len(ordered)
    drawn = [t for _, _, t in heapq.nsmallest(k + reserves, keyed)]
    return drawn, min(k, len(drawn))


def population_digest(ids: Iterable[object], weights: Sequence[int] | None = None) -> str:
    """The SHA-256 (hex) that fixes a ticket draw's population (section 18): the entrants'
    lines sorted by code point, joined by line feeds; a line is the canonical ID, and for a
    weighted draw a tab and the entrant's ticket count.

    Examples
    --------
    >>> population_digest(["b", "a"]) == population_digest([" a", "b "])
    True
    """
    texts = [_id_text(v, n) for n, v in enumerate(ids)]
    if weights is not None:
        if len(weights) != len(texts):
            raise SizeError(f"{len(weights)} weights for {len(texts)} entrants")
        texts = [f"{t}\t{w}" for t, w in zip(texts, weights, strict=True)]
    return hashlib.sha256("\n".join(sorted(texts)).encode("utf-8")).hexdigest()
