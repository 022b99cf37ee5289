"""The README is short, its examples run and print what it shows, its set-up commands are the
ones CI and the release check run, and its links lead somewhere."""

from __future__ import annotations

import doctest
import re
import shlex
import shutil
from pathlib import Path

import pytest

from doc_runner import blocks, commands, run_console
from xlshuffle.cli import main

from support import ROOT

README = ROOT / "README.md"


def _text() -> str:
    return README.read_text(encoding="utf-8")


def test_the_readme_reads_in_five_minutes() -> None:
    """At most 200 lines and 10 KB: the rest belongs in docs/, which the README links."""
    data = README.read_bytes()
    lines = data.count(b"\n")
    assert lines <= 200, f"README.md has {lines} lines: move some to docs/"
    assert len(data) <= 10_000, f"README.md is {len(data)} bytes: move some to docs/"


def test_readme_python_examples() -> None:
    blocks_ = re.findall(r"```python\n(.*?)```", _text(), flags=re.DOTALL)
    assert blocks_, "the README should show the Python API"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for k, block in enumerate(blocks_):
        runner.run(parser.get_doctest(block, {}, f"README block {k + 1}", "README.md", 0))
    result = runner.summarize(verbose=False)
    assert result.attempted >= 2
    assert result.failed == 0


def test_readme_console_examples_print_what_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every console example, run as written with the convention of the docs pages
    (tests/doc_runner.py), in order, in a directory holding a copy of workbooks/."""
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    monkeypatch.chdir(tmp_path)

    def xlshuffle(argv: list[str]) -> tuple[int, str, str]:
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    consoles = [b for b in blocks(_text()) if b.language == "console"]
    assert all(b.runs for b in consoles), "a README example is run, never marked not run"
    for block in consoles:
        run_console(block, "README.md", xlshuffle)
    ran = [cmd for b in consoles for cmd, _ in commands(b.text)]
    jobs = {shlex.split(cmd)[1] for cmd in ran if cmd.startswith("xlshuffle ")}
    # one example per kind of user: raffle with proof, audit, orders, allocation, teams, deal
    assert {"commit", "draw", "verify", "sample", "orders", "allocate", "groups", "deal"} <= jobs


def _bash_lines() -> list[str]:
    return [
        line
        for block in re.findall(r"```bash\n(.*?)```", _text(), flags=re.DOTALL)
        for line in block.splitlines()
    ]


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    """.ci/run ends with the README's test command, verbatim."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci in _bash_lines()
    assert ci.endswith(".venv/bin/python -m pytest") and '".[test]"' in ci


def test_the_readme_main_job_prints_what_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The quick start's job (the command after its install), and the line the README
    shows under it; scripts/release-check runs the same job from the built wheel."""
    (job,) = [line for line in _bash_lines() if ".venv/bin/xlshuffle " in line]
    argv = shlex.split(job.split("&& .venv/bin/xlshuffle ")[1])
    assert argv[:2] == ["shuffle", "workbooks/raffle.xlsx"]
    text = _text()
    after = text[text.index("```", text.index(job)) + 3 :]  # past the command's block
    shown = re.search(r"^```\n(.*?)^```$", after, flags=re.DOTALL | re.MULTILINE)
    assert shown is not None, "the README shows what the main job prints"
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == shown[1].splitlines()
    release = (ROOT / "scripts" / "release-check").read_text(encoding="utf-8")
    assert 'shuffle "$root/workbooks/raffle.xlsx" --seed 2026 -o raffle-shuffled.xlsx' in release


def test_readme_pictures_exist() -> None:
    """Every picture the README shows is in the repository (the lock one among them)."""
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", _text())
    assert "docs/img/excel-demo-lock.png" in pictures
    for picture in pictures:
        assert (ROOT / picture).is_file(), picture


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading (mkdocs.yml's slugify gives the same)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_readme_links_lead_somewhere() -> None:
    """Relative links name files of the repository, and their anchors headings of the file."""
    links = re.findall(r"\]\(([^)\s]+)\)", _text())
    local = [link for link in links if "://" not in link]
    assert len(local) > 20
    for link in local:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.exists(), link
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), flags=re.M)
            assert anchor in {_anchor(h) for h in headings}, link
