"""Write workbooks/lite/: xlshuffle's worksheet functions as one main.py for xlwings Lite.

xlwings Lite installs packages only from a package index, and no index serves xlshuffle
yet. So this script bundles the sources instead: starting from ``xlshuffle.excel`` it
follows the imports (relative, absolute and lazy ones, and the parent packages Python
imports first) through ``src/xlshuffle/``, and writes

- ``workbooks/lite/main.py``: every module found, embedded as its exact source text, a
  small importer that serves them under their real names (``xlshuffle.draw.knuth``), and
  ``from xlshuffle.excel import SHUFFLE, ...`` so that Lite registers the functions;
- ``workbooks/lite/requirements.txt``: what those modules import that Lite must install
  (``regex``; xlwings comes with Lite, the rest is the standard library).

It refuses to write a bundle that imports anything else, or whose excel layer defines a
decorated function that ``xlshuffle.excel.__all__`` does not export. The output depends
only on the sources (sorted modules, no timestamps), so tests/test_lite_bundle.py compares
it with the committed files. Standard library only; it never imports xlshuffle.

    python tools/make_lite_bundle.py          # write the two files
    python tools/make_lite_bundle.py --check  # exit 1 if they are stale
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
OUT = ROOT / "workbooks" / "lite"
PACKAGE = "xlshuffle"
ENTRY = "xlshuffle.excel"
#: What main.py imports: the worksheet functions, and the draw-and-lock scripts Lite shows
#: as buttons (``xlshuffle.excel.subs`` is the Windows add-in's and is not bundled).
ENTRIES = (ENTRY, "xlshuffle.excel.scripts")

#: Third-party distributions the bundle may import. Lite ships xlwings itself; the rest
#: go into requirements.txt, unpinned (Lite installs what its Pyodide provides).
PROVIDED_BY_LITE = frozenset({"xlwings"})
REQUIRED = frozenset({"regex"})
#: Names a decorated worksheet function or script carries (``@xw.func``, ``@script``).
DECORATORS = frozenset({"func", "script"})
# CPython's SHA-256 accelerator is `_sha2` from 3.12, `_sha256` before (draw/protocol.py
# tries both); neither name is in every version's sys.stdlib_module_names.
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__", "_sha2", "_sha256"}


class BundleError(Exception):
    """The sources cannot be bundled as they are; the message says why."""


# --------------------------------------------------------------------------- the walk


def source_file(module: str, src: Path = SRC) -> Path | None:
    """``xlshuffle.draw.knuth`` -> its ``.py`` file (a package's ``__init__.py``), or None."""
    base = src.joinpath(*module.split("."))
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def is_package(module: str, src: Path = SRC) -> bool:
    path = source_file(module, src)
    return path is not None and path.name == "__init__.py"


def imports_of(source: str, module: str, *, package: bool) -> list[str]:
    """Every module ``source`` may import, absolute, wherever the import statement sits.

    ``from X import a`` gives ``X`` and ``X.a`` (``a`` may be a module: ``from . import
    arguments``); the caller keeps the names that are modules.
    """
    anchor = module if package else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename=module)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = anchor.split(".")
                if node.level - 1 >= len(parts):
                    raise BundleError(f"{module}:{node.lineno}: relative import beyond the top")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return found


def walk(entry: str = ENTRY, src: Path = SRC) -> tuple[dict[str, str], set[str]]:
    """The xlshuffle modules that importing ``entry`` needs, name -> source text, and the
    top-level names of everything else they import."""
    modules: dict[str, str] = {}
    outside: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        parts = name.split(".")
        parents = [".".join(parts[:n]) for n in range(1, len(parts))]
        todo.extend(p for p in parents if p not in modules)
        if name in modules:
            continue
        path = source_file(name, src)
        if path is None:
            raise BundleError(f"{name}: no such module under {src}")
        modules[name] = path.read_text(encoding="utf-8")
        for target in imports_of(modules[name], name, package=path.name == "__init__.py"):
            top = target.partition(".")[0]
            if top != PACKAGE:
                outside.add(top)
            elif target not in modules and source_file(target, src) is not None:
                todo.append(target)
    outside.discard("")
    return dict(sorted(modules.items())), outside


def requirements(outside: set[str]) -> list[str]:
    """What Lite must install for imports ``outside`` xlshuffle; refuses anything else."""
    third_party = outside - STDLIB
    unknown = third_party - PROVIDED_BY_LITE - REQUIRED
    if unknown:
        raise BundleError(
            f"the excel layer imports {sorted(unknown)}: the Lite bundle allows only the "
            f"standard library, {sorted(PROVIDED_BY_LITE | REQUIRED)}; add a pure-Python "
            "dependency to REQUIRED in tools/make_lite_bundle.py only if Lite can install it"
        )
    return sorted(third_party & REQUIRED)


def _decorated(node: ast.AST) -> bool:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in DECORATORS:
            return True
    return False


def _literal(source: str, name: str) -> object:
    """The value of a module-level ``name = <literal>`` in ``source``."""
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return ast.literal_eval(node.value)
    raise BundleError(f"no literal {name} = ... found")


def exported(modules: dict[str, str]) -> dict[str, list[str]]:
    """The worksheet functions and scripts to import into main.py: entry -> names."""
    decorated = {
        node.name
        for name, source in modules.items()
        if name == ENTRY or name.startswith(ENTRY + ".")
        for node in ast.parse(source).body
        if _decorated(node)
    }
    out: dict[str, list[str]] = {}
    for entry in ENTRIES:
        public = _literal(modules[entry], "__all__")
        if not isinstance(public, list | tuple):
            raise BundleError(f"{entry}.__all__ must be a literal list of names")
        out[entry] = sorted(str(n) for n in public if n in decorated)
    hidden = decorated - {n for names in out.values() for n in names}
    if hidden:
        raise BundleError(
            f"{sorted(hidden)} are decorated for Excel but not in the __all__ of "
            f"{' or '.join(ENTRIES)}: export them there, or Lite (which registers what "
            "main.py imports) cannot see them"
        )
    return out


# --------------------------------------------------------------------------- the bundle

HEADER = """\
{title}
#
# GENERATED by tools/make_lite_bundle.py from xlshuffle's sources (src/xlshuffle/).
# Do not edit it: change the sources and run `python tools/make_lite_bundle.py` again.
# xlshuffle {version}, draw protocol {protocol}: the same seed gives the same result here
# as in the Python package, its command line and the other Excel runtimes.
{modules}
#
# Use it in xlwings Lite (docs/lite.md has the details), no package index needed:
#   1. Excel: Home > Add-ins, add "xlwings Lite" and open its task pane.
#   2. Paste this whole file into the main.py tab.
#   3. Paste workbooks/lite/requirements.txt (the line: {requirements}) into the
#      requirements.txt tab.
#   4. Restart the Python environment from the task pane, then type for example
#        =SHUFFLE(A2:A11, 42)          =SAMPLE(A2:A31, 3, "raffle 2026")
#        =DEAL(5, 4, "poker night")    =GROUPS(A2:A17, 4, "offsite")
#        =SAMPLE(A2:C31, 3, "raffle 2026", C2:C31, 2)   (tickets in C, 2 reserves)
#        =SAMPLEBY(A2:C31, 1, B2:B31, "raffle 2026")    (one from each group of B)
#   (Excel may show the functions with the add-in's prefix.) Your own @func and @script
#   functions can go at the end of the file.
"""

LOADER = '''

class _BundleImporter:
    """Imports the modules in _SOURCES under their real names, before any installed copy.

    Relative imports, ``__name__`` and ``__module__`` work as in the package, and a
    traceback names the module's path inside this bundle (``main.py/xlshuffle/...``) and
    shows its lines (``get_source``).
    """

    bundle = "xlshuffle"

    def find_spec(self, name, path=None, target=None):
        if name not in _SOURCES:
            return None
        return _ModuleSpec(
            name, self, origin=self.get_filename(name), is_package=name in _PACKAGES
        )

    def get_filename(self, name):
        tail = "/__init__.py" if name in _PACKAGES else ".py"
        return "main.py/" + name.replace(".", "/") + tail

    def get_source(self, name):
        return _SOURCES[name]

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        name = module.__spec__.name
        code = compile(_SOURCES[name], self.get_filename(name), "exec", dont_inherit=True)
        exec(code, module.__dict__)


def _install():
    # Lite runs main.py again after an edit: drop the previous run's importer and
    # modules, so that a newer bundle pasted in replaces them.
    _sys.meta_path[:] = [f for f in _sys.meta_path if getattr(f, "bundle", None) != "xlshuffle"]
    for name in [m for m in _sys.modules if m == "xlshuffle" or m.startswith("xlshuffle.")]:
        del _sys.modules[name]
    _sys.meta_path.insert(0, _BundleImporter())


_install()
'''


def _quoted(text: object) -> str:
    """A str literal in double quotes, as ruff format writes it (JSON's are Python's too)."""
    return json.dumps(str(text))


def _literal_text(source: str) -> str:
    """``source`` as a Python literal that reads back exactly and shows it line by line."""
    if "'''" in source or "\r" in source or source.endswith("\\"):
        return repr(source)
    return "r'''" + source + "'''"


def render(src: Path = SRC) -> tuple[str, str]:
    """The text of main.py and of requirements.txt, built from ``src``."""
    modules, outside = {}, set()
    for entry in ENTRIES:
        found, beyond = walk(entry, src)
        modules |= found
        outside |= beyond
    modules = dict(sorted(modules.items()))
    needs = requirements(outside)
    by_entry = exported(modules)
    names = sorted(n for entry_names in by_entry.values() for n in entry_names)
    version = _literal(modules[PACKAGE], "__version__")
    protocol = _literal(modules["xlshuffle.draw.protocol"], "PROTOCOL")
    packages = sorted(m for m in modules if is_package(m, src))
    names_ = ", ".join(by_entry[ENTRY])
    scripts_ = ", ".join(n for e in ENTRIES[1:] for n in by_entry[e])

    def comment(text: str) -> str:
        return "\n".join(textwrap.wrap(text, 90, initial_indent="# ", subsequent_indent="# "))

    head = HEADER.format(
        title=comment(
            f"xlshuffle {version} for xlwings Lite: the worksheet functions {names_}, and "
            f"the draw-and-lock scripts {scripts_}."
        ),
        version=version,
        protocol=protocol,
        modules=comment(f"Bundled modules: {', '.join(modules)}."),
        requirements=", ".join(needs) or "none",
    )
    body = [
        head,
        "import sys as _sys",
        "from importlib.machinery import ModuleSpec as _ModuleSpec",
        "",
        f"XLSHUFFLE_VERSION = {_quoted(version)}",
        f"DRAW_PROTOCOL = {_quoted(protocol)}",
        "",
        "_PACKAGES = frozenset({" + ", ".join(map(_quoted, packages)) + "})",
        "",
        "# Module name -> its source, exactly as in src/.",
        "_SOURCES = {",
        *(f"    {_quoted(name)}: {_literal_text(text)}," for name, text in modules.items()),
        "}",
        LOADER,
        "# Lite registers the decorated functions and scripts that main.py holds: these.",
        *(
            f"from {entry} import {', '.join(by_entry[entry])}  # noqa: E402"
            for entry in ENTRIES
            if by_entry[entry]
        ),
        "",
        "__all__ = [" + ", ".join(map(_quoted, names)) + "]",
        "",
    ]
    main_py = "\n".join(body).replace("\n\n\n\n", "\n\n\n")
    _check(main_py, modules)
    return main_py, "".join(f"{n}\n" for n in needs)


def _check(main_py: str, modules: dict[str, str]) -> None:
    """The bundle compiles and carries every module's source unchanged."""
    tree = ast.parse(main_py, filename="main.py")
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_SOURCES":
            if ast.literal_eval(node.value) != modules:
                raise BundleError("an embedded source does not read back as written")
            return
    raise BundleError("no _SOURCES in the bundle")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the files are stale")
    args = parser.parse_args(argv)
    try:
        main_py, reqs = render()
    except BundleError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    stale = []
    for name, text in (("main.py", main_py), ("requirements.txt", reqs)):
        path = OUT / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path.relative_to(ROOT).as_posix())
        if not args.check:
            path.write_text(text, encoding="utf-8", newline="\n")
    if args.check and stale:
        print(f"stale: {', '.join(stale)}: run python tools/make_lite_bundle.py", file=sys.stderr)
        return 1
    for path in stale:
        print(f"wrote {path}")
    print(f"workbooks/lite/main.py: {len(main_py.encode('utf-8')):,} bytes, up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
