"""``xlshuffle orders`` with workbooks: items and IDs read from a sheet, the table written
as a new workbook, and ``verify`` of both.

Expected orders come from the reference code of docs/draw-protocol.md (sections 13-14),
checked against tools/make_vectors.py's independent vectors; workbooks are made and read
back with openpyxl, not with xlshuffle.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from xlshuffle.cli import main

from support import ROOT

openpyxl = pytest.importorskip("openpyxl")

REF = reference_namespace()
ITEMS = ["Q1 pay", "Q2 hours", "Q3 team", "Q4 boss", "Q5 commute"]
IDS = [101, 102, "R-7", 104.0, "Zoë"]  # numbers as Excel stores them; 104.0 reads as 104
ID_TEXT = ["101", "102", "R-7", "104", "Zoë"]


def run(*argv: object) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def book(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Survey"
    ws.append(["Question", "Respondent"])
    for i in range(5):
        ws.append([ITEMS[i], IDS[i]])
    across = wb.create_sheet("Across")
    across.append(["", *ITEMS])
    path = tmp_path / "survey.xlsx"
    wb.save(path)
    return path


def rows_of(path: Path) -> list[list[str]]:
    return [list(r) for r in openpyxl.load_workbook(path).active.iter_rows(values_only=True)]


def test_from_a_workbook_to_a_workbook(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, rec = tmp_path / "orders.xlsx", tmp_path / "orders.json"
    argv = [book, "--ids", book, "--ids-column", "Respondent", "--seed", "wave 3"]
    assert run("orders", *argv, "-o", out, "--record", rec) == 0
    want = [[p, *(ITEMS[i] for i in REF["person_order"](5, 5, "wave 3", p))] for p in ID_TEXT]
    assert rows_of(out) == [["ID", "1", "2", "3", "4", "5"], *want]
    assert openpyxl.load_workbook(out).sheetnames == ["Orders"]
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["ids_column"] == "Respondent" and record["ids_range"] is None
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(record)) == []
    assert run("verify", rec, "--input", book, "--ids", book, "--output", out) == 0
    capsys.readouterr()
    # one cell of the output edited: refused, naming the row and the ID
    wb = openpyxl.load_workbook(out)
    ws = wb.active
    ws["B3"], ws["C3"] = ws["C3"].value, ws["B3"].value
    wb.save(out)
    assert run("verify", rec, "--input", book, "--ids", book, "--output", out) == 1
    err = capsys.readouterr().err
    assert "the row of ID '102'" in err and err.count("\n") == 1


def test_ranges_a_row_of_items_and_a_column_of_ids(book: Path, tmp_path: Path) -> None:
    out, rec = tmp_path / "o.csv", tmp_path / "o.json"
    argv = ["--items-range", "Across!B1:F1", "--ids", book, "--ids-range", "B2:B6"]
    assert (
        run("orders", book, *argv, "--seed", 9, "-k", 3, "--balanced", "-o", out, "--record", rec)
        == 0
    )
    rows = out.read_text(encoding="utf-8-sig").splitlines()
    balanced = REF["balanced_orders"](5, 5, 3, 9)
    assert rows[1:] == [
        ",".join([p, *(ITEMS[i] for i in o)]) for p, o in zip(ID_TEXT, balanced, strict=True)
    ]
    assert run("verify", rec, "--input", book, "--ids", book, "--output", out) == 0


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--items-range", "A1:B3"], "--items-range 'A1:B3' is not one column or one row"),
        (
            ["--items-range", "Nope!A1:A3"],
            "no sheet named 'Nope': the sheets are 'Survey', 'Across'",
        ),
        (["--items-range", "A2:A9", "--items-column", "A"], "give --items-range or --items-column"),
        (["--items-range", "Across!A1:F1"], "cell A1 is blank"),
        (["--items-column", "Nope"], "--items-column Nope: no such column"),
    ],
)
def test_refusals_name_the_cell_or_option(
    book: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    words: str,
) -> None:
    out = tmp_path / "o.csv"
    assert run(
        "orders", book, "--ids", book, "--ids-column", "B", "--seed", 1, "-o", out, *extra
    ) in (1, 2)
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not out.exists()


def test_a_range_for_a_text_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = tmp_path / "items.txt"
    items.write_text("a\nb\n", encoding="utf-8")
    assert (
        run("orders", items, "--ids", items, "--items-range", "A1:A2", "-o", tmp_path / "o.csv")
        == 2
    )
    assert "--items-range is for a workbook" in capsys.readouterr().err


def test_not_a_workbook_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "fake.xlsx"
    fake.write_bytes(b"PK\x03\x04 not really")
    assert run("orders", fake, "--ids", fake, "--seed", 1, "-o", tmp_path / "o.csv") == 1
    err = capsys.readouterr().err
    assert "fake.xlsx: the file is damaged or not a zip package" in err and err.count("\n") == 1


def test_cells_read_as_every_workbook_draw_reads_them(tmp_path: Path) -> None:
    """Items that are dates, decimals and escaped text read as the texts `sample` writes for
    the same cells (one cell reader for every draw, the commitment's digest included)."""
    import datetime as dt

    book = tmp_path / "odd.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append(["Item", "ID"])
    items = [dt.date(2026, 3, 1), 0.1, 1e-05, "tab\there", 12345678901, True]
    for i, item in enumerate(items):
        wb.active.append([item, f"R{i}"])
    wb.save(book)
    out = tmp_path / "o.csv"
    argv = ["orders", book, "--ids", book, "--ids-column", "ID", "--seed", 1, "-o", out, "-k", 6]
    assert run(*argv) == 0
    got = sorted(out.read_text(encoding="utf-8-sig").splitlines()[1].split(",")[1:])
    winners = tmp_path / "all.csv"
    assert run("sample", book, "-k", 6, "--seed", 1, "-o", winners) == 0
    texts = [line.split(",")[1] for line in winners.read_text(encoding="utf-8").splitlines()[1:]]
    assert got == sorted(texts)
    assert any(t.startswith("2026-03-01") for t in got) and "1e-05" in got
