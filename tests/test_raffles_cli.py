"""Raffles and audits on CSV lists through ``xlshuffle sample``: known answers, refusals,
records that validate and verify, and the properties the protocol promises.

The expected rows are computed here from the protocol's rules (docs/draw-protocol.md
sections 8-12) with tiny independent implementations fed by ``DrawStream.randbelow``, or
from the core's ``stratified_sample``: never by the command line's own code.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raffle_books import CSV_ROWS, HEAD, read_csv, run, said, save_csv
from xlshuffle.cli import main
from xlshuffle.draw.knuth import deal
from xlshuffle.draw.protocol import DrawStream
from xlshuffle.draw.strata import stratified_sample

from support import ROOT

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

# --------------------------------------------------------------------- independent rules


def linear_weighted(weights: list[int], k: int, stream: DrawStream) -> list[int]:
    """Section 8 as written: reduce by the GCD, then k times a linear walk of the ranges."""
    from math import gcd

    g = gcd(*weights) or 1
    ws = [w // g for w in weights]
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


def fixed_interval(amounts: list[int], k: int, stream: DrawStream) -> list[tuple[int, int]]:
    """Section 12: hits (s + j*N) // k; each selects the item holding it (item, hits)."""
    total = sum(amounts)
    s = stream.randbelow(total)
    hits: dict[int, int] = {}
    for j in range(k):
        u, c = (s + j * total) // k, 0
        for i, a in enumerate(amounts):
            if c <= u < c + a:
                hits[i] = hits.get(i, 0) + 1
                break
            c += a
    return sorted(hits.items())


# --------------------------------------------------------------------- known answers


@pytest.fixture
def src(tmp_path: Path) -> Path:
    return save_csv(tmp_path / "raffle.csv", CSV_ROWS)


def test_weights_reserves_known_answer(capsys, src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    code, err = said(
        capsys,
        "sample",
        src,
        "-k",
        "2",
        "--reserves",
        "2",
        "--weights",
        "Tickets",
        "--seed",
        "may",
        "-o",
        out,
    )
    assert code == 0, err
    tickets = [30, 10, 50, 20, 0, 40, 25, 10]  # 2.5 tickets: all scaled by 10
    want = linear_weighted(tickets, 4, DrawStream("may"))
    roles = [["winner", "1"], ["winner", "2"], ["reserve", "1"], ["reserve", "2"]]
    assert read_csv(out) == [[*HEAD, "Role", "Rank"]] + [
        CSV_ROWS[i] + role for i, role in zip(want, roles, strict=True)
    ]
    assert "4 of 8 rows drawn" in err and "(weighted)" in err


def test_weights_by_column_letter_and_prefix_property(capsys, src: Path, tmp_path: Path) -> None:
    """The first 3 of -k 8 are the draw of -k 3 (so reserves never change the winners)."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert run(capsys, "sample", src, "-k", "3", "--weights", "C", "--seed", "p", "-o", a)[0] == 0
    assert run(capsys, "sample", src, "-k", "7", "--weights", "c", "--seed", "p", "-o", b)[0] == 0
    assert read_csv(b)[:4] == read_csv(a)
    assert "Ed" not in {row[1] for row in read_csv(b)}  # 0 tickets never wins


def test_exclude_a_text_file_of_ids(capsys, src: Path, tmp_path: Path) -> None:
    ids = tmp_path / "staff.txt"
    ids.write_text("\ufeff T2\n\nT5 \nnobody\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "3", "--exclude", ids, "--id", "ID", "--seed", "x", "-o", out]
    assert run(capsys, *argv)[0] == 0
    kept = [0, 2, 3, 5, 6, 7]
    assert read_csv(out)[1:] == [CSV_ROWS[i] for i in deal(kept, 3, seed="x")]


def test_exclude_last_months_record(capsys, src: Path, tmp_path: Path) -> None:
    """A record drawn with --id lists its winners (not its reserves); the next draw
    excludes them, and the new record says what was excluded."""
    may, june = tmp_path / "may.json", tmp_path / "june.json"
    argv = ["sample", src, "-k", "2", "--reserves", "1", "--id", "ID", "--seed", "m"]
    assert run(capsys, *argv, "--record", may)[0] == 0
    winners = json.loads(may.read_text())["target"]["draw"]["winners"]
    assert winners == [CSV_ROWS[i][0] for i in deal(range(8), 2, seed="m")]
    out = tmp_path / "june.csv"
    argv = ["sample", src, "-k", "6", "--exclude", may, "--id", "A", "--seed", "j"]
    code, err = said(capsys, *argv, "-o", out, "--record", june)
    assert code == 0, err
    assert not {row[0] for row in read_csv(out)[1:]} & set(winners)
    exclusion = json.loads(june.read_text())["target"]["draw"]["exclusion"]
    from xlshuffle.draw.raffle import exclusion_digest

    assert exclusion["digest"] == exclusion_digest(winners) and exclusion["ids"] == 2
    assert "excluded: 2 rows whose A is among 2 IDs" in err


def test_strata_known_answer_and_terminal(capsys, src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    code, err = said(
        capsys, "sample", src, "-k", "1", "--strata", "Region", "--seed", "s", "-o", out
    )
    assert code == 0, err
    want = stratified_sample([r[3] for r in CSV_ROWS], k=1, seed="s")
    assert read_csv(out)[1:] == [CSV_ROWS[i] for s in want for i in s.drawn]
    for line in (
        "stratum 'North': 1 of 4 drawn",
        "stratum 'South': 1 of 2 drawn",
        "stratum 'East': 1 of 2 drawn",
    ):
        assert line in err


def test_strata_are_independent(capsys, tmp_path: Path) -> None:
    """Rows added to one stratum leave another stratum's winners as they were."""
    more = CSV_ROWS + [[f"N{i}", f"New{i}", "1", "North", "1"] for i in range(9)]
    a = save_csv(tmp_path / "a.csv", CSV_ROWS)
    b = save_csv(tmp_path / "b.csv", more[:3] + more[8:] + more[3:8])  # and in another place
    outs = []
    for src in (a, b):
        out = tmp_path / f"{src.stem}.out.csv"
        argv = ["sample", src, "-k", "2", "--strata", "D", "--weights", "C", "--seed", "i"]
        assert run(capsys, *argv, "-o", out)[0] == 0
        outs.append([row for row in read_csv(out)[1:] if row[3] != "North"])
    assert outs[0] == outs[1] and len(outs[0]) == 4


def test_systematic_known_answer(capsys, src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "3", "--method", "systematic", "--seed", "a", "-o", out]
    assert run(capsys, *argv)[0] == 0
    items = [i for i, _ in fixed_interval([1] * 8, 3, DrawStream("a"))]
    assert read_csv(out)[1:] == [CSV_ROWS[i] for i in items]


def test_monetary_unit_known_answer(capsys, src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "4", "--method", "mus", "--amount", "Amount", "--seed", "a"]
    code, err = said(capsys, *argv, "-o", out)
    assert code == 0, err
    cents = [12050, 1500, 90000, 3310, 0, 41000, 125000, 7525]
    want = fixed_interval(cents, 4, DrawStream("a"))
    assert read_csv(out) == [[*HEAD, "Hits"]] + [CSV_ROWS[i] + [str(h)] for i, h in want]
    assert f"interval {sum(cents)}/4" in err  # 70096.25 cents, shown exactly


# --------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("value", "reason"),
    [("-2", "cannot be negative"), ("lots", "is not a number"), ("", "is blank")],
)
def test_a_bad_weight_is_named_by_its_cell(capsys, tmp_path: Path, value: str, reason: str) -> None:
    rows = [list(r) for r in CSV_ROWS]
    rows[5][2] = value  # data row 6 is line 7 of the file: cell C7
    src = save_csv(tmp_path / "raffle.csv", rows)
    code, out, err = run(capsys, "sample", src, "-k", "2", "--weights", "Tickets", "--seed", "1")
    assert code == 1 and out == ""
    assert err.startswith(f"Error: {src}: cell C7: ") and reason in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--weights", "Tikets"], "--weights Tikets: no such column"),
        (["--strata", "Z"], "--strata Z: no such column"),
        (["--weights", "Tickets", "-k", "8"], "only 7 entrants have tickets"),
        (["-k", "7", "--reserves", "2"], "cannot draw 7 + 2 reserves from 8 rows"),
        (["--strata", "Region", "-k", "3"], "stratum 'South'"),
        (["--method", "mus"], "--method mus needs --amount COL"),
        (["--amount", "E"], "--amount is read by --method mus or cell only"),
        (["--method", "systematic", "--weights", "C"], "--weights is for a raffle"),
        (["--method", "mus", "--amount", "E", "--reserves", "1"], "--reserves is for a raffle"),
        (["--exclude", "x.txt"], "--exclude needs --id COL"),
        (["--reserves", "-1"], "--reserves must be 0 or more"),
        (["--method", "lottery"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, src: Path, argv: list[str], words: str) -> None:
    full = ["sample", src, "--seed", "r", *argv]
    if "-k" not in argv:
        full += ["-k", "2"]
    code, out, err = run(capsys, *full)
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1, err


def test_a_record_without_winner_ids_cannot_be_excluded(capsys, src, tmp_path) -> None:
    rec = tmp_path / "r.json"
    assert run(capsys, "sample", src, "-k", "2", "--seed", "1", "--record", rec)[0] == 0
    code, _, err = run(capsys, "sample", src, "-k", "2", "--exclude", rec, "--id", "ID")
    assert code == 2 and "names no winners by ID" in err


# --------------------------------------------------------------------- records and verify

KINDS = [
    ["--weights", "Tickets", "--reserves", "1"],
    ["--id", "ID", "--reserves", "2"],
    ["--strata", "Region", "--weights", "C", "-k", "1"],
    ["--method", "systematic", "--strata", "D", "-k", "1"],
    ["--method", "mus", "--amount", "Amount", "--id", "ID"],
    ["--exclude", "STAFF", "--id", "ID", "--weights", "C"],
]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: "_".join(k[:2]))
@pytest.mark.parametrize("to_stdout", [False, True])
def test_records_validate_and_verify(capsys, src, tmp_path, kind, to_stdout) -> None:
    staff = tmp_path / "staff.txt"
    staff.write_text("T3\n", encoding="utf-8")
    kind = [str(staff) if a == "STAFF" else a for a in kind]
    out, rec = tmp_path / "out.csv", tmp_path / "rec.json"
    argv = ["sample", src, "--seed", "v", "--record", rec, *kind]
    argv += [] if "-k" in kind else ["-k", "2"]
    code, printed, err = run(capsys, *argv, *([] if to_stdout else ["-o", out]))
    assert code == 0, err
    if to_stdout:
        out.write_text(printed, encoding="utf-8", newline="")
    data = json.loads(rec.read_text())
    assert list(VALIDATOR.iter_errors(data)) == []
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace(",", ",x", 1)  # one cell of the first drawn row
    out.write_text("".join(lines), encoding="utf-8", newline="")
    code, _, err = run(capsys, "verify", rec, "--input", src, "--output", out)
    assert code == 1 and "line 2" in err


def test_verify_refuses_an_edited_record_and_needs_the_input(capsys, src, tmp_path) -> None:
    rec = tmp_path / "rec.json"
    argv = ["sample", src, "-k", "2", "--weights", "C", "--seed", "v", "--record", rec]
    assert run(capsys, *argv)[0] == 0
    code, _, err = run(capsys, "verify", rec)
    assert code == 2 and "give --input IN" in err
    data = json.loads(rec.read_text())
    data["target"]["draw"]["weights"] = {"column": "Amount", "index": 4}
    rec.write_text(json.dumps(data))
    assert run(capsys, "verify", rec, "--input", src)[0] == 1


# --------------------------------------------------------------------- properties

entrant_rows = st.lists(
    st.tuples(st.integers(0, 6), st.sampled_from("ABC"), st.booleans()), min_size=1, max_size=12
)


@given(entrant_rows, st.integers(0, 5), st.text("abc", min_size=1, max_size=3))
def test_weighted_draws_follow_the_rule_and_never_pick_the_excluded(rows, k, seed) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        table = [[f"id{i}", "x", str(w), s, "1"] for i, (w, s, _) in enumerate(rows)]
        src = save_csv(Path(folder) / "p.csv", table)
        ids = Path(folder) / "ex.txt"
        banned = {f"id{i}" for i, (_, _, out) in enumerate(rows) if out}
        ids.write_text("\n".join(sorted(banned)) + "\n", encoding="utf-8")
        out = Path(folder) / "o.csv"
        argv = ["sample", src, "-k", k, "--weights", "C", "--exclude", ids, "--id", "A"]
        code = main([str(a) for a in [*argv, "--seed", seed, "-o", out]])
        kept = [i for i, (_, _, gone) in enumerate(rows) if not gone]
        weights = [rows[i][0] for i in kept]
        if k > sum(w > 0 for w in weights):
            assert code == 2
            return
        assert code == 0
        want = [kept[p] for p in linear_weighted(weights, k, DrawStream(seed))] if k else []
        got = [row[0] for row in read_csv(out)[1:]]
        assert got == [f"id{i}" for i in want]
        assert not set(got) & banned


def test_plain_sample_records_no_draw(capsys, src: Path, tmp_path: Path) -> None:
    rec = tmp_path / "r.json"
    code, out, _ = run(capsys, "sample", src, "-k", "3", "--seed", "p", "--record", rec)
    assert code == 0 and "draw" not in json.loads(rec.read_text())["target"]
    got = list(csv.reader(io.StringIO(out, newline="")))[1:]
    assert got == [CSV_ROWS[i] for i in deal(range(8), 3, seed="p")]
