"""What every measurement of the lab shares: two type aliases and the name lookup."""

from __future__ import annotations

from collections.abc import Callable

from .classic import ALGORITHMS, Algorithm

__all__ = ["Perm", "Tick", "as_algorithm"]

#: An order of ``range(n)``: ``perm[p]`` is the item in slot ``p``.
Perm = tuple[int, ...]
#: Called once per step of work, e.g. ``Progress.advance``.
Tick = Callable[[], None]


def as_algorithm(alg: Algorithm | str) -> Algorithm:
    """Return ``alg`` itself, or the algorithm of :data:`ALGORITHMS` named so.

    Raises
    ------
    KeyError
        For a name that is not in :data:`ALGORITHMS`.
    """
    return ALGORITHMS[alg] if isinstance(alg, str) else alg
