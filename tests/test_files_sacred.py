"""Files are sacred: the input is never written unless --in-place, a backup never
overwrites anything, links are written through, FIFOs and devices are written into, and a
run that fails (a refusal, a full disk, a size limit) leaves input, backup and target as
they were, writes no record and leaves no temporary file."""

from __future__ import annotations

import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from batch_support import copy_fixture, sha
from xlshuffle.cli import main
from xlshuffle.common.files import TEMP_PREFIX

from support import ROOT

POSIX = pytest.mark.skipif(os.name != "posix", reason="links, FIFOs and rlimits are POSIX")


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


def listing(folder: Path) -> dict[str, str]:
    """Every entry of ``folder``: name -> content digest (or kind)."""
    out = {}
    for p in sorted(folder.iterdir()):
        if p.is_symlink():
            out[p.name] = "-> " + os.readlink(p)
        elif p.is_file():
            out[p.name] = sha(p)
        else:
            out[p.name] = "dir"
    return out


def is_workbook(path: Path) -> bool:
    with zipfile.ZipFile(path) as zf:
        return zf.testzip() is None and "[Content_Types].xml" in zf.namelist()


@POSIX
def test_output_that_is_a_link_or_another_name_of_the_input_is_refused(tmp_path: Path, capsys):
    src = copy_fixture("plain.xlsx", tmp_path)
    (tmp_path / "link.xlsx").symlink_to(src)
    os.link(src, tmp_path / "hard.xlsx")
    before = listing(tmp_path)
    for other in ("link.xlsx", "hard.xlsx", f"{tmp_path}/./plain.xlsx"):
        assert run("shuffle", src, "-o", tmp_path / other, "--seed", 1) == 2
        assert "the output is the input" in capsys.readouterr().err
    assert listing(tmp_path) == before


@POSIX
def test_output_link_to_another_file_is_written_through(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    real = tmp_path / "sub" / "real.xlsx"
    real.parent.mkdir()
    real.write_bytes(b"old")
    (tmp_path / "out.xlsx").symlink_to(real)
    assert run("shuffle", src, "-o", tmp_path / "out.xlsx", "--seed", 1) == 0
    assert (tmp_path / "out.xlsx").is_symlink()
    assert is_workbook(real)


@POSIX
def test_in_place_on_a_link_updates_the_file_and_keeps_the_link(tmp_path: Path):
    real = copy_fixture("plain.xlsx", tmp_path)
    original = real.read_bytes()
    link = tmp_path / "draw.xlsx"
    link.symlink_to(real.name)
    assert run("shuffle", link, "--in-place", "--seed", 1) == 0
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_bytes() != original and is_workbook(real)
    assert (tmp_path / "plain.bak.xlsx").read_bytes() == original


def test_a_second_in_place_run_keeps_the_first_backup(tmp_path: Path, capsys):
    src = copy_fixture("plain.xlsx", tmp_path)
    original = src.read_bytes()
    assert run("shuffle", src, "--in-place", "--seed", 1) == 0
    once = src.read_bytes()
    assert run("shuffle", src, "--in-place", "--seed", 2) == 0
    assert run("shuffle", src, "--in-place", "--seed", 3) == 0
    assert (tmp_path / "plain.bak.xlsx").read_bytes() == original
    assert (tmp_path / "plain.bak-2.xlsx").read_bytes() == once
    assert (tmp_path / "plain.bak-3.xlsx").exists()
    assert "(backup " + str(tmp_path / "plain.bak-3.xlsx") in capsys.readouterr().out


@POSIX
def test_outputs_and_backups_keep_the_input_permission_bits(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    src.chmod(0o640)
    assert run("shuffle", src, "-o", tmp_path / "out.xlsx", "--seed", 1) == 0
    assert run("shuffle", src, "--in-place", "--seed", 1) == 0
    for name in ("out.xlsx", "plain.xlsx", "plain.bak.xlsx"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o640, name


@POSIX
def test_dev_null_is_written_into_not_replaced(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    assert run("shuffle", src, "-o", os.devnull, "--seed", 1) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@POSIX
def test_a_fifo_gets_the_workbook_streamed_into_it(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    fifo = tmp_path / "pipe.xlsx"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert run("shuffle", src, "-o", fifo, "--seed", 1) == 0
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    (tmp_path / "copy.xlsx").write_bytes(got[0])
    assert is_workbook(tmp_path / "copy.xlsx")


def test_dry_run_writes_nothing_not_even_a_record(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    before = listing(tmp_path)
    assert run("shuffle", src, "--dry-run", "--record", tmp_path / "r.json", "--seed", 1) == 0
    assert run("shuffle", src, "--dry-run", "--in-place", "--seed", 1) == 0
    assert listing(tmp_path) == before


def test_a_refused_draw_writes_no_output_and_no_record(tmp_path: Path, capsys):
    src = copy_fixture("encrypted.xlsx", tmp_path)
    before = listing(tmp_path)
    code = run("shuffle", src, "-o", tmp_path / "o.xlsx", "--record", tmp_path / "r.json")
    assert code == 1
    assert listing(tmp_path) == before
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_an_xlsm_written_as_xlsx_is_refused(tmp_path: Path, capsys):
    src = copy_fixture("plain.xlsx", tmp_path)
    for name in ("o.xlsm", "o.xltx", "o.XLSB"):
        assert run("shuffle", src, "-o", tmp_path / name, "--seed", 1) == 2
        assert "Excel will not open under the name" in capsys.readouterr().err
    assert not any(p.name.startswith("o.") for p in tmp_path.iterdir())


def test_several_files_without_a_seed_get_one_fresh_seed_each(tmp_path: Path):
    for name in ("a.xlsx", "b.xlsx", "c.xlsx"):
        (tmp_path / name).write_bytes(copy_fixture("plain.xlsx", tmp_path).read_bytes())
    (tmp_path / "plain.xlsx").unlink()
    record = tmp_path / "r.json"
    files = [tmp_path / n for n in ("a.xlsx", "b.xlsx", "c.xlsx")]
    assert run("shuffle", *files, "--suffix=-s", "--record", record) == 0
    seeds = [r["seed"] for r in json.loads(record.read_text())]
    assert len(set(seeds)) == 3
    for i, (f, r) in enumerate(zip(files, json.loads(record.read_text()), strict=True)):
        assert r["input"] == str(f)
        one = tmp_path / f"r{i}.json"
        one.write_text(json.dumps(r))
        out = f.with_name(f.stem + "-s.xlsx")
        assert run("verify", one, "--input", f, "--output", out) == 0


def _limited_run(args: list[str], limit: int, cwd: Path) -> subprocess.CompletedProcess[str]:
    def starve() -> None:  # writes past `limit` bytes fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    code = "import sys; from xlshuffle.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        preexec_fn=starve,
        timeout=60,
        check=False,
    )


@POSIX
@pytest.mark.parametrize(
    "share",
    [
        pytest.param(0.0, marks=pytest.mark.slow),
        pytest.param(0.3, marks=pytest.mark.slow),
        pytest.param(0.6, marks=pytest.mark.slow),
        pytest.param(0.9, marks=pytest.mark.slow),
        0.999,  # the quick suite's: the last bytes, where a write once hung
    ],
)
def test_a_starved_write_leaves_input_backup_and_target_intact(tmp_path: Path, share: float):
    """RLIMIT_FSIZE cuts the output at ``share`` of its size: in the middle of a member,
    in the central directory, at its last bytes (a hang there was a real bug)."""
    src = tmp_path / "raffle.xlsx"
    shutil.copyfile(ROOT / "workbooks" / "raffle.xlsx", src)
    assert run("shuffle", src, "-o", tmp_path / "full.xlsx", "--seed", 2) == 0
    limit = int((tmp_path / "full.xlsx").stat().st_size * share)
    (tmp_path / "full.xlsx").unlink()
    # a first in-place run makes a backup; the target of -o exists already
    assert run("shuffle", src, "--in-place", "--seed", 1) == 0
    (tmp_path / "out.xlsx").write_bytes(b"the old output")
    before = listing(tmp_path)
    for args in (
        ["shuffle", "raffle.xlsx", "-o", "out.xlsx", "--seed", "2", "--record", "r.json"],
        ["shuffle", "raffle.xlsx", "--in-place", "--seed", "2", "--record", "r.json"],
    ):
        res = _limited_run(args, limit, tmp_path)
        assert res.returncode == 1, res.stderr
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
        assert "Traceback" not in res.stderr and TEMP_PREFIX not in res.stderr
        after = listing(tmp_path)
        leftover = {k: v for k, v in after.items() if k not in before}
        # an in-place run may have kept one more backup of the untouched input
        assert all(
            k.startswith("raffle.bak-") and v == before["raffle.xlsx"] for k, v in leftover.items()
        ), leftover
        assert {k: after[k] for k in before} == before


@POSIX
@pytest.mark.slow
@pytest.mark.parametrize("after", [0.3, 0.6, 0.9])
def test_a_killed_run_leaves_input_backup_and_target_intact(tmp_path: Path, after: float):
    """SIGKILL part-way: the input, an earlier backup and the old target are as they
    were; at most a recognisable temporary file is left, and no record."""
    import signal
    import time

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_batch import make_workbook

    src = tmp_path / "big.xlsx"
    make_workbook(str(src), 60_000)
    (tmp_path / "big.bak.xlsx").write_bytes(b"an earlier backup")
    (tmp_path / "out.xlsx").write_bytes(b"the old output")
    before = listing(tmp_path)
    code = "import sys; from xlshuffle.cli import main; sys.exit(main(sys.argv[1:]))"
    for args in (
        ["shuffle", "big.xlsx", "-o", "out.xlsx", "--seed", "2", "--record", "r.json"],
        ["shuffle", "big.xlsx", "--in-place", "--seed", "2", "--record", "r.json"],
    ):
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(after)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        after_kill = listing(tmp_path)
        for name in [n for n in after_kill if n.startswith(TEMP_PREFIX)]:
            (tmp_path / name).unlink()  # what a crash leaves: recognisable, safe to remove
            del after_kill[name]
        new = {k: v for k, v in after_kill.items() if k not in before}
        if proc.returncode == 0:  # it finished before the kill: a whole draw, recorded
            pytest.skip("the run finished before it was killed; nothing to check")
        # killed after the rename, before the record: the target is the whole new workbook
        # (a draw written without its record is allowed; a record without its draw is not)
        target = "out.xlsx" if "-o" in args else "big.xlsx"
        if after_kill[target] != before[target]:
            assert is_workbook(tmp_path / target)
            if "r.json" in new:  # a record may only claim the bytes that were written
                record = json.loads((tmp_path / "r.json").read_text())
                assert record["output_sha256"] == sha(tmp_path / target)
        else:
            assert "r.json" not in new  # no record claims a draw that was not written
        new.pop("r.json", None)
        # an in-place run may have kept a second backup of the untouched input
        assert set(new) <= {"big.bak-2.xlsx"}, new
        assert all(v == before["big.xlsx"] for v in new.values())
        assert {k: after_kill[k] for k in before if k != target} == {
            k: v for k, v in before.items() if k != target
        }
        if "--in-place" in args and after_kill[target] != before[target]:
            assert "big.bak-2.xlsx" in new  # the original is kept before it is replaced
        if after_kill[target] != before[target]:  # put the old file back for the next run
            if target == "out.xlsx":
                (tmp_path / target).write_bytes(b"the old output")
            else:
                (tmp_path / target).write_bytes((tmp_path / "big.bak-2.xlsx").read_bytes())
        if (tmp_path / "r.json").exists():
            (tmp_path / "r.json").unlink()
        for name in new:
            (tmp_path / name).unlink()


@pytest.mark.parametrize("lock", ["~$plain.xlsx", ".~lock.plain.xlsx#"])
def test_a_workbook_open_in_excel_or_libreoffice_is_not_rewritten_in_place(
    tmp_path: Path, capsys, lock: str
):
    src = copy_fixture("plain.xlsx", tmp_path)
    shuffled = tmp_path / "shuffled.xlsx"
    assert run("shuffle", src, "-o", shuffled, "--seed", 1, "--record", tmp_path / "r.json") == 0
    capsys.readouterr()
    suite = "Excel" if lock.startswith("~$") else "LibreOffice"
    for argv, locked in (
        (("shuffle", src, "--in-place", "--seed", 1), src),
        (("groups", src, "--in-place", "-k", 2, "--seed", 1), src),
        (("restore", tmp_path / "r.json", shuffled, "--in-place"), shuffled),
    ):
        (tmp_path / lock.replace("plain", locked.stem)).write_bytes(b"owner")
        before = listing(tmp_path)
        assert run(*argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"{locked}: the workbook is open in {suite} (lock file " in err
        assert lock.replace("plain", locked.stem) in err
        assert f"close it in {suite} first" in err
        assert listing(tmp_path) == before
        (tmp_path / lock.replace("plain", locked.stem)).unlink()
