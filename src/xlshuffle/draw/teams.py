"""Balanced teams: groups whose sizes and balancing values are spread evenly (section 16).

A *balanced deal* puts ``n`` people into ``k`` teams so that team sizes differ by at most
one and, for the balancing values, each value's count per team differs by at most one
across the teams. It is the classroom "stratified deal": shuffle the people, line them up
value by value, and deal the line round-robin into the teams, continuing the deal from one
value to the next. One *candidate* deal takes from the seed's own stream (step 3), in
this order:

1. ``perm``, the shuffle (section 5) of the people ``0 .. n-1``;
2. for each balancing column ``c`` in turn, and for each *block* of people who share the
   values of the columns before ``c`` (blocks in order of first appearance in the input;
   for the first column one block of everyone), the shuffle of the block's distinct values
   of column ``c`` (by canonical text, section 10; in order of first appearance);
3. ``relabel``, the shuffle of ``0 .. k-1``.

The line holds the people sorted by ``(rank of v_1, rank of v_2 in its block, ..., place
in perm)``; the person at place ``q`` of the line joins team ``relabel[q % k] + 1``.
Candidates are drawn one after another from the same stream until one has
:func:`excess` 0 (every later column within one too) or :data:`TRIES` were drawn; the
first with the smallest excess is the result. With one balancing column every candidate
has excess 0, so one candidate is drawn. Given an earlier split to *avoid*, a candidate's
score is ``(repeats, excess)`` (:func:`repeats`: pairs together again), compared in that
order, and the draw stops at ``(0, 0)``.

Guarantees (proof: a run of ``m`` consecutive places of the line holds each residue
modulo ``k`` either ``m // k`` or ``m // k + 1`` times, and ``relabel`` is a bijection):
the whole line is a run, so sizes differ by at most one; the people sharing the value of
the first column, or the values of the first two columns, ..., or of all columns, stand
in one run, so the count per team of each such value (or tuple of values) differs by at
most one. A later column alone is balanced only when some candidate achieves it (else the
least excess of the candidates drawn): not guaranteed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .errors import EntryError, SeedError, SizeError
from .knuth import check_count, durstenfeld
from .protocol import resolve_source
from .raffle import canonical_id

__all__ = ["balance_keys", "balanced_groups"]


def balance_keys(values: Sequence[object]) -> list[tuple[str, ...]]:
    """Each person's balancing key: the canonical text (section 10) of each value.

    A person's entry is one value (one balancing column) or a tuple or list of values,
    one per column; every person needs the same number. A blank value is the value ``""``
    (balanced like any other).

    Raises
    ------
    EntryError
        For a value no seed could be (a boolean, NaN), or a person with a different
        number of values than the first.

    Examples
    --------
    >>> balance_keys([" Girl", 7.0])
    [('Girl',), ('7',)]
    >>> balance_keys([("Boy", None), ("Girl", 3)])
    [('Boy', ''), ('Girl', '3')]
    """
    out: list[tuple[str, ...]] = []
    for i, entry in enumerate(values):
        parts = tuple(entry) if isinstance(entry, tuple | list) else (entry,)
        try:
            key = tuple(canonical_id(v) for v in parts)
        except SeedError:
            raise EntryError(
                i, f"{entry!r} cannot be a balancing value: use a text or a number"
            ) from None
        if out and len(key) != len(out[0]):
            raise EntryError(i, f"has {len(key)} balancing values, not {len(out[0])}")
        out.append(key)
    return out


#: The most candidate deals drawn when a later balancing column is off by more than one.
TRIES = 64


def excess(keys: Sequence[tuple[str, ...]], teams: Sequence[int], k: int) -> int:
    """How far the later balancing columns (the second on) are from balanced: for each
    such column and each of its values, ``max - min - 1`` of its counts over the ``k``
    teams when that is positive, summed. ``0``: every column is within one.

    Examples
    --------
    >>> excess([("F", "1"), ("F", "2"), ("M", "1"), ("M", "2")], [1, 2, 1, 2], 2)
    2
    """
    total = 0
    for c in range(1, len(keys[0]) if keys else 0):
        counts: dict[str, list[int]] = {}
        for key, team in zip(keys, teams, strict=True):
            counts.setdefault(key[c], [0] * k)[team - 1] += 1
        total += sum(max(max(per) - min(per) - 1, 0) for per in counts.values())
    return total


def repeats(before: Sequence[int | None], teams: Sequence[int]) -> int:
    """How many pairs of people are together in ``teams`` and were together in ``before``
    (an earlier split of the same people; ``None``: the person was in none).

    Examples
    --------
    >>> repeats([1, 1, 2, 2, None], [1, 1, 1, 2, 2])
    1
    """
    together: dict[tuple[int, int], int] = {}
    for old, new in zip(before, teams, strict=True):
        if old is not None:
            together[old, new] = together.get((old, new), 0) + 1
    return sum(c * (c - 1) // 2 for c in together.values())


def _deal(
    keys: Sequence[tuple[str, ...]],
    k: int,
    randbelow: Callable[[int], int],
    tries: int = TRIES,
    before: Sequence[int | None] | None = None,
) -> list[int]:
    """The balanced deal fed by any ``randbelow`` (the test seam): team numbers ``1 .. k``.

    Candidates are drawn one after another until one has score ``(0, 0)``, or ``tries``
    were drawn; the first with the least score is kept. The score is ``(repeats,
    excess)`` compared in that order: :func:`repeats` of ``before`` (0 without it), then
    :func:`excess`.
    """
    best: list[int] = []
    least: tuple[int, int] | None = None
    for _ in range(tries):
        teams = _candidate(keys, k, randbelow)
        score = (0 if before is None else repeats(before, teams), excess(keys, teams, k))
        if least is None or score < least:
            best, least = teams, score
        if score == (0, 0):
            break
    return best


def _candidate(
    keys: Sequence[tuple[str, ...]], k: int, randbelow: Callable[[int], int]
) -> list[int]:
    """One deal of section 16: shuffles, the line, the round-robin."""
    n = len(keys)
    perm = list(range(n))
    durstenfeld(perm, max(n - 1, 0), randbelow)
    columns = len(keys[0]) if keys else 0
    ranks: dict[tuple[str, ...], int] = {}  # (v_1, ..., v_c) -> rank of v_c in its block
    for c in range(columns):
        blocks: dict[tuple[str, ...], dict[str, None]] = {}  # in order of first appearance
        for key in keys:
            blocks.setdefault(key[:c], {})[key[c]] = None
        for prefix, values in blocks.items():
            drawn = list(values)
            durstenfeld(drawn, len(drawn) - 1, randbelow)
            ranks.update({(*prefix, value): r for r, value in enumerate(drawn)})
    relabel = list(range(k))
    durstenfeld(relabel, k - 1, randbelow)
    place = {person: p for p, person in enumerate(perm)}

    def order(person: int) -> tuple[int, ...]:
        key = keys[person]
        return (*(ranks[key[: c + 1]] for c in range(columns)), place[person])

    teams = [0] * n
    for q, person in enumerate(sorted(range(n), key=order)):
        teams[person] = relabel[q % k] + 1
    return teams


def balanced_groups(
    values: Sequence[object],
    k: int,
    *,
    seed: object = None,
    avoid: Sequence[int | None] | None = None,
) -> list[int]:
    """Split people into ``k`` teams balanced by their values (protocol section 16).

    Team sizes differ by at most one. For each value of the first balancing column (and
    each tuple of values of the first two, ..., of all columns) its count per team
    differs by at most one across the teams. A later column on its own is balanced on a
    best-effort basis only (see the module's text). Each person is in each team with
    chance exactly ``1/k``, and the draw's distribution is unchanged by renumbering the
    teams or by swapping two people whose values are all equal.

    Parameters
    ----------
    values : sequence
        Each person's balancing value, or a tuple of values (one per balancing column),
        in input order. Values are compared by canonical text (section 10: ``" Girl"``
        and ``"Girl"`` are one value, ``"girl"`` another; ``7`` and ``7.0`` one).
    k : int
        Number of teams, ``1 <= k <= len(values)`` (no people: any ``k >= 1``).
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol (see :func:`~xlshuffle.draw.knuth.shuffle`).
    avoid : sequence of int or None, optional
        Each person's team in an earlier split (``None``: in none). Candidates are then
        drawn until none puts together two people who were together (at most
        :data:`TRIES`); the first with the fewest such pairs (:func:`repeats`), then the
        least :func:`excess`, is kept. The balance guarantees hold all the same.

    Returns
    -------
    list of int
        The team number (``1 .. k``) of each person, in input order.

    Raises
    ------
    SizeError
        If ``k`` is less than 1 or more than the number of people.
    EntryError
        For a value that cannot be compared, or people with different numbers of values.

    See Also
    --------
    xlshuffle.draw.knuth.groups : teams without balancing values.

    Examples
    --------
    >>> balanced_groups(["F", "F", "M", "M", "F", "M"], 2, seed=42)
    [1, 2, 1, 2, 1, 2]
    >>> balanced_groups([("F", 1), ("F", 2), ("M", 1), ("M", 2)], 2, seed="class 4B")
    [1, 2, 2, 1]
    >>> balanced_groups(["F", "F", "M", "M"], 2, seed="class 4B", avoid=[1, 2, 2, 1])
    [1, 2, 1, 2]
    """
    k = check_count("k", k)
    keys = balance_keys(values)
    if k < 1:
        raise SizeError("k must be at least 1 team")
    if keys and k > len(keys):
        raise SizeError(
            f"cannot split {len(keys)} people into {k} teams: k must be at most {len(keys)}"
        )
    before = None if avoid is None else list(avoid)
    if before is not None and len(before) != len(keys):
        raise SizeError(
            f"avoid holds {len(before)} earlier teams for {len(keys)} people: give one each"
        )
    return _deal(keys, k, resolve_source(seed).randbelow, TRIES, before)
