"""The draw protocol's stream through Debian's ``dieharder`` (Robert G. Brown's battery).

:func:`run_dieharder` starts ``dieharder -g 200 -d TEST`` (generator 200 reads raw bytes
from its standard input) for each test asked for, and feeds it the bytes of one seed's
stream, from its first word (64-bit words, big-endian), for as long as it reads; each
test reads the stream from its start. The result lines are read back as dieharder prints
them: the test's name, its P-value over its samples, and its assessment (PASSED, WEAK,
FAILED). dieharder is not a Python package: ``apt-get install dieharder``.
"""

from __future__ import annotations

import contextlib
import shutil
import struct
import subprocess
import threading
from dataclasses import dataclass
from typing import IO

from ..draw.protocol import DrawStream

__all__ = ["QUICK", "SET", "DieharderResult", "Test", "dieharder_path", "run_dieharder"]

#: A test is dieharder's ``-d`` number, or ``(number, ntup)`` for a test whose tuple size
#: must be given (``-n``): rgb_minimum_distance run alone with ``-n 0`` fails every
#: generator, dieharder's own AES included; ``dieharder -a`` runs it for 2 to 5.
Test = int | tuple[int, int]
#: A test of a few seconds, for the test suite: diehard_birthdays.
QUICK: tuple[Test, ...] = (0,)
#: The tests the documented run takes (``dieharder -l`` lists them): the Diehard tests
#: (diehard_sums, 14, left out as dieharder's own documentation marks it broken), three
#: of the NIST STS tests as dieharder implements them, and three of its own.
SET: tuple[Test, ...] = (
    0,
    1,
    2,
    3,
    4,
    8,
    9,
    10,
    11,
    12,
    13,
    15,
    16,
    100,
    101,
    102,
    (201, 2),
    (201, 3),
    (201, 4),
    (201, 5),
    202,
    203,
)
_CHUNK = 8192  # words per write: 64 KiB


@dataclass(frozen=True)
class DieharderResult:
    """One result line of dieharder: a test (and its ``ntup``), its P-value, assessment."""

    test: str
    ntup: int
    p_value: float
    assessment: str

    def as_dict(self) -> dict[str, object]:
        return {
            "test": self.test,
            "ntup": self.ntup,
            "p_value": self.p_value,
            "assessment": self.assessment,
        }


def dieharder_path() -> str | None:
    """Where ``dieharder`` is, or None when it is not installed."""
    return shutil.which("dieharder")


def _feed(seed: object, pipe: IO[bytes]) -> None:
    stream = DrawStream(seed)
    pack = struct.Struct(f">{_CHUNK}Q").pack
    write = pipe.write
    try:
        while True:
            write(pack(*[stream.next_word() for _ in range(_CHUNK)]))
    except (BrokenPipeError, ValueError, OSError):
        return  # dieharder has read what it needs and closed its end


def _results(text: str) -> list[DieharderResult]:
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 6 and cells[5] in ("PASSED", "WEAK", "FAILED"):
            out.append(DieharderResult(cells[0], int(cells[1]), float(cells[4]), cells[5]))
    return out


def run_dieharder(
    seed: object, tests: tuple[Test, ...] = QUICK, *, executable: str | None = None
) -> list[DieharderResult]:
    """Run each of ``tests`` (dieharder's ``-d`` numbers, or ``(number, ntup)``) on
    ``seed``'s stream.

    Raises
    ------
    FileNotFoundError
        When dieharder is not installed (``apt-get install dieharder``).
    RuntimeError
        When dieharder fails or prints no result (its own message is kept).
    """
    exe = executable or dieharder_path()
    if exe is None:
        raise FileNotFoundError("dieharder is not installed: apt-get install dieharder")
    out: list[DieharderResult] = []
    for test in tests:
        number, ntup = test if isinstance(test, tuple) else (test, None)
        argv = [exe, "-g", "200", "-d", str(number), *([] if ntup is None else ["-n", str(ntup)])]
        with subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        ) as proc:
            if proc.stdin is None or proc.stdout is None:  # pipes, as asked: never None
                raise RuntimeError("dieharder could not be given its pipes")
            feeder = threading.Thread(target=_feed, args=(seed, proc.stdin), daemon=True)
            feeder.start()
            text = proc.stdout.read().decode("utf-8", "replace")
            proc.wait()
            feeder.join(timeout=5)
            with contextlib.suppress(OSError):  # already broken: dieharder stopped reading
                proc.stdin.close()
        found = _results(text)
        if proc.returncode != 0 or not found:
            last = text.strip().splitlines()[-1:] or ["no output"]
            raise RuntimeError(f"{' '.join(argv[1:])} failed: {last[0]}")
        out += found
    return out
