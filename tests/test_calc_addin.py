"""The Calc extension's sources and build, without starting LibreOffice.

The interface and the wizard texts (src/xlshuffle/calc/data/) are what
tools/make_calc_addin.py writes from the Excel functions; they name every function and
argument of :mod:`xlshuffle.functions`. The built ``.oxt`` holds what LibreOffice needs
(manifest, compiled interface, component, the pure package) and its package runs in the
system's Python, which has no ``regex``, with the same results (tests/test_calc.py runs it
in LibreOffice itself).
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from xlshuffle import functions
from xlshuffle.calc import NAMES, SCALAR
from xlshuffle.cli import main

from support import ROOT, SYSTEM_PYTHON, calc_missing, require

DATA = ROOT / "src" / "xlshuffle" / "calc" / "data"
OOR = "{http://openoffice.org/2001/registry}"


def _tool():
    spec = importlib.util.spec_from_file_location(
        "make_calc_addin", ROOT / "tools" / "make_calc_addin.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_interface_and_wizard_texts_are_the_tools_output() -> None:
    assert _tool().main(["--check"]) == 0


def test_the_wizard_names_every_function_and_argument_in_order() -> None:
    root = ET.parse(DATA / "CalcAddIns.xcu").getroot()
    (addin,) = root.find("node").findall("node")
    assert addin.get(OOR + "name") == "org.xlshuffle.calc.Functions"
    found = {}
    for node in addin.find("node").findall("node"):
        params = node.find(f"node[@{OOR}name='Parameters']").findall("node")
        found[node.get(OOR + "name")] = [p.find("prop/value").text for p in params]
    assert list(found) == list(NAMES)
    for f in functions.FUNCTIONS:
        assert found[f.__name__] == list(inspect.signature(f).parameters), f.__name__
    idl = (DATA / "XFunctions.idl").read_text(encoding="utf-8")
    for name in NAMES:
        kind = "any" if name in SCALAR else "sequence< sequence< any > >"
        assert f"        {kind} {name}(" in idl


def test_without_the_sdk_the_build_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UNOIDL_WRITE", str(tmp_path / "no-such-unoidl-write"))
    assert main(["extension", "calc", "-o", str(tmp_path / "x.oxt")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a program" in err
    assert not (tmp_path / "x.oxt").exists()


def test_the_extension_command_needs_a_kind_and_an_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extension"]) == 2
    assert main(["extension", "calc"]) == 2
    assert "--output" in capsys.readouterr().err


PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
try:
    import regex
except ImportError:
    pass
else:
    raise SystemExit("this Python has regex: the probe would not test the table")
from xlshuffle.calc import call
from xlshuffle.calc import menu, unobook  # the menu's commands load without xlwings
text = "Zo\\u00eb e\\u0301t\\u00e9 \\U0001f1eb\\U0001f1f7 \\u0915\\u094d\\u0937a"
print(json.dumps([
    call("SHUFFLESTR", text, "2026", None),
    call("SHUFFLE", tuple((float(n),) for n in range(1, 11)), 42.0, None, None),
]))
"""


def test_the_built_extension_holds_its_parts_and_runs_without_regex(tmp_path: Path) -> None:
    missing = calc_missing()
    require("calc", missing is None, missing or "")
    oxt = tmp_path / "xlshuffle.oxt"
    assert main(["extension", "calc", "-o", str(oxt)]) == 0
    with zipfile.ZipFile(oxt) as z:
        names = z.namelist()
        manifest = z.read("META-INF/manifest.xml").decode()
        z.extractall(tmp_path / "unpacked")
    assert "description.xml" in names
    parts = ["XFunctions.rdb", "CalcAddIns.xcu", "xlshuffle_calc.py", "xlshuffle_lock.py"]
    for part in [*parts, "ProtocolHandler.xcu", "Addons.xcu"]:
        assert part in names
        assert f'manifest:full-path="{part}"' in manifest
    assert "pythonpath/xlshuffle/lock/commands.py" in names
    assert "pythonpath/xlshuffle/draw/graphemetable.py" in names
    assert not any("excel/" in n or "workbook/" in n or n.endswith(".pyc") for n in names)
    done = subprocess.run(
        [SYSTEM_PYTHON, "-c", PROBE, str(tmp_path / "unpacked" / "pythonpath")],
        capture_output=True,
        text=True,
        check=False,
    )
    if "this Python has regex" in done.stderr:
        pytest.skip("the system's Python has regex: the pure grapheme path is not what runs")
    assert done.returncode == 0, done.stderr
    text, rows = json.loads(done.stdout)
    from xlshuffle.calc import call

    sample = "Zo\u00eb e\u0301t\u00e9 \U0001f1eb\U0001f1f7 \u0915\u094d\u0937a"
    assert text == call("SHUFFLESTR", sample, "2026", None)  # regex's split, here
    assert [tuple(r) for r in rows] == list(
        call("SHUFFLE", tuple((float(n),) for n in range(1, 11)), 42.0, None, None)
    )
    assert sys.modules.get("regex") is not None


def test_the_menu_has_an_entry_per_command_and_its_urls_go_to_the_handler() -> None:
    """Addons.xcu and ProtocolHandler.xcu as LibreOffice reads them (its registry schema):
    each command of the menu once, in order, under the protocol the handler takes."""
    from xlshuffle.calc.build import addons_xcu, protocol_handler_xcu
    from xlshuffle.calc.menu import COMMANDS, HANDLER, PROTOCOL

    oor = "{http://openoffice.org/2001/registry}"
    addons = ET.fromstring(addons_xcu())
    menu = addons.find(f"./node/node/node[@{oor}name='org.xlshuffle.calc.menu']")
    assert menu is not None
    items = menu.findall(f"./node[@{oor}name='Submenu']/node")
    props = [{p.get(f"{oor}name"): p.findtext("value") for p in item} for item in items]
    assert [p["URL"] for p in props] == [PROTOCOL + c.name for c in COMMANDS]
    assert [p["Title"] for p in props] == [c.title for c in COMMANDS]
    assert {p["Context"] for p in props} == {"com.sun.star.sheet.SpreadsheetDocument"}
    handler = ET.fromstring(protocol_handler_xcu()).find("./node/node")
    assert handler is not None and handler.get(f"{oor}name") == HANDLER
    assert handler.findtext("./prop/value") == PROTOCOL + "*"
