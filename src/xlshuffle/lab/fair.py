"""The fair classic shuffles: every order of the items is exactly equally likely.

Each takes the items and a *source* (any object with ``randbelow(m)``) and returns a new
list. :func:`durstenfeld_forward` is :func:`xlshuffle.shuffled` itself; the others make
the same promise by other routes (see each docstring for the proof in one line).
Imported and documented through :mod:`xlshuffle.lab.classic`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from ..draw.knuth import shuffled
from ..draw.protocol import Source

__all__ = [
    "durstenfeld_backward",
    "durstenfeld_forward",
    "fisher_yates",
    "inside_out",
    "rejection",
    "swap_remove",
]

T = TypeVar("T")

# --------------------------------------------------------------------------- fair


def durstenfeld_backward(items: Iterable[T], source: Source) -> list[T]:
    """Backward Durstenfeld (Knuth's Algorithm P): fair, O(n), ``n - 1`` draws.

    For ``i = n-1`` down to ``1``, swap slot ``i`` with a uniform slot ``j`` in
    ``0 .. i``. Fair because the choices ``(j_{n-1}, ..., j_1)`` range over
    ``n * (n-1) * ... * 2 = n!`` equally likely tuples and each gives a different
    order: every order has probability exactly ``1/n!``.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> durstenfeld_backward("ABCDE", DrawStream("42"))
    ['E', 'B', 'A', 'C', 'D']
    """
    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        j = source.randbelow(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def durstenfeld_forward(items: Iterable[T], source: Source) -> list[T]:
    """Forward Durstenfeld, the draw protocol's own shuffle: fair, O(n), ``n - 1`` draws.

    For ``i = 0 .. n-2``, swap slot ``i`` with a uniform slot in ``i .. n-1``. Fair for
    the same counting reason as :func:`durstenfeld_backward`. Given a
    :class:`~xlshuffle.DrawStream` it returns exactly what :func:`xlshuffle.shuffled`
    returns for that seed.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> durstenfeld_forward("ABCDE", DrawStream("42"))
    ['D', 'A', 'C', 'E', 'B']
    """
    # The public path itself, so the lab measures (and times) what users run: a
    # DrawStream takes its buffered fast path, any other source the plain loop.
    return shuffled(items, seed=source)


def inside_out(items: Iterable[T], source: Source) -> list[T]:
    """The inside-out shuffle: fair, O(n), ``n`` draws; builds a shuffled copy.

    For each new item ``i``, pick ``j`` uniform in ``0 .. i``, move the item at ``j`` to
    the end and put the new item at ``j``. By induction the first ``i + 1`` slots are a
    uniform order of the first ``i + 1`` items; the ``n!`` choice tuples map one-to-one
    onto the orders.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> inside_out("ABCDE", DrawStream("42"))
    ['C', 'A', 'B', 'E', 'D']
    """
    src = list(items)
    a: list[T] = []
    for i, item in enumerate(src):
        j = source.randbelow(i + 1)
        a.append(item)
        a[i], a[j] = a[j], item
    return a


def fisher_yates(items: Iterable[T], source: Source) -> list[T]:
    """The original pencil-and-paper Fisher-Yates (1938): fair, but O(n^2).

    Pick a uniform item among those left, write it down, strike it out, repeat. Fair:
    ``n!`` equally likely choice tuples, one per order. Striking out means shifting the
    rest of the list, so the time grows with ``n**2`` (the reason Durstenfeld swapped
    instead, 1964).

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> fisher_yates("ABCDE", DrawStream("42"))
    ['D', 'C', 'A', 'E', 'B']
    """
    left = list(items)
    return [left.pop(source.randbelow(len(left))) for _ in range(len(left))]


def swap_remove(items: Iterable[T], source: Source) -> list[T]:
    """Fisher-Yates with swap-remove (the seed article's VB.NET ``GetCards``): fair, O(n).

    Pick a uniform index of the remaining deck, output that card, and move the last
    remaining card into its slot so the deck stays contiguous. Same choices and
    fairness as :func:`fisher_yates`, without the O(n) shift.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> swap_remove("ABCDE", DrawStream("42"))
    ['D', 'C', 'A', 'B', 'E']
    """
    deck = list(items)
    out = []
    for left in range(len(deck), 0, -1):
        d = source.randbelow(left)
        out.append(deck[d])
        deck[d] = deck[left - 1]
    return out


_EMPTY = object()


def rejection(items: Iterable[T], source: Source) -> list[T]:
    """ "Check for duplicates": draw random slots until an empty one turns up. Fair, slow.

    The seed article's VB6 ``ShuffleDeck``: for each card in turn, draw a uniform slot
    of the whole deck and retry while it is taken. Fair: a retry changes nothing, so the
    accepted slot is uniform over the empty ones. Slow: filling the last slots is the
    coupon collector's problem, ``n * H(n) ~ n ln n`` draws on average (about 236 for 52
    cards), with no upper bound on a single run.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> rejection("ABCDE", DrawStream("42"))
    ['B', 'E', 'D', 'A', 'C']
    """
    src = list(items)
    n = len(src)
    slots: list[object] = [_EMPTY] * n
    for item in src:
        s = source.randbelow(n)
        while slots[s] is not _EMPTY:
            s = source.randbelow(n)
        slots[s] = item
    return slots  # type: ignore[return-value]  # every slot now holds an item
