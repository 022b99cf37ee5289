"""The DuckDB engine: ``sample --method ticket ... --engine duckdb`` and Parquet files.

On a CSV/TSV list both engines read, the DuckDB engine must write the in-memory list
engine's output byte for byte and its record field for field (the engine named besides),
and each engine's ``verify`` must accept the other's record. A Parquet file holding the
same table draws the same rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from raffle_books import read_csv, run, save_csv
from schema_check import errors
from ticket_tables import DRAWS, HEAD, ROWS
from xlshuffle.lists.raffle import verify_draw_csv
from xlshuffle.records import verify

VOLATILE = {"time_utc", "output", "tool_version"}


def draw(
    capsys: pytest.CaptureFixture[str], src: Path, out: Path, record: Path, *args: object
) -> dict[str, Any]:
    code, _, err = run(
        capsys, "sample", src, "--method", "ticket", "--id", "ID", "--seed", "2026", *args,
        "-o", out, "--record", record,
    )  # fmt: skip
    assert code == 0, err
    return dict(json.loads(record.read_text(encoding="utf-8")))


def same_record(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert ours["target"].pop("engine") == "duckdb"
    assert {k: v for k, v in ours.items() if k not in VOLATILE} == {
        k: v for k, v in theirs.items() if k not in VOLATILE
    }


@pytest.mark.parametrize("name", list(DRAWS))
@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_duckdb_writes_what_the_list_engine_writes(
    name: str, suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / f"entrants{suffix}"
    if suffix == ".csv":
        save_csv(src, ROWS, head=HEAD)
    else:  # the same table with tabs (no field holds one, nor a quote)
        lines = ["\t".join(str(v) for v in row) for row in [HEAD, *ROWS]]
        src.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8", newline="")
    opts = DRAWS[name][0]
    memory = draw(capsys, src, tmp_path / f"m{suffix}", tmp_path / "m.json", *opts)
    ours = draw(
        capsys, src, tmp_path / f"d{suffix}", tmp_path / "d.json", *opts, "--engine", "duckdb"
    )
    assert (tmp_path / f"d{suffix}").read_bytes() == (tmp_path / f"m{suffix}").read_bytes()
    assert verify(tmp_path / "d.json", input=src, output=tmp_path / f"d{suffix}").ok
    verify_draw_csv(ours, src, tmp_path / f"d{suffix}")  # the list engine replays it too
    assert errors(ours) == []  # docs/record.schema.json
    same_record(ours, memory)


def test_a_parquet_file_draws_the_rows_its_csv_draws(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_path = save_csv(tmp_path / "e.csv", ROWS, head=HEAD)
    parquet = tmp_path / "e.parquet"
    duckdb.execute(
        f"COPY (SELECT * FROM read_csv('{csv_path}', all_varchar = true, header = true)) "
        f"TO '{parquet}' (FORMAT parquet)"
    )
    opts = DRAWS["strata, weights, reserves"][0]
    memory = draw(capsys, csv_path, tmp_path / "m.csv", tmp_path / "m.json", *opts)
    ours = draw(capsys, parquet, tmp_path / "p.csv", tmp_path / "p.json", *opts)
    assert read_csv(tmp_path / "p.csv") == read_csv(tmp_path / "m.csv")
    assert ours["permutation"] == memory["permutation"]
    assert ours["target"]["draw"] == memory["target"]["draw"]
    assert ours["target"]["delimiter"] is None
    assert errors(ours) == []  # docs/record.schema.json
    assert verify(tmp_path / "p.json", input=parquet, output=tmp_path / "p.csv").ok
    edited = dict(ours, permutation=list(reversed(ours["permutation"])))
    (tmp_path / "edited.json").write_text(json.dumps(edited), encoding="utf-8")
    assert not verify(tmp_path / "edited.json", input=parquet).ok
    code, _, err = run(capsys, "verify", tmp_path / "p.json", "--input", csv_path)
    assert code == 1 and "SHA-256" in err


def test_integer_ids_in_parquet_and_float_ids_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ints, floats = tmp_path / "i.parquet", tmp_path / "f.parquet"
    duckdb.execute(f"COPY (SELECT i AS ID FROM range(1, 31) t(i)) TO '{ints}' (FORMAT parquet)")
    duckdb.execute(f"COPY (SELECT i * 1.0 AS ID FROM range(1, 31) t(i)) TO '{floats}'")
    csv_path = save_csv(tmp_path / "i.csv", [[i] for i in range(1, 31)], head=["ID"])
    memory = draw(capsys, csv_path, tmp_path / "m.csv", tmp_path / "m.json", "-k", 5)
    draw(capsys, ints, tmp_path / "p.csv", tmp_path / "p.json", "-k", 5)
    assert read_csv(tmp_path / "p.csv") == read_csv(tmp_path / "m.csv")
    assert memory["target"]["draw"]["winners"] == [r[0] for r in read_csv(tmp_path / "p.csv")[1:]]
    code, _, err = run(
        capsys, "sample", floats, "-k", 5, "--method", "ticket", "--id", "ID", "--seed", "1"
    )
    assert code != 0 and "whole numbers" in err


def test_winners_on_stdout_and_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = save_csv(tmp_path / "e.csv", ROWS, head=HEAD)
    code, out, err = run(
        capsys, "sample", src, "-k", 2, "--method", "ticket", "--id", "ID", "--seed", "1",
        "--engine", "duckdb",
    )  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0] == "ID,Name,Region,Weight,Draw ticket"
    code, _, err = run(
        capsys, "sample", src, "-k", 60, "--method", "ticket", "--id", "ID", "--seed", "1",
        "--engine", "duckdb",
    )  # fmt: skip
    assert code != 0 and "cannot draw 60 from 47 entrants: ask for fewer" in err
    assert err.count("\n") == 1
    blank = save_csv(tmp_path / "b.csv", [["a"], [""], ["c"]], head=["ID"])
    code, _, err = run(
        capsys, "sample", blank, "-k", 1, "--method", "ticket", "--id", "ID", "--seed", "1",
        "--engine", "duckdb",
    )  # fmt: skip
    assert code != 0 and "an ID is blank" in err
