"""The shared Knuth module: shuffles, deals, permutations and groups.

Every seeded function here runs the *forward Durstenfeld* shuffle of draw protocol v1
(step 5): for ``i = 0 .. n-2``, ``j = i + randbelow(n - i)``, swap positions ``i`` and
``j``. A deal of ``k`` is the same loop stopped after ``min(k, n-1)`` steps, so it is
always the prefix of the full shuffle with the same seed (the *prefix property*: raffle
winners drawn one at a time are the first places of the full draw order).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from typing import TypeVar

from .errors import SizeError
from .protocol import DrawStream, resolve_source

__all__ = [
    "check_count",
    "deal",
    "durstenfeld",
    "group_numbers",
    "groups",
    "permutation",
    "shuffle",
    "shuffle_prefix",
    "shuffled",
]

T = TypeVar("T")

# A deal of k from n swaps through a dict instead of copying all n items when k is
# this many times smaller than n: deal(range(10**9), 6) then costs six dict entries.
_SPARSE_FACTOR = 8


def durstenfeld(items: MutableSequence[T], steps: int, randbelow: Callable[[int], int]) -> None:
    """Forward Durstenfeld, in place, for ``steps`` steps, fed by any ``randbelow``.

    Balanced teams (:mod:`.teams`) shuffle with it from their own ``randbelow``, and
    exact-enumeration tests feed it every possible sequence of choices. Seeded calls take
    :meth:`DrawStream.durstenfeld`, which makes the same swaps.
    """
    n = len(items)
    for i in range(steps):
        j = i + randbelow(n - i)
        items[i], items[j] = items[j], items[i]


def shuffle_prefix(items: list[T], steps: int, seed: object) -> None:
    """Shuffle ``items`` in place for ``steps`` steps of Durstenfeld's shuffle: the first
    ``steps`` places get their final items, as the first ``steps`` of a whole shuffle do."""
    source = resolve_source(seed)
    if isinstance(source, DrawStream):
        source.durstenfeld(items, steps)
    else:
        durstenfeld(items, steps, source.randbelow)


def _sparse_prefix(n: int, k: int, seed: object) -> list[int]:
    """The first ``k`` positions of the shuffled ``range(n)``, touching only O(k) memory."""
    randbelow = resolve_source(seed).randbelow
    moved: dict[int, int] = {}
    out = []
    for i in range(min(k, n - 1)):
        j = i + randbelow(n - i)
        vi, vj = moved.get(i, i), moved.get(j, j)
        moved[j] = vi
        out.append(vj)
    if k == n:  # the last slot is never drawn for: it keeps what is left there
        out.append(moved.get(n - 1, n - 1))
    return out


def check_count(name: str, value: object) -> int:
    """``value`` as a count of things (``name`` in the message): a whole number, 0 or more
    (``3.0`` is 3), else :class:`~xlshuffle.draw.errors.SizeError`.

    >>> check_count("k", 3.0)
    3
    """
    try:
        n = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        if isinstance(value, float) and value.is_integer():
            n = int(value)
        else:
            raise SizeError(f"{name} must be a whole number, not {value!r}") from None
    if n < 0:
        raise SizeError(f"{name} must be 0 or more, not {n}")
    return n


def shuffle(items: MutableSequence[object], *, seed: object = None) -> None:
    """Shuffle a mutable sequence in place.

    Parameters
    ----------
    items : mutable sequence
        The list to shuffle. Every item is kept; only the order changes.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol. Same seed, same order, on any platform and Python
        version. ``None`` draws a fresh seed (use a :class:`DrawStream` to read it back).

    See Also
    --------
    shuffled : return a new list instead.

    Examples
    --------
    >>> cards = list(range(1, 11))
    >>> shuffle(cards, seed=42)
    >>> cards
    [9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
    """
    n = len(items)
    if isinstance(items, list):
        shuffle_prefix(items, max(n - 1, 0), seed)
        return
    work = list(items)  # shuffle a list, then write back: one code path for every sequence
    shuffle_prefix(work, max(n - 1, 0), seed)
    for i, item in enumerate(work):
        items[i] = item


def shuffled(items: Iterable[T], *, seed: object = None) -> list[T]:
    """Return a new list with the items of ``items`` in a random order.

    Parameters
    ----------
    items : iterable
        Anything iterable; a string shuffles its code points (use
        :func:`~xlshuffle.shuffle_text` to keep accented letters and emoji whole).
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`shuffle`).

    Returns
    -------
    list

    Examples
    --------
    >>> shuffled(range(1, 11), seed="42")
    [9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
    >>> "".join(shuffled("ABCDEFGHIJ", seed="2026 raffle"))
    'DJFECGAIHB'
    """
    work = list(items)
    shuffle_prefix(work, max(len(work) - 1, 0), seed)
    return work


def deal(items: Iterable[T], k: int, *, seed: object = None) -> list[T]:
    """Draw ``k`` items without replacement, in draw order.

    The result is always the first ``k`` items of :func:`shuffled` with the same seed,
    so the winners of a raffle can be split into first prize, second prize... by
    position, and drawing more later (a larger ``k``) keeps the earlier winners.

    Parameters
    ----------
    items : iterable
        The pool. A sequence (a list, a ``range``) is not copied when ``k`` is small,
        so ``deal(range(10**9), 6)`` is cheap.
    k : int
        How many to draw, ``0 <= k <= len(items)``.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`shuffle`).

    Returns
    -------
    list

    Raises
    ------
    SizeError
        If ``k`` is negative, not a whole number, or larger than the pool.

    Examples
    --------
    >>> deal(range(52), 5, seed="xlshuffle")
    [1, 41, 36, 20, 5]
    """
    k = check_count("k", k)
    pool: Sequence[T] = items if isinstance(items, Sequence) else list(items)
    n = len(pool)
    if k > n:
        raise SizeError(
            f"cannot draw {k} from {n} item{'s' if n != 1 else ''}: "
            f"k must be at most {n}; draw fewer or add items"
        )
    if k * _SPARSE_FACTOR < n:
        return [pool[p] for p in _sparse_prefix(n, k, seed)]
    work = list(pool)
    shuffle_prefix(work, min(k, n - 1) if n else 0, seed)
    return work[:k]


def permutation(n: int, *, seed: object = None) -> list[int]:
    """Return a random ordering of ``0 .. n-1``.

    Equal to ``shuffled(range(n), seed=seed)``. Item ``perm[p]`` of the original order
    is the one that lands at position ``p``.

    Parameters
    ----------
    n : int
        How many positions, ``n >= 0``.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`shuffle`).

    Examples
    --------
    >>> permutation(10, seed=42)
    [8, 9, 3, 4, 6, 5, 0, 1, 7, 2]
    """
    n = check_count("n", n)
    return shuffled(range(n), seed=seed)


def groups(n: int, k: int, *, seed: object = None) -> list[int]:
    """Assign each of ``n`` items to one of ``k`` groups of near-equal size.

    Position ``p`` of the shuffled order joins group ``p % k + 1``, so group sizes
    differ by at most one and the first groups get the extra members.

    Parameters
    ----------
    n : int
        Number of items (people, questions...), ``n >= 0``.
    k : int
        Number of groups, ``k >= 1``.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`shuffle`).

    Returns
    -------
    list of int
        The group number (``1 .. k``) of each item, in the items' original order.

    Examples
    --------
    >>> groups(10, 3, seed=42)
    [1, 2, 1, 3, 1, 3, 2, 3, 1, 2]
    """
    n = check_count("n", n)
    k = check_count("k", k)
    if k < 1:
        raise SizeError("k must be at least 1 group")
    return group_numbers(permutation(n, seed=seed), k)


def group_numbers(perm: Sequence[int], k: int) -> list[int]:
    """Group numbers from a drawn order: the item at position ``p`` joins ``p % k + 1``.

    The rule of :func:`groups`, for callers that also keep the permutation (a draw
    record). ``perm`` is a permutation of ``0 .. n-1`` as :func:`permutation` returns it.

    Examples
    --------
    >>> group_numbers([2, 0, 1, 3], 2)
    [2, 1, 1, 2]
    """
    out = [0] * len(perm)
    for p, item in enumerate(perm):
        out[item] = p % k + 1
    return out
