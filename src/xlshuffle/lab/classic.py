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

This module is the specimens' documented home and holds their registry,
:data:`ALGORITHMS`; the shuffles themselves are written in two private modules, the fair
ones in ``fair`` and the biased ones (with the generators they run on) in ``biased``.

Examples
--------
>>> from xlshuffle import DrawStream
>>> durstenfeld_forward(range(1, 11), DrawStream("42"))
[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
>>> vba_int_rnd(range(8), VbaRnd())  # VBA's default start, as in a fresh Excel session
[7, 0, 2, 4, 1, 6, 3, 5]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..draw.protocol import Source
from .biased import (
    MsvcRand,
    VbaRnd,
    naive_swap,
    rand_mod,
    random_sort,
    random_swaps,
    vba_int_rnd,
)
from .fair import (
    durstenfeld_backward,
    durstenfeld_forward,
    fisher_yates,
    inside_out,
    rejection,
    swap_remove,
)

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
