"""``xlshuffle lines``: known answers (seed -> exact output), line rule, size limit, memory.

The known answers were produced by xlshuffle 0.1's ``lines`` (``splitlines()``, every line
re-joined with ``\\n``) before it was rewritten to stream its input: for every input whose
lines end in ``\\n`` or ``\\r\\n`` the seed -> order mapping must stay the same.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from xlshuffle.cli import main


def run_lines(capsysbinary: pytest.CaptureFixture[bytes], tmp_path, data: bytes, *args: str):
    src = tmp_path / "in.txt"
    src.write_bytes(data)
    code = main(["lines", str(src), *args])
    out, err = capsysbinary.readouterr()
    return code, out, err


KNOWN = [
    # input, seed, full shuffle, -n 2
    (b"a\nb\nc\nd\ne\n", "42", b"d\na\nc\ne\nb\n", b"d\na\n"),
    (b"one\ntwo\nthree", "42", b"two\none\nthree\n", b"two\none\n"),
    (b"x\n\ny\n\n", "7", b"y\n\n\nx\n", b"y\n\n"),
    (
        b"\xff\xfe raw\nplain\n\xc3\xa9t\xc3\xa9\n",
        "1",
        b"plain\n\xc3\xa9t\xc3\xa9\n\xff\xfe raw\n",
        b"plain\n\xc3\xa9t\xc3\xa9\n",
    ),
    (b"", "1", b"", b""),
    (b"\n", "1", b"\n", b"\n"),
    (b"solo", "1", b"solo\n", b"solo\n"),
]


@pytest.mark.parametrize(("data", "seed", "full", "two"), KNOWN)
def test_known_answers_of_0_1(capsysbinary, tmp_path, data, seed, full, two) -> None:
    code, out, err = run_lines(capsysbinary, tmp_path, data, "--seed", seed)
    assert (code, out, err) == (0, full, b"")
    code, out, err = run_lines(capsysbinary, tmp_path, data, "--seed", seed, "-n", "2")
    assert (code, out, err) == (0, two, b"")


def test_crlf_lines_keep_0_1_order(capsysbinary, tmp_path) -> None:
    code, out, _ = run_lines(
        capsysbinary, tmp_path, b"a\r\nb\r\nc\r\nd\r\n", "--seed", "2026 raffle"
    )
    assert code == 0 and out.replace(b"\r\n", b"\n") == b"b\nd\na\nc\n"


@pytest.mark.parametrize(
    ("n", "digest"),
    [
        (None, "6a2ec67d6fa254561942783c239d251e73a6091d938c54516c7f546b399c4a30"),
        ("100", "75e623349c2fbe1240283c665247fa364ba44d5067fb145063f3a342e9f4606f"),
        ("5000", "f084bcc4a48507a08bf02bdd67ff59134e2e9c66ff6105fb77ba217dac59e728"),
    ],
)
def test_known_digest_of_10000_lines(capsysbinary, tmp_path, n, digest) -> None:
    data = b"".join(b"line %d\n" % i for i in range(10000))
    extra = [] if n is None else ["-n", n]
    code, out, _ = run_lines(capsysbinary, tmp_path, data, "--seed", "kat", *extra)
    assert code == 0 and hashlib.sha256(out).hexdigest() == digest


def test_stdin_gives_the_same_answer(tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "xlshuffle", "lines", "--seed", "42", "-"],
        input=b"a\nb\nc\nd\ne\n",
        capture_output=True,
        check=True,
    )
    assert proc.stdout == b"d\na\nc\ne\nb\n"


# --------------------------------------------------------------------------- line rule


@pytest.mark.parametrize(
    ("data", "seed", "expected"),
    [
        # CRLF endings are kept (0.1 wrote \n); the order is 0.1's (see above)
        (b"a\r\nb\r\nc\r\nd\r\n", "2026 raffle", b"b\r\nd\r\na\r\nc\r\n"),
        # a last line without a newline gets the file's ending: the first line's
        (b"a\r\nb\r\nc\r\nd", "2026 raffle", b"b\r\nd\r\na\r\nc\r\n"),
        # a bare \r is a byte inside a line (0.1 split there), as are \x0b, \x0c, \x1c, \x85
        (b"a\rb\nc\x0bd\ne\x0cf\x1cg\xc2\x85h\n", "1", b"c\x0bd\ne\x0cf\x1cg\xc2\x85h\na\rb\n"),
        # mixed endings: each line keeps its own
        (b"a\nb\r\nc\n", "3", b"c\nb\r\na\n"),
    ],
)
def test_lines_keep_their_bytes(capsysbinary, tmp_path, data, seed, expected) -> None:
    code, out, _ = run_lines(capsysbinary, tmp_path, data, "--seed", seed)
    assert (code, out) == (0, expected)


def test_output_is_a_permutation_of_the_input_lines(capsysbinary, tmp_path) -> None:
    lines = [b"%d \xff\xfe\r\x0b%s\r\n" % (i, b"x" * (i % 7)) for i in range(500)]
    code, out, _ = run_lines(capsysbinary, tmp_path, b"".join(lines), "--seed", "p")
    got = [line + b"\n" for line in out.split(b"\n")[:-1]]
    assert code == 0 and sorted(got) == sorted(lines)
    from xlshuffle import shuffled

    assert got == shuffled(lines, seed="p")


@pytest.mark.parametrize("n", ["0", "1", "3", "124", "125", "999", "1000", "5000"])
def test_sample_is_the_prefix_of_the_shuffle(capsysbinary, tmp_path, n) -> None:
    data = b"".join(b"%d\n" % i for i in range(1000))
    _, full, _ = run_lines(capsysbinary, tmp_path, data, "--seed", "s")
    code, part, _ = run_lines(capsysbinary, tmp_path, data, "--seed", "s", "-n", n)
    k = min(int(n), 1000)
    assert code == 0 and part.split(b"\n")[:k] == full.split(b"\n")[:k]
    assert part.count(b"\n") == k


# --------------------------------------------------------------------------- size limit


def test_a_file_over_the_limit_is_refused_in_one_line(capsysbinary, tmp_path) -> None:
    data = b"x" * 1023 + b"\n"
    code, out, err = run_lines(capsysbinary, tmp_path, data * 1025, "--max-mb", "1")
    assert (code, out) == (1, b"")
    assert err.startswith(b"Error: ") and err.count(b"\n") == 1
    assert b"larger than 1 MB" in err and b"--max-mb" in err
    code, out, _ = run_lines(capsysbinary, tmp_path, data * 1024, "--max-mb", "1", "--seed", "1")
    assert code == 0 and len(out) == 1024**2


def test_a_bad_limit_is_a_usage_error(capsysbinary, tmp_path) -> None:
    code, _, err = run_lines(capsysbinary, tmp_path, b"a\n", "--max-mb", "0")
    assert code == 2 and b"--max-mb must be 1 or more" in err


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX shell and yes(1)")
def test_an_endless_pipe_is_refused_without_reading_it_all() -> None:
    # `yes` never ends: the refusal must come from the limit, after about 1 MB
    proc = subprocess.run(
        f'yes | "{sys.executable}" -m xlshuffle lines --max-mb 1',
        shell=True,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1 and proc.stdout == b""
    assert (
        proc.stderr == b"Error: stdin: the input is larger than 1 MB: raise the limit with "
        b"--max-mb N if this is the file you meant\n"
    )


# --------------------------------------------------------------------------- memory

PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
@pytest.mark.parametrize("extra", [[], ["-n", "10"], ["-o", "OUT"]])
def test_peak_memory_is_about_the_input_size(tmp_path, extra) -> None:
    src = tmp_path / "big.txt"
    with src.open("wb") as fh:  # ~50 MB, 2 million lines of 0..40 bytes
        for block in range(20):
            fh.write(
                b"".join(b"%d,%s\n" % (i, b"x" * (i % 41)) for i in range(block, 2_000_000, 20))
            )
    size = src.stat().st_size
    extra = [str(tmp_path / "out.txt") if a == "OUT" else a for a in extra]
    # a fresh parent, so RUSAGE_CHILDREN sees this child alone
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            PEAK,
            sys.executable,
            "-m",
            "xlshuffle",
            "lines",
            str(src),
            "--seed",
            "m",
            *extra,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    peak = int(proc.stdout) * 1024
    assert peak < 3 * size + 60 * 1024**2, (
        f"peak {peak / 1024**2:.0f} MB for {size / 1024**2:.0f} MB"
    )
