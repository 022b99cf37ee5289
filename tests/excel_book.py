"""Excel's side of xlwings' Office.js scripts, for the tests of the draw-and-lock commands.

:class:`Excel` plays the part of Excel's JavaScript client: it holds the workbook as the JSON
payload Excel sends, hands the real Office.js ``xw.Book`` that xlwings Lite and Server build
from it to a script (or to a Windows sub, with ``xw.Book.caller`` patched), and applies the
actions that come back (``setValues``, ``addSheet``, ``setNumberFormat``...), keeping the number
formats and alerts it saw. :func:`sha256_of` is the input hash re-implemented from the
serialisation docs/excel.md states, never taken from the lock module.

The workbooks the tests start from: :func:`people` (five people under a header), and for the
study designs :func:`seeded` (a SEED cell), :func:`study` (tasks and IDs) and :data:`ARGS`
(an allocation list's arguments).
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import hashlib
from typing import Any

import pytest
import xlwings as xw
from xlwings.server import custom_scripts_call

from xlshuffle import excel_serial
from xlshuffle.excel import scripts, subs

PEOPLE = [["Ana", 1, True], ["Ben", 2.5, None], ["Cy", "x", False], ["Di", 4, "d"], ["Ed", 5, 6]]
LOG_HEADER = [
    "time (UTC)",
    "sheet",
    "range",
    "mode",
    "k",
    "hands",
    "output",
    "seed",
    "seed from",
    "protocol",
    "version",
    "input sha256",
    "output sha256",
    "formula",
    "command line",
    "restored (UTC)",
    "reserves",
    "tickets",
    "method",
    "new sheets",
    "options",
]


# --------------------------------------------------------------------------- the stand-in


def sheet_payload(name: str, values: list[list[Any]]) -> dict[str, Any]:
    return {
        "name": name,
        "values": values,
        "pictures": [],
        "shapes": [],
        "charts": [],
        "notes": [],
        "tables": [],
        "print_area": None,
    }


class Excel:
    """Excel's side of the Office.js protocol: holds the workbook, applies the actions."""

    def __init__(
        self, values: list[list[Any]], selection: str | None, sheet: str = "Sheet1"
    ) -> None:
        self.payload: dict[str, Any] = {
            "client": "Office.js",
            "version": xw.__version__,
            "book": {"name": "Raffle 2026.xlsx", "active_sheet_index": 0, "selection": selection},
            "sheets": [sheet_payload(sheet, [list(r) for r in values])],
            "names": [],
        }
        self.formats: dict[tuple[str, int, int], str] = {}
        self.alerts: list[str] = []
        self.actions: list[dict[str, Any]] = []

    # ---- the workbook as Excel shows it

    def sheet(self, name: str) -> dict[str, Any]:
        return next(s for s in self.payload["sheets"] if s["name"] == name)

    def cells(self, name: str, top: int, left: int, rows: int, cols: int) -> list[list[Any]]:
        """Values of a block (1-based), empty cells as None."""
        grid = self.sheet(name)["values"]
        out = []
        for r in range(top - 1, top - 1 + rows):
            row = grid[r] if r < len(grid) else []
            out.append(
                [
                    row[c] if c < len(row) and row[c] != "" else None
                    for c in range(left - 1, left - 1 + cols)
                ]
            )
        return out

    def log(self) -> list[dict[str, Any]]:
        rows = [r for r in self.sheet("Draw log")["values"] if any(v not in ("", None) for v in r)]
        assert rows[0][: len(LOG_HEADER)] == LOG_HEADER
        return [dict(zip(LOG_HEADER, r, strict=False)) for r in rows[1:]]

    def select(self, address: str, sheet: int = 0) -> None:
        self.payload["book"]["selection"] = address
        self.payload["book"]["active_sheet_index"] = sheet

    def name(self, name: str, address: str, sheet: int = 0) -> None:
        self.payload["names"].append(
            {
                "name": name,
                "sheet_index": sheet,
                "address": address,
                "book_scope": True,
                "scope_sheet_name": None,
                "scope_sheet_index": None,
            }
        )

    def put(self, name: str, row: int, col: int, value: Any) -> None:
        self._write(self.sheet(name), row - 1, col - 1, [[value]])

    # ---- running a command

    def book(self) -> xw.Book:
        return xw.Book(json=copy.deepcopy(self.payload))

    def script(self, name: str, *args: Any) -> list[dict[str, Any]]:
        """Run a script as xlwings Lite/Server do, then apply its actions."""
        book = self.book()
        done = asyncio.run(
            custom_scripts_call(scripts, name, typehint_to_value={xw.Book: book}, args=list(args))
        )
        return self.apply(done.json()["actions"])

    def sub(self, monkeypatch: pytest.MonkeyPatch, name: str, *args: Any) -> list[dict[str, Any]]:
        """Run a Windows sub with ``xw.Book.caller()`` returning the real Office.js book."""
        book = self.book()
        monkeypatch.setattr(xw.Book, "caller", classmethod(lambda cls: book))
        getattr(subs, name)(*args)
        return self.apply(book.json()["actions"])

    def apply(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        sheets = self.payload["sheets"]
        for a in actions:
            func, at = a["func"], a["sheet_position"]
            if func == "setValues":
                name, top, left = sheets[at]["name"], a["start_row"], a["start_column"]
                typed = [
                    [
                        self.typed(v, self.formats.get((name, top + r, left + c)))
                        for c, v in enumerate(row)
                    ]
                    for r, row in enumerate(a["values"])
                ]
                self._write(sheets[at], top, left, typed)
            elif func == "rangeClearContents":
                blank = [[""] * a["column_count"] for _ in range(a["row_count"])]
                self._write(sheets[at], a["start_row"], a["start_column"], blank)
            elif func == "addSheet":
                sheets.insert(a["args"][0], sheet_payload(a["args"][1], [[]]))
            elif func == "sheetDelete":
                del sheets[at]
            elif func == "activateSheet":
                self.payload["book"]["active_sheet_index"] = a["args"][0]
            elif func == "setNumberFormat":
                for r in range(a["row_count"]):
                    for c in range(a["column_count"]):
                        key = (sheets[at]["name"], a["start_row"] + r, a["start_column"] + c)
                        self.formats[key] = a["args"][0]
            elif func == "alert":
                self.alerts.append(a["args"][0])
            else:  # pragma: no cover - a new kind of write would need handling here
                raise AssertionError(f"the stand-in does not apply {func}")
        self.actions = actions
        return actions

    @staticmethod
    def typed(value: Any, number_format: str | None) -> Any:
        """What a cell holds after Excel reads a value written to it as if typed (the
        rules that matter here): a leading apostrophe is a quote prefix that keeps the
        rest as text; in a cell not formatted as text, ``=...`` is a live formula
        (kept here as ``{"formula": ...}``), a number-like text a number and
        TRUE/FALSE a boolean."""
        if not isinstance(value, str) or value == "":
            return value
        if value.startswith("'"):
            return value[1:]
        if number_format == "@":
            return value
        if value.startswith("="):
            return {"formula": value}
        if value.upper() in ("TRUE", "FALSE"):
            return value.upper() == "TRUE"
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() else number

    @staticmethod
    def _write(sheet: dict[str, Any], top: int, left: int, values: list[list[Any]]) -> None:
        grid = sheet["values"]
        if grid == [[]]:
            grid.clear()
        width = max([len(r) for r in grid] + [left + len(values[0])])
        while len(grid) < top + len(values):
            grid.append([])
        for row in grid:
            row.extend([""] * (width - len(row)))
        for r, row in enumerate(values):
            grid[top + r][left : left + len(row)] = ["" if v is None else v for v in row]


# --------------------------------------------------------------------------- the oracle


def canonical(value: Any) -> tuple[str, str]:
    """A cell's tag and text, from the rules in docs/excel.md ("The input hash")."""
    if value is None or value == "":
        return "e", ""
    if isinstance(value, bool):
        return "b", "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "s", value
    if isinstance(value, dt.date):
        value = excel_serial(value)
    number = float(value)
    return "n", str(int(number)) if number.is_integer() else repr(number)


def sha256_of(rows: list[list[Any]]) -> str:
    out = f"{len(rows)}x{len(rows[0])}\n".encode()
    for row in rows:
        for value in row:
            tag, text = canonical(value)
            data = text.encode()
            out += tag.encode() + str(len(data)).encode() + b":" + data
        out += b"\n"
    return hashlib.sha256(out).hexdigest()


def people(selection: str | None = "A2:C6") -> Excel:
    """A header row and the five people in A1:C6, with ``selection`` selected."""
    return Excel([["name", "n", "flag"], *PEOPLE], selection)


def one_line(message: str) -> str:
    assert "\n" not in message and len(message) <= 300, message
    assert "Traceback" not in message, message
    return message


# --------------------------------------------------------------------------- study designs


def seeded(excel: Excel, seed: object) -> Excel:
    """``excel`` with ``seed`` in its cell H1, named SEED."""
    excel.put("Sheet1", 1, 8, seed)
    excel.name("SEED", "H1")
    return excel


TASKS = ["Maze", "Stroop", "N-back", "Flanker"]
IDS = ["P01", "P02", 42, "Zoë", "P05"]


def study(selection: str = "A2:A5") -> Excel:
    """Tasks in A1:A5, IDs in E1:E6 named IDS, a SEED cell."""
    grid: list[list[Any]] = [["Task", "", "", "", "ID"]]
    for i in range(5):
        grid.append([TASKS[i] if i < 4 else "", "", "", "", IDS[i]])
    excel = seeded(Excel(grid, selection), "study 2026")
    excel.name("IDS", "E2:E6")
    return excel


# write_allocation_list's arguments: arms, rows, ratio, block sizes and strata
ARGS = ("Drug,Placebo", 4, "2:1", "3,6", "site=North,South;sex=F,M")
