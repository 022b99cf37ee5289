"""docs/audit.md's examples run as written and print what the page says: each console
command in a copy of the repository's workbooks, each Python block executed, and the
worksheet formulas of its Excel table evaluated."""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest

from doc_runner import console_steps as _steps
from doc_runner import same as _same
from xlshuffle import excel
from xlshuffle.cli import main

from support import ROOT

PAGE = ROOT / "docs" / "audit.md"


def test_console_examples_print_what_the_page_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    monkeypatch.chdir(tmp_path)
    steps = _steps(PAGE.read_text(encoding="utf-8"))
    assert len(steps) >= 7
    for cmd, expected in steps:
        argv = shlex.split(cmd)
        if argv[0] == "head":
            lines = Path(argv[2]).read_text(encoding="utf-8").splitlines()
            got = lines[: int(argv[1].lstrip("-"))]
        else:
            assert argv[0] == "xlshuffle", cmd
            assert main(argv[1:]) == 0, cmd
            got = capsys.readouterr().out.splitlines()
        assert _same(got, expected), (cmd, got)


def test_the_audited_file_is_the_drawn_sample_with_one_column_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = [
        "sample", str(ROOT / "workbooks" / "invoices.csv"), "-k", "33", "--method", "mus",
        "--amount", "Amount", "--seed", "audit 2026", "-o", "sample.csv",
    ]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    drawn = list(csv.reader(io.StringIO(Path("sample.csv").read_text("utf-8"))))
    audited = list(
        csv.reader(io.StringIO((ROOT / "workbooks" / "invoices-audited.csv").read_text("utf-8")))
    )
    assert [row[:-1] for row in audited] == drawn
    assert audited[0][-1] == "Audited"
    changed = {row[0] for row in audited[1:] if row[-1] != row[4]}
    assert changed == {"INV-1006", "INV-1015", "INV-1024"}


def test_the_audited_ledger_is_the_drawn_sample_with_one_column_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["sample", str(ROOT / "workbooks" / "ledger-eu.csv"), "-k", "62", "--method", "cell"]
    argv += ["--amount", "Betrag", "--top-stratum", "interval", "--seed", "Prüfung 2026"]
    assert main([*argv, "-o", "stichprobe.csv"]) == 0
    capsys.readouterr()

    def rows(path: Path) -> list[list[str]]:
        return list(csv.reader(io.StringIO(path.read_text("utf-8")), delimiter=";"))

    drawn, audited = (
        rows(Path("stichprobe.csv")),
        rows(ROOT / "workbooks" / "ledger-eu-audited.csv"),
    )
    assert [row[:-1] for row in audited] == drawn
    changed = {row[0] for row in audited[1:] if row[-1] != row[3]}
    assert changed == {"FAC-2025", "FAC-2056", "FAC-2064", "FAC-2084"}


def test_python_examples_run_and_their_comments_hold() -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 2
    for block in blocks:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, str(PAGE), "exec"), {})
        for shown in re.findall(r"^# (\[.*?\])", block, flags=re.MULTILINE):
            assert printed.getvalue().strip() == shown


def test_the_excel_table_holds() -> None:
    taints = [[1.0], [329.32 / 3293.18], [1000 / 20291.98], [1000 / 20291.98]]
    assert excel.SAMPLESIZE(0.95, 0.05) == 59
    assert excel.SAMPLESIZE(0.95, 0.05, 0.01) == 93
    assert excel.SAMPLESIZE(0.95, 50000 / 435846.74, 5000 / 435846.74, None, "poisson") == 33
    assert round(excel.UPPERLIMIT(93, 1, 0.95), 6) == 0.049994
    assert round(excel.UPPERLIMIT(33, taints, 0.95) * 435846.74, 4) == 66564.2134
