"""Same results inside Pyodide, the runtime of xlwings Lite, as in CPython.

Node runs ``tests/pyodide/run_cases.mjs`` with the npm package ``pyodide`` (installed by
``npm install --prefix tests/pyodide``). It installs one pure-Python wheel into Pyodide,
xlwings' (the one xlwings Lite uses, downloaded once from PyPI into
``tests/pyodide/cache/``), and nothing of xlshuffle: it loads exactly the committed
``workbooks/lite/main.py`` as Lite does (the bundle carries xlshuffle's modules itself)
and evaluates the cases through xlwings' own ``custom_functions_call``. CPython evaluates
the same request bodies with the package; seeded answers must be equal, and anchored to
the draw protocol's vector; unseeded ones must have the same shape and be valid draws.

Shuffling text by letters needs ``regex``, which Pyodide ships in its distribution but not
in the npm package (xlwings Lite downloads it with the distribution); offline only the
word cases can run there, and the letter cases must be refused for that reason and no
other.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import xlwings as xw

from excel_book import PEOPLE, Excel, people, sha256_of
from excel_calls import DIV0_IN, NA_IN, VECTOR_42, call, cell, column
from xlshuffle import PROTOCOL, __version__, excel, permutation, standard_deck

from support import ROOT, require

HERE = ROOT / "tests" / "pyodide"
CACHE = HERE / "cache"
WHEEL = CACHE / f"xlwings-{xw.__version__}-py3-none-any.whl"

NAMES = ["Ada", "Ben", "Chen", "Dara", "Eli", "Fay"]
TICKET_COUNTS = [5, 1, "3", 0, 2.5, 4]
TEAMS = ["red", "blue", "red", 42, "blue", 42.0]
AMOUNTS = [1250.5, "$20.00", 0, 310.25, 75, 5000]
RAFFLE = [[n, t, a] for n, t, a in zip(NAMES, TEAMS, AMOUNTS, strict=True)]
GRID = [["name", "team", "score"], ["Ann", "red", 3], ["Bob", None, 1.5], ["Cy", "blue", NA_IN]]
CASES: list[tuple[str, list[Any]]] = [
    ("SHUFFLE", [column(list(range(1, 11))), cell(42), None, None]),
    ("SHUFFLE", [[list(range(1, 11))], cell("42"), None, None]),
    ("SHUFFLE", [column([1, None, "", DIV0_IN, 46023.0, True, "x"]), cell("blanks"), None, None]),
    *[("SHUFFLE", [GRID, cell(7), cell(by), cell(True)]) for by in ("rows", "Columns", "cells")],
    ("SHUFFLE", [GRID, cell(46023.0), cell("within rows"), None]),
    ("SAMPLE", [column([f"ticket {i}" for i in range(1, 101)]), cell(5), cell("raffle")]),
    ("SAMPLE", [column([1, 2, 3]), cell(4), None]),
    ("DEAL", [cell(5), cell(4), cell("poker night"), None]),
    ("DEAL", [cell(6), None, cell(2026), cell(49)]),
    ("DEAL", [cell(2), cell(2), cell("names"), [["Ann", "Bob"], ["Cy", None], ["Di", "Ed"]]]),
    ("DEAL", [cell(14), cell(4), cell(1), None]),
    ("GROUPS", [column([f"p{i}" for i in range(10)]), cell(3), cell(42)]),
    ("SHUFFLE", [column([1, 2]), cell(True), None, None]),
    ("SHUFFLESTR", [cell("the quick brown  fox"), cell(42), cell("words")]),
    # bad input: the same one-line refusals in Lite
    ("SHUFFLE", [column([1, 2, 3]), cell(1), cell(NA_IN), None]),
    ("DEAL", [cell(1), cell(DIV0_IN), cell(1), None]),
    ("DEAL", [cell(1e15), None, None, None]),
    ("DEAL", [cell(1), None, None, cell(1e30)]),
    ("SAMPLE", [column([None, None]), cell(1), None]),
    ("SHUFFLESTR", [cell(NA_IN), cell(1), cell("words")]),
    ("SHUFFLE", [column(["a", "b\ud800"]), cell(1), None, None]),
    # raffles and audits: tickets, reserves, exclusions, strata
    ("SAMPLE", [RAFFLE, cell(3), cell("spring"), column(TICKET_COUNTS), cell(2), None, None]),
    ("SAMPLE", [RAFFLE, cell(2), cell(7), None, cell(1), [["Ben", "Eli"]], None]),
    ("SAMPLE", [[NAMES], cell(2), cell(9), [TICKET_COUNTS], cell(1), None, None]),
    ("SAMPLEBY", [RAFFLE, cell(1), column(TEAMS), cell("teams"), None, cell(1)]),
    ("SAMPLEBY", [RAFFLE, cell(1), column(TEAMS), cell(46023.0), column(TICKET_COUNTS), None]),
    ("AUDITSAMPLE", [RAFFLE, cell(3), cell("audit 2026"), None, None]),
    ("AUDITSAMPLE", [RAFFLE, cell(4), cell("audit 2026"), cell("mus"), column(AMOUNTS)]),
    ("SAMPLE", [RAFFLE, cell(2), cell(1), column([1, -2, 3, 4, 5, 6]), None, None, None]),
    ("AUDITSAMPLE", [RAFFLE, cell(2), cell(1), cell("cell"), None]),
    # research and classroom designs: balanced teams, allocation lists with strata, orders
    ("GROUPS", [[["Name", "Team", "Amount"], *RAFFLE], cell(2), cell("teams"), cell("Team")]),
    ("GROUPS", [RAFFLE, cell(3), cell(5), [[2, 3]]]),
    ("GROUPS", [RAFFLE, cell(3), cell(5), cell("Team")]),  # a mistake: no header row
    (
        "ALLOCATE",
        [
            cell("A,B"),
            cell(4),
            cell("trial"),
            cell("2:1"),
            cell("3,6"),
            cell("site=North,South;sex=F,M"),
        ],
    ),
    ("ALLOCATE", [cell("A,B"), cell(4), cell(1), None, None, cell("site")]),  # a mistake
    ("ORDERS", [column(NAMES[:4]), column(["P1", "P2", 42]), cell("study"), None, cell(True)]),
    # ticket draws: each row's own ticket from the seed and its ID
    ("SAMPLE", [RAFFLE, cell(2), cell("spring"), None, cell(1), None, None, cell("ticket")]),
    ("SAMPLE", [RAFFLE, cell(3), cell(314159), None, None, None, None, cell("rivest")]),
    ("TICKET", [column(NAMES), cell("spring"), None]),
    ("TICKET", [cell("Ann"), None, None]),  # a mistake: no seed
    # audit planning and evaluation: exact sums and 50-digit Decimal, the same in Pyodide
    ("SAMPLESIZE", [cell(0.95), cell(0.05), cell(0.01), None, None]),
    ("SAMPLESIZE", [cell("95%"), cell("5%"), cell(0.025), None, cell("poisson")]),
    ("SAMPLESIZE", [cell(0.9), cell(0.05), cell(0.035), cell(1000), cell("hypergeometric")]),
    ("UPPERLIMIT", [cell(100), cell(2), cell(0.95), cell(1000), cell("hypergeometric")]),
    ("UPPERLIMIT", [cell(93), cell(1), cell(0.95), None, None]),
    ("UPPERLIMIT", [cell(33), column([1, 0.1, 0.05, 0.05]), cell(0.95), None, None]),
    ("SAMPLESIZE", [cell(95), cell(0.05), None, None, None]),  # a mistake: 95 is not 95%
]
LETTER_CASES: list[tuple[str, list[Any]]] = [
    ("SHUFFLESTR", [cell("Zoe\u0308 \U0001f1e9\U0001f1ea!"), cell("jumble"), None]),
]


def _seeded() -> Excel:
    """The people of excel_book, with a seed cell named SEED holding 7."""
    book = people()
    book.name("SEED", "H1")
    book.put("Sheet1", 1, 8, 7)
    return book


def _raffle() -> Excel:
    """The seeded people, their "n" column (B) as tickets: 1, 2.5, 3, 4, 5."""
    book = _seeded()
    book.put("Sheet1", 4, 2, 3)  # Cy's "x" becomes 3 tickets
    return book


def _items() -> Excel:
    """The seeded people with only their names selected: the items of write orders."""
    book = _seeded()
    book.select("A2:A6")
    return book


_COMMITTED: list[Excel] = []


def _committed() -> Excel:
    """The people with a commitment to draw 2 winners (made once, so that CPython and
    Pyodide draw from the same commit row, whose hash holds its time)."""
    if not _COMMITTED:
        book = people()
        book.script("commit_selection", "sample", 2, "EuroMillions 2026-12-04")
        _COMMITTED.append(book)
    return copy.deepcopy(_COMMITTED[0])


_RAFFLED: list[Excel] = []


def _raffled() -> Excel:
    """The seeded raffle drawn once (2 winners, 2 reserves by the tickets in column B),
    the first row of its result (D2) selected: a round of it."""
    if not _RAFFLED:
        book = _raffle()
        book.script("draw_raffle", 2, 2, "n")
        book.select("D2")
        _RAFFLED.append(book)
    return copy.deepcopy(_RAFFLED[0])


# Draw and lock: (script, the workbook it runs on, its arguments).
SCRIPT_CASES: list[tuple[str, Any, list[Any]]] = [
    ("shuffle_rows", _seeded, []),
    ("draw_winners", _seeded, [2]),
    ("deal_cards", _seeded, [3, 2]),
    ("assign_groups", _seeded, [2]),
    ("draw_raffle", _raffle, [3, 1, "n"]),
    ("assign_balanced_teams", _seeded, [2, "flag"]),
    ("write_allocation_list", _seeded, ["A,B", 3, "2:1", "3", "site=N,S"]),
    ("write_orders", _items, ["B2:B6", "2", True]),
    ("write_orders", _seeded, ["B2:B6"]),  # a mistake: a block of items
    ("draw_raffle", _raffle, [9, 1, ""]),  # a mistake: the same one line
    ("draw_winners", _seeded, [99]),  # a mistake: the same one line
    ("commit_selection", _seeded, ["groups", 2, "drand quicknet round 123"]),
    ("draw_committed", _committed, ["4 17 23 38 45 / 9f1c"]),
    ("draw_committed", _committed, ["2026/12/04"]),  # a mistake: the same one line
    ("replace_winner", _raffled, ["", "no answer"]),  # the selected row's winner
    ("replace_winner", _raffled, ["Nobody", "away"]),  # a mistake: the same one line
    ("shuffle_rows", people, []),  # a fresh seed from Pyodide's OS
]

# Without a seed: a fresh draw in each runtime, so the values differ, not what they are.
TICKETS = [f"ticket {i}" for i in range(1, 101)]
UNSEEDED: list[tuple[str, list[Any]]] = [
    ("SHUFFLE", [column(list(range(1, 11))), None, None, None]),
    ("SHUFFLE", [[list(range(1, 11))], None, None, None]),
    ("SHUFFLE", [GRID, None, cell("cells"), cell(True)]),
    ("SHUFFLE", [GRID, None, cell("within rows"), None]),
    ("SAMPLE", [column(TICKETS), cell(5), None]),
    ("DEAL", [cell(5), cell(4), None, None]),
    ("GROUPS", [column([f"p{i}" for i in range(10)]), cell(3), None]),
    ("SHUFFLESTR", [cell("the quick brown  fox"), None, cell("words")]),
]


def _xlwings_wheel() -> Path | None:
    """xlwings' pure wheel (what Lite installs), fetched from PyPI once into the cache."""
    if not WHEEL.exists():
        CACHE.mkdir(exist_ok=True)
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        subprocess.run(
            [
                *pip,
                *("--only-binary=:all:", "--platform", "any", "--python-version", "3.14"),
                *("--dest", str(CACHE), f"xlwings=={xw.__version__}"),
            ],
            check=False,
            capture_output=True,
        )
    return WHEEL if WHEEL.exists() else None


@pytest.fixture(scope="module")
def pyodide_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    node = shutil.which("node")
    installed = (HERE / "node_modules" / "pyodide" / "package.json").exists()
    require("pyodide", bool(node and installed), "run `npm install --prefix tests/pyodide`")
    wheel = _xlwings_wheel()
    require("pyodide", wheel is not None, f"pip could not download {WHEEL.name} from PyPI")
    assert node is not None
    assert wheel is not None
    work = tmp_path_factory.mktemp("pyodide")
    cases = work / "cases.json"
    functions = CASES + LETTER_CASES + UNSEEDED
    scripts = [[name, json.dumps(make().payload), args] for name, make, args in SCRIPT_CASES]
    cases.write_text(json.dumps({"functions": functions, "scripts": scripts}), encoding="utf-8")
    main_py = ROOT / "workbooks" / "lite" / "main.py"  # exactly the file users paste
    done = subprocess.run(
        [node, str(HERE / "run_cases.mjs"), str(cases), str(main_py), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"node failed ({done.returncode}):\n{done.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(lines[-1].removeprefix("RESULT "))
    return result


def _in_cpython(name: str, args: list[Any]) -> dict[str, Any]:
    try:
        return {"value": call(name, *args)}
    except xw.XlwingsError as exc:
        return {"error": str(exc)}


pytestmark = pytest.mark.slow


def test_runs_in_the_runtime_of_xlwings_lite(pyodide_run: dict[str, Any]) -> None:
    assert pyodide_run["platform"] == "emscripten"
    assert pyodide_run["python"].startswith("3.14")
    assert pyodide_run["xlwings"] == xw.__version__
    assert sorted(pyodide_run["registered"]) == sorted(f.__name__ for f in excel.FUNCTIONS)


def test_xlshuffle_comes_from_the_bundle_alone(pyodide_run: dict[str, Any]) -> None:
    origins = pyodide_run["origins"]
    assert "xlshuffle.excel" in origins
    assert all(o.startswith("main.py/xlshuffle/") for o in origins.values()), origins


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_same_results_as_cpython(pyodide_run: dict[str, Any], index: int) -> None:
    assert pyodide_run["results"][index] == _in_cpython(*CASES[index])


def test_anchored_to_the_protocol_vector(pyodide_run: dict[str, Any]) -> None:
    assert pyodide_run["results"][0] == {"value": column(VECTOR_42)}
    assert pyodide_run["results"][1] == {"value": [VECTOR_42]}


def test_shuffling_letters_needs_only_regex(pyodide_run: dict[str, Any]) -> None:
    for offset, case in enumerate(LETTER_CASES):
        got = pyodide_run["results"][len(CASES) + offset]
        if pyodide_run["regex"]:
            assert got == _in_cpython(*case)
        else:  # the npm package lacks Pyodide's regex wheel; xlwings Lite has it
            assert got["error"].startswith("SHUFFLESTR: shuffling text by grapheme needs")
            assert "requirements.txt" in got["error"]


def _cells_of(rows: Any) -> list[str]:
    return sorted(json.dumps(v, sort_keys=True) for row in rows for v in row)


def _shape(value: Any) -> Any:
    return [len(row) for row in value] if isinstance(value, list) else type(value).__name__


@pytest.mark.parametrize("index", range(len(UNSEEDED)), ids=[c[0] for c in UNSEEDED])
def test_unseeded_draws_have_the_shape_and_values_of_cpython(
    pyodide_run: dict[str, Any], index: int
) -> None:
    name, args = UNSEEDED[index]
    got = pyodide_run["results"][len(CASES) + len(LETTER_CASES) + index]["value"]
    ours = _in_cpython(name, args)["value"]
    assert _shape(got) == _shape(ours)
    if name == "SHUFFLE":  # a permutation of the same cells; a header row stays
        assert _cells_of(got) == _cells_of(ours)
        if args[3] == cell(True):
            assert got[0] == ours[0] == GRID[0]
        if args[2] == cell("within rows"):
            assert [sorted(map(json.dumps, r)) for r in got] == [
                sorted(map(json.dumps, r)) for r in ours
            ]
    elif name == "SAMPLE":  # k different tickets
        drawn = [row[0] for row in got]
        assert len(set(drawn)) == len(drawn) == 5
        assert set(drawn) <= set(TICKETS)
    elif name == "DEAL":  # 20 different cards of the standard deck
        dealt = [c for row in got for c in row]
        assert len(set(dealt)) == len(dealt) == 20
        assert set(dealt) <= set(standard_deck())
    elif name == "GROUPS":  # the same group sizes
        assert sorted(Counter(_cells_of(got)).values()) == sorted(Counter(_cells_of(ours)).values())
    else:  # SHUFFLESTR by words: the same words, the spaces where they were
        (got,), (ours,) = got[0], ours[0]
        assert sorted(got.split()) == sorted(ours.split())
        assert re.split(r"\S+", got) == re.split(r"\S+", ours)


# --------------------------------------------------------------------------- draw and lock


def _workbook_after(make: Any, actions: list[dict[str, Any]]) -> Excel:
    book = make()
    book.apply(actions)
    return book


def _without_time(book: Excel) -> list[Any]:
    """Every sheet's values, with the log's UTC time (column A below the header) blanked,
    and a commitment's hash and text, which hold its time."""
    sheets = copy.deepcopy(book.payload["sheets"])
    for sheet in sheets:
        if sheet["name"] == "Draw log":
            for row in sheet["values"][1:]:
                row[0] = "<time>"
                if len(row) > 25 and row[3] == "commit":
                    row[21] = row[25] = "<holds the time>"
    return [(s["name"], s["values"]) for s in sheets] + [sorted(book.formats.items())]


@pytest.mark.parametrize(
    "index", range(len(SCRIPT_CASES) - 1), ids=[c[0] for c in SCRIPT_CASES[:-1]]
)
def test_seeded_scripts_write_what_cpython_writes(pyodide_run: dict[str, Any], index: int) -> None:
    name, make, args = SCRIPT_CASES[index]
    got = pyodide_run["scripts"][index]
    ours = make()
    try:
        ours.script(name, *args)
    except xw.XlwingsError as exc:
        refused = str(exc)
    else:
        refused = None
    if refused is not None:
        assert got == {"error": refused}
    else:
        assert "actions" in got, got
        assert _without_time(_workbook_after(make, got["actions"])) == _without_time(ours)


def test_an_unseeded_lock_in_pyodide_is_logged_and_replays(pyodide_run: dict[str, Any]) -> None:
    _, make, _ = SCRIPT_CASES[-1]
    book = _workbook_after(make, pyodide_run["scripts"][-1]["actions"])
    (entry,) = book.log()
    assert (entry["protocol"], entry["version"]) == (PROTOCOL, __version__)
    perm = permutation(len(PEOPLE), seed=entry["seed"])
    assert book.cells("Sheet1", 2, 1, 5, 3) == [PEOPLE[p] for p in perm]
    assert entry["input sha256"] == sha256_of(PEOPLE)
