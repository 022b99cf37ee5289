"""CSV/TSV draw lists (``xlshuffle.lists``): known answers, byte-level properties, and the
same order as a workbook of the same rows."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from xlshuffle.draw.errors import ListError, SizeError
from xlshuffle.draw.knuth import group_numbers, permutation
from xlshuffle.lists import groups_csv, sample_csv, shuffle_csv
from xlshuffle.lists.table import parse_list

from strategies import csv_lists, seeds

# A BOM, ";" as delimiter (with "," inside a number), CRLF, a quoted field holding a CRLF,
# doubled quotes, an undecodable byte, and no line break after the last record.
KNOWN = (
    b"\xef\xbb\xbfname;note;score\r\n"
    b'Ann;"a;b";1,5\r\n'
    b"Bob;x;2\r\n"
    b'Cid;"two\r\nlines";3\r\n'
    b"\xff\xfeDee;y;4\r\n"
    b'Eve;"q ""uote""";5'
)
ROWS = [
    b'Ann;"a;b";1,5\r\n',
    b"Bob;x;2\r\n",
    b'Cid;"two\r\nlines";3\r\n',
    b"\xff\xfeDee;y;4\r\n",
    b'Eve;"q ""uote""";5\r\n',  # the file's own ending added when it moves
]


def write(tmp_path: Path, data: bytes, name: str = "list.csv") -> Path:
    src = tmp_path / name
    src.write_bytes(data)
    return src


def test_known_answer_shuffle(tmp_path: Path) -> None:
    src, dst = write(tmp_path, KNOWN), tmp_path / "out.csv"
    record = shuffle_csv(src, dst, seed="42")
    assert record["permutation"] == [3, 0, 2, 4, 1] == permutation(5, seed="42")
    assert dst.read_bytes() == (
        b"\xef\xbb\xbfname;note;score\r\n"
        b"\xff\xfeDee;y;4\r\n"
        b'Ann;"a;b";1,5\r\n'
        b'Cid;"two\r\nlines";3\r\n'
        b'Eve;"q ""uote""";5\r\n'
        b"Bob;x;2\r\n"
    )
    assert record["rows"] == 6 and record["columns"] == 3 and record["header"] is True
    assert record["target"]["delimiter"] == ";"


def test_known_answer_sample(tmp_path: Path) -> None:
    src, dst = write(tmp_path, KNOWN), tmp_path / "winners.csv"
    record = sample_csv(src, dst, k=2, seed="42")
    assert record["permutation"] == [3, 0] and record["k"] == 2
    assert dst.read_bytes() == b"\xef\xbb\xbfname;note;score\r\n" + ROWS[3] + ROWS[0]
    out = io.BytesIO()
    sample_csv(src, k=5, seed="42", out=out)
    assert out.getvalue() == b"\xef\xbb\xbfname;note;score\r\n" + b"".join(
        ROWS[i] for i in [3, 0, 2, 4, 1]
    )


def test_known_answer_groups(tmp_path: Path) -> None:
    src, dst = write(tmp_path, KNOWN), tmp_path / "groups.csv"
    record = groups_csv(src, dst, k=2, seed="42", label='Team "A";B')
    assert group_numbers(record["permutation"], 2) == [2, 1, 1, 1, 2]
    assert dst.read_bytes() == (
        b'\xef\xbb\xbfname;note;score;"Team ""A"";B"\r\n'
        b'Ann;"a;b";1,5;2\r\n'
        b"Bob;x;2;1\r\n"
        b'Cid;"two\r\nlines";3;1\r\n'
        b"\xff\xfeDee;y;4;1\r\n"
        b'Eve;"q ""uote""";5;2'  # rows do not move: no line break is added
    )


def test_tsv_and_comma_and_trailing_blank_lines(tmp_path: Path) -> None:
    src = write(tmp_path, b"a\tb\n1\t,\n2\t;\n3\tx\n\n\n", "list.tsv")
    shuffle_csv(src, tmp_path / "o.tsv", seed=1)
    perm = permutation(3, seed=1)
    rows = [b"1\t,\n", b"2\t;\n", b"3\tx\n"]
    assert (tmp_path / "o.tsv").read_bytes() == b"a\tb\n" + b"".join(
        rows[i] for i in perm
    ) + b"\n\n"
    src = write(tmp_path, b"a,b\n1,2\n3,4\n")
    assert parse_list(str(src), src.read_bytes()).delimiter == ","


def test_a_blank_line_between_records_is_a_row_and_trailing_ones_are_not(tmp_path: Path) -> None:
    src = write(tmp_path, b"h\r\n1\r\n\r\n3\r\n\r\n\r\n")
    record = shuffle_csv(src, tmp_path / "o.csv", seed="blank")
    rows = [b"1\r\n", b"\r\n", b"3\r\n"]
    assert record["rows"] == 4
    expected = b"h\r\n" + b"".join(rows[i] for i in record["permutation"]) + b"\r\n\r\n"
    assert (tmp_path / "o.csv").read_bytes() == expected


def test_no_header_keeps_the_bom_first(tmp_path: Path) -> None:
    src = write(tmp_path, b"\xef\xbb\xbfA\nB\nC\nD\n")
    record = shuffle_csv(src, tmp_path / "o.csv", seed="bom", header=False)
    names = [b"A\n", b"B\n", b"C\n", b"D\n"]
    expected = b"\xef\xbb\xbf" + b"".join(names[i] for i in record["permutation"])
    assert (tmp_path / "o.csv").read_bytes() == expected
    assert record["rows"] == 4 and record["header"] is False


def test_in_place_keeps_a_backup_and_dry_run_writes_nothing(tmp_path: Path) -> None:
    src = write(tmp_path, b"h\n1\n2\n3\n")
    record = shuffle_csv(src, seed=3, dry_run=True)
    assert record["output"] is None and sorted(p.name for p in tmp_path.iterdir()) == ["list.csv"]
    record = shuffle_csv(src, seed=3, in_place=True)
    assert (tmp_path / "list.bak.csv").read_bytes() == b"h\n1\n2\n3\n"
    assert record["backup"] == str(tmp_path / "list.bak.csv") and record["output"] == str(src)
    assert sorted(src.read_bytes().split()) == [b"1", b"2", b"3", b"h"]


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (b"", ListError, "the list is empty"),
        (b"\xef\xbb\xbf\n\n", ListError, "the list is empty"),
        (b"name,score\r\n", ListError, "only a header row"),
        (b"a,b\n1,2\r3,4\n", ListError, "line 2: a bare carriage return"),
        (b'a,b\n1,2\n3,"4\n5,6\n', ListError, "line 3: a quoted field is never closed"),
        (b"\xff\xfea\x00,\x00b\x00", ListError, "UTF-16"),
    ],
)
def test_refusals(tmp_path: Path, data: bytes, error: type, message: str) -> None:
    src = write(tmp_path, data)
    with pytest.raises(error, match=message):
        shuffle_csv(src, tmp_path / "o.csv", seed=1)
    assert not (tmp_path / "o.csv").exists()


def test_k_too_large(tmp_path: Path) -> None:
    src = write(tmp_path, b"h\n1\n2\n")
    with pytest.raises(SizeError, match="-k 3 is more than the 2 data rows"):
        sample_csv(src, k=3, seed=1)
    with pytest.raises(SizeError, match="-k 3 is more than the 2 data rows"):
        groups_csv(src, tmp_path / "g.csv", k=3, seed=1)


def test_size_limit(tmp_path: Path) -> None:
    src = write(tmp_path, b"h\n" + b"1\n" * 1000)
    with pytest.raises(ListError, match="larger than"):
        shuffle_csv(src, tmp_path / "o.csv", seed=1, max_bytes=1000)


# --------------------------------------------------------------------------- properties


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lst=csv_lists(), seed=seeds)
def test_shuffle_moves_records_byte_for_byte(tmp_path: Path, lst: dict, seed: object) -> None:
    src = write(tmp_path, lst["data"], lst["name"])
    dst = tmp_path / ("out" + src.suffix)
    record = shuffle_csv(src, dst, seed=seed)
    records = [r if r.endswith(b"\n") else r + lst["ending"] for r in lst["records"]]
    perm = permutation(len(records), seed=seed)
    assert record["permutation"] == perm
    assert dst.read_bytes() == lst["head"] + b"".join(records[i] for i in perm) + lst["tail"]


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lst=csv_lists(), seed=seeds)
def test_sample_is_the_prefix_and_groups_add_one_field(
    tmp_path: Path, lst: dict, seed: object
) -> None:
    src = write(tmp_path, lst["data"], lst["name"])
    n = len(lst["records"])
    records = [r if r.endswith(b"\n") else r + lst["ending"] for r in lst["records"]]
    out = io.BytesIO()
    k = (n + 1) // 2
    sample_csv(src, k=k, seed=seed, out=out)
    perm = permutation(n, seed=seed)
    assert out.getvalue() == lst["head"] + b"".join(records[i] for i in perm[:k])
    dst = tmp_path / ("groups" + src.suffix)
    groups_csv(src, dst, k=2 if n > 1 else 1, seed=seed)
    delimiter = (
        "\t" if lst["name"].endswith(".tsv") else parse_list(str(src), lst["data"]).delimiter
    )
    text = dst.read_bytes().removeprefix(b"\xef\xbb\xbf").decode("utf-8", "surrogateescape")
    parsed = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) if r]
    numbers = group_numbers(perm, 2 if n > 1 else 1)
    assert [r[-1] for r in parsed] == ["Group", *map(str, numbers)]


# --------------------------------------------------------------------------- same as a sheet


@pytest.mark.parametrize("seed", ["42", "2026 raffle", 7])
def test_a_csv_and_an_xlsx_of_the_same_rows_get_the_same_order(tmp_path: Path, seed) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    from xlshuffle.workbook import groups_workbook, sample_workbook, shuffle_workbook

    rows = [["id", "name"], *([f"r{i}", f"name {i}"] for i in range(1, 31))]
    src_csv = tmp_path / "list.csv"
    src_csv.write_text("".join(f"{a},{b}\r\n" for a, b in rows), encoding="utf-8", newline="")
    wb = openpyxl.Workbook()
    for row in rows:
        wb.active.append(row)
    src_xlsx = tmp_path / "list.xlsx"
    wb.save(src_xlsx)

    shuffle_csv(src_csv, tmp_path / "o.csv", seed=seed)
    xrec = shuffle_workbook(src_xlsx, tmp_path / "o.xlsx", seed=seed)
    from_csv = [r[0] for r in csv.reader(io.StringIO((tmp_path / "o.csv").read_text("utf-8")))]
    from_xlsx = [r[0] for r in openpyxl.load_workbook(tmp_path / "o.xlsx").active.values]
    assert from_csv == from_xlsx and from_csv[0] == "id"

    crec = sample_csv(src_csv, k=5, seed=seed, out=io.BytesIO())
    assert crec["permutation"] == sample_workbook(src_xlsx, k=5, seed=seed).record.permutation
    grec = groups_csv(src_csv, tmp_path / "g.csv", k=4, seed=seed)
    gx = groups_workbook(src_xlsx, tmp_path / "g.xlsx", k=4, seed=seed)
    assert grec["permutation"] == gx.permutation == xrec.permutation
    # the record has exactly the workbook record's fields, so verify can replay it
    assert set(grec) == set(gx.to_dict())
