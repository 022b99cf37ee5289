"""Every command works under a 1 GiB address-space cap (``ulimit -v 1048576``).

Containers and CI runners often cap a process's virtual memory; a buffer sized by a limit
(``read(1 GiB + 1)``) instead of by the data then fails with MemoryError on a tiny file.
Each command runs here in a subprocess with ``RLIMIT_AS`` set to 1 GiB, on ordinary inputs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import ROOT

resource = pytest.importorskip("resource")  # POSIX only

CAP = 1024**3  # ulimit -v 1048576 (KiB)
PLAIN = ROOT / "tests" / "fixtures" / "plain.xlsx"


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def run_capped(folder: Path, *argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """``python -m xlshuffle ARGV`` in ``folder`` under the cap."""
    done = subprocess.run(
        [sys.executable, "-m", "xlshuffle", *argv],
        cwd=folder,
        input=stdin.decode(),
        capture_output=True,
        text=True,
        preexec_fn=_capped,  # noqa: PLW1509 - no threads here that it could deadlock
        check=False,
        timeout=300,
    )
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    assert done.returncode == 0, (argv, done.stderr)
    return done


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(PLAIN, tmp_path / "plain.xlsx")
    (tmp_path / "names.txt").write_text("".join(f"name {i}\n" for i in range(1000)))
    (tmp_path / "list.csv").write_text(
        "Name,Class\n" + "".join(f"pupil {i},{i % 3}\n" for i in range(200))
    )
    return tmp_path


def test_the_interpreter_starts_under_the_cap(folder: Path) -> None:
    done = run_capped(folder, "--version")
    assert done.stdout.startswith("xlshuffle ")


@pytest.mark.parametrize(
    "argv",
    [
        ("lines", "names.txt", "--seed", "1"),
        ("lines", "-n", "3", "--seed", "1", "-o", "out.txt", "names.txt"),
        ("deal", "--hands", "4", "--seed", "1"),
        ("seed",),
        ("shuffle", "plain.xlsx", "--seed", "1", "-o", "out.xlsx"),
        ("sample", "plain.xlsx", "-k", "3", "--seed", "1"),
        ("groups", "plain.xlsx", "-k", "3", "--seed", "1", "-o", "g.xlsx"),
        ("shuffle", "list.csv", "--seed", "1", "-o", "out.csv"),
        ("sample", "list.csv", "-k", "3", "--seed", "1"),
        ("groups", "list.csv", "-k", "3", "--seed", "1", "-o", "g.csv"),
        ("fairness", "--n", "5", "--trials", "200", "--exact-n", "3"),
    ],
    ids=lambda argv: " ".join(argv),
)
def test_command_under_the_cap(folder: Path, argv: tuple[str, ...]) -> None:
    run_capped(folder, *argv)


def test_lines_from_stdin_under_the_cap(folder: Path) -> None:
    done = run_capped(folder, "lines", "--seed", "1", stdin=b"a\nb\nc\n")
    assert sorted(done.stdout.splitlines()) == ["a", "b", "c"]


def test_verify_and_restore_under_the_cap(folder: Path) -> None:
    run_capped(folder, "shuffle", "plain.xlsx", "--seed", "1", "-o", "out.xlsx",
               "--record", "rec.json")  # fmt: skip
    # verify read its record into a buffer of the record limit (1 GiB): MemoryError
    done = run_capped(folder, "verify", "rec.json", "--input", "plain.xlsx", "--output", "out.xlsx")
    assert done.stdout.startswith("ok"), done.stdout
    run_capped(folder, "restore", "rec.json", "out.xlsx", "-o", "back.xlsx")
    assert (folder / "back.xlsx").is_file()
