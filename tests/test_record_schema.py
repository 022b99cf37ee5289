"""Every record the tool writes validates against docs/record.schema.json; broken ones do not.

Records are made by the command line (``--record``) for shuffle in every mode and
selection, sample (a sheet, a CSV file, stdout) and groups, on workbooks and CSV/TSV
lists, one input and several; restore records through the Python API; and the genuine
0.1 records of tests/fixtures/records_v1/ (version 1). The validator is ``jsonschema``'s
draft 2020-12 one, not xlshuffle's own record reader.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import openpyxl
import pytest
from openpyxl.worksheet.table import Table

from schema_check import SCHEMA, VALIDATOR, errors  # noqa: F401 (the tests use them)
from xlshuffle.cli import main
from xlshuffle.common.record import RECORD_VERSION
from xlshuffle.lists import api as lists_api
from xlshuffle.lists import opened as lists_opened
from xlshuffle.workbook import DrawRecord, restore_workbook, shuffle_workbook

from support import ROOT


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Class 7B"
    ws.append(["Class list, autumn term"])  # a title row: left out, as target.excluded
    ws.append([])
    ws.append(["name", "score", "double"])
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]):
        ws.append([name, 10 * i + 3, i * 2])
    teams = wb.create_sheet("Teams")
    for row in [["team", "city"], ["Owls", "Leeds"], ["Hawks", "York"], ["Kites", "Hull"]]:
        teams.append(row)
    teams.add_table(Table(displayName="Teams", ref="A1:B4"))
    wb.save(path)
    return path


WORKBOOK_RUNS = [
    ["shuffle"],
    *[
        ["shuffle", "--by", m, "--range", "A3:C9", "--header"]
        for m in ("rows", "columns", "cells", "within-rows", "within-columns")
    ],
    ["shuffle", "--columns", "A,C"],
    ["shuffle", "--sheet", "Teams", "--table", "Teams"],
    ["shuffle", "--in-place"],
    ["sample", "-k", "3", "-o", "{out}.csv"],
    ["sample", "-k", "2", "-o", "{out}.xlsx"],
    ["sample", "-k", "2"],  # winners on stdout
    ["groups", "-k", "2"],
    ["groups", "--size", "4"],
]
LIST_RUNS = [
    ["shuffle"],
    ["shuffle", "--no-header"],
    ["sample", "-k", "2"],
    ["sample", "-k", "2", "-o", "{same}"],
    ["groups", "-k", "2"],
    ["groups", "--size", "2"],
    ["shuffle", "--in-place"],
]


def _record(tmp_path: Path, argv: list[str], src: Path) -> Any:
    record = tmp_path / "r.json"
    record.unlink(missing_ok=True)
    out = str(tmp_path / "out")
    argv = [a.replace("{same}", out + src.suffix).replace("{out}", out) for a in argv]
    if "-o" not in argv and "--in-place" not in argv and argv[0] != "sample":
        argv += ["-o", out + src.suffix]
    assert run(*argv, src, "--seed", "schema", "--record", record) == 0
    return json.loads(record.read_text(encoding="utf-8"))


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("argv", WORKBOOK_RUNS, ids=" ".join)
def test_every_workbook_record_validates(tmp_path: Path, capsys, argv):
    src = _workbook(tmp_path / "in.xlsx")
    data = _record(tmp_path, argv, src)
    assert data["record_version"] == RECORD_VERSION == 2
    assert errors(data) == []


@pytest.mark.parametrize("argv", LIST_RUNS, ids=" ".join)
@pytest.mark.parametrize("name", ["in.csv", "in.tsv", "semicolons.csv"])
def test_every_list_record_validates(tmp_path: Path, capsys, argv, name):
    src = tmp_path / name
    sep = {"in.csv": b",", "in.tsv": b"\t", "semicolons.csv": b";"}[name]
    rows = [[b"name", b"team"], *([b"p%d" % i, b"t"] for i in range(5))]
    src.write_bytes(b"".join(sep.join(row) + b"\r\n" for row in rows))
    data = _record(tmp_path, argv, src)
    assert data["target"]["kind"] == "list" and data["record_version"] == 2
    assert errors(data) == []


def test_a_record_of_blank_rows_kept_validates(tmp_path: Path, capsys):
    wb = openpyxl.Workbook()
    for row in [["name", "n"], ["Ann", 1], ["Bob", 2], [], ["Cid", 3], ["Dee", 4]]:
        wb.active.append(row)
    wb.save(tmp_path / "in.xlsx")
    data = _record(tmp_path, ["shuffle", "--keep-blank-rows"], tmp_path / "in.xlsx")
    assert data["target"]["kept"]
    assert errors(data) == []
    data["target"]["kept"] = ["row 4"]
    assert errors(data)


def test_a_record_of_several_inputs_validates(tmp_path: Path, capsys):
    a, b = _workbook(tmp_path / "a.xlsx"), tmp_path / "b.csv"
    b.write_bytes(b"name\nx\ny\n")
    record = tmp_path / "r.json"
    assert run("shuffle", a, b, "--out-dir", tmp_path / "out", "--record", record) == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    assert isinstance(data, list) and len(data) == 2
    assert errors(data) == []


def test_restore_and_api_records_validate(tmp_path: Path):
    src = _workbook(tmp_path / "in.xlsx")
    shuffled = shuffle_workbook(src, tmp_path / "out.xlsx", seed=1)
    assert errors(shuffled.to_dict()) == []
    undone = restore_workbook(shuffled, tmp_path / "out.xlsx", tmp_path / "back.xlsx")
    assert undone.command == "restore"
    assert errors(undone.to_dict()) == []
    rec = lists_api.shuffle_csv(_csv(tmp_path), tmp_path / "o.csv", seed=1)
    assert errors(rec) == []


def _csv(tmp_path: Path) -> Path:
    path = tmp_path / "l.csv"
    path.write_bytes(b"name\na\nb\nc\n")
    return path


@pytest.mark.parametrize(
    "path", sorted((ROOT / "tests/fixtures/records_v1").glob("*.json")), ids=lambda p: p.stem
)
def test_the_0_1_records_validate_as_version_1(path: Path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "record_version" not in data
    assert errors(data) == []


def _good(tmp_path: Path) -> dict[str, Any]:
    return shuffle_workbook(_workbook(tmp_path / "in.xlsx"), tmp_path / "o.xlsx", seed=1).to_dict()


BROKEN = {
    "no seed": lambda d: d.pop("seed"),
    "record_version 3": lambda d: d.update(record_version=3),
    "record_version as text": lambda d: d.update(record_version="2"),
    "an unknown field": lambda d: d.update(note="hi"),
    "rows as text": lambda d: d.update(rows="7"),
    "a short SHA-256": lambda d: d.update(input_sha256="abc"),
    "an unknown mode": lambda d: d.update(mode="diagonal"),
    "a negative index": lambda d: d["permutation"].__setitem__(0, -1),
    "a target of a list on a workbook": lambda d: d["target"].update(kind="list"),
    "a target without ref": lambda d: d["target"].pop("ref"),
    "a bad excluded reason": lambda d: d["target"].update(excluded=[{"rows": "1", "why": "x"}]),
    "parts without removed": lambda d: d["parts"].pop("removed"),
    "a local time": lambda d: d.update(time_utc="2026-11-25 16:00:00"),
    "a version 1 record with a target": lambda d: (
        d.pop("record_version"),
        d.pop("unit"),
        d.pop("parts"),
        d.update(lost=[]),
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_record_does_not_validate(tmp_path: Path, name):
    data = _good(tmp_path)
    assert errors(data) == []
    broken = copy.deepcopy(data)
    BROKEN[name](broken)
    assert errors(broken), name
    assert errors([data, broken]), name


def test_a_broken_list_record_does_not_validate(tmp_path: Path):
    rec = lists_api.shuffle_csv(_csv(tmp_path), tmp_path / "o.csv", seed=1)
    for change in ({"sheet": "Sheet1"}, {"mode": "cells"}, {"parts": {"rewritten": []}}):
        assert errors({**rec, **change}), change
    assert errors({**rec, "target": {**rec["target"], "delimiter": "|"}})


def test_the_schema_names_every_field_of_the_record():
    """A field added to DrawRecord must be described in the schema too."""
    fields = set(DrawRecord.__dataclass_fields__)
    assert set(SCHEMA["$defs"]["common"]["properties"]) | {"target", "parts"} == fields
    # every field is required, but for those only a committed draw's record has, and a
    # monetary-unit sample's that wrote its rows set aside
    optional = {"commitment", "reveal", "set_aside_output", "set_aside_output_sha256"}
    assert set(SCHEMA["$defs"]["common"]["required"]) == fields - optional
    assert lists_opened.RECORD_VERSION == RECORD_VERSION
