"""The weighted draws people build by hand in a sheet, and their exact chances.

Two recipes for "draw ``k`` winners, more tickets more chances", as spreadsheet users
write them, beside the draw protocol's weighted draw (section 8):

Running totals and ``RANDBETWEEN``
    A column of running totals of the tickets, ``=RANDBETWEEN(1, total)`` and a lookup of
    the first running total at least that number; the formula copied down ``k`` times.
    Each draw is right (chance *weight / total*), but the draws are independent: nobody
    leaves the draw, so the same person can win twice (:func:`running_totals`).
Sort by ``RAND()*weight``
    A key column ``=RAND()*weight``, sorted largest first, top ``k`` win. A bigger weight
    stretches the key, but a key is uniform on ``[0, w]``, not "w tickets": the biggest
    weight wins far more often than its share (:func:`rand_key_chances`, exact, and
    :func:`rand_times_weight`, to sample). The key that *is* a raffle is ``RAND()^(1/w)``
    (Efraimidis and Spirakis, 2006).

Imported and documented through :mod:`xlshuffle.lab.raffles`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from fractions import Fraction
from itertools import accumulate, pairwise

from ..draw.protocol import Source

__all__ = ["rand_key_chances", "rand_times_weight", "running_totals"]

#: ``RAND()`` as a double: a whole number of ``2**-53`` steps in ``[0, 1)``.
RAND_STEPS = 1 << 53

Poly = list[Fraction]  # coefficients of u**0, u**1, ...


def running_totals(weights: Sequence[int], k: int, source: Source) -> list[int]:
    """``k`` independent ``RANDBETWEEN(1, total)`` lookups in the running totals.

    Each draw takes ``r = 1 + randbelow(total)`` and the first entrant whose running
    total is at least ``r`` (``MATCH(TRUE, totals >= r, 0)``): chance *weight / total*
    every time, so a winner can win again.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> running_totals([5, 3, 1, 1], 4, DrawStream("by hand"))  # entrant 3 won twice
    [1, 3, 3, 0]
    """
    totals = list(accumulate(weights))
    return [bisect_left(totals, 1 + source.randbelow(totals[-1])) for _ in range(k)]


def rand_times_weight(weights: Sequence[int], k: int, source: Source) -> list[int]:
    """Sort by ``RAND()*weight``, largest first, and take the top ``k`` (ties: input order).

    ``RAND()`` is modelled as a double, ``randbelow(2**53) / 2**53``, one per entrant.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> rand_times_weight([5, 3, 1, 1], 2, DrawStream("by hand"))
    [0, 2]
    """
    keys = [source.randbelow(RAND_STEPS) * w for w in weights]
    return sorted(range(len(weights)), key=lambda i: -keys[i])[:k]


# --------------------------------------------------------------------------- exact


def _mul(p: Poly, q: Poly) -> Poly:
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return out


def _add(p: Poly, q: Poly) -> Poly:
    if len(p) < len(q):
        p, q = q, p
    return [a + (q[i] if i < len(q) else 0) for i, a in enumerate(p)]


def _integral(p: Poly, a: Fraction, b: Fraction) -> Fraction:
    return sum((c * (b ** (i + 1) - a ** (i + 1)) / (i + 1) for i, c in enumerate(p)), Fraction(0))


def _fewer_than(k: int, beats: list[Poly]) -> Poly:
    """P(fewer than ``k`` of the independent events happen), each ``beats[j]`` a chance."""
    # counts[m]: P(exactly m of the events so far), a polynomial in u; m >= k is dropped.
    counts: list[Poly] = [[Fraction(1)]][:k]
    for p in beats:
        miss = _add([Fraction(1)], [-c for c in p])
        nxt: list[Poly] = [*(_mul(c, miss) for c in counts), []]
        for m, c in enumerate(counts):
            nxt[m + 1] = _add(nxt[m + 1], _mul(c, p))
        counts = nxt[:k]
    total: Poly = []
    for c in counts:
        total = _add(total, c)
    return total


def _top_k_chance(ws: Sequence[int], i: int, k: int) -> Fraction:
    """P(entrant ``i``, weight > 0, is among the ``k`` largest keys ``U_j * w_j``)."""
    wi = ws[i]
    others = [w for j, w in enumerate(ws) if j != i and w > 0]
    # Given U_i = u, entrant j beats i when U_j > u*wi/w_j: chance 1 - u*wi/w_j while
    # u < w_j/wi, then 0. Between consecutive breakpoints every chance is a polynomial.
    cuts = sorted({Fraction(w, wi) for w in others if w < wi} | {Fraction(0), Fraction(1)})
    chance = Fraction(0)
    for a, b in pairwise(cuts):
        beats = [[Fraction(1), Fraction(-wi, w)] for w in others if Fraction(w, wi) >= b]
        chance += _integral(_fewer_than(k, beats), a, b)
    return chance


def rand_key_chances(weights: Sequence[int], k: int) -> list[Fraction]:
    """Exact chance of each entrant to be among the top ``k`` when sorted by ``RAND()*weight``.

    ``RAND()`` is taken as exactly uniform on ``[0, 1)``; the chance is the integral over
    ``u`` of P(fewer than ``k`` others have a larger key, given ``U_i = u``), a piecewise
    polynomial integrated in exact fractions. Weight 0 gives the key 0: such an entrant
    is in the top ``k`` only if fewer than ``k`` others are ahead of it (all positive
    weights, and zeros before it in input order).

    Examples
    --------
    First place (``k = 1``) with weights ``[2, 1]``: ``1 - 1/4``, not ``2/3``.

    >>> [str(p) for p in rand_key_chances([2, 1], 1)]
    ['3/4', '1/4']
    >>> [str(p) for p in rand_key_chances([5, 3, 1, 1], 1)]
    ['41/60', '17/60', '1/60', '1/60']
    """
    ws = list(weights)
    positive = sum(1 for w in ws if w > 0)
    out = []
    for i, w in enumerate(ws):
        if w > 0:
            out.append(_top_k_chance(ws, i, k))
        else:  # key 0, ties broken by input order: ahead are the positives and earlier zeros
            ahead = positive + sum(1 for v in ws[:i] if v == 0)
            out.append(Fraction(1 if ahead < k else 0))
    return out
