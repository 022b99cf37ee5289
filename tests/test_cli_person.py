"""The command line a person meets: output names, channels, evidence kept,
sheet-qualified ranges, help that names the subcommand, empty seeds, groups by size and
``lines --header``. Outputs are read back with openpyxl and csv, not the engine."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main

ROWS = [["name", "score"], ["Ann", 1], ["Bob", 2], ["Cid", 3], ["Dee", 4], ["Eve", 5]]


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


def outcome(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = run(*argv)
    got = capsys.readouterr()
    return code, got.out, got.err


def book(path: Path, sheet: str = "Data", rows: list[list[object]] = ROWS) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    for row in rows:
        ws.append(row)
    wb.save(path)
    return path


def listfile(path: Path, rows: list[list[object]] = ROWS) -> Path:
    path.write_text("".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    return path


def values(path: Path, sheet: str | None = None) -> list[tuple[object, ...]]:
    wb = openpyxl.load_workbook(path)
    return list((wb[sheet] if sheet else wb.active).iter_rows(values_only=True))


# --------------------------------------------------------------- output names


@pytest.mark.parametrize("command", ["shuffle", "groups"])
@pytest.mark.parametrize(
    ("src", "name", "fix"),
    [
        ("in.xlsx", "out.csv", "out.xlsx"),
        ("in.xlsx", "out.txt", "out.xlsx"),
        ("in.xlsx", "out", "out.xlsx"),
        ("in.csv", "out.xlsx", "out.csv"),
        ("in.csv", "out.txt", "out.csv"),
        ("in.csv", "out", "out.csv"),
    ],
)
def test_an_output_named_as_another_kind_is_refused(tmp_path, capsys, command, src, name, fix):
    path = tmp_path / src
    book(path) if src.endswith(".xlsx") else listfile(path)
    more = ["-k", "2"] if command == "groups" else []
    code, _, err = outcome(capsys, command, path, *more, "-o", tmp_path / name, "--seed", "1")
    assert code == 2, err
    assert err.startswith("Error: -o ") and err.count("\n") == 1, err
    assert f"name it {tmp_path / fix}" in err, err
    assert not (tmp_path / name).exists()


def test_an_xlsm_input_is_named_xlsm(tmp_path, capsys):
    src = book(tmp_path / "in.xlsx")
    code, _, err = outcome(capsys, "shuffle", src, "-o", tmp_path / "out.csv", "--seed", "1")
    assert code == 2 and "an .xlsx workbook" in err


def test_sample_keeps_its_outputs_and_refuses_others(tmp_path, capsys):
    src = book(tmp_path / "in.xlsx")
    assert run("sample", src, "-k", "2", "--seed", "1", "-o", tmp_path / "w.csv") == 0
    assert len(list(csv.reader(io.StringIO((tmp_path / "w.csv").read_text())))) == 3
    assert run("sample", src, "-k", "2", "--seed", "1", "-o", tmp_path / "w.xlsx") == 0
    assert "Sample" in openpyxl.load_workbook(tmp_path / "w.xlsx").sheetnames
    capsys.readouterr()
    code, _, err = outcome(capsys, "sample", src, "-k", "2", "-o", tmp_path / "w.txt")
    assert code == 2 and "name it" in err and ".csv" in err, err
    assert not (tmp_path / "w.txt").exists()
    lst = listfile(tmp_path / "in.csv")
    code, _, err = outcome(capsys, "sample", lst, "-k", "2", "-o", tmp_path / "w2.xlsx")
    assert code == 2 and f"name it {tmp_path / 'w2.csv'}" in err, err


@pytest.mark.parametrize("src", ["in.xlsx", "in.csv"])
def test_a_folder_named_with_o_is_called_a_folder(tmp_path, capsys, src):
    # the name check must not hide the real problem: "name it out.csv" for a folder
    path = tmp_path / src
    book(path) if src.endswith(".xlsx") else listfile(path)
    (tmp_path / "out").mkdir()
    code, _, err = outcome(capsys, "shuffle", path, "-o", tmp_path / "out", "--seed", "1")
    assert code == 2 and f"{tmp_path / 'out'} is a folder" in err, err


def test_a_device_takes_any_name(tmp_path):
    src = book(tmp_path / "in.xlsx")
    assert run("shuffle", src, "-o", "/dev/null", "--seed", "1") == 0


# --------------------------------------------------------------- channels


def test_sample_json_prints_one_document_with_the_winners(tmp_path, capsys):
    src = book(tmp_path / "in.xlsx")
    code, out, err = outcome(capsys, "sample", src, "-k", "2", "--json", "--seed", "1")
    assert code == 0, err
    doc = json.loads(out)  # stdout is one JSON document and nothing else
    assert set(doc) == {"record", "winners"}
    record, winners = doc["record"], doc["winners"]
    assert record["k"] == 2 and record["output"] is None and len(record["permutation"]) == 2
    assert winners["header"] == ["Rank", "name", "score"]
    picked = [ROWS[1 + i] for i in record["permutation"]]
    assert winners["rows"] == [[1, *picked[0]], [2, *picked[1]]]
    assert err.startswith(f"{src} -> stdout: 2 of 5 rows drawn")  # the human line
    # the record in it is the record of winners printed: verify checks them saved as CSV
    rec, saved = tmp_path / "r.json", tmp_path / "w.csv"
    rec.write_text(json.dumps(record), encoding="utf-8")
    lines = [winners["header"], *winners["rows"]]
    saved.write_text("".join(",".join(map(str, r)) + "\n" for r in lines), encoding="utf-8")
    assert outcome(capsys, "verify", rec, "--input", src, "--output", saved)[0] == 0
    # with -o the winners have their file and stdout is the record alone, as before
    win = tmp_path / "w2.csv"
    code, out, err = outcome(capsys, "sample", src, "-k", "2", "--json", "--seed", "1", "-o", win)
    assert code == 0, err
    record = json.loads(out)
    assert record["k"] == 2 and record["output"] == str(win)
    assert [r[1] for r in csv.reader(io.StringIO(win.read_text()))][1:] != []


@pytest.mark.parametrize("header", [True, False])
def test_sample_of_a_list_with_json_prints_one_document_too(tmp_path, capsys, header):
    src = listfile(tmp_path / "in.csv", ROWS if header else ROWS[1:])
    argv = ["sample", src, "-k", "2", "--json", "--seed", "1"]
    code, out, err = outcome(capsys, *argv, *([] if header else ["--no-header"]))
    assert code == 0, err
    doc = json.loads(out)
    data = [[str(v) for v in r] for r in ROWS[1:]]
    assert doc["winners"]["header"] == (["name", "score"] if header else None)
    assert doc["winners"]["rows"] == [data[i] for i in doc["record"]["permutation"]]


def test_sample_json_of_several_files_prints_one_line_each(tmp_path, capsys):
    first, second = book(tmp_path / "a.xlsx"), listfile(tmp_path / "b.csv")
    code, out, err = outcome(capsys, "sample", first, second, "-k", "1", "--json", "--seed", "1")
    assert code == 0, err
    docs = [json.loads(line) for line in out.splitlines()]
    assert [d["record"]["input"] for d in docs] == [str(first), str(second)]
    assert all(len(d["winners"]["rows"]) == 1 for d in docs)


# --------------------------------------------------------------- evidence kept


def test_an_existing_record_is_refused_before_drawing(tmp_path, capsys):
    src = book(tmp_path / "in.xlsx")
    rec = tmp_path / "draw.json"
    rec.write_text("last week's record")
    out = tmp_path / "out.xlsx"
    code, _, err = outcome(capsys, "shuffle", src, "-o", out, "--record", rec, "--seed", "1")
    assert code == 1, err
    assert str(rec) in err and "--overwrite" in err and err.count("\n") == 1, err
    assert rec.read_text() == "last week's record" and not out.exists()
    assert run("shuffle", src, "-o", out, "--record", rec, "--seed", "1", "--overwrite") == 0
    assert json.loads(rec.read_text())["seed"] == "1"


@pytest.mark.parametrize(
    ("argv", "default"),
    [
        (["shuffle"], "in.shuffled.xlsx"),
        (["groups", "-k", "2"], "in.groups.xlsx"),
        (["shuffle", "--suffix=-x"], "in-x.xlsx"),
        (["sample", "-k", "2", "--suffix=-w"], "in-w.xlsx"),
    ],
)
def test_an_existing_default_output_is_refused(tmp_path, capsys, argv, default):
    src = book(tmp_path / "in.xlsx")
    assert run(*argv, src, "--seed", "1") == 0
    kept = (tmp_path / default).read_bytes()
    code, _, err = outcome(capsys, *argv, src, "--seed", "2")
    assert code == 1 and "--overwrite" in err and str(tmp_path / default) in err, err
    assert (tmp_path / default).read_bytes() == kept
    assert run(*argv, src, "--seed", "2", "--overwrite") == 0
    assert (tmp_path / default).read_bytes() != kept


def test_out_dir_and_lists_keep_their_evidence_too(tmp_path, capsys):
    src = listfile(tmp_path / "in.csv")
    assert run("groups", src, "-k", "2", "--seed", "1") == 0
    kept = (tmp_path / "in.groups.csv").read_bytes()
    assert run("groups", src, "-k", "2", "--seed", "2") == 1
    assert (tmp_path / "in.groups.csv").read_bytes() == kept
    assert run("shuffle", src, "--out-dir", tmp_path / "d", "--seed", "1") == 0
    assert run("shuffle", src, "--out-dir", tmp_path / "d", "--seed", "1") == 1
    assert "--overwrite" in capsys.readouterr().err


def test_an_output_named_with_o_is_replaced_as_asked(tmp_path):
    src = book(tmp_path / "in.xlsx")
    out = tmp_path / "out.xlsx"
    assert run("shuffle", src, "-o", out, "--seed", "1") == 0
    assert run("shuffle", src, "-o", out, "--seed", "2") == 0


# --------------------------------------------------------------- groups twice


def test_groups_twice_on_a_workbook_is_refused(tmp_path, capsys):
    src = book(tmp_path / "in.xlsx")
    once = tmp_path / "once.xlsx"
    assert run("groups", src, "-k", "2", "--seed", "1", "-o", once) == 0
    capsys.readouterr()
    twice = tmp_path / "twice.xlsx"
    code, _, err = outcome(capsys, "groups", once, "-k", "3", "-o", twice, "--label", " group ")
    assert code == 2 and "cell C1" in err and '--label "group 2"' in err, err
    assert not twice.exists()
    assert run("groups", once, "-k", "3", "--seed", "1", "-o", twice, "--label", "Group 2") == 0
    assert values(twice)[0] == ("name", "score", "Group", "Group 2")


def test_groups_twice_on_a_list_is_refused(tmp_path, capsys):
    src = listfile(tmp_path / "in.csv")
    once = tmp_path / "once.csv"
    assert run("groups", src, "-k", "2", "--seed", "1", "-o", once) == 0
    capsys.readouterr()
    code, _, err = outcome(capsys, "groups", once, "-k", "2", "-o", tmp_path / "t.csv")
    assert code == 2 and "field 3" in err and '--label "Group 2"' in err, err
    assert not (tmp_path / "t.csv").exists()
    # without a header row there are no labels to compare
    assert run("groups", once, "-k", "2", "--no-header", "-o", tmp_path / "t.csv") == 0


# --------------------------------------------------------------- sheet-qualified ranges


@pytest.mark.parametrize(
    ("sheet", "given"),
    [
        ("Class 7B", "Class 7B!A2:B6"),
        ("Class 7B", "'Class 7B'!A2:B6"),
        ("It's", "'It''s'!A2:B6"),
        ("Data", "Data!A2:B6"),
    ],
)
def test_a_range_may_name_its_sheet(tmp_path, capsys, sheet, given):
    src = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "First"
    wb.active.append(["not", "this"])
    ws = wb.create_sheet(sheet)
    for row in ROWS:
        ws.append(row)
    wb.save(src)
    a, b = tmp_path / "a.xlsx", tmp_path / "b.xlsx"
    assert run("shuffle", src, "--range", given, "-o", a, "--seed", "7") == 0
    line = capsys.readouterr().out
    assert run("shuffle", src, "--sheet", sheet, "--range", "A2:B6", "-o", b, "--seed", "7") == 0
    assert values(a, sheet) == values(b, sheet) and values(a, sheet) != [tuple(r) for r in ROWS]
    quoted = sheet if sheet == "Data" else "'" + sheet.replace("'", "''") + "'"
    assert f" in {quoted}!A2:B6," in line, line
    record = tmp_path / "r.json"
    assert (
        run(
            "shuffle",
            src,
            "--range",
            given,
            "-o",
            a,
            "--seed",
            "7",
            "--record",
            record,
            "--overwrite",
        )
        == 0
    )
    assert json.loads(record.read_text())["selection"] == f"{quoted}!A2:B6"
    assert run("verify", record, "--input", src, "--output", a) == 0


def test_a_range_and_sheet_that_disagree_are_a_usage_error(tmp_path, capsys):
    src = book(tmp_path / "in.xlsx", sheet="Class 7B")
    code, _, err = outcome(
        capsys,
        "shuffle",
        src,
        "--range",
        "'Class 7B'!A2:B6",
        "--sheet",
        "Other",
        "-o",
        tmp_path / "o.xlsx",
    )
    assert code == 2 and "'Class 7B'" in err and "--sheet" in err, err
    assert (
        run(
            "shuffle",
            src,
            "--range",
            "class 7b!A2:B6",
            "--sheet",
            "Class 7B",
            "-o",
            tmp_path / "o.xlsx",
            "--seed",
            "1",
        )
        == 0
    )


# --------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    "argv",
    [
        ["shuffle", "x"],
        ["sample", "x", "-k", "1"],
        ["groups", "x", "-k", "1"],
        ["lines"],
        ["deal"],
        ["verify", "r.json"],
        ["seed"],
    ],
)
def test_an_unknown_option_names_the_subcommand_help(capsys, argv):
    code, _, err = outcome(capsys, *argv, "--bogus")
    assert code == 2
    assert err == f"Error: unrecognized arguments: --bogus (see 'xlshuffle {argv[0]} --help')\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["lines", "IN"],
        ["deal"],
        ["shuffle", "IN"],
        ["sample", "IN", "-k", "1"],
        ["groups", "IN", "-k", "1"],
    ],
)
def test_an_empty_seed_is_a_usage_error(tmp_path, capsys, argv):
    src = book(tmp_path / "in.xlsx")
    argv = [str(src) if a == "IN" else a for a in argv]
    out = [] if argv[0] == "deal" else ["-o", tmp_path / "o.xlsx"]
    code, _, err = outcome(capsys, *argv, "--seed", "", *out)
    assert code == 2, err
    assert err == (
        "Error: --seed is empty: give a seed text, or leave --seed out to draw a fresh one\n"
    )
    assert not (tmp_path / "o.xlsx").exists()


def test_the_same_mistake_reads_the_same_on_lists_and_workbooks(tmp_path, capsys):
    xl, lst = book(tmp_path / "in.xlsx"), listfile(tmp_path / "in.csv")
    lines = []
    for src in (xl, lst):
        for argv in (["sample", "-k", "9"], ["groups", "-k", "9"]):
            out = tmp_path / ("o" + src.suffix)
            code, _, err = outcome(capsys, *argv[:1], src, *argv[1:], "-o", out, "--seed", "1")
            assert code == 2, err
            lines.append(err.replace(str(src), "IN"))
    assert (
        lines[0]
        == lines[2]
        == ("Error: IN: -k 9 is more than the 5 data rows to draw from: ask for at most 5\n")
    )
    assert (
        lines[1]
        == lines[3]
        == (
            "Error: IN: -k 9 is more than the 5 data rows to split into groups: ask for at most 5\n"
        )
    )


def _help(capsys, *argv: str) -> str:
    assert run(*argv, "--help") == 0
    return capsys.readouterr().out


def test_help_says_what_each_subcommand_is_and_takes(capsys):
    shuffle = _help(capsys, "shuffle")
    assert "CSV/TSV" in shuffle and "--max-cells" in shuffle and "--sheet-name" not in shuffle
    for command in ("sample", "groups"):
        text = _help(capsys, command)
        assert "--max-cells" not in text and "--max-ranges" not in text and "--by" not in text
        assert "--overwrite" in text
    assert "--label" not in _help(capsys, "sample") and "--sheet-name" in _help(capsys, "sample")
    assert "--size" in _help(capsys, "groups") and "--label" in _help(capsys, "groups")
    for command in ("deal", "seed"):
        text = _help(capsys, command)
        assert text.split("\n\n")[1].strip(), text  # a description after the usage
    assert "--seed 42.0" in _help(capsys, "lines").replace("\n", " ").replace("  ", " ")


# --------------------------------------------------------------- groups --size, lines --header


def test_groups_by_size(tmp_path, capsys):
    rows = [["name"], *([f"p{i}"] for i in range(23))]
    src = book(tmp_path / "in.xlsx", rows=rows)
    out, rec = tmp_path / "out.xlsx", tmp_path / "r.json"
    assert run("groups", src, "--size", "4", "--seed", "1", "-o", out, "--record", rec) == 0
    numbers = [r[1] for r in values(out)[1:]]
    sizes = sorted(numbers.count(g) for g in set(numbers))
    assert len(sizes) == 6 and max(sizes) <= 4 and max(sizes) - min(sizes) <= 1
    record = json.loads(rec.read_text())
    assert (record["k"], record["size"]) == (6, 4)
    assert run("verify", rec, "--input", src, "--output", out) == 0
    lst = listfile(tmp_path / "in.csv", rows=rows)
    assert run("groups", lst, "--size", "4", "--seed", "1", "-o", tmp_path / "o.csv") == 0
    fields = list(csv.reader(io.StringIO((tmp_path / "o.csv").read_text())))
    assert [int(f[1]) for f in fields[1:]] == numbers  # the same groups as the sheet's
    capsys.readouterr()
    for argv in (["-k", "2", "--size", "3"], [], ["--size", "0"]):
        code, _, err = outcome(capsys, "groups", src, *argv, "-o", tmp_path / "x.xlsx")
        assert code == 2 and err.count("\n") == 1, err


def test_lines_header_stays_first(tmp_path, capsys):
    src = tmp_path / "in.txt"
    body = [f"line {i}\n" for i in range(20)]
    src.write_text("name\n" + "".join(body))
    plain = tmp_path / "body.txt"
    plain.write_text("".join(body))
    out = tmp_path / "out.txt"
    assert run("lines", src, "--header", "--seed", "5", "-o", out) == 0
    assert run("lines", plain, "--seed", "5", "-o", tmp_path / "plain.txt") == 0
    got = out.read_text().splitlines(keepends=True)
    assert got[0] == "name\n" and sorted(got[1:]) == sorted(body) and got[1:] != body
    assert got[1:] == (tmp_path / "plain.txt").read_text().splitlines(keepends=True)
    assert run("lines", src, "--header", "--seed", "5", "-n", "3") == 0
    assert capsys.readouterr().out.splitlines(keepends=True) == got[:4]


def test_exit_codes_are_the_documented_ones(tmp_path, capsys):
    """docs/batch.md: an option a list does not take is a usage error (2); an existing
    record is a failure (1), found by a dry run as by a real one."""
    lst = listfile(tmp_path / "in.csv")
    assert run("shuffle", lst, "--sheet", "X", "-o", tmp_path / "o.csv") == 2
    assert run("shuffle", lst, "--by", "cells", "-o", tmp_path / "o.csv") == 2
    rec = tmp_path / "r.json"
    rec.write_text("{}")
    assert run("shuffle", lst, "--dry-run", "--record", rec, "--seed", "1") == 1
    assert run("shuffle", lst, "--dry-run", "--record", rec, "--seed", "1", "--overwrite") == 0
    assert rec.read_text() == "{}"  # a dry run writes nothing, --record included
    assert "--overwrite" in capsys.readouterr().err
