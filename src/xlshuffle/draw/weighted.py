"""Weighted draws without replacement: raffle tickets, one win each (protocol section 8).

Each draw picks among the entrants still in the draw with chance *weight / remaining
total* (successive sampling). The weights are reduced by their GCD first, so ``[2, 4]``
and ``[1, 2]`` are the same draw; then each draw takes ``r = randbelow(T)`` and the
remaining entrant, in input order, whose ticket range ``[c, c + w)`` holds ``r`` wins and
leaves. A Fenwick (binary indexed) tree finds that entrant and removes it in O(log n).

Inclusion chances are *not* proportional to the weights (an entrant with half of all
tickets is not drawn with chance 1/2 in a draw of two): that is what a raffle wants.
An audit that wants chances proportional to size uses
:func:`~xlshuffle.draw.audit.monetary_unit_sample`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable
from itertools import accumulate

from .errors import EntryError, SizeError
from .knuth import check_count
from .protocol import resolve_source

__all__ = ["check_weights", "reduce_weights", "weighted_sample"]

_TWO64 = 1 << 64


def check_weights(weights: Iterable[object], what: str = "a weight") -> list[int]:
    """The weights (or amounts) as ints >= 0, or EntryError naming the first bad one.

    Weighted draws, strata and the monetary-unit audit (its amounts) all check with it.
    """
    given = list(weights)
    if set(map(type, given)) <= {int}:  # the common case, checked at C speed
        ws: list[int] = given  # type: ignore[assignment]
    else:
        ws = [_weight(i, w, what) for i, w in enumerate(given)]
    if ws and min(ws) < 0:
        i = next(i for i, w in enumerate(ws) if w < 0)
        raise EntryError(i, f"{what} cannot be negative ({ws[i]}): use 0 to leave it out")
    return ws


def _weight(index: int, value: object, what: str) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    helper = "parse_weights" if what == "a weight" else "parse_amounts"
    raise EntryError(
        index,
        f"{what} must be a whole number, not {value!r}: turn texts and decimals into "
        f"whole numbers with {helper}",
    )


def reduce_weights(weights: Iterable[object]) -> list[int]:
    """Return the weights divided by their greatest common divisor (protocol section 8).

    This is the first step of :func:`weighted_sample`: weights that are multiples of one
    another give the same draw. All zeros (or none) stay as they are.

    Raises
    ------
    EntryError
        For a negative weight or one that is not a whole number.

    Examples
    --------
    >>> reduce_weights([10, 20, 0, 30])
    [1, 2, 0, 3]
    """
    ws = check_weights(weights, "a weight")
    g = math.gcd(*ws)
    if g > 1:
        ws = list(map(g.__rfloordiv__, ws))
    return ws


def weighted_sample(weights: Iterable[object], k: int, *, seed: object = None) -> list[int]:
    """Draw ``k`` entrants without replacement, each draw proportional to remaining tickets.

    Parameters
    ----------
    weights : iterable of int
        Each entrant's ticket count, a whole number ``>= 0`` (``3.0`` is 3); an entrant
        with 0 tickets never wins. Texts and decimals:
        :func:`~xlshuffle.draw.values.parse_weights` first.
    k : int
        How many winners, at most the number of entrants with tickets.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`~xlshuffle.draw.knuth.shuffle`).

    Returns
    -------
    list of int
        The winners' 0-based indexes, in draw order.

    Raises
    ------
    SizeError
        If ``k`` is more than the entrants with tickets, or the total tickets (after the
        GCD reduction) exceed ``2**64``.
    EntryError
        For a negative weight or one that is not a whole number.

    Notes
    -----
    Each draw is proportional to the tickets of the entrants *still in the draw*, so an
    entrant's chance of being among the ``k`` winners is not proportional to its weight:
    with weights ``[2, 1, 1]`` and ``k = 2`` the first entrant wins with chance 5/6, not
    2/2. That is a raffle. For chances proportional to size (an audit's PPS selection) use
    :func:`~xlshuffle.draw.audit.monetary_unit_sample`.

    The draw is usable prefix by prefix: the first 3 winners of ``k = 10`` are the
    winners of ``k = 3``, so reserves are simply the next ones drawn
    (:func:`~xlshuffle.draw.raffle.placings`).
    Equal weights do not give the same order as :func:`~xlshuffle.draw.knuth.deal` (the
    two rules differ); both are uniform.

    Examples
    --------
    >>> weighted_sample([1, 5, 0, 2, 2], 3, seed="2026 raffle")
    [1, 3, 4]
    >>> weighted_sample([10, 50, 0, 20, 20], 2, seed="2026 raffle")
    [1, 3]
    """
    k = check_count("k", k)
    ws = reduce_weights(weights)
    positive = len(ws) - ws.count(0)
    if k > positive:
        raise SizeError(
            f"cannot draw {k} winners: only {positive} entrant{'s' if positive != 1 else ''} "
            f"{'have' if positive != 1 else 'has'} tickets, so at most {positive} can win; "
            "draw fewer or add entrants"
        )
    if sum(ws) > _TWO64:
        raise SizeError(
            f"the tickets add up to {sum(ws)}, more than 2**64 after dividing by their common "
            "divisor: use fewer decimal places or smaller counts"
        )
    if k == 0:
        return []
    return _successive(ws, k, resolve_source(seed).randbelow)


def _successive(ws: list[int], k: int, randbelow: Callable[[int], int]) -> list[int]:
    """The draw of section 8 on reduced weights ``ws`` (modified), fed by any ``randbelow``.

    The test seam: exact-enumeration tests feed it every sequence of choices, and a
    property test holds its picks equal to the document's linear walk.
    """
    n = len(ws)
    # A Fenwick tree over the *remaining* weights, node i (1-based) covering entrants
    # i - lowbit(i) .. i - 1. Built lazily: a node is the prefix-sum difference of the
    # original weights (prefix is built at C speed) less what `removed`, a Fenwick tree of
    # the weights drawn so far, holds there. So building costs one accumulate, not a Python
    # loop over a million entrants, and each draw is still O(log n).
    prefix = [0, *accumulate(ws)]
    removed = [0] * (n + 1)
    total = prefix[-1]
    top = 1 << (n.bit_length() - 1)
    out = []
    for _ in range(k):
        r = randbelow(total)
        # Descend to the largest pos whose remaining prefix is <= r: entrant pos holds r.
        # In the descent pos is a multiple of 2 * step, so node nxt covers pos .. nxt - 1.
        pos, step = 0, top
        while step:
            nxt = pos + step
            if nxt <= n:
                node = prefix[nxt] - prefix[pos] - removed[nxt]
                if node <= r:
                    pos = nxt
                    r -= node
            step >>= 1
        w = ws[pos]
        out.append(pos)
        ws[pos] = 0
        total -= w
        i = pos + 1
        while i <= n:
            removed[i] += w
            i += i & -i
    return out
