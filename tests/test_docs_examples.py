"""The docs cannot lie: every example of every page of docs/ runs as written and prints what
the page shows (the convention: tests/doc_runner.py, and CONTRIBUTING.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from doc_runner import Block, blocks, run_console, run_python, write_file
from xlshuffle.cli import main

from support import ROOT

DOCS = ROOT / "docs"
# Pages whose examples another test runs, in a way this runner cannot.
ELSEWHERE = {
    "draw-protocol.md": "its reference code is one program, run by tests/protocol_references.py",
}
PAGES = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md") if p.name not in ELSEWHERE)


@pytest.fixture
def xlshuffle(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def run(argv: list[str]) -> tuple[int, str, str]:
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.mark.parametrize("page", PAGES)
def test_every_example_of_the_page_runs_and_prints_what_it_shows(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, xlshuffle
) -> None:
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    monkeypatch.chdir(tmp_path)
    for block in blocks((DOCS / page).read_text(encoding="utf-8")):
        if not block.runs:
            continue
        if block.language == "file":
            write_file(block)
        elif block.language == "console":
            run_console(block, page, xlshuffle)
        else:
            run_python(block, page)


def test_a_block_marked_not_run_says_why() -> None:
    marked: list[Block] = [
        b for page in PAGES for b in blocks((DOCS / page).read_text("utf-8")) if b.not_run
    ]
    assert all(len(b.not_run or "") >= 10 for b in marked)
