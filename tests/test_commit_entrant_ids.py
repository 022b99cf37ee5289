"""A committed draw with an ID column hashes each entrant's ID with the salt too (section 17,
step 5), so an entrant checks their entry knowing only their ID. Expected hashes are
computed here with hashlib from the protocol's words."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from raffle_books import ROWS, run, save_csv


def test_entrants_can_check_their_entry_by_id_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv")
    commitment, salt_file = tmp_path / "c.json", tmp_path / "salt.txt"
    code, _, err = run(
        capsys,
        "commit",
        src,
        "-k",
        2,
        "--id",
        "ID",
        "--beacon",
        "dice",
        "--entrant-hashes",
        salt_file,
        "-o",
        commitment,
    )
    assert code == 0, err
    salt = salt_file.read_text(encoding="ascii").strip()
    held = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]["entrants"]
    want = sorted(hashlib.sha256(f"{salt}\n{row[0]}".encode()).hexdigest() for row in ROWS)
    assert held["ids_salted_sha256"] == want
    assert len(held["salted_sha256"]) == len(ROWS)
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    code, _, err = run(
        capsys,
        "draw",
        commitment,
        src,
        "--reveal",
        "1 2",
        "--salt",
        salt_file,
        "-o",
        out,
        "--record",
        rec,
    )
    assert code == 0, err
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0
    salt_file.write_text("00" * 16 + "\n", encoding="ascii")
    code, _, err = run(
        capsys,
        "draw",
        commitment,
        src,
        "--reveal",
        "1 2",
        "--salt",
        salt_file,
        "-o",
        tmp_path / "w2.csv",
        "--record",
        tmp_path / "r2.json",
    )
    assert code == 1 and "does not give the committed" in err


def test_a_draw_without_an_id_column_commits_rows_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv")
    commitment = tmp_path / "c.json"
    code, _, err = run(
        capsys,
        "commit",
        src,
        "-k",
        2,
        "--beacon",
        "dice",
        "--entrant-hashes",
        tmp_path / "salt.txt",
        "-o",
        commitment,
    )
    assert code == 0, err
    held = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]["entrants"]
    assert list(held) == ["salted_sha256"]
