"""The classic shuffles, fair and biased, side by side: the fairness lab's specimens.

Every function here takes the same two arguments: the items and a *source*, any object
with ``randbelow(m)`` returning an integer in ``0 .. m-1`` (a :class:`~xlshuffle.DrawStream`,
a :class:`~xlshuffle.SystemSource`, or a scripted test double). Each returns a new list and
leaves ``items`` alone.

The fair ones ask the source only for uniform indices. The two that reproduce old
generators (:func:`rand_mod` and :func:`vba_int_rnd`) ask the source for one thing, a seed
for their own generator (as ``srand(time(0))`` or ``Randomize`` would), and then use that
generator exactly as the original code did; pass a :class:`MsvcRand` or :class:`VbaRnd`
directly to drive them from a given generator state.

None of these is what :func:`xlshuffle.shuffle` runs in production: it runs the forward
Durstenfeld shuffle of draw protocol v1, which :func:`durstenfeld_forward` reproduces
exactly (same seed, same order).

Examples
--------
>>> from xlshuffle import DrawStream
>>> durstenfeld_forward(range(1, 11), DrawStream("42"))
[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
>>> vba_int_rnd(range(8), VbaRnd())  # VBA's default start, as in a fresh Excel session
[7, 0, 2, 4, 1, 6, 3, 5]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..draw.knuth import shuffled
from ..draw.protocol import Source

__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "MsvcRand",
    "VbaRnd",
    "durstenfeld_backward",
    "durstenfeld_forward",
    "fisher_yates",
    "inside_out",
    "naive_swap",
    "rand_mod",
    "random_sort",
    "random_swaps",
    "rejection",
    "swap_remove",
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


# --------------------------------------------------------------------------- registry


def _residue_counts(m: int) -> list[int]:
    """How many of the 32768 ``rand()`` values give each ``rand() % m``."""
    q, r = divmod(MsvcRand.RAND_MAX + 1, m)
    return [q + 1 if v < r else q for v in range(m)]


def _floor_counts(m: int, bits: int = VbaRnd.BITS) -> list[int]:
    """How many of the ``2**bits`` states give each ``Int(Rnd * m) = floor(x * m / 2**bits)``."""
    size = 1 << bits
    # x gives v when v * size <= x * m < (v + 1) * size, i.e. x in [ceil(v*size/m), ...)
    edges = [-(-v * size // m) for v in range(m + 1)]
    return [edges[v + 1] - edges[v] for v in range(m)]


@dataclass(frozen=True)
class Algorithm:
    """One specimen of the lab: a shuffle plus what is known about it.

    Attributes
    ----------
    name : str
        Short name used by the command line (``xlshuffle fairness --algorithms``).
    title : str
        Human name for tables and plots.
    fair : bool
        Whether every order is exactly equally likely (proved, not measured).
    why : str
        One line saying why.
    complexity : str
        Time for ``n`` items.
    run : callable
        ``run(items, source) -> list``: the shuffle itself.
    core : callable
        ``core(items, randbelow_source) -> list`` with every index drawn from the given
        source; equal to ``run`` except for :func:`rand_mod` and :func:`vba_int_rnd`,
        whose ``core`` takes their generator's biased picks directly.
    pick_counts : callable or None
        For the generator-driven methods, ``pick_counts(m)`` gives how many of the
        generator's outputs produce each answer ``0 .. m-1``: the exact model of one
        draw when successive outputs are treated as independent. ``None`` means the
        draws are uniform.
    """

    name: str
    title: str
    fair: bool
    why: str
    complexity: str
    run: Callable[[Sequence[object], Source], list[object]]
    core: Callable[[Sequence[object], Source], list[object]]
    pick_counts: Callable[[int], list[int]] | None = None

    def __call__(self, items: Sequence[object], source: Source) -> list[object]:
        return self.run(items, source)


def _spec(
    name: str,
    title: str,
    fair: bool,
    why: str,
    complexity: str,
    run: Callable[[Sequence[object], Source], list[object]],
    core: Callable[[Sequence[object], Source], list[object]] | None = None,
    pick_counts: Callable[[int], list[int]] | None = None,
) -> Algorithm:
    return Algorithm(name, title, fair, why, complexity, run, core or run, pick_counts)


#: Every specimen, fair ones first, in the order tables and plots show them.
ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        _spec(
            "forward",
            "Durstenfeld, forward (xlshuffle)",
            True,
            "n! choice tuples, one per order",
            "O(n)",
            durstenfeld_forward,
        ),
        _spec(
            "backward",
            "Durstenfeld, backward",
            True,
            "n! choice tuples, one per order",
            "O(n)",
            durstenfeld_backward,
        ),
        _spec(
            "inside-out",
            "Inside-out",
            True,
            "n! choice tuples, one per order",
            "O(n)",
            inside_out,
        ),
        _spec(
            "fisher-yates",
            "Fisher-Yates, pencil and paper",
            True,
            "n! choice tuples, one per order",
            "O(n^2)",
            fisher_yates,
        ),
        _spec(
            "swap-remove",
            "Fisher-Yates, swap-remove",
            True,
            "n! choice tuples, one per order",
            "O(n)",
            swap_remove,
        ),
        _spec(
            "rejection",
            "Check for duplicates (retry)",
            True,
            "a retry changes nothing: uniform over empty slots",
            "O(n log n)",
            rejection,
        ),
        _spec(
            "naive-swap",
            "Naive swap with any position",
            False,
            "n^n tuples cannot split evenly over n! orders",
            "O(n)",
            naive_swap,
        ),
        _spec(
            "random-swaps",
            "Swap two random positions n times",
            False,
            "too few mixes; n^2n tuples cannot split evenly",
            "O(n)",
            random_swaps,
        ),
        _spec(
            "random-sort",
            "Sort with a random comparator",
            False,
            "coin-flip probabilities; merge sort favours orders",
            "O(n log n)",
            random_sort,
        ),
        _spec(
            "rand-mod",
            "C rand() % n, RAND_MAX 32767",
            False,
            "modulo bias; only 2^31 seeds",
            "O(n)",
            rand_mod,
            durstenfeld_backward,
            _residue_counts,
        ),
        _spec(
            "vba-rnd",
            "VBA Int(Rnd * n)",
            False,
            "24-bit state: at most 2^24 deals",
            "O(n)",
            vba_int_rnd,
            durstenfeld_backward,
            _floor_counts,
        ),
    )
}
