"""Stratified draws: each stratum drawn from its own sub-stream (protocol section 11).

Rows are grouped by their stratum label, strata in order of first appearance. Each
stratum draws from ``DrawStream(seed).substream(label)``, which depends only on the seed
and the label, over its own rows in input order: so adding rows to one stratum, or adding
a stratum, never changes another stratum's result (with a fixed count per stratum).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from .errors import EntryError, OptionError, SeedError, SizeError
from .knuth import check_count, deal
from .protocol import Source, normalise_seed, resolve_source
from .weighted import check_weights, weighted_sample

__all__ = ["Stratum", "proportional_allocation", "stratified_sample"]


class Stratum(NamedTuple):
    """One stratum's draw: its label (as first given), how many rows it has, and the
    drawn rows' 0-based indexes (into the whole list) in draw order."""

    label: object
    size: int
    drawn: list[int]


def proportional_allocation(sizes: Sequence[int], total: int) -> list[int]:
    """Share ``total`` among strata in proportion to their sizes (largest remainder).

    Stratum ``i`` of ``n_i`` rows, out of ``N``, first gets ``total * n_i // N``; the
    units left over go one each to the strata with the largest remainders
    ``total * n_i % N``, ties to the stratum that appears first. Exact integers only.

    Raises
    ------
    SizeError
        If ``total`` is more than ``N``.

    Examples
    --------
    >>> proportional_allocation([5, 3, 2], 5)
    [3, 1, 1]
    """
    total = check_count("total", total)
    n = sum(sizes)
    if total > n:
        raise SizeError(f"cannot draw {total} from {n} rows: total must be at most {n}")
    if n == 0:
        return [0] * len(sizes)
    shares = [total * size // n for size in sizes]
    leftover = total - sum(shares)
    by_remainder = sorted(range(len(sizes)), key=lambda i: (-(total * sizes[i] % n), i))
    for i in by_remainder[:leftover]:
        shares[i] += 1
    return shares


def _group(labels: Sequence[object]) -> tuple[list[object], list[bytes], list[list[int]]]:
    """Strata in order of first appearance: labels as given, their bytes, their rows."""
    where: dict[bytes, int] = {}
    firsts: list[object] = []
    keys: list[bytes] = []
    rows: list[list[int]] = []
    for i, label in enumerate(labels):
        try:
            key = normalise_seed(label)
        except SeedError:
            raise EntryError(
                i, f"the stratum label {label!r} cannot be used: give every row a text or number"
            ) from None
        s = where.setdefault(key, len(keys))
        if s == len(keys):
            firsts.append(label)
            keys.append(key)
            rows.append([])
        rows[s].append(i)
    return firsts, keys, rows


def stratified_sample(
    labels: Sequence[object],
    *,
    k: int | None = None,
    counts: Mapping[object, int] | None = None,
    total: int | None = None,
    weights: Sequence[object] | None = None,
    take_all: bool = False,
    seed: object = None,
) -> list[Stratum]:
    """Draw from each stratum on its own: the same ``k`` each, given counts, or a share.

    Parameters
    ----------
    labels : sequence
        Each row's stratum label, a text or number (``42``, ``42.0`` and ``"42"`` are the
        same stratum; texts are compared after Unicode NFC, spaces kept).
    k : int, optional
        Draw ``k`` from every stratum.
    counts : mapping of label to int, optional
        Draw ``counts[label]`` from each stratum; every stratum needs a count (0 leaves it
        out) and every count a stratum.
    total : int, optional
        Draw ``total`` in all, shared in proportion to the strata's row counts by
        :func:`proportional_allocation`.
    weights : sequence of int, optional
        Ticket counts per row: each stratum then runs
        :func:`~xlshuffle.draw.weighted.weighted_sample` over its rows instead of
        :func:`~xlshuffle.draw.knuth.deal`.
    take_all : bool, optional
        A stratum with fewer rows (with tickets, when weighted) than its count gives all
        of them, in drawn order, instead of being refused.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol; each stratum uses ``stream.substream(label)``.

    Returns
    -------
    list of Stratum
        One per stratum, in order of first appearance.

    Raises
    ------
    OptionError
        Unless exactly one of ``k``, ``counts`` and ``total`` is given; for counts that
        do not match the strata; for a source that cannot make sub-streams.
    SizeError
        When a stratum has fewer rows than its count (``take_all`` allows it), naming it.
    EntryError
        For a blank, boolean or otherwise unusable label, naming its row.

    Examples
    --------
    >>> labels = ["N", "S", "N", "N", "S", "N"]
    >>> for s in stratified_sample(labels, k=2, seed="2026 raffle"):
    ...     print(s.label, s.size, s.drawn)
    N 4 [3, 5]
    S 2 [1, 4]
    """
    if sum(x is not None for x in (k, counts, total)) != 1:
        raise OptionError("give exactly one of k (per stratum), counts or total")
    firsts, keys, rows = _group(labels)
    sizes = [len(r) for r in rows]
    ws = None
    if weights is not None:
        if len(weights) != len(labels):
            raise SizeError(f"{len(weights)} weights for {len(labels)} rows: give one per row")
        ws = check_weights(weights)
    if total is not None:
        wanted = proportional_allocation(sizes, total)
    elif counts is not None:
        wanted = _match_counts(counts, firsts, keys)
    else:
        wanted = [check_count("k", k)] * len(keys)
    substream = _substreams(seed)
    out = []
    for label, own, q in zip(firsts, rows, wanted, strict=True):
        own_ws = None if ws is None else [ws[i] for i in own]
        can = len(own) if own_ws is None else len(own) - own_ws.count(0)
        if q > can:
            if not take_all:
                what = "rows" if own_ws is None else "rows with tickets"
                raise SizeError(
                    f"stratum {label!r} has {can} {what}, fewer than the {q} asked for: "
                    "ask for fewer, or take_all=True to take all of them"
                )
            q = can
        source = substream(label)
        if own_ws is None:
            drawn = deal(own, q, seed=source)
        else:
            drawn = [own[p] for p in weighted_sample(own_ws, q, seed=source)]
        out.append(Stratum(label, len(own), drawn))
    return out


def _match_counts(
    counts: Mapping[object, int], firsts: list[object], keys: list[bytes]
) -> list[int]:
    by_key: dict[bytes, int] = {}
    for label, count in counts.items():
        try:
            key = normalise_seed(label)
        except SeedError:
            raise OptionError(f"counts names the stratum {label!r}, which is no label") from None
        if key not in keys:
            raise OptionError(
                f"counts names the stratum {label!r}, which no row has: check its spelling"
            )
        by_key[key] = check_count(f"the count of stratum {label!r}", count)
    missing = [label for label, key in zip(firsts, keys, strict=True) if key not in by_key]
    if missing:
        raise OptionError(
            f"counts has no count for stratum {missing[0]!r}: give one (0 leaves it out)"
        )
    return [by_key[key] for key in keys]


def _substreams(seed: object) -> Callable[[object], Source]:
    source = resolve_source(seed)
    substream = getattr(source, "substream", None)
    if substream is None:
        raise OptionError(
            "a stratified draw needs a seed (or a DrawStream) to derive each stratum's "
            f"sub-stream from, not a {type(source).__name__}"
        )
    return substream  # type: ignore[no-any-return]
