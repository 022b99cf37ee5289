"""One entrant per ID: the same ID on two rows is refused under ``--id`` (it would win
twice), unless ``--one-entry-per-id`` makes a person's rows one entrant whose tickets
are added up (docs/draw-protocol.md section 10).

The expected rows come from the protocol's rules written again here: the grouping by ID
with plain dicts, the tickets summed with ``fractions.Fraction``, and the weighted draw of
section 8 as a linear walk fed by ``DrawStream.randbelow`` (never the engine's code).
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from math import gcd, lcm
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raffle_books import save_book, sheet_rows
from xlshuffle.cli import main
from xlshuffle.draw.protocol import DrawStream

from support import ROOT

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
)

HEAD = ["ID", "Name", "Tickets", "Region"]
#: one row per purchase: Ann bought three times, Cy twice
ROWS = [
    ["A1", "Ann", "1", "North"],
    ["B2", "Bo", "2", "South"],
    ["A1", "Ann", "0.5", "North"],
    ["C3", "Cy", "1", "North"],
    ["D4", "Di", "3", "South"],
    [" A1", "Ann", "2", "North"],
    ["C3", "Cy", "1.5", "North"],
    ["E5", "Ed", "1", "South"],
]


def write(path: Path, rows: list[list[str]], head: list[str] = HEAD) -> Path:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([head, *rows])
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def drawn(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


# --------------------------------------------------------------------- the oracle


def entrants(rows: list[list[str]], weights: bool) -> tuple[list[int], list[Fraction]]:
    """Section 10's rule written again: each distinct ID (spaces around ignored) is one
    entrant at its first row; its tickets are its rows' count, or their weights' sum."""
    first: dict[str, int] = {}
    tickets: dict[str, Fraction] = {}
    for i, row in enumerate(rows):
        key = row[0].strip()
        first.setdefault(key, i)
        tickets[key] = tickets.get(key, Fraction(0)) + (Fraction(row[2]) if weights else 1)
    keys = sorted(first, key=first.__getitem__)
    return [first[k] for k in keys], [tickets[k] for k in keys]


def linear_weighted(tickets: list[Fraction], k: int, stream: DrawStream) -> list[int]:
    """Section 8: whole numbers (scaled by a common denominator), reduced by their GCD,
    then k times a linear walk of the ranges."""
    scale = lcm(*(t.denominator for t in tickets))
    ws = [int(t * scale) for t in tickets]
    g = gcd(*ws) or 1
    ws = [w // g for w in ws]
    out = []
    for _ in range(k):
        r = stream.randbelow(sum(ws))
        i = 0
        while r >= ws[i]:
            r -= ws[i]
            i += 1
        out.append(i)
        ws[i] = 0
    return out


def expected(rows: list[list[str]], k: int, seed: str, weights: bool) -> list[list[str]]:
    firsts, tickets = entrants(rows, weights)
    return [rows[firsts[p]] for p in linear_weighted(tickets, k, DrawStream(seed))]


# --------------------------------------------------------------------- duplicates refused


def test_the_same_id_on_two_rows_is_refused_naming_it_and_its_rows(capsys, tmp_path) -> None:
    src = write(tmp_path / "buys.csv", ROWS)
    code, out, err = run(capsys, "sample", src, "-k", "2", "--id", "ID", "--seed", "1")
    assert code == 1 and out == ""
    assert err.startswith(f"Error: {src}: --id ID: the ID 'A1' is on 3 rows (cell A2, cell A4, ")
    assert "--one-entry-per-id" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_same_id_in_a_workbook_is_named_by_its_cells(capsys, tmp_path) -> None:
    rows: list[list[object]] = [["T1", "Ann", 1], ["T2", "Bo", 2], ["T3", "Cy", 1], [2, "Di", 1]]
    rows[2][0] = 2.0  # the number 2 and the number 2 (a float) are one ID, "2"
    book = save_book(tmp_path / "t.xlsx", rows, head=["ID", "Name", "Tickets"], left=2)
    code, _, err = run(capsys, "sample", book, "-k", "1", "--id", "ID", "--weights", "Tickets")
    assert code == 1
    assert "the ID '2' is on 2 rows (Tickets!B4, Tickets!B5)" in err, err


def test_blank_ids_and_draws_without_id_are_not_refused(capsys, tmp_path) -> None:
    rows = [["", "x", "1", "N"], ["", "y", "1", "N"], ["Z", "z", "1", "N"]]
    src = write(tmp_path / "blank.csv", rows)
    assert run(capsys, "sample", src, "-k", "2", "--id", "ID", "--seed", "b")[0] == 0
    src = write(tmp_path / "buys.csv", ROWS)
    assert run(capsys, "sample", src, "-k", "2", "--weights", "C", "--seed", "b")[0] == 0


# --------------------------------------------------------------------- one entry per ID


@pytest.mark.parametrize("weights", [False, True])
def test_one_entry_per_id_draws_by_the_rows_or_tickets_added_up(capsys, tmp_path, weights) -> None:
    src = write(tmp_path / "buys.csv", ROWS)
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "3", "--id", "ID", "--one-entry-per-id", "--seed", "per id"]
    argv += ["--weights", "Tickets"] if weights else []
    code, printed, err = run(capsys, *argv, "-o", out)
    assert code == 0, err
    assert drawn(out) == [HEAD, *expected(ROWS, 3, "per id", weights)]
    assert "all rows: 3 of 5 drawn (weighted)" in printed  # 5 entrants, from 8 rows


def test_one_entry_per_id_known_answer(capsys, tmp_path) -> None:
    """Pinned: Ann (3 rows; 3.5 tickets), Bo (2), Cy (2 rows; 2.5), Di (3), Ed (1); seed
    "per id", all five drawn. Worked out with the oracle above, kept as literals so that
    a change of the oracle cannot move them."""
    by_rows = [row[1] for row in expected(ROWS, 5, "per id", weights=False)]
    by_tickets = [row[1] for row in expected(ROWS, 5, "per id", weights=True)]
    assert entrants(ROWS, True) == (
        [0, 1, 3, 4, 7],
        [Fraction(7, 2), Fraction(2), Fraction(5, 2), Fraction(3), Fraction(1)],
    )
    assert by_rows == KNOWN_BY_ROWS
    assert by_tickets == KNOWN_BY_TICKETS
    src = write(tmp_path / "buys.csv", ROWS)
    for extra, known in (([], KNOWN_BY_ROWS), (["--weights", "Tickets"], KNOWN_BY_TICKETS)):
        out = tmp_path / "out.csv"
        argv = ["sample", src, "-k", "5", "--id", "ID", "--one-entry-per-id", *extra]
        assert run(capsys, *argv, "--seed", "per id", "-o", out)[0] == 0
        assert [row[1] for row in drawn(out)[1:]] == known


KNOWN_BY_ROWS = ["Ann", "Cy", "Ed", "Bo", "Di"]
KNOWN_BY_TICKETS = ["Bo", "Di", "Ann", "Cy", "Ed"]


def test_one_entry_per_id_records_and_verifies(capsys, tmp_path) -> None:
    src = write(tmp_path / "buys.csv", ROWS)
    out, rec = tmp_path / "out.csv", tmp_path / "rec.json"
    argv = ["sample", src, "-k", "2", "--reserves", "1", "--id", "ID", "--one-entry-per-id"]
    argv += ["--weights", "C", "--seed", "v", "-o", out, "--record", rec]
    assert run(capsys, *argv)[0] == 0
    data = json.loads(rec.read_text())
    spec = data["target"]["draw"]
    assert spec["one_entry_per_id"] is True and spec["method"] == "weighted"
    assert spec["parts"][0]["size"] == 5
    assert list(VALIDATOR.iter_errors(data)) == []
    want = expected(ROWS, 3, "v", weights=True)
    assert data["permutation"] == [ROWS.index(row) for row in want]
    assert spec["winners"] == [row[0].strip() for row in want[:2]]
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0
    del spec["one_entry_per_id"]
    rec.write_text(json.dumps(data))
    assert run(capsys, "verify", rec, "--input", src)[0] == 1


def test_one_entry_per_id_in_a_workbook_draws_the_same_rows(capsys, tmp_path) -> None:
    rows: list[list[object]] = [[r[0], r[1], float(r[2]), r[3]] for r in ROWS]
    book = save_book(tmp_path / "buys.xlsx", rows, head=HEAD)
    out = tmp_path / "out.xlsx"
    argv = ["sample", book, "-k", "4", "--id", "ID", "--one-entry-per-id", "--weights", "C"]
    assert run(capsys, *argv, "--seed", "w", "-o", out)[0] == 0
    got = sheet_rows(out)
    assert [row[:2] for row in got[1:]] == [row[:2] for row in expected(ROWS, 4, "w", True)]


def test_one_entry_per_id_with_exclusions_and_strata(capsys, tmp_path) -> None:
    """Excluded IDs leave all their rows out; each stratum groups its own rows."""
    src = write(tmp_path / "buys.csv", ROWS)
    staff = tmp_path / "staff.txt"
    staff.write_text("D4\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "1", "--id", "ID", "--one-entry-per-id", "--strata", "Region"]
    argv += ["--exclude", staff, "--seed", "s", "-o", out]
    code, printed, err = run(capsys, *argv)
    assert code == 0, err
    want = []
    for region in ("North", "South"):
        own = [r for r in ROWS if r[3] == region and r[0] != "D4"]
        firsts, tickets = entrants(own, False)
        picked = linear_weighted(tickets, 1, DrawStream("s").substream(region))
        want += [own[firsts[p]] for p in picked]
    assert drawn(out)[1:] == want
    assert "stratum 'North': 1 of 2 drawn" in printed and "stratum 'South': 1 of 2 drawn" in printed


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--one-entry-per-id"], "--one-entry-per-id needs --id COL"),
        (
            ["--one-entry-per-id", "--id", "ID", "--method", "systematic"],
            "--one-entry-per-id is for a raffle",
        ),
    ],
)
def test_one_entry_per_id_usage_errors(capsys, tmp_path, argv, words) -> None:
    src = write(tmp_path / "buys.csv", ROWS)
    code, out, err = run(capsys, "sample", src, "-k", "2", *argv)
    assert code == 2 and out == "" and words in err and len(err.strip().splitlines()) == 1


def test_one_entry_per_id_refuses_a_blank_id_and_an_id_in_two_strata(capsys, tmp_path) -> None:
    rows = [list(r) for r in ROWS]
    rows[4][0] = " "
    src = write(tmp_path / "blank.csv", rows)
    code, _, err = run(capsys, "sample", src, "-k", "2", "--id", "ID", "--one-entry-per-id")
    assert code == 1 and f"{src}: cell A6: the ID is blank" in err
    rows = [list(r) for r in ROWS]
    rows[5][3] = "South"  # Ann's third row
    src = write(tmp_path / "two.csv", rows)
    argv = ["sample", src, "-k", "1", "--id", "ID", "--one-entry-per-id", "--strata", "D"]
    code, _, err = run(capsys, *argv)
    assert code == 1 and "'A1'" in err and "cell D2" in err and "cell D7" in err, err
    assert len(err.strip().splitlines()) == 1


purchases = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c", "d", "e"]), st.sampled_from(["0", "1", "2", "0.5"])),
    min_size=1,
    max_size=10,
)


@settings(max_examples=40, deadline=None)
@given(purchases, st.integers(0, 4), st.booleans(), st.text("xy", min_size=1, max_size=2))
def test_one_entry_per_id_follows_the_rule(rows, k, weights, seed) -> None:
    import tempfile

    table = [[who, f"n{i}", tickets, "R"] for i, (who, tickets) in enumerate(rows)]
    firsts, tickets = entrants(table, weights)
    with tempfile.TemporaryDirectory() as folder:
        src = write(Path(folder) / "p.csv", table)
        out = Path(folder) / "o.csv"
        argv = ["sample", src, "-k", k, "--id", "ID", "--one-entry-per-id", "--seed", seed]
        argv += ["--weights", "C"] if weights else []
        code = main([str(a) for a in [*argv, "-o", out]])
        if k > sum(t > 0 for t in tickets):
            assert code == 2
            return
        assert code == 0
        assert drawn(out)[1:] == [
            table[firsts[p]] for p in linear_weighted(tickets, k, DrawStream(seed))
        ]


def test_a_committed_draw_keeps_the_rule_and_reads_the_exclusion_by_its_column(
    capsys, tmp_path
) -> None:
    """A commitment pins what the draw read from a CSV given to --exclude (the IDs of its
    --id column), and its canonical request says one_entry_per_id; a rule not asked for
    is absent, so the request of a draw without it is what it always was."""
    import hashlib

    src = write(tmp_path / "buys.csv", ROWS)
    may = tmp_path / "may.csv"
    may.write_text("Name,ID\nBo,B2\n", encoding="utf-8")
    commitment = tmp_path / "commitment.json"
    argv = ["commit", src, "-k", "2", "--id", "ID", "--one-entry-per-id", "--exclude", may]
    code, _, err = run(capsys, *argv, "--beacon", "drand round 1", "-o", commitment)
    assert code == 0, err
    body = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]
    digest = hashlib.sha256(b"B2").hexdigest()
    assert body["inputs"][0]["holds"] == {"ids": 1, "digest": digest}
    draw = body["draw"]["request"]["sample"]["draw"]
    assert draw["one_entry_per_id"] is True and "all_of_small_strata" not in draw
    record, out = tmp_path / "draw.json", tmp_path / "w.csv"
    argv = ["draw", commitment, src, "--reveal", "ab12", "--record", record, "-o", out]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert "B2" not in {row[0] for row in drawn(out)[1:]}
    assert run(capsys, "verify", record, "--input", src)[0] == 0


def test_sample_workbook_takes_the_rules_as_keywords(tmp_path) -> None:
    from xlshuffle.workbook import sample_workbook

    rows: list[list[object]] = [[r[0], r[1], float(r[2]), r[3]] for r in ROWS]
    book = save_book(tmp_path / "buys.xlsx", rows, head=HEAD)
    got = sample_workbook(book, k=2, id="ID", one_entry_per_id=True, seed="api")
    assert [row[1] for row in got.table[1:]] == [r[1] for r in expected(ROWS, 2, "api", False)]
    assert got.record.target["draw"]["one_entry_per_id"] is True
    got = sample_workbook(book, k=3, strata="Region", all_of_small_strata=True, seed="api")
    assert got.record.target["draw"]["all_of_small_strata"] is True
