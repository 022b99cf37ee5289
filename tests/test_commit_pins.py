"""A committed draw covers every file it reads: the side files are pinned (section 17).

The attack these tests replay: after the public value is revealed, the organiser edits a
file the committed draw reads beside the list (the exclusion list, the strata counts) so
that someone else wins. Before side files were pinned, ``draw`` read the edited file,
``verify`` said ok, and the page said "the draw is the committed one". Expected values are
computed here on their own: the exclusion digest by section 10's words, the hashes with
hashlib, the winners by the reference code of docs/draw-protocol.md.
"""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from xlshuffle.cli import main

REF = reference_namespace()
NAMES = ["Ann", "Bo", "Cy", "Dee", "Ed", "Fay", "Gus", "Hal"]
BEACON = "drand quicknet round 9000000"
REVEAL = "ab12cd34"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def raffle(tmp_path: Path) -> Path:
    path = tmp_path / "raffle.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        rows = [[name, "North" if i % 2 else "South"] for i, name in enumerate(NAMES)]
        csv.writer(fh, lineterminator="\n").writerows([["Name", "Area"], *rows])
    return path


def commit(capsys: pytest.CaptureFixture[str], src: Path, *options: object) -> Path:
    out = src.parent / "commitment.json"
    code, _, err = run(capsys, "commit", src, *options, "--beacon", BEACON, "-o", out)
    assert (code, err) == (0, ""), err
    return out


def exclusion_digest(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(set(ids))).encode("utf-8")).hexdigest()


def test_an_exclusion_list_edited_after_the_reveal_is_refused(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    april = tmp_path / "april.txt"
    april.write_text("Bo\n", encoding="utf-8")
    commitment = commit(capsys, raffle, "-k", 2, "--id", "Name", "--exclude", april)
    body = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]
    assert body["inputs"] == [
        {
            "option": "--exclude",
            "file": "april.txt",
            "sha256": hashlib.sha256(b"Bo\n").hexdigest(),
            "holds": {"ids": 1, "digest": exclusion_digest(["Bo"])},
        }
    ]
    assert body["draw"]["request"]["sample"]["draw"]["exclude"] == "april.txt"
    # the value is revealed: the organiser sees who wins, and excludes them
    seed = REF["commit_seed"](body, [REVEAL])
    remaining = [n for n in NAMES if n != "Bo"]
    first = remaining[REF["deal"](range(len(remaining)), 2, seed)[0]]
    april.write_text(f"Bo\n{first}\n", encoding="utf-8")
    record = tmp_path / "draw.json"
    argv = ["draw", commitment, raffle, "--reveal", REVEAL, "--record", record]
    code, _, err = run(capsys, *argv, "-o", tmp_path / "w.csv")
    assert code == 1 and err.count("\n") == 1, err
    assert "april.txt: not the file the commitment pinned for --exclude" in err
    assert not record.exists() and not (tmp_path / "w.csv").exists()
    # the file as committed draws, and the record verifies
    april.write_text("Bo\n", encoding="utf-8")
    assert run(capsys, *argv, "-o", tmp_path / "w.csv")[0] == 0
    with (tmp_path / "w.csv").open(newline="", encoding="utf-8") as fh:
        drawn = [row[0] for row in list(csv.reader(fh))[1:]]
    assert drawn == [remaining[i] for i in REF["deal"](range(len(remaining)), 2, seed)]
    code, out, err = run(capsys, "verify", record, "--input", raffle)
    assert code == 0, err
    assert "the committed draw gives the recorded result" in out
    # edited again after the draw: verify (finding it beside the record) refuses it too
    april.write_text(f"Bo\n{first}\n", encoding="utf-8")
    code, _, err = run(capsys, "verify", record, "--input", raffle)
    assert code == 1 and "april.txt: not the file the commitment pinned" in err


def test_a_record_of_another_exclusion_is_not_the_committed_draw(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record alone shows what the draw took from each side file: a record of the
    same seed with another exclusion, passed off with the commitment, is refused without
    the files (as the browser verifier refuses it)."""
    april = tmp_path / "april.txt"
    april.write_text("Bo\n", encoding="utf-8")
    commitment = commit(capsys, raffle, "-k", 2, "--id", "Name", "--exclude", april)
    body = json.loads(commitment.read_text(encoding="utf-8"))
    good = tmp_path / "good.json"
    argv = ["draw", commitment, raffle, "--reveal", REVEAL, "-o", tmp_path / "w.csv"]
    assert run(capsys, *argv, "--record", good)[0] == 0
    honest = json.loads(good.read_text(encoding="utf-8"))
    rigged_list = tmp_path / "rigged.txt"
    rigged_list.write_text("Bo\nCy\nDee\n", encoding="utf-8")
    forged = tmp_path / "forged.json"
    plain = ["sample", raffle, "-k", 2, "--id", "Name", "--exclude", rigged_list]
    assert (
        run(capsys, *plain, "--seed", honest["seed"], "--record", forged, "-o", tmp_path / "f.csv")[
            0
        ]
        == 0
    )
    spliced = json.loads(forged.read_text(encoding="utf-8"))
    spliced |= {"commitment": honest["commitment"], "reveal": honest["reveal"]}
    forged.write_text(json.dumps(spliced), encoding="utf-8")
    code, _, err = run(capsys, "verify", forged)
    assert code == 1 and err.count("\n") == 1, err
    assert "not the committed draw: --exclude april.txt: the draw took ids 3" in err
    assert body["sha256"] == honest["commitment"]["sha256"]


def test_strata_counts_edited_after_the_reveal_change_nothing(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The counts are in the commitment itself (and their file pinned): moving a count
    between strata in the file after the reveal does not move the draw, and a record of
    a draw with other counts is not the committed one."""
    counts = tmp_path / "counts.csv"
    counts.write_text("North,1\nSouth,2\n", encoding="utf-8")
    commitment = commit(capsys, raffle, "--strata", "Area", "--strata-counts", counts)
    body = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]
    (pin,) = body["inputs"]
    assert pin["holds"] == {"counts": [["North", 1], ["South", 2]]}
    assert body["draw"]["request"]["sample"]["draw"]["counts"] == [["North", 1], ["South", 2]]
    counts.write_text("North,2\nSouth,1\n", encoding="utf-8")
    record = tmp_path / "r.json"
    argv = ["draw", commitment, raffle, "--reveal", REVEAL, "--record", record]
    assert run(capsys, *argv, "-o", tmp_path / "w.csv")[0] == 0
    drawn = json.loads(record.read_text(encoding="utf-8"))
    assert drawn["target"]["draw"]["allocation"] == {"counts": [["North", 1], ["South", 2]]}
    assert [p["drawn"] for p in drawn["target"]["draw"]["parts"]] == [2, 1]  # South first
    assert run(capsys, "verify", record, "--input", raffle)[0] == 0
    # a draw with the edited counts and the commitment's seed, passed off as committed
    forged = tmp_path / "forged.json"
    plain = ["sample", raffle, "--strata", "Area", "--strata-counts", counts]
    plain += ["--seed", drawn["seed"], "--record", forged, "-o", tmp_path / "f.csv"]
    assert run(capsys, *plain)[0] == 0
    spliced = json.loads(forged.read_text(encoding="utf-8"))
    spliced |= {"commitment": drawn["commitment"], "reveal": drawn["reveal"]}
    forged.write_text(json.dumps(spliced), encoding="utf-8")
    code, _, err = run(capsys, "verify", forged)
    assert code == 1 and "not the committed draw: --strata-counts counts.csv" in err


def test_a_commitment_of_version_1_still_draws_with_a_notice(
    raffle: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A commitment written before side files were pinned: its options' texts are the
    draw, and a notice says that the files they name were not pinned."""
    april = tmp_path / "april.txt"
    april.write_text("Bo\n", encoding="utf-8")
    rows = [["Name", "Area"], *([n, "North" if i % 2 else "South"] for i, n in enumerate(NAMES))]
    body = {
        "commitment_version": 1,
        "protocol": "xlshuffle/draw/v1",
        "draw": {
            "command": "sample",
            "options": ["-k", "2", "--id", "Name", "--exclude", "april.txt"],
        },
        "list": {
            "file": "raffle.csv",
            "sheet": None,
            "selection": "rows 1-9",
            "header": True,
            "rows": len(NAMES),
            "sha256": REF["list_digest"](rows),
        },
        "beacon": BEACON,
        "entrants": None,
        "tool_version": "0.1.0",
        "time_utc": "2026-11-01T10:00:00Z",
    }
    digest = hashlib.sha256(REF["canonical_json"](body)).hexdigest()
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"commitment": body, "sha256": digest}), encoding="utf-8")
    record = tmp_path / "r.json"
    monkeypatch.chdir(tmp_path)  # version 1 named the file as given, read from here
    argv = ["draw", old, raffle, "--reveal", REVEAL, "--record", record, "-o", "w.csv"]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert "is a commitment of version 1, which did not pin the files its options name" in err
    seed = REF["commit_seed"](body, [REVEAL])
    assert json.loads(record.read_text(encoding="utf-8"))["seed"] == seed


def test_a_pinned_file_kept_elsewhere_is_named_and_still_checked(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    april = tmp_path / "april.txt"
    april.write_text("Bo\n", encoding="utf-8")
    commitment = commit(capsys, raffle, "-k", 2, "--id", "Name", "--exclude", april)
    kept = tmp_path / "archive"
    kept.mkdir()
    april.rename(kept / "april.txt")
    argv = ["draw", commitment, raffle, "--reveal", REVEAL, "--record", tmp_path / "r.json"]
    code, _, err = run(capsys, *argv)
    assert code == 1 and "put it there, or name it with --exclude PATH" in err
    (kept / "other.txt").write_text("Bo\nCy\n", encoding="utf-8")
    code, _, err = run(capsys, *argv, "--exclude", kept / "other.txt")
    assert code == 1 and "other.txt: not the file the commitment pinned for --exclude" in err
    code, _, err = run(capsys, *argv, "--exclude", kept / "april.txt")
    assert code == 0, err
    # the same under the draw's own name
    argv = ["sample", raffle, "--commitment", commitment, "--reveal", REVEAL]
    code, _, err = run(
        capsys, *argv, "--record", tmp_path / "r2.json", "--exclude", kept / "april.txt"
    )
    assert code == 0, err


def test_an_earlier_split_to_avoid_edited_after_the_reveal_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "class.csv"
    src.write_text("Name,Year\n" + "".join(f"P{i},{7 + i % 2}\n" for i in range(8)), "utf-8")
    first, first_record = tmp_path / "first.csv", tmp_path / "first.json"
    argv = ["groups", src, "-k", 2, "--seed", "term 1", "-o", first, "--record", first_record]
    assert run(capsys, *argv)[0] == 0
    commitment = commit(capsys, src, "--draw", "groups", "-k", 2, "--avoid", first_record)
    body = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]
    (pin,) = body["inputs"]
    assert pin["option"] == "--avoid" and pin["file"] == "first.json"
    assert pin["sha256"] == hashlib.sha256(first_record.read_bytes()).hexdigest()
    # the earlier split swapped for another after the reveal
    other = tmp_path / "other.json"
    argv = ["groups", src, "-k", 2, "--seed", "term 0", "-o", tmp_path / "o.csv"]
    assert run(capsys, *argv, "--record", other)[0] == 0
    other.replace(first_record)
    argv = ["draw", commitment, src, "--reveal", REVEAL, "--record", tmp_path / "r.json"]
    code, _, err = run(capsys, *argv, "-o", tmp_path / "teams.csv")
    assert code == 1 and "first.json: not the file the commitment pinned for --avoid" in err


def test_verify_without_the_exclusion_list_checks_all_it_can_and_says_what_it_did_not(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    april = tmp_path / "april.txt"
    april.write_text("Bo\n", encoding="utf-8")
    commitment = commit(capsys, raffle, "-k", 2, "--id", "Name", "--exclude", april)
    record, out = tmp_path / "r.json", tmp_path / "w.csv"
    argv = ["draw", commitment, raffle, "--reveal", REVEAL, "--record", record, "-o", out]
    assert run(capsys, *argv)[0] == 0
    april.unlink()
    code, text, err = run(capsys, "verify", record, "--input", raffle, "--output", out)
    assert code == 0, err
    assert "raffle.csv is the committed list" in text
    assert "the committed draw was not run again: it reads --exclude april.txt" in text
    assert "drawn again; input and output checked" in text
    # the list is still checked: one entrant swapped
    swapped = tmp_path / "swapped.csv"
    swapped.write_text(raffle.read_text(encoding="utf-8").replace("Cy,", "Cyd,"), "utf-8")
    code, _, err = run(capsys, "verify", record, "--input", swapped)
    assert code == 1 and "not the committed list" in err
