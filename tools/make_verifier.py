"""Write the browser pages, verifier/index.html (the verifier) and verifier/reveal.html (the
live reveal of a committed draw), from their modules in verifier/src/.

A page must open from disk (``file://``) and load nothing, and a browser refuses ES modules
from disk. So this script joins them: each page has a shell, its HTML and CSS with one
placeholder, ``<script type="module" src="ENTRY"></script>`` (``verifier/src/page.html``
with ``page.js`` for index.html, ``verifier/src/reveal.html`` with ``reveal.js`` for
reveal.html; a shell works as it is from a local web server, for development); the script
puts in its place one classic ``<script>`` in strict mode that runs every module the entry
needs in a function of its own, in dependency order, each module's imports read from the
exports of the modules before it.

The modules are written in a small subset of ES modules, so that joining them needs no
JavaScript parser:

- a module is a ``.js`` file under ``verifier/src/`` (in folders or not); ``page.js`` and
  ``reveal.js`` are the entries (of the pages in ``PAGES``), and every other module must be
  imported, directly or not, from one of them;
- an import is ``import { a, b } from "./x.js";`` (or ``"../folder/x.js"``), at the start of
  a line, on one line or several, naming exported names only (no ``as``, no default, no
  namespace, no import for its side effects, no ``import()``);
- an export is ``export function``, ``export async function``, ``export const`` or
  ``export class`` at the start of a line, followed by one name (no ``export default``, no
  ``export { ... }``, no ``export let``);
- no cycle of imports; no line of a module that starts with ``import`` or ``export`` other
  than these (a template literal's line included); no ``</script`` or ``<!--`` anywhere,
  which would end or upset the page's script element; no use of the name ``MODULES_NAME``
  below, which holds the modules' exports in the page.

The output depends only on the sources (no timestamps, no absolute paths), so
``tests/test_verifier_page.py`` compares each page with the committed one. Standard library
only.

    python tools/make_verifier.py          # write verifier/index.html and verifier/reveal.html
    python tools/make_verifier.py --check  # exit 1 if either is stale
"""

from __future__ import annotations

import argparse
import posixpath
import re
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "verifier" / "src"
OUT = ROOT / "verifier" / "index.html"


class Page(NamedTuple):
    """One page the build writes: its shell and entry module (in verifier/src) and its file
    (in verifier/)."""

    shell: str
    entry: str
    out: str

    @property
    def placeholder(self) -> str:
        return f'<script type="module" src="{self.entry}"></script>\n'


#: The pages, the verifier first.
PAGES = (
    Page("page.html", "page.js", "index.html"),
    Page("reveal.html", "reveal.js", "reveal.html"),
)
#: The name under which the page keeps each module's exports.
MODULES_NAME = "verifierModules"

IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";[ \t]*$', re.MULTILINE)
EXPORT = re.compile(r"^export (async function|function|const|class) ([A-Za-z_$][\w$]*)", re.M)
NAME = re.compile(r"[A-Za-z_$][\w$]*")
STRAY = re.compile(r"^[ \t]*(?:import|export)\b|\bimport\s*\(|\bimport\.meta\b", re.MULTILINE)


class BuildError(Exception):
    """The modules cannot be joined as they are; the message says why."""


class Module(NamedTuple):
    path: str  # relative to verifier/src, with "/"
    text: str
    imports: list[tuple[str, list[str]]]  # (module path, names), in the order written
    exports: list[str]


def read_module(path: str, text: str) -> Module:
    """One module's imports and exports, checked against the subset."""
    for bad in ("</script", "<!--"):
        if bad in text:
            raise BuildError(f"{path}: holds {bad!r}, which would upset the page's script")
    if re.search(rf"\b{MODULES_NAME}\b", text):
        raise BuildError(f"{path}: uses the name {MODULES_NAME}, which the page keeps for itself")
    imports = []
    for m in IMPORT.finditer(text):
        names = [n.strip() for n in m.group(1).split(",") if n.strip()]
        line = text.count("\n", 0, m.start()) + 1
        if not names or any(not NAME.fullmatch(n) for n in names):
            raise BuildError(f"{path}:{line}: import names only: import {{ a, b }} from ...")
        target = m.group(2)
        if not target.startswith(("./", "../")) or not target.endswith(".js"):
            raise BuildError(f"{path}:{line}: import from a relative .js path, not {target!r}")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if resolved.startswith("../"):
            raise BuildError(f"{path}:{line}: {target} is outside verifier/src")
        imports.append((resolved, names))
    exports = [m.group(2) for m in EXPORT.finditer(text)]
    allowed = [m.span() for m in IMPORT.finditer(text)] + [m.span() for m in EXPORT.finditer(text)]
    for stray in STRAY.finditer(text):
        if not any(start <= stray.start() < end for start, end in allowed):
            line = text.count("\n", 0, stray.start()) + 1
            raise BuildError(
                f"{path}:{line}: {stray.group().strip()!r} is outside the subset of ES modules"
                " that tools/make_verifier.py joins (its docstring lists it)"
            )
    if len(set(exports)) != len(exports):
        raise BuildError(f"{path}: exports a name twice")
    return Module(path, text, imports, exports)


def read_modules(src: Path = SRC) -> dict[str, Module]:
    paths = sorted(p.relative_to(src).as_posix() for p in src.rglob("*.js"))
    return {p: read_module(p, (src / p).read_text(encoding="utf-8")) for p in paths}


def dependency_order(modules: dict[str, Module], entry: str = PAGES[0].entry) -> list[str]:
    """Every module after those it imports, from the entry, in the order they are imported."""
    if entry not in modules:
        raise BuildError(f"no {entry} in verifier/src")
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
                raise BuildError(f"{path}: imports {target}, which is not in verifier/src")
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


def joined(module: Module, entry: str) -> str:
    """The module as a function of the page's script that returns its exports."""
    key = f'{MODULES_NAME}["{module.path}"]'

    def imported(m: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(module.path), m.group(2)))
        names = ", ".join(n.strip() for n in m.group(1).split(",") if n.strip())
        return f'const {{ {names} }} = {MODULES_NAME}["{target}"];'

    body = EXPORT.sub(lambda m: f"{m.group(1)} {m.group(2)}", IMPORT.sub(imported, module.text))
    head = f"// {'-' * 60} {module.path}\n"
    if module.path == entry:
        return f"{head}(() => {{\n{body.rstrip()}\n}})();\n"
    exports = ", ".join(module.exports)
    return f"{head}{key} = (() => {{\n{body.rstrip()}\n\nreturn {{ {exports} }};\n}})();\n"


def render_all(src: Path = SRC) -> dict[str, str]:
    """The text of each page (by its file name in verifier/), built from ``src``."""
    modules = read_modules(src)
    orders = {page: dependency_order(modules, page.entry) for page in PAGES}
    entries = {page.entry for page in PAGES}
    used = {path for order in orders.values() for path in order}
    unused = sorted(set(modules) - used)
    if unused:
        raise BuildError(
            f"nothing imports {', '.join(unused)} (from {' or '.join(sorted(entries))}):"
            " remove it, or use it"
        )
    for page, order in orders.items():
        inner = sorted(set(order) & entries - {page.entry})
        if inner:
            raise BuildError(f"{page.entry} imports {', '.join(inner)}, another page's entry")
    return {page.out: _page(src, page, modules, order) for page, order in orders.items()}


def _page(src: Path, page: Page, modules: dict[str, Module], order: list[str]) -> str:
    shell = (src / page.shell).read_text(encoding="utf-8")
    if shell.count(page.placeholder) != 1 or "<script" in shell.replace(page.placeholder, ""):
        raise BuildError(
            f"{page.shell} must hold exactly one script element, the line {page.placeholder!r}"
        )
    script = "".join(
        [
            "<script>\n",
            '"use strict";\n',
            "// GENERATED by tools/make_verifier.py from verifier/src/: do not edit it; change\n",
            "// the modules and run `python tools/make_verifier.py` again.\n",
            f"const {MODULES_NAME} = {{}};\n\n",
            "\n".join(joined(modules[p], page.entry) for p in order),
            "</script>\n",
        ]
    )
    return shell.replace(page.placeholder, script)


def render(src: Path = SRC, out: str = PAGES[0].out) -> str:
    """The text of one page (verifier/index.html unless ``out`` names another), from ``src``."""
    return render_all(src)[out]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a page is stale")
    args = parser.parse_args(argv)
    try:
        pages = render_all()
    except BuildError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    stale = 0
    for name, page in pages.items():
        path = OUT.parent / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != page:
            if args.check:
                print(f"stale: verifier/{name}: run python tools/make_verifier.py", file=sys.stderr)
                stale = 1
                continue
            path.write_text(page, encoding="utf-8", newline="\n")
            print(f"wrote verifier/{name}")
        print(f"verifier/{name}: {len(page.encode('utf-8')):,} bytes, up to date")
    return stale


if __name__ == "__main__":
    sys.exit(main())
