"""The imports of xlshuffle's own modules, read from their source (parsed, never imported).

:func:`imports_of` lists a module's imports with relative ones resolved and each marked lazy
when it sits in a function; tests/test_layers.py holds them to the layers' rules, and the
Lite bundle's and the workbook engine's tests use them too.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from support import ROOT

PACKAGE = "xlshuffle"
SRC = ROOT / "src" / PACKAGE

# CPython's SHA-256 accelerator is `_sha2` from 3.12, `_sha256` before (draw/protocol.py
# tries both); neither name is in every version's sys.stdlib_module_names.
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__", "_sha2", "_sha256"}


@dataclass(frozen=True)
class Import:
    """One import: the module named (absolute, dotted) and whether it sits in a function."""

    target: str
    lazy: bool
    line: int


def module_name(path: Path, src: Path = SRC) -> str:
    """``src/xlshuffle/draw/knuth.py`` -> ``xlshuffle.draw.knuth`` (a package's __init__
    -> the package)."""
    parts = [PACKAGE, *path.relative_to(src).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """Every import in ``source``, the text of ``module``, with relative ones resolved.

    ``from PKG import name`` yields ``PKG.name``, one import per name: ``name`` may be a
    module (``from .. import batch``), and tests/test_layers.py's ``layer_of`` takes an
    attribute of a package for that package.
    """
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend(Import(a.name, lazy, child.lineno) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    if child.level - 1 > len(anchor) - 1:
                        raise ValueError(f"{module}:{child.lineno}: import beyond the top")
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                found.extend(Import(f"{base}.{a.name}", lazy, child.lineno) for a in child.names)
            visit(child, inner)

    visit(ast.parse(source), False)
    return found
