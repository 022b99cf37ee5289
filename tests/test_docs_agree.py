"""The docs tell one story: install steps and the xlwings Lite steps agree everywhere."""

from __future__ import annotations

import re

from support import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _steps(text: str, start: str) -> str:
    """The numbered list that follows ``start`` (up to the first line that is neither a
    step nor part of one)."""
    at = text.index(start)
    first = text.index("\n1. ", at) + 1
    lines = []
    for line in text[first:].splitlines():
        if line and not (line[0].isdigit() or line.startswith("   ")):
            break
        lines.append(line)
    return "\n".join(lines).strip()


def test_the_lite_steps_are_the_same_in_lite_md_and_excel_md() -> None:
    lite = _steps((ROOT / "docs" / "lite.md").read_text(encoding="utf-8"), "## Step by step")
    excel = _steps((ROOT / "docs" / "excel.md").read_text(encoding="utf-8"), "## xlwings Lite")
    assert lite.startswith("1. Excel: *Home > Add-ins*") and "\n6. " in lite
    assert excel == lite


def test_every_pip_install_installs_from_the_checkout() -> None:
    """No package index serves xlshuffle yet (docs/lite.md says so): an install command
    naming the package on an index would fail, unless the line says it is for later."""
    bad = []
    for path in DOCS:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in re.finditer(r"pip install ([^`\n]*)", line):
                target = m[1].replace("-q ", "").replace("-e ", "").strip().strip("'\"")
                later = "PyPI" in line or "index" in line
                if target.startswith("xlshuffle") and not later:
                    bad.append(f"{path.name}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)
