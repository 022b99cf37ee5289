"""The Apps Script file of ``xlshuffle extension sheets`` run under Node, for the tests of
Google Sheets: :func:`run` hands one job to ``tests/sheets/standin.mjs`` (the file, with
stand-ins for the Apps Script globals it uses) and gives back its results. Values go as
Sheets hands them over: numbers, texts, booleans, "" for a blank cell, :func:`date` for a
date cell, :data:`OMITTED` for an argument left out.

Skipped with a note where Node is missing, unless XLSHUFFLE_REQUIRE lists ``node`` (CI).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from xlshuffle.sheets import script

from support import require

STANDIN = Path(__file__).parent / "sheets" / "standin.mjs"
OMITTED = {"$omitted": True}


def date(value: dt.date) -> dict[str, str]:
    """A date cell as the job writes it (a Date of that wall-clock time in Node's zone)."""
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    return {"$date": value.isoformat(timespec="milliseconds")}


def node() -> str:
    found = shutil.which("node")
    require("node", found is not None, "install Node.js 20 or later (the Debian package nodejs)")
    assert found is not None
    return found


def run(
    tmp_path: Path, job: dict[str, Any], *, tz: str = "UTC", text: str | None = None
) -> dict[str, Any]:
    """Run ``job`` (see standin.mjs) on the packaged file (or ``text``) in time zone ``tz``."""
    gs = tmp_path / "xlshuffle.gs"
    gs.write_text(script() if text is None else text, encoding="utf-8")
    done = subprocess.run(
        [node(), str(STANDIN), str(gs)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**os.environ, "TZ": tz},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def calls(tmp_path: Path, *called: tuple[str, list[Any]], **options: Any) -> list[Any]:
    """The results of the custom functions called with these arguments."""
    found: list[Any] = run(tmp_path, {"calls": [list(c) for c in called]}, **options)["results"]
    return found


def blanks_as_none(value: Any) -> Any:
    """A result with Sheets' blank ("") as the Python functions' (None)."""
    if isinstance(value, list):
        return [blanks_as_none(v) for v in value]
    return None if value == "" else value


def as_python(value: Any) -> Any:
    """An argument as xlwings hands it to xlshuffle.excel: a blank or an omitted argument
    None, a date a datetime."""
    if isinstance(value, list):
        return [as_python(v) for v in value]
    if isinstance(value, dict) and "$date" in value:
        return dt.datetime.fromisoformat(value["$date"])
    if isinstance(value, dict) and "$omitted" in value:
        return None
    return None if value == "" else value


def same_form(value: Any) -> Any:
    """A result in one form for Sheets and Python: a blank None, a date its ISO text, a
    whole float an int."""
    if isinstance(value, list):
        return [same_form(v) for v in value]
    if isinstance(value, dict) and "$date" in value:
        return dt.datetime.fromisoformat(value["$date"]).isoformat()
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return blanks_as_none(value)
