"""The CSV xlshuffle writes (winners, allocation lists) reads back as the rows written, a
field with a bare carriage return included (the csv module alone leaves it unquoted)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlshuffle.cli import main
from xlshuffle.tabledraw.winners import csv_text

FIELD = st.text(alphabet=st.sampled_from(list('ab,"\r\n é')), max_size=6)


@given(st.lists(st.lists(FIELD, min_size=2, max_size=4), min_size=1, max_size=5))
def test_rows_read_back_as_written(rows: list[list[str]]) -> None:
    text = csv_text(rows)
    assert list(csv.reader(io.StringIO(text, newline=""))) == rows


def test_rows_without_a_carriage_return_are_the_csv_modules() -> None:
    rows = [["Rank", "Name"], [1, "Ann, Jr."], [2, 'say "hi"'], [3, None]]
    plain = io.StringIO()
    csv.writer(plain, lineterminator="\n").writerows(rows)
    assert csv_text(rows) == plain.getvalue()


def test_a_winner_with_a_carriage_return_in_a_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = tmp_path / "raffle.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append(["Name", "Note"])
    for i in range(5):
        wb.active.append([f"P{i}", f"line one\rline two {i}"])
    wb.save(book)
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    argv = ["sample", str(book), "-k", "5", "--seed", "1", "-o", str(out), "--record", str(rec)]
    assert main(argv) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert len(rows) == 6 and all(r[-1].startswith("line one\rline two") for r in rows[1:])
    assert main(["verify", str(rec), "--input", str(book), "--output", str(out)]) == 0
