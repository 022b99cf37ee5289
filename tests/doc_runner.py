"""The examples of the documentation, as the tests run them (``test_docs_examples.py``).

The convention, for every page of ``docs/`` (CONTRIBUTING.md says it too):

- A ```` ```console ```` block is an example, and is run: each ``$ `` line is a command (a
  line ending in ``\\`` goes on the next), and the lines under it are what it prints,
  standard output then standard error, compared line for line (a shown line ending in
  ``...`` matches any ending); a page may leave standard error out (the seed or the record
  a command notes there). A command whose lines show ``Error:`` must fail (exit 1 or 2);
  any other must succeed. Commands: ``xlshuffle ...`` (run in the test's process), ``cat
  FILE`` and ``head -N FILE``. ``cat`` of a file that is not there yet writes it: the page
  shows its reader the input, and the example starts from it.
- A ```` ```python ```` block is an example too: a doctest if it holds ``>>>`` lines, else
  run as a script (its ``print`` output is not compared; ``assert`` says what must hold).
- Any other block (```` ```bash ````, ```` ```text ````, ```` ```json ````...) is an
  illustration: install steps, a placeholder to fill in, a record's shape. Never run.
- ``<!-- example: not run: REASON -->`` on the line before a console or python block makes
  it an illustration, with its reason (it needs Excel, or a file the reader has).
- ``<!-- example: hashes vary -->`` on the line before a console block: a hash shown (16 or
  more hex digits) matches any hash of its length, for a draw whose commitment holds the
  time it was made and a fresh salt.
- ``<!-- example: file NAME`` ... ``-->`` writes the file ``NAME`` with the lines between,
  for an example whose input the page describes in words but does not show.

The examples of a page run in order, in one directory holding a copy of ``workbooks/``, so
a command may read what an earlier one wrote.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
MARK = re.compile(r"<!-- example: (not run: \S[^\n]*?|hashes vary) -->\s*\Z")
HASH = re.compile(r"[0-9a-f]{16,}")
FILE = re.compile(r"^<!-- example: file (\S+)\n(.*?)^-->[ \t]*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    """A fenced block of a page, or a file an example needs (``language`` "file")."""

    line: int
    language: str
    text: str
    not_run: str | None = None  # the reason, for a block marked not run
    hashes_vary: bool = False

    @property
    def runs(self) -> bool:
        return self.language in ("console", "python", "file") and self.not_run is None


def blocks(text: str) -> list[Block]:
    """Every fenced block and every ``example: file`` of ``text``, in page order."""
    found = [
        Block(text.count("\n", 0, m.start()) + 1, "file", f"{m[1]}\n{m[2]}")
        for m in FILE.finditer(text)
    ]
    for m in FENCE.finditer(text):
        mark = MARK.search(text, 0, m.start())
        line = text.count("\n", 0, m.start()) + 1
        if mark and mark[1].startswith("not run: "):
            found.append(Block(line, m[1], m[2], not_run=mark[1].removeprefix("not run: ")))
        else:
            found.append(Block(line, m[1], m[2], hashes_vary=mark is not None))
    return sorted(found, key=lambda b: b.line)


def commands(block: str) -> Iterator[tuple[str, list[str]]]:
    """The (command, lines shown under it) of a console block."""
    steps: list[tuple[str, list[str]]] = []
    going_on = False
    for line in block.splitlines():
        if going_on:
            command, shown = steps[-1]
            steps[-1] = (command + " " + line.strip().removesuffix("\\").strip(), shown)
        elif line.startswith("$ "):
            steps.append((line[2:].removesuffix("\\").strip(), []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise ValueError(f"a console block starts with {line!r}, not a '$ ' command")
        going_on = line.endswith("\\")
    return iter(steps)


def console_steps(text: str) -> list[tuple[str, list[str]]]:
    """Every (command, lines shown under it) of every console block of a page, in order."""
    return [step for b in blocks(text) if b.language == "console" for step in commands(b.text)]


def same(got: list[str], shown: list[str], *, hashes_vary: bool = False) -> bool:
    """Line by line; a shown line ending in '...' matches any ending; with ``hashes_vary``
    a hash matches any hash of its length."""
    if hashes_vary:
        got = [HASH.sub(lambda m: "#" * len(m[0]), line) for line in got]
        shown = [HASH.sub(lambda m: "#" * len(m[0]), line) for line in shown]
    return len(got) == len(shown) and all(
        g.startswith(s[:-3]) if s.endswith("...") else g == s
        for g, s in zip(got, shown, strict=True)
    )


Xlshuffle = Callable[[list[str]], tuple[int, str, str]]


def run_console(block: Block, where: str, xlshuffle: Xlshuffle) -> None:
    """Run each command of a console block in the current directory, and compare."""
    for command, shown in commands(block.text):
        argv = shlex.split(command)
        label = f"{where}:{block.line}: $ {command}"
        if argv[0] == "cat" and len(argv) == 2 and not Path(argv[1]).exists():
            Path(argv[1]).write_text("".join(f"{line}\n" for line in shown), encoding="utf-8")
            continue
        if argv[0] == "cat" and len(argv) == 2:
            code, out, err = 0, Path(argv[1]).read_text(encoding="utf-8-sig"), ""
        elif argv[0] == "head" and len(argv) == 3 and re.fullmatch(r"-\d+", argv[1]):
            lines = Path(argv[2]).read_text(encoding="utf-8-sig").splitlines()
            code, out, err = 0, "".join(f"{x}\n" for x in lines[: int(argv[1][1:])]), ""
        elif argv[0] == "xlshuffle":
            code, out, err = xlshuffle(argv[1:])
        else:
            raise AssertionError(f"{label}: the examples run xlshuffle, cat and head only")
        got, vary = out.splitlines() + err.splitlines(), block.hashes_vary
        fails = any(line.startswith("Error:") for line in shown)
        assert (code != 0) == fails, f"{label}: exit code {code}\n{err}"
        assert same(got, shown, hashes_vary=vary) or same(
            out.splitlines(), shown, hashes_vary=vary
        ), f"{label}: printed\n" + "\n".join(got)


def run_python(block: Block, where: str) -> None:
    """Run a python block: as a doctest with ``>>>`` lines, else as a script."""
    name = f"{where}:{block.line}"
    if ">>>" in block.text:
        parser = doctest.DocTestParser()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        test = parser.get_doctest(block.text, {}, name, where, block.line)
        report = io.StringIO()
        runner.run(test, out=report.write)
        assert runner.summarize(verbose=False).failed == 0, report.getvalue()
        return
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block.text, name, "exec"), {"__name__": "__docs__"})


def write_file(block: Block) -> None:
    name, _, content = block.text.partition("\n")
    Path(name).write_text(content, encoding="utf-8")
