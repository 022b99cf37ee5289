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
