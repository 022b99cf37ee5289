"""``xlshuffle restore`` undoes a shuffle of a CSV/TSV list: the input's exact bytes.

The same rule as for workbooks: the file given must be the draw's output (its SHA-256),
or that output edited outside the drawn records (header, trailing blank lines); another
list, the unshuffled input or an output whose drawn record was edited is refused in one
line naming the record, and nothing is written. Bytes are compared with the input read
back as a file, not through the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xlshuffle.cli import main

LISTS = {
    "crlf_unterminated": b'name;note\r\nAnn;"a;b"\r\nBob;x\r\nCid;"2\r\nlines"\r\nDee;y',
    "bom_lf_blank_tail": b"\xef\xbb\xbfname,n\nAnn,1\nBob,2\nCid,3\nDee,4\nEve,5\n\n\n",
    "tsv_mixed_endings": b"a\tb\r\nx\t1\ny\t2\r\nz\t3\nw\t4\r\n",
    "one_record": b"name\nAnn\n",
}


def _shuffle(tmp_path: Path, name: str, data: bytes, *extra: str) -> tuple[Path, Path, Path]:
    suffix = ".tsv" if "tsv" in name else ".csv"
    src, out, rec = tmp_path / f"in{suffix}", tmp_path / f"out{suffix}", tmp_path / "r.json"
    src.write_bytes(data)
    assert (
        main(["shuffle", str(src), "-o", str(out), "--seed", "7", "--record", str(rec), *extra])
        == 0
    )
    return src, out, rec


def _refused(capsys, rec: Path, given: Path, back: Path) -> str:
    capsys.readouterr()
    assert main(["restore", str(rec), str(given), "-o", str(back)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert not back.exists()
    return err[0]


@pytest.mark.parametrize("name", sorted(LISTS))
def test_restore_gives_back_the_input_bytes(tmp_path: Path, name: str, capsys):
    src, out, rec = _shuffle(tmp_path, name, LISTS[name])
    back = tmp_path / f"back{src.suffix}"
    assert main(["restore", str(rec), str(out), "-o", str(back)]) == 0
    assert back.read_bytes() == LISTS[name]
    assert "data records put back" in capsys.readouterr().out


def test_restore_in_place_keeps_a_backup(tmp_path: Path):
    data = LISTS["crlf_unterminated"]
    _, out, rec = _shuffle(tmp_path, "x", data)
    shuffled = out.read_bytes()
    assert shuffled != data
    assert main(["restore", str(rec), str(out), "--in-place"]) == 0
    assert out.read_bytes() == data
    assert (tmp_path / "out.bak.csv").read_bytes() == shuffled


def test_another_list_is_refused(tmp_path: Path, capsys):
    _, _, rec = _shuffle(tmp_path, "x", LISTS["bom_lf_blank_tail"])
    other = tmp_path / "other.csv"
    other.write_bytes(b"\xef\xbb\xbfname,n\nZoe,1\nYan,2\nXia,3\nWes,4\nVic,5\n\n\n")
    line = _refused(capsys, rec, other, tmp_path / "back.csv")
    assert f"{other}: record 2 (line 2): not what the draw wrote there" in line


def test_the_unshuffled_input_is_refused(tmp_path: Path, capsys):
    src, _, rec = _shuffle(tmp_path, "x", LISTS["bom_lf_blank_tail"])
    line = _refused(capsys, rec, src, tmp_path / "back.csv")
    assert "this is the draw's input" in line


def test_an_edited_drawn_record_is_refused_naming_it(tmp_path: Path, capsys):
    _, out, rec = _shuffle(tmp_path, "x", LISTS["bom_lf_blank_tail"])
    lines = out.read_bytes().split(b"\n")
    lines[3] = lines[3] + b"0"  # the third data record, line 4
    out.write_bytes(b"\n".join(lines))
    line = _refused(capsys, rec, out, tmp_path / "back.csv")
    assert "record 4 (line 4): not what the draw wrote there" in line


def test_a_list_with_another_number_of_records_is_refused(tmp_path: Path, capsys):
    _, out, rec = _shuffle(tmp_path, "x", LISTS["bom_lf_blank_tail"])
    out.write_bytes(out.read_bytes().replace(b"name,n\n", b"name,n\nFay,6\n"))
    line = _refused(capsys, rec, out, tmp_path / "back.csv")
    assert "6 data records, and the record's permutation moves 5" in line


def test_an_output_edited_outside_the_drawn_records_is_restored(tmp_path: Path):
    _, out, rec = _shuffle(tmp_path, "x", LISTS["bom_lf_blank_tail"])
    out.write_bytes(out.read_bytes().replace(b"name,n", b"Name,N"))
    back = tmp_path / "back.csv"
    assert main(["restore", str(rec), str(out), "-o", str(back)]) == 0
    assert back.read_bytes() == LISTS["bom_lf_blank_tail"].replace(b"name,n", b"Name,N")


def test_a_record_without_a_fingerprint_needs_the_output_itself(tmp_path: Path, capsys):
    _, out, rec = _shuffle(tmp_path, "x", LISTS["crlf_unterminated"])
    data = json.loads(rec.read_text(encoding="utf-8"))
    del data["fingerprint"]
    rec.write_text(json.dumps(data), encoding="utf-8")
    back = tmp_path / "back.csv"
    assert main(["restore", str(rec), str(out), "-o", str(back)]) == 0
    assert back.read_bytes() == LISTS["crlf_unterminated"]
    back.unlink()
    out.write_bytes(out.read_bytes().replace(b"name;note", b"Name;note"))
    line = _refused(capsys, rec, out, back)
    assert "the record predates the check of edited outputs" in line


def test_a_groups_record_is_not_a_shuffle(tmp_path: Path, capsys):
    src = tmp_path / "in.csv"
    src.write_bytes(LISTS["bom_lf_blank_tail"])
    rec = tmp_path / "g.json"
    assert (
        main(
            [
                "groups",
                str(src),
                "-o",
                str(tmp_path / "g.csv"),
                "-k",
                "2",
                "--seed",
                "1",
                "--record",
                str(rec),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["restore", str(rec), str(tmp_path / "g.csv"), "-o", str(tmp_path / "b.csv")]) == 2
    assert "not a shuffle of a CSV/TSV list" in capsys.readouterr().err


@pytest.mark.parametrize("kind", [".csv", ".xlsx"])
def test_a_record_file_of_two_draws_is_refused(tmp_path: Path, capsys, kind: str):
    # one rule for workbooks and lists: restore undoes one draw at a time
    src, out, rec = _shuffle(tmp_path, "bom_lf_blank_tail", LISTS["bom_lf_blank_tail"])
    if kind == ".xlsx":
        import openpyxl

        src, out = tmp_path / "in.xlsx", tmp_path / "out.xlsx"
        wb = openpyxl.Workbook()
        for row in (["name"], ["Ann"], ["Bob"], ["Cid"]):
            wb.active.append(row)
        wb.save(src)
        assert (
            main(
                [
                    "shuffle",
                    str(src),
                    "-o",
                    str(out),
                    "--seed",
                    "7",
                    "--record",
                    str(rec),
                    "--overwrite",
                ]
            )
            == 0
        )
    one = json.loads(rec.read_text(encoding="utf-8"))
    rec.write_text(json.dumps([one, one]), encoding="utf-8")
    capsys.readouterr()
    assert main(["restore", str(rec), str(out), "-o", str(tmp_path / f"back{kind}")]) == 2
    err = capsys.readouterr().err
    assert f"{rec} holds 2 draws: restore one record at a time" in err, err
    assert not (tmp_path / f"back{kind}").exists()
