"""Block allocation lists for trials: permuted blocks, per stratum (protocol section 15).

Each stratum combination (one value of every stratum factor) gets its own sequence, drawn
from its own *allocation sub-stream*, which depends only on the seed and the combination's
label (``"site=North|sex=F"``; ``""`` without strata). A sequence is a run of blocks: each
block's size is drawn from the allowed sizes, and the block holds the arms exactly in the
ratio (2:1 in a block of 6: A A A A B B), in an order drawn by Fisher-Yates (section 5).
Blocks are added until the sequence has at least ``n`` rows; the last block is complete, so
a sequence may be longer than ``n`` and a trial uses its first ``n`` rows (as blockrand and
REDCap-style lists do).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from .errors import OptionError, SeedError, SizeError
from .knuth import check_count, shuffle_prefix
from .protocol import PROTOCOL, DrawStream, Source, as_stream, normalise_seed

__all__ = [
    "MAX_BLOCK_SIZE",
    "MAX_ROWS",
    "AllocationRow",
    "allocation_label",
    "allocation_list",
    "allocation_stream",
    "stratum_combinations",
]

_DOMAIN = PROTOCOL.encode("ascii") + b"/allocation\x00"
_CODE_DOMAIN = PROTOCOL.encode("ascii") + b"/allocation-code\x00"
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # base32 without I, L, O, U

#: The largest block allowed: trials use blocks of 2 to 12; a typo (60 for 6) is refused.
MAX_BLOCK_SIZE = 1000
#: The most rows one list may hold, over all stratum combinations.
MAX_ROWS = 1_000_000


class AllocationRow(NamedTuple):
    """One row of an allocation list.

    ``seq`` counts from 1 within its stratum combination, ``strata`` holds that
    combination's values (texts, in the factors' order; empty without strata), ``block``
    counts the combination's blocks from 1, ``block_size`` is that block's size, ``arm``
    the arm's name and ``code`` the row's concealment code (section 15).
    """

    seq: int
    strata: tuple[str, ...]
    block: int
    block_size: int
    arm: str
    code: str


def _text(value: object, what: str) -> str:
    """A name or value as canonical text: NFC, outer spaces removed; numbers as section 1."""
    if isinstance(value, str):
        text = unicodedata.normalize("NFC", value).strip()
    else:
        try:
            text = normalise_seed(value).decode("utf-8")
        except SeedError:
            raise OptionError(f"{what} {value!r} is not a text or a number") from None
    if not text:
        raise OptionError(f"{what} is blank: give it a name")
    return text


def _arms(arms: Iterable[object]) -> list[str]:
    names = [_text(a, "an arm name") for a in arms]
    if len(names) < 2:
        raise OptionError(f"give at least two arms, not {len(names)}: for example arms=['A', 'B']")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise OptionError(f"the arm {name!r} is named twice: give each arm once")
        seen.add(name)
    return names


def _ratio(ratio: Sequence[object] | None, arms: int) -> list[int]:
    """The ratio as whole numbers of at least 1, one per arm, divided by their GCD."""
    if ratio is None:
        return [1] * arms
    if len(ratio) != arms:
        raise OptionError(f"the ratio has {len(ratio)} parts for {arms} arms: give one per arm")
    parts = [check_count("each part of the ratio", r) for r in ratio]
    if min(parts) < 1:
        raise OptionError("a part of the ratio is 0: give every arm 1 or more, or leave it out")
    g = math.gcd(*parts)
    return [p // g for p in parts]


def _block_sizes(sizes: Iterable[object], ratio: list[int]) -> list[int]:
    total, out = sum(ratio), []
    for s in sizes:
        size = check_count("a block size", s)
        if size < 1 or size % total:
            raise OptionError(
                f"the block size {size} is not a multiple of {total}, the sum of the ratio "
                f"{':'.join(map(str, ratio))}: use sizes such as {total} and {2 * total}"
            )
        if size > MAX_BLOCK_SIZE:
            raise OptionError(
                f"the block size {size} is more than {MAX_BLOCK_SIZE}: use blocks of a few "
                "times the ratio's sum"
            )
        if size in out:
            raise OptionError(f"the block size {size} is given twice: give each size once")
        out.append(size)
    if not out:
        raise OptionError(f"give at least one block size, a multiple of {total}")
    return out


def stratum_combinations(
    strata: Mapping[str, Sequence[object]] | Sequence[tuple[str, Sequence[object]]] | None,
) -> tuple[list[str], list[tuple[str, ...]]]:
    """The stratum factors' names and every combination of their values, first factor slowest.

    Names and values are canonical texts (NFC, outer spaces removed; numbers as section 1
    writes them). A name may not hold ``=`` or ``|``, a value not ``|``, so each
    combination's label names it alone. Without strata: no names, one empty combination.

    Examples
    --------
    >>> stratum_combinations({"site": ["N", "S"], "sex": ["F", "M"]})
    (['site', 'sex'], [('N', 'F'), ('N', 'M'), ('S', 'F'), ('S', 'M')])
    """
    pairs = list(strata.items()) if isinstance(strata, Mapping) else list(strata or ())
    names: list[str] = []
    levels: list[list[str]] = []
    for name, values in pairs:
        name = _text(name, "a stratum name")
        if "=" in name or "|" in name or name in names:
            raise OptionError(f"the stratum name {name!r} is repeated or holds '=' or '|'")
        texts = [_text(v, f"a value of stratum {name!r}") for v in values]
        if not texts or len(set(texts)) < len(texts) or any("|" in t for t in texts):
            raise OptionError(
                f"stratum {name!r} needs its values once each, without '|': for example "
                f"{name}=North,South"
            )
        names.append(name)
        levels.append(texts)
    if math.prod(map(len, levels)) > MAX_ROWS:  # before making them: each has a row or more
        raise SizeError(
            f"the strata make {math.prod(map(len, levels)):,} combinations, more than "
            f"{MAX_ROWS:,} rows could hold: use fewer stratum values"
        )
    return names, list(itertools.product(*levels))


def allocation_label(names: Sequence[str], values: Sequence[str]) -> str:
    """The label of one stratum combination: ``"name=value"`` joined by ``"|"``.

    >>> allocation_label(["site", "sex"], ["North", "F"])
    'site=North|sex=F'
    """
    return "|".join(f"{n}={v}" for n, v in zip(names, values, strict=True))


def allocation_stream(seed: object, label: str) -> DrawStream:
    """The allocation sub-stream of one stratum combination (protocol section 15).

    Its key is ``SHA-256(b"xlshuffle/draw/v1/allocation\\x00" + key + b"\\x00" +
    label_bytes)``: ``key`` the seed's key (step 2), ``label_bytes`` the label in UTF-8
    (NFC; empty without strata). Its blocks, words and ``randbelow`` are those of steps 3-4.

    Examples
    --------
    >>> f"{allocation_stream('trial', '').next_word():016x}"
    '3bec4bb3864f5ec4'
    """
    parent = as_stream(seed)
    label_bytes = unicodedata.normalize("NFC", label).encode("utf-8")
    return parent.derive(_DOMAIN, label_bytes, label)


def _code(key: bytes, seq: int) -> str:
    """The row's code: 60 bits of ``SHA-256(domain + key + seq)`` in Crockford base32."""
    digest = hashlib.sha256(_CODE_DOMAIN + key + seq.to_bytes(8, "big")).digest()
    value = int.from_bytes(digest[:8], "big") >> 4
    chars = "".join(_CROCKFORD[(value >> (5 * i)) & 31] for i in range(11, -1, -1))
    return f"{chars[:4]}-{chars[4:8]}-{chars[8:]}"


def _sequence(
    arms: list[str], ratio: list[int], sizes: list[int], n: int, source: Source
) -> list[tuple[int, int, str]]:
    """(block, block size, arm) for one stratum combination: whole blocks until >= n rows."""
    out: list[tuple[int, int, str]] = []
    unit = sum(ratio)
    block = 0
    while len(out) < n:
        block += 1
        size = sizes[source.randbelow(len(sizes))]
        items = [a for a, r in zip(arms, ratio, strict=True) for _ in range(r * size // unit)]
        shuffle_prefix(items, size - 1, source)
        out.extend((block, size, arm) for arm in items)
    return out


def allocation_list(
    arms: Iterable[object],
    *,
    ratio: Sequence[object] | None = None,
    n: int,
    block_sizes: Iterable[object],
    seed: object = None,
    strata: Mapping[str, Sequence[object]] | Sequence[tuple[str, Sequence[object]]] | None = None,
) -> list[AllocationRow]:
    """Return a permuted-block allocation list: one sequence per stratum combination.

    Parameters
    ----------
    arms : iterable of str
        The arms' names, two or more, each once.
    ratio : sequence of int, optional
        Whole numbers, one per arm (2:1 is ``[2, 1]``); default 1 each. Divided by their
        GCD first, so 2:2 is 1:1.
    n : int
        Rows wanted *per stratum combination*, 1 or more. The last block is complete, so a
        sequence may hold up to ``max(block_sizes) - 1`` more; a trial uses its first ``n``.
    block_sizes : iterable of int
        The allowed block sizes, each a multiple of the ratio's sum, each once. Each
        block's size is ``block_sizes[randbelow(len(block_sizes))]``.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol; each combination draws from
        :func:`allocation_stream`. Keep it secret while the trial runs: it reveals the list.
    strata : mapping of name to values, optional
        Stratum factors (``{"site": ["North", "South"], "sex": ["F", "M"]}``). There is one
        sequence per combination, first factor slowest; adding a value never changes
        another combination's sequence.

    Returns
    -------
    list of AllocationRow
        The combinations one after another, each from ``seq`` 1.

    Raises
    ------
    OptionError
        For fewer than two arms, a repeated or blank name, a ratio part below 1, a block
        size that is not a multiple of the ratio's sum, or a bad stratum.
    SizeError
        For ``n`` below 1, or a list of more than :data:`MAX_ROWS` rows.

    Examples
    --------
    >>> rows = allocation_list(["A", "B"], ratio=[2, 1], n=6, block_sizes=[3, 6], seed="trial")
    >>> "".join(r.arm for r in rows), [r.block_size for r in rows]
    ('AABABAAAB', [3, 3, 3, 6, 6, 6, 6, 6, 6])
    >>> rows[0]
    AllocationRow(seq=1, strata=(), block=1, block_size=3, arm='A', code='P0RX-V4W4-XEPG')
    """
    names = _arms(arms)
    parts = _ratio(ratio, len(names))
    sizes = _block_sizes(block_sizes, parts)
    n = check_count("n", n)
    if n < 1:
        raise SizeError("n must be 1 or more: the rows wanted per stratum combination")
    factors, combos = stratum_combinations(strata)
    most = len(combos) * (n + max(sizes) - 1)
    if most > MAX_ROWS:
        raise SizeError(
            f"n = {n} rows for each of {len(combos)} stratum combination(s) may make more "
            f"than {MAX_ROWS:,} rows: ask for a smaller n or fewer stratum values"
        )
    stream = as_stream(seed)
    rows: list[AllocationRow] = []
    for values in combos:
        source = allocation_stream(stream, allocation_label(factors, values))
        for seq, (block, size, arm) in enumerate(_sequence(names, parts, sizes, n, source), 1):
            rows.append(AllocationRow(seq, values, block, size, arm, _code(source.key, seq)))
    _check_codes(rows)
    return rows


def _check_codes(rows: list[AllocationRow]) -> None:
    """Refuse a list whose concealment codes are not all different (section 15, step 6:
    60-bit codes, so about one list in 10**10 of 10,000 rows)."""
    seen: dict[str, AllocationRow] = {}
    for row in rows:
        other = seen.setdefault(row.code, row)
        if other is not row:
            raise SizeError(
                f"rows {other.seq} and {row.seq} share the concealment code {row.code}: "
                "draw the list with another seed"
            )
