"""Layout traps of the default selection: each handled exactly or refused in one line.

One fixture per trap (tests/fixtures/engine/layout_*.xlsx, written by
tools/make_engine_fixtures.py). Which rows were drawn is read back with the independent
oracle (tests/oracle.py) and compared with the core's ``shuffled``/``deal``, never with
the engine's own reading of the sheet.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

import oracle
import xlshuffle
from xlshuffle import WorkbookError
from xlshuffle.cli import main
from xlshuffle.common.record import DrawRecord
from xlshuffle.workbook import (
    restore_workbook,
    sample_workbook,
    shuffle_workbook,
    shuffle_worksheet,
    verify_record,
)

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"
ROOT = Path(__file__).resolve().parent.parent


def copy(name: str, folder: Path) -> Path:
    dst = folder / name
    shutil.copyfile(ENGINE / name, dst)
    return dst


def ids(path: Path, sheet: str, rows: range) -> list[str | None]:
    texts = oracle.cell_texts(path, sheet)
    return [texts.get((r, 1)) for r in rows]


def assert_drawn(src: Path, out: Path, sheet: str, body: range, seed: object) -> None:
    """Rows ``body`` hold the input's rows in the core's order; every other row of the
    sheet is untouched (cells and row attributes, read by the oracle)."""
    assert ids(out, sheet, body) == xlshuffle.shuffled(ids(src, sheet, body), seed=seed)
    before, after = oracle.sheet_cells(src, sheet), oracle.sheet_cells(out, sheet)
    rows_in, rows_out = oracle.sheet_rows(src, sheet), oracle.sheet_rows(out, sheet)
    for pos in set(before) | set(after):
        if pos[0] not in body:
            assert after.get(pos) == before.get(pos), pos
    for r in set(rows_in) | set(rows_out):
        if r not in body:
            assert rows_out.get(r) == rows_in.get(r), r


def test_title_rows_above_the_header_are_left_out(tmp_path: Path) -> None:
    src, out = copy("layout_titles.xlsx", tmp_path), tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="titles")
    assert record.target["ref"] == "A4:D12" and record.unit == "rows"
    assert record.target["excluded"] == [
        {"rows": "1-2", "why": "title"},
        {"rows": "3", "why": "blank"},
    ]
    assert_drawn(src, out, "Data", range(5, 13), "titles")
    winners = sample_workbook(src, k=3, seed="w").table
    assert winners[0] == ["Rank", "id", "name", "n", "team"]  # the real header's labels
    assert [row[1] for row in winners[1:]] == xlshuffle.deal(
        ids(src, "Data", range(5, 13)), 3, seed="w"
    )
    back = tmp_path / "back.xlsx"
    verify_record(record, input=src, output=out)
    restore_workbook(record, out, back)
    assert oracle.cell_texts(back, "Data") == oracle.cell_texts(src, "Data")


def test_blank_rows_at_the_end_are_never_drawn(tmp_path: Path) -> None:
    src, out = copy("layout_blank_end.xlsx", tmp_path), tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="end")
    assert record.target["ref"] == "A1:D9"
    assert record.target["excluded"] == [{"rows": "10-11", "why": "blank"}]
    assert_drawn(src, out, "Data", range(2, 10), "end")
    every = sample_workbook(src, k=8, seed="all").table[1:]
    assert sorted(row[1] for row in every) == sorted(f"r{i}" for i in range(1, 9))
    with pytest.raises(xlshuffle.SizeError, match="at most 8"):
        sample_workbook(src, k=9, seed=1)
    # --columns is the user's word, but its blank rows at the end are not drawn either
    record = shuffle_workbook(src, out, columns="A,B", seed="cols")
    assert record.selection == "Data!A,B (rows 1-9)"
    assert record.target["excluded"] == [{"rows": "10-11", "why": "blank"}]


@pytest.mark.parametrize(
    ("sheet", "excluded"),
    [
        ("Data", [{"rows": "10", "why": "blank"}, {"rows": "11", "why": "total"}]),
        ("Formula total", [{"rows": "10", "why": "total"}]),
    ],
)
def test_a_total_row_is_left_out(tmp_path: Path, sheet: str, excluded: list) -> None:
    src, out = copy("layout_total.xlsx", tmp_path), tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, sheet=sheet, seed="total")
    assert record.target["ref"] == "A1:D9"
    assert record.target["excluded"] == excluded
    assert_drawn(src, out, sheet, range(2, 10), "total")
    assert "Total" not in [row[1] for row in sample_workbook(src, sheet=sheet, k=8).table]


@pytest.mark.parametrize(
    ("sheet", "message", "hint"),
    [
        (
            "Data",
            "row 6 is blank inside the data A1:D10: give --keep-blank-rows to draw the "
            "other rows around it (it stays in place), give --range A1:D5 --header to draw "
            "only the rows above it, give --range A7:D10 to draw only the rows below it, or "
            "delete it",
            "A1:D5",
        ),
        (
            "Gap",
            "rows 6-7 are blank inside the data A1:D11: give --keep-blank-rows to draw the "
            "other rows around them (they stay in place), give --range A1:D5 --header to draw "
            "only the rows above them, give --range A8:D11 to draw only the rows below them, "
            "or delete them",
            "A1:D5",
        ),
    ],
)
def test_a_blank_row_inside_the_data_is_refused(tmp_path: Path, sheet, message, hint) -> None:
    src = copy("layout_blank_inside.xlsx", tmp_path)
    with pytest.raises(WorkbookError) as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", sheet=sheet, seed=1)
    assert str(info.value) == f"{src}: sheet {sheet!r}: {message}"
    assert sorted(p.name for p in tmp_path.iterdir()) == [src.name]
    with pytest.raises(WorkbookError, match="blank inside the data"):
        sample_workbook(src, sheet=sheet, k=1, seed=1)
    out = tmp_path / "hinted.xlsx"  # the hint works as given
    record = shuffle_workbook(src, out, sheet=sheet, cells=hint, header=True, seed="hint")
    assert ids(out, sheet, range(2, 6)) == xlshuffle.shuffled(
        ids(src, sheet, range(2, 6)), seed="hint"
    )
    assert record.unit == "cells"


def test_a_second_header_row_is_refused(tmp_path: Path) -> None:
    src = copy("layout_second_header.xlsx", tmp_path)
    with pytest.raises(WorkbookError) as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", seed=1)
    assert str(info.value) == (
        f"{src}: sheet 'Data': rows 1-2 look like two header rows (C2 is text over numbers): "
        "if row 2 is a header, give --range A3:C10 to draw the rows under them (rows above "
        "stay as they are); if it is data, give --range A1:C10 --header"
    )
    out = tmp_path / "out.xlsx"
    shuffle_workbook(src, out, cells="A3:C10", seed="second")
    assert_drawn(src, out, "Data", range(3, 11), "second")


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (
            "Data",
            "merged cells A1:A2 join header row 1 to row 2, so the header looks like rows "
            "1-2: give --range A3:D10 to draw the rows under them (rows above stay as they "
            "are), or unmerge them",
        ),
        (
            "Across",
            "rows 1-2 look like two header rows (merged header cell B1:C1 stands over "
            "it): if row 2 is a header, give --range A3:C10",
        ),
    ],
)
def test_merged_header_rows_are_refused(tmp_path: Path, sheet: str, message: str) -> None:
    src = copy("layout_merged_header.xlsx", tmp_path)
    with pytest.raises(WorkbookError) as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", sheet=sheet, seed=1)
    assert str(info.value).startswith(f"{src}: sheet {sheet!r}: {message}")
    assert "\n" not in str(info.value)


def test_tables_with_totals_rows_and_the_default_selection(tmp_path: Path) -> None:
    src, out = copy("layout_tables.xlsx", tmp_path), tmp_path / "out.xlsx"
    with pytest.raises(WorkbookError, match=r"cuts through table Left \(A1:B6\): use --table"):
        shuffle_workbook(src, out, sheet="Data", seed=1)
    record = shuffle_workbook(src, out, sheet="Data", table="Left", seed="left")
    assert record.target["ref"] == "A1:B5"  # the totals row 6 is not drawn
    texts_in, texts_out = oracle.cell_texts(src, "Data"), oracle.cell_texts(out, "Data")
    assert [texts_out[(r, 1)] for r in range(2, 6)] == xlshuffle.shuffled(
        [texts_in[(r, 1)] for r in range(2, 6)], seed="left"
    )
    assert texts_out[(6, 1)] == "Total" and {k: v for k, v in texts_out.items() if k[1] > 2} == {
        k: v for k, v in texts_in.items() if k[1] > 2
    }
    # one table, not covering the used range (a title above, a note below): its body
    record = shuffle_workbook(src, out, sheet="One table", seed="one")
    assert record.target == {"kind": "table", "ref": "A3:C11", "columns": None, "table": "Scores"}
    assert_drawn(src, out, "One table", range(4, 12), "one")


def test_the_bundled_raffle_draws_the_same_rows_as_before(tmp_path: Path) -> None:
    """workbooks/raffle.xlsx: header row 1 and rows 2-201, nothing left out, so the
    outputs of the README and docs/batch.md (and every seed's draw) stay the same."""
    src, out = ROOT / "workbooks" / "raffle.xlsx", tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed=2026)
    assert record.target == {"kind": "sheet", "ref": "A1:D201", "columns": None, "table": None}
    assert record.permutation == xlshuffle.shuffled(range(200), seed=2026)
    sheet = record.sheet
    assert_drawn(src, out, sheet, range(2, 202), 2026)
    wb = openpyxl.load_workbook(src)
    names = [wb[sheet].cell(r, 1).value for r in range(2, 202)]
    assert [row[1] for row in sample_workbook(src, k=3, seed=2026).table[1:]] == xlshuffle.deal(
        names, 3, seed=2026
    )


def test_records_keep_what_was_left_out_and_old_records_still_load(tmp_path: Path) -> None:
    src, out = copy("layout_total.xlsx", tmp_path), tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="rec")
    again = DrawRecord.from_dict(record.to_dict())
    assert again.target["excluded"] == record.target["excluded"]
    old = record.to_dict()
    del old["target"]["excluded"]
    assert "excluded" not in DrawRecord.from_dict(old).target
    verify_record(DrawRecord.from_dict(old), input=src, output=out)


def test_dry_run_shows_the_rows_a_draw_would_use(tmp_path: Path, capsys) -> None:
    src = copy("layout_titles.xlsx", tmp_path)
    assert main(["shuffle", str(src), "--seed", "1", "--dry-run"]) == 0
    assert capsys.readouterr().out == (
        f"{src}: dry run, nothing written: 8 data rows (rows) shuffled in Data!A4:D12, header "
        "kept, seed 1; header row 4, data rows 5-12; left out: rows 1-2 (title), row 3 (blank)\n"
    )
    src = copy("layout_total.xlsx", tmp_path)
    assert main(["sample", str(src), "-k", "2", "--seed", "1", "--dry-run"]) == 0
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{src}: dry run, nothing written: 2 of 8 rows drawn in Data!A1:D9, header kept, seed "
        "1; header row 1, data rows 2-9; left out: row 10 (blank), row 11 (total)"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layout_titles.xlsx", src.name]


def test_the_in_memory_engine_follows_the_same_rules(tmp_path: Path) -> None:
    for name, sheet in [
        ("layout_titles.xlsx", "Data"),
        ("layout_total.xlsx", "Data"),
        ("layout_blank_end.xlsx", "Data"),
    ]:
        src = copy(name, tmp_path)
        record = shuffle_workbook(src, tmp_path / "out.xlsx", sheet=sheet, seed="same")
        ws = openpyxl.load_workbook(src)[sheet]
        assert shuffle_worksheet(ws, seed="same") == record.permutation, name
    ws = openpyxl.load_workbook(copy("layout_second_header.xlsx", tmp_path)).active
    with pytest.raises(WorkbookError, match="look like two header rows"):
        shuffle_worksheet(ws, seed=1)


def test_the_dry_run_example_of_the_docs(tmp_path: Path, monkeypatch, capsys) -> None:
    """docs/batch.md's --dry-run example, run on the title fixture as list.xlsx."""
    import re
    import shlex

    text = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```console\n(.*?)```", text, re.DOTALL) if "--dry-run" in b]
    command, expected = block.splitlines()[0], block.splitlines()[1:]
    shutil.copyfile(ENGINE / "layout_titles.xlsx", tmp_path / "list.xlsx")
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(command.removeprefix("$ "))[1:]) == 0
    assert capsys.readouterr().out.splitlines() == expected


def test_shared_strings_are_found_one_by_one_as_the_oracle_reads_them(tmp_path: Path) -> None:
    """The layout reads a few shared strings straight from the raw part (counting <si>
    in 64 kB chunks); every index must give the oracle's text, across chunk borders,
    with prefixes, rich text and <si/> too."""
    from xlshuffle.common.request import Region
    from xlshuffle.workbook.jobs import open_job
    from xlshuffle.workbook.selection.layout_rows import SheetRows

    big = tmp_path / "big.xlsx"
    wb = openpyxl.Workbook()
    for i in range(30_000):
        wb.active.append([f"name {i:05d} " + "x" * (i % 7), i])
    wb.save(big)
    paths = [
        big,
        *(
            p
            for p in sorted(ENGINE.glob("*.xlsx"))
            if p.name not in {"duplicate_member.xlsx", "lying_size.xlsx", "doctype.xlsx"}
        ),
    ]
    checked = 0
    for path in paths:
        strings = oracle.shared_strings(path)
        if not strings:
            continue
        job = open_job(path, Region(cells="A1"), whole_rows=False)
        rows = SheetRows(job.inp.book, job.sx)
        picks = range(len(strings)) if len(strings) < 100 else range(0, len(strings), 997)
        assert [rows.shared(i) for i in picks] == [strings[i] for i in picks], path.name
        assert rows.shared(len(strings)) is None  # past the end: none (the caller refuses)
        checked += 1
    assert checked > 10
