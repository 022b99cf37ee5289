"""CSV/TSV lists through ``xlshuffle shuffle|sample|groups``: outputs, records, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xlshuffle.cli import main
from xlshuffle.draw.knuth import group_numbers, permutation

DATA = b'name,team\r\nAnn,red\r\nBob,"blue\r\nsky"\r\nCid,\xff\r\nDee,green\r\n'
ROWS = [b"Ann,red\r\n", b'Bob,"blue\r\nsky"\r\n', b"Cid,\xff\r\n", b"Dee,green\r\n"]


def run(capsysbinary: pytest.CaptureFixture[bytes], *argv: object) -> tuple[int, bytes, str]:
    code = main([str(a) for a in argv])
    out, err = capsysbinary.readouterr()
    return code, out, err.decode("utf-8")


@pytest.fixture
def src(tmp_path: Path) -> Path:
    path = tmp_path / "list.csv"
    path.write_bytes(DATA)
    return path


def test_shuffle_writes_beside_with_suffix(capsysbinary, src: Path) -> None:
    code, out, err = run(capsysbinary, "shuffle", src, "--seed", "42")
    assert code == 0
    perm = permutation(4, seed="42")
    dst = src.with_name("list.shuffled.csv")
    assert dst.read_bytes() == b"name,team\r\n" + b"".join(ROWS[i] for i in perm)
    assert out.decode() == (
        f"{src} -> {dst}: 4 data rows (rows) shuffled in rows 1-5, header kept, seed 42\n"
    )
    assert err == ""


def test_sample_prints_the_winners_bytes_on_stdout(capsysbinary, src: Path) -> None:
    code, out, err = run(capsysbinary, "sample", src, "-k", "2", "--seed", "42")
    assert code == 0
    perm = permutation(4, seed="42")
    assert out == b"name,team\r\n" + ROWS[perm[0]] + ROWS[perm[1]]  # undecodable byte kept
    assert "2 of 4 rows drawn in rows 1-5, header kept, seed 42" in err


def test_no_header_draws_the_first_record_too(capsysbinary, src: Path) -> None:
    code, out, err = run(capsysbinary, "sample", src, "-k", "5", "--no-header", "--seed", "h")
    rows = [b"name,team\r\n", *ROWS]
    assert code == 0 and out == b"".join(rows[i] for i in permutation(5, seed="h"))
    assert "5 of 5 rows drawn in rows 1-5, seed h" in err


def test_groups_and_the_label(capsysbinary, src: Path, tmp_path: Path) -> None:
    dst = tmp_path / "g.csv"
    argv = ["groups", src, "-k", "2", "--seed", "g", "--label", "Team, final", "-o", dst]
    assert run(capsysbinary, *argv)[0] == 0
    numbers = group_numbers(permutation(4, seed="g"), 2)
    assert dst.read_bytes() == b'name,team,"Team, final"\r\n' + b"".join(
        row[: -2 if row.endswith(b"\r\n") else None] + b",%d\r\n" % g
        for row, g in zip(ROWS, numbers, strict=True)
    )


def test_record_json_and_verify(capsysbinary, src: Path, tmp_path: Path) -> None:
    rec_path, dst = tmp_path / "draw.json", tmp_path / "out.csv"
    code, out, _ = run(capsysbinary, "shuffle", src, "-o", dst, "--record", rec_path, "--json")
    assert code == 0
    record = json.loads(out.decode().splitlines()[-1])
    assert record["command"] == "shuffle" and record["tool_version"]
    assert json.loads(rec_path.read_text()) == record
    code, out, _ = run(capsysbinary, "verify", rec_path, "--input", src)
    assert code == 0 and b"permutation of 4 replayed; input checked" in out
    assert run(capsysbinary, "verify", rec_path, "--output", dst)[0] == 0
    assert run(capsysbinary, "verify", rec_path, "--input", src, "--output", dst)[0] == 0
    dst.write_bytes(dst.read_bytes() + b"x,y\r\n")
    code, _, err = run(capsysbinary, "verify", rec_path, "--input", src, "--output", dst)
    assert code == 1 and "is not the recorded output's" in err
    record["permutation"] = record["permutation"][::-1]
    rec_path.write_text(json.dumps(record))
    code, _, err = run(capsysbinary, "verify", rec_path)
    assert code == 1 and "does not give this permutation" in err


def test_several_lists_with_jobs_and_a_workbook_refusal(capsysbinary, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(3):
        (folder / f"l{i}.csv").write_bytes(DATA)
    (folder / "t.tsv").write_bytes(b"a\tb\n1\t2\n3\t4\n")
    (folder / "bad.csv").write_bytes(b"")
    inputs = sorted(folder.iterdir())
    code, out, err = run(
        capsysbinary,
        "shuffle",
        *inputs,
        "--seed",
        "s",
        "--jobs",
        "2",
        "--out-dir",
        tmp_path / "out",
    )
    assert code == 1
    assert "5 files: 4 shuffled, 1 failed" in out.decode()
    assert err.count("Error: ") == 1 and "bad.csv: the list is empty" in err
    expected = b"name,team\r\n" + b"".join(ROWS[i] for i in permutation(4, seed="s"))
    assert (tmp_path / "out" / "l2.csv").read_bytes() == expected


@pytest.mark.parametrize(
    ("data", "argv", "code", "message"),
    [
        (b"", ["shuffle"], 1, "list.csv: the list is empty"),
        (b"name,team\r\n", ["sample", "-k", "1"], 1, "list.csv: only a header row"),
        (b"name,team\r\n", ["groups", "-k", "1"], 1, "list.csv: only a header row"),
        (DATA, ["sample", "-k", "5"], 2, "-k 5 is more than the 4 data rows"),
        (DATA, ["groups", "-k", "5"], 2, "-k 5 is more than the 4 data rows"),
        (DATA, ["sample", "-k", "-1"], 2, "-k must be 0 or more"),
        (DATA, ["shuffle", "--range", "A1:B3"], 2, "--range is for workbooks"),
        (DATA, ["shuffle", "--by", "cells"], 2, "whole rows only"),
        (DATA, ["sample", "-k", "1", "--in-place"], 2, "never over a CSV/TSV list"),
        (DATA, ["shuffle", "-o", "{src}"], 2, "the output is the input"),
        (b"a,b\n1,2\r3,4\n", ["shuffle"], 1, "line 2: a bare carriage return"),
    ],
)
def test_errors_are_one_line(capsysbinary, src: Path, data, argv, code, message) -> None:
    src.write_bytes(data)
    argv = [a.replace("{src}", str(src)) for a in argv]
    got, _, err = run(capsysbinary, argv[0], src, *argv[1:], "--seed", "1")
    assert got == code, err
    lines = [line for line in err.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in err
    assert src.read_bytes() == data
