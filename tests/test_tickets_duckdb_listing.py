"""``xlshuffle tickets --engine duckdb``: every entrant's place and ticket, streamed out of
DuckDB, byte for byte the list engine's listing of the same file."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from raffle_books import run, save_csv
from ticket_tables import HEAD, PURCHASES, ROWS

LISTINGS: dict[str, tuple[list[list[object]], tuple[object, ...]]] = {
    "plain": (ROWS, ()),
    "strata": (ROWS, ("--strata", "Region")),
    "weights": (ROWS, ("--weights", "Weight", "--weight-scale", 10)),
    "exclude, strata": (ROWS, ("--exclude", "ex.csv", "--strata", "Region")),
    "rivest": (ROWS, ("--method", "rivest")),
    "one entry per ID": (PURCHASES, ("--one-entry-per-id",)),
    "one entry per ID, weights, strata, exclude": (
        PURCHASES,
        (
            "--one-entry-per-id",
            "--weights",
            "Weight",
            "--weight-scale",
            2,
            "--strata",
            "Region",
            "--exclude",
            "ex.csv",
        ),
    ),
}


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ex.csv").write_text("ID\nA-001\n B-1\nP-3\nnobody\n", encoding="utf-8")


def _listing(capsys: pytest.CaptureFixture[str], src: Path, out: str, *args: object) -> str:
    code, said, err = run(
        capsys, "tickets", src, "--id", "ID", "--seed", "2026", *args, *(["-o", out] if out else [])
    )
    assert code == 0, err
    return said


@pytest.mark.parametrize("name", list(LISTINGS))
@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_duckdb_lists_what_the_list_engine_lists(
    name: str, suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, args = LISTINGS[name]
    src = save_csv(tmp_path / "e.csv", rows, head=HEAD)
    said = _listing(capsys, src, f"m{suffix}", *args)
    ours = _listing(capsys, src, f"d{suffix}", *args, "--engine", "duckdb")
    assert ours == said.replace(f"m{suffix}", f"d{suffix}")
    assert (tmp_path / f"d{suffix}").read_bytes() == (tmp_path / f"m{suffix}").read_bytes()
    if suffix == ".csv":  # and on stdout
        printed = _listing(capsys, src, "", *args, "--engine", "duckdb")
        assert printed == (tmp_path / "m.csv").read_text(encoding="utf-8")


def test_a_parquet_file_lists_what_its_csv_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv", ROWS, head=HEAD)
    duckdb.execute(f"COPY (FROM read_csv('{src}', all_varchar = true)) TO 'e.parquet'")
    _listing(capsys, src, "m.csv", "--strata", "Region")
    _listing(capsys, tmp_path / "e.parquet", "p.csv", "--strata", "Region")
    assert (tmp_path / "p.csv").read_bytes() == (tmp_path / "m.csv").read_bytes()


def test_refusals_come_before_any_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    twice = save_csv(tmp_path / "t.csv", [["a"], ["b"], ["a "]], head=["ID"])
    code, _, err = run(
        capsys, "tickets", twice, "--id", "ID", "--seed", "1", "--engine", "duckdb", "-o", "o.csv"
    )
    assert code == 1 and "two rows" in err and err.count("\n") == 1
    assert not (tmp_path / "o.csv").exists()
    apart = save_csv(tmp_path / "s.csv", [["a", "N"], ["b", "S"], ["a", "S"]], head=["ID", "R"])
    code, _, err = run(
        capsys,
        "tickets",
        apart,
        "--id",
        "ID",
        "--seed",
        "1",
        "--strata",
        "R",
        "--engine",
        "duckdb",
        "-o",
        "o.csv",
    )
    assert code == 1 and "two rows" in err and err.count("\n") == 1
    assert not (tmp_path / "o.csv").exists()
