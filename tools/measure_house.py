"""Measure how the package is laid out: the figures the house-by-concept work is held to.

Run ``python tools/measure_house.py``; it prints, from the code alone (parsed, never
imported):

- private names (``_x``) one module of ``src/xlshuffle`` imports from another;
- the modules at the top of the workbook engine (``workbook/*.py``, ``__init__`` aside);
- the longest chain of imports among the workbook engine's modules (imports run when a
  module is imported, counted in modules; the engine's ``__init__`` aside), and the chain;
- "issue N" written in ``src/`` and ``docs/``;
- the longest module of the browser verifier (``verifier/src/``) in lines.

``--list`` prints every private import it counts, one per line.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "xlshuffle"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path, *, lazy: bool) -> list[tuple[str, str, int]]:
    """``(module, name, line)`` for each ``from module import name`` (relative resolved).

    ``lazy=False`` keeps the imports run when the module is imported (not those inside a
    function or under ``if TYPE_CHECKING``).
    """
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, inner: bool) -> None:
        for child in ast.iter_child_nodes(node):
            deeper = inner or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                deeper = True
            if deeper and not lazy:
                continue
            if isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                found.extend((base, a.name, child.lineno) for a in child.names)
            elif isinstance(child, ast.Import):
                found.extend((a.name, "", child.lineno) for a in child.names)
            visit(child, deeper)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def private_imports() -> list[str]:
    out = []
    for name, path in modules().items():
        for target, imported, line in imports(path, lazy=True):
            if not target.startswith("xlshuffle") or target == name:
                continue
            if imported.startswith("_") and not imported.startswith("__"):
                out.append(f"{path.relative_to(ROOT)}:{line} {target}.{imported}")
    return out


def engine_top() -> list[str]:
    top = PACKAGE / "workbook"
    return sorted(p.name for p in top.glob("*.py") if p.name != "__init__.py")


def longest_chain(prefix: str = "xlshuffle.workbook") -> list[str]:
    # the engine's package module re-exports its API: chains start below it
    known = {m for m in modules() if m.startswith(prefix + ".")}
    paths = modules()

    def edges(module: str) -> set[str]:
        out = set()
        for target, imported, _ in imports(paths[module], lazy=False):
            for candidate in (f"{target}.{imported}", target):
                if candidate in known and candidate != module:
                    out.add(candidate)
                    break
        return out

    graph = {m: edges(m) for m in known}

    @cache
    def chain(module: str, depth: int = 0) -> tuple[str, ...]:
        if depth > len(graph):  # a cycle of module-level imports: count it once
            return (module,)
        best: tuple[str, ...] = ()
        for nxt in graph[module]:
            c = chain(nxt, depth + 1)
            if len(c) > len(best):
                best = c
        return (module, *best)

    longest = max((chain(m) for m in graph), key=len)
    return [m.removeprefix(prefix + ".") for m in longest]


ISSUE = re.compile(r"\b[Ii]ssues? #?\d+")


def issue_mentions() -> list[str]:
    out = []
    for folder in (PACKAGE, ROOT / "docs"):
        for path in sorted(folder.rglob("*")):
            if path.suffix not in {".py", ".md", ".html", ".js"} or "__pycache__" in path.parts:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if ISSUE.search(line):
                    out.append(f"{path.relative_to(ROOT)}:{n}")
    return out


def verifier_longest() -> tuple[str, int]:
    src = ROOT / "verifier" / "src"
    files = sorted(src.rglob("*.js")) if src.is_dir() else [ROOT / "verifier" / "index.html"]
    sizes = [
        (str(p.relative_to(ROOT)), len(p.read_text(encoding="utf-8").splitlines())) for p in files
    ]
    return max(sizes, key=lambda s: s[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list every private import")
    args = parser.parse_args(argv)
    private = private_imports()
    if args.list:
        print("\n".join(private))
    top = engine_top()
    chain = longest_chain()
    issues = issue_mentions()
    path, lines = verifier_longest()
    print(f"private names imported from another module: {len(private)}")
    print(f"workbook engine's top level: {len(top)} modules ({', '.join(top)})")
    print(f"longest import chain in the engine: {len(chain)} modules ({' -> '.join(chain)})")
    print(
        f'"issue N" in src/ and docs/: {len(issues)}'
        + (f" ({', '.join(issues)})" if issues else "")
    )
    print(f"longest verifier module: {path}, {lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
