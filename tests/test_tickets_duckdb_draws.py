"""The DuckDB engine draws every option of a ticket draw as the list engine does.

Exclusions, one entry per ID, small strata taken whole, ``--total`` and
``--strata-counts``, prize tables and Rivest's order: on a CSV list both engines read,
``--engine duckdb`` must write the list engine's output byte for byte and its record field
for field, each ``verify`` must accept it, and the winners must be those of the protocol's
reference code (``docs/draw-protocol.md``) and, for Rivest's order, of
``consistent_sampler`` itself.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from consistent_sampler import sampler

from protocol_references import reference_namespace
from raffle_books import read_csv, run, save_csv
from schema_check import errors
from ticket_tables import HEAD, PURCHASES, ROWS
from xlshuffle.lists.raffle import verify_draw_csv

VOLATILE = {"time_utc", "output", "tool_version"}

SIDE = {
    "ex.csv": "ID\nA-001\n B-1\nnobody\na-002\nA-017\n",
    "counts.csv": "Region,Count\nNorth,4\nSouth,0\nEast,2\n",
    "prizes.csv": "prize,count,reserves\nBike,1,1\nMug,3,0\nPen,2,2\n",
}

# (table, options): every option beyond -k/--rate, --reserves, --weights and --strata
DRAWS: dict[str, tuple[list[list[object]], tuple[object, ...]]] = {
    "exclude": (ROWS, ("-k", 5, "--exclude", "ex.csv")),
    "exclude, strata, reserves": (
        ROWS,
        ("-k", 2, "--reserves", 1, "--strata", "Region", "--exclude", "ex.csv"),
    ),
    "exclude, rate": (ROWS, ("--rate", "0.4", "--exclude", "ex.csv")),
    # a seed that draws no row of one stratum's group (its list of drawn rows is NULL)
    "exclude, rate, strata, a group drawn from not at all": (
        ROWS,
        ("--rate", "0.3", "--strata", "Region", "--exclude", "ex.csv", "--seed", "s140"),
    ),
    "small strata whole": (
        ROWS,
        ("-k", 14, "--reserves", 2, "--strata", "Region", "--all-of-small-strata"),
    ),
    "small strata, weights": (
        ROWS,
        (
            "-k",
            12,
            "--strata",
            "Region",
            "--all-of-small-strata",
            "--weights",
            "Weight",
            "--weight-scale",
            10,
        ),
    ),
    "total": (ROWS, ("--total", 7, "--strata", "Region")),
    "total, exclude, reserves": (
        ROWS,
        ("--total", 8, "--strata", "Region", "--exclude", "ex.csv", "--reserves", 1),
    ),
    "strata counts": (
        ROWS,
        ("--strata-counts", "counts.csv", "--strata", "Region", "--reserves", 1),
    ),
    "prizes": (ROWS, ("--prizes", "prizes.csv")),
    "prizes, weights": (
        ROWS,
        ("--prizes", "prizes.csv", "--weights", "Weight", "--weight-scale", 2),
    ),
    "one entry per ID": (PURCHASES, ("-k", 4, "--reserves", 2, "--one-entry-per-id")),
    "one entry per ID, weights, strata": (
        PURCHASES,
        (
            "-k",
            1,
            "--one-entry-per-id",
            "--weights",
            "Weight",
            "--weight-scale",
            2,
            "--strata",
            "Region",
        ),
    ),
    "one entry per ID, rate, exclude": (
        PURCHASES,
        ("--rate", "0.5", "--one-entry-per-id", "--exclude", "ex.csv"),
    ),
}
RIVEST: dict[str, tuple[object, ...]] = {
    "rivest": ("-k", 6, "--reserves", 2),
    "rivest, strata, exclude": ("-k", 2, "--strata", "Region", "--exclude", "ex.csv"),
    "rivest, every entrant": ("--rate", "1"),
    "rivest, prizes": ("--prizes", "prizes.csv"),
}


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the side files are named as in the docs


def _files(tmp_path: Path, rows: list[list[object]]) -> Path:
    for name, text in SIDE.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return save_csv(tmp_path / "entrants.csv", rows, head=HEAD)


def _draw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, method: str, *args: object
) -> dict[str, Any]:
    code, _, err = run(
        capsys,
        "sample",
        tmp_path / "entrants.csv",
        "--method",
        method,
        "--id",
        "ID",
        "--seed",
        "2026",
        *args,
        "-o",
        tmp_path / f"{name}.csv",
        "--record",
        tmp_path / f"{name}.json",
    )
    assert code == 0, err
    return dict(json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")))


def _both(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    method: str,
    args: tuple[object, ...],
) -> dict[str, Any]:
    """Draw with each engine; the same output and record; each verify accepts DuckDB's."""
    memory = _draw(capsys, tmp_path, "m", method, *args)
    ours = _draw(capsys, tmp_path, "d", method, *args, "--engine", "duckdb")
    src, out = tmp_path / "entrants.csv", tmp_path / "d.csv"
    assert out.read_bytes() == (tmp_path / "m.csv").read_bytes()
    assert errors(ours) == []  # docs/record.schema.json
    assert ours["target"].pop("engine") == "duckdb"
    assert {k: v for k, v in ours.items() if k not in VOLATILE} == {
        k: v for k, v in memory.items() if k not in VOLATILE
    }
    ours["target"]["engine"] = "duckdb"
    exclude = ["--exclude", tmp_path / "ex.csv"] if "ex.csv" in args else []
    code, said, err = run(capsys, "verify", tmp_path / "d.json", "--input", src, "--output", out)
    assert code == 0, err
    if exclude:  # and against the exclusion list itself
        code, said, err = run(
            capsys, "verify", tmp_path / "d.json", "--input", src, "--output", out, *exclude
        )
        assert code == 0 and "exactly the IDs" in said, err
    verify_draw_csv(ours, src, out)  # the list engine replays DuckDB's record too
    return ours


@pytest.mark.parametrize("name", list(DRAWS))
def test_duckdb_draws_what_the_list_engine_draws(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, args = DRAWS[name]
    _files(tmp_path, rows)
    _both(capsys, tmp_path, "ticket", args)


def _canonical(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip()


@pytest.mark.parametrize("name", list(RIVEST))
def test_rivest_on_duckdb_is_consistent_samplers_order(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _files(tmp_path, ROWS)
    record = _both(capsys, tmp_path, "rivest", RIVEST[name])
    ids = [_canonical(r[0]) for r in read_csv(src)[1:]]  # as section 10 reads an ID
    gone = {"A-001", "B-1", "A-017"} if "--exclude" in RIVEST[name] else set()
    kept = [i for i in ids if i not in gone]
    order = list(sampler(kept, seed="2026", output="id"))
    drawn = [_canonical(r[0]) for r in read_csv(tmp_path / "d.csv")[1:]]
    if "--strata" in RIVEST[name]:
        region = {_canonical(r[0]): r[2] for r in read_csv(src)[1:]}
        for stratum in ("North", "South", "East"):
            mine = [i for i in drawn if region[i] == stratum]
            assert mine == [i for i in order if region[i] == stratum][: len(mine)]
    else:
        assert drawn == order[: len(drawn)]
    assert record["target"]["draw"]["method"] == "rivest"


def test_winners_are_the_reference_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An independent path: the protocol's reference code, on the IDs left after the
    exclusion, and on each ID's summed tickets with one entry per ID."""
    ref = reference_namespace()
    _files(tmp_path, ROWS)
    _draw(capsys, tmp_path, "x", "ticket", "-k", 5, "--exclude", "ex.csv", "--engine", "duckdb")
    gone = {"A-001", "B-1", "A-017"}
    kept = [r[0] for r in ROWS if str(r[0]).strip() not in gone]
    want = [kept[i] for i in ref["ticket_draw"]("2026", kept, k=5)]
    assert [r[0] for r in read_csv(tmp_path / "x.csv")[1:]] == want

    _files(tmp_path, PURCHASES)
    _draw(capsys, tmp_path, "g", "ticket", "-k", 3, "--one-entry-per-id", "--engine", "duckdb")
    first: dict[str, int] = {}
    for n, row in enumerate(PURCHASES):
        first.setdefault(str(row[0]).strip(), n)
    ids = list(first)
    counts = [sum(str(r[0]).strip() == i for r in PURCHASES) for i in ids]
    want = [
        PURCHASES[first[ids[i]]][0] for i in ref["ticket_draw"]("2026", ids, k=3, counts=counts)
    ]
    assert [r[0] for r in read_csv(tmp_path / "g.csv")[1:]] == want

    _files(tmp_path, ROWS)
    _draw(capsys, tmp_path, "p", "ticket", "--prizes", "prizes.csv", "--engine", "duckdb")
    places = ref["prize_places"]([("Bike", 1, 1), ("Mug", 3, 0), ("Pen", 2, 2)])
    got = read_csv(tmp_path / "p.csv")
    assert got[0][-4:] == ["Prize", "Place", "Role", "Draw ticket"]
    assert [tuple(r[-4:-1]) for r in got[1:]] == [(p, str(n), role) for p, n, role in places]


def test_refusals_name_the_stratum_and_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _files(tmp_path, ROWS)
    for engine in ("memory", "duckdb"):
        code, _, err = run(
            capsys,
            "sample",
            src,
            "--method",
            "ticket",
            "--id",
            "ID",
            "--seed",
            "1",
            "-k",
            16,
            "--strata",
            "Region",
            "--engine",
            engine,
        )
        assert code != 0 and "stratum 'South'" in err and "--all-of-small-strata" in err
        assert err.count("\n") == 1
    twice = save_csv(tmp_path / "two.csv", [["a", "North"], ["a", "South"]], head=["ID", "R"])
    code, _, err = run(
        capsys,
        "sample",
        twice,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--seed",
        "1",
        "-k",
        1,
        "--strata",
        "R",
        "--one-entry-per-id",
        "--engine",
        "duckdb",
    )
    assert code == 1 and "two strata" in err and err.count("\n") == 1
    code, _, err = run(
        capsys,
        "sample",
        src,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--seed",
        "1",
        "-k",
        1,
        "--no-header",
        "--engine",
        "duckdb",
    )
    assert code != 0 and "leave out --no-header" in err and err.count("\n") == 1


def test_unmatched_excluded_ids_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _files(tmp_path, ROWS)
    code, out, _ = run(
        capsys,
        "sample",
        src,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--seed",
        "1",
        "-k",
        2,
        "--exclude",
        tmp_path / "ex.csv",
        "--engine",
        "duckdb",
        "-o",
        tmp_path / "o.csv",
    )
    assert code == 0 and "2 of the 5 IDs listed matched no entrant: 'nobody', 'a-002'" in out
