"""Rounds: ``xlshuffle redraw`` gives a winner's place to the next reserve of the prize, in
a record linked to the one before it; ``verify`` checks the chain back to the draw.

The expected table is worked out here from the draw's own output (read with the csv
module): the rules are that simple on purpose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from raffle_books import read_csv, run, save_csv

TABLE = "Mug,2,2\nBike,1,1\n"


@pytest.fixture
def drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, list[list[str]]]:
    src, prizes = save_csv(tmp_path / "e.csv"), tmp_path / "prizes.csv"
    prizes.write_text(TABLE, encoding="utf-8")
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    code, _, err = run(
        capsys,
        "sample",
        src,
        "--prizes",
        prizes,
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
    return src, rec, read_csv(out)


def test_a_round_gives_the_place_to_the_first_reserve_of_the_prize_and_keeps_the_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], drawn: tuple[Path, Path, list[list[str]]]
) -> None:
    src, rec, rows = drawn
    mug = [r for r in rows[1:] if r[-3] == "Mug"]
    first, second = mug[0][0], mug[1][0]
    reserve1 = next(r[0] for r in mug if r[-1] == "reserve")
    out, rec1 = tmp_path / "round1.csv", tmp_path / "round1.json"
    code, said, err = run(
        capsys,
        "redraw",
        rec,
        "--replace",
        second,
        "--reason",
        "did not answer",
        "-o",
        out,
        "--record",
        rec1,
    )
    assert code == 0, err
    assert f"goes to {reserve1}, reserve 1" in said
    table = read_csv(out)
    assert table[0] == [*rows[0][:-3], "Prize", "Place", "Role", "Note"]
    by_id = {r[0]: r for r in table[1:]}
    assert by_id[second][-4:] == ["Mug", "2", "replaced", "did not answer"]
    assert by_id[reserve1][-4:] == ["Mug", "2", "winner", f"replaces {second} (reserve 1)"]
    assert by_id[first][-2:] == ["winner", ""]
    assert [r[0] for r in table[1:]] == [r[0] for r in rows[1:]]  # nothing dropped or moved
    record = json.loads(rec1.read_text(encoding="utf-8"))
    assert record["previous"]["file"] == "r.json" and record["reason"] == "did not answer"
    code, said, err = run(capsys, "verify", rec1, "--input", src, "--output", out)
    assert code == 0 and said.startswith("ok: round 1"), err

    # a second round follows the first: the next reserve of the prize
    reserve2 = [r[0] for r in mug if r[-1] == "reserve"][1]
    out2, rec2 = tmp_path / "round2.csv", tmp_path / "round2.json"
    code, said, err = run(
        capsys,
        "redraw",
        rec1,
        "--replace",
        first,
        "--reason",
        "declined",
        "-o",
        out2,
        "--record",
        rec2,
    )
    assert code == 0 and f"goes to {reserve2}, reserve 2" in said, err
    assert run(capsys, "verify", rec2, "--input", src, "--output", out2)[0] == 0
    # no Mug reserve left
    code, _, err = run(
        capsys,
        "redraw",
        rec2,
        "--replace",
        reserve1,
        "--reason",
        "x",
        "--record",
        tmp_path / "round3.json",
    )
    assert code == 2 and "no reserve of 'Mug' is left" in err


def test_an_edited_round_or_a_changed_earlier_record_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], drawn: tuple[Path, Path, list[list[str]]]
) -> None:
    src, rec, rows = drawn
    winner = rows[1][0]
    rec1 = tmp_path / "round1.json"
    assert (
        run(capsys, "redraw", rec, "--replace", winner, "--reason", "away", "--record", rec1)[0]
        == 0
    )
    data = json.loads(rec1.read_text(encoding="utf-8"))
    other = next(r[0] for r in rows[1:] if r[0] not in (winner, data["given_to"]["id"]))
    data["given_to"]["id"] = other  # a friend instead of the reserve
    rec1.write_text(json.dumps(data), encoding="utf-8")
    code, said, _ = run(capsys, "verify", rec1, "--input", src)
    assert code == 1 and "the rules give it to" in said + _
    data = json.loads(rec.read_text(encoding="utf-8"))
    data["seed"] = "another seed"
    rec.write_text(json.dumps(data), encoding="utf-8")  # the draw's record edited afterwards
    code, said, err = run(capsys, "verify", tmp_path / "round1.json", "--input", src)
    assert code == 1 and "SHA-256 differs" in said + err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--replace", "T99", "--reason", "x"], "no entrant drawn has this ID"),
        (["--replace", "RESERVE", "--reason", "x"], "not a winner"),
        (["--replace", "WINNER", "--reason", " "], "say why"),
    ],
)
def test_a_round_that_cannot_be_is_refused_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    drawn: tuple[Path, Path, list[list[str]]],
    argv: list[str],
    message: str,
) -> None:
    _, rec, rows = drawn
    names = {"RESERVE": next(r[0] for r in rows[1:] if r[-1] == "reserve"), "WINNER": rows[1][0]}
    argv = [names.get(a, a) for a in argv]
    code, _, err = run(capsys, "redraw", rec, *argv, "--record", tmp_path / "r1.json")
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "r1.json").exists()
