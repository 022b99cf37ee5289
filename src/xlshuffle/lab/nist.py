"""NIST SP 800-22 (rev. 1a) statistical tests over bits of the draw protocol's stream.

All fifteen tests, in pure Python from the publication's own definitions (its
section 2 for each test, section 3 for the formulas), each checked in
``tests/test_fairness_battery.py`` against the worked examples SP 800-22 prints:

frequency (2.1), block frequency (2.2), runs (2.3), longest run of ones (2.4), binary
matrix rank (2.5), discrete Fourier transform (2.6), non-overlapping template (2.7, two
templates), overlapping template (2.8), Maurer's universal test (2.9), linear complexity
(2.10), serial (2.11), approximate entropy (2.12), cumulative sums (2.13), random
excursions (2.14) and its variant (2.15). Of the non-overlapping template test (2.7) the
battery runs two templates of the 148 of length 9 sts-2.1.2 runs.

Where the text, its examples and NIST's reference code (sts-2.1.2) part, for the three
tests of sections 2.8-2.10: the overlapping template test takes Hamano and Kaneko's exact
class probabilities (:data:`HAMANO_KANEKO`; sts-2.1.2 declares them, then computes the
approximation its examples print); the universal test is its formula, as sts-2.1.2 and
the long example (2.9.8) have it, not the small example (2.9.4), which leaves out the
factor ``c / sqrt(K)``; linear complexity keeps the class probabilities as the text and
sts-2.1.2 print them (:data:`LINEAR_PI`). Each function's docstring says how the printed
examples come out.

A test the sequence is too short for is reported as not applicable, never passed: rank
below 38,912 bits, random excursions with fewer than 500 cycles, the universal test below
387,840 bits (section 2.9.7's table), the overlapping template and linear complexity tests
below a million bits (sections 2.8.7 and 2.10.7). Linear complexity is Berlekamp-Massey on
Python integers as bit vectors: a million bits in about a fifth of a second.

:func:`battery` runs them on ``sequences`` sequences of ``bits`` bits each, consecutive
bits of one seed's stream (64-bit words, most significant bit first), and judges each
test as SP 800-22 section 4.2 does: the proportion of sequences passing at alpha = 0.01
within ``p +- 3 sqrt(p (1 - p) / s)``, and the P-values' uniformity (ten bins, chi-square,
``P >= 0.0001``; needs 55 sequences or more to be judged).
"""

from __future__ import annotations

import cmath
import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..draw.protocol import DrawStream
from .stats import gammaincc

__all__ = [
    "ALPHA",
    "HAMANO_KANEKO",
    "LINEAR_PI",
    "TESTS",
    "BatteryReport",
    "Outcome",
    "approximate_entropy",
    "battery",
    "berlekamp_massey",
    "binary_matrix_rank",
    "block_frequency",
    "cumulative_sums",
    "dft",
    "frequency",
    "linear_complexity",
    "longest_run",
    "non_overlapping_template",
    "overlapping_template",
    "random_excursions",
    "random_excursions_variant",
    "runs",
    "serial",
    "stream_bits",
    "stream_bytes",
    "universal",
    "universal_statistic",
]

#: The significance level of each test on one sequence (SP 800-22 section 4.2).
ALPHA = 0.01
Bits = Sequence[int]


class NotApplicable(ValueError):
    """The sequence is too short (or too unbalanced) for the test, as SP 800-22 states."""


def stream_bytes(seed: object, count: int) -> bytes:
    """The first ``count`` bytes of ``seed``'s stream: its 64-bit words, big-endian."""
    stream = DrawStream(seed)
    words = -(-count // 8)
    return struct.pack(f">{words}Q", *(stream.next_word() for _ in range(words)))[:count]


def stream_bits(seed: object, count: int) -> bytes:
    """The first ``count`` bits of ``seed``'s stream as bytes 0 and 1, most significant first.

    >>> stream_bits("42", 8)  # the first word is 0x5b0a97947fb05be0: 0101 1011
    b'\\x00\\x01\\x00\\x01\\x01\\x00\\x01\\x01'
    """
    data = stream_bytes(seed, -(-count // 8))
    table = [bytes((b >> (7 - i)) & 1 for i in range(8)) for b in range(256)]
    return b"".join(table[b] for b in data)[:count]


def _erfc_p(x: float) -> float:
    return math.erfc(x / math.sqrt(2))


# --------------------------------------------------------------------------- the tests


def frequency(bits: Bits) -> float:
    """2.1: the proportion of ones. ``P = erfc(|S_n| / sqrt(2n))``."""
    n = len(bits)
    s = 2 * sum(bits) - n
    return _erfc_p(abs(s) / math.sqrt(n))


def block_frequency(bits: Bits, m: int = 128) -> float:
    """2.2: the proportion of ones in each of ``N = n // m`` blocks of ``m`` bits."""
    blocks = len(bits) // m
    if blocks < 1:
        raise NotApplicable(f"block frequency needs at least {m} bits")
    chi = 4 * m * sum((sum(bits[j * m : (j + 1) * m]) / m - 0.5) ** 2 for j in range(blocks))
    return gammaincc(blocks / 2, chi / 2)


def runs(bits: Bits) -> float:
    """2.3: the number of runs, after the frequency prerequisite (``P = 0`` if it fails)."""
    n = len(bits)
    pi = sum(bits) / n
    if abs(pi - 0.5) >= 2 / math.sqrt(n):
        return 0.0
    v = 1 + sum(1 for k in range(n - 1) if bits[k] != bits[k + 1])
    return math.erfc(abs(v - 2 * n * pi * (1 - pi)) / (2 * math.sqrt(2 * n) * pi * (1 - pi)))


# (block length, lowest class, highest class, class probabilities) by sequence length
_LONGEST = (
    (6272, 8, 1, 4, (0.21484375, 0.3671875, 0.23046875, 0.1875)),
    (750_000, 128, 4, 9, (0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124)),
    (None, 10_000, 10, 16, (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727)),
)


def longest_run(bits: Bits) -> float:
    """2.4: the longest run of ones in blocks of 8, 128 or 10,000 bits (by ``n``)."""
    n = len(bits)
    if n < 128:
        raise NotApplicable("the longest-run test needs at least 128 bits")
    m, low, high, pis = next(row[1:] for row in _LONGEST if row[0] is None or n < row[0])
    blocks = n // m
    counts = [0] * len(pis)
    for j in range(blocks):
        longest = run = 0
        for b in bits[j * m : (j + 1) * m]:
            run = run + 1 if b else 0
            longest = max(longest, run)
        counts[min(max(longest, low), high) - low] += 1
    chi = sum((v - blocks * p) ** 2 / (blocks * p) for v, p in zip(counts, pis, strict=True))
    return gammaincc((len(pis) - 1) / 2, chi / 2)


def _rank(rows: list[int]) -> int:
    """The rank over GF(2) of a matrix whose rows are integers."""
    rank, rows = 0, list(rows)
    while rows:
        pivot = rows.pop()
        if pivot:
            rank += 1
            low = pivot & -pivot
            rows = [r ^ pivot if r & low else r for r in rows]
    return rank


def binary_matrix_rank(bits: Bits, m: int = 32, q: int = 32) -> float:
    """2.5: the ranks of disjoint ``m x q`` matrices (probabilities 0.2888, 0.5776 and
    0.1336 for full rank, one less, and lower, as section 3.5 gives them)."""
    count = len(bits) // (m * q)
    if count < 38 and (m, q) == (32, 32):
        raise NotApplicable("the rank test needs 38 matrices: 38,912 bits")
    if count < 1:
        raise NotApplicable(f"the rank test needs {m * q} bits")
    full = less = 0
    for k in range(count):
        block = bits[k * m * q : (k + 1) * m * q]
        rows = [int("".join(map(str, block[r * q : (r + 1) * q])), 2) for r in range(m)]
        r = _rank(rows)
        full += r == m
        less += r == m - 1
    rest = count - full - less
    expect = (0.2888 * count, 0.5776 * count, 0.1336 * count)
    chi = sum((f - e) ** 2 / e for f, e in zip((full, less, rest), expect, strict=True))
    return math.exp(-chi / 2)


def _radix2(values: list[complex], inverse: bool = False) -> list[complex]:
    """The discrete Fourier transform of a power-of-two number of values (iterative radix 2)."""
    n = len(values)
    bits = n.bit_length() - 1
    out = [values[int(f"{i:0{bits}b}"[::-1], 2)] for i in range(n)] if bits else list(values)
    sign = 1 if inverse else -1
    size = 2
    while size <= n:
        half, turn = size // 2, cmath.exp(sign * 2j * math.pi / size)
        twiddles = [turn**k for k in range(half)]
        for start in range(0, n, size):
            for k in range(half):
                a, b = out[start + k], out[start + k + half] * twiddles[k]
                out[start + k], out[start + k + half] = a + b, a - b
        size *= 2
    return out


def _fft(values: list[complex]) -> list[complex]:
    """The discrete Fourier transform of any number of values: radix 2 for a power of two,
    else Bluestein's chirp, a convolution done by radix-2 transforms."""
    n = len(values)
    if n & (n - 1) == 0:
        return _radix2(values)
    # w_t = exp(-i pi t^2 / n), its angle from t^2 mod 2n so that it stays exact
    chirp = [cmath.exp(-1j * math.pi * (t * t % (2 * n)) / n) for t in range(n)]
    size = 1 << (2 * n - 1).bit_length()
    a = [v * c for v, c in zip(values, chirp, strict=True)] + [0j] * (size - n)
    b = [0j] * size
    for t in range(n):
        b[t] = chirp[t].conjugate()
        if t:
            b[size - t] = chirp[t].conjugate()
    product = [x * y for x, y in zip(_radix2(a), _radix2(b), strict=True)]
    conv = _radix2(product, inverse=True)
    return [conv[k] / size * chirp[k] for k in range(n)]


def dft(bits: Bits) -> float:
    """2.6: peaks of the transform of ``2 eps - 1`` above ``sqrt(n ln 20)``."""
    n = len(bits)
    spectrum = _fft([complex(2 * b - 1) for b in bits])
    threshold = math.sqrt(math.log(1 / 0.05) * n)
    below = sum(1 for s in spectrum[: n // 2] if abs(s) < threshold)
    d = (below - 0.95 * n / 2) / math.sqrt(n * 0.95 * 0.05 / 4)
    return _erfc_p(abs(d))


def non_overlapping_template(bits: Bits, template: str = "000000001", blocks: int = 8) -> float:
    """2.7: non-overlapping matches of ``template`` in each of ``blocks`` blocks."""
    m, size = len(template), len(bits) // blocks
    pattern = [int(c) for c in template]
    counts = []
    for j in range(blocks):
        block, i, w = bits[j * size : (j + 1) * size], 0, 0
        while i <= size - m:
            if list(block[i : i + m]) == pattern:
                w, i = w + 1, i + m
            else:
                i += 1
        counts.append(w)
    mu = (size - m + 1) / 2**m
    var = size * (1 / 2**m - (2 * m - 1) / 2 ** (2 * m))
    chi = sum((w - mu) ** 2 / var for w in counts)
    return gammaincc(blocks / 2, chi / 2)


#: The class probabilities of the overlapping template test for its standard parameters
#: (template of nine ones, blocks of 1032 bits, classes 0-4 and 5 or more matches): the
#: exact ones of Hamano and Kaneko (2007), which sts-2.1.2's source declares.
HAMANO_KANEKO = (0.364091, 0.185659, 0.139381, 0.100571, 0.070432, 0.139865)


def overlapping_template(
    bits: Bits,
    *,
    m: int = 9,
    block: int = 1032,
    pi: Sequence[float] = HAMANO_KANEKO,
    least: int = 1_000_000,
) -> float:
    """2.8: overlapping matches of ``m`` ones in each ``block``-bit block, counted in
    classes 0, 1, .. and ``len(pi) - 1`` or more, against the class probabilities ``pi``.

    The default ``pi`` are Hamano and Kaneko's (2007) exact probabilities for ``m = 9``,
    ``block = 1032`` and K = 5 (a count of the 2**1032 blocks: ``tests/`` recomputes
    them), not the approximations of SP 800-22's formula (section 3.8, ``Pr(u, eta)``:
    0.367879, 0.183940, 0.137955, 0.099634, 0.069935, 0.140657). sts-2.1.2 declares the
    exact ones and then overwrites them with the formula's, and its P-value is the one
    printed: 2.8.8's 0.110434 for the first million bits of e comes from the formula's
    probabilities; these give 0.159027 for the same counts. Other ``m`` or ``block`` need
    their ``pi``. Needs ``least`` bits (a million, as section 2.8.7 asks).
    """
    if (m, block) != (9, 1032) and pi is HAMANO_KANEKO:
        raise ValueError(f"pi: give the class probabilities for m={m}, block={block}")
    if len(bits) < least:
        raise NotApplicable(f"the overlapping template test needs {least:,} bits")
    top = len(pi) - 1
    blocks = len(bits) // block
    counts = [0] * len(pi)
    for j in range(blocks):
        # a run of r >= m ones holds r - m + 1 overlapping matches of m ones
        runs = bytes(bits[j * block : (j + 1) * block]).split(b"\x00")
        found = sum(len(run) - m + 1 for run in runs if len(run) >= m)
        counts[min(found, top)] += 1
    chi = sum((v - blocks * p) ** 2 / (blocks * p) for v, p in zip(counts, pi, strict=True))
    return gammaincc(top / 2, chi / 2)


# Maurer's universal test: (least n, L) from section 2.9.7's table, and the expected value
# and variance of its statistic by L (sts-2.1.2's tables, from Maurer's paper)
_UNIVERSAL_L = (
    (387_840, 6),
    (904_960, 7),
    (2_068_480, 8),
    (4_654_080, 9),
    (10_342_400, 10),
    (22_753_280, 11),
    (49_643_520, 12),
    (107_560_960, 13),
    (231_669_760, 14),
    (496_435_200, 15),
    (1_059_061_760, 16),
)
_UNIVERSAL_MOMENTS = {
    1: (0.73264948, 0.690),
    2: (1.5374383, 1.338),
    3: (2.40160681, 1.901),
    4: (3.31122472, 2.358),
    5: (4.25342659, 2.705),
    6: (5.2177052, 2.954),
    7: (6.1962507, 3.125),
    8: (7.1836656, 3.238),
    9: (8.1764248, 3.311),
    10: (9.1723243, 3.356),
    11: (10.170032, 3.384),
    12: (11.168765, 3.401),
    13: (12.168070, 3.410),
    14: (13.167693, 3.416),
    15: (14.167488, 3.419),
    16: (15.167379, 3.421),
}
_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def _universal_block(n: int) -> int | None:
    """Section 2.9.7's block length ``L`` for ``n`` bits (None below 387,840 bits)."""
    found = [size for least, size in _UNIVERSAL_L if n >= least]
    return found[-1] if found else None


def universal_statistic(bits: Bits, *, block: int, init: int) -> float:
    """2.9's statistic ``f_n``: the mean ``log2`` distance back to the previous block with
    the same ``block`` bits, over the blocks after the first ``init``."""
    size = block
    tested = len(bits) // size - init
    if init < 1 or tested < 1:
        raise NotApplicable(f"the universal test needs more than {init} blocks of {size} bits")
    text = bytes(bits[: (init + tested) * size]).translate(_DIGITS)
    last = [0] * (1 << size)
    for i in range(init):
        last[int(text[i * size : (i + 1) * size], 2)] = i + 1
    total = 0.0
    for i in range(init, init + tested):
        value = int(text[i * size : (i + 1) * size], 2)
        total += math.log2(i + 1 - last[value])
        last[value] = i + 1
    return total / tested


def universal(bits: Bits, *, block: int | None = None, init: int | None = None) -> float:
    """2.9: Maurer's universal test, as sts-2.1.2 computes it: ``L`` (``block``) by the
    sequence's length from section 2.9.7's table, ``Q = 10 * 2**L`` blocks (``init``) to
    fill the table, ``K`` blocks tested, and the statistic's standard deviation
    ``c * sqrt(variance(L) / K)`` with ``c = 0.7 - 0.8/L + (4 + 32/L) K**(-3/L) / 15``.

    Section 2.9.8's example, the first million bits of e, gives its 0.282568. Its small
    example (2.9.4, 20 bits, L = 2, Q = 4: P = 0.767189) divides by ``sqrt(variance(L))``
    alone, without ``c`` and ``sqrt(K)``: that is what its printed P-value follows, and
    ``tests/`` checks its ``f_n`` = 1.1949875 through :func:`universal_statistic`.
    """
    size = _universal_block(len(bits)) if block is None else block
    if size is None:
        raise NotApplicable("the universal test needs 387,840 bits (L = 6)")
    if not 1 <= size <= 16:
        raise ValueError(f"block: L from 1 to 16, got {size}")
    first = 10 * 2**size if init is None else init
    fn = universal_statistic(bits, block=size, init=first)
    tested = len(bits) // size - first
    c = 0.7 - 0.8 / size + (4 + 32 / size) * tested ** (-3 / size) / 15
    mean, variance = _UNIVERSAL_MOMENTS[size]
    sigma = c * math.sqrt(variance / tested)
    return math.erfc(abs(fn - mean) / (math.sqrt(2) * sigma))


def berlekamp_massey(bits: Bits) -> int:
    """The linear complexity of ``bits``: the length of the shortest linear feedback shift
    register that generates them (Berlekamp-Massey over GF(2), section 2.10.4 step 2).

    The connection polynomial and the bits seen so far, newest first, are Python integers,
    so the discrepancy is one AND and a parity and each update one XOR of whole integers.

    >>> berlekamp_massey([1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1])  # section 2.10.4
    4
    """
    c = b = 1  # the connection polynomials, bit i the coefficient of x**i
    length, shift, seen = 0, -1, 0
    for n, bit in enumerate(bits):
        seen = (seen << 1) | bit  # bit i of ``seen`` is bits[n - i]
        if (c & seen).bit_count() & 1:
            t = c
            c ^= b << (n - shift)
            if 2 * length <= n:
                length, shift, b = n + 1 - length, n, t
    return length


#: Section 2.10's class probabilities. The first is printed 0.01047, for 1/96 = 0.010417,
#: in the text and in sts-2.1.2's code alike; it is kept, so that the results are theirs
#: (2.10.8's example prints 0.845406 with it, 0.844738 with 1/96).
LINEAR_PI = (0.01047, 0.03125, 0.12500, 0.50000, 0.25000, 0.06250, 0.020833)


def linear_complexity(
    bits: Bits, *, m: int = 500, pi: Sequence[float] = LINEAR_PI, least: int = 1_000_000
) -> float:
    """2.10: the linear complexity of each ``m``-bit block against its expected value,
    counted in seven classes. Needs ``least`` bits (a million) and 200 blocks, as section
    2.10.7 says; it recommends ``m`` from 500 to 5000 (sts-2.1.2 runs 500)."""
    blocks = len(bits) // m
    if len(bits) < least or blocks < 200:
        raise NotApplicable(f"linear complexity needs {least:,} bits, 200 blocks of {m}")
    mu = m / 2 + (9 + (-1) ** (m + 1)) / 36 - math.ldexp(m / 3 + 2 / 9, -m)  # / 2**m, any m
    sign = -1 if m % 2 else 1
    counts = [0] * 7
    for j in range(blocks):
        t = sign * (berlekamp_massey(bits[j * m : (j + 1) * m]) - mu) + 2 / 9
        # classes: t <= -2.5, then (-2.5, -1.5], .., (1.5, 2.5], then t > 2.5
        counts[min(max(math.ceil(t - 0.5) + 3, 0), 6)] += 1
    chi = sum((v - blocks * p) ** 2 / (blocks * p) for v, p in zip(counts, pi, strict=True))
    return gammaincc(3, chi / 2)


def _patterns(bits: Bits, m: int) -> list[int]:
    """How often each ``m``-bit pattern occurs, overlapping, the sequence wrapped around
    (its first ``m - 1`` bits appended: sections 2.11 and 2.12)."""
    wrapped = list(bits) + list(bits[: m - 1])
    counts = [0] * (1 << m)
    window, mask = 0, (1 << m) - 1
    for i, b in enumerate(wrapped):
        window = ((window << 1) | b) & mask
        if i >= m - 1:
            counts[window] += 1
    return counts


def _psi2(bits: Bits, m: int) -> float:
    """Section 2.11's psi-squared of the overlapping ``m``-bit patterns."""
    if m <= 0:
        return 0.0
    n = len(bits)
    return (1 << m) / n * sum(c * c for c in _patterns(bits, m)) - n


def serial(bits: Bits, m: int = 16) -> tuple[float, float]:
    """2.11: the frequencies of all overlapping ``m``-bit patterns: two P-values."""
    psi = [_psi2(bits, m - d) for d in range(3)]
    first, second = psi[0] - psi[1], psi[0] - 2 * psi[1] + psi[2]
    return gammaincc(2 ** (m - 2), first / 2), gammaincc(2 ** (m - 3), second / 2)


def _phi(bits: Bits, m: int) -> float:
    n = len(bits)
    counts = _patterns(bits, m)
    return math.fsum(c / n * math.log(c / n) for c in counts if c)


def approximate_entropy(bits: Bits, m: int = 10) -> float:
    """2.12: the frequencies of overlapping ``m``- and ``m + 1``-bit patterns compared."""
    n = len(bits)
    ap_en = _phi(bits, m) - _phi(bits, m + 1)
    return gammaincc(2 ** (m - 1), n * (math.log(2) - ap_en))


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def cumulative_sums(bits: Bits, *, backward: bool = False) -> float:
    """2.13: the largest excursion of the running sum of ``2 eps - 1`` from zero."""
    n, s, z = len(bits), 0, 0
    for b in reversed(bits) if backward else bits:
        s += 2 * b - 1
        z = max(z, abs(s))
    root = math.sqrt(n)
    one = sum(
        _normal_cdf((4 * k + 1) * z / root) - _normal_cdf((4 * k - 1) * z / root)
        for k in range(math.floor((-n / z + 1) / 4), math.floor((n / z - 1) / 4) + 1)
    )
    two = sum(
        _normal_cdf((4 * k + 3) * z / root) - _normal_cdf((4 * k + 1) * z / root)
        for k in range(math.floor((-n / z - 3) / 4), math.floor((n / z - 1) / 4) + 1)
    )
    return 1 - one + two


def _cycles(bits: Bits) -> list[list[int]]:
    """The random walk's cycles: its partial sums between returns to zero."""
    cycles: list[list[int]] = [[]]
    s = 0
    for b in bits:
        s += 2 * b - 1
        if s == 0:
            cycles.append([])
        else:
            cycles[-1].append(s)
    return cycles if cycles[-1] else cycles[:-1]


def _excursion_pi(x: int) -> list[float]:
    a = 1 - 1 / (2 * abs(x))
    return [a] + [a ** (k - 1) / (4 * x * x) for k in range(1, 5)] + [a**4 / (2 * abs(x))]


def random_excursions(bits: Bits, *, least: int = 500) -> dict[int, float]:
    """2.14: how often each state ``x`` in -4..-1, 1..4 is visited in a cycle: one P-value
    each. Needs ``least`` cycles (500, as SP 800-22 says; its small example takes 3)."""
    cycles = _cycles(bits)
    j = len(cycles)
    if j < least:
        raise NotApplicable(f"{j} cycles, fewer than {least}: the walk returns to 0 too rarely")
    out = {}
    for x in (-4, -3, -2, -1, 1, 2, 3, 4):
        nu = [0] * 6
        for cycle in cycles:
            nu[min(cycle.count(x), 5)] += 1
        pis = _excursion_pi(x)
        chi = sum((v - j * p) ** 2 / (j * p) for v, p in zip(nu, pis, strict=True))
        out[x] = gammaincc(2.5, chi / 2)
    return out


def random_excursions_variant(bits: Bits, *, least: int = 500) -> dict[int, float]:
    """2.15: the total visits to each state ``x`` in -9..-1, 1..9: one P-value each."""
    cycles = _cycles(bits)
    j = len(cycles)
    if j < least:
        raise NotApplicable(f"{j} cycles, fewer than {least}: the walk returns to 0 too rarely")
    visits: dict[int, int] = {}
    for cycle in cycles:
        for s in cycle:
            visits[s] = visits.get(s, 0) + 1
    return {
        x: math.erfc(abs(visits.get(x, 0) - j) / math.sqrt(2 * j * (4 * abs(x) - 2)))
        for x in range(-9, 10)
        if x
    }


# --------------------------------------------------------------------------- the battery


def _parameters(n: int) -> dict[str, int]:
    """SP 800-22's recommended parameters, lowered for a short sequence as it requires
    (serial: ``m < log2(n) - 2``; approximate entropy: ``m < log2(n) - 5``)."""
    log = int(math.log2(n))
    return {"serial": max(2, min(16, log - 3)), "apen": max(1, min(10, log - 6))}


#: The states of a random walk that random excursions (2.14) and its variant (2.15) judge,
#: each apart, as SP 800-22's report does: their P-values come from the same walk.
_EXCURSIONS = (-4, -3, -2, -1, 1, 2, 3, 4)
_VARIANT = tuple(x for x in range(-9, 10) if x)


def _tests(n: int) -> list[tuple[str, Callable[[Bits], list[float]]]]:
    p = _parameters(n)
    size = _universal_block(n)  # the universal test's L, by section 2.9.7's table
    return [
        ("frequency", lambda b: [frequency(b)]),
        ("block frequency (M=128)", lambda b: [block_frequency(b, 128)]),
        ("runs", lambda b: [runs(b)]),
        ("longest run of ones", lambda b: [longest_run(b)]),
        ("binary matrix rank (32x32)", lambda b: [binary_matrix_rank(b)]),
        ("discrete Fourier transform", lambda b: [dft(b)]),
        ("non-overlapping template 000000001", lambda b: [non_overlapping_template(b)]),
        (
            "non-overlapping template 111111110",
            lambda b: [non_overlapping_template(b, "111111110")],
        ),
        ("overlapping template (m=9, M=1032)", lambda b: [overlapping_template(b)]),
        ("universal" + (f" (L={size})" if size else ""), lambda b: [universal(b)]),
        ("linear complexity (M=500)", lambda b: [linear_complexity(b)]),
        (f"serial (m={p['serial']})", lambda b: list(serial(b, p["serial"]))),
        (f"approximate entropy (m={p['apen']})", lambda b: [approximate_entropy(b, p["apen"])]),
        ("cumulative sums (forward)", lambda b: [cumulative_sums(b)]),
        ("cumulative sums (backward)", lambda b: [cumulative_sums(b, backward=True)]),
    ]


def _by_state(n: int) -> list[tuple[str, Callable[[Bits], dict[int, float]], tuple[int, ...]]]:
    """The tests judged state by state: a name, the test, its states."""
    del n  # the same at every length
    return [
        ("random excursions", random_excursions, _EXCURSIONS),
        ("random excursions variant", random_excursions_variant, _VARIANT),
    ]


def _state_name(name: str, x: int) -> str:
    return f"{name} x={x:+d}"


#: The tests' names, in the order the battery runs them (for a sequence of 2**20 bits).
TESTS = tuple(name for name, _ in _tests(2**20)) + tuple(
    _state_name(name, x) for name, _, states in _by_state(2**20) for x in states
)


@dataclass
class Outcome:
    """One test over every sequence: its P-values (a test with several, such as serial,
    gives several per sequence), how many sequences it could be run on, and the verdict."""

    name: str
    p_values: list[float] = field(default_factory=list)
    sequences: int = 0
    not_applicable: str | None = None

    @property
    def passed(self) -> int:
        return sum(1 for p in self.p_values if p >= ALPHA)

    @property
    def proportion(self) -> float:
        return self.passed / len(self.p_values) if self.p_values else math.nan

    @property
    def proportion_low(self) -> float:
        """The lowest proportion passing SP 800-22 section 4.2.1 accepts."""
        s = len(self.p_values)
        p = 1 - ALPHA
        return p - 3 * math.sqrt(p * (1 - p) / s) if s else math.nan

    @property
    def uniformity(self) -> float | None:
        """The P-value of the P-values' uniformity over ten bins (section 4.2.2), or None
        with fewer than 55 of them."""
        s = len(self.p_values)
        if s < 55:
            return None
        bins = [0] * 10
        for p in self.p_values:
            bins[min(int(p * 10), 9)] += 1
        chi = sum((f - s / 10) ** 2 / (s / 10) for f in bins)
        return gammaincc(4.5, chi / 2)

    @property
    def verdict(self) -> str:
        if self.not_applicable is not None and not self.p_values:
            return "not applicable"
        ok = self.proportion >= self.proportion_low
        uniform = self.uniformity
        return "pass" if ok and (uniform is None or uniform >= 0.0001) else "FAIL"

    def as_dict(self) -> dict[str, object]:
        return {
            "test": self.name,
            "p_values": len(self.p_values),
            "passed": self.passed,
            "proportion": None if not self.p_values else self.proportion,
            "proportion_low": None if not self.p_values else self.proportion_low,
            "uniformity": self.uniformity,
            "verdict": self.verdict,
            "not_applicable": self.not_applicable,
            "min_p": min(self.p_values) if self.p_values else None,
        }


@dataclass
class BatteryReport:
    """The battery's results: the seed, the sequences and their length, each test's."""

    seed: str
    sequences: int
    bits: int
    results: list[Outcome]

    def as_dict(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "sequences": self.sequences,
            "bits": self.bits,
            "alpha": ALPHA,
            "tests": [r.as_dict() for r in self.results],
        }


def battery(
    seed: str,
    *,
    sequences: int = 10,
    bits: int = 2**20,
    progress: Callable[[int], None] | None = None,
) -> BatteryReport:
    """Run the tests on ``sequences`` sequences of ``bits`` consecutive bits of ``seed``'s
    stream (sequence ``i`` the bits ``i * bits .. (i + 1) * bits - 1``).

    >>> report = battery("xlshuffle battery", sequences=2, bits=4096)
    >>> [(r.name, r.verdict) for r in report.results][:3]
    [('frequency', 'pass'), ('block frequency (M=128)', 'pass'), ('runs', 'pass')]
    """
    if sequences < 1 or bits < 128:
        raise ValueError("the battery needs 1 sequence or more, of 128 bits or more")
    every = stream_bits(seed, sequences * bits)
    tests, by_state = _tests(bits), _by_state(bits)
    results = [Outcome(name) for name, _ in tests]
    states = {(name, x): Outcome(_state_name(name, x)) for name, _, xs in by_state for x in xs}
    for i in range(sequences):
        sequence = every[i * bits : (i + 1) * bits]
        for result, (_, run) in zip(results, tests, strict=True):
            try:
                result.p_values += run(sequence)
                result.sequences += 1
            except NotApplicable as exc:
                result.not_applicable = str(exc)
        for name, judge, xs in by_state:
            try:
                found = judge(sequence)
            except NotApplicable as exc:
                for x in xs:
                    states[name, x].not_applicable = str(exc)
                continue
            for x in xs:
                states[name, x].p_values.append(found[x])
                states[name, x].sequences += 1
        if progress is not None:
            progress(i + 1)
    return BatteryReport(seed, sequences, bits, [*results, *states.values()])
