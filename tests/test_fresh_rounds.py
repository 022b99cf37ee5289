"""Fresh rounds (protocol section 19): when no reserve is left, a committed draw's place is
drawn again from fresh public randomness over the entrants not yet drawn.

The vectors come from tools/make_vectors.py, which draws on its own; the protocol's
reference code (docs/draw-protocol.md) is checked against them, and xlshuffle against both:
the round's pool, seed and entrant drawn, through the library and the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from protocol_references import VECTORS, reference_namespace
from raffle_books import read_csv, run
from xlshuffle.draw.raffle import canonical_id
from xlshuffle.tabledraw.entrants import Entrants
from xlshuffle.tabledraw.pool import Pool
from xlshuffle.tabledraw.raffle_options import DrawOptions

REF = reference_namespace()
CASES = VECTORS["fresh_rounds"]


def _excluded_rows(case: dict[str, Any]) -> list[int]:
    out = {canonical_id(x) for x in case["excluded"]}
    return [i for i, x in enumerate(case["ids"]) if canonical_id(x) in out]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['method']}-{len(c['pool'])}")
def test_the_reference_code_draws_the_vectors_round(case: dict[str, Any]) -> None:
    ids, gone = case["ids"], set(_excluded_rows(case))
    rows = [i for i in range(len(ids)) if i not in gone]
    pool = REF["pool_rows"](ids, rows, case["drawn"])
    assert pool == case["pool"]
    assert REF["pool_digest"](ids, pool) == case["round"]["pool"]["sha256"]
    assert REF["commit_seed"](case["round"], case["reveal"]) == case["seed"]
    weights = case["weights"]
    row = REF["fresh_round"](
        case["round"],
        case["reveal"],
        ids,
        rows,
        case["drawn"],
        weights=weights,
        one_entry_per_id=case["one_entry_per_id"],
        method=case["method"],
    )
    assert row == case["row"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['method']}-{len(c['pool'])}")
def test_xlshuffle_draws_the_vectors_round(case: dict[str, Any]) -> None:
    ids, weights = case["ids"], case["weights"]
    columns: list[list[object]] = [list(ids), [str(w) for w in weights or [1] * len(ids)]]
    ents = Entrants(
        where="vectors",
        labels=["ID", "Tickets"],
        letters=["A", "B"],
        n=len(ids),
        values=lambda j: columns[j],
        cell=lambda i, j: f"vectors: row {i}, column {j}",
        fail=ValueError,
    )
    opts = DrawOptions(
        k=1,
        method=case["method"],
        weights="Tickets" if weights is not None else None,
        id="ID",
        one_entry_per_id=case["one_entry_per_id"],
    )
    pool = Pool(
        ents,
        opts,
        frozenset(_excluded_rows(case)),
        tuple(canonical_id(x) for x in ids),
        tuple(range(len(ids))),
    )
    assert pool.members(case["drawn"]) == case["pool"]
    account = pool.account(case["drawn"])
    assert account == case["round"]["pool"]
    assert pool.draw(case["seed"], case["drawn"]) == case["row"]


TABLE = "Mug,2,1\nBike,1,0\n"
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
TICKETS = [1, 2, 1, 3, 1, 1, 2, 1, 2]
LIST = "ID,Name,Tickets\n" + "".join(
    f"T-{i},{name},{w}\n" for i, (name, w) in enumerate(zip(NAMES, TICKETS, strict=True), 1)
)


@pytest.fixture
def committed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    """A committed draw with a prize table (the Bike has no reserve), T-9 excluded."""
    (tmp_path / "e.csv").write_text(LIST, encoding="utf-8")
    (tmp_path / "prizes.csv").write_text(TABLE, encoding="utf-8")
    (tmp_path / "out.txt").write_text("T-9\n", encoding="utf-8")
    f = {n: tmp_path / n for n in ("e.csv", "c.json", "w.csv", "d.json", "salt.txt")}
    code, _, err = run(
        capsys,
        "commit",
        f["e.csv"],
        "--prizes",
        tmp_path / "prizes.csv",
        "--id",
        "ID",
        "--weights",
        "Tickets",
        "--exclude",
        tmp_path / "out.txt",
        "--beacon",
        "dice at the fair",
        "-o",
        f["c.json"],
    )
    assert code == 0, err
    code, _, err = run(
        capsys,
        "draw",
        f["c.json"],
        f["e.csv"],
        "--reveal",
        "3 1 4",
        "-o",
        f["w.csv"],
        "--record",
        f["d.json"],
    )
    assert code == 0, err
    return f


def _bike_winner(rows: list[list[str]]) -> str:
    return next(r[0] for r in rows[1:] if r[3] == "Bike" and r[5] == "winner")


def test_a_fresh_round_draws_the_place_again_over_the_entrants_not_yet_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], committed: dict[str, Path]
) -> None:
    drawn = read_csv(committed["w.csv"])
    bike = _bike_winner(drawn)
    c2, rec1, out1 = tmp_path / "c2.json", tmp_path / "r1.json", tmp_path / "r1.csv"
    code, said, err = run(
        capsys,
        "redraw",
        committed["d.json"],
        "--replace",
        bike,
        "--reason",
        "declined",
        "--beacon",
        "drand quicknet round 99",
        "--commit",
        c2,
    )
    assert code == 0, err
    body = json.loads(c2.read_text(encoding="utf-8"))["commitment"]
    assert f"publish this commitment hash now: {REF['commit_seed'](body, ['x'])[17:81]}" in said
    # the pool: every entrant but T-9 (excluded) and the four drawn, by the reference code
    ids = [line.split(",")[0] for line in LIST.splitlines()[1:]]
    gone = {r[0] for r in drawn[1:]}
    pool = REF["pool_rows"](ids, range(8), gone)
    assert body["pool"] == {"entrants": len(pool), "sha256": REF["pool_digest"](ids, pool)}
    assert body["replace"] == {"id": bike, "prize": "Bike", "place": 1}
    assert body["previous"]["file"] == "d.json"
    code, said, err = run(
        capsys,
        "redraw",
        committed["d.json"],
        "--commitment",
        c2,
        "--reveal",
        " 0a1b  2c ",
        "-o",
        out1,
        "--record",
        rec1,
    )
    assert code == 0, err
    weights = [line.split(",")[2] for line in LIST.splitlines()[1:]]
    row = REF["fresh_round"](body, ["0a1b 2c"], ids, range(8), gone, weights=weights)
    table = read_csv(out1)
    assert table[-1][:5] == [*LIST.splitlines()[row + 1].split(","), "Bike", "1"]
    assert table[-1][5:] == ["winner", f"replaces {bike} (fresh draw)"]
    assert [r[0] for r in table[1:-1]] == [r[0] for r in drawn[1:]]
    assert f"goes to {ids[row]}, drawn afresh from {len(pool)} entrants" in said
    code, said, err = run(capsys, "verify", rec1, "--input", committed["e.csv"], "--output", out1)
    assert code == 0 and "drawn afresh" in said, err
    # the certificate shows the round's commitment and its revealed value
    cert = tmp_path / "cert.html"
    code, _, err = run(capsys, "certificate", rec1, "-o", cert)
    page = cert.read_text(encoding="utf-8")
    assert code == 0 and json.loads(c2.read_text())["sha256"] in page and "0a1b 2c" in page

    # the fresh winner has no reserve either: a second fresh round follows the first
    c3, rec2 = tmp_path / "c3.json", tmp_path / "r2.json"
    code, _, err = run(
        capsys,
        "redraw",
        rec1,
        "--replace",
        ids[row],
        "--reason",
        "no answer",
        "--beacon",
        "drand quicknet round 100",
        "--commit",
        c3,
    )
    assert code == 0, err
    body3 = json.loads(c3.read_text(encoding="utf-8"))["commitment"]
    assert body3["pool"]["entrants"] == len(pool) - 1
    code, _, err = run(
        capsys, "redraw", rec1, "--commitment", c3, "--reveal", "77", "--record", rec2
    )
    assert code == 0, err
    second = REF["fresh_round"](body3, ["77"], ids, range(8), {*gone, ids[row]}, weights=weights)
    assert json.loads(rec2.read_text())["given_to"]["id"] == ids[second]
    code, _, err = run(capsys, "verify", rec2, "--input", committed["e.csv"])
    assert code == 0, err


def test_a_fresh_round_is_refused_while_a_reserve_is_left_and_for_a_draw_not_committed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], committed: dict[str, Path]
) -> None:
    mug = next(r[0] for r in read_csv(committed["w.csv"])[1:] if r[3] == "Mug")
    code, _, err = run(
        capsys,
        "redraw",
        committed["d.json"],
        "--replace",
        mug,
        "--reason",
        "x",
        "--beacon",
        "b",
        "--commit",
        tmp_path / "c2.json",
    )
    assert code == 2 and "a reserve of 'Mug' is still to be called" in err
    assert not (tmp_path / "c2.json").exists()
    seeded = tmp_path / "seeded.json"
    code, _, err = run(
        capsys,
        "sample",
        committed["e.csv"],
        "--prizes",
        tmp_path / "prizes.csv",
        "--id",
        "ID",
        "--seed",
        "1",
        "--record",
        seeded,
    )
    assert code == 0, err
    bike = json.loads(seeded.read_text(encoding="utf-8"))["target"]["draw"]["winners"][2]
    code, _, err = run(
        capsys,
        "redraw",
        seeded,
        "--replace",
        bike,
        "--reason",
        "x",
        "--beacon",
        "b",
        "--commit",
        tmp_path / "c2.json",
    )
    assert code == 2 and "only in a committed draw" in err


def test_a_fresh_round_that_does_not_hold_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], committed: dict[str, Path]
) -> None:
    bike = _bike_winner(read_csv(committed["w.csv"]))
    c2, rec1 = tmp_path / "c2.json", tmp_path / "r1.json"
    run(
        capsys,
        "redraw",
        committed["d.json"],
        "--replace",
        bike,
        "--reason",
        "declined",
        "--beacon",
        "drand quicknet round 99",
        "--commit",
        c2,
    )
    # the commitment edited after its hash was published
    held = json.loads(c2.read_text(encoding="utf-8"))
    edited = tmp_path / "edited.json"
    held["commitment"]["beacon"] = "another source"
    edited.write_text(json.dumps(held), encoding="utf-8")
    code, _, err = run(
        capsys,
        "redraw",
        committed["d.json"],
        "--commitment",
        edited,
        "--reveal",
        "5",
        "--record",
        rec1,
    )
    assert code == 1 and "edited after it was made" in err
    # another winner named than the one committed to (the draw varies from run to run: a
    # commitment holds the time it was made, so T-1 is the bike's winner now and then)
    other = "T-2" if bike == "T-1" else "T-1"
    code, _, err = run(
        capsys,
        "redraw",
        committed["d.json"],
        "--commitment",
        c2,
        "--reveal",
        "5",
        "--replace",
        other,
        "--record",
        rec1,
    )
    assert code == 2 and "the round's commitment replaces" in err
    code, _, err = run(
        capsys,
        "redraw",
        committed["d.json"],
        "--commitment",
        c2,
        "--reveal",
        "5",
        "--record",
        rec1,
    )
    assert code == 0, err
    # a record whose revealed value, or entrant drawn, was changed afterwards
    record = json.loads(rec1.read_text(encoding="utf-8"))
    for key, value in (("reveal", ["6"]), ("given_to", {**record["given_to"], "id": "T-9"})):
        forged = {**record, "fresh": dict(record["fresh"])}
        if key == "reveal":
            forged["fresh"]["reveal"] = value
        else:
            forged[key] = value
        rec1.write_text(json.dumps(forged), encoding="utf-8")
        code, _, err = run(capsys, "verify", rec1, "--input", committed["e.csv"])
        assert code == 1, (key, err)
