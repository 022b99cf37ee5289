"""The README's Python examples run and print what the README says."""

from __future__ import annotations

import doctest
import re

from support import ROOT


def test_readme_python_examples() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README should show the Python API"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for k, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {k + 1}", "README.md", 0))
    result = runner.summarize(verbose=False)
    assert result.attempted > 5
    assert result.failed == 0


def _console_blocks(text: str) -> list[list[tuple[str, list[str]]]]:
    """Each ```console block as (command, output lines) pairs."""
    blocks = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.DOTALL):
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        blocks.append(steps)
    return blocks


def test_readme_batch_examples_print_what_they_say(tmp_path, monkeypatch, capsys) -> None:
    """The batch-mode console examples, run as written (r2.xlsx is a copy of the raffle)."""
    import shlex
    import shutil

    from xlshuffle.cli import main

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    shutil.copyfile(ROOT / "workbooks" / "raffle.xlsx", tmp_path / "r2.xlsx")
    monkeypatch.chdir(tmp_path)
    checked = 0
    for steps in _console_blocks(text):
        if not any(cmd.split()[1:2] in (["sample"], ["shuffle"]) for cmd, _ in steps):
            continue
        for cmd, expected in steps:
            argv = shlex.split(cmd)
            assert argv[0] == "xlshuffle"
            assert main(argv[1:]) == 0, cmd
            out = capsys.readouterr().out.splitlines()
            assert out == expected, cmd
            checked += 1
    assert checked >= 4


def test_readme_pictures_exist() -> None:
    """Every picture the README shows is in the repository (the lock one among them)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert "docs/img/excel-demo-lock.png" in pictures
    for picture in pictures:
        assert (ROOT / picture).is_file(), picture
