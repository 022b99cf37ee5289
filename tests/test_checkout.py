"""The tests stand on their own: nothing tracked points into the machine it was written on.

A test that reads ``/home/someone/xlshuffle/tests/fixtures`` passes in a fresh clone by
testing another checkout (or skips silently when there is none); tests find files from
``support.ROOT`` and ``support.SHARED`` instead.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from support import ROOT


def _tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    done = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"git ls-files failed: {done.stderr.decode(errors='replace').strip()}")
    return [name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name]


def _machine_paths() -> list[str]:
    """The checkout's path and the path of ``../shared`` beside it. Not the parent itself:
    a clone in ``/tmp`` would otherwise flag every ``/tmp/...`` a test names on purpose
    (Pyodide's own ``/tmp/wheels``, say), and a new user's test run would fail."""
    return [str(ROOT), str(ROOT.parent / "shared")]


def _pattern() -> re.Pattern[bytes]:
    """One of :func:`_machine_paths`, but not the tail of a longer path nor the head of a
    longer name."""
    alternatives = b"|".join(re.escape(os.fsencode(p)) for p in _machine_paths())
    return re.compile(rb"(?<![\w.~/-])(?:" + alternatives + rb")(?![\w.-])")


def test_no_tracked_file_holds_an_absolute_path_of_this_machine() -> None:
    pattern = _pattern()
    offenders = []
    for name in _tracked_files():
        path = ROOT / name
        if path.is_symlink():  # a link to /home/me/... is a path of this machine too
            data = os.fsencode(os.readlink(path))
        elif path.is_file():
            data = path.read_bytes()
        else:
            continue
        if b"\0" in data[:8192]:  # a binary file (workbooks are zip packages)
            continue
        for number, line in enumerate(data.splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{name}:{number}: {line.strip()[:120]!r}")
    assert not offenders, (
        "tracked files name paths of this machine; find files from support.ROOT / "
        "support.SHARED instead:\n" + "\n".join(offenders)
    )


def test_the_check_catches_an_absolute_path() -> None:
    pattern = _pattern()
    assert pattern.search(os.fsencode(f'FIXTURES = Path("{ROOT}/tests/fixtures")'))
    assert not pattern.search(os.fsencode(f'X = "/elsewhere{ROOT}/tests"'))
    assert pattern.search(os.fsencode(f'CORPUS = "{ROOT.parent}/shared/corpus"'))
    # beside the checkout but neither it nor ../shared: a clone in /tmp names /tmp/wheels
    assert not pattern.search(os.fsencode(f'WHEELS = "{ROOT.parent}/wheels"'))
