"""Records written by xlshuffle 0.1 still verify, years later.

tests/fixtures/records_v1/ holds genuine 0.1 records with their inputs and outputs, made
by running the 0.1 code (tools/make_records_v1.py; MANIFEST.txt lists the command lines).
0.1's records have a ``selection`` text and no ``record_version``, ``unit``, ``target`` or
``parts``; its outputs were saved by openpyxl, so their styles and strings are numbered
otherwise than the input's. ``verify`` with ``--input`` and ``--output`` must accept each,
and catch a cell edited afterwards (the edit made with openpyxl, not with xlshuffle).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main
from xlshuffle.workbook import load_records

from support import ROOT

V1 = ROOT / "tests" / "fixtures" / "records_v1"
SHUFFLES = ["shuffle", "columns", "cells", "by_columns", "table", "engine"]
OTHERS = ["sample_csv", "sample_sheet", "groups"]
#: a drawn cell of each shuffle's output (sheet, cell), which the test edits
DRAWN = {
    "shuffle": ("Class 7B", "A2"),
    "columns": ("Class 7B", "C3"),
    "cells": ("Class 7B", "B3"),
    "by_columns": ("Class 7B", "B2"),
    "table": ("Teams", "B3"),
    "engine": (None, "A4"),
}


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    """A copy of the fixtures (a test may not change the committed files)."""
    shutil.copytree(V1, tmp_path / "v1")
    return tmp_path / "v1"


def _files(folder: Path, name: str) -> tuple[Path, Path, Path]:
    data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return folder / f"{name}.json", folder / data["input"], folder / data["output"]


def test_the_fixtures_are_what_0_1_wrote():
    for path in V1.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["tool_version"] == "0.1.0"
        assert "selection" in data and "lost" in data
        assert not {"record_version", "target", "unit", "parts"} & set(data), path.name


@pytest.mark.parametrize("name", SHUFFLES + OTHERS)
def test_verify_accepts_a_0_1_record_with_its_files(v1: Path, capsys, name):
    record, src, out = _files(v1, name)
    assert run("verify", record, "--input", src, "--output", out) == 0, capsys.readouterr().err
    assert run("verify", record) == 0
    assert run("verify", record, "--output", out) == 0  # by SHA-256


@pytest.mark.parametrize("name", SHUFFLES)
def test_verify_catches_an_edited_cell_of_a_0_1_output(v1: Path, capsys, name):
    record, src, out = _files(v1, name)
    sheet, ref = DRAWN[name]
    wb = openpyxl.load_workbook(out)
    ws = wb[sheet] if sheet else wb.active
    assert ws[ref].value not in (None, "edited")
    ws[ref] = "edited"
    wb.save(out)
    assert run("verify", record, "--input", src, "--output", out) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and re.search(rf"\b{ref[0]}{ref[1:]}\b|row {ref[1:]}\b", err), err


@pytest.mark.parametrize("name", OTHERS)
def test_verify_catches_a_changed_byte_of_a_0_1_sample_or_groups(v1: Path, capsys, name):
    record, src, out = _files(v1, name)
    data = bytearray(out.read_bytes())
    data[len(data) // 2] ^= 1
    out.write_bytes(bytes(data))
    # a groups output is checked by its bytes without --input; with it, by its cells
    # (tests/test_teams_workbook.py), as an output re-saved by Excel has other bytes
    given = ["--input", src] if name != "groups" else []
    assert run("verify", record, *given, "--output", out) == 1
    assert "is not the recorded output's" in capsys.readouterr().err


def test_a_0_1_record_reads_as_version_1_with_the_target_its_selection_names():
    by_name = {p.stem: load_records(str(p))[0] for p in V1.glob("*.json")}
    assert {r.record_version for r in by_name.values()} == {1}
    assert {r.unit for r in by_name.values()} == {"cells"}  # 0.1 moved only the cells
    assert by_name["shuffle"].target == {
        "kind": "range",
        "ref": "A1:C7",
        "columns": None,
        "table": None,
    }
    assert by_name["columns"].target == {
        "kind": "columns",
        "ref": "A1:C7",
        "columns": "A,C",
        "table": None,
    }
    assert by_name["table"].target == {
        "kind": "table",
        "ref": "A1:B5",
        "columns": None,
        "table": "Teams",
    }
    assert by_name["cells"].target["ref"] == "B2:C7"


def test_a_record_from_a_newer_format_is_refused_in_one_line(tmp_path: Path, capsys):
    data = json.loads((V1 / "shuffle.json").read_text(encoding="utf-8"))
    data["record_version"] = 3
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("verify", path) == 1
    assert "record_version 3 is not one this xlshuffle reads" in capsys.readouterr().err


def test_winners_0_1_printed_and_the_user_saved_verify(v1: Path, capsys):
    record, src, saved = v1 / "stdout.json", v1 / "class.xlsx", v1 / "winners.csv"
    assert run("verify", record, "--input", src, "--output", saved) == 0, capsys.readouterr().err
    saved.write_bytes(saved.read_bytes().replace(b"Dee", b"Dan"))
    assert run("verify", record, "--input", src, "--output", saved) == 1
    assert "line 3 is '2,Dan,33,', but winner 2 (input row 5)" in capsys.readouterr().err
