"""``sample --strata COL --all-of-small-strata``: a stratum with fewer rows than its count
is taken whole, in the draw order of its own sub-stream (SAS SURVEYSELECT's SELECTALL),
instead of refused (docs/draw-protocol.md section 11).

The expected rows come from section 5's forward Durstenfeld loop written again here and
fed by ``DrawStream(seed).substream(label).randbelow``, and from section 8's linear walk
(never the engine's own deal or stratified draw).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from xlshuffle.cli import main
from xlshuffle.draw.protocol import DrawStream

from support import ROOT

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
)

HEAD = ["ID", "Name", "Tickets", "Region"]
ROWS = [
    ["T1", "Ann", "3", "North"],
    ["T2", "Bo", "1", "South"],
    ["T3", "Cy", "5", "North"],
    ["T4", "Di", "2", "South"],
    ["T5", "Ed", "0", "North"],
    ["T6", "Fay", "4", "East"],
    ["T7", "Gus", "2", "North"],
    ["T8", "Hal", "1", "North"],
]
REGIONS = ["North", "South", "East"]  # in order of first appearance


def write(path: Path, rows: list[list[str]] = ROWS) -> Path:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([HEAD, *rows])
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def drawn(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def durstenfeld(items: list[int], k: int, stream: DrawStream) -> list[int]:
    """Section 5: forward Fisher-Yates, stopped after min(k, n-1) steps."""
    items = list(items)
    for i in range(min(k, len(items) - 1)):
        j = i + stream.randbelow(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


def own_rows(region: str) -> list[int]:
    return [i for i, row in enumerate(ROWS) if row[3] == region]


@pytest.fixture
def src(tmp_path: Path) -> Path:
    return write(tmp_path / "audit.csv")


def test_a_small_stratum_is_refused_naming_the_option(capsys, src) -> None:
    code, out, err = run(capsys, "sample", src, "-k", "3", "--strata", "Region", "--seed", "1")
    assert code == 2 and out == ""
    assert "stratum 'South'" in err
    assert "or add --all-of-small-strata to take every row of a stratum smaller than -k" in err
    assert len(err.strip().splitlines()) == 1


def test_small_strata_are_taken_whole_in_their_draw_order(capsys, src, tmp_path) -> None:
    out, rec = tmp_path / "out.csv", tmp_path / "rec.json"
    argv = ["sample", src, "-k", "3", "--strata", "Region", "--all-of-small-strata"]
    code, printed, err = run(capsys, *argv, "--seed", "audit", "-o", out, "--record", rec)
    assert code == 0, err
    want = []
    for region in REGIONS:
        rows = own_rows(region)
        sub = DrawStream("audit").substream(region)
        want += durstenfeld(rows, min(3, len(rows)), sub)
    assert drawn(out)[1:] == [ROWS[i] for i in want]
    assert "stratum 'South': 2 of 2 drawn" in printed and "stratum 'East': 1 of 1 drawn" in printed
    data = json.loads(rec.read_text())
    spec = data["target"]["draw"]
    assert spec["all_of_small_strata"] is True
    assert [(p["k"], p["drawn"]) for p in spec["parts"]] == [(3, 3), (3, 2), (3, 1)]
    assert list(VALIDATOR.iter_errors(data)) == []
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0
    del spec["all_of_small_strata"]
    rec.write_text(json.dumps(data))
    assert run(capsys, "verify", rec, "--input", src)[0] == 1


def test_a_whole_stratum_is_in_the_order_a_shorter_draw_is_a_prefix_of(capsys, src, tmp_path):
    """The prefix property: South taken whole (-k 5) is in the order -k 1 starts."""
    outs = {}
    for k, extra in (("5", ["--all-of-small-strata"]), ("1", [])):
        out = tmp_path / f"k{k}.csv"
        argv = ["sample", src, "-k", k, "--strata", "Region", *extra, "--seed", "p", "-o", out]
        assert run(capsys, *argv)[0] == 0
        outs[k] = [row for row in drawn(out)[1:] if row[3] == "South"]
    assert len(outs["5"]) == 2 and outs["5"][:1] == outs["1"]


def test_with_tickets_and_reserves(capsys, src, tmp_path) -> None:
    """North has 4 rows with tickets (Ed has none): -k 2 --reserves 3 takes those 4, the
    first 2 winners; South's 2 rows both win."""
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "2", "--reserves", "3", "--strata", "Region", "--weights", "C"]
    code, _, err = run(capsys, *argv, "--all-of-small-strata", "--seed", "t", "-o", out)
    assert code == 0, err
    want = []
    for region in REGIONS:
        rows = own_rows(region)
        ws = [int(ROWS[i][2]) for i in rows]
        n = min(5, sum(w > 0 for w in ws))
        picked = linear_weighted(ws, n, DrawStream("t").substream(region))
        roles = [["winner", str(p + 1)] if p < 2 else ["reserve", str(p - 1)] for p in range(n)]
        want += [ROWS[rows[p]] + role for p, role in zip(picked, roles, strict=True)]
    assert drawn(out)[1:] == want
    assert "Ed" not in {row[1] for row in want}


def linear_weighted(weights: list[int], k: int, stream: DrawStream) -> list[int]:
    """Section 8 as written (the GCD first, then k linear walks)."""
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


def test_systematic_takes_a_small_stratum_whole_in_input_order(capsys, src, tmp_path) -> None:
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "2", "--strata", "Region", "--method", "systematic"]
    code, printed, err = run(capsys, *argv, "--all-of-small-strata", "--seed", "s", "-o", out)
    assert code == 0, err
    east = [row for row in drawn(out)[1:] if row[3] == "East"]
    assert east == [ROWS[5]] and "stratum 'East': 1 of 1 drawn" in printed


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--all-of-small-strata"], "add --strata COL"),
        (
            ["--all-of-small-strata", "--strata", "D", "--method", "mus", "--amount", "C"],
            "--method mus counts cents",
        ),
    ],
)
def test_usage_errors(capsys, src, argv, words) -> None:
    code, out, err = run(capsys, "sample", src, "-k", "2", *argv)
    assert code == 2 and out == "" and words in err and len(err.strip().splitlines()) == 1
