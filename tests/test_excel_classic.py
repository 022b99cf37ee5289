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
import xlwings as xw

from xlshuffle import excel, functions

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
    "SAMPLE": (
        "Function SAMPLE(data, k, Optional seed, Optional weights, Optional reserves, "
        "Optional exclude, Optional ids, Optional method)"
    ),
    "SAMPLEBY": (
        "Function SAMPLEBY(data, k, strata, Optional seed, Optional weights, Optional reserves)"
    ),
    "AUDITSAMPLE": (
        "Function AUDITSAMPLE(data, k, Optional seed, Optional method, Optional amounts, "
        "Optional top_stratum)"
    ),
    "GROUPS": "Function GROUPS(data, k, Optional seed, Optional balance)",
    "ORDERS": "Function ORDERS(items, ids, Optional seed, Optional k, Optional balanced)",
    "TICKET": "Function TICKET(ids, seed, Optional number)",
    "SAMPLESIZE": (
        "Function SAMPLESIZE(confidence, tolerable, Optional expected, Optional population, "
        "Optional model)"
    ),
    "UPPERLIMIT": (
        "Function UPPERLIMIT(sample_size, errors, confidence, Optional population, Optional model)"
    ),
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


# --------------------------------------------------------------------------- calls
# xlwings' own ``call_udf`` (what the add-in's COM server runs for every cell) in a child
# process. Stand-ins: the pywin32 modules; the COM server's event loop (not used by a
# synchronous function); the caller cell (not read by these functions). The Windows
# engine's value cleaning is not a stand-in: its functions are taken from xlwings'
# own _xlwindows.py, which cannot be imported here because it needs pywin32.

CALL_CHILD = r"""
import ast, asyncio, datetime as dt, json, pathlib, sys, types
for name in ("pythoncom", "pywintypes", "win32com", "win32com.client"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["pythoncom"].CoInitialize = lambda: None
sys.modules["win32com.client"].Dispatch = None
import xlwings
from xlwings import main

source = (pathlib.Path(xlwings.__file__).parent / "_xlwindows.py").read_text("utf-8")
wanted = {"cell_errors", "_clean_value_data_element", "_com_time_to_datetime",
          "_datetime_to_com_time", "Engine"}
nodes = [n for n in ast.parse(source).body
         if getattr(n, "name", None) in wanted
         or (isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) in wanted)]
assert len(nodes) == len(wanted), [getattr(n, "name", None) for n in nodes]
utc = types.SimpleNamespace(utc=lambda: dt.timezone.utc)
win = types.ModuleType("xlwings._xlwindows")
win.__dict__.update(dt=dt, pd=None, np=None, time_types=(dt.date, dt.datetime),
                    win32timezone=types.SimpleNamespace(TimeZoneInfo=utc))
exec(compile(ast.Module(body=nodes, type_ignores=[]), "_xlwindows.py", "exec"), win.__dict__)
win.Range = lambda xl: types.SimpleNamespace(xl=xl)
win.is_range_instance = lambda value: False  # values, as an array formula passes them
win.BOOK_CALLER = None
sys.modules["xlwings._xlwindows"] = xlwings._xlwindows = win
main.engines.add(main.Engine(impl=win.Engine()))
sys.modules["xlwings.com_server"] = types.SimpleNamespace(loop=asyncio.new_event_loop())

from xlwings import udfs
xlwings.func, xlwings.arg, xlwings.ret = udfs.xlfunc, udfs.xlarg, udfs.xlret

def unwrap(res):  # what xlwings.com_server.CallUDF does with call_udf's result
    if len(res) == 1 and len(res[0]) == 1:
        return res[0][0]
    if len(res) == 1 and len(res[0]) > 1:
        return res[0]
    return res

def revive(value):
    if isinstance(value, dict):
        return dt.datetime.fromisoformat(value["date"])
    if isinstance(value, list):
        return tuple(revive(v) for v in value)
    return value

out = []
for name, args in json.loads(sys.stdin.read()):
    res = udfs.call_udf("xlshuffle.excel", name, tuple(revive(a) for a in args), None, None)
    out.append(unwrap(res))
print(json.dumps(out, default=str))
"""

#: What COM hands over for an omitted optional argument, and for error cells.
MISSING = -2147352572
NA, DIV0 = -2146826246, -2146826281


def column(*values: Any) -> list[list[Any]]:
    """A column of cells as COM passes an array (tuples, given here as lists)."""
    return [[v] for v in values]


TEN = column(*[float(n) for n in range(1, 11)])


def call_classic(*calls: tuple[str, list[Any]]) -> list[Any]:
    """Results of xlwings' real ``call_udf`` for each (function name, COM arguments)."""
    env = {k: v for k, v in os.environ.items() if k != "XLWINGS_ON_SERVER"}
    done = subprocess.run(
        [sys.executable, "-c", CALL_CHILD],
        env=env,
        input=json.dumps(list(calls)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: list[Any] = json.loads(done.stdout)
    return result


def test_the_add_in_calls_give_the_seeded_results() -> None:
    # Known answers (as in xlshuffle.excel's docstring), written down independently.
    got = call_classic(
        ("SHUFFLE", [TEN, 42.0, MISSING, MISSING]),
        ("SAMPLE", [TEN, 3.0, 42.0]),
        ("GROUPS", [TEN, 3.0, 42.0]),
        ("SHUFFLESTR", ["the quick brown fox", 42.0, "words"]),
        ("DEAL", [2.0, 3.0, "xlshuffle", MISSING]),
        ("SHUFFLESTR", [{"date": "2026-01-01T00:00:00"}, 46023.0, MISSING]),
    )
    assert got[0] == column(9.0, 10.0, 4.0, 5.0, 7.0, 6.0, 1.0, 2.0, 8.0, 3.0)
    assert got[1] == column(9.0, 10.0, 4.0)
    assert got[2] == column(1, 2, 1, 3, 1, 3, 2, 3, 1, 2)
    assert got[3] == "the fox quick brown"
    assert got[4] == [["2♣", "3♠", "J♥"], ["8♦", "6♣", "4♦"]]
    # A date cell is its serial number in every runtime: the same as SHUFFLESTR("46023").
    assert got[5] == excel.SHUFFLESTR("46023", 46023)


BAD_CALLS = [
    # (function, COM arguments, what the message must say)
    ("SAMPLE", [TEN, 11.0, 42.0], "SAMPLE: cannot draw 11 from 10 items"),
    ("SAMPLE", [TEN, NA, 42.0], "SAMPLE: k shows the error #N/A: fix that cell"),
    ("SAMPLE", [TEN, 2.0, DIV0], "SAMPLE: the seed cell shows the error #DIV/0!"),
    ("SHUFFLE", [TEN, MISSING, NA, MISSING], "SHUFFLE: by shows the error #N/A"),
    ("SHUFFLE", [TEN, MISSING, MISSING, DIV0], "SHUFFLE: header shows the error #DIV/0!"),
    ("SHUFFLE", [TEN, MISSING, "diagonal", MISSING], "SHUFFLE: unknown mode 'diagonal'"),
    ("SHUFFLE", [TEN, True, MISSING, MISSING], "SHUFFLE: "),
    ("SHUFFLE", [column("a", "b\ud800"), 1.0, MISSING, MISSING], "lone surrogate U+D800"),
    ("SHUFFLESTR", ["x\udfff", MISSING, MISSING], "SHUFFLESTR: text holds a broken character"),
    ("SHUFFLESTR", ["abc", "\ud800", MISSING], "SHUFFLESTR: the seed holds a broken"),
    ("SHUFFLESTR", [NA, 1.0, MISSING], "SHUFFLESTR: text shows the error #N/A"),
    ("DEAL", [1e308, MISSING, MISSING, MISSING], "DEAL: cards must be at most 1,048,576"),
    ("DEAL", [5.0, 1e15, MISSING, MISSING], "DEAL: hands must be at most 16,384"),
    ("DEAL", [5.0, 2.5, MISSING, MISSING], "DEAL: hands must be a whole number"),
    ("DEAL", [5.0, NA, MISSING, MISSING], "DEAL: hands shows the error #N/A"),
    ("DEAL", [5.0, 1.0, MISSING, NA], "DEAL: deck shows the error #N/A"),
    ("DEAL", [30.0, 2.0, MISSING, MISSING], "DEAL: "),
    ("GROUPS", [TEN, 0.0, MISSING], "GROUPS: k must be 1 or more"),
    ("GROUPS", [column(None, None), 2.0, MISSING], "GROUPS: data has only empty cells"),
]


def test_every_mistake_is_a_short_value_error_in_the_cell_never_a_traceback() -> None:
    """Under the add-in a mistake must come back as the cell's text: xlwings would show
    an exception as its whole traceback (xlwings #1108)."""
    got = call_classic(*((name, args) for name, args, _ in BAD_CALLS))
    for (name, _, expected), shown in zip(BAD_CALLS, got, strict=True):
        assert isinstance(shown, str), (name, shown)
        assert shown.startswith(f"#VALUE! {name}: "), shown
        assert expected in shown, shown
        assert "\n" not in shown and "Traceback" not in shown and "Error:" not in shown
        assert len(shown) <= len("#VALUE! ") + functions.arguments.MAX_MESSAGE
        shown.encode("utf-8")  # a lone surrogate was escaped, not passed on


def test_outside_the_add_in_a_mistake_still_raises() -> None:
    """The text is for the classic add-in only: Python callers and Office.js get the
    exception (Office.js shows it as a real #VALUE! with the message on hover)."""
    with pytest.raises(xw.XlwingsError, match=r"^SAMPLE: cannot draw 11 from 10 items"):
        excel.SAMPLE([[n] for n in range(10)], 11, 42)


def test_the_add_in_draws_tickets_strata_and_audits_like_office_js() -> None:
    """The raffle and audit functions' arguments through the add-in's own ``call_udf``:
    omitted ones arrive as COM's "missing" marker, numbers as floats; the draws are the
    protocol's (the oracle is tools/make_vectors.py, which never imports xlshuffle)."""
    from protocol_references import MV

    tickets = column(5.0, 1.0, 0.0, 2.5, 4.0, 1.0, 3.0, 0.5, 2.0, 6.0)
    teams = column(*["red", "blue"] * 5)
    amounts = column(*[float(n * 37 % 101) for n in range(1, 11)])
    got = call_classic(
        ("SAMPLE", [TEN, 3.0, "spring", tickets, 2.0, MISSING, MISSING]),
        ("SAMPLE", [TEN, 2.0, 42.0, MISSING, MISSING, column(9.0, 10.0), MISSING]),
        ("SAMPLEBY", [TEN, 2.0, teams, "teams", MISSING, MISSING]),
        ("AUDITSAMPLE", [TEN, 3.0, "audit 2026", MISSING, MISSING]),
        ("AUDITSAMPLE", [TEN, 4.0, "audit 2026", "mus", amounts]),
        ("SAMPLE", [TEN, 3.0, "spring", column(1.0, -2.0), MISSING, MISSING, MISSING]),
    )
    drawn = MV.weighted([int(w[0] * 10) for w in tickets], 5, MV.words("spring"))
    roles = [["winner", 1], ["winner", 2], ["winner", 3], ["reserve", 1], ["reserve", 2]]
    assert got[0] == [[TEN[i][0], *role] for i, role in zip(drawn, roles, strict=True)]
    assert got[1] == [TEN[i] for i in MV.deal(list(range(8)), 2, 42)]  # 9 and 10 excluded
    parts = MV.strata("teams", [t[0] for t in teams], "k", 2, None)
    assert got[2] == [TEN[i] for _, _, rows in parts for i in rows]
    assert got[3] == [TEN[i] for i in MV.audit_hits(10, 3, MV.words("audit 2026"))[1]]
    cents = [int(a[0]) * 100 for a in amounts]
    hits = MV.monetary_units(cents, 4, "audit 2026")["selected"]
    assert got[4] == [[TEN[i][0], n] for i, n in hits]
    assert got[5] == (
        "#VALUE! SAMPLE: weights has 2 cells but data has 10 rows: give one weights cell "
        "for each row of data"
    )
