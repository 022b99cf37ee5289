"""docs/architecture.md is the map of ``src/xlshuffle/``: every module listed once, every
module listed still there, and every path the page names outside its tables real."""

from __future__ import annotations

import re

from support import ROOT

SRC = ROOT / "src" / "xlshuffle"
MAP = ROOT / "docs" / "architecture.md"


def listed() -> list[str]:
    """The modules of the page's tables (a row per module: | `path` | what it holds |)."""
    return re.findall(r"^\| `([\w/]+\.py)` \|", MAP.read_text(encoding="utf-8"), re.MULTILINE)


def modules() -> set[str]:
    return {str(p.relative_to(SRC)) for p in SRC.rglob("*.py")}


def test_every_module_is_on_the_map_once() -> None:
    rows = listed()
    assert sorted(modules() - set(rows)) == [], "modules missing from docs/architecture.md"
    assert sorted({r for r in rows if rows.count(r) > 1}) == [], "modules listed twice"


def test_every_module_on_the_map_is_there() -> None:
    assert sorted(set(listed()) - modules()) == [], (
        "docs/architecture.md lists modules that are gone"
    )


def test_every_path_the_page_names_is_there() -> None:
    """The flow and the 'where to start' table name modules and folders by path too."""
    text = MAP.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:[a-z_]+/)+(?:[a-z_]+\.py)?)`", text))
    gone = sorted(p for p in named if not (SRC / p).exists() and not (ROOT / p).exists())
    assert gone == [], f"docs/architecture.md names paths that are not there: {gone}"
