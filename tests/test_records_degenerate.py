"""Degenerate draws: no data rows is refused everywhere, one data row draws and verifies.

A selection with a header and no data rows (or an empty sheet, or a list with only its
header) is refused in one line, exit 1, with nothing written and no record, by every
command that draws; one data row draws the one order there is, and ``verify`` accepts its
record with the input and the output.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from xlshuffle import WorkbookError
from xlshuffle.cli import main
from xlshuffle.workbook import shuffle_worksheet

COMMANDS = [
    ["shuffle"],
    ["shuffle", "--by", "columns"],
    ["shuffle", "--by", "cells"],
    ["sample", "-k", "0"],
    ["sample", "-k", "1"],
    ["groups", "-k", "1"],
]


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


def _book(path: Path, rows: list[list[object]], *, table: bool = False) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Class 7B"
    for row in rows:
        ws.append(row)
    if table:
        from openpyxl.worksheet.table import Table

        ws.add_table(Table(displayName="People", ref=f"A1:B{max(len(rows), 1)}"))
    wb.save(path)
    return path


# (how the workbook looks, extra options, what the line must say)
NO_DATA = [
    ("header only", [["name", "score"]], [], "only a header row (row 1)"),
    ("empty sheet", [], [], "holds no data, and no other sheet was found that does"),
    (
        "header-only range",
        [["name", "score"], ["Ann", 1]],
        ["--range", "A1:B1", "--header"],
        "only a header row (row 1)",
    ),
    ("header-only columns", [["name", "score"]], ["--columns", "A"], "only a header row"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize(
    ("rows", "extra", "says"), [c[1:] for c in NO_DATA], ids=[c[0] for c in NO_DATA]
)
def test_no_data_rows_is_refused_in_one_line(tmp_path: Path, capsys, command, rows, extra, says):
    src = _book(tmp_path / "in.xlsx", rows)
    out, record = tmp_path / "out.xlsx", tmp_path / "r.json"
    before = src.read_bytes()
    assert run(*command, src, "-o", out, "--seed", "1", "--record", record, *extra) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith(f"Error: {src}: "), err
    assert says in err, err
    # the message leads somewhere: an option that draws other rows
    if "no other sheet" not in says:  # then there is nothing to draw anywhere
        assert "--range" in err and "--no-header" in err, err
    assert not out.exists() and not record.exists()
    assert src.read_bytes() == before


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_table_with_no_data_rows_is_refused(tmp_path: Path, capsys, command):
    src = _book(tmp_path / "in.xlsx", [["name", "score"]], table=True)
    out, record = tmp_path / "out.xlsx", tmp_path / "r.json"
    assert run(*command, src, "-o", out, "--seed", "1", "--record", record) == 1
    err = capsys.readouterr().err
    assert "table People" in err and "only a header row" in err, err
    assert not out.exists() and not record.exists()


WITHIN = [["shuffle", "--by", "within-rows"], ["shuffle", "--by", "within-columns"]]


@pytest.mark.parametrize("command", [*COMMANDS, *WITHIN], ids=" ".join)
def test_one_data_row_draws_and_verifies(tmp_path: Path, capsys, command):
    src = _book(tmp_path / "in.xlsx", [["name", "score"], ["Ann", 1]])
    out, record = tmp_path / "out.xlsx", tmp_path / "r.json"
    assert run(*command, src, "-o", out, "--seed", "1", "--record", record) == 0
    assert run("verify", record, "--input", src, "--output", out) == 0, capsys.readouterr()
    # and one row without a header (--no-header) too
    out, record = tmp_path / "out2.xlsx", tmp_path / "r2.json"
    assert run(*command, src, "-o", out, "--seed", "1", "--record", record, "--range", "A2:B2") == 0
    assert run("verify", record, "--input", src, "--output", out) == 0, capsys.readouterr()


@pytest.mark.parametrize("command", [*COMMANDS[3:], ["shuffle"]], ids=" ".join)
def test_csv_lists_follow_the_same_rule(tmp_path: Path, capsys, command):
    header_only, one = tmp_path / "h.csv", tmp_path / "one.csv"
    header_only.write_bytes(b"name,score\r\n")
    one.write_bytes(b"name,score\r\nAnn,1\r\n")
    out, record = tmp_path / "out.csv", tmp_path / "r.json"
    assert run(*command, header_only, "-o", out, "--seed", "1", "--record", record) == 1
    err = capsys.readouterr().err
    assert "only a header row" in err and "--no-header" in err, err
    assert not out.exists() and not record.exists()
    assert run(*command, one, "-o", out, "--seed", "1", "--record", record) == 0
    assert run("verify", record, "--input", one, "--output", out) == 0


@pytest.mark.parametrize("kw", [{}, {"by": "columns"}, {"cells": "A1:B1", "header": True}])
def test_in_memory_engine_refuses_a_header_only_selection(kw):
    wb = openpyxl.Workbook()
    wb.active.append(["name", "score"])
    with pytest.raises(WorkbookError, match=r"only a header row .* header=False"):
        shuffle_worksheet(wb.active, seed=1, **kw)
    assert [[c.value for c in row] for row in wb.active.iter_rows()] == [["name", "score"]]
    with pytest.raises(WorkbookError, match="holds no data"):
        shuffle_worksheet(openpyxl.Workbook().active, seed=1)


def test_in_memory_engine_draws_one_data_row():
    wb = openpyxl.Workbook()
    wb.active.append(["name", "score"])
    wb.active.append(["Ann", 1])
    assert shuffle_worksheet(wb.active, seed=1) == [0]


def test_an_empty_sheet_names_the_other_sheets(tmp_path: Path, capsys):
    # each sheet named is tried first, with the option that sheet itself needs
    wb = openpyxl.Workbook()
    wb.active.title = "Charts"
    wb.create_sheet("Data").append(["name"])
    wb.save(tmp_path / "in.xlsx")
    assert run("shuffle", tmp_path / "in.xlsx", "-o", tmp_path / "o.xlsx") == 1
    err = capsys.readouterr().err
    assert err.endswith(
        "sheet 'Charts' holds no data: nothing to draw: if row 1 (Data!A1) is "
        "data, give --sheet Data --no-header to draw it\n"
    ), err
    for row in (["Ann"], ["Bob"]):
        wb["Data"].append(row)
    wb.create_sheet("Class 7B").append(["name"])
    wb.save(tmp_path / "in.xlsx")
    assert run("shuffle", tmp_path / "in.xlsx", "-o", tmp_path / "o.xlsx") == 1
    err = capsys.readouterr().err
    assert err.endswith(
        ": give --sheet Data to draw its rows; if row 1 ('Class 7B'!A1) is "
        "data, give --sheet 'Class 7B' --no-header to draw it\n"
    ), err
    assert (
        run(
            "shuffle",
            tmp_path / "in.xlsx",
            "-o",
            tmp_path / "o.xlsx",
            "--sheet",
            "Class 7B",
            "--no-header",
        )
        == 0
    )
