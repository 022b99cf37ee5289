"""``xlshuffle fairness --battery``: NIST SP 800-22's tests checked against the worked
examples the publication prints, and the stream through them and through dieharder.

Where a printed example cannot be reproduced from the publication's own formula, the test
says so and checks the formula against an independent computation instead (NumPy's FFT).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from raffle_books import run
from xlshuffle.lab import nist
from xlshuffle.lab.dieharder import dieharder_path, run_dieharder

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
    code, out, err = run(capsys, *argv, "--json")
    report = json.loads(out)
    assert [t["test"] for t in report["tests"]] == [
        t if not t.startswith(("serial", "approximate")) else report["tests"][i]["test"]
        for i, t in enumerate(nist.TESTS)
    ]
    verdicts = {t["test"]: t["verdict"] for t in report["tests"]}
    assert verdicts["frequency"] == "pass" and verdicts["binary matrix rank (32x32)"] == "pass"
    assert report["dieharder"] == []


@pytest.mark.slow
def test_dieharder_reads_the_stream() -> None:
    require("dieharder", dieharder_path() is not None, "apt-get install dieharder")
    (result,) = run_dieharder("ci", (0,))
    assert result.test == "diehard_birthdays" and result.assessment in ("PASSED", "WEAK")
    assert 0 <= result.p_value <= 1
