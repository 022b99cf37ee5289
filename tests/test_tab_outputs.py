"""An output is what its name says: ``.tsv`` and ``.tab`` outputs are tab-separated
(orders, allocation lists, a workbook's winners), and verify reads them that way."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from batch_support import copy_fixture
from xlshuffle.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def rows_of(path: Path, delimiter: str) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        return list(csv.reader(fh, delimiter=delimiter))


def assert_tabs(path: Path, columns: int) -> list[list[str]]:
    rows = rows_of(path, "\t")
    assert len(rows) > 1 and all(len(row) == columns for row in rows), rows
    assert rows == [r for r in rows if not any("," in f for f in r)]
    return rows


@pytest.mark.parametrize("ext", [".tsv", ".tab"])
def test_orders_to_tsv_are_tab_separated_and_verify(tmp_path: Path, capsys, ext: str) -> None:
    items, ids = tmp_path / "items.txt", tmp_path / "ids.csv"
    items.write_text("apple\nbanana\ncherry\n")
    ids.write_text("id\nP1\nP2\nP3\n")
    out, rec = tmp_path / f"o{ext}", tmp_path / "o.json"
    argv = ["orders", items, "--ids", ids, "-o", out, "--seed", "1", "--record", rec]
    assert run(capsys, *argv)[0] == 0
    rows = assert_tabs(out, 4)
    assert rows[0] == ["ID", "1", "2", "3"] and [r[0] for r in rows[1:]] == ["P1", "P2", "P3"]
    code, text, err = run(capsys, "verify", rec, "--input", items, "--ids", ids, "--output", out)
    assert (code, err) == (0, "") and text.startswith("ok: orders")
    data = out.read_bytes()
    out.write_bytes(data.replace(b"\t", b"|", 1))
    code, _, err = run(capsys, "verify", rec, "--input", items, "--ids", ids, "--output", out)
    assert code == 1 and "not the orders of this record: line 1" in err


def test_allocation_to_tsv_is_tab_separated_and_verifies(tmp_path: Path, capsys) -> None:
    out, codes, rec = tmp_path / "a.tsv", tmp_path / "c.tab", tmp_path / "a.json"
    argv = ["allocate", "--arms", "A,B", "--n", "4", "--block-sizes", "2", "--seed", "1"]
    argv += ["-o", out, "--codes-only", codes, "--record", rec]
    assert run(capsys, *argv)[0] == 0
    assert assert_tabs(out, 4)[0] == ["Seq", "Block", "BlockSize", "Arm"]
    assert assert_tabs(codes, 2)[0] == ["Seq", "Code"]
    for saved in (out, codes):
        code, text, err = run(capsys, "verify", rec, "--output", saved)
        assert (code, err) == (0, "") and text.startswith("ok: allocate")
    out.write_bytes(out.read_bytes().replace(b"\t", b",", 1))
    code, _, err = run(capsys, "verify", rec, "--output", out)
    assert code == 1 and str(out) in err


def test_allocation_refuses_a_redcap_table_named_tsv(tmp_path: Path, capsys) -> None:
    argv = ["allocate", "--arms", "A,B", "--n", "4", "--block-sizes", "2", "--seed", "1"]
    code, _, err = run(capsys, *argv, "-o", tmp_path / "a.csv", "--redcap", tmp_path / "r.tsv")
    assert code == 2 and "REDCap imports CSV: give a .csv file" in err
    assert not (tmp_path / "a.csv").exists()


@pytest.mark.parametrize("weights", [[], ["--weights", "score"]])
def test_winners_of_a_workbook_to_tsv_are_tab_separated_and_verify(
    tmp_path: Path, capsys, weights: list[str]
) -> None:
    src = copy_fixture("plain.xlsx", tmp_path)
    out, rec = tmp_path / "w.tsv", tmp_path / "w.json"
    argv = ["sample", src, "-k", "3", *weights, "--seed", "1", "-o", out, "--record", rec]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    rows = assert_tabs(out, len(rows_of(out, "\t")[0]))
    assert "name" in rows[0] and len(rows) == 4
    code, _, err = run(capsys, "verify", rec, "--input", src, "--output", out)
    assert (code, err) == (0, ""), err
    out.write_bytes(out.read_bytes().replace(b"Person", b"Persons", 1))
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 1
