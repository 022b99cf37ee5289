"""Per-person orders and counterbalanced (Williams) orders (protocol sections 13 and 14).

A *per-person order* (section 13) is one person's order of ``n`` items, drawn from a
sub-stream of the seed that only that person's ID names, so it depends only on the seed,
the ID and ``n``: adding people, removing them or listing them in another order never
changes anyone else's order. Its key has its own label prefix,
``b"xlshuffle/draw/v1/person"``, so a person's stream is never a stratum's (section 11)
with the same name.

A *counterbalanced order* (section 14) takes the rows of a Williams design (a balanced
Latin square; for odd ``n`` the square and its mirror image), relabels the items and deals
the rows to the people in blocks, all from the seed's own stream: across each block every
item stands once in each position and every ordered pair of neighbours occurs equally often.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import EntryError, OptionError, SizeError
from .knuth import check_count, deal, permutation
from .protocol import PROTOCOL, DrawStream, as_stream, normalise_seed, resolve_source

__all__ = [
    "balanced_orders",
    "person_order",
    "person_orders",
    "person_stream",
    "williams_design",
]

_PERSON_DOMAIN = PROTOCOL.encode("ascii") + b"/person\x00"


class _PersonStream(DrawStream):
    """A person's sub-stream (section 13): a :class:`DrawStream` with its own key."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"person_stream({self.seed!r}, {self.label!r})"


def _id_bytes(person_id: object, index: int = 0) -> bytes:
    """The ID normalised as a seed is; a blank ID (none, empty or spaces) is refused."""
    if person_id is None or (isinstance(person_id, str) and not person_id.strip()):
        raise EntryError(index, "the ID is blank: give every person an ID")
    try:
        return normalise_seed(person_id)
    except ValueError as exc:
        raise EntryError(index, f"the ID {person_id!r} cannot be used: {exc}") from None


def person_stream(seed: object, person_id: object) -> DrawStream:
    """Return the sub-stream of one person, named by ``person_id`` (protocol section 13).

    Its key is ``SHA-256(b"xlshuffle/draw/v1/person\\x00" + key + b"\\x00" + id_bytes)``,
    with ``key`` the seed's key and ``id_bytes`` the ID normalised as a seed is (``42``,
    ``42.0`` and ``"42"`` are one ID). It depends only on the seed and the ID, never on how
    much of a stream passed as ``seed`` was used.

    Raises
    ------
    EntryError
        For a blank ID (``None``, empty or only spaces) or one no seed could be (``True``).
    OptionError
        For a source that is not a seed or a :class:`DrawStream`.

    Examples
    --------
    >>> s = person_stream("class 4B", "Ann")
    >>> s, s.seed_text
    (person_stream('class 4B', 'Ann'), 'class 4B')
    >>> person_stream(7, 42.0).key == person_stream(7, "42").key
    True
    """
    id_bytes = _id_bytes(person_id)
    parent = resolve_source(seed)
    if not isinstance(parent, DrawStream):
        raise OptionError(
            "a per-person order needs a seed (or a DrawStream) to derive each person's "
            f"sub-stream from, not a {type(parent).__name__}"
        )
    return parent.derive(_PERSON_DOMAIN, id_bytes, person_id, _PersonStream)


def _pool(items_or_n: Sequence[Any] | int) -> Sequence[Any]:
    if isinstance(items_or_n, int | float):
        return range(check_count("n", items_or_n))
    return items_or_n


def _count(k: int | None, n: int) -> int:
    if k is None:
        return n
    k = check_count("k", k)
    if k > n:
        raise SizeError(f"k = {k} is more than the {n} items: give k at most {n}")
    return k


def person_order(
    items_or_n: Sequence[Any] | int, person_id: object, *, seed: object, k: int | None = None
) -> list[Any]:
    """Return one person's order of the items: it depends only on the seed, the ID and ``n``.

    Parameters
    ----------
    items_or_n : sequence or int
        The items, or their number ``n`` (the order is then of ``0 .. n-1``).
    person_id : str, int, float or date
        The person's ID, normalised as a seed is (``42`` and ``"42"`` are one person).
    seed : str, int, float, date or DrawStream
        Seed of the draw protocol; the order comes from :func:`person_stream`.
    k : int, optional
        Only the first ``k`` places (a deal, section 5): always the prefix of the full
        order, so asking for more later keeps the first ``k``.

    Returns
    -------
    list
        The items in this person's order.

    Raises
    ------
    SizeError
        If ``k`` is more than the number of items.
    EntryError
        For a blank ID.

    Examples
    --------
    >>> person_order(["A", "B", "C", "D"], "Ann", seed="class 4B")
    ['C', 'A', 'D', 'B']
    >>> person_order(["A", "B", "C", "D"], "Ann", seed="class 4B", k=2)
    ['C', 'A']
    """
    pool = _pool(items_or_n)
    return deal(pool, _count(k, len(pool)), seed=person_stream(seed, person_id))


def _check_ids(ids: Sequence[object]) -> None:
    """Refuse a blank or repeated ID (by its normalised bytes), naming its position."""
    seen: dict[bytes, int] = {}
    for i, person_id in enumerate(ids):
        first = seen.setdefault(_id_bytes(person_id, i), i)
        if first != i:
            raise EntryError(
                i, f"the ID {person_id!r} is also item {first}'s: give each person one ID"
            )


def person_orders(
    items_or_n: Sequence[Any] | int, ids: Sequence[object], *, seed: object, k: int | None = None
) -> list[list[Any]]:
    """Return each person's order (:func:`person_order`), in the order of ``ids``.

    Blank and repeated IDs are refused (:class:`EntryError` naming the position), since
    two people with one ID would get the same order.

    Examples
    --------
    >>> person_orders(3, ["Ann", "Bo"], seed="class 4B")
    [[0, 2, 1], [0, 1, 2]]
    """
    _check_ids(ids)
    pool = _pool(items_or_n)
    q = _count(k, len(pool))
    stream = as_stream(seed)  # one fresh seed for everyone when none is given
    return [deal(pool, q, seed=person_stream(stream, pid)) for pid in ids]


def williams_design(n: int) -> list[list[int]]:
    """Return the rows of the Williams design of ``n`` items (before any randomisation).

    Row 0 is ``0, 1, n-1, 2, n-2, ...`` (position ``p`` odd holds ``(p + 1) // 2``,
    ``p >= 2`` even holds ``n - p // 2``); row ``i < n`` adds ``i`` modulo ``n``. For odd
    ``n`` the rows ``n .. 2n-1`` are rows ``0 .. n-1`` reversed. Each item stands once in
    each position of the first ``n`` rows; each ordered pair of different items is
    neighbours once (even ``n``) or twice over the ``2n`` rows (odd ``n``).

    Examples
    --------
    >>> williams_design(4)
    [[0, 1, 3, 2], [1, 2, 0, 3], [2, 3, 1, 0], [3, 0, 2, 1]]
    >>> len(williams_design(3))
    6
    """
    n = check_count("n", n)
    first = [0 if p == 0 else (p + 1) // 2 if p % 2 else n - p // 2 for p in range(n)]
    rows = [[(x + i) % n for x in first] for i in range(n)]
    if n % 2:
        rows += [row[::-1] for row in rows]
    return rows


def balanced_orders(
    items_or_n: Sequence[Any] | int,
    people: Sequence[object] | int,
    *,
    seed: object,
    k: int | None = None,
) -> list[list[Any]]:
    """Return counterbalanced orders: the rows of a randomised Williams design, one a person.

    From the seed's stream (protocol section 14): first a permutation ``relabel`` of
    ``0 .. n-1`` (design item ``x`` is item ``relabel[x]``); then, for each block of ``R``
    people (``R`` the design's row count: ``n``, or ``2n`` for odd ``n``), a permutation
    of ``0 .. R-1``; person ``j`` gets row ``block[j % R]`` of block ``j // R``. A block
    is drawn only when a person needs it, so adding people at the end never changes the
    earlier people's orders; every full block is a whole design.

    Parameters
    ----------
    items_or_n : sequence or int
        The items, or their number ``n``.
    people : sequence of IDs or int
        The people in the order rows are dealt (IDs are checked: none blank or repeated,
        but they do not change the draw), or their number.
    seed : str, int, float, date or DrawStream
        Seed of the draw protocol.
    k : int, optional
        Only the first ``k`` places of each order.

    Examples
    --------
    >>> balanced_orders(["A", "B", "C", "D"], ["Ann", "Bo", "Cy", "Di"], seed="class 4B")
    [['A', 'C', 'D', 'B'], ['D', 'A', 'B', 'C'], ['B', 'D', 'C', 'A'], ['C', 'B', 'A', 'D']]
    """
    if isinstance(people, int):
        count = check_count("the number of people", people)
    else:
        _check_ids(people)
        count = len(people)
    pool = _pool(items_or_n)
    n = len(pool)
    if n == 0:
        raise SizeError("there are no items to order: give at least one")
    q = _count(k, n)
    stream = as_stream(seed)
    relabel = permutation(n, seed=stream)
    design = williams_design(n)
    out: list[list[Any]] = []
    block: list[int] = []
    for j in range(count):
        if j % len(design) == 0:
            block = permutation(len(design), seed=stream)
        row = design[block[j % len(design)]]
        out.append([pool[relabel[x]] for x in row[:q]])
    return out
