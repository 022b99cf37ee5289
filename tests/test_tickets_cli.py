"""Ticket draws through ``xlshuffle sample --method ticket|rivest`` on lists and workbooks.

The expected winners come from the reference code of docs/draw-protocol.md (section 18)
over the IDs read here with the csv module, and Rivest's order from ``consistent_sampler``
itself; workbooks are written with openpyxl and their samples read back with it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from consistent_sampler import sampler

from protocol_references import reference_namespace
from raffle_books import HEAD, ROWS, read_csv, run, save_book, save_csv, sheet_rows, text

REF = reference_namespace()

IDS = [str(r[0]) for r in ROWS]


def ref_order(ids: list[str], seed: object, **kw: Any) -> list[str]:
    counts = kw.pop("counts", None)
    return [ids[i] for i in REF["ticket_draw"](seed, ids, counts=counts, **kw)]


def drawn_ids(path: Path) -> list[str]:
    return [row[0] for row in read_csv(path)[1:]]


def test_a_ticket_draw_is_the_lowest_tickets_and_shows_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = save_csv(tmp_path / "e.csv"), tmp_path / "w.csv"
    code, _, err = run(
        capsys,
        "sample",
        src,
        "-k",
        3,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--seed",
        "2026",
        "-o",
        out,
    )
    assert code == 0, err
    rows = read_csv(out)
    assert rows[0] == [*HEAD, "Draw ticket"]
    assert drawn_ids(out) == ref_order(IDS, "2026", k=3)
    assert [r[-1] for r in rows[1:]] == [REF["ticket"]("2026", 0, r[0]) for r in rows[1:]]


def test_weights_at_a_stated_scale_and_reserves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = save_csv(tmp_path / "e.csv"), tmp_path / "w.csv"
    code, _, err = run(
        capsys,
        "sample",
        src,
        "-k",
        2,
        "--reserves",
        2,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--weights",
        "Tickets",
        "--weight-scale",
        10,
        "--seed",
        7,
        "-o",
        out,
    )
    assert code == 0, err
    counts = [int(Fraction(str(r[2])) * 10) for r in ROWS]  # 2.5 tickets are 25 at scale 10
    assert drawn_ids(out) == ref_order(IDS, 7, k=2, reserves=2, counts=counts)
    assert [r[5:7] for r in read_csv(out)[1:]] == [
        ["winner", "1"],
        ["winner", "2"],
        ["reserve", "1"],
        ["reserve", "2"],
    ]


def test_decimal_weights_without_a_scale_are_refused_naming_the_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv")
    code, _, err = run(
        capsys,
        "sample",
        src,
        "-k",
        2,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--weights",
        "Tickets",
        "--seed",
        7,
        "-o",
        tmp_path / "w.csv",
    )
    assert code == 1
    assert "cell C8" in err and "--weight-scale 10" in err and err.count("\n") == 1
    assert not (tmp_path / "w.csv").exists()


def test_a_rate_per_stratum_and_lists_that_grow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = [[f"V{i:03d}", "x", 1, ["N", "S", "E"][i % 3], 1] for i in range(90)]
    first, later = save_csv(tmp_path / "a.csv", big[:60]), save_csv(tmp_path / "b.csv", big)
    seen = []
    for src in (first, later):
        out = tmp_path / f"{src.stem}.out.csv"
        code, _, err = run(
            capsys,
            "sample",
            src,
            "--rate",
            "0.25",
            "--method",
            "ticket",
            "--id",
            "ID",
            "--strata",
            "Region",
            "--seed",
            "audit",
            "-o",
            out,
        )
        assert code == 0, err
        rows = read_csv(out)[1:]
        for region in ("N", "S", "E"):
            ids = [str(r[0]) for r in (big if src == later else big[:60]) if r[3] == region]
            want = ref_order(ids, "audit", rate=Fraction(1, 4))
            assert [r[0] for r in rows if r[3] == region] == want
        seen.append({r[0] for r in rows})
    assert seen[0] <= seen[1]  # a sample by rate only grows as entrants are added


def test_excluded_entrants_leave_the_others_tickets_as_they_were(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = save_csv(tmp_path / "e.csv"), tmp_path / "w.csv"
    (tmp_path / "x.txt").write_text("T3\nT9\n", encoding="utf-8")
    code, _, err = run(
        capsys,
        "sample",
        src,
        "-k",
        4,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--exclude",
        tmp_path / "x.txt",
        "--seed",
        "2026",
        "-o",
        out,
    )
    assert code == 0, err
    whole = ref_order(IDS, "2026")
    assert drawn_ids(out) == [x for x in whole if x not in ("T3", "T9")][:4]


def test_one_entry_per_id_holds_a_ticket_per_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        ["A", "a1", 1, "N", 1],
        ["B", "b1", 1, "N", 1],
        ["A", "a2", 1, "N", 1],
        ["C", "c1", 1, "N", 1],
        ["A", "a3", 1, "N", 1],
        ["D", "d1", 1, "N", 1],
    ]
    src, out = save_csv(tmp_path / "e.csv", rows), tmp_path / "w.csv"
    code, _, err = run(
        capsys,
        "sample",
        src,
        "-k",
        4,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--one-entry-per-id",
        "--seed",
        3,
        "-o",
        out,
    )
    assert code == 0, err
    assert drawn_ids(out) == ref_order(["A", "B", "C", "D"], 3, counts=[3, 1, 1, 1])


def test_rivest_is_consistent_samplers_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = save_csv(tmp_path / "e.csv"), tmp_path / "w.csv"
    code, _, err = run(
        capsys,
        "sample",
        src,
        "-k",
        10,
        "--method",
        "rivest",
        "--id",
        "ID",
        "--seed",
        314159,
        "-o",
        out,
    )
    assert code == 0, err
    assert drawn_ids(out) == list(sampler(IDS, seed="314159", output="id"))


def test_a_workbook_draws_what_its_csv_draws_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, rec = save_book(tmp_path / "e.xlsx"), tmp_path / "r.json"
    out, csv_out = tmp_path / "out.xlsx", tmp_path / "w.csv"
    options = [
        "-k",
        2,
        "--reserves",
        1,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--strata",
        "Region",
        "--seed",
        "fair",
    ]
    code, _, err = run(capsys, "sample", book, *options, "-o", out, "--record", rec)
    assert code == 0, err
    code, _, err = run(capsys, "sample", save_csv(tmp_path / "e.csv"), *options, "-o", csv_out)
    assert code == 0, err
    drawn = sheet_rows(out)
    assert drawn == read_csv(csv_out)
    assert drawn[0][-1] == "Draw ticket"
    for region in ("North", "South", "East"):
        ids = [str(r[0]) for r in ROWS if r[3] == region]
        want = ref_order(ids, "fair", k=2, reserves=1)
        assert [r[0] for r in drawn[1:] if r[3] == region] == want
    code, said, err = run(capsys, "verify", rec, "--input", book, "--output", out)
    assert code == 0 and said.startswith("ok"), err
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["target"]["draw"]["method"] == "ticket"


def test_a_committed_ticket_draw_runs_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv")
    commitment = tmp_path / "c.json"
    code, _, err = run(
        capsys,
        "commit",
        src,
        "-k",
        2,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--rate",
        "0.5",
        "--beacon",
        "the dice",
        "-o",
        commitment,
    )
    assert code == 2 and "--rate" in err  # -k and --rate both say how many
    code, _, err = run(
        capsys,
        "commit",
        src,
        "--rate",
        "0.5",
        "--method",
        "ticket",
        "--id",
        "ID",
        "--beacon",
        "the dice",
        "-o",
        commitment,
    )
    assert code == 0, err
    body = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]
    assert body["draw"]["request"]["sample"]["draw"]["rate"] == "0.5"
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    code, _, err = run(
        capsys, "draw", commitment, src, "--reveal", "3 1 4", "-o", out, "--record", rec
    )
    assert code == 0, err
    seed = json.loads(rec.read_text(encoding="utf-8"))["seed"]
    assert drawn_ids(out) == ref_order(IDS, seed, rate=Fraction(1, 2))
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-k", 2, "--method", "ticket"], "add --id COL"),
        (["--rate", "0.1", "--id", "ID"], "add --method ticket"),
        (["--rate", "1.5", "--method", "ticket", "--id", "ID"], "at most 1"),
        (["-k", 2, "--method", "rivest", "--id", "ID", "--weights", "Tickets"], "rivest"),
        (["-k", 2, "--method", "ticket", "--id", "ID", "--weight-scale", 10], "--weights COL"),
    ],
)
def test_options_that_cannot_combine_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[object], message: str
) -> None:
    src = save_csv(tmp_path / "e.csv")
    code, _, err = run(capsys, "sample", src, *options, "--seed", 1, "-o", tmp_path / "w.csv")
    assert code == 2 and message in err, err


def test_a_blank_id_is_refused_naming_its_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [list(r) for r in ROWS]
    rows[3][0] = "  "
    src = save_csv(tmp_path / "e.csv", rows)
    code, _, err = run(
        capsys,
        "sample",
        src,
        "-k",
        2,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--seed",
        1,
        "-o",
        tmp_path / "w.csv",
    )
    assert code == 1 and "cell A5" in err and "ID is blank" in err, err
    assert text(ROWS[0][0]) == "T1"


def test_the_listing_is_the_whole_order_every_sample_is_a_prefix_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, listing = save_csv(tmp_path / "e.csv"), tmp_path / "t.csv"
    code, _, err = run(capsys, "tickets", src, "--id", "ID", "--seed", "2026", "-o", listing)
    assert code == 0, err
    rows = read_csv(listing)
    assert rows[0] == ["Place", "ID", "Draw ticket"]
    assert [r[1] for r in rows[1:]] == ref_order(IDS, "2026")
    assert [r[0] for r in rows[1:]] == [str(n) for n in range(1, len(IDS) + 1)]
    assert all(r[2] == REF["ticket"]("2026", 0, r[1]) for r in rows[1:])
    out = tmp_path / "w.csv"
    run(
        capsys,
        "sample",
        src,
        "-k",
        4,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--seed",
        "2026",
        "-o",
        out,
    )
    assert drawn_ids(out) == [r[1] for r in rows[1:5]]


def test_the_listing_by_stratum_with_tickets_and_rivests_to_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv")
    code, out, err = run(
        capsys,
        "tickets",
        src,
        "--id",
        "ID",
        "--seed",
        5,
        "--strata",
        "Region",
        "--weights",
        "Tickets",
        "--weight-scale",
        2,
    )
    assert code == 0, err
    rows = [line.split(",") for line in out.splitlines()]
    assert rows[0] == ["Place", "ID", "Stratum", "Tickets", "Draw ticket"]
    for region in ("North", "South", "East"):
        mine = [r for r in rows[1:] if r[2] == region]
        ids = [str(r[0]) for r in ROWS if r[3] == region]
        counts = [int(Fraction(str(r[2])) * 2) for r in ROWS if r[3] == region]
        want = ref_order(ids, 5, counts=counts)
        assert [r[1] for r in mine] == want  # T5 holds no ticket: never drawn, not listed
        assert [r[0] for r in mine] == [str(n) for n in range(1, len(want) + 1)]
    code, out, err = run(
        capsys, "tickets", src, "--id", "ID", "--seed", 314159, "--method", "rivest"
    )
    assert code == 0, err
    theirs = list(sampler(IDS, seed="314159", output="tuple", digits=80))
    listed = [line.split(",") for line in out.splitlines()[1:]]
    assert [r[1] for r in listed] == [t[1] for t in theirs]
    assert all(r[2].startswith(t[0][:40]) for r, t in zip(listed, theirs, strict=True))
