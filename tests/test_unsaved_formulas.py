"""A formula without a saved value (a workbook written by a script: openpyxl writes
``<f>..</f><v></v>``, others leave ``<v>`` out) is named as such: a weight, amount, ID or
stratum cell that is one is refused naming the cell, and winners copied as values say on
stderr how many cells were written empty for that reason, naming the first."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main

FIX = (
    "is a formula without a saved value (a file written by a script): open and save it in "
    "Excel or LibreOffice so its values are stored, then draw again"
)


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def script_book(path: Path, *, drop_v: bool = False) -> Path:
    """Tickets!B3, C3 and D3 are formulas without saved values, as openpyxl
    writes them (``<v></v>``) or, with ``drop_v``, with no ``<v>`` at all."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Tickets"
    ws.append(["name", "tickets", "id", "region", "weight"])
    ws.append(["Ann", 1, "a", "North", 1])
    ws.append(["Bob", "=B2*2", '="b"', '="South"', 1])
    ws.append(["Cid", 3, "c", "North", 1])
    ws.append(["Dee", 2, "d", "South", 1])
    wb.save(path)
    if drop_v:
        with zipfile.ZipFile(path) as zf:
            parts = {info: zf.read(info) for info in zf.infolist()}
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for info, data in parts.items():
                if info.filename == "xl/worksheets/sheet1.xml":
                    assert b"<v></v>" in data
                    data = data.replace(b"<v></v>", b"")
                zf.writestr(info, data)
    return path


@pytest.mark.parametrize("drop_v", [False, True])
@pytest.mark.parametrize(
    ("options", "cell"),
    [
        (["--weights", "tickets"], "B3"),
        (["--id", "id"], "C3"),
        (["--strata", "region"], "D3"),
        (["--method", "mus", "--amount", "tickets"], "B3"),
    ],
)
def test_a_draw_column_cell_without_a_saved_value_is_refused_naming_it(
    tmp_path: Path, capsys, options: list[str], cell: str, drop_v: bool
) -> None:
    book = script_book(tmp_path / "s.xlsx", drop_v=drop_v)
    out = tmp_path / "w.csv"
    code, said, err = run(capsys, "sample", book, "-k", 2, *options, "--seed", 1, "-o", out)
    assert (code, said) == (1, "") and not out.exists()
    assert err == f"Error: {book}: Tickets!{cell} {FIX}\n"


@pytest.mark.parametrize(
    ("cells", "cell"), [("Tickets!B2:B5", "B3"), ("Tickets!C2:C3", "C3"), ("A3:D3", "B3")]
)
def test_an_orders_range_cell_without_a_saved_value_is_refused_naming_it(
    tmp_path: Path, capsys, cells: str, cell: str
) -> None:
    """Inside the range or its last cell (a blank one at the end would be left out)."""
    book = script_book(tmp_path / "s.xlsx")
    ids = tmp_path / "ids.txt"
    ids.write_text("P1\nP2\n")
    argv = ["orders", book, "--items-range", cells, "--ids", ids, "-o", tmp_path / "o.csv"]
    code, _, err = run(capsys, *argv, "--seed", 1)
    assert code == 1 and not (tmp_path / "o.csv").exists()
    assert err == f"Error: {book}: sheet 'Tickets' cell {cell} {FIX}\n"


def _note(book: Path, where: str, n: int) -> str:
    cells = f"{n} cell was" if n == 1 else f"{n} cells were"
    return (
        f"{book}: {cells} written empty in {where}: formulas without a saved value (a file "
        "written by a script), the first Tickets!"
    )


@pytest.mark.parametrize("output", ["w.csv", "w.xlsx", None])
@pytest.mark.parametrize("draw", [[], ["--weights", "weight"]])
def test_winners_written_empty_for_want_of_a_saved_value_are_said(
    tmp_path: Path, capsys, output: str | None, draw: list[str]
) -> None:
    book = script_book(tmp_path / "s.xlsx")
    # every row wins: Bob's three formulas are written empty
    dest = [] if output is None else ["-o", tmp_path / output]
    rec = tmp_path / "r.json"
    argv = ["sample", book, "-k", 4, *draw, "--seed", 1, *dest, "--record", rec]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    where = "stdout" if output is None else str(tmp_path / output)
    notes = [line for line in err.splitlines() if "written empty" in line]
    assert len(notes) == 1, err
    assert notes[0].startswith(_note(book, where, 3))
    assert re.search(r"the first Tickets!B3: open and save .* in Excel or LibreOffice", notes[0])
    if output is None:
        assert re.search(r"Bob,,,,1", out)
    # the record is unchanged by the note, and verify still holds
    verify = ["verify", rec, "--input", book]
    if output is not None:
        verify += ["--output", tmp_path / output]
    assert run(capsys, *verify)[0] == 0
    assert "unsaved" not in json.loads(rec.read_text())


def test_winners_without_formulas_get_no_note(tmp_path: Path, capsys) -> None:
    wb = openpyxl.Workbook()
    for row in (["name", "n"], ["Ann", 1], ["Bob", 2]):
        wb.active.append(row)
    wb.save(tmp_path / "p.xlsx")
    code, _, err = run(capsys, "sample", tmp_path / "p.xlsx", "-k", 2, "--seed", 1)
    assert code == 0 and "written empty" not in err


def test_sample_json_with_unsaved_cells_keeps_stdout_one_document(tmp_path: Path, capsys):
    book = script_book(tmp_path / "s.xlsx")
    code, out, err = run(capsys, "sample", book, "-k", 4, "--seed", 1, "--json")
    assert code == 0 and "written empty" in err
    doc = json.load(io.StringIO(out))
    bob = next(r for r in doc["winners"]["rows"] if r[1] == "Bob")
    assert bob[2:] == [None, None, None, 1]


def test_a_commitment_to_a_list_with_a_formula_without_a_saved_value_is_refused(
    tmp_path: Path, capsys
) -> None:
    book = script_book(tmp_path / "s.xlsx")
    out = tmp_path / "c.json"
    code, _, err = run(capsys, "commit", book, "-k", 2, "--beacon", "a lottery", "-o", out)
    assert code == 1 and not out.exists()
    assert err == f"Error: {book}: Tickets!B3 {FIX}\n"
