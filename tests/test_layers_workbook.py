"""The sub-packages of the workbook engine, read from the code's own imports.

Inside ``src/xlshuffle/workbook/`` each concern has its folder, and the folders stand in
this order, from the bottom::

    scan          bytes of a sheet's XML: tags, rows, cells, A1 references, the sheet's limits
    package       the zip, its parts (content types, relationships, workbook), reading
                  the input and writing the output
    values        what a cell holds (shared strings, styles, dates), read as values
    formulas      formulas moved as Excel moves them
    selection     what a draw takes: ranges, tables, columns, header, layout rules
    move          the move plan: cells, rows, what travels with them, and what cannot move
    records       what a record keeps of the cells, and what a verify or restore compares
    jobs          (a module at the top) one draw's job: input, sheet, selection, record
    add           draws that move nothing and add a sheet or a column (sample, groups)
    verification  a record checked against its files
    inmemory      the openpyxl adapter: a worksheet in memory, by the same rules

A module may import its own folder and folders below it, and ``workbook.limits`` (which
imports nothing of the engine); the public operations at the top (``api``, ``groups``,
``restore``, ``plaintables``) may import any folder. No module imports a private name
(``_x``) of another folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from source_imports import SRC, imports_of, module_name

WORKBOOK = SRC / "workbook"
ORDER = [
    "scan",
    "package",
    "values",
    "formulas",
    "selection",
    "move",
    "records",
    "jobs",  # a module, not a folder: the job the folders above it take
    "add",
    "verification",
    "inmemory",
]
MODULES_IN_ORDER = {"jobs"}  # top-level modules that stand in the order like a folder
SHARED = {"limits"}  # top-level leaves any folder may use


def folder_of(dotted: str) -> str | None:
    """``xlshuffle.workbook.move.plan`` -> ``move``; a top-level module -> ``None``."""
    parts = dotted.split(".")
    if len(parts) < 3 or parts[:2] != ["xlshuffle", "workbook"]:
        return None
    return parts[2] if parts[2] in ORDER else None


def problems(source: str, module: str, *, is_package: bool = False) -> list[str]:
    mine = folder_of(module)
    found = []
    for imp in imports_of(source, module, is_package=is_package):
        parts = imp.target.split(".")
        if parts[:2] != ["xlshuffle", "workbook"] or len(parts) < 3:
            continue
        theirs = folder_of(imp.target)
        if mine is not None and theirs is None and parts[2] not in SHARED:
            found.append(f"{module}:{imp.line} imports the top-level {imp.target}")
        if mine is not None and theirs is not None and ORDER.index(theirs) > ORDER.index(mine):
            found.append(f"{module}:{imp.line}: {mine}/ imports {theirs}/, which is above it")
        private = parts[-1].startswith("_") and not parts[-1].startswith("__")
        if theirs is not None and theirs != mine and private:
            found.append(f"{module}:{imp.line} imports the private {imp.target}")
    return found


MODULES = sorted(WORKBOOK.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(WORKBOOK)))
def test_each_folder_imports_only_itself_and_the_folders_below(path: Path) -> None:
    source, module = path.read_text(), module_name(path)
    assert problems(source, module, is_package=path.name == "__init__.py") == []


def test_every_folder_is_in_the_order_and_a_package() -> None:
    folders = {p.name for p in WORKBOOK.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(ORDER) - MODULES_IN_ORDER
    assert all((WORKBOOK / f / "__init__.py").exists() for f in folders)
    assert all((WORKBOOK / f"{m}.py").exists() for m in MODULES_IN_ORDER)


def test_the_checker_catches_an_import_upwards_and_a_private_name() -> None:
    source = "from ..move.plan import plan_move\nfrom ..values.cells import _x\n"
    found = problems(source, "xlshuffle.workbook.scan.probe")
    assert any("scan/ imports move/" in p for p in found), found
    assert any("private xlshuffle.workbook.values.cells._x" in p for p in found), found
    assert problems("from ..limits import LIMITS\n", "xlshuffle.workbook.scan.probe") == []
    assert problems("from ..api import x\n", "xlshuffle.workbook.scan.probe") != []
