"""NIST SP 800-22 (rev. 1a) statistical tests over bits of the draw protocol's stream.

Eleven of the fifteen tests, in pure Python from the publication's own definitions (its
section 2 for each test, section 3 for the formulas), each checked in
``tests/test_fairness_battery.py`` against the worked examples SP 800-22 prints:

frequency (2.1), block frequency (2.2), runs (2.3), longest run of ones (2.4), binary
matrix rank (2.5), discrete Fourier transform (2.6), non-overlapping template (2.7, two
templates), serial (2.11), approximate entropy (2.12), cumulative sums (2.13), random
excursions (2.14) and its variant (2.15).

Left out: the overlapping template (2.8) and the universal (2.9) tests, whose printed
examples do not follow the formulas given for them (the universal example divides by the
variance's square root alone), and linear complexity (2.10), which needs a million bits per
sequence and is too slow in pure Python. A test the sequence is too short for (rank below
38,912 bits, random excursions with fewer than 500 cycles) is reported as not applicable,
never passed.

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
    "TESTS",
    "BatteryReport",
    "Outcome",
    "approximate_entropy",
    "battery",
    "binary_matrix_rank",
    "block_frequency",
    "cumulative_sums",
    "dft",
    "frequency",
    "longest_run",
    "non_overlapping_template",
    "random_excursions",
    "random_excursions_variant",
    "runs",
    "serial",
    "stream_bits",
    "stream_bytes",
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
