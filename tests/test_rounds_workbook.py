"""Rounds of a workbook draw: ``redraw`` on the record of ``sample book.xlsx`` writes the
table after the round as a sheet added to a copy of the workbook (every other part copied
byte for byte) or as CSV, and ``verify`` checks the chain back to the draw.

The expected tables are worked out here from the draw's own output sheet, read by openpyxl;
the fresh round's entrant from the protocol's reference code."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from raffle_books import HEAD, ROWS, read_csv, run, save_book, sheet_rows, text

TABLE = "Mug,2,1\nBike,1,1\n"


@pytest.fixture
def drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    book, table = save_book(tmp_path / "e.xlsx"), tmp_path / "prizes.csv"
    table.write_text(TABLE, encoding="utf-8")
    out, rec = tmp_path / "w.xlsx", tmp_path / "r.json"
    code, _, err = run(
        capsys,
        "sample",
        book,
        "--prizes",
        table,
        "--id",
        "ID",
        "--seed",
        "fair day",
        "-o",
        out,
        "--record",
        rec,
    )
    assert code == 0, err
    return {"book": book, "out": out, "rec": rec}


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def test_a_round_of_a_workbook_draw_adds_its_table_to_a_copy_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], drawn: dict[str, Path]
) -> None:
    rows = sheet_rows(drawn["out"])
    assert rows[0] == [*HEAD, "Prize", "Place", "Role"]
    mug = [r for r in rows[1:] if r[-3] == "Mug"]
    second, reserve = mug[1][0], next(r[0] for r in mug if r[-1] == "reserve")
    out1, rec1 = tmp_path / "round1.xlsx", tmp_path / "round1.json"
    code, said, err = run(
        capsys,
        "redraw",
        drawn["rec"],
        "--replace",
        second,
        "--reason",
        "no answer",
        "-o",
        out1,
        "--record",
        rec1,
    )
    assert code == 0 and f"goes to {reserve}, reserve 1" in said, err
    record = json.loads(rec1.read_text(encoding="utf-8"))
    table = sheet_rows(out1, record["output_sheet"])
    assert table[0] == [*HEAD, "Prize", "Place", "Role", "Note"]
    want = []
    for r in rows[1:]:
        role, note = r[-1], ""
        if r[0] == second:
            role, note = "replaced", "no answer"
        elif r[0] == reserve:
            role, note = "winner", f"replaces {second} (reserve 1)"
        place = mug[1][-2] if r[0] == reserve else r[-2]
        want.append([*r[:-3], r[-3], place, role, *([note] if note else [])])
    assert table[1:] == want
    # lossless: the input's parts are in the copy as they were, but the few a sheet adds to
    before, after = _members(drawn["book"]), _members(out1)
    changed = {n for n in before if before[n] != after.get(n)}
    assert changed <= {"[Content_Types].xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels"}
    assert sheet_rows(out1, "Tickets") == sheet_rows(drawn["book"], "Tickets")
    code, said, err = run(capsys, "verify", rec1, "--input", drawn["book"], "--output", out1)
    assert code == 0 and said.startswith("ok: round 1"), err

    # a second round, written as CSV: the same table as the sheet, with the next change
    bike = next(r[0] for r in rows[1:] if r[-3] == "Bike" and r[-1] == "winner")
    bike_reserve = next(r[0] for r in rows[1:] if r[-3] == "Bike" and r[-1] == "reserve")
    out2, rec2 = tmp_path / "round2.csv", tmp_path / "round2.json"
    code, _, err = run(
        capsys,
        "redraw",
        rec1,
        "--replace",
        bike,
        "--reason",
        "declined",
        "-o",
        out2,
        "--record",
        rec2,
    )
    assert code == 0, err
    got = {r[0]: r for r in read_csv(out2)[1:]}
    assert got[bike][-2:] == ["replaced", "declined"]
    assert got[bike_reserve][-2:] == ["winner", f"replaces {bike} (reserve 1)"]
    code, said, err = run(capsys, "verify", rec2, "--input", drawn["book"], "--output", out2)
    assert code == 0 and said.startswith("ok: round 2"), err

    # an edited table, and a workbook that is not the input, are refused
    out2.write_text(out2.read_text(encoding="utf-8").replace("declined", "gone"), "utf-8")
    code, _, err = run(capsys, "verify", rec2, "--input", drawn["book"], "--output", out2)
    assert code == 1 and "not the table this round gives" in err
    other = save_book(tmp_path / "other.xlsx", [list(r) for r in ROWS[:-1]])
    code, _, err = run(capsys, "verify", rec1, "--input", other)
    assert code == 1 and "not the recorded input" in err


def test_a_committed_workbook_draw_takes_a_fresh_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, table = save_book(tmp_path / "e.xlsx"), tmp_path / "prizes.csv"
    table.write_text("Bike,1,0\n", encoding="utf-8")
    c, rec, c2, rec1 = (tmp_path / n for n in ("c.json", "d.json", "c2.json", "r1.json"))
    code, _, err = run(
        capsys,
        "commit",
        book,
        "--prizes",
        table,
        "--id",
        "ID",
        "--weights",
        "Tickets",
        "--beacon",
        "dice",
        "-o",
        c,
    )
    assert code == 0, err
    code, _, err = run(capsys, "draw", c, book, "--reveal", "6 6 1", "--record", rec)
    assert code == 0, err
    (bike,) = json.loads(rec.read_text(encoding="utf-8"))["target"]["draw"]["winners"]
    code, _, err = run(
        capsys,
        "redraw",
        rec,
        "--replace",
        bike,
        "--reason",
        "declined",
        "--beacon",
        "drand round 7",
        "--commit",
        c2,
    )
    assert code == 0, err
    code, _, err = run(
        capsys,
        "redraw",
        rec,
        "--commitment",
        c2,
        "--reveal",
        "beef",
        "-o",
        tmp_path / "r1.xlsx",
        "--record",
        rec1,
    )
    assert code == 0, err
    ref = reference_namespace()
    body = json.loads(c2.read_text(encoding="utf-8"))["commitment"]
    ids = [r[0] for r in ROWS]
    weights = [text(r[2]) for r in ROWS]
    row = ref["fresh_round"](body, ["beef"], ids, range(len(ids)), [bike], weights=weights)
    assert json.loads(rec1.read_text(encoding="utf-8"))["given_to"]["id"] == ids[row]
    code, said, err = run(capsys, "verify", rec1, "--input", book, "--output", tmp_path / "r1.xlsx")
    assert code == 0 and "drawn afresh" in said, err
