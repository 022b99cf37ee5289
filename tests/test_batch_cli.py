"""Batch mode through the command line: outputs, several files, records, verify, safety."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import openpyxl
import pytest

import xlshuffle
from batch_support import FIXTURES, copy_fixture, load, sha
from xlshuffle.cli import main

ROOT = Path(__file__).resolve().parent.parent
RAFFLE = ROOT / "workbooks" / "raffle.xlsx"


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


def test_shuffle_default_writes_beside_with_suffix(tmp_path: Path, capsys):
    src = copy_fixture("plain.xlsx", tmp_path)
    assert run("shuffle", src, "--seed", "42") == 0
    out = tmp_path / "plain.shuffled.xlsx"
    ids = [r[0] for r in load(out).active.iter_rows(min_row=2, values_only=True)]
    assert ids == xlshuffle.shuffled([f"r{i}" for i in range(1, 13)], seed="42")
    line = capsys.readouterr().out
    assert f"-> {out}: 12 data rows (rows) shuffled in Data!A1:E13, header kept, seed 42" in line


def test_output_options(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    assert run("shuffle", src, "--seed", "1", "-o", tmp_path / "x.xlsx") == 0
    assert run("shuffle", src, "--seed", "1", "--suffix=-mixed") == 0
    assert run("shuffle", src, "--seed", "1", "--out-dir", tmp_path / "outdir") == 0
    assert (tmp_path / "x.xlsx").exists()
    assert (tmp_path / "plain-mixed.xlsx").exists()
    assert (tmp_path / "outdir" / "plain.xlsx").exists()


def test_main_job_command_on_the_bundled_raffle(tmp_path: Path, capsys):
    out = tmp_path / "raffle-shuffled.xlsx"
    assert run("shuffle", RAFFLE, "--seed", "2026", "-o", out) == 0
    before = load(RAFFLE)["Tickets"]
    after = load(out)["Tickets"]
    rows = list(before.iter_rows(min_row=2, values_only=True))
    assert len(rows) == 200
    assert list(after.iter_rows(min_row=2, values_only=True)) == xlshuffle.shuffled(
        rows, seed="2026"
    )
    assert after["A1"].value == "Name"
    assert after["A1"].font.b
    assert after.freeze_panes == "A2"
    assert "200 data rows (rows) shuffled in Tickets!A1:D201" in capsys.readouterr().out


def test_several_inputs_continue_past_a_bad_file(tmp_path: Path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("plain.xlsx", "styles.xlsx", "truncated.xlsx", "protected.xlsx"):
        copy_fixture(name, folder)
    assert run("shuffle", folder, "--seed", "7", "--out-dir", tmp_path / "out") == 1
    captured = capsys.readouterr()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["plain.xlsx", "styles.xlsx"]
    assert "4 files: 2 shuffled, 2 failed" in captured.out
    errors = [line for line in captured.err.splitlines() if line.startswith("Error:")]
    assert len(errors) == 2
    assert "Traceback" not in captured.err


def test_jobs_give_the_same_draws(tmp_path: Path):
    for name in ("plain.xlsx", "styles.xlsx", "formulas.xlsx"):
        copy_fixture(name, tmp_path)
    pattern = str(tmp_path / "*.xlsx")
    assert (
        run(
            "shuffle",
            pattern,
            "--seed",
            "j",
            "--out-dir",
            tmp_path / "a",
            "--record",
            tmp_path / "a.json",
        )
        == 0
    )
    assert (
        run(
            "shuffle",
            pattern,
            "--seed",
            "j",
            "--out-dir",
            tmp_path / "b",
            "--jobs",
            "2",
            "--record",
            tmp_path / "b.json",
        )
        == 0
    )
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert [r["permutation"] for r in a] == [r["permutation"] for r in b]
    for name in ("plain.xlsx", "styles.xlsx", "formulas.xlsx"):
        assert list(load(tmp_path / "a" / name).active.values) == list(
            load(tmp_path / "b" / name).active.values
        )


def test_record_and_verify(tmp_path: Path, capsys):
    src = copy_fixture("plain.xlsx", tmp_path)
    out, rec = tmp_path / "out.xlsx", tmp_path / "draw.json"
    assert run("shuffle", src, "-o", out, "--record", rec) == 0
    data = json.loads(rec.read_text())
    for key in (
        "protocol",
        "seed",
        "input_sha256",
        "output_sha256",
        "sheet",
        "selection",
        "mode",
        "header",
        "rows",
        "columns",
        "permutation",
        "tool_version",
        "time_utc",
        "unit",
        "target",
        "parts",
    ):
        assert key in data
    assert data["input_sha256"] == sha(src)
    assert data["output_sha256"] == sha(out)
    assert data["parts"] == {"rewritten": ["xl/worksheets/sheet1.xml"], "added": [], "removed": []}
    assert data["permutation"] == xlshuffle.permutation(12, seed=data["seed"])
    err = capsys.readouterr().err
    assert f"seed {data['seed']} (replay with --seed {data['seed']})" in err
    assert run("verify", rec, "--input", src, "--output", out) == 0
    assert "ok: shuffle of" in capsys.readouterr().out

    wb = openpyxl.load_workbook(out)
    wb.active["B3"] = "someone else"
    wb.save(out)
    assert run("verify", rec, "--input", src, "--output", out) == 1
    assert "row 3 does not hold input row" in (err := capsys.readouterr().err)
    assert "(cell B3 differs from input cell B" in err
    data["permutation"][0], data["permutation"][1] = data["permutation"][1], data["permutation"][0]
    rec.write_text(json.dumps(data))
    assert run("verify", rec) == 1
    assert "does not give this permutation: position 0" in capsys.readouterr().err


def test_json_goes_to_stdout(tmp_path: Path, capsys):
    src = copy_fixture("plain.xlsx", tmp_path)
    assert run("shuffle", src, "--seed", "3", "--json", "--dry-run") == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["output"] is None
    assert record["permutation"] == xlshuffle.permutation(12, seed="3")
    assert "dry run, nothing written" in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.xlsx"]


def test_sample_to_stdout_is_prefix_of_shuffle(tmp_path: Path, capsys):
    src = copy_fixture("plain.xlsx", tmp_path)
    assert run("sample", src, "-k", "4", "--seed", "win") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Rank,id,name,score,joined,active"
    shuffled = xlshuffle.shuffled([f"r{i}" for i in range(1, 13)], seed="win")
    assert [line.split(",")[1] for line in lines[1:]] == shuffled[:4]
    assert lines[1].split(",")[0] == "1"


def test_groups_cli(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    assert run("groups", src, "-k", "3", "--seed", "g") == 0
    ws = load(tmp_path / "plain.groups.xlsx").active
    assert [ws.cell(r, 6).value for r in range(2, 14)] == xlshuffle.groups(12, 3, seed="g")


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["shuffle", "{src}", "--by", "diagonal"], 2, "unknown mode"),
        (["shuffle", "{src}", "--jobs", "0"], 2, "--jobs must be 1 or more"),
        (["shuffle", "{src}", "{other}", "-o", "x.xlsx"], 2, "-o takes one input"),
        (["shuffle", "{src}", "--no-backup"], 2, "only makes sense with --in-place"),
        (["shuffle", "{src}", "--range", "A1", "--table", "T"], 2, "not allowed with"),
        (["sample", "{src}", "-k", "-1"], 2, "-k must be 0 or more"),
        (["groups", "{src}", "-k", "0"], 2, "-k must be 1 or more"),
        (["shuffle", "missing.xlsx"], 1, "missing.xlsx: No such file"),
        (["shuffle", "{src}", "--table", "Nope"], 2, "no table named 'Nope'"),
        (["shuffle", "{src}", "-o", "{src}"], 2, "the output is the input: use --in-place"),
        (["shuffle", "{src}", "-o", "."], 2, ". is a folder: name a file in it"),
        (["shuffle", "{src}", "-o", "no/such/out.xlsx"], 2, "does not exist: create it first"),
        (["shuffle", "{src}", "-o", "out.xlsm"], 2, "name the output out.xlsx"),
        (["shuffle", "nothing-*.xlsx"], 2, "nothing-*.xlsx: no file matches this pattern"),
        (["shuffle", "empty"], 2, "empty: the folder holds no workbook or list"),
    ],
)
def test_errors_are_one_line(tmp_path: Path, capsys, argv, code, message):
    src = copy_fixture("plain.xlsx", tmp_path)
    other = copy_fixture("styles.xlsx", tmp_path)
    (tmp_path / "empty").mkdir()
    args = [a.replace("{src}", str(src)).replace("{other}", str(other)) for a in argv]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(args) == code
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "name", ["encrypted.xlsx", "legacy.xls", "csv_named.xlsx", "entities.xlsx"]
)
def test_refusals_exit_1_with_one_line(tmp_path: Path, capsys, name: str):
    src = copy_fixture(name, tmp_path)
    assert run("shuffle", src, "--seed", "1") == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("Error")]
    assert len(err) == 1
    assert err[0].startswith(f"Error: {src}: ")


def test_in_place_with_backup_and_verify(tmp_path: Path):
    src = copy_fixture("plain.xlsx", tmp_path)
    original = src.read_bytes()
    assert run("shuffle", src, "--in-place", "--seed", "9", "--record", tmp_path / "r.json") == 0
    backup = tmp_path / "plain.bak.xlsx"
    assert backup.read_bytes() == original
    assert run("verify", tmp_path / "r.json", "--input", backup, "--output", src) == 0


def test_restore_undoes_a_shuffle(tmp_path: Path, capsys):
    src = copy_fixture("formulas.xlsx", tmp_path)
    out, rec, back = tmp_path / "out.xlsx", tmp_path / "r.json", tmp_path / "back.xlsx"
    assert run("shuffle", src, "-o", out, "--seed", "undo", "--record", rec) == 0
    assert list(load(out).active.values) != list(load(src).active.values)
    assert run("restore", rec, out, "-o", back) == 0
    assert list(load(back).active.values) == list(load(src).active.values)
    assert "put back in Calc!A1:H11" in capsys.readouterr().out
    assert run("restore", rec, out) == 2  # -o or --in-place is required
    assert "one of the arguments -o/--output --in-place is required" in capsys.readouterr().err


def test_cli_imports_without_openpyxl(tmp_path: Path):
    """openpyxl translates the moved formulas that are not simple: without it a sheet with
    none, or with simple ones only, still draws, and one with others says in one line how
    to install it."""

    def run(path: Path) -> subprocess.CompletedProcess[str]:
        code = (
            "import sys; sys.modules['openpyxl'] = None\n"
            "from xlshuffle.cli import main\n"
            f"sys.exit(main(['shuffle', {str(path)!r}, '--dry-run']))\n"
        )
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False
        )

    assert run(FIXTURES / "plain.xlsx").returncode == 0
    assert run(FIXTURES / "formulas.xlsx").returncode == 0  # A2*2 and the like
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["n", "label"])
    for i in range(2, 8):
        ws.append([i, f'=A{i}&" items"'])  # a string: openpyxl reads it
    wb.save(tmp_path / "strings.xlsx")
    proc = run(tmp_path / "strings.xlsx")
    assert proc.returncode == 1
    assert "pip install 'xlshuffle[xlsx]'" in proc.stderr
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- fault injection


def _big_workbook(path: Path, rows: int) -> None:
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Data")
    ws.append(["id", "a", "b", "c", "d"])
    for i in range(rows):
        ws.append([f"r{i}", i, i * 0.5, f"text {i}", i % 7])
    wb.save(path)


@pytest.mark.slow
def test_killed_in_place_write_leaves_the_input_intact(tmp_path: Path):
    """SIGKILL the real command at many moments of an in-place shuffle."""
    src = tmp_path / "big.xlsx"
    _big_workbook(src, 6_000)
    original = src.read_bytes()
    argv = [sys.executable, "-m", "xlshuffle", "shuffle", str(src), "--in-place", "--seed", "k"]
    runs = []
    for _ in range(2):  # the quicker of two runs, so that the kills land inside one
        src.write_bytes(original)
        start = time.monotonic()
        subprocess.run(argv, check=True, capture_output=True)
        runs.append(time.monotonic() - start)
    full = min(runs)
    outcomes = set()
    for i in range(1, 9):
        src.write_bytes(original)
        for leftover in tmp_path.glob("big.bak.xlsx"):
            leftover.unlink()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(full * i / 8)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data = src.read_bytes()
        if data == original:
            outcomes.add("untouched")
            continue
        # the replace happened: the new file must be whole, and the backup the original
        outcomes.add("replaced")
        assert (tmp_path / "big.bak.xlsx").read_bytes() == original
        wb = openpyxl.load_workbook(src, read_only=True)
        try:
            assert sum(1 for _ in wb["Data"].iter_rows(values_only=True)) == 6_001
        finally:
            wb.close()  # a read-only workbook keeps its file open
    assert "untouched" in outcomes
    for tmp in tmp_path.glob(".~xlshuffle-*"):  # a killed run may leave its temp file only
        assert tmp.name.endswith(".tmp")
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_unseeded_run_that_draws_nothing_prints_no_seed(tmp_path: Path, capsys):
    assert main(["shuffle", str(tmp_path / "missing.xlsx")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and "missing.xlsx" in err
    assert "xlshuffle: seed" not in err and err.count("\n") == 1


def test_max_mb_raises_the_limits_and_small_limits_refuse(tmp_path: Path, capsys):
    from xlshuffle.workbook import LIMITS, raised

    src = copy_fixture("plain.xlsx", tmp_path)
    with raised(max_part_bytes=100):
        assert run("shuffle", src, "--seed", "1", "--dry-run") == 1
    assert "more than xlshuffle reads: raise the limit (--max-mb)" in capsys.readouterr().err
    assert run("shuffle", src, "--seed", "1", "--dry-run", "--max-mb", "0") == 2
    assert run("shuffle", src, "--seed", "1", "--dry-run", "--max-mb", "4096") == 0
    assert LIMITS.max_part_bytes == 256 * 1024**2  # restored after the run
