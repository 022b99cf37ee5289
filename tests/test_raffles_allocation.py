"""Strata with their own counts: ``--total N`` (shared by the largest-remainder rule) and
``--strata-counts FILE`` (a count per stratum), on CSV lists through ``xlshuffle sample``.

The expected rows come from tools/make_vectors.py, which implements the protocol
(docs/draw-protocol.md section 11) without importing xlshuffle, and the allocations are
worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol_references import MV
from raffle_books import CSV_ROWS, read_csv, run, said, save_csv
from xlshuffle.cli import main

REGIONS = [r[3] for r in CSV_ROWS]  # North 4, South 2, East 2


@pytest.fixture
def src(tmp_path: Path) -> Path:
    return save_csv(tmp_path / "raffle.csv", CSV_ROWS)


def _expected(seed: str, mode: str, value: object) -> list[list[str]]:
    parts = MV.strata(seed, list(REGIONS), mode, value, None)
    return [CSV_ROWS[i] for _, _, rows in parts for i in rows]  # type: ignore[attr-defined]


def test_total_is_shared_by_largest_remainder(capsys, src: Path, tmp_path: Path) -> None:
    # 5 of 8 rows: North 5*4/8 = 2.5, South and East 1.25 each: 2, 1, 1 and one unit
    # left, to the largest remainder (North's 4/8) -> 3, 1, 1
    out, record = tmp_path / "out.csv", tmp_path / "r.json"
    argv = ["sample", src, "--total", "5", "--strata", "Region", "--seed", "t"]
    code, err = said(capsys, *argv, "-o", out, "--record", record)
    assert code == 0, err
    assert read_csv(out)[1:] == _expected("t", "total", 5)
    for line in ("stratum 'North': 3 of 4", "stratum 'South': 1 of 2", "stratum 'East': 1 of 2"):
        assert line in err
    spec = json.loads(record.read_text())["target"]["draw"]
    assert spec["allocation"] == {"total": 5, "rule": "largest remainder"}
    assert [p["k"] for p in spec["parts"]] == [3, 1, 1]
    assert run(capsys, "verify", record, "--input", src, "--output", out)[0] == 0


def test_strata_counts_from_a_table(capsys, src: Path, tmp_path: Path) -> None:
    table = tmp_path / "counts.csv"
    table.write_text("Region,Count\nEast,2\nNorth,1\nSouth,0\n", encoding="utf-8")
    out, record = tmp_path / "out.csv", tmp_path / "r.json"
    argv = ["sample", src, "--strata-counts", table, "--strata", "D", "--seed", "c"]
    code, err = said(capsys, *argv, "-o", out, "--record", record)
    assert code == 0, err
    want = _expected("c", "counts", [("East", 2), ("North", 1), ("South", 0)])
    assert read_csv(out)[1:] == want and len(want) == 3
    assert "stratum 'South': 0 of 2 drawn" in err
    assert run(capsys, "verify", record, "--input", src, "--output", out)[0] == 0
    # the record replays its own counts, not the file's: an edit of the file changes nothing
    table.write_text("East,1\nNorth,1\nSouth,1\n", encoding="utf-8")
    assert run(capsys, "verify", record, "--input", src, "--output", out)[0] == 0


def test_a_stratum_keeps_its_draw_when_its_count_grows(capsys, src: Path, tmp_path: Path) -> None:
    """A stratum's rows are a prefix of one order: 1 of North, then 3 of North."""
    table = tmp_path / "counts.tsv"
    outs = []
    for n in (1, 3):
        table.write_text(f"North\t{n}\nSouth\t1\nEast\t1\n", encoding="utf-8")
        out = tmp_path / f"{n}.csv"
        argv = ["sample", src, "--strata-counts", table, "--strata", "Region", "--seed", "p"]
        assert run(capsys, *argv, "-o", out)[0] == 0
        outs.append(read_csv(out)[1:])
    assert outs[1][:1] == outs[0][:1] and outs[1][3:] == outs[0][1:]


@pytest.mark.parametrize(
    ("extra", "table", "message"),
    [
        (["-k", "1", "--total", "2"], None, "-k and --total/--strata-counts both say how many"),
        (["--total", "2"], None, "add --strata COL"),
        (["--strata", "D", "--total", "9"], None, "--total: cannot draw 9 from 8 rows"),
        (["--strata", "D"], "North,1\nSouth,1\n", "no count for stratum 'East'"),
        (["--strata", "D"], "North,1\nSouth,1\nEast,1\nWest,1\n", "names stratum 'West'"),
        (["--strata", "D"], "North,1\nNorth,2\nEast,1\nSouth,1\n", "listed twice"),
        (["--strata", "D"], "North,1\nSouth,x\n", "line 2 is not 'stratum,count'"),
        (["--strata", "D"], "North,-1\n", "line 1 is not 'stratum,count'"),
        ([], None, "-k K is required"),
    ],
)
def test_refusals_say_how_to_fix(
    capsys, src: Path, tmp_path: Path, extra: list[str], table: str | None, message: str
) -> None:
    argv: list[object] = ["sample", src, "--seed", "x", *extra]
    if table is not None:
        path = tmp_path / "counts.csv"
        path.write_text(table, encoding="utf-8")
        argv += ["--strata-counts", path]
    code, err = said(capsys, *argv, "-o", tmp_path / "out.csv")
    assert code in (1, 2) and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out.csv").exists()


@settings(max_examples=30, deadline=None)
@given(
    labels=st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=12),
    data=st.data(),
)
def test_total_matches_the_independent_generator(
    tmp_path_factory: pytest.TempPathFactory, labels: list[str], data: st.DataObject
) -> None:
    total = data.draw(st.integers(0, len(labels)))
    tmp = tmp_path_factory.mktemp("alloc")
    rows = [[f"E{i}", f"n{i}", "1", label, "1"] for i, label in enumerate(labels)]
    src = save_csv(tmp / "in.csv", rows)
    out = tmp / "out.csv"
    argv = ["sample", str(src), "--total", str(total), "--strata", "Region", "--seed", "h"]
    assert main([*argv, "-o", str(out)]) == 0
    parts = MV.strata("h", list(labels), "total", total, None)
    assert sum(len(p[2]) for p in parts) == total  # type: ignore[arg-type]
    assert read_csv(out)[1:] == [rows[i] for _, _, got in parts for i in got]  # type: ignore[attr-defined]
