"""``xlshuffle groups BOOK.xlsx --balance COL``: balanced teams in a workbook, and verify.

The expected teams come from the reference code of docs/draw-protocol.md (section 16),
which tests/test_vectors_teams.py checks against tools/make_vectors.py's vectors; the
written cells are read back with openpyxl, not with xlshuffle's reader.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from xlshuffle.cli import main

openpyxl = pytest.importorskip("openpyxl")

REF = reference_namespace()
# name, year (a number in the workbook), sex, a TRUE/FALSE cell
ROWS = [
    (f"P{i:02}", (7, 8, 9)[i % 3], "FM"[i % 2] if i < 15 else "F", i % 4 == 0) for i in range(22)
]


def run(*argv: object) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def book(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Class"
    ws.append(["Name", "Year", "Sex", "Helper"])
    for row in ROWS:
        ws.append(list(row))
    path = tmp_path / "class.xlsx"
    wb.save(path)
    return path


def teams_of(path: Path) -> list[int | None]:
    ws = openpyxl.load_workbook(path).active
    values = [row[-1] for row in ws.iter_rows(values_only=True)]
    assert values[0] == "Group"
    return values[1:]


def test_workbook_teams_are_the_protocols_and_the_lists(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, rec = tmp_path / "teams.xlsx", tmp_path / "teams.json"
    argv = [book, "-k", "5", "--balance", "Year", "--balance", "Sex", "--seed", "class 4B"]
    assert run("groups", *argv, "-o", out, "--record", rec) == 0
    want = REF["balanced_teams"]([[str(y), s] for _, y, s, _ in ROWS], 5, "class 4B")
    assert teams_of(out) == want
    assert "Team  Size  Year=7  Year=8  Year=9  Sex=F  Sex=M" in capsys.readouterr().out
    # the same rows as a CSV list give the same teams
    lst = tmp_path / "class.csv"
    lst.write_text(
        "Name,Year,Sex,Helper\n"
        + "".join(f"{n},{y},{s},{str(h).upper()}\n" for n, y, s, h in ROWS),
        encoding="utf-8",
    )
    assert run("groups", lst, *argv[1:], "-o", tmp_path / "teams.csv") == 0
    got = (tmp_path / "teams.csv").read_text(encoding="utf-8").split()[1:]
    assert [int(line.rsplit(",", 1)[1]) for line in got] == want
    # each year's and each sex's count per team within one; sizes within one
    for col in (1, 2):
        for value in {r[col] for r in ROWS}:
            counts = Counter(t for t, r in zip(want, ROWS, strict=True) if r[col] == value)
            per_team = [counts.get(t, 0) for t in range(1, 6)]
            assert max(per_team) - min(per_team) <= 1
    data = json.loads(rec.read_text(encoding="utf-8"))
    assert data["target"]["balance"]["names"] == ["Year", "Sex"]
    assert data["target"]["kind"] == "sheet"
    jsonschema = pytest.importorskip("jsonschema")
    from support import ROOT

    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data)) == []
    assert run("verify", rec, "--input", book, "--output", out) == 0
    assert "5 teams balanced by Year, Sex drawn again; input and output checked" in (
        capsys.readouterr().out
    )


def test_booleans_balance_as_their_text(book: Path, tmp_path: Path) -> None:
    out = tmp_path / "o.xlsx"
    assert run("groups", book, "-k", "3", "--balance", "D", "--seed", 5, "-o", out) == 0
    labels = [["TRUE" if h else "FALSE"] for *_, h in ROWS]
    assert teams_of(out) == REF["balanced_teams"](labels, 3, 5)


def test_verify_refuses_edits(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, rec = tmp_path / "o.xlsx", tmp_path / "r.json"
    assert (
        run("groups", book, "-k", "4", "--balance", "Sex", "--seed", 1, "-o", out, "--record", rec)
        == 0
    )
    assert run("verify", rec) == 2  # needs the input
    assert "give --input IN" in capsys.readouterr().err
    wb = openpyxl.load_workbook(out)
    cell = wb.active.cell(row=2, column=5)
    cell.value = cell.value % 4 + 1  # P00 moved to another team
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    assert run("verify", rec, "--input", book, "--output", edited) == 1
    err = capsys.readouterr().err
    assert "sheet 'Class' cell E2 holds" in err and "not the groups this draw wrote" in err
    data = json.loads(rec.read_text(encoding="utf-8"))
    data["target"]["balance"]["teams"][0]["size"] += 1
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data), encoding="utf-8")
    assert run("verify", forged, "--input", book) == 1
    assert "target.balance.teams is not what the draw gives again" in capsys.readouterr().err
    assert run("verify", rec, "--input", out) == 1  # not the input
    assert "not the recorded input" in capsys.readouterr().err


def test_avoid_an_earlier_draws_record(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "week1.json", tmp_path / "week2.json"
    argv = [book, "-k", "5", "--balance", "Year"]
    assert run("groups", *argv, "--seed", 1, "-o", tmp_path / "w1.xlsx", "--record", first) == 0
    out2 = tmp_path / "w2.xlsx"
    assert run("groups", *argv, "--seed", 2, "--avoid", first, "-o", out2, "--record", second) == 0
    labels = [[str(y)] for _, y, _, _ in ROWS]
    before = REF["balanced_teams"](labels, 5, 1)
    assert teams_of(out2) == REF["balanced_teams"](labels, 5, 2, before)
    data = json.loads(second.read_text(encoding="utf-8"))
    assert data["target"]["balance"]["avoid"]["before"] == before
    assert run("verify", second, "--input", book, "--output", out2) == 0
    # a plain groups draw's record too
    plain = tmp_path / "plain.json"
    assert (
        run("groups", book, "-k", "5", "--seed", 3, "-o", tmp_path / "p.xlsx", "--record", plain)
        == 0
    )
    assert run("groups", *argv, "--seed", 4, "--avoid", plain, "-o", tmp_path / "w3.xlsx") == 0
    from xlshuffle import groups

    w3 = teams_of(tmp_path / "w3.xlsx")
    assert w3 == REF["balanced_teams"](labels, 5, 4, groups(22, 5, seed=3))
    capsys.readouterr()


@pytest.mark.parametrize(
    ("avoid", "message"),
    [
        ("class.xlsx", "give the earlier groups draw's record"),
        ("other.json", "not the record of a groups draw of"),
    ],
)
def test_avoid_refusals(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], avoid: str, message: str
) -> None:
    other = tmp_path / "other.csv"
    other.write_text("Name\nA\nB\n", encoding="utf-8")
    assert (
        run(
            "groups",
            other,
            "-k",
            "2",
            "--seed",
            1,
            "-o",
            tmp_path / "o.csv",
            "--record",
            tmp_path / "other.json",
        )
        == 0
    )
    capsys.readouterr()
    argv = [book, "-k", "5", "--balance", "Year", "--seed", 2, "-o", tmp_path / "x.xlsx"]
    assert run("groups", *argv, "--avoid", tmp_path / avoid) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.xlsx").exists()


def test_blank_rows_kept_get_no_team(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Sex"])
    people = [("A", "F"), ("B", "M"), None, ("C", "F"), ("D", "M"), ("E", "F")]
    for row in people:
        ws.append(list(row) if row else [])
    src, out, rec = tmp_path / "b.xlsx", tmp_path / "o.xlsx", tmp_path / "r.json"
    wb.save(src)
    argv = ["-k", "2", "--balance", "Sex", "--seed", 9, "--keep-blank-rows"]
    assert run("groups", src, *argv, "-o", out, "--record", rec) == 0
    got = teams_of(out)
    want = REF["balanced_teams"]([[s] for p in people if p for s in p[1:]], 2, 9)
    assert got[2] is None
    assert [t for t in got if t is not None] == want
    assert run("verify", rec, "--input", src, "--output", out) == 0


def test_plain_workbook_groups_unchanged(book: Path, tmp_path: Path) -> None:
    from xlshuffle import groups

    out = tmp_path / "o.xlsx"
    assert run("groups", book, "-k", "5", "--seed", 7, "-o", out) == 0
    assert teams_of(out) == groups(22, 5, seed=7)


@pytest.mark.parametrize("balance", [[], ["--balance", "Sex"]])
def test_an_output_resaved_still_verifies_by_its_cells(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], balance: list[str]
) -> None:
    out, rec = tmp_path / "o.xlsx", tmp_path / "r.json"
    assert run("groups", book, "-k", 4, *balance, "--seed", 3, "-o", out, "--record", rec) == 0
    resaved = tmp_path / "resaved.xlsx"
    openpyxl.load_workbook(out).save(resaved)  # other bytes, the same cells
    assert resaved.read_bytes() != out.read_bytes()
    assert run("verify", rec, "--input", book, "--output", resaved) == 0
    wb = openpyxl.load_workbook(resaved)
    wb.active["E23"] = wb.active["E23"].value % 4 + 1  # the last pupil's team
    wb.save(resaved)
    capsys.readouterr()
    assert run("verify", rec, "--input", book, "--output", resaved) == 1
    assert "cell E23 holds" in capsys.readouterr().err


def test_an_edited_name_is_refused_even_with_the_right_teams(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, rec = tmp_path / "o.xlsx", tmp_path / "r.json"
    assert run("groups", book, "-k", 4, "--seed", 3, "-o", out, "--record", rec) == 0
    wb = openpyxl.load_workbook(out)
    wb.active["A5"] = "Someone else"
    wb.save(out)
    capsys.readouterr()
    assert run("verify", rec, "--input", book, "--output", out) == 1
    assert "row 5 is not the input's row" in capsys.readouterr().err


def test_a_resaved_output_with_formulas_still_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A re-save may drop or recompute formulas' cached values (openpyxl drops them): a row
    is compared by its values with formula cells aside, as verify compares any row."""
    src = tmp_path / "f.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append(["Name", "Score", "Double"])
    for i in range(8):
        wb.active.append([f"P{i}", i, f"=B{i + 2}*2"])
    wb.save(src)
    # give the formulas cached values, as Excel would have saved them
    import re
    import zipfile

    with zipfile.ZipFile(src) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = re.sub(
        rb"(<f>B(\d+)\*2</f>)(<v>\s*</v>|<v/>)?",
        lambda m: m[1] + b"<v>%d</v>" % ((int(m[2]) - 2) * 2),
        parts[sheet],
    )
    with zipfile.ZipFile(src, "w") as z:
        for n, data in parts.items():
            z.writestr(n, data)
    out, rec = tmp_path / "o.xlsx", tmp_path / "r.json"
    assert run("groups", src, "-k", 2, "--seed", 4, "-o", out, "--record", rec) == 0
    resaved = tmp_path / "re.xlsx"
    openpyxl.load_workbook(out).save(resaved)  # the formulas' cached values are gone
    assert b"*2</f><v>" in zipfile.ZipFile(out).read(sheet)  # cached values written
    capsys.readouterr()
    assert run("verify", rec, "--input", src, "--output", resaved) == 0, capsys.readouterr().err
