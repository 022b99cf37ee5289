"""docs/reference/api.md renders the whole public API: a mkdocstrings directive for each
public module, and each name those modules export documented (mkdocstrings shows what
``__all__`` lists, from its numpydoc docstring)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import xlshuffle

from support import ROOT

PAGE = ROOT / "docs" / "reference" / "api.md"

# Subpackages with an ``__all__`` that the page leaves out, and why.
NOT_ON_THE_PAGE = {
    "xlshuffle.batch": "moved to xlshuffle.workbook; kept for old imports",
    "xlshuffle.cli": "the command line: docs/reference/cli.md",
    "xlshuffle.calc": "LibreOffice's entry to the worksheet functions (docs/calc.md)",
    "xlshuffle.draw": "the core, exported by xlshuffle itself",
    "xlshuffle.functions": "the plain twins of xlshuffle.excel's functions",
    "xlshuffle.lock": "draw and lock, run by Excel's and Calc's commands (docs/excel.md, calc.md)",
    "xlshuffle.sheets": "builds the Apps Script file: xlshuffle extension sheets (docs/sheets.md)",
}


def _directives() -> list[str]:
    return re.findall(r"^::: ([\w.]+)$", PAGE.read_text(encoding="utf-8"), re.MULTILINE)


def _public_packages() -> list[str]:
    """xlshuffle and its subpackages that declare a non-empty ``__all__``."""
    names = ["xlshuffle"]
    for info in pkgutil.iter_modules(xlshuffle.__path__, "xlshuffle."):
        if info.ispkg or info.name == "xlshuffle.batch":
            module = importlib.import_module(info.name)
            if getattr(module, "__all__", None):
                names.append(info.name)
    return names


def test_every_public_package_is_on_the_page() -> None:
    on_page = set(_directives())
    public = set(_public_packages())
    assert public - on_page - set(NOT_ON_THE_PAGE) == set(), "add a ::: directive to api.md"
    assert on_page - public == set(), "api.md names a module without __all__"
    assert on_page & set(NOT_ON_THE_PAGE) == set()


@pytest.mark.parametrize("name", _directives())
def test_every_exported_function_and_class_has_a_docstring(name: str) -> None:
    module = importlib.import_module(name)
    bare = [
        export
        for export in module.__all__
        if (inspect.isfunction(obj := getattr(module, export)) or inspect.isclass(obj))
        and not (obj.__doc__ or "").strip()
    ]
    assert bare == [], f"{name}: give these a numpydoc docstring"
