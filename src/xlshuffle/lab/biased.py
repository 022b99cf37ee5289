"""The biased classic shuffles, and the old generators two of them run on.

:class:`MsvcRand` (C's ``rand()``) and :class:`VbaRnd` (VBA's ``Rnd``) reproduce those
generators exactly; :func:`rand_mod` and :func:`vba_int_rnd` shuffle with them as the
original code did. :func:`naive_swap`, :func:`random_swaps` and :func:`random_sort` are
wrong for any source. Imported and documented through :mod:`xlshuffle.lab.classic`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from ..draw.protocol import Source
from .fair import durstenfeld_backward

__all__ = [
    "MsvcRand",
    "VbaRnd",
    "naive_swap",
    "rand_mod",
    "random_sort",
    "random_swaps",
    "vba_int_rnd",
]

T = TypeVar("T")

# --------------------------------------------------------------------------- generators


class MsvcRand:
    """The C runtime ``rand()`` of Microsoft Visual C++: a 32-bit LCG with 15-bit output.

    ``seed = seed * 214013 + 2531011 (mod 2**32)``; ``rand() = (seed >> 16) & 0x7FFF``, so
    ``RAND_MAX`` is 32767. These are the constants of Microsoft's CRT (``srand(1)`` is the
    default start) as documented in its published source and reproduced in Numerical
    Recipes' survey of system generators. Bit 31 of the state never reaches bits 16..30,
    so only ``2**31`` different output sequences exist.

    As a source, :meth:`randbelow` answers ``rand() % m``: the textbook idiom, with its
    modulo bias (:func:`rand_mod`).

    Parameters
    ----------
    seed : int, optional
        The value given to ``srand``; 1 by default, like a program that never calls it.

    Examples
    --------
    >>> r = MsvcRand(1)
    >>> [r.rand() for _ in range(5)]
    [41, 18467, 6334, 26500, 19169]
    """

    RAND_MAX = 0x7FFF
    __slots__ = ("calls", "state")

    def __init__(self, seed: int = 1) -> None:
        self.state = seed & 0xFFFFFFFF
        self.calls = 0  # how many rand() values were used: the lab's "draws"

    def rand(self) -> int:
        """Return the next value in ``0 .. 32767``."""
        self.state = (self.state * 214013 + 2531011) & 0xFFFFFFFF
        self.calls += 1
        return (self.state >> 16) & 0x7FFF

    def randbelow(self, m: int, /) -> int:
        """Return ``rand() % m``: biased unless ``m`` divides 32768, never above 32767."""
        return self.rand() % m


class VbaRnd:
    """VBA's ``Rnd`` function: a 24-bit LCG returning multiples of ``2**-24``.

    ``x = (x * 1140671485 + 12820163) mod 2**24``; ``Rnd = x / 2**24``. This is the
    generator Microsoft documents in KB 231847 ("RAND and RND functions"); a fresh VBA
    session starts at ``x = 327680`` (``&H50000``), which is why an un-``Randomize``\\ d
    macro prints ``0.7055475`` first, as the seed article's worked example shows. The
    period is ``2**24`` (Hull-Dobell: the increment is odd, the multiplier is 1 mod 4), so
    any code seeded only through ``Rnd`` can reach at most 16,777,216 different shuffles.

    As a source, :meth:`randbelow` answers ``Int(Rnd * m)``, the VBA idiom.

    Parameters
    ----------
    state : int, optional
        The 24-bit state; ``327680`` (VBA's start-up state) by default.

    Examples
    --------
    >>> r = VbaRnd()
    >>> [f"{r.rnd():.7g}" for _ in range(3)]
    ['0.7055475', '0.533424', '0.5795186']
    """

    A = 1140671485
    C = 12820163
    BITS = 24
    __slots__ = ("_mask", "bits", "calls", "state")

    def __init__(self, state: int = 327680, *, bits: int = 24) -> None:
        # ``bits`` exists so tests can enumerate a small relative of the generator
        # (same constants mod 2**bits) completely; VBA itself is always 24.
        self.bits = bits
        self._mask = (1 << bits) - 1
        self.state = state & self._mask
        self.calls = 0

    def step(self) -> int:
        """Advance and return the new integer state ``x`` (``Rnd = x / 2**bits``)."""
        self.state = (self.state * self.A + self.C) & self._mask
        self.calls += 1
        return self.state

    def rnd(self) -> float:
        """Return the next ``Rnd`` value in ``[0, 1)``."""
        return self.step() / (1 << self.bits)

    def randbelow(self, m: int, /) -> int:
        """Return ``Int(Rnd * m)``, computed exactly as ``floor(x * m / 2**bits)``."""
        return (self.step() * m) >> self.bits


# --------------------------------------------------------------------------- biased


def naive_swap(items: Iterable[T], source: Source) -> list[T]:
    """Naive swap with any position: BIASED.

    For each ``i``, swap slot ``i`` with a uniform slot ``j`` over the *whole* range.
    There are ``n**n`` equally likely choice tuples and ``n!`` orders; ``n!`` does not
    divide ``n**n`` for ``n >= 3`` (``n - 1`` shares no factor with ``n``), so the orders
    cannot all be equally likely. For ``n = 3``: 27 tuples onto 6 orders as 4, 5, 5, 5,
    4, 4.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> naive_swap("ABCDE", DrawStream("42"))
    ['C', 'D', 'B', 'A', 'E']
    """
    a = list(items)
    n = len(a)
    for i in range(n):
        j = source.randbelow(n)
        a[i], a[j] = a[j], a[i]
    return a


def random_swaps(items: Iterable[T], source: Source, *, rounds: int | None = None) -> list[T]:
    """Swap two random positions, ``rounds`` times (``n`` by default): BIASED.

    The "just mix it a lot" method. With ``n`` rounds an item is left where it was with
    probability about ``(1 - 2/n)**n ~ e**-2 ~ 13.5%`` instead of ``1/n``. No number of
    rounds makes it exact: the ``n**(2 * rounds)`` tuples cannot split evenly over
    ``n!`` orders, since ``n!`` has a prime factor that ``n`` lacks (for ``n >= 3``).

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> random_swaps("ABCDE", DrawStream("42"))
    ['A', 'B', 'E', 'C', 'D']
    """
    a = list(items)
    n = len(a)
    for _ in range(n if rounds is None else rounds):
        i = source.randbelow(n)
        j = source.randbelow(n)
        a[i], a[j] = a[j], a[i]
    return a


def random_sort(items: Iterable[T], source: Source) -> list[T]:
    """Sort with a random comparator (a coin flip per comparison): BIASED.

    The ``sort(() => Math.random() - 0.5)`` idiom, here with a plain top-down merge sort
    so the result does not depend on a library's sort. Every outcome's probability is a
    sum of powers of 1/2, so it can never be ``1/3!`` = 1/6; and merge sort's early
    exits favour some orders strongly. O(n log n) draws.

    Examples
    --------
    >>> from xlshuffle import DrawStream
    >>> random_sort("ABCDE", DrawStream("42"))
    ['B', 'C', 'E', 'D', 'A']
    """
    a = list(items)

    def merge_sort(seq: list[T]) -> list[T]:
        if len(seq) <= 1:
            return seq
        mid = len(seq) // 2
        left, right = merge_sort(seq[:mid]), merge_sort(seq[mid:])
        out: list[T] = []
        i = j = 0
        while i < len(left) and j < len(right):
            if source.randbelow(2):  # "left < right?" answered by a coin
                out.append(left[i])
                i += 1
            else:
                out.append(right[j])
                j += 1
        out.extend(left[i:])
        out.extend(right[j:])
        return out

    return merge_sort(a)


def _msvc_from(source: Source) -> MsvcRand:
    return source if isinstance(source, MsvcRand) else MsvcRand(source.randbelow(1 << 32))


def _vba_from(source: Source) -> VbaRnd:
    return source if isinstance(source, VbaRnd) else VbaRnd(source.randbelow(1 << 24))


def rand_mod(items: Iterable[T], source: Source) -> list[T]:
    """Backward Durstenfeld with C's ``rand() % i`` and a 15-bit ``RAND_MAX``: BIASED.

    The seed article's ``Knuth_Durstenfeld_Shuffle`` on Microsoft's ``rand()``
    (:class:`MsvcRand`, seeded once from ``source`` like ``srand``). Two defects:
    *modulo bias*, since 32768 values cannot split evenly over ``i`` slots unless ``i``
    is a power of two (for 52 cards, slots 0..7 are 1/630 more likely than the rest;
    above 32768 items the high slots are never chosen at all); and *few deals*: the
    whole shuffle is fixed by the seed, and only ``2**31`` seeds differ.

    Examples
    --------
    >>> rand_mod("ABCDE", MsvcRand(1))
    ['C', 'A', 'E', 'D', 'B']
    """
    # The article's ``N = rand() % i; swap(numy[N], numy[i-1])`` is backward Durstenfeld
    # with a biased randbelow: the bias is all in the generator.
    return durstenfeld_backward(items, _msvc_from(source))


def vba_int_rnd(items: Iterable[T], source: Source) -> list[T]:
    """Backward Durstenfeld with VBA's ``Int(Rnd * n)``: BIASED (too few deals).

    The seed article's VBA loop on :class:`VbaRnd`, seeded once from ``source`` (as
    ``Randomize`` does). The loop itself is right; the generator is not: its 24-bit
    state fixes the whole shuffle, so at most ``2**24 = 16,777,216`` of the
    ``52! ~ 8.07e67`` deck orders can ever appear (repeated deals show up after a few
    thousand shuffles), and ``Int(Rnd * n)`` adds a tiny floor bias because ``2**24``
    values do not split evenly over ``n`` slots.

    Examples
    --------
    >>> vba_int_rnd(range(8), VbaRnd())
    [7, 0, 2, 4, 1, 6, 3, 5]
    """
    # ``X = Fix(Rnd * Y): Y = Y - 1: swap X, Y`` is backward Durstenfeld on Int(Rnd * Y).
    return durstenfeld_backward(items, _vba_from(source))
