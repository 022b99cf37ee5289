"""``xlshuffle groups --balance`` on CSV/TSV lists, and ``verify`` of its record.

The expected teams come from the reference code of docs/draw-protocol.md (section 16),
which tests/test_vectors_teams.py checks against tools/make_vectors.py's vectors.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from xlshuffle.cli import main

REF = reference_namespace()
ROWS = [
    ("Ann", "F", "1"),
    ("Bo", "M", "2"),
    ("Cy", "M", "1"),
    ("Dee", "F", "3"),
    ("Ed", "M", "3"),
    ("Fay", "F", "2"),
    ("Gus", "M", "1"),
    ("Hal", "M", "2"),
    ("Ida", "F", "1"),
    ("Jo", "F", "3"),
]


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def src(tmp_path: Path) -> Path:
    path = tmp_path / "class.csv"
    text = "Name,Gender,Level\r\n" + "".join(",".join(r) + "\r\n" for r in ROWS)
    path.write_bytes(text.encode("utf-8"))
    return path


def read(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def test_balanced_teams_written_recorded_and_verified(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, rec = tmp_path / "teams.csv", tmp_path / "teams.json"
    argv = [src, "-k", "3", "--balance", "Gender", "--balance", "C", "--seed", "class 4B"]
    assert run("groups", *argv, "-o", out, "--record", rec) == 0
    want = REF["balanced_teams"]([[g, lv] for _, g, lv in ROWS], 3, "class 4B")
    table = read(out)
    assert table[0] == ["Name", "Gender", "Level", "Group"]
    assert [row[:3] for row in table[1:]] == [list(r) for r in ROWS]  # records stay put
    assert [int(row[3]) for row in table[1:]] == want
    assert out.read_bytes().endswith(b"\r\n")
    shown = capsys.readouterr().out
    assert "Team  Size  Gender=F  Gender=M  Level=1  Level=2  Level=3" in shown
    record = json.loads(rec.read_text(encoding="utf-8"))
    balance = record["target"]["balance"]
    assert [c["column"] for c in balance["columns"]] == ["Gender", "C"]
    assert [t["size"] for t in balance["teams"]] == [Counter(want)[t] for t in (1, 2, 3)]
    assert run("verify", rec, "--input", src, "--output", out) == 0
    assert "3 teams balanced by Gender, C" in capsys.readouterr().out
    table[1][3] = str(want[0] % 3 + 1)  # Ann moved to another team
    with open(out, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows(table)
    assert run("verify", rec, "--input", src, "--output", out) == 1
    assert "not the teams this draw wrote: first difference on line 2" in capsys.readouterr().err


def test_size_gives_k_and_plain_groups_unchanged(src: Path, tmp_path: Path) -> None:
    plain, balanced = tmp_path / "plain.csv", tmp_path / "balanced.csv"
    assert run("groups", src, "--size", "4", "--seed", "7", "-o", plain) == 0
    assert (
        run("groups", src, "--size", "4", "--balance", "Gender", "--seed", "7", "-o", balanced) == 0
    )
    from xlshuffle import groups

    assert [int(r[3]) for r in read(plain)[1:]] == groups(10, 3, seed=7)  # as before
    teams = [int(r[3]) for r in read(balanced)[1:]]
    assert teams == REF["balanced_teams"]([[g] for _, g, _ in ROWS], 3, 7)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--balance", "Nope"], "--balance Nope: no such column"),
        (["--balance", "Gender", "--balance", "B"], "names one column twice"),
        (["--balance", "Gender", "--label", "Level"], "Level"),
    ],
)
def test_refusals_are_usage_errors(
    src: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    assert run("groups", src, "-k", "2", "--seed", "1", "-o", tmp_path / "o.csv", *extra) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_verify_needs_the_input(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = tmp_path / "r.json"
    argv = [src, "-k", "2", "--balance", "Gender", "--seed", "1", "-o", tmp_path / "o.csv"]
    assert run("groups", *argv, "--record", rec) == 0
    assert run("verify", rec) == 2
    assert "give --input IN" in capsys.readouterr().err


def test_record_validates_against_the_schema(src: Path, tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from support import ROOT

    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    rec = tmp_path / "r.json"
    argv = [src, "-k", "2", "--balance", "Gender", "--balance", "Level", "--seed", "s"]
    assert run("groups", *argv, "-o", tmp_path / "o.csv", "--record", rec) == 0
    data = json.loads(rec.read_text(encoding="utf-8"))
    assert data["target"]["balance"]["names"] == ["Gender", "Level"]
    jsonschema.Draft202012Validator(schema).validate(data)
    data["target"]["balance"]["teams"][0]["size"] = -1
    assert not jsonschema.Draft202012Validator(schema).is_valid(data)


def test_the_worked_example_of_batch_md_is_what_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from support import ROOT

    doc = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    part = doc[doc.index("## Balanced teams") : doc.index("## Per-person orders")]
    block = part[part.index("$ cat class.csv\n") : part.index("$ xlshuffle groups")]
    (tmp_path / "class.csv").write_text(block.split("\n", 1)[1], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    argv = ["class.csv", "-k", "3", "--balance", "Gender", "--balance", "Level", "--seed"]
    assert run("groups", *argv, "class 4B", "-o", "teams.csv", "--record", "teams.json") == 0
    assert capsys.readouterr().out in part
    assert "$ cat teams.csv\n" + (tmp_path / "teams.csv").read_text(encoding="utf-8") in part


def test_avoid_an_earlier_output_or_plain_record(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xlshuffle.draw.teams import repeats

    first, rec1 = tmp_path / "r1.csv", tmp_path / "r1.json"
    assert run("groups", src, "-k", "3", "--seed", "r1", "-o", first, "--record", rec1) == 0
    before = [int(r[3]) for r in read(first)[1:]]
    for avoid in (first, rec1):
        out, rec = tmp_path / "r2.csv", tmp_path / "r2.json"
        argv = [src, "-k", "3", "--balance", "Gender", "--avoid", avoid, "--seed", "r2"]
        assert run("groups", *argv, "-o", out, "--record", rec, "--overwrite") == 0
        teams = [int(r[3]) for r in read(out)[1:]]
        want = REF["balanced_teams"]([[g] for _, g, _ in ROWS], 3, "r2", before)
        assert teams == want
        again = repeats(before, teams)
        assert f"pairs together again from {avoid}: {again}" in capsys.readouterr().out
        assert json.loads(rec.read_text(encoding="utf-8"))["target"]["balance"]["avoid"] == {
            "file": str(avoid),
            "before": before,
            "repeats": again,
        }
        assert run("verify", rec, "--input", src, "--output", out) == 0
        assert f"avoiding {avoid}" in capsys.readouterr().out


def test_avoid_refuses_another_list(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.csv"
    other.write_text("Name,Gender,Level,Group\nAnn,F,1,1\n", encoding="utf-8")
    argv = [src, "-k", "2", "--avoid", other, "--seed", "1", "-o", tmp_path / "o.csv"]
    assert run("groups", *argv) == 1
    assert "give the output of a groups draw of this list" in capsys.readouterr().err


def test_the_avoid_example_of_batch_md_is_what_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from support import ROOT

    doc = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    part = doc[doc.index("## Balanced teams") : doc.index("## Per-person orders")]
    block = part[part.index("$ cat class.csv\n") : part.index("$ xlshuffle groups")]
    (tmp_path / "class.csv").write_text(block.split("\n", 1)[1], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    argv = ["class.csv", "-k", "3", "--balance", "Gender", "--balance", "Level", "--seed"]
    assert run("groups", *argv, "class 4B", "-o", "teams.csv") == 0
    capsys.readouterr()
    argv = ["class.csv", "-k", "3", "--balance", "Gender", "--avoid", "teams.csv", "--seed"]
    assert run("groups", *argv, "round 2", "-o", "round2.csv") == 0
    assert capsys.readouterr().out in part


def test_avoid_a_balanced_draws_record(src: Path, tmp_path: Path) -> None:
    first, out = tmp_path / "week1.json", tmp_path / "week2.csv"
    argv = [src, "-k", "3", "--balance", "Gender"]
    assert run("groups", *argv, "--seed", 1, "-o", tmp_path / "w1.csv", "--record", first) == 0
    assert run("groups", *argv, "--seed", 2, "--avoid", first, "-o", out) == 0
    labels = [[g] for _, g, _ in ROWS]
    before = REF["balanced_teams"](labels, 3, 1)
    assert [int(r[3]) for r in read(out)[1:]] == REF["balanced_teams"](labels, 3, 2, before)
