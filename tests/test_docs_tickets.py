"""docs/tickets.md's examples run as written and print what the page says: each console
command in a copy of the repository's workbooks, each Python block executed."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest

from doc_runner import console_steps as _steps
from doc_runner import same as _same
from xlshuffle.cli import main

from support import ROOT

PAGE = ROOT / "docs" / "tickets.md"


def test_console_examples_print_what_the_page_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    monkeypatch.chdir(tmp_path)
    steps = _steps(PAGE.read_text(encoding="utf-8"))
    assert len(steps) >= 6
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


def test_python_examples_run_and_their_comments_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 3
    for block in blocks:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, str(PAGE), "exec"), {})
        for shown in re.findall(r"^# (\[.*?\])", block, flags=re.MULTILINE):
            assert printed.getvalue().strip() == shown
