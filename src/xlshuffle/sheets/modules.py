"""JavaScript modules joined into one classic script, for pages that open from disk and for
Apps Script, neither of which loads ES modules.

The modules are written in a small subset of ES modules, so that joining them needs no
JavaScript parser:

- a module is a ``.js`` file, named by its path relative to the root of its tree with
  ``/`` (``protocol/stream.js``); an entry is a module that nothing imports;
- an import is ``import { a, b } from "./x.js";`` (or ``"../folder/x.js"``), at the start of
  a line, on one line or several, naming exported names only (no ``as``, no default, no
  namespace, no import for its side effects, no ``import()``);
- an export is ``export function``, ``export async function``, ``export const`` or
  ``export class`` at the start of a line, followed by one name (no ``export default``, no
  ``export { ... }``, no ``export let``);
- no cycle of imports; no line of a module that starts with ``import`` or ``export`` other
  than these (a template literal's line included); no use of the name that holds the
  modules' exports in the joined script (``modules_name``).

:func:`joined` writes a module as a function of the script that runs it once and keeps its
exports under ``modules_name[path]``; each of its imports becomes a ``const { a, b } =``
read of the exports of a module joined before it (:func:`dependency_order`). An entry may
instead be written at the script's top level, its own names then global (Apps Script finds
custom functions and menu commands only there). Standard library only;
``tools/make_verifier.py`` joins the browser pages with it, :mod:`xlshuffle.sheets.build`
the Apps Script file.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "EXPORT",
    "IMPORT",
    "BuildError",
    "Module",
    "dependency_order",
    "joined",
    "read_module",
    "read_modules",
]

IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";[ \t]*$', re.MULTILINE)
EXPORT = re.compile(r"^export (async function|function|const|class) ([A-Za-z_$][\w$]*)", re.M)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_STRAY = re.compile(r"^[ \t]*(?:import|export)\b|\bimport\s*\(|\bimport\.meta\b", re.MULTILINE)


class BuildError(Exception):
    """The modules cannot be joined as they are; the message says why."""


class Module(NamedTuple):
    """One module: its path in its tree (with ``/``), its text, its imports (module path,
    names; in the order written) and the names it exports."""

    path: str
    text: str
    imports: list[tuple[str, list[str]]]
    exports: list[str]


def read_module(
    path: str, text: str, *, modules_name: str, where: str = "the modules' folder"
) -> Module:
    """One module's imports and exports, checked against the subset."""
    if re.search(rf"\b{modules_name}\b", text):
        raise BuildError(f"{path}: uses the name {modules_name}, which the script keeps for itself")
    imports = []
    for m in IMPORT.finditer(text):
        names = [n.strip() for n in m.group(1).split(",") if n.strip()]
        line = text.count("\n", 0, m.start()) + 1
        if not names or any(not _NAME.fullmatch(n) for n in names):
            raise BuildError(f"{path}:{line}: import names only: import {{ a, b }} from ...")
        target = m.group(2)
        if not target.startswith(("./", "../")) or not target.endswith(".js"):
            raise BuildError(f"{path}:{line}: import from a relative .js path, not {target!r}")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if resolved.startswith("../"):
            raise BuildError(f"{path}:{line}: {target} is outside {where}")
        imports.append((resolved, names))
    exports = [m.group(2) for m in EXPORT.finditer(text)]
    allowed = [m.span() for m in IMPORT.finditer(text)] + [m.span() for m in EXPORT.finditer(text)]
    for stray in _STRAY.finditer(text):
        if not any(start <= stray.start() < end for start, end in allowed):
            line = text.count("\n", 0, stray.start()) + 1
            raise BuildError(
                f"{path}:{line}: {stray.group().strip()!r} is outside the subset of ES modules"
                " that xlshuffle.sheets.modules joins (its docstring lists it)"
            )
    if len(set(exports)) != len(exports):
        raise BuildError(f"{path}: exports a name twice")
    return Module(path, text, imports, exports)


def read_modules(
    src: Path, *, modules_name: str, prefix: str = "", where: str = "the modules' folder"
) -> dict[str, Module]:
    """Every ``.js`` module under ``src``, by its path (``prefix`` before it)."""
    paths = sorted(p.relative_to(src).as_posix() for p in src.rglob("*.js"))
    text = {p: (src / p).read_text(encoding="utf-8") for p in paths}
    return {
        prefix + p: read_module(prefix + p, text[p], modules_name=modules_name, where=where)
        for p in paths
    }


def dependency_order(
    modules: dict[str, Module], entry: str, *, where: str = "the modules' folder"
) -> list[str]:
    """Every module after those it imports, from the entry, in the order they are imported."""
    if entry not in modules:
        raise BuildError(f"no {entry} in {where}")
    order: list[str] = []
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in order:
            return
        if path in visiting:
            cycle = [*visiting[visiting.index(path) :], path]
            raise BuildError(f"a cycle of imports: {' -> '.join(cycle)}")
        visiting.append(path)
        for target, names in modules[path].imports:
            if target not in modules:
                raise BuildError(f"{path}: imports {target}, which is not in {where}")
            missing = [n for n in names if n not in modules[target].exports]
            if missing:
                raise BuildError(
                    f"{path}: imports {', '.join(missing)}, which {target} does not export"
                )
            visit(target)
        visiting.pop()
        order.append(path)

    visit(entry)
    return order


def joined(module: Module, entry: str, *, modules_name: str, top_level: bool = False) -> str:
    """The module as a function of the script that keeps its exports; the entry (``path ==
    entry``) as a function run once, or with ``top_level`` as the script's own top level."""
    key = f'{modules_name}["{module.path}"]'

    def imported(m: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(module.path), m.group(2)))
        names = ", ".join(n.strip() for n in m.group(1).split(",") if n.strip())
        return f'const {{ {names} }} = {modules_name}["{target}"];'

    body = EXPORT.sub(lambda m: f"{m.group(1)} {m.group(2)}", IMPORT.sub(imported, module.text))
    head = f"// {'-' * 60} {module.path}\n"
    if module.path == entry:
        if top_level:
            return f"{head}{body.rstrip()}\n"
        return f"{head}(() => {{\n{body.rstrip()}\n}})();\n"
    exports = ", ".join(module.exports)
    return f"{head}{key} = (() => {{\n{body.rstrip()}\n\nreturn {{ {exports} }};\n}})();\n"
