"""Every command works under a 1 GiB address-space cap (``ulimit -v 1048576``).

Containers and CI runners often cap a process's virtual memory; a buffer sized by a limit
(``read(1 GiB + 1)``) instead of by the data then fails with MemoryError on a tiny file.
Each command runs here in a subprocess with ``RLIMIT_AS`` set to 1 GiB, on ordinary inputs.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
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
        preexec_fn=_capped,  # no threads here that it could deadlock
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
    run_capped(
        folder, "shuffle", "plain.xlsx", "--seed", "1", "-o", "out.xlsx", "--record", "rec.json"
    )
    # verify read its record into a buffer of the record limit (1 GiB): MemoryError
    done = run_capped(folder, "verify", "rec.json", "--input", "plain.xlsx", "--output", "out.xlsx")
    assert done.stdout.startswith("ok"), done.stdout
    run_capped(folder, "restore", "rec.json", "out.xlsx", "-o", "back.xlsx")
    assert (folder / "back.xlsx").is_file()


# --------------------------------------------------------------------------- one line each


def one_line(done: subprocess.CompletedProcess[str], code: int) -> str:
    """The single ``Error: ...`` line of a refused run that exited with ``code``."""
    assert done.returncode == code, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    return lines[0]


def leftovers(folder: Path, before: set[str]) -> set[str]:
    """Files that appeared in ``folder`` (a temporary file left behind, an output)."""
    return {p.name for p in folder.iterdir()} - before


_ENDLESS = (
    "import sys\n"
    "try:\n"
    "    while True:\n"
    "        sys.stdout.buffer.write(b'\\n' * (1 << 20))\n"
    "except (BrokenPipeError, OSError):\n"
    "    pass\n"
)


@pytest.mark.parametrize("limit", [None, "1000000"])
def test_an_endless_stream_of_empty_lines_is_refused_in_one_line(
    folder: Path, limit: str | None
) -> None:
    # an offset a line: hundreds of millions of empty lines took 4 bytes each (and minutes
    # of drawing) until memory ran out; now the count is checked as the chunks arrive
    before = {p.name for p in folder.iterdir()}
    writer = subprocess.Popen([sys.executable, "-c", _ENDLESS], stdout=subprocess.PIPE)
    extra = [] if limit is None else ["--max-lines", limit]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "xlshuffle", "lines", "--seed", "1", "-o", "out.txt", *extra],
            cwd=folder,
            stdin=writer.stdout,
            capture_output=True,
            text=True,
            preexec_fn=_capped,
            check=False,
            timeout=300,
        )
    finally:
        assert writer.stdout is not None
        writer.stdout.close()
        writer.kill()
        writer.wait()
    line = one_line(done, 1)
    assert f"more than {int(limit or 100_000_000):,} lines" in line and "--max-lines" in line
    assert done.stdout == ""
    assert leftovers(folder, before) == set()


def test_max_lines_refuses_a_file_before_drawing(folder: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "xlshuffle", "lines", "names.txt", "--max-lines", "999"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "names.txt: more than 999 lines" in one_line(done, 1)
    assert done.stdout == ""
    ok = subprocess.run(
        [sys.executable, "-m", "xlshuffle", "lines", "names.txt", "--max-lines", "1000"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and len(ok.stdout.splitlines()) == 1000
    (folder / "names.txt").write_text("a\nb\nc")  # three lines, the last without \n
    done = subprocess.run(
        [sys.executable, "-m", "xlshuffle", "lines", "names.txt", "--max-lines", "2"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "names.txt: more than 2 lines" in one_line(done, 1)


def test_max_lines_below_1_is_a_usage_error(folder: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "xlshuffle", "lines", "names.txt", "--max-lines", "0"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "--max-lines" in one_line(done, 2)


def test_the_max_lines_default_is_the_documented_one() -> None:
    from xlshuffle.cli import build_parser
    from xlshuffle.lists.lines import DEFAULT_MAX_LINES

    args = build_parser().parse_args(["lines"])
    assert args.max_lines == DEFAULT_MAX_LINES


# --------------------------------------------------------------------------- record path


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from xlshuffle.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("record", ["missing/rec.json", "adir", "afile/rec.json", "ro/rec.json"])
@pytest.mark.parametrize("src", ["plain.xlsx", "list.csv"])
def test_a_record_that_cannot_be_written_is_refused_before_drawing(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    record: str,
    src: str,
) -> None:
    (folder / "adir").mkdir()
    (folder / "afile").write_text("")
    (folder / "ro").mkdir()
    real_access = os.access
    # root may write anywhere, so the read-only folder is one os.access says no to
    monkeypatch.setattr(
        os, "access", lambda p, m: False if Path(p).name == "ro" else real_access(p, m)
    )
    monkeypatch.chdir(folder)
    before = {p.name for p in folder.iterdir()}
    code, out, err = run_main(
        capsys, "shuffle", src, "--seed", "1", "-o", "out" + src[-5:], "--record", record
    )
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {record}"), err
    assert out == ""  # nothing was drawn
    assert leftovers(folder, before) == set()
    assert not list((folder / "ro").iterdir()) and not list((folder / "adir").iterdir())


# --------------------------------------------------------------------------- permission bits


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
@pytest.mark.parametrize(
    "argv",
    [
        ("shuffle", "plain.xlsx", "--seed", "1", "-o", "out.xlsx"),
        ("groups", "plain.xlsx", "-k", "2", "--seed", "1", "-o", "out.xlsx"),
        ("sample", "plain.xlsx", "-k", "2", "--seed", "1", "--out-dir", "sub", "--overwrite"),
        ("shuffle", "list.csv", "--seed", "1", "-o", "out.csv"),
        ("sample", "list.csv", "-k", "2", "--seed", "1", "--suffix", ".out", "--overwrite"),
        ("lines", "names.txt", "--seed", "1", "-o", "out.txt"),
        ("restore", "rec.json", "shuffled.xlsx", "-o", "out.xlsx"),
    ],
    ids=lambda argv: " ".join(argv),
)
def test_an_output_replaced_keeps_its_permission_bits(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
) -> None:
    monkeypatch.chdir(folder)
    (folder / "sub").mkdir()
    if argv[0] == "restore":
        assert (
            run_main(
                capsys,
                "shuffle",
                "plain.xlsx",
                "--seed",
                "1",
                "-o",
                "shuffled.xlsx",
                "--record",
                "rec.json",
            )[0]
            == 0
        )
    outputs = ["out.xlsx", "out.csv", "out.txt", "sub/plain.xlsx", "list.out.csv"]
    for name in outputs:
        (folder / name).write_bytes(b"last week's file")
        (folder / name).chmod(0o640)  # made private on purpose; the input is 0o644
    for name in ("plain.xlsx", "list.csv", "names.txt", "shuffled.xlsx"):
        if (folder / name).exists():
            (folder / name).chmod(0o644)
    code, _, err = run_main(capsys, *argv)
    assert code == 0, err
    written = [n for n in outputs if (folder / n).read_bytes() != b"last week's file"]
    assert len(written) == 1, written
    assert stat.S_IMODE((folder / written[0]).stat().st_mode) == 0o640


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
@pytest.mark.parametrize("src", ["plain.xlsx", "list.csv"])
def test_in_place_keeps_the_permission_bits(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, src: str
) -> None:
    monkeypatch.chdir(folder)
    (folder / src).chmod(0o604)
    code, _, err = run_main(capsys, "shuffle", src, "--seed", "1", "--in-place")
    assert code == 0, err
    assert stat.S_IMODE((folder / src).stat().st_mode) == 0o604
    backup = src.replace(".", ".bak.")
    assert stat.S_IMODE((folder / backup).stat().st_mode) == 0o604


# --------------------------------------------------------------------------- names not UTF-8


@pytest.fixture
def latin1(folder: Path) -> Path:
    """``folder`` with ``caf\\xe9.xlsx``, ``.csv`` and ``.txt``: names that are not UTF-8."""
    if sys.platform != "linux":
        pytest.skip("only Linux file systems take any bytes as a name")
    for ext, src in ((".xlsx", "plain.xlsx"), (".csv", "list.csv"), (".txt", "names.txt")):
        shutil.copy(folder / src, os.path.join(os.fsencode(folder), b"caf\xe9" + ext.encode()))
    return folder


CAFE = os.fsdecode(b"caf\xe9")  # 'caf\udce9', as Python holds it


def run_env(folder: Path, *argv: str, strict: bool) -> subprocess.CompletedProcess[str]:
    """Run in a strict UTF-8 environment (PYTHONIOENCODING=utf-8: print fails on such a
    name unless xlshuffle handles it) or the inherited one."""
    env = dict(os.environ)
    env.pop("PYTHONIOENCODING", None)
    if strict:
        env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", "xlshuffle", *argv],
        cwd=folder,
        env=env,
        capture_output=True,
        check=False,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
    )


@pytest.mark.parametrize("strict", [True, False], ids=["strict-stdout", "inherited"])
def test_a_name_that_is_not_utf8_goes_through_every_command(latin1: Path, strict: bool) -> None:
    def ok(*argv: str) -> subprocess.CompletedProcess[str]:
        done = run_env(latin1, *argv, strict=strict)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (argv, done.stderr)
        return done

    ok("lines", f"{CAFE}.txt", "--seed", "1", "-o", f"{CAFE}.out.txt")
    for ext in (".xlsx", ".csv"):
        ok("shuffle", f"{CAFE}{ext}", "--seed", "1", "--record", f"{CAFE}{ext}.json", "--json")
        ok(
            "sample",
            f"{CAFE}{ext}",
            "-k",
            "2",
            "--seed",
            "1",
            "--json",
            "-o",
            f"{CAFE}.winners{'.csv' if ext == '.csv' else '.xlsx'}",
        )
        ok("groups", f"{CAFE}{ext}", "-k", "2", "--seed", "1")
        record = latin1 / f"{CAFE}{ext}.json"
        text = record.read_bytes().decode("utf-8")  # a record is UTF-8 text
        data = json.loads(text)
        # the name is kept exactly: its \udcXX escape reads back as the same bytes
        assert os.fsencode(data["input"]) == b"caf\xe9" + ext.encode()
        assert os.fsencode(data["output"]) == b"caf\xe9.shuffled" + ext.encode()
        assert ok("verify", record.name).stdout.startswith("ok")
    ok("restore", f"{CAFE}.xlsx.json", f"{CAFE}.shuffled.xlsx", "-o", f"{CAFE}.back.xlsx")
    assert (latin1 / f"{CAFE}.back.xlsx").is_file()


@pytest.mark.parametrize(
    "argv",
    [
        ("lines", f"{CAFE}.nope"),
        ("shuffle", f"{CAFE}.nope.xlsx", "--seed", "1"),
        ("sample", f"{CAFE}.nope.csv", "-k", "1", "--seed", "1"),
        ("groups", f"{CAFE}.txt", "-k", "2", "--seed", "1"),
        ("verify", f"{CAFE}.txt"),
        ("restore", f"{CAFE}.txt", f"{CAFE}.xlsx", "-o", "out.xlsx"),
    ],
    ids=lambda argv: argv[0],
)
def test_a_name_that_is_not_utf8_in_a_refusal_is_one_line(
    latin1: Path, argv: tuple[str, ...]
) -> None:
    before = {p.name for p in latin1.iterdir()}
    done = run_env(latin1, *argv, strict=True)
    line = one_line(done, 1)
    assert "caf\\udce9" in line, line
    assert leftovers(latin1, before) == set()


@pytest.mark.parametrize("flag", ["--label", "--sheet-name"])
def test_a_label_that_is_not_utf8_is_a_usage_error(latin1: Path, flag: str) -> None:
    command = "groups" if flag == "--label" else "sample"
    before = {p.name for p in latin1.iterdir()}
    done = run_env(
        latin1,
        command,
        "plain.xlsx",
        "-k",
        "2",
        "--seed",
        "1",
        "--suffix",
        ".x",
        flag,
        CAFE,
        strict=True,
    )
    assert flag in one_line(done, 2)
    assert leftovers(latin1, before) == set()


def test_running_out_of_memory_is_one_line(folder: Path) -> None:
    # 10**9 cards of a 2**53 deck: MemoryError under a cap (here 400 MB, to fail sooner),
    # which was a traceback
    def small_cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 * 1024**2, 400 * 1024**2))

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "xlshuffle",
            "deal",
            "--deck",
            str(2**53),
            "--cards",
            str(10**9),
            "--seed",
            "1",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        preexec_fn=small_cap,
        check=False,
        timeout=300,
    )
    assert "out of memory" in one_line(done, 1)
