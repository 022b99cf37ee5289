"""Write src/xlshuffle/calc/data/: the Calc add-in's UNO interface (IDL) and CalcAddIns.xcu.

The worksheet functions have one set of wizard texts: the descriptions Excel shows, kept
on xlwings' decorators in ``src/xlshuffle/excel/``. This script reads them the way xlwings
Server hands them to Excel (``custom_functions_meta``) and writes

- ``XFunctions.idl``: the interface ``org.xlshuffle.calc.XFunctions``, one method per
  function with its parameters by their Python names, each an ``any`` (Calc leaves an
  ``any`` argument optional and hands over a cell's value or a range's rows; UNOIDL allows
  no ``_`` in a name, so ``block_sizes`` is ``blockSizes`` there); a function
  that gives a range returns ``sequence< sequence< any > >``, one that gives a value ``any``;
- ``CalcAddIns.xcu``: each function's description and its arguments' for Calc's function
  wizard, the same texts with what Calc needs said (an array formula, ``;`` between
  arguments).

``xlshuffle extension calc`` compiles the IDL with the SDK's ``unoidl-write`` and packs
both. The output depends only on the sources; tests/test_calc_addin.py compares it with
the committed files. Needs the ``excel`` extra (xlwings).

    python tools/make_calc_addin.py          # write the two files
    python tools/make_calc_addin.py --check  # exit 1 if they are stale
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "xlshuffle" / "calc" / "data"

#: The functions that give one value, not a range: Calc needs no array formula for them.
SCALAR = frozenset({"SHUFFLESTR", "SAMPLESIZE", "UPPERLIMIT"})
ARRAY_NOTE = (
    " In Calc, enter it as an array formula (Ctrl+Shift+Enter) over the cells the result "
    "needs: cells past the result stay blank."
)
TICKET_NOTE = " For a range of IDs, enter it as an array formula (Ctrl+Shift+Enter)."


def metadata() -> list[dict[str, Any]]:
    """The functions as xlwings Server describes them to Excel, in the documented order."""
    os.environ.setdefault("XLWINGS_ON_SERVER", "true")
    os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
    sys.path.insert(0, str(ROOT / "src"))
    from xlwings.server import custom_functions_meta

    from xlshuffle import excel

    meta = {f["name"]: f for f in custom_functions_meta(excel)["functions"]}
    return [meta[f.__name__] for f in excel.FUNCTIONS]


def uno_name(name: str) -> str:
    """A parameter's name in the IDL and the XCU, where ``_`` is not allowed: camel case
    (``block_sizes`` -> ``blockSizes``); the wizard shows the Python name."""
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


def idl(functions: list[dict[str, Any]]) -> str:
    lines = [
        "// The worksheet functions of xlshuffle's Calc add-in: written by",
        "// tools/make_calc_addin.py from the functions' signatures; do not edit.",
        "#include <com/sun/star/uno/XInterface.idl>",
        "",
        "module org { module xlshuffle { module calc {",
        "    interface XFunctions : com::sun::star::uno::XInterface",
        "    {",
    ]
    for f in functions:
        result = "any" if f["name"] in SCALAR else "sequence< sequence< any > >"
        params = ", ".join(f"[in] any {uno_name(p['name'])}" for p in f["parameters"])
        lines.append(f"        {result} {f['name']}({params});")
    lines += ["    };", "}; }; };", ""]
    return "\n".join(lines)


def _prop(name: str, text: str, indent: str, *, lang: bool = True) -> str:
    attr = ' xml:lang="en"' if lang else ""
    return f'{indent}<prop oor:name="{name}"><value{attr}>{escape(text)}</value></prop>'


def xcu(functions: list[dict[str, Any]]) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- Written by tools/make_calc_addin.py from the wizard texts of the Excel functions;"
        " do not edit. -->",
        '<oor:component-data xmlns:oor="http://openoffice.org/2001/registry"'
        ' xmlns:xs="http://www.w3.org/2001/XMLSchema"'
        ' oor:name="CalcAddIns" oor:package="org.openoffice.Office">',
        '  <node oor:name="AddInInfo">',
        '    <node oor:name="org.xlshuffle.calc.Functions" oor:op="replace">',
        '      <node oor:name="AddInFunctions">',
    ]
    for f in functions:
        name = f["name"]
        note = "" if name in SCALAR else TICKET_NOTE if name == "TICKET" else ARRAY_NOTE
        lines += [
            f'        <node oor:name="{name}" oor:op="replace">',
            _prop("DisplayName", name, "          "),
            _prop("Description", f["description"] + note, "          "),
            _prop("Category", "Add-In", "          ", lang=False),
            '          <node oor:name="Parameters">',
        ]
        for p in f["parameters"]:
            lines += [
                f'            <node oor:name="{uno_name(p["name"])}" oor:op="replace">',
                _prop("DisplayName", p["name"], "              "),
                _prop("Description", p["description"], "              "),
                "            </node>",
            ]
        lines += ["          </node>", "        </node>"]
    lines += ["      </node>", "    </node>", "  </node>", "</oor:component-data>", ""]
    return "\n".join(lines)


def render() -> dict[str, str]:
    """The files to write, by name."""
    functions = metadata()
    return {"XFunctions.idl": idl(functions), "CalcAddIns.xcu": xcu(functions)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the files are stale")
    args = parser.parse_args(argv)
    files = render()
    stale = [
        n
        for n, text in files.items()
        if not (OUT / n).is_file() or (OUT / n).read_text(encoding="utf-8") != text
    ]
    if args.check:
        for name in stale:
            print(f"stale: {OUT / name}: run python tools/make_calc_addin.py")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (OUT / name).write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {(OUT / name).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
