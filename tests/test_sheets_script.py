"""Google Sheets: the Apps Script file of ``xlshuffle extension sheets``, run under Node
with stand-ins for the Apps Script globals it uses (tests/sheets/standin.mjs).

Its custom functions are checked against the protocol's vectors (tests/vectors/draw-v1.json)
and against xlshuffle.excel's functions called with the same values, as Sheets and Excel
hand them over (a blank is "" in Sheets and None in Excel, a date a Date and a datetime);
both of its SHA-256 paths (Utilities.computeDigest, the JavaScript one) give the same.
What needs a real Sheets account is listed in docs/sheets.md. Skipped without Node, with a
note, unless XLSHUFFLE_REQUIRE lists ``node`` (CI).
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from sheets_script import OMITTED, as_python, calls, date, run, same_form
from xlshuffle import excel
from xlshuffle.draw.text import shuffle_text
from xlshuffle.sheets import manifest, script

ROOT = Path(__file__).resolve().parent.parent
PYTHON = (sys.executable, "-m", "xlshuffle")
#: The functions of the file: all of Excel's.
SHEETS_FUNCTIONS = [f.__name__ for f in excel.FUNCTIONS]
VECTORS = json.loads((ROOT / "tests" / "vectors" / "draw-v1.json").read_text(encoding="utf-8"))


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("make_sheets", ROOT / "tools" / "make_sheets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- the file and the command


def test_packaged_file_is_what_the_build_writes() -> None:
    assert _tool().main(["--check"]) == 0, "stale: run python tools/make_sheets.py"


def test_command_writes_the_packaged_file_and_the_manifest(tmp_path: Path) -> None:
    out, extra = tmp_path / "xlshuffle.gs", tmp_path / "appsscript.json"
    for kind, path in (("sheets", out), ("sheets-manifest", extra)):
        done = subprocess.run(
            [*PYTHON, "extension", kind, "-o", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == script()
    assert json.loads(extra.read_text(encoding="utf-8"))["runtimeVersion"] == "V8"
    assert extra.read_text(encoding="utf-8") == manifest()
    missing = subprocess.run(
        [*PYTHON, "extension", "sheets"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


def test_the_file_is_one_plain_script() -> None:
    text = script()
    assert "import {" not in text and "export " not in text
    assert "async " not in text and "await " not in text and "Promise" not in text
    assert "crypto.subtle.digest" not in text and "new TextEncoder" not in text
    for name in SHEETS_FUNCTIONS:
        assert f"\nfunction {name}(" in text, name
        assert text.count(f"@customfunction\n */\nfunction {name}(") == 1, name


def test_build_refuses_a_protocol_module_that_still_waits(tmp_path: Path) -> None:
    import shutil

    from xlshuffle.sheets.build import render
    from xlshuffle.sheets.modules import BuildError

    src = tmp_path / "src"
    shutil.copytree(ROOT / "verifier" / "src" / "protocol", src / "protocol")
    seeds = src / "protocol" / "seeds.js"
    seeds.write_text(
        seeds.read_text(encoding="utf-8") + "\nexport const later = Promise.resolve(1);\n",
        encoding="utf-8",
    )
    with pytest.raises(BuildError, match=r"protocol/seeds.js:.*'Promise' has no synchronous"):
        render(src, version="0")


# ---------------------------------------------------------------- the protocol's vectors


def _seed(seed: dict[str, Any]) -> Any:
    """A vector's typed seed as a Sheets cell holds it (a big int as its digits: the same
    bytes, section 1)."""
    kind, value = seed["type"], seed["value"]
    if kind == "int":
        return value if abs(value) <= 2**53 else str(value)
    if kind == "date":
        return date(dt.date.fromisoformat(value))
    if kind == "datetime":
        return date(dt.datetime.fromisoformat(value))
    return value


class FirstColumn(NamedTuple):
    """What a vector gives of a draw whose rows get more columns: their order."""

    order: list[int]


def _column(values: list[Any]) -> list[list[Any]]:
    return [[v] for v in values]


@pytest.mark.parametrize("digest", ["utilities", "javascript"])
def test_vectors(tmp_path: Path, digest: str) -> None:
    v = VECTORS
    asked: list[tuple[str, list[Any]]] = []
    expected: list[Any] = []
    for c in v["shuffles"]:
        if c["n"]:
            asked.append(("SHUFFLE", [_column(list(range(c["n"]))), _seed(c["seed"])]))
            expected.append(_column(c["permutation"]))
    for c in v["deals"]:
        if not 0 < c["k"] <= c["n"] <= 10_000:  # SAMPLE draws 1 to n rows, from a range
            continue
        asked.append(("SAMPLE", [_column(list(range(c["n"]))), c["k"], _seed(c["seed"])]))
        expected.append(_column(c["dealt"]))
    g = v["groups"]
    asked.append(("GROUPS", [_column(list(range(g["n"]))), g["k"], _seed(g["seed"])]))
    expected.append(_column(g["groups"]))
    for c in v["weighted"]:
        holders = sum(1 for w in c["weights"] if int(w) > 0)
        if 0 < c["k"] <= holders:
            n = len(c["weights"])
            # a count past 2**53 is no number a cell holds exactly: its text, as a cell may hold
            tickets = [w if abs(int(w)) <= 2**53 else str(w) for w in c["weights"]]
            args = [_column(list(range(n))), c["k"], _seed(c["seed"]), _column(tickets)]
            asked.append(("SAMPLE", args))
            expected.append(_column(c["drawn"]))
    r = v["reserves"]
    n = len(r["weights"])
    args = [_column(list(range(n))), r["winners"], _seed(r["seed"]), _column(r["weights"])]
    asked.append(("SAMPLE", [*args, r["reserves"]]))
    expected.append([p[1:] for p in r["placings"]])
    e = v["exclusions"]
    ids = ["" if i is None else i for i in e["ids"]]
    ex = [_column(e["excluded"]), _column(ids)]  # exclude, ids
    asked.append(
        (
            "SAMPLE",
            [_column(list(range(len(ids)))), e["k"], _seed(e["seed"]), OMITTED, OMITTED, *ex],
        )
    )
    expected.append(_column(e["drawn"]))
    for c in v["person_orders"]:
        items = _column(list(range(c["n"])))
        asked.append(("ORDERS", [items, c["id"], _seed(c["seed"]), c["k"]]))
        expected.append([[c["id"], *c["order"]]])
    for c in v["balanced_orders"]:
        people = [f"p{i}" for i in range(c["people"])]
        args = [_column(list(range(c["n"]))), _column(people), _seed(c["seed"]), c["k"], True]
        asked.append(("ORDERS", args))
        expected.append([[p, *o] for p, o in zip(people, c["orders"], strict=True)])
    for c in v["balanced_teams"]:
        labels = [["" if x is None else x for x in row] for row in c["labels"]]
        columns = [list(range(1, len(labels[0]) + 1))]
        asked.append(("GROUPS", [labels, c["k"], _seed(c["seed"]), columns]))
        expected.append(_column(c["teams"]))
    for c in v["systematic"]:
        if 0 < c["k"] <= c["n"] <= 10_000:  # a range of n rows
            asked.append(("AUDITSAMPLE", [_column(list(range(c["n"]))), c["k"], _seed(c["seed"])]))
            expected.append(_column(c["items"]))
    for c in v["ticket_orders"]:  # SAMPLE draws k (not a rate, nor everyone)
        if c["k"] is not None and c["rate"] is None:
            weights = OMITTED if c["weights"] is None else _column(c["weights"])
            data, ids = _column(list(range(len(c["ids"])))), _column(c["ids"])
            args = [data, c["k"], _seed(c["seed"]), weights, c["reserves"], OMITTED, ids]
            asked.append(("SAMPLE", [*args, "ticket"]))
            expected.append(FirstColumn(c["order"]))
    for c in v["rivest_orders"]:
        data, ids = _column(list(range(len(c["ids"])))), _column(c["ids"])
        args = [data, len(c["ids"]), _seed(c["seed"]), OMITTED, 0, OMITTED, ids, "rivest"]
        asked.append(("SAMPLE", args))
        expected.append(FirstColumn(c["order"]))
    for c in v["allocation_lists"]:
        width = 1 + max((len(values) for _, values in c["strata"]), default=0)
        factors = [[name, *values] for name, values in c["strata"]]  # a range: blanks ""
        strata = [row + [""] * (width - len(row)) for row in factors] or OMITTED
        args = [_column(c["arms"]), c["n"], _seed(c["seed"]), _column(c["ratio"])]
        asked.append(("ALLOCATE", [*args, _column(c["block_sizes"]), strata]))
        expected.append([[s, *combo, b, size, arm] for s, combo, b, size, arm, _ in c["rows"]])
    for c in v["tickets"]:
        asked.append(("TICKET", [c["id"], _seed(c["seed"]), c["number"]]))
        expected.append(c["ticket"])
    found = run(tmp_path, {"calls": asked, "digest": digest})
    assert len(found["results"]) == len(expected)
    for call, got, want in zip(asked, found["results"], expected, strict=True):
        if isinstance(want, FirstColumn):  # the drawn rows, then their role, rank and ticket
            got, want = [row[0] for row in got], want.order
        assert got == want, call
    # Apps Script's own SHA-256 when it is there, the JavaScript one when it is not
    assert (found["log"]["digests"] > 0) == (digest == "utilities")


# ---------------------------------------------------------------- the Python functions' results


GRID = [
    ["Ann", 3, True, date(dt.date(2026, 1, 1))],
    ["Bo", 2.5, False, ""],
    ["", -7, "TRUE", date(dt.datetime(2026, 3, 1, 18, 30))],
    ["Cy", 0.1, "", "=1+1"],
    ["Dee", 1e20, "007", "x"],
]
PEOPLE = [
    ["Name", "Sex", "Level", "Tickets"],
    ["Ann", "F", 1, 2],
    ["Bo", "M", 2, "0.5"],
    ["Cy", "M", 1, 1],
    ["Dee", "F", 2, 0],
    ["Ed", "M", 1, 3],
    ["Flo", "F", 1, 1.5],
    ["Gus", "M", 2, 1],
]
BODY = PEOPLE[1:]
DATE_SEED = date(dt.date(2026, 11, 21))

CASES: list[tuple[str, list[Any]]] = [
    ("SHUFFLE", [GRID, 42]),
    ("SHUFFLE", [GRID, "spring"]),
    ("SHUFFLE", [GRID, DATE_SEED]),
    ("SHUFFLE", [GRID, date(dt.datetime(2026, 11, 21, 18, 0, 0))]),
    ("SHUFFLE", [GRID, 0.1]),
    ("SHUFFLE", [GRID, 7, "columns"]),
    ("SHUFFLE", [GRID, 7, "cells"]),
    ("SHUFFLE", [GRID, 7, "Within Rows"]),
    ("SHUFFLE", [GRID, 7, "within columns"]),
    ("SHUFFLE", [PEOPLE, 7, OMITTED, True]),
    ("SHUFFLE", [[list(range(1, 11))], 42]),
    ("SHUFFLESTR", ["ABCDEFGHIJ", "2026 raffle"]),
    ("SHUFFLESTR", ["the quick  brown\tfox ", 42, "words"]),
    ("SHUFFLESTR", [12345.5, 3]),
    ("SHUFFLESTR", [True, 3]),
    ("DEAL", [5, 4, "xlshuffle"]),
    ("DEAL", [3, 2, 42, 10]),
    ("DEAL", [2, 2, 42, GRID]),
    ("DEAL", [1, OMITTED, DATE_SEED]),
    ("SAMPLE", [GRID, 3, 42]),
    ("SAMPLE", [[list(range(1, 11))], 4, 42]),
    ("SAMPLE", [BODY, 3, "spring", [[r[3]] for r in BODY]]),
    ("SAMPLE", [BODY, 2, "spring", [[r[3]] for r in BODY], 2]),
    ("SAMPLE", [BODY, 2, "summer", OMITTED, 1, [["Bo"], ["Ed "]]]),
    ("SAMPLE", [BODY, 2, "summer", [[r[2]] for r in BODY], 1, [["Cy"]], [[r[0]] for r in BODY]]),
    ("SAMPLE", [[["Ann", "Bo", "Cy", "Dee"]], 2, 9, [[1, 2, 3, 4]], 1]),
    ("SAMPLE", [BODY, 2, "s", OMITTED, OMITTED, OMITTED, OMITTED, "ticket"]),
    ("SAMPLE", [BODY, 2, "s", [[r[2]] for r in BODY], 1, OMITTED, OMITTED, "Ticket"]),
    ("SAMPLE", [BODY, 2, "s", OMITTED, 1, [["Bo"]], [[r[0]] for r in BODY], "rivest"]),
    ("SAMPLE", [[["Ann", "Bo", "Cy"]], 2, 7, OMITTED, OMITTED, OMITTED, OMITTED, "ticket"]),
    ("SAMPLEBY", [BODY, 1, [[r[1]] for r in BODY], "spring"]),
    ("SAMPLEBY", [BODY, 1, [[r[1]] for r in BODY], 42, [[r[3]] for r in BODY], 1]),
    ("SAMPLEBY", [BODY, 2, [[r[2]] for r in BODY], DATE_SEED, OMITTED, 1]),
    ("SAMPLEBY", [[["a", "b", "c", "d"]], 1, [[1, 2, 1, True]], 5]),
    ("AUDITSAMPLE", [BODY, 3, "audit 2026"]),
    ("AUDITSAMPLE", [GRID, 5, 9]),
    (
        "AUDITSAMPLE",
        [BODY, 4, "audit", "mus", [[12.5], ["$1,234.56"], [7], ["0.10 €"], [99.99], [3], [0]]],
    ),
    ("AUDITSAMPLE", [BODY, 40, "audit", OMITTED, [[r[3]] for r in BODY]]),
    ("GROUPS", [GRID, 2, 42]),
    ("GROUPS", [[list(range(1, 11))], 3, 42]),
    ("GROUPS", [PEOPLE, 3, "teams", "Sex"]),
    ("GROUPS", [PEOPLE, 2, "teams", "sex, level"]),
    ("GROUPS", [BODY, 2, "teams", [[2, 3]]]),
    ("ORDERS", [[["a"], ["b"], ["c"], ["d"]], [["Ann"], ["Bo"], [7], [True]], "class"]),
    ("ORDERS", [[["a", "b", "c"]], [["Ann"], ["Bo"], ["Cy"]], "class", 2, True]),
    ("ALLOCATE", ["Drug,Placebo", 6, "x"]),
    ("ALLOCATE", [[["Drug", "Placebo"]], 5, "x", "2:1", 3, "site=North,South;sex=F,M"]),
    ("ALLOCATE", [[["A"], ["B"], ["C"]], 7, DATE_SEED, [[1], [2], [1]], "4,8"]),
    ("ALLOCATE", ["A,B", 4, 9, OMITTED, OMITTED, [["site", "North", "South"], ["age", 1, 2]]]),
    ("TICKET", ["M-017", "2026"]),
    ("TICKET", [[["Ann", ""], [42, " Bo "]], "spring", 1]),
]


@pytest.mark.parametrize("tz", ["UTC", "America/New_York"])
def test_functions_give_the_python_functions_results(tmp_path: Path, tz: str) -> None:
    """Every case through the .gs (in two time zones: a date cell reads as the wall-clock
    date it shows) and through xlshuffle.excel, with the values each program hands over."""
    found = calls(tmp_path, *CASES, tz=tz)
    for (name, args), got in zip(CASES, found, strict=True):
        want = getattr(excel, name)(*[as_python(a) for a in args])
        assert same_form(got) == same_form(want), (name, args)


TEXTS = [
    "Zoe\u0308! \U0001f1eb\U0001f1f7 and \U0001f469\u200d\U0001f469\u200d\U0001f467",
    "\u1100\u1161\u11a8\u1100\u1161 Hangul jamo",
    "cafe\u0301 na\u00efve \u0915\u094d\u0937\u093f \u0e01\u0e33",
    "\r\n\t a b \u00a0c\u3000d\u2028e",
    "\U0001f44d\U0001f3fd thumbs \u2764\ufe0f",
    "",
]


@pytest.mark.parametrize("unit", ["letters", "words"])
def test_text_shuffles_matchas_python(tmp_path: Path, unit: str) -> None:
    """SHUFFLESTR by grapheme (Intl.Segmenter) and by word (Python's white space) against
    draw/text.py (the regex package's \\X)."""
    asked = [("SHUFFLESTR", [t, s, unit]) for t in TEXTS for s in (1, 2, "x")]
    found = calls(tmp_path, *asked)
    py_unit = "grapheme" if unit == "letters" else "word"
    for (_, (t, s, _u)), got in zip(asked, found, strict=True):
        assert got == shuffle_text(t, seed=s, unit=py_unit), (t, s)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("SAMPLE", [[[1], [2], [3]], 4, 1]),
        ("SAMPLE", [[[1], [2], [3]], 0, 1]),
        ("SHUFFLE", [[[1], [2]], 1, "diagonal"]),
        ("GROUPS", [[[1], [2]], "x", 1]),
        ("TICKET", ["Ann", ""]),
        ("SHUFFLE", [[[1], [2]], True]),
        ("SAMPLE", [[[1], [2], [3]], 1, 1, [[1], [2]]]),
        ("SAMPLE", [[[1], [2], [3]], 4, 1, OMITTED, OMITTED, OMITTED, OMITTED, "ticket"]),
    ],
)
def test_mistakes_are_one_line_naming_the_function(
    tmp_path: Path, name: str, args: list[Any]
) -> None:
    (got,) = calls(tmp_path, (name, args))
    message = got["$error"]
    assert message.startswith(f"{name}: ") and "\n" not in message
    try:
        getattr(excel, name)(*[as_python(a) for a in args])
    except Exception as exc:
        python = str(exc)
    if "diagonal" in str(args) or "cannot draw" in message or "1 or more" in message:
        assert message == python  # the same words as in Excel


def test_unseeded_draws_differ_and_seeded_ones_repeat(tmp_path: Path) -> None:
    column = _column(list(range(30)))
    found = calls(
        tmp_path,
        ("SHUFFLE", [column]),
        ("SHUFFLE", [column, ""]),
        ("SHUFFLE", [column, "s"]),
        ("SHUFFLE", [column, "s"]),
    )
    assert found[0] != found[1] and sorted(found[0]) == column
    assert found[2] == found[3]
