"""Prize tables (protocol section 9): ``sample --prizes PRIZES.csv`` draws every winner and
reserve at once and gives the places to the prizes in the table's order.

Expected rows come from the vectors of tools/make_vectors.py (which draws on its own) and
the reference code of docs/draw-protocol.md; files are read back with the csv module and
openpyxl.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from protocol_references import VECTORS, reference_namespace
from protocol_references import decode_seed as _seed
from raffle_books import read_csv, run, save_book, save_csv, sheet_rows

REF = reference_namespace()

TABLE = "Prize,Count,Reserves\nThird prize,3,1\nSecond prize,1,1\nGrand prize,1,2\n"


def _list(tmp_path: Path, case: dict[str, Any]) -> Path:
    path = tmp_path / "entrants.csv"
    rows = [["ID", "Tickets"]] + [
        [f"E{i:02d}", 1 if case["weights"] is None else case["weights"][i]]
        for i in range(case["n"])
    ]
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)
    return path


@pytest.mark.parametrize("case", VECTORS["prizes"], ids=lambda c: str(bool(c["weights"])))
def test_prizes_take_the_places_of_one_draw_in_the_tables_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: dict[str, Any]
) -> None:
    src, table = _list(tmp_path, case), tmp_path / "prizes.csv"
    table.write_text(TABLE, encoding="utf-8")
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    weights = [] if case["weights"] is None else ["--weights", "Tickets"]
    seed = _seed(case["seed"])
    code, _, err = run(
        capsys,
        "sample",
        src,
        "--prizes",
        table,
        *weights,
        "--id",
        "ID",
        "--seed",
        seed,
        "-o",
        out,
        "--record",
        rec,
    )
    assert code == 0, err
    rows = read_csv(out)
    assert rows[0] == ["ID", "Tickets", "Prize", "Place", "Role"]
    want = [[f"E{i:02d}", prize, str(place), role] for i, prize, place, role in case["drawn"]]
    assert [[r[0], *r[2:]] for r in rows[1:]] == want
    places = REF["prize_places"]([tuple(p) for p in case["prizes"]])
    assert [(p, n, r) for _, p, n, r in case["drawn"]] == places  # the vector's own mapping
    record = json.loads(rec.read_text(encoding="utf-8"))
    spec = record["target"]["draw"]
    assert spec["prizes"] == [{"prize": p, "count": c, "reserves": r} for p, c, r in case["prizes"]]
    assert spec["winners"] == [w[0] for w in want if w[3] == "winner"]
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0


def test_a_workbook_and_a_committed_draw_take_the_same_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, table = save_book(tmp_path / "e.xlsx"), tmp_path / "prizes.tsv"
    table.write_text("Mug\t2\nBike\t1\t1\n", encoding="utf-8")
    out, csv_out = tmp_path / "w.xlsx", tmp_path / "w.csv"
    options = ["--prizes", table, "--weights", "Tickets", "--id", "ID", "--seed", "day"]
    assert run(capsys, "sample", book, *options, "-o", out)[0] == 0
    assert run(capsys, "sample", save_csv(tmp_path / "e.csv"), *options, "-o", csv_out)[0] == 0
    drawn = sheet_rows(out)
    assert drawn == read_csv(csv_out)
    assert [r[-3:] for r in drawn[1:]] == [
        ["Mug", "1", "winner"],
        ["Mug", "2", "winner"],
        ["Bike", "1", "winner"],
        ["Bike", "1", "reserve"],
    ]
    commitment = tmp_path / "c.json"
    code, _, err = run(
        capsys,
        "commit",
        tmp_path / "e.csv",
        "--prizes",
        table,
        "--id",
        "ID",
        "--beacon",
        "the dice",
        "-o",
        commitment,
    )
    assert code == 0, err
    body = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]
    assert body["draw"]["request"]["sample"]["draw"]["prizes"] == [["Mug", 2, 0], ["Bike", 1, 1]]
    table.write_text("Mug\t1\nBike\t2\n", encoding="utf-8")  # changed after the commitment
    out2, rec2 = tmp_path / "w2.csv", tmp_path / "r2.json"
    code, _, err = run(
        capsys,
        "draw",
        commitment,
        tmp_path / "e.csv",
        "--reveal",
        "4 4",
        "-o",
        out2,
        "--record",
        rec2,
    )
    assert code == 0, err  # the commitment holds the table itself: the file is not read again
    assert [r[-3] for r in read_csv(out2)[1:]] == ["Mug", "Mug", "Bike", "Bike"]
    assert run(capsys, "verify", rec2, "--input", tmp_path / "e.csv", "--output", out2)[0] == 0


@pytest.mark.parametrize(
    ("table", "options", "message"),
    [
        ("Mug,0\n", [], "line 1 is not 'prize,count'"),
        ("Prize,Count\nMug,two\n", [], "line 2 is not 'prize,count'"),
        ("Mug,1\nMug,2\n", [], "listed twice"),
        ("Prize,Count\n", [], "no 'prize,count' lines"),
        ("Mug,2\n", ["-k", 2], "leave out -k and --reserves"),
        ("Mug,2\n", ["--strata", "Region"], "leave out --strata"),
        ("Mug,2\n", ["--method", "systematic"], "not --method systematic"),
    ],
)
def test_a_table_that_cannot_be_drawn_is_refused_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    table: str,
    options: list[object],
    message: str,
) -> None:
    prizes = tmp_path / "prizes.csv"
    prizes.write_text(table, encoding="utf-8")
    src = save_csv(tmp_path / "e.csv")
    code, _, err = run(
        capsys, "sample", src, "--prizes", prizes, *options, "--seed", 1, "-o", tmp_path / "w.csv"
    )
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "w.csv").exists()
