"""The rows a monetary-unit sample sets aside, written to a file of their own:
``xlshuffle sample --set-aside-output FILE`` on a semicolon list with decimal commas, a
TSV list and a workbook, the checks made before anything is written, and ``verify
--set-aside-output``.

Which rows are set aside is decided here from the amounts as written (a row of 0 or less),
never by the engine; a list's file must hold the input's header and those records byte for
byte, in input order.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from raffle_books import run

from support import ROOT

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
)

# A European export: semicolons, decimal commas, CRLF line ends, a byte order mark, a
# quoted field with the delimiter in it; the amounts of 0 or less are rows 2, 4 and 7.
HEADER = "Rechnung;Kunde;Betrag"
ROWS = [
    "R-1;Aalto;1.234,56",
    'R-2;"Bäcker; Söhne";-50,00',
    "R-3;Cruz;25.000,00",
    "R-4;Dahl;0,00",
    "R-5;Eich;300,10",
    "R-6;Falk;4.500,00",
    "R-7;Gros;-1.000,25",
    "R-8;Hahn;9.999,99",
]
SET_ASIDE = [r for r in ROWS if r.rsplit(";", 1)[1].startswith(("-", "0,00"))]


def ledger(folder: Path, name: str = "ledger.csv") -> Path:
    path = folder / name
    path.write_bytes(("\ufeff" + "\r\n".join([HEADER, *ROWS]) + "\r\n").encode("utf-8"))
    return path


def sample(src: Path, *more: object, k: int = 3, seed: str = "Prüfung") -> list[object]:
    argv: list[object] = ["sample", src, "-k", k, "--method", "cell", "--amount", "Betrag"]
    return [*argv, "--seed", seed, *more]


def test_a_semicolon_list_with_decimal_commas(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, aside, rec = ledger(tmp_path), tmp_path / "credits.csv", tmp_path / "r.json"
    out = tmp_path / "s.csv"
    code, said, err = run(
        capsys, *sample(src, "-o", out, "--record", rec, "--set-aside-output", aside)
    )
    assert code == 0, err
    assert len(SET_ASIDE) == 3
    # byte for byte: the mark, the header, the records with their own line ends
    want = "\ufeff" + "\r\n".join([HEADER, *SET_ASIDE]) + "\r\n"
    assert aside.read_bytes() == want.encode("utf-8")
    assert f"{aside}: the header and the 3 rows set aside" in said
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert list(VALIDATOR.iter_errors(record)) == []
    assert record["set_aside_output"] == str(aside)
    assert record["set_aside_output_sha256"] == hashlib.sha256(aside.read_bytes()).hexdigest()
    assert record["target"]["draw"]["parts"][0]["set_aside"] == [1, 3, 6]
    code, said, err = run(
        capsys, "verify", rec, "--input", src, "--output", out, "--set-aside-output", aside
    )
    assert code == 0, err
    assert "input, output and the rows set aside checked" in said
    # an edited file, one with a row less, one of other rows: each refused
    edited = tmp_path / "edited.csv"
    edited.write_bytes(aside.read_bytes().replace(b"-50,00", b"-5,00"))
    code, said, err = run(capsys, "verify", rec, "--input", src, "--set-aside-output", edited)
    assert code == 1 and "set-aside row 1 is" in err, err
    edited.write_bytes(aside.read_bytes().rsplit(b"R-7", 1)[0])
    code, said, err = run(capsys, "verify", rec, "--input", src, "--set-aside-output", edited)
    assert code == 1 and "set-aside row 3" in err, err
    code, said, err = run(capsys, "verify", rec, "--input", src, "--set-aside-output", out)
    assert code == 1 and "not the rows this draw wrote" in err, err


def test_strata_set_aside_in_input_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "l.tsv"
    lines = ["Id\tBranch\tAmount", "1\tN\t-5", "2\tS\t10", "3\tS\t-1", "4\tN\t20", "5\tN\t0"]
    src.write_text("\n".join(lines), encoding="utf-8")  # no line break at the end
    aside = tmp_path / "a.tsv"
    argv = ["sample", src, "-k", 1, "--method", "mus", "--amount", "Amount", "--strata"]
    code, _, err = run(capsys, *argv, "Branch", "--seed", 7, "--set-aside-output", aside)
    assert code == 0, err
    assert aside.read_text(encoding="utf-8") == "Id\tBranch\tAmount\n1\tN\t-5\n3\tS\t-1\n5\tN\t0\n"


def test_nothing_set_aside_writes_nothing_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "l.csv"
    src.write_text("Id,Amount\n1,10.00\n2,20.00\n3,30.00\n", encoding="utf-8")
    aside, rec = tmp_path / "a.csv", tmp_path / "r.json"
    argv = ["sample", src, "-k", 2, "--method", "mus", "--amount", "Amount", "--seed", 1]
    code, said, err = run(
        capsys, *argv, "-o", tmp_path / "s.csv", "--set-aside-output", aside, "--record", rec
    )
    assert code == 0, err
    assert not aside.exists()
    assert f"set aside: no row of amount 0 or below, so nothing was written to {aside}" in said
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert "set_aside_output" not in record and list(VALIDATOR.iter_errors(record)) == []
    aside.write_text("Id,Amount\n", encoding="utf-8")
    code, said, err = run(capsys, "verify", rec, "--input", src, "--set-aside-output", aside)
    assert code == 1 and "this draw set aside no row" in err, err


def test_a_dry_run_writes_no_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src, aside = ledger(tmp_path), tmp_path / "a.csv"
    code, _, err = run(capsys, *sample(src, "--dry-run", "--set-aside-output", aside))
    assert code == 0, err
    assert not aside.exists()


@pytest.mark.parametrize(
    ("more", "says", "exit_code"),
    [
        (["--set-aside-output", "{src}", "--overwrite"], "that is the input", 2),
        (["-o", "{tmp}/s.csv", "--set-aside-output", "{tmp}/s.csv"], "-o names it too", 2),
        (["--record", "{tmp}/r.json", "--set-aside-output", "{tmp}/r.json"], "--record names", 2),
        (["--set-aside-output", "{tmp}/no/a.csv"], "does not exist: create it first", 2),
        (["--set-aside-output", "{tmp}"], "is a folder", 2),
        (["--set-aside-output", "{tmp}/a.xlsx"], "not a .xlsx file: name it", 2),
        (["--set-aside-output", "{tmp}/old.csv"], "exists already", 1),
    ],
)
def test_refusals_are_one_line_and_write_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    more: list[str],
    says: str,
    exit_code: int,
) -> None:
    src = ledger(tmp_path)
    (tmp_path / "old.csv").write_text("kept\n", encoding="utf-8")
    before = sorted(os.listdir(tmp_path))
    argv = [m.format(src=src, tmp=tmp_path) for m in more]
    code, _, err = run(capsys, *sample(src, *argv))
    assert code == exit_code, err
    assert says in err and len(err.strip().splitlines()) == 1, err
    assert sorted(os.listdir(tmp_path)) == before  # not even the sample
    assert (tmp_path / "old.csv").read_text(encoding="utf-8") == "kept\n"


def test_overwrite_replaces_an_existing_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, aside = ledger(tmp_path), tmp_path / "a.csv"
    aside.write_text("old\n", encoding="utf-8")
    code, _, err = run(capsys, *sample(src, "--set-aside-output", aside, "--overwrite"))
    assert code == 0, err
    assert aside.read_bytes().startswith("\ufeffRechnung".encode())


def test_refused_for_other_draws_and_several_inputs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, other = ledger(tmp_path), ledger(tmp_path, "other.csv")
    code, _, err = run(
        capsys, "sample", src, "-k", 2, "--seed", 1, "--set-aside-output", tmp_path / "a.csv"
    )
    assert code == 2 and "add --method mus (or cell)" in err, err
    argv = sample(src, "--out-dir", tmp_path / "out", "--set-aside-output", tmp_path / "a.csv")
    code, _, err = run(capsys, *argv[:2], other, *argv[2:])
    assert code == 2 and "takes one input" in err, err


def test_a_workbook_to_a_sheet_of_a_copy_or_to_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Ledger"
    amounts = [120.5, -40, 0, 3000, 75.25, -0.01]
    ws.append(["Invoice", "Amount"])
    for n, amount in enumerate(amounts, 1):
        ws.append([f"I-{n}", amount])
    wb.create_sheet("Set aside")  # taken: the rows go to "Set aside 2"
    src = tmp_path / "ledger.xlsx"
    wb.save(src)
    want = [("Invoice", "Amount"), *((f"I-{n}", a) for n, a in enumerate(amounts, 1) if a <= 0)]
    book, rec = tmp_path / "aside.xlsx", tmp_path / "r.json"
    argv = ["sample", src, "-k", 2, "--method", "mus", "--amount", "Amount", "--seed", "w"]
    code, _, err = run(
        capsys, *argv, "-o", tmp_path / "s.xlsx", "--record", rec, "--set-aside-output", book
    )
    assert code == 0, err
    got = openpyxl.load_workbook(book)
    assert got.sheetnames == ["Ledger", "Set aside", "Set aside 2"]
    assert list(got["Set aside 2"].values) == want
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert list(VALIDATOR.iter_errors(record)) == []
    assert record["set_aside_output_sha256"] == hashlib.sha256(book.read_bytes()).hexdigest()
    code, _, err = run(
        capsys,
        "verify",
        rec,
        "--input",
        src,
        "--output",
        tmp_path / "s.xlsx",
        "--set-aside-output",
        book,
    )
    assert code == 0, err
    listed = tmp_path / "aside.csv"
    code, _, err = run(capsys, *argv, "--set-aside-output", listed)
    assert code == 0, err
    assert listed.read_text(encoding="utf-8").splitlines() == [
        "Invoice,Amount",
        "I-2,-40",
        "I-3,0",
        "I-6,-0.01",
    ]
    code, _, err = run(capsys, "verify", rec, "--input", src, "--set-aside-output", listed)
    assert code == 0, err
    got["Set aside 2"]["B2"] = -41
    got.save(book)
    code, _, err = run(capsys, "verify", rec, "--input", src, "--set-aside-output", book)
    assert code == 1 and "'Set aside 2' row 2" in err, err


def test_a_committed_draw_writes_them_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, aside, rec = ledger(tmp_path), tmp_path / "a.csv", tmp_path / "r.json"
    made = tmp_path / "c.json"
    argv = ["commit", src, "-k", 3, "--method", "cell", "--amount", "Betrag"]
    assert run(capsys, *argv, "--beacon", "the value", "-o", made)[0] == 0
    argv = ["draw", made, src, "--reveal", "42", "--record", rec, "-o", tmp_path / "s.csv"]
    code, _, err = run(capsys, *argv, "--set-aside-output", aside)
    assert code == 0, err
    assert aside.read_text(encoding="utf-8-sig").splitlines() == [HEADER, *SET_ASIDE]
    code, _, err = run(capsys, "verify", rec, "--input", src, "--set-aside-output", aside)
    assert code == 0, err
    code, _, err = run(capsys, *argv, "--set-aside-output", aside)  # never overwritten
    assert code == 2 and "exists already" in err, err
