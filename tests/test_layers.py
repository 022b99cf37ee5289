"""The layers of ``src/xlshuffle/``: who may import whom, read from the code's own imports.

Every module is parsed (never imported), its imports collected, relative ones resolved,
and each is checked against :data:`RULES`; no module imports a private name (``_x``) of
another layer, which uses what that layer exports instead. A module belongs to the rule
with the longest key that names it or a package around it (``lab.plots`` before ``lab``);
a module that no rule names fails the test, so a new layer is one new entry in the table.

Layers, from the bottom::

    draw      the pure core: draw protocol v1 and the shuffles (stdlib; regex lazily)
    tabledraw the draws over a table of values the edges share (raffles, audits, teams)
    common    the typed request and record, and stdlib utilities (file writing, progress)
    functions the worksheet functions as plain Python, for any spreadsheet (stdlib)
    lock      draw and lock for any spreadsheet, through a small protocol of a book (stdlib)
    excel     the worksheet functions and draw and lock in Excel, through xlwings
    calc      the worksheet functions and draw and lock in LibreOffice Calc: a UNO add-in,
              a menu, and its .oxt
    lab       the fairness lab (stdlib; matplotlib only in lab.plots; tabledraw's prize tables)
    lists     draws on text lines and CSV/TSV lists, byte for byte (stdlib)
    workbook  saved workbooks: the lossless engine (openpyxl only translates formulas)
    sheets    xlshuffle's functions for Google Sheets: one Apps Script file (stdlib)
    sql       ticket draws as SQL queries (sql.query: the core only) and DuckDB as an
              engine for big CSV/TSV and Parquet files (duckdb imported when it runs)
    filedraw  one typed draw request run on a file by the list or workbook engine, and
              commit-then-draw of such a request (engines imported when they run)
    records   every kind of record, and verify(record) -> Verdict over all of them
    cli       the command line: the top, may import everything
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from source_imports import PACKAGE, SRC, STDLIB, Import, imports_of, module_name

from support import ROOT

ANY = None  # a rule field that allows everything


@dataclass(frozen=True)
class Rule:
    """What the modules of one layer may import.

    ``layers``: the xlshuffle layers (first names under ``xlshuffle.``; ``__init__`` is the
    package root) they may import, or ``ANY``. ``third_party``: distributions they may
    import anywhere in a module, or ``ANY``. ``lazy``: distributions they may import only
    inside a function, so that importing the module does not load them.
    """

    layers: frozenset[str] | None
    third_party: frozenset[str] | None = frozenset()
    lazy: frozenset[str] = frozenset()


def rule(*layers: str, third_party: tuple[str, ...] = (), lazy: tuple[str, ...] = ()) -> Rule:
    return Rule(frozenset(layers), frozenset(third_party), frozenset(lazy))


#: Layer (or module, as a dotted path under xlshuffle) -> what it may import.
RULES: dict[str, Rule] = {
    "draw": rule("draw", lazy=("regex",)),
    # the root only for __version__ (common.record: a record names the tool's version)
    "tabledraw": rule("draw", "tabledraw"),
    "common": rule("draw", "tabledraw", "common", "__init__"),
    "functions": rule("draw", "tabledraw", "common", "functions"),
    "lock": rule("draw", "tabledraw", "common", "functions", "lock"),
    "excel": rule(
        "draw", "tabledraw", "common", "functions", "lock", "excel", third_party=("xlwings",)
    ),
    # the root only for __version__ (the extension names the tool's version); the build
    # asks regex for the grapheme table
    "calc": rule(
        "draw", "tabledraw", "common", "functions", "lock", "calc", "__init__", lazy=("regex",)
    ),
    # the add-in component: LibreOffice's Python and the interface the extension compiles
    "calc.component": rule("calc", third_party=("uno", "unohelper", "org")),
    # the menu's protocol handler: LibreOffice's Python, the lock commands' one-line message
    "calc.dispatch": rule("calc", "lock", third_party=("uno", "unohelper", "com")),
    "lab": rule("draw", "tabledraw", "common", "lab"),
    "lists": rule("draw", "tabledraw", "common", "lists"),  # line and CSV/TSV lists (stdlib)
    "lab.plots": rule("draw", "common", "lab", third_party=("matplotlib", "PIL")),
    # the root only for __version__ (the record names the tool's version)
    "workbook": rule(
        "draw",
        "tabledraw",
        "common",
        "workbook",
        "__init__",
        third_party=("openpyxl",),
        lazy=("isal",),
    ),
    # the root only for __version__ (a list's record names the tool's version)
    # ticket draws as SQL text: pure, the core only (what `xlshuffle sql` prints)
    "sql.query": rule("draw"),
    # the root only for __version__ (the DuckDB engine's record names the tool's version)
    "sql": rule("draw", "tabledraw", "common", "sql", "__init__", lazy=("duckdb",)),
    # the Apps Script file for Google Sheets, built from JavaScript sources (stdlib only)
    "sheets": rule("common", "sheets"),
    "filedraw": rule(
        "draw", "tabledraw", "common", "lists", "workbook", "sql", "filedraw", "__init__"
    ),
    # every kind of record and its verification (the engines' checks imported as they run)
    "records": rule(
        "draw", "tabledraw", "common", "lists", "workbook", "sql", "filedraw", "records"
    ),
    "cli": Rule(layers=ANY, third_party=ANY),
    "__init__": rule("draw"),  # the root re-exports the core's public API, nothing else
    "__main__": rule("cli"),  # `python -m xlshuffle`
    "batch": rule("workbook"),  # 0.1's import path, kept as an alias of the workbook API
}


def rule_key(module: str) -> str | None:
    """The key of :data:`RULES` that governs ``module`` (the longest that names it)."""
    rest = module.removeprefix(PACKAGE).lstrip(".") or "__init__"
    parts = rest.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in RULES:
            return key
    return None


def layer_of(target: str, known: set[str]) -> str:
    """The layer an xlshuffle import lands in: ``xlshuffle.draw.knuth`` -> ``draw``.

    The root package and its attributes (``from xlshuffle import __version__``) are
    ``__init__``; ``known`` holds the names of the root's modules and subpackages.
    """
    parts = target.split(".")
    if len(parts) > 1 and parts[1] in known:
        return parts[1]
    return "__init__"


def violations(module: str, imports: list[Import], known: set[str]) -> list[str]:
    """What ``module`` imports that its rule does not allow, one line each."""
    key = rule_key(module)
    if key is None:
        return [f"{module}: no rule names it; add its layer to RULES in tests/test_layers.py"]
    r = RULES[key]
    bad = []
    for imp in imports:
        top = imp.target.partition(".")[0]
        where = f"{module}:{imp.line}: imports {imp.target}"
        if top == PACKAGE:
            layer = layer_of(imp.target, known)
            if r.layers is not ANY and layer not in r.layers:
                bad.append(f"{where} (layer {layer!r}; {key!r} may import {sorted(r.layers)})")
        elif top in STDLIB or not top or r.third_party is ANY or top in r.third_party:
            continue
        elif top in r.lazy:
            if not imp.lazy:
                bad.append(f"{where} at module level ({key!r} may import {top} only lazily)")
        else:
            bad.append(f"{where} (third-party {top!r} is not allowed in {key!r})")
    return bad


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _known() -> set[str]:
    return {
        p.stem if p.is_file() else p.name
        for p in SRC.iterdir()
        if p.suffix == ".py" or (p / "__init__.py").exists()
    }


# --------------------------------------------------------------------------- the house


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_module_imports_only_what_its_layer_allows(path: Path) -> None:
    module = module_name(path)
    imports = imports_of(
        path.read_text(encoding="utf-8"), module, is_package=path.name == "__init__.py"
    )
    assert violations(module, imports, _known()) == []


def private_imports(module: str, imports: list[Import], known: set[str]) -> list[str]:
    """The private names (``_x``) ``module`` imports from another layer: a layer's
    private names are its own; another layer uses what it exports."""
    mine = layer_of(module, known)
    bad = []
    for imp in imports:
        parts = imp.target.split(".")
        if parts[0] != PACKAGE or layer_of(imp.target, known) == mine:
            continue
        if any(p.startswith("_") and not p.startswith("__") for p in parts[1:]):
            bad.append(f"{module}:{imp.line}: imports the private {imp.target}")
    return bad


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_module_imports_no_private_name_of_another_layer(path: Path) -> None:
    module = module_name(path)
    imports = imports_of(
        path.read_text(encoding="utf-8"), module, is_package=path.name == "__init__.py"
    )
    assert private_imports(module, imports, _known()) == []


def test_checker_catches_a_private_name_of_another_layer() -> None:
    source = "from ..draw.protocol import _DOMAIN\nfrom .paths import _Usage\n"
    found = private_imports("xlshuffle.cli.batch", imports_of(source, "xlshuffle.cli.batch"), KNOWN)
    assert found == ["xlshuffle.cli.batch:1: imports the private xlshuffle.draw.protocol._DOMAIN"]


def test_every_layer_folder_is_a_package() -> None:
    folders = [p for p in SRC.iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert folders, "no layer folders found"
    for folder in folders:
        assert (folder / "__init__.py").exists(), f"{folder.name}/ has no __init__.py"
        assert rule_key(f"{PACKAGE}.{folder.name}") == folder.name, f"{folder.name}/ has no rule"


# --------------------------------------------------------------------------- the checker


KNOWN = {"draw", "tabledraw", "common", "excel", "lab", "lists", "cli", "workbook", "batch"}


def check(source: str, module: str, *, is_package: bool = False) -> list[str]:
    return violations(module, imports_of(source, module, is_package=is_package), KNOWN)


def test_checker_catches_the_core_importing_the_excel_layer() -> None:
    for source in (
        "from ..excel import SHUFFLE\n",
        "import xlshuffle.excel\n",
        "from xlshuffle import excel\n",
        "def late():\n    from xlshuffle.excel import SHUFFLE\n",  # lazy is no excuse
    ):
        found = check(source, "xlshuffle.draw.knuth")
        assert len(found) == 1, source
        assert "layer 'excel'" in found[0]


def test_checker_passes_the_core_importing_itself_and_the_standard_library() -> None:
    source = (
        "from __future__ import annotations\nimport operator\n"
        "from .errors import SizeError\nfrom .protocol import DrawStream\n"
        "from xlshuffle.draw.protocol import resolve_source\n"
    )
    assert check(source, "xlshuffle.draw.knuth") == []
    assert check("from .knuth import deal\n", "xlshuffle.draw", is_package=True) == []


def test_checker_resolves_relative_imports_from_packages_and_modules() -> None:
    # In a package's __init__, "." is the package itself; in a module, its parent.
    assert imports_of("from . import knuth\n", "xlshuffle.draw", is_package=True)[0].target == (
        "xlshuffle.draw.knuth"
    )
    assert imports_of("from ..lab import plots\n", "xlshuffle.cli.fairness")[0].target == (
        "xlshuffle.lab.plots"
    )
    assert check("from ..cli import main\n", "xlshuffle.lab.fairness") != []
    with pytest.raises(ValueError, match="beyond the top"):
        imports_of("from ... import x\n", "xlshuffle.draw")


def test_checker_tells_lazy_from_module_level_third_party_imports() -> None:
    assert check("import regex\n", "xlshuffle.draw.text") != []
    assert check("def graphemes():\n    import regex\n", "xlshuffle.draw.text") == []
    assert check("import matplotlib\n", "xlshuffle.lab.plots") == []
    assert check("import matplotlib\n", "xlshuffle.lab.fairness") != []
    assert check("import xlwings\n", "xlshuffle.excel", is_package=True) == []
    assert check("import openpyxl\n", "xlshuffle.common.files") != []


def test_checker_knows_the_roots_attributes_from_its_modules() -> None:
    assert check("from .. import __version__\n", "xlshuffle.workbook.records.record") == []
    assert check("from .. import __version__\n", "xlshuffle.lab.fairness") != []
    assert check("from .. import workbook\n", "xlshuffle.cli.batch") == []
    assert check("from ..excel import SHUFFLE\n", "xlshuffle.workbook.api") != []
    assert check("from .. import batch\n", "xlshuffle.excel", is_package=True) != []
    assert check("from . import cli\n", "xlshuffle", is_package=True) != []


def test_checker_refuses_a_module_with_no_rule() -> None:
    assert "no rule" in check("import os\n", "xlshuffle.newthing.mod")[0]
    assert check("from ..draw import shuffled\n", "xlshuffle.workbook.reader") == []


# --------------------------------------------------------------------------- the tests' helpers


def test_no_test_file_imports_another() -> None:
    """What tests share lives in helper modules (support.py, excel_calls.py, oracle.py...): a
    test file holds its tests and its own helpers, so it runs, moves and is marked alone."""
    paths = [*sorted((ROOT / "tests").glob("*.py")), ROOT / "conftest.py"]
    paths += sorted((ROOT / "tools").glob("*.py"))
    found = [
        f"{path.relative_to(ROOT)}:{imp.line}: {imp.target}"
        for path in paths
        for imp in imports_of(path.read_text(encoding="utf-8"), path.stem)
        if imp.target.startswith("test_")
    ]
    assert found == [], "move what these import into a helper module"
