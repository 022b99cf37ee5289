"""Raffles and audits on workbooks: the same rows as the same table saved as CSV, for every
kind, and the rows the protocol's own reference code (docs/draw-protocol.md) draws.

The workbook's outputs are read back with openpyxl and the csv module, not with
xlshuffle; the expected rows of the reference tests come from the reference blocks of
the protocol document, run as they are (``protocol_references.reference_namespace``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from raffle_books import (
    HEAD,
    ROWS,
    read_csv,
    run,
    save_book,
    save_csv,
    sha,
    sheet_rows,
    text,
    with_formula_tickets,
)

from support import ROOT

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
)
REF = reference_namespace()

KINDS = {
    "weighted": ["-k", 3, "--weights", "Tickets"],
    "weighted-reserves-by-letter": ["-k", 2, "--reserves", 2, "--weights", "C"],
    "reserves": ["-k", 2, "--reserves", 3],
    "strata-weighted-reserves": ["-k", 1, "--reserves", 1, "--strata", "Region", "--weights", "C"],
    "strata-random": ["-k", 2, "--strata", "D"],
    "systematic": ["-k", 3, "--method", "systematic"],
    "systematic-strata": ["-k", 1, "--method", "systematic", "--strata", "Region"],
    "mus": ["-k", 5, "--method", "mus", "--amount", "Amount"],
    "mus-strata": ["-k", 2, "--method", "mus", "--amount", "E", "--strata", "Region"],
    "cell-top": ["-k", 5, "--method", "cell", "--amount", "Amount", "--top-stratum", "interval"],
    "id-winners": ["-k", 3, "--id", "ID", "--weights", "Tickets"],
    "exclude-text": ["-k", 3, "--id", "A", "--exclude", "{ids}"],
    "exclude-record": ["-k", 2, "--weights", "Tickets", "--id", "ID", "--exclude", "{record}"],
    "strata-total": ["--total", 5, "--strata", "Region", "--weights", "Tickets"],
    "strata-counts": ["--strata-counts", "{counts}", "--strata", "D", "--reserves", 1],
    "systematic-total": ["--total", 4, "--method", "systematic", "--strata", "Region"],
    "one-entry-per-id": ["-k", 3, "--id", "ID", "--one-entry-per-id", "--weights", "Tickets"],
    "all-of-small-strata": ["-k", 3, "--reserves", 1, "--strata", "D", "--all-of-small-strata"],
}


@pytest.fixture
def files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    """The workbook, the same table as CSV, an ID list and an earlier draw's record."""
    book = save_book(tmp_path / "raffle.xlsx")
    ids = tmp_path / "ids.txt"
    ids.write_text("T3\n  T6 \n\nnobody\n", encoding="utf-8")
    record = tmp_path / "april.json"
    code, _, _ = run(
        capsys, "sample", book, "-k", 2, "--id", "ID", "--seed", "april", "--record", record
    )
    assert code == 0 and json.loads(record.read_text())["target"]["draw"]["winners"]
    counts = tmp_path / "counts.csv"
    counts.write_text("Region,Count\nNorth,2\nSouth,1\nEast,0\n", encoding="utf-8")
    return {
        "book": book,
        "list": save_csv(tmp_path / "raffle.csv"),
        "ids": ids,
        "record": record,
        "counts": counts,
    }


def _argv(kind: str, files: dict[str, Path]) -> list[object]:
    return [str(a).format(**files) for a in KINDS[kind]]


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_workbook_draws_what_the_same_table_as_csv_draws(
    kind: str, files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, before = files["book"], sha(files["book"])
    argv = [*_argv(kind, files), "--seed", f"May {kind}"]
    out = {name: tmp_path / name for name in ("w.csv", "w.xlsx", "l.csv")}
    recs = {name: tmp_path / f"{name}.json" for name in out}
    for src, name in ((book, "w.csv"), (book, "w.xlsx"), (files["list"], "l.csv")):
        code, _, err = run(capsys, "sample", src, *argv, "-o", out[name], "--record", recs[name])
        assert code == 0, err
    want = read_csv(out["l.csv"])
    assert read_csv(out["w.csv"]) == want
    assert sheet_rows(out["w.xlsx"]) == want  # read back by openpyxl, not by xlshuffle
    assert len(want) > 1 and want[0][:5] == HEAD
    records = [json.loads(recs[name].read_text()) for name in out]
    for rec in records:
        VALIDATOR.validate(rec)
    assert records[0]["permutation"] == records[1]["permutation"] == records[2]["permutation"]
    assert records[0]["target"]["draw"] == records[1]["target"]["draw"]
    assert records[1]["target"]["draw"] == records[2]["target"]["draw"]
    assert records[1]["target"]["kind"] == "sheet" and records[2]["target"]["kind"] == "list"
    assert [[text(v) for v in ROWS[p]] for p in records[1]["permutation"]] == [
        row[:5] for row in want[1:]
    ]
    assert sha(book) == before  # the input is never written
    for name in ("w.xlsx", "w.csv"):
        code, said, err = run(capsys, "verify", recs[name], "--input", book, "--output", out[name])
        assert (code, err) == (0, "") and said.startswith("ok: sample of")


def test_an_exclusion_leaves_out_the_listed_ids(files: dict[str, Path], tmp_path: Path, capsys):
    out = tmp_path / "o.csv"
    argv = ["sample", files["book"], *_argv("exclude-text", files), "--seed", "x", "-o", out]
    assert run(capsys, *argv)[0] == 0
    got = [row[0] for row in read_csv(out)[1:]]
    assert len(got) == 3 and not {"T3", "T6"} & set(got)
    april = json.loads(files["record"].read_text())["target"]["draw"]["winners"]
    argv = ["sample", files["book"], *_argv("exclude-record", files), "--seed", "x", "-o", out]
    assert run(capsys, *argv)[0] == 0
    assert not set(april) & {row[0] for row in read_csv(out)[1:]}


# ------------------------------------------------------------ the protocol's reference code


def _regions() -> dict[str, list[int]]:
    """The rows of each stratum, strata in order of first appearance."""
    out: dict[str, list[int]] = {}
    for i, row in enumerate(ROWS):
        out.setdefault(str(row[3]), []).append(i)
    return out


def test_strata_tickets_and_reserves_are_the_reference_draw(tmp_path: Path, capsys) -> None:
    book = save_book(tmp_path / "b.xlsx")
    seed, k, reserves = "2026 spring raffle", 1, 2
    out = tmp_path / "o.xlsx"
    argv = ["-k", k, "--reserves", reserves, "--strata", "Region", "--weights", "Tickets"]
    assert run(capsys, "sample", book, *argv, "--seed", seed, "-o", out)[0] == 0
    want = [[*HEAD, "Role", "Rank"]]
    for label, own in _regions().items():
        tickets = [int(float(ROWS[i][2]) * 10) for i in own]  # 2.5 tickets: tenths
        drawn = REF["weighted"](tickets, k + reserves, REF["stream"](seed, label))
        for n, p in enumerate(drawn):
            role = ["winner", n + 1] if n < k else ["reserve", n - k + 1]
            want.append([text(v) for v in [*ROWS[own[p]], *role]])
    assert sheet_rows(out) == want


def test_monetary_units_are_the_reference_selection(tmp_path: Path, capsys) -> None:
    book = save_book(tmp_path / "b.xlsx")
    seed, k = "audit 2026", 7
    out = tmp_path / "o.csv"
    argv = ["--method", "mus", "--amount", "Amount", "-k", k, "--seed", seed, "-o", out]
    assert run(capsys, "sample", book, *argv)[0] == 0
    cents = [round(float(str(row[4])) * 100) for row in ROWS]
    hits = REF["audit"](cents, k, REF["stream"](seed))
    want = [[*HEAD, "Hits"], *([text(v) for v in [*ROWS[i], hits[i]]] for i in sorted(hits))]
    assert read_csv(out) == want
    assert sum(int(row[-1]) for row in want[1:]) == k


def test_systematic_strata_are_the_reference_selection(tmp_path: Path, capsys) -> None:
    book = save_book(tmp_path / "b.xlsx")
    out = tmp_path / "o.csv"
    argv = ["--method", "systematic", "--strata", "D", "-k", 2, "--seed", "s", "-o", out]
    assert run(capsys, "sample", book, *argv)[0] == 0
    want = [HEAD]
    for label, own in _regions().items():
        picked = REF["audit"]([1] * len(own), 2, REF["stream"]("s", label))
        want += [[text(v) for v in ROWS[own[i]]] for i in sorted(picked)]
    assert read_csv(out) == want


# ------------------------------------------------------------------ what a workbook holds


def test_cached_formula_values_are_the_tickets(tmp_path: Path, capsys) -> None:
    plain = save_book(tmp_path / "plain.xlsx")
    formulas = with_formula_tickets(save_book(tmp_path / "formulas.xlsx"))
    outs = []
    for src in (plain, formulas):
        out = tmp_path / f"{src.stem}-out.xlsx"
        argv = ["-k", 3, "--reserves", 1, "--weights", "Tickets", "--seed", "f", "-o", out]
        assert run(capsys, "sample", src, *argv)[0] == 0
        outs.append(sheet_rows(out))
    assert outs[0] == outs[1]  # the formulas' cached values, written as values


def test_a_selection_names_columns_by_the_workbooks_letters(tmp_path: Path, capsys) -> None:
    """Data in B:F: ``--weights D`` is the Tickets column, as the sheet's letters say."""
    book = save_book(tmp_path / "b.xlsx", left=2)
    lst = save_csv(tmp_path / "b.csv")
    outs = []
    for src, col in ((book, "D"), (lst, "C")):
        out = tmp_path / f"{src.suffix[1:]}-out.csv"
        argv = ["-k", 3, "--weights", col, "--strata", "Region", "--seed", "L", "-o", out]
        assert run(capsys, "sample", src, *argv)[0] == 0
        outs.append(read_csv(out))
    assert outs[0] == outs[1]


def test_blank_rows_kept_in_place_are_no_entrants(tmp_path: Path, capsys) -> None:
    rows = [*ROWS[:3], [None] * 5, *ROWS[3:7], [None] * 5, *ROWS[7:]]
    book = save_book(tmp_path / "b.xlsx", rows)
    lst = save_csv(tmp_path / "b.csv")  # the same rows without the blank ones
    record = tmp_path / "r.json"
    every = ["--method", "systematic", "-k", len(ROWS)]  # selects every entrant
    argv = ["--keep-blank-rows", *every, "--seed", "b", "-o", tmp_path / "all.csv"]
    assert run(capsys, "sample", book, *argv)[0] == 0
    assert read_csv(tmp_path / "all.csv")[1:] == [[text(v) for v in row] for row in ROWS]
    outs = []
    for src, extra in ((book, ["--keep-blank-rows", "--record", record]), (lst, [])):
        out = tmp_path / f"{src.suffix[1:]}-out.csv"
        argv = ["-k", 3, "--weights", "C", "--id", "A", "--exclude", tmp_path / "x.txt"]
        (tmp_path / "x.txt").write_text("T2\nT9\n", encoding="utf-8")
        assert run(capsys, "sample", src, *argv, *extra, "--seed", "b", "-o", out)[0] == 0
        outs.append(read_csv(out))
    assert outs[0] == outs[1]
    rec = json.loads(record.read_text())
    # data rows, blank ones counted: T2 is data row 1, T9 data row 10 (after two blanks)
    assert rec["target"]["draw"]["exclusion"]["rows"] == [1, 10]
    assert [rows[1][0], rows[10][0]] == ["T2", "T9"]
    assert [rows[p][0] for p in rec["permutation"]] == [row[0] for row in outs[0][1:]]
    code, _, err = run(
        capsys, "verify", record, "--input", book, "--output", tmp_path / "xlsx-out.csv"
    )
    assert (code, err) == (0, "")


def test_a_bad_ticket_is_named_by_its_sheet_and_cell(tmp_path: Path, capsys) -> None:
    rows = [list(r) for r in ROWS]
    rows[5][2] = "lots"  # data row 6 is sheet row 7
    for title, where in (("Tickets", "Tickets!C7"), ("May draw", "'May draw'!C7")):
        book = save_book(tmp_path / "b.xlsx", rows, title=title)
        out = tmp_path / "o.xlsx"
        code, said, err = run(
            capsys, "sample", book, "-k", 2, "--weights", "Tickets", "--seed", 1, "-o", out
        )
        assert code == 1 and said == "" and not out.exists()
        assert err.startswith(f"Error: {book}: {where}: the weight 'lots' is not a number: ")
        assert err.count("\n") == 1 and "Traceback" not in err


def test_the_python_api_takes_total_and_strata_counts(tmp_path: Path) -> None:
    from xlshuffle import OptionError
    from xlshuffle.workbook import sample_workbook

    book = save_book(tmp_path / "raffle.xlsx")
    by_total = sample_workbook(book, total=4, strata="Region", seed="t").record
    # North 4, South 3, East 3 of 10: 1.6, 1.2, 1.2 -> 1, 1, 1 and one unit to North (0.6)
    assert [p["k"] for p in by_total.target["draw"]["parts"]] == [2, 1, 1]
    by_counts = sample_workbook(
        book, strata_counts={"North": 2, "South": 1, "East": 1}, strata="Region", seed="t"
    ).record
    assert by_counts.permutation == by_total.permutation
    assert by_counts.target["draw"]["allocation"] == {
        "counts": [["North", 2], ["South", 1], ["East", 1]]
    }
    with pytest.raises(OptionError, match="not both"):
        sample_workbook(book, k=1, total=4, strata="Region", seed="t")
    with pytest.raises(OptionError, match="k is required"):
        sample_workbook(book, seed="t")
