"""The worksheet functions stay within the rules of xlwings' classic Windows add-in.

The add-in's "Import Functions" runs ``xlwings.udfs``, which needs pywin32 and so only
imports on Windows. Here it runs for real in a child process with stand-ins for the three
pywin32 modules it imports (nothing of them is called while registering): xlwings' own
classic decorators register ``xlshuffle.excel`` and its own ``generate_vba_wrapper``
writes the VBA that Excel would get. The child process starts without
XLWINGS_ON_SERVER, as on a Windows desktop.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from xlshuffle import excel

CHILD = r"""
import io, json, sys, types
for name in ("pythoncom", "pywintypes", "win32com", "win32com.client"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["pythoncom"].CoInitialize = lambda: None
sys.modules["win32com.client"].Dispatch = None
import xlwings
from xlwings import udfs
xlwings.func, xlwings.arg, xlwings.ret = udfs.xlfunc, udfs.xlarg, udfs.xlret
from xlshuffle import excel
vba = io.StringIO()
udfs.generate_vba_wrapper("xlshuffle.excel", excel, vba, types.SimpleNamespace(Name="a.xlsm"))
info = {f.__name__: {"category": f.__xlfunc__["category"],
                     "volatile": f.__xlfunc__["volatile"],
                     "doc": f.__xlfunc__["ret"]["doc"],
                     "args": [[a["name"], "optional" in a, a["vararg"], a["doc"]]
                              for a in f.__xlfunc__["args"]]}
        for f in excel.FUNCTIONS}
print(json.dumps({"vba": vba.getvalue(), "info": info}))
"""

SIGNATURES = {
    "SHUFFLE": "Function SHUFFLE(data, Optional seed, Optional by, Optional header)",
    "SHUFFLESTR": "Function SHUFFLESTR(text, Optional seed, Optional unit)",
    "DEAL": "Function DEAL(cards, Optional hands, Optional seed, Optional deck)",
    "SAMPLE": "Function SAMPLE(data, k, Optional seed)",
    "GROUPS": "Function GROUPS(data, k, Optional seed)",
}

# VBA's reserved words, and Excel object names a parameter would shadow in the wrapper.
_WORDS = """and as boolean byref byte byval call case class const currency debug dim do double each
    else elseif empty end endif enum eqv event exit false for friend function get global gosub
    goto if imp implements in integer is let like long longlong longptr loop lset me mod new
    next not nothing null on option optional or paramarray preserve private property public
    raiseevent redim rem resume rset select set shared single static step stop string sub then
    to true type typeof until variant wend while with withevents xor caller range cells
    application"""
VBA_RESERVED = frozenset(_WORDS.split())


@pytest.fixture(scope="module")
def classic() -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "XLWINGS_ON_SERVER"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("func", excel.FUNCTIONS, ids=lambda f: f.__name__)
def test_signature_is_positional_with_optional_arguments_last(func: Any) -> None:
    params = list(inspect.signature(func).parameters.values())
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)
    defaults = [p.default is not inspect.Parameter.empty for p in params]
    assert defaults == sorted(defaults)  # no required argument after an optional one
    assert not {p.name.lower() for p in params} & VBA_RESERVED


@pytest.mark.parametrize("name", SIGNATURES)
def test_the_add_in_writes_a_plain_vba_wrapper(classic: dict[str, Any], name: str) -> None:
    vba = classic["vba"]
    assert SIGNATURES[name] in vba.splitlines()
    assert f'{name} = XLPy.CallUDF("xlshuffle.excel", "{name}", ' in vba
    assert "ParamArray" not in vba
    assert "Application.Volatile" not in vba


@pytest.mark.parametrize("name", SIGNATURES)
def test_category_and_descriptions_for_the_function_wizard(
    classic: dict[str, Any], name: str
) -> None:
    info = classic["info"][name]
    assert info["category"] == "xlshuffle"
    assert info["volatile"] is False
    assert "\n" not in info["doc"]
    assert len(info["doc"]) <= 255  # Application.MacroOptions keeps 255 characters
    for arg_name, optional, vararg, doc in info["args"]:
        assert not vararg
        assert doc.startswith("Optional.") == optional, arg_name
        assert len(doc) <= 255
