"""``xlshuffle fairness --battery``: NIST SP 800-22's tests checked against the worked
examples the publication prints, and the stream through them and through dieharder.

Where a printed example cannot be reproduced from the publication's own formula, the test
says so and checks the formula against an independent computation instead (NumPy's FFT).
The examples on the first million bits of e read them from ``e_expansion``, which computes
them exactly.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from e_expansion import e_bits
from raffle_books import run
from xlshuffle.lab import nist
from xlshuffle.lab.dieharder import dieharder_path, run_dieharder
from xlshuffle.lab.stats import gammaincc

from support import require

# SP 800-22 rev. 1a's sequences: the first 100 bits of the binary expansion of pi (2.1.8 and
# on), and the 128 bits of 2.4.8.
PI100 = (
    "1100100100001111110110101010001000100001011010001100001000110100"
    "110001001100011001100010100010111000"
)
L128 = (
    "1100110000010101011011000100110011100000000000100100110101010001"
    "0001001111010110100000001101011111001100111001101101100010110010"
)


def bits(text: str) -> list[int]:
    return [int(c) for c in text]


@pytest.mark.parametrize(
    ("name", "run_test", "sequence", "printed"),
    [
        ("2.1.8 frequency", nist.frequency, PI100, 0.109599),
        ("2.2.8 block frequency, M=10", lambda b: nist.block_frequency(b, 10), PI100, 0.706438),
        ("2.3.8 runs", nist.runs, PI100, 0.500798),
        ("2.4.8 longest run, M=8", nist.longest_run, L128, 0.180609),
        (
            "2.5.4 rank, M=Q=3",
            lambda b: nist.binary_matrix_rank(b, 3, 3),
            "01011001001010101101",
            0.741948,
        ),
        (
            "2.7.4 non-overlapping template 001, N=2",
            lambda b: nist.non_overlapping_template(b, "001", 2),
            "10100100101110010110",
            0.344154,
        ),
        ("2.11.4 serial, m=3 (first)", lambda b: nist.serial(b, 3)[0], "0011011101", 0.808792),
        ("2.11.4 serial, m=3 (second)", lambda b: nist.serial(b, 3)[1], "0011011101", 0.670320),
        (
            "2.12.4 approximate entropy, m=3",
            lambda b: nist.approximate_entropy(b, 3),
            "0100110101",
            0.261961,
        ),
        (
            "2.12.8 approximate entropy, m=2",
            lambda b: nist.approximate_entropy(b, 2),
            PI100,
            0.235301,
        ),
        ("2.13.8 cumulative sums, forward", nist.cumulative_sums, PI100, 0.219194),
        (
            "2.13.8 cumulative sums, backward",
            lambda b: nist.cumulative_sums(b, backward=True),
            PI100,
            0.114866,
        ),
        (
            "2.15.4 random excursions variant, x=1",
            lambda b: nist.random_excursions_variant(b, least=1)[1],
            "0110110101",
            0.683091,
        ),
    ],
    ids=lambda v: v if isinstance(v, str) and " " in v else "",
)
def test_the_printed_examples(name: str, run_test: object, sequence: str, printed: float) -> None:
    assert round(run_test(bits(sequence)), 6) == printed  # type: ignore[operator]


def test_examples_printed_from_rounded_tables() -> None:
    # 2.14.4 takes its state probabilities from a table rounded to 4 places (0.0312 for
    # 1/32), 2.13.4 its normal distribution from a table: both agree to 1e-4
    excursions = nist.random_excursions(bits("0110110101"), least=1)
    assert excursions[1] == pytest.approx(0.502529, abs=1e-4)
    assert nist.cumulative_sums(bits("1011010111")) == pytest.approx(0.4116588, abs=1e-4)


def test_the_fourier_test_is_its_formula() -> None:
    # The printed DFT examples (2.6.4: P = 0.029523 for 1001010011; 2.6.8: 0.168669 for the
    # 100 bits of pi) count one peak fewer below the threshold than their own sequences have
    # (all five moduli of 1001010011 are below sqrt(10 ln 20) = 5.47): no implementation
    # reproduces them (nistrng gives 0.646355 for 2.6.8, as here). So the test is checked
    # against its formula, with NumPy's FFT for the transform.
    for sequence in (bits("1001010011"), bits(PI100), list(nist.stream_bits("dft", 4096))):
        n = len(sequence)
        moduli = np.abs(np.fft.fft(2 * np.array(sequence) - 1))[: n // 2]
        below = int((moduli < math.sqrt(math.log(20) * n)).sum())
        d = (below - 0.95 * n / 2) / math.sqrt(n * 0.95 * 0.05 / 4)
        assert nist.dft(sequence) == pytest.approx(math.erfc(abs(d) / math.sqrt(2)), rel=1e-12)
    assert round(nist.dft(bits(PI100)), 6) == 0.646355


def test_the_stream_bits_are_its_words_most_significant_first() -> None:
    # the first words of seed "42" (docs/draw-protocol.md's first vector)
    words = [0x5B0A97947FB05BE0, 0x47A48650566127EA]
    want = "".join(f"{w:064b}" for w in words)
    assert "".join(map(str, nist.stream_bits("42", 128))) == want
    assert nist.stream_bytes("42", 16).hex() == "5b0a97947fb05be047a48650566127ea"


def test_a_biased_stream_fails() -> None:
    # one bit in 20 flipped to 1: the frequency test must see it
    sequence = list(nist.stream_bits("biased", 2**14))
    sequence = [1 if i % 20 == 0 else b for i, b in enumerate(sequence)]
    assert nist.frequency(sequence) < 0.01


def test_the_battery_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["fairness", "--battery", "--sequences", "1", "--bits", "65536", "--seed", "ci"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "NIST SP 800-22 tests over 1 sequence of 65,536 bits" in out
    assert "FAIL" not in out
    assert "random excursions x=-4" in out and "not applicable" in out
    assert "random excursions variant x=+9" in out
    # a million bits or more: the overlapping template, universal and linear complexity
    for name in ("overlapping template", "universal", "linear complexity"):
        row = next(line for line in out.splitlines() if line.strip().startswith(name))
        assert "not applicable" in row and "pass" not in row, row
    code, out, err = run(capsys, *argv, "--json")
    report = json.loads(out)
    assert [t["test"] for t in report["tests"]] == [
        t
        if not t.startswith(("serial", "approximate", "universal"))
        else report["tests"][i]["test"]
        for i, t in enumerate(nist.TESTS)
    ]
    verdicts = {t["test"]: t["verdict"] for t in report["tests"]}
    assert verdicts["frequency"] == "pass" and verdicts["binary matrix rank (32x32)"] == "pass"
    assert report["dieharder"] == []


# --------------------------------------------------------------------------- 2.8 to 2.10


def test_the_binary_expansion_of_e() -> None:
    # SP 800-22's examples on e read its digits from the integer part on: 10.1011011111...
    # (sts-2.1.2's data.e). Checked against e's hexadecimal expansion, 2.b7e151628aed2a6a
    # abf7158809cf4f3c (FIPS 197's example key), and its decimal one.
    digits = "".join(map(str, e_bits(2 + 124)))
    assert digits[:20] == "10101101111110000101"
    assert digits == "10" + f"{0xB7E151628AED2A6ABF7158809CF4F3C:0124b}"
    scaled = int("".join(map(str, e_bits(200))), 2)  # floor(e * 2**198)
    assert scaled * 10**40 >> 198 == 27182818284590452353602874713526624977572


def formula_pi(m: int, block: int, top: int) -> list[float]:
    """The class probabilities of SP 800-22's formula (section 3.8; sts-2.1.2's ``Pr``):
    ``Pr(0) = exp(-eta)``, ``Pr(u) = exp(-eta) / 2**u * sum(C(u-1, l-1) eta**l / l!)``,
    with ``eta = (block - m + 1) / 2**(m + 1)``, and the rest for the top class."""
    eta = (block - m + 1) / 2 ** (m + 1)
    pi = [math.exp(-eta)] + [
        math.exp(-eta)
        / 2**u
        * sum(math.comb(u - 1, k - 1) * eta**k / math.factorial(k) for k in range(1, u + 1))
        for u in range(1, top)
    ]
    return [*pi, 1 - sum(pi)]


def exact_pi(m: int, block: int, top: int) -> list[float]:
    """The exact class probabilities of overlapping matches of ``m`` ones in a block: the
    ``2**block`` blocks counted by their run of ones at the end and their matches so far."""
    count: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(block):
        step: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (run_, found), n in count.items():
            step[0, found] += n
            step[min(run_ + 1, m), min(found + (run_ + 1 >= m), top)] += n
        count = step
    return [sum(n for (_, f), n in count.items() if f == k) / 2**block for k in range(top + 1)]


def test_the_overlapping_template_probabilities_are_exact() -> None:
    # Hamano and Kaneko's probabilities are the exact ones, to their six places; the
    # formula's (printed in section 3.8's form) are an approximation, 0.004 off
    assert [round(p, 6) for p in exact_pi(9, 1032, 5)] == list(nist.HAMANO_KANEKO)
    assert [round(p, 6) for p in formula_pi(9, 1032, 5)] == [
        0.367879,
        0.183940,
        0.137955,
        0.099634,
        0.069935,
        0.140657,
    ]


def test_the_small_overlapping_template_example() -> None:
    # 2.8.4: 50 bits, template 11, blocks of 10, K = 5, the formula's probabilities with
    # eta = 1.125. Its blocks hold 5, 1, 3, 4 and 1 matches: counts 0, 2, 0, 1, 1, 1 and
    # P = 0.409635. The text prints chi-square 3.167729, which is counts 0, 1, 1, 1, 1, 1,
    # and P = 0.274932, which is igamc(5/2, 3.167729) without the halving: two slips.
    sequence = bits("10111011110010110100011100101110111110000101101001")
    pi = formula_pi(2, 10, 5)
    assert [round(p, 6) for p in pi[:5]] == [0.324652, 0.182617, 0.142670, 0.106645, 0.077147]
    p = nist.overlapping_template(sequence, m=2, block=10, pi=pi, least=1)
    chi = sum((v - 5 * q) ** 2 / (5 * q) for v, q in zip((0, 2, 0, 1, 1, 1), pi, strict=True))
    assert p == pytest.approx(gammaincc(2.5, chi / 2), rel=1e-12)
    assert round(p, 6) == 0.409635
    printed = sum((v - 5 * q) ** 2 / (5 * q) for v, q in zip((0, 1, 1, 1, 1, 1), pi, strict=True))
    assert printed == pytest.approx(3.167729, abs=2e-5)
    assert round(gammaincc(2.5, 3.167729), 6) == 0.274932


def test_the_small_universal_example() -> None:
    # 2.9.4: 20 bits, L = 2, Q = 4, K = 6. Its f_n is 1.1949875 and its P-value 0.767189
    # divides by sqrt(variance(2)) = sqrt(1.338) alone; section 2.9's own formula (and
    # 2.9.8's example, and sts-2.1.2) multiplies by c and divides by sqrt(K) too
    sequence = bits("01011010011101010111")
    fn = nist.universal_statistic(sequence, block=2, init=4)
    assert fn == pytest.approx(1.1949875, abs=1e-7)
    assert round(math.erfc(abs(fn - 1.5374383) / math.sqrt(2 * 1.338)), 6) == 0.767189
    c = 0.7 - 0.8 / 2 + (4 + 32 / 2) * 6 ** (-3 / 2) / 15
    want = math.erfc(abs(fn - 1.5374383) / (math.sqrt(2) * c * math.sqrt(1.338 / 6)))
    assert nist.universal(sequence, block=2, init=4) == pytest.approx(want, rel=1e-12)


def test_the_small_linear_complexity_example() -> None:
    # 2.10.4: 1101011110001 is generated by an LFSR of length 4 and none shorter
    assert nist.berlekamp_massey(bits("1101011110001")) == 4


def shortest_lfsr(sequence: list[int]) -> int:
    """The linear complexity by search: the least L with feedback taps c_1..c_L such that
    every bit from the L-th on is the XOR of the tapped bits before it."""
    n = len(sequence)
    for length in range(n + 1):
        for taps in range(2**length):
            if all(
                sequence[j]
                == sum(sequence[j - i] for i in range(1, length + 1) if taps >> (i - 1) & 1) % 2
                for j in range(length, n)
            ):
                return length
    raise AssertionError("unreachable: L = n always works")


@given(st.lists(st.integers(0, 1), max_size=12))
def test_berlekamp_massey_finds_the_shortest_register(sequence: list[int]) -> None:
    assert nist.berlekamp_massey(sequence) == shortest_lfsr(sequence)


def test_berlekamp_massey_on_every_sequence_of_eight_bits() -> None:
    for k in range(2**8):
        sequence = [k >> i & 1 for i in range(8)]
        assert nist.berlekamp_massey(sequence) == shortest_lfsr(sequence)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "run_test", "printed"),
    [
        # with the formula's probabilities, as sts-2.1.2 runs (counts 329 164 150 111 78 136)
        (
            "2.8.8 overlapping template",
            lambda b: nist.overlapping_template(b, pi=formula_pi(9, 1032, 5)),
            0.110434,
        ),
        ("2.9.8 universal", nist.universal, 0.282568),
        ("2.10.8 linear complexity, M=1000", lambda b: nist.linear_complexity(b, m=1000), 0.845406),
    ],
    ids=lambda v: v if isinstance(v, str) and " " in v else "",
)
def test_the_printed_examples_on_e(name: str, run_test: object, printed: float) -> None:
    assert round(run_test(e_bits(1_000_000)), 6) == printed  # type: ignore[operator]


@pytest.mark.slow
def test_the_choices_made_on_e() -> None:
    e = e_bits(1_000_000)
    # the exact probabilities (Hamano and Kaneko's), which the battery uses
    assert round(nist.overlapping_template(e), 6) == 0.159027
    # linear complexity with 1/96 for the first class instead of the printed 0.01047
    exact = (1 / 96, 1 / 32, 1 / 8, 1 / 2, 1 / 4, 1 / 16, 1 / 48)
    assert round(nist.linear_complexity(e, m=1000, pi=exact), 6) == 0.844738
    # the fraction alone (1011011111...) is not the examples' sequence: other P-values
    fraction = e_bits(1_000_002)[2:]
    assert round(nist.universal(fraction), 6) == 0.444666


def test_the_universal_statistic_against_nistrng() -> None:
    # nistrng (PyPI) computes the same f_n but divides by sqrt(variance(L)) alone, as
    # 2.9.4's small example does: its P-value gives back |f_n - E(L)| to compare. Its other
    # two tests are not the standard's: its overlapping template test uses m = 10 in
    # blocks of 1062, skips each block's last window, and the formula's probabilities;
    # its Berlekamp-Massey copies the connection polynomial by a NumPy slice (a view), so
    # it finds 6 for 2.10.4's 1101011110001, whose linear complexity is 4.
    nistrng = pytest.importorskip("nistrng.sp800_22r1a")
    special = pytest.importorskip("scipy.special")
    for seed in ("nistrng 1", "nistrng 2"):
        sequence = nist.stream_bits(seed, 1_000_000)
        theirs = nistrng.MaurersUniversalTest()._execute(np.frombuffer(sequence, np.int8))
        distance = special.erfcinv(float(theirs.score)) * math.sqrt(2 * 3.125)
        fn = nist.universal_statistic(sequence, block=7, init=1280)
        assert abs(fn - 6.1962507) == pytest.approx(distance, rel=1e-9)


def biased(count: int) -> list[int]:
    """The stream with one bit in 20 set to 1: ones 52.5% of the time."""
    return [1 if i % 20 == 0 else b for i, b in enumerate(nist.stream_bits("biased", count))]


def test_the_new_tests_fail_a_biased_stream() -> None:
    sequence = biased(1_000_000)
    assert nist.overlapping_template(sequence) < 0.01  # more runs of nine ones
    assert nist.universal(sequence) < 0.01  # more compressible
    # linear complexity does not see a bias; it sees a linear recurrence. Bits that repeat
    # 249 bits back, XORed with the bit 100 back, give blocks of complexity 249 at most
    recurrent = list(nist.stream_bits("recurrent", 249))
    for i in range(249, 1_000_000):
        recurrent.append(recurrent[i - 249] ^ recurrent[i - 100])
    assert nist.linear_complexity(recurrent) < 0.01
    fair = nist.stream_bits("fair", 1_000_000)
    assert min(nist.overlapping_template(fair), nist.universal(fair)) >= 0.01
    assert nist.linear_complexity(fair) >= 0.01
    # the largest block section 2.10.7 recommends: the mean's 2**-M term underflows to 0
    assert nist.linear_complexity(fair, m=5000) >= 0.01


@pytest.mark.slow
def test_the_battery_runs_the_three_on_a_million_bits() -> None:
    report = nist.battery("three", sequences=1, bits=2**20)
    found = {r.name: r for r in report.results}
    for name in (
        "overlapping template (m=9, M=1032)",
        "universal (L=7)",
        "linear complexity (M=500)",
    ):
        assert len(found[name].p_values) == 1 and found[name].verdict == "pass"


@pytest.mark.slow
def test_dieharder_reads_the_stream() -> None:
    require("dieharder", dieharder_path() is not None, "apt-get install dieharder")
    (result,) = run_dieharder("ci", (0,))
    assert result.test == "diehard_birthdays" and result.assessment in ("PASSED", "WEAK")
    assert 0 <= result.p_value <= 1
