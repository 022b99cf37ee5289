"""``sample --exclude FILE``: every kind of file is read by the ``--id`` column or refused,
never silently read as something that excludes nobody; ``verify --exclude`` reads the
same files the same way.

The expected rows come from :func:`xlshuffle.draw.knuth.deal` over the rows kept, the
kept rows from the IDs written in each test (never from the command line's own code).
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main
from xlshuffle.draw.knuth import deal

HEAD = ["ID", "Name", "Tickets", "Region", "Amount"]
ROWS = [
    ["T1", "Ann", "3", "North", "120.50"],
    ["T2", "Bo", "1", "South", "15.00"],
    ["T3", "Cy", "5", "North", "900.00"],
    ["T4", "Di", "2", "South", "33.10"],
    ["T5", "Ed", "0", "North", "0"],
    ["T6", "Fay", "4", "East", "410.00"],
    ["T7", "Gus", "2.5", "East", "1,250.00"],
    ["T8", "Hal", "1", "North", "75.25"],
]


def write(path: Path, rows: list[list[str]], head: list[str] = HEAD) -> Path:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows([head, *rows])
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def drawn(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


@pytest.fixture
def src(tmp_path: Path) -> Path:
    return write(tmp_path / "raffle.csv", ROWS)


def kept_draw(gone: set[str], k: int, seed: str) -> list[list[str]]:
    kept = [i for i, row in enumerate(ROWS) if row[0] not in gone]
    return [ROWS[i] for i in deal(kept, k, seed=seed)]


def test_last_months_winners_csv_is_read_by_its_id_column(capsys, src, tmp_path) -> None:
    """The CSV ``sample -o`` wrote (a header, the ID among several columns) excludes its
    winners: it used to be read one 'ID' a line, and exclude nobody."""
    may = tmp_path / "may.csv"
    assert run(capsys, "sample", src, "-k", "3", "--id", "ID", "--seed", "m", "-o", may)[0] == 0
    winners = {row[0] for row in drawn(may)[1:]}
    june = tmp_path / "june.csv"
    argv = ["sample", src, "-k", "5", "--exclude", may, "--id", "ID", "--seed", "j", "-o", june]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert drawn(june)[1:] == kept_draw(winners, 5, "j")
    assert "excluded: 3 rows whose ID is among 3 IDs" in out + err


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("staff.tsv", "Name\tID\nBo\tT2\nEd\t T5\n"),
        ("staff.tab", "Name\tID\nBo\tT2\nEd\tT5\n"),
        ("staff.csv", "Name;ID\r\nBo;T2\r\n\r\nEd;T5\r\n"),
        ("staff.txt", "Name,ID\nBo,T2\nEd,T5\n"),  # a header line naming --id
        ("staff.txt", "ID\tName\nT2\tBo\nT5\tEd\n"),
    ],
)
def test_tables_of_ids_are_read_by_the_id_column(capsys, src, tmp_path, name, text) -> None:
    staff = tmp_path / name
    staff.write_text(text, encoding="utf-8")
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "4", "--exclude", staff, "--id", "ID", "--seed", "t", "-o", out]
    code, printed, err = run(capsys, *argv)
    assert code == 0, err
    assert drawn(out)[1:] == kept_draw({"T2", "T5"}, 4, "t")
    assert "excluded: 2 rows whose ID is among 2 IDs" in printed


def test_a_workbook_of_ids_is_read_by_the_id_column(capsys, src, tmp_path) -> None:
    book = openpyxl.Workbook()
    book.active.title = "Staff"
    for row in [["Name", "ID"], ["Bo", "T2"], ["Fay", "T6"], [None, None], ["Hal", "T8"]]:
        book.active.append(row)
    book.save(tmp_path / "staff.xlsx")
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "3", "--exclude", tmp_path / "staff.xlsx", "--id", "ID"]
    code, printed, err = run(capsys, *argv, "--seed", "w", "-o", out)
    assert code == 0, err
    assert drawn(out)[1:] == kept_draw({"T2", "T6", "T8"}, 3, "w")
    assert "among 3 IDs" in printed


def test_a_workbook_with_the_whole_list_beside_the_winners_is_refused(
    capsys, src, tmp_path
) -> None:
    """A sample's output workbook keeps the input's sheet (every entrant) beside the
    winners' sheet: read by its first sheet it would exclude everyone."""
    book = openpyxl.Workbook()
    book.active.title = "Tickets"
    for row in [HEAD, *ROWS]:
        book.active.append(row)
    sample = book.create_sheet("Sample")
    for row in [HEAD, ROWS[1]]:
        sample.append(row)
    book.save(tmp_path / "prizes.xlsx")
    argv = ["sample", src, "-k", "3", "--exclude", tmp_path / "prizes.xlsx", "--id", "ID"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "'Tickets', 'Sample'" in err and "prizes.xlsx" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_delimited_rows_without_the_id_column_are_refused(capsys, src, tmp_path) -> None:
    staff = tmp_path / "staff.txt"
    staff.write_text("Member,Name\nT2,Bo\nT5,Ed\n", encoding="utf-8")
    code, out, err = run(capsys, "sample", src, "-k", "2", "--exclude", staff, "--id", "ID")
    assert code == 2 and out == ""
    assert str(staff) in err and "'ID'" in err and len(err.strip().splitlines()) == 1


def test_a_csv_without_the_id_column_is_refused(capsys, src, tmp_path) -> None:
    staff = tmp_path / "staff.csv"
    staff.write_text("Member,Name\nT2,Bo\n", encoding="utf-8")
    code, _, err = run(capsys, "sample", src, "-k", "2", "--exclude", staff, "--id", "ID")
    assert code == 2 and str(staff) in err and "--id ID: no such column" in err


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("ids.txt", "T1\nT2\n".encode("utf-16"), "NUL bytes"),
        ("ids.txt", b"T1\n\xff\xfeT2\n", "not UTF-8"),
        ("ids.zip", None, "a zip file that is not a workbook"),
    ],
)
def test_binary_files_are_refused_in_one_line(capsys, src, tmp_path, name, data, words) -> None:
    path = tmp_path / name
    if data is None:
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("ids.txt", "T1\nT2\n")
    else:
        path.write_bytes(data)
    code, out, err = run(capsys, "sample", src, "-k", "2", "--exclude", path, "--id", "ID")
    assert code == 2 and out == ""
    assert words in err and str(path) in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_one_column_text_file_is_still_one_id_a_line(capsys, src, tmp_path) -> None:
    """IDs holding a comma on some lines only are no table: one ID a line, as before."""
    staff = tmp_path / "staff.txt"
    staff.write_text("T2\nSmith, Jo\nT5\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "4", "--exclude", staff, "--id", "ID", "--seed", "1", "-o", out]
    assert run(capsys, *argv)[0] == 0
    assert drawn(out)[1:] == kept_draw({"T2", "T5"}, 4, "1")


def test_verify_reads_the_same_files(capsys, src, tmp_path) -> None:
    may = tmp_path / "may.csv"
    assert run(capsys, "sample", src, "-k", "2", "--id", "ID", "--seed", "m", "-o", may)[0] == 0
    june, rec = tmp_path / "june.csv", tmp_path / "june.json"
    argv = ["sample", src, "-k", "3", "--exclude", may, "--id", "ID", "--seed", "j"]
    assert run(capsys, *argv, "-o", june, "--record", rec)[0] == 0
    code, out, err = run(capsys, "verify", rec, "--input", src, "--output", june, "--exclude", may)
    assert code == 0, err
    assert f"exactly the IDs of {may} excluded" in out
    other = tmp_path / "other.csv"
    other.write_text("ID\nT1\n", encoding="utf-8")
    code, _, err = run(capsys, "verify", rec, "--input", src, "--exclude", other)
    assert code == 1 and "not a draw that excluded the IDs given" in err
    assert json.loads(rec.read_text())["target"]["draw"]["exclusion"]["ids"] == 2


# --------------------------------------------------------------------- IDs that match no one


def test_the_summary_names_ids_that_matched_no_entrant(capsys, src, tmp_path) -> None:
    staff = tmp_path / "staff.txt"
    staff.write_text("T2\nt3\nnobody\nT2\nzed\nT99\n", encoding="utf-8")
    out, rec = tmp_path / "out.csv", tmp_path / "rec.json"
    argv = ["sample", src, "-k", "2", "--exclude", staff, "--id", "ID", "--seed", "u"]
    code, printed, err = run(capsys, *argv, "-o", out, "--record", rec)
    assert code == 0, err
    assert "excluded: 1 row whose ID is among 5 IDs" in printed
    assert "4 of the 5 IDs listed matched no entrant: 't3', 'nobody', 'zed' and 1 more" in printed
    assert "'t3' matched no entrant; 'T3' did: IDs are matched with case kept" in printed
    assert "Warning" not in err
    exclusion = json.loads(rec.read_text())["target"]["draw"]["exclusion"]
    assert exclusion["unmatched"] == 4 and "warning" not in exclusion
    assert "t3" not in rec.read_text() and "nobody" not in rec.read_text()  # only the digest
    assert run(capsys, "verify", rec, "--input", src, "--output", out, "--exclude", staff)[0] == 0


def test_an_exclusion_that_excludes_nobody_warns_and_says_so_in_the_record(
    capsys, src, tmp_path
) -> None:
    staff = tmp_path / "staff.txt"
    staff.write_text("t1\nt2\nM07\n", encoding="utf-8")
    out, rec = tmp_path / "out.csv", tmp_path / "rec.json"
    argv = ["sample", src, "-k", "2", "--exclude", staff, "--id", "ID", "--seed", "u"]
    code, printed, err = run(capsys, *argv, "-o", out, "--record", rec)
    assert code == 0, err
    warning = [line for line in err.splitlines() if line.startswith("Warning: ")]
    assert len(warning) == 1 and "none of the 3 IDs listed matched" in warning[0], err
    assert "nobody was excluded" in warning[0]
    exclusion = json.loads(rec.read_text())["target"]["draw"]["exclusion"]
    assert exclusion["unmatched"] == 3 and exclusion["rows"] == []
    assert "none of the 3 IDs listed matched" in exclusion["warning"]
    assert "'t1' matched no entrant; 'T1' did" in printed
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0


def test_an_unmatched_count_cannot_be_edited_in_the_record(capsys, src, tmp_path) -> None:
    staff = tmp_path / "staff.txt"
    staff.write_text("T2\nzed\n", encoding="utf-8")
    rec = tmp_path / "rec.json"
    argv = ["sample", src, "-k", "2", "--exclude", staff, "--id", "ID", "--seed", "u"]
    assert run(capsys, *argv, "--record", rec)[0] == 0
    data = json.loads(rec.read_text())
    data["target"]["draw"]["exclusion"]["unmatched"] = 0
    rec.write_text(json.dumps(data))
    code, _, err = run(capsys, "verify", rec, "--input", src, "--exclude", staff)
    assert code == 1 and "matched no entrant" in err


def test_a_text_file_headed_by_the_id_column_alone_skips_the_header(capsys, src, tmp_path) -> None:
    staff = tmp_path / "staff.txt"
    staff.write_text("ID\nT2\nT5\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    argv = ["sample", src, "-k", "2", "--exclude", staff, "--id", "ID", "--seed", "h", "-o", out]
    code, printed, err = run(capsys, *argv)
    assert code == 0, err
    assert "among 2 IDs" in printed and "matched no entrant" not in printed
    assert drawn(out)[1:] == kept_draw({"T2", "T5"}, 2, "h")


def test_a_record_made_before_unmatched_was_counted_still_verifies(capsys, src, tmp_path) -> None:
    staff = tmp_path / "staff.txt"
    staff.write_text("T2\nzed\n", encoding="utf-8")
    out, rec = tmp_path / "out.csv", tmp_path / "rec.json"
    argv = ["sample", src, "-k", "2", "--exclude", staff, "--id", "ID", "--seed", "o"]
    assert run(capsys, *argv, "-o", out, "--record", rec)[0] == 0
    data = json.loads(rec.read_text())
    del data["target"]["draw"]["exclusion"]["unmatched"]  # as such a record was written
    rec.write_text(json.dumps(data))
    code, _, err = run(capsys, "verify", rec, "--input", src, "--output", out, "--exclude", staff)
    assert code == 0, err
