"""Committed ticket draws: the population digest in the commitment, and the DuckDB engine.

A ticket draw's commitment holds ``population`` (section 18, step 5: the SHA-256 of the
entrants' sorted lines), which ``draw`` and ``verify`` check against the list; the DuckDB
engine commits, draws and verifies a committed draw with the list engine's winners and a
record ``verify`` accepts; a commitment made before ``population`` existed still draws
and verifies.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path
from typing import Any

import duckdb
import pytest

from raffle_books import read_csv, run, save_csv
from ticket_tables import HEAD, ROWS
from xlshuffle.draw.commit import commitment_sha256

BEACON = "twenty dice rolled on 8 December"


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _digest(lines: list[str]) -> str:
    """Section 18, step 5, written out: sorted by code point, joined by line feeds."""
    return hashlib.sha256("\n".join(sorted(lines)).encode("utf-8")).hexdigest()


def _canonical(value: object) -> str:
    return unicodedata.normalize("NFC", str(value)).strip()


def _commit(capsys: pytest.CaptureFixture[str], name: str, *args: object) -> dict[str, Any]:
    code, _, err = run(
        capsys,
        "commit",
        "e.csv",
        "--method",
        "ticket",
        "--id",
        "ID",
        *args,
        "--beacon",
        BEACON,
        "-o",
        name,
    )
    assert code == 0, err
    return dict(json.loads(Path(name).read_text(encoding="utf-8")))


def _draw(
    capsys: pytest.CaptureFixture[str], commitment: str, name: str, *args: object
) -> tuple[int, str]:
    code, _, err = run(
        capsys,
        "draw",
        commitment,
        "e.csv",
        "--reveal",
        "31415",
        "--record",
        f"{name}.json",
        "-o",
        f"{name}.csv",
        *args,
    )
    return code, err


def test_a_ticket_commitment_holds_the_population(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_csv(tmp_path / "e.csv", ROWS, head=HEAD)
    made = _commit(capsys, "c.json", "-k", 5)
    want = _digest([_canonical(r[0]) for r in ROWS])
    assert made["commitment"]["population"] == {"sha256": want, "entrants": len(ROWS)}
    weighted = _commit(capsys, "w.json", "-k", 5, "--weights", "Weight", "--weight-scale", 10)
    tickets = [round(float(str(r[3])) * 10) for r in ROWS]
    lines = [f"{_canonical(r[0])}\t{t}" for r, t in zip(ROWS, tickets, strict=True)]
    assert weighted["commitment"]["population"]["sha256"] == _digest(lines)
    code, _, _ = run(capsys, "commit", "e.csv", "-k", 5, "--beacon", BEACON, "-o", "plain.json")
    assert (
        code == 0 and "population" not in json.loads(Path("plain.json").read_text())["commitment"]
    )


@pytest.mark.parametrize(
    "args",
    [
        ("-k", 4, "--reserves", 2),
        ("-k", 2, "--one-entry-per-id", "--weights", "Weight", "--weight-scale", 2),
        ("--rate", "0.3", "--strata", "Region", "--exclude", "ex.csv"),
    ],
)
def test_duckdb_commits_and_draws_as_the_list_engine(
    args: tuple[object, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = ROWS if "--one-entry-per-id" not in args else [*ROWS, ["A-001", "again", "East", "2"]]
    save_csv(tmp_path / "e.csv", rows, head=HEAD)
    (tmp_path / "ex.csv").write_text("ID\nA-003\nB-2\n", encoding="utf-8")
    memory = _commit(capsys, "cm.json", *args)
    ours = _commit(capsys, "cd.json", *args, "--engine", "duckdb")
    for made in (memory, ours):
        made["commitment"].pop("time_utc")
    assert ours["commitment"] == memory["commitment"]
    assert _draw(capsys, "cm.json", "m")[0] == 0
    assert _draw(capsys, "cm.json", "d", "--engine", "duckdb")[0] == 0
    assert Path("d.csv").read_bytes() == Path("m.csv").read_bytes()
    record = json.loads(Path("d.json").read_text(encoding="utf-8"))
    assert record["target"]["engine"] == "duckdb"
    assert json.loads(Path("m.json").read_text())["permutation"] == record["permutation"]
    code, said, err = run(capsys, "verify", "d.json", "--input", "e.csv", "--output", "d.csv")
    assert code == 0 and "is the committed list" in said, err
    save_csv(tmp_path / "e.csv", [*rows, ["Z-1", "late", "North", "1"]], head=HEAD)
    code, _, err = run(capsys, "verify", "d.json", "--input", "e.csv")
    assert code == 1 and "not the committed list" in err


def _rehashed(path: str, change: dict[str, Any]) -> None:
    body = json.loads(Path(path).read_text(encoding="utf-8"))["commitment"]
    for key, value in change.items():
        if value is None:
            body.pop(key)
        else:
            body[key] = value
    text = json.dumps({"commitment": body, "sha256": commitment_sha256(body)})
    Path(path).write_text(text, encoding="utf-8")


def test_another_population_is_refused_and_old_commitments_still_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_csv(tmp_path / "e.csv", ROWS, head=HEAD)
    _commit(capsys, "c.json", "-k", 5)
    _rehashed("c.json", {"population": {"sha256": "0" * 64, "entrants": len(ROWS)}})
    for engine in ("memory", "duckdb"):
        code, err = _draw(capsys, "c.json", engine, "--engine", engine)
        assert code == 1 and "not the committed population" in err and err.count("\n") == 1
    _rehashed("c.json", {"population": None})  # as commit wrote it before it held one
    for engine in ("memory", "duckdb"):
        code, err = _draw(capsys, "c.json", engine, "--engine", engine)
        assert code == 0, err
        code, _, err = run(capsys, "verify", f"{engine}.json", "--input", "e.csv")
        assert code == 0, err
    assert read_csv(tmp_path / "memory.csv") == read_csv(tmp_path / "duckdb.csv")


def test_what_the_duckdb_engine_cannot_commit_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_path = save_csv(tmp_path / "e.csv", ROWS, head=HEAD)
    duckdb.execute(f"COPY (FROM read_csv('{csv_path}', all_varchar = true)) TO 'e.parquet'")
    code, _, err = run(
        capsys,
        "commit",
        "e.parquet",
        "-k",
        2,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--beacon",
        BEACON,
        "-o",
        "p.json",
    )
    assert code != 0 and "save it as CSV" in err and err.count("\n") == 1
    code, _, err = run(
        capsys,
        "commit",
        "e.csv",
        "-k",
        2,
        "--method",
        "ticket",
        "--id",
        "ID",
        "--engine",
        "duckdb",
        "--beacon",
        BEACON,
        "-o",
        "h.json",
        "--entrant-hashes",
        "salt.txt",
    )
    assert code != 0 and "leave out --engine duckdb" in err and err.count("\n") == 1
    assert not Path("p.json").exists() and not Path("h.json").exists()
