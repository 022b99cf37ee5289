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

The modules are written in the small subset of ES modules that
``xlshuffle.sheets.modules`` joins (its docstring lists it; the Apps Script file of
``xlshuffle extension sheets`` is joined by it as well); here ``page.js`` and ``reveal.js``
are the entries (of the pages in ``PAGES``), every other module under ``verifier/src/`` must
be imported, directly or not, from one of them, and no module may hold ``</script`` or
``<!--``, which would end or upset the page's script element, or use the name
``MODULES_NAME`` below, which holds the modules' exports in the page.

The output depends only on the sources (no timestamps, no absolute paths), so
``tests/test_verifier_page.py`` compares each page with the committed one. Standard library
only.

    python tools/make_verifier.py          # write verifier/index.html and verifier/reveal.html
    python tools/make_verifier.py --check  # exit 1 if either is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

from xlshuffle.sheets import modules
from xlshuffle.sheets.modules import BuildError, Module

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

WHERE = "verifier/src"


def read_module(path: str, text: str) -> Module:
    """One module's imports and exports, checked against the subset and the page."""
    for bad in ("</script", "<!--"):
        if bad in text:
            raise BuildError(f"{path}: holds {bad!r}, which would upset the page's script")
    return modules.read_module(path, text, modules_name=MODULES_NAME, where=WHERE)


def read_modules(src: Path = SRC) -> dict[str, Module]:
    paths = sorted(p.relative_to(src).as_posix() for p in src.rglob("*.js"))
    return {p: read_module(p, (src / p).read_text(encoding="utf-8")) for p in paths}


def dependency_order(found: dict[str, Module], entry: str = PAGES[0].entry) -> list[str]:
    """Every module after those it imports, from the entry, in the order they are imported."""
    return modules.dependency_order(found, entry, where=WHERE)


def joined(module: Module, entry: str) -> str:
    """The module as a function of the page's script that returns its exports."""
    return modules.joined(module, entry, modules_name=MODULES_NAME)


def render_all(src: Path = SRC) -> dict[str, str]:
    """The text of each page (by its file name in verifier/), built from ``src``."""
    found = read_modules(src)
    orders = {page: dependency_order(found, page.entry) for page in PAGES}
    entries = {page.entry for page in PAGES}
    used = {path for order in orders.values() for path in order}
    unused = sorted(set(found) - used)
    if unused:
        raise BuildError(
            f"nothing imports {', '.join(unused)} (from {' or '.join(sorted(entries))}):"
            " remove it, or use it"
        )
    for page, order in orders.items():
        inner = sorted(set(order) & entries - {page.entry})
        if inner:
            raise BuildError(f"{page.entry} imports {', '.join(inner)}, another page's entry")
    return {page.out: _page(src, page, found, order) for page, order in orders.items()}


def _page(src: Path, page: Page, found: dict[str, Module], order: list[str]) -> str:
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
            "\n".join(joined(found[p], page.entry) for p in order),
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
