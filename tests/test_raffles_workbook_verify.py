"""Raffles and audits on workbooks: ``verify`` replays them and refuses what differs; the
Python API (``sample_workbook``'s keywords, ``verify_record``); LibreOffice reads the
sample sheet (slow)."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from raffle_books import HEAD, ROWS, read_csv, run, save_book, save_csv, sha, sheet_rows, text
from xlshuffle import OptionError, WorkbookError
from xlshuffle.workbook import sample_workbook, verify_draw_workbook, verify_record

from support import require

ARGV = ["-k", 1, "--reserves", 2, "--weights", "Tickets", "--strata", "Region", "--id", "ID"]


@pytest.fixture
def drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    """A workbook, its draw to a new sheet and to CSV, and their records."""
    book = save_book(tmp_path / "raffle.xlsx")
    out: dict[str, Path] = {"book": book}
    for name in ("out.xlsx", "out.csv"):
        out[name], out[f"{name}.json"] = tmp_path / name, tmp_path / f"{name}.json"
        code, _, err = run(
            capsys,
            "sample",
            book,
            *ARGV,
            "--seed",
            "v",
            "-o",
            out[name],
            "--record",
            out[f"{name}.json"],
        )
        assert code == 0, err
    return out


def _verify(capsys, record: Path, *argv: object) -> tuple[int, str, str]:
    return run(capsys, "verify", record, *argv)


def test_verify_draws_again_and_checks_the_sheet_and_the_csv(drawn, capsys) -> None:
    for name in ("out.xlsx", "out.csv"):
        code, out, err = _verify(
            capsys, drawn[f"{name}.json"], "--input", drawn["book"], "--output", drawn[name]
        )
        assert (code, err) == (0, "")
        assert out == (
            f"ok: sample of {drawn['book']} with seed v: 9 rows (weighted) drawn again; "
            "input and output checked\n"
        )
    code, out, err = _verify(capsys, drawn["out.xlsx.json"], "--input", drawn["book"])
    assert code == 0 and out.endswith("; input checked\n")


def test_verify_accepts_the_sheet_saved_again_by_openpyxl(drawn, capsys, tmp_path) -> None:
    again = tmp_path / "again.xlsx"
    openpyxl.load_workbook(drawn["out.xlsx"]).save(again)  # other XML, same values
    assert sha(again) != sha(drawn["out.xlsx"])
    code, _, err = _verify(
        capsys, drawn["out.xlsx.json"], "--input", drawn["book"], "--output", again
    )
    assert (code, err) == (0, "")


@pytest.mark.parametrize(("cell", "value"), [("A2", "T99"), ("F3", "winner"), ("G4", 7)])
def test_verify_refuses_an_edited_sheet(drawn, capsys, tmp_path, cell: str, value) -> None:
    book = openpyxl.load_workbook(drawn["out.xlsx"])
    assert book["Sample"][cell].value != value
    book["Sample"][cell] = value
    edited = tmp_path / "edited.xlsx"
    book.save(edited)
    code, out, err = _verify(
        capsys, drawn["out.xlsx.json"], "--input", drawn["book"], "--output", edited
    )
    row = int(cell[1:])
    assert (code, out) == (1, "") and err.count("\n") == 1
    assert err.startswith(f"Error: {edited}: sheet 'Sample' row {row} holds ")
    assert f"but drawn row {row - 1} is " in err


def test_verify_refuses_an_edited_csv_and_an_added_row(drawn, capsys, tmp_path) -> None:
    rows = read_csv(drawn["out.csv"])
    for change in ("swap", "add"):
        edited = [list(r) for r in rows]
        if change == "swap":
            edited[1], edited[2] = edited[2], edited[1]
        else:
            edited.append(edited[1])
        path = tmp_path / f"{change}.csv"
        with path.open("w", encoding="utf-8", newline="") as fh:
            csv.writer(fh).writerows(edited)
        code, _, err = _verify(
            capsys, drawn["out.csv.json"], "--input", drawn["book"], "--output", path
        )
        assert code == 1 and err.startswith(f"Error: {path}: not the rows this draw wrote: line ")


def test_verify_refuses_another_input(drawn, capsys, tmp_path) -> None:
    rows = [list(r) for r in ROWS]
    rows[0][2] = 30  # one more ticket holder's worth: another draw
    other = save_book(tmp_path / "other.xlsx", rows)
    csv_twin = save_csv(tmp_path / "raffle.csv")
    for src in (other, csv_twin):
        code, out, err = _verify(
            capsys, drawn["out.xlsx.json"], "--input", src, "--output", drawn["out.xlsx"]
        )
        assert (code, out) == (1, "") and err.count("\n") == 1
        assert (
            err.startswith(f"Error: {src}: SHA-256 ") and "not the file that was drawn from" in err
        )


@pytest.mark.parametrize("edit", ["permutation", "reserves", "winners", "exclusion-rows"])
def test_verify_refuses_an_edited_record(drawn, capsys, tmp_path, edit: str) -> None:
    rec = json.loads(drawn["out.xlsx.json"].read_text())
    spec = rec["target"]["draw"]
    if edit == "permutation":
        rec["permutation"][:2] = rec["permutation"][1::-1]
    elif edit == "reserves":
        spec["reserves"] = 1
    elif edit == "winners":
        spec["winners"][0] = "T10"
    else:
        spec["exclusion"] = {"column": "ID", "index": 0, "digest": "0" * 64, "ids": 1, "rows": [99]}
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out, err = _verify(capsys, path, "--input", drawn["book"], "--output", drawn["out.xlsx"])
    assert (code, out) == (1, "") and err.count("\n") == 1 and err.startswith(f"Error: {path}: ")


def test_verify_needs_the_input(drawn, capsys) -> None:
    code, _, err = _verify(capsys, drawn["out.xlsx.json"], "--output", drawn["out.xlsx"])
    assert code == 2 and "give --input IN" in err


# ------------------------------------------------------------------------------ the API


def test_the_api_draws_what_the_command_line_draws(drawn, tmp_path) -> None:
    dst = tmp_path / "api.xlsx"
    result = sample_workbook(
        drawn["book"], dst, k=1, reserves=2, weights="Tickets", strata="Region", id="ID", seed="v"
    )
    cli = json.loads(drawn["out.xlsx.json"].read_text())
    assert result.record.permutation == cli["permutation"]
    assert result.record.target["draw"] == cli["target"]["draw"]
    assert [[text(v) for v in row] for row in result.table] == read_csv(drawn["out.csv"])
    assert sheet_rows(dst) == read_csv(drawn["out.csv"])
    verify_record(result.record, input=drawn["book"], output=dst)
    verify_draw_workbook(result.record.to_dict(), drawn["book"], dst)
    with pytest.raises(OptionError, match="pass input= too"):
        verify_record(result.record)
    with pytest.raises(WorkbookError, match="no sheet of it is the one the draw added"):
        verify_record(result.record, input=drawn["book"], output=drawn["book"])
    other = tmp_path / "other.xlsx"  # another seed's draw: other rows
    sample_workbook(drawn["book"], other, k=1, reserves=2, weights="C", strata="D", seed="w")
    with pytest.raises(WorkbookError, match="not the rows this draw wrote"):
        verify_record(result.record, input=drawn["book"], output=other)


def test_the_api_excludes_ids_given_as_numbers(tmp_path) -> None:
    rows = [[100 + i, *row[1:]] for i, row in enumerate(ROWS)]
    book = save_book(tmp_path / "n.xlsx", rows)
    every = {"method": "systematic", "k": len(ROWS) - 2, "id": "ID", "seed": 1}
    result = sample_workbook(book, exclude_ids=[101.0, " 105 ", "nobody"], **every)
    assert [row[0] for row in result.table[1:]] == [r[0] for r in rows if r[0] not in (101, 105)]
    assert result.record.target["draw"]["exclusion"]["rows"] == [1, 5]
    assert result.record.target["draw"]["exclusion"]["ids"] == 3


@pytest.mark.parametrize(
    ("keywords", "says"),
    [
        ({"exclude_ids": "T1", "id": "ID"}, "exclude_ids: give a list of IDs"),
        ({"exclude_ids": ["T1"]}, "--exclude needs --id COL"),
        ({"method": "mus"}, "--method mus needs --amount COL"),
        ({"method": "systematic", "weights": "C"}, "--weights is for a raffle"),
        ({"method": "lottery"}, "--method lottery: choose one of"),
        ({"weights": "Nope"}, "--weights Nope: no such column"),
    ],
)
def test_the_api_refuses_options_that_cannot_work(tmp_path, keywords, says: str) -> None:
    book = save_book(tmp_path / "b.xlsx")
    with pytest.raises(OptionError) as caught:
        sample_workbook(book, tmp_path / "o.xlsx", k=1, seed=1, **keywords)
    assert says in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "o.xlsx").exists()


def test_a_plain_sample_is_unchanged(tmp_path) -> None:
    book = save_book(tmp_path / "b.xlsx")
    result = sample_workbook(book, k=2, seed="p", reserves=0, method="random")
    assert result.table[0] == ["Rank", *HEAD] and "draw" not in result.record.target


# ------------------------------------------------------------------------- LibreOffice


@pytest.mark.slow
def test_libreoffice_reads_the_sample_sheet(drawn, tmp_path) -> None:
    require(
        "libreoffice", shutil.which("soffice") is not None, "apt-get install libreoffice-calc-nogui"
    )
    mus = tmp_path / "mus.xlsx"
    sample_workbook(drawn["book"], mus, k=6, method="mus", amount="Amount", seed="lo")
    cmd = [
        "soffice",
        f"-env:UserInstallation={(tmp_path / 'lo-profile').as_uri()}",
        "--headless",
        "--norestore",
        "--convert-to",
        # comma, quote, UTF-8, from line 1, ..., every sheet to its own file (-1)
        "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
        "--outdir",
        str(tmp_path / "lo"),
        str(drawn["out.xlsx"]),
        str(mus),
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    assert read_csv(tmp_path / "lo" / "out-Sample.csv") == read_csv(drawn["out.csv"])
    got = read_csv(tmp_path / "lo" / "mus-Sample.csv")
    assert got == sheet_rows(mus) and got[0] == [*HEAD, "Hits"]
    assert sum(int(row[-1]) for row in got[1:]) == 6


def test_rows_printed_to_stdout_verify_once_saved(drawn, capsys, tmp_path) -> None:
    record = tmp_path / "r.json"
    code, out, err = run(capsys, "sample", drawn["book"], *ARGV, "--seed", "v", "--record", record)
    assert code == 0 and "9 of 10 rows drawn" in err
    saved = tmp_path / "saved.csv"
    assert list(csv.reader(out.splitlines())) == read_csv(drawn["out.csv"])
    saved.write_text(out.replace("\n", "\r\n"), encoding="utf-8-sig")  # as a shell may save it
    code, _, err = _verify(capsys, record, "--input", drawn["book"], "--output", saved)
    assert (code, err) == (0, "")
    saved.write_text(out.replace("reserve", "winner"), encoding="utf-8")
    code, _, err = _verify(capsys, record, "--input", drawn["book"], "--output", saved)
    assert code == 1 and "not the rows this draw wrote" in err
