"""Batch mode through the Python API: draw order, fidelity, refusals, records."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xlshuffle
from batch_support import FIXTURES, copy_fixture, grid, load, sha, sheet_state, state_at
from xlshuffle import OptionError, SizeError, WorkbookError
from xlshuffle.batch import (
    groups_workbook,
    sample_workbook,
    shuffle_workbook,
    verify_record,
)

MODES = ("rows", "columns", "cells", "within-rows", "within-columns")


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    return copy_fixture("plain.xlsx", tmp_path)


# --------------------------------------------------------------------------- draw order


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("header", [True, False])
def test_every_mode_equals_core_shuffle_grid(plain: Path, tmp_path: Path, mode: str, header: bool):
    before = load(plain).active
    cells = "A1:E13"
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(plain, out, cells=cells, header=header, by=mode, seed="2026")
    expected = xlshuffle.shuffle_grid(
        grid(before, range(1, 14), range(1, 6)), by=mode, header=header, seed="2026"
    )
    assert grid(load(out).active, range(1, 14), range(1, 6)) == expected
    assert record.mode == mode
    assert record.header is header
    assert record.seed == "2026"


def test_rows_equal_shuffled_rows_known_answer(plain: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(plain, out, seed=42)
    ids = [row[0] for row in load(out).active.iter_rows(min_row=2, values_only=True)]
    assert ids == xlshuffle.shuffled([f"r{i}" for i in range(1, 13)], seed=42)
    assert ids == ["r5", "r7", "r8", "r4", "r2", "r6", "r1", "r11", "r10", "r12", "r9", "r3"]
    assert record.permutation == xlshuffle.permutation(12, seed=42)


def test_input_is_never_written(plain: Path, tmp_path: Path):
    digest = sha(plain)
    shuffle_workbook(plain, tmp_path / "out.xlsx", seed=1)
    shuffle_workbook(plain, dry_run=True, seed=1)
    assert sha(plain) == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xlsx", "plain.xlsx"]


def test_sample_is_prefix_of_shuffle(plain: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    shuffle_workbook(plain, out, seed="raffle")
    shuffled_ids = [r[0] for r in load(out).active.iter_rows(min_row=2, values_only=True)]
    for k in (0, 1, 5, 12):
        result = sample_workbook(plain, k=k, seed="raffle")
        assert [row[1] for row in result.table[1:]] == shuffled_ids[:k]
        assert [row[0] for row in result.table[1:]] == list(range(1, k + 1))
    assert result.table[0] == ["Rank", "id", "name", "score", "joined", "active"]


def test_sample_to_new_sheet_and_csv(plain: Path, tmp_path: Path):
    out = tmp_path / "winners.xlsx"
    sample_workbook(plain, out, k=3, seed="raffle")
    wb = load(out)
    assert wb.sheetnames == ["Data", "Sample"]
    rows = list(wb["Sample"].values)
    assert rows[0][:3] == ("Rank", "id", "name")
    assert [r[0] for r in rows[1:]] == [1, 2, 3]
    csv_out = tmp_path / "winners.csv"
    record = sample_workbook(plain, csv_out, k=3, seed="raffle").record
    lines = csv_out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Rank,id,name,score,joined,active"
    assert [line.split(",")[1] for line in lines[1:]] == [r[1] for r in rows[1:]]
    assert record.output_sha256 == sha(csv_out)


def test_sample_too_many(plain: Path):
    with pytest.raises(SizeError, match="-k 13 is more than the 12 data rows to draw from"):
        sample_workbook(plain, k=13, seed=1)


def test_groups_equal_core_groups(plain: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    groups_workbook(plain, out, k=5, seed="teams")
    ws = load(out).active
    assert ws.cell(1, 6).value == "Group"
    got = [ws.cell(r, 6).value for r in range(2, 14)]
    assert got == xlshuffle.groups(12, 5, seed="teams")
    assert grid(ws, range(1, 14), range(1, 6)) == grid(
        load(plain).active, range(1, 14), range(1, 6)
    )


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.integers(0, 9),
    cols=st.integers(1, 4),
    mode=st.sampled_from(MODES),
    header=st.booleans(),
    seed=st.text(min_size=1, max_size=8),
)
def test_property_any_grid_matches_core(tmp_path: Path, rows, cols, mode, header, seed):
    import openpyxl

    src, out = tmp_path / "g.xlsx", tmp_path / "g.out.xlsx"
    wb = openpyxl.Workbook()
    values = [[f"{r}.{c}" for c in range(cols)] for r in range(rows + 1)]
    for row in values:
        wb.active.append(row)
    wb.save(src)
    ref = f"A1:{'ABCD'[cols - 1]}{rows + 1}"
    if rows == 0 and header:  # no data rows: refused in every mode, nothing written
        out.unlink(missing_ok=True)  # tmp_path is shared by hypothesis' examples
        with pytest.raises(WorkbookError, match="only a header row"):
            shuffle_workbook(src, out, cells=ref, header=header, by=mode, seed=seed)
        assert not out.exists()
        return
    shuffle_workbook(src, out, cells=ref, header=header, by=mode, seed=seed)
    got = grid(load(out).active, range(1, rows + 2), range(1, cols + 1))
    assert got == xlshuffle.shuffle_grid(values, by=mode, header=header, seed=seed)
    assert sorted(c for row in got for c in row) == sorted(c for row in values for c in row)


# --------------------------------------------------------------------------- fidelity


def test_styles_links_comments_and_row_dimensions_move_with_rows(tmp_path: Path):
    for name in ("styles.xlsx", "comments_links.xlsx"):
        src = copy_fixture(name, tmp_path)
        out = tmp_path / f"out-{name}"
        record = shuffle_workbook(src, out, seed="styles")
        before, after = load(src).active, load(out).active
        b, a = sheet_state(before), sheet_state(after)
        body = list(range(2, before.max_row + 1))
        for p, s in enumerate(record.permutation):
            for c in range(1, before.max_column + 1):
                assert a.get((body[p], c)) == b.get((body[s], c)), (name, body[p], c)
            bd, ad = before.row_dimensions[body[s]], after.row_dimensions[body[p]]
            assert (ad.height, ad.hidden, ad.outlineLevel) == (
                bd.height,
                bd.hidden,
                bd.outlineLevel,
            )
        assert b[(1, 1)] == a[(1, 1)]


def test_everything_outside_the_selection_is_unchanged(tmp_path: Path):
    src = copy_fixture("styles.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(src, out, cells="B3:C8", seed="inside")
    before, after = load(src), load(out)
    b, a = sheet_state(before.active), sheet_state(after.active)
    inside = {(r, c) for r in range(3, 9) for c in (2, 3)}
    assert {k: v for k, v in b.items() if k not in inside} == {
        k: v for k, v in a.items() if k not in inside
    }
    assert sorted(map(repr, (b.get(k) for k in inside))) == sorted(
        map(repr, (a.get(k) for k in inside))
    )
    ws0, ws1 = before.active, after.active
    assert ws1.freeze_panes == ws0.freeze_panes == "A2"
    assert ws1.print_area == ws0.print_area
    assert ws1.page_setup.orientation == "landscape"
    assert ws1.column_dimensions["C"].width == ws0.column_dimensions["C"].width
    assert [str(d.sqref) for d in ws1.data_validations.dataValidation] == ["B2:B9"]
    assert [str(r.sqref) for r in ws1.conditional_formatting] == ["B2:B9"]
    assert after.defined_names["amounts"].attr_text == "Styled!$B$2:$B$9"
    for r in range(1, 10):  # a partial-width selection does not move row heights
        assert ws1.row_dimensions[r].height == ws0.row_dimensions[r].height


def test_formulas_are_translated_with_their_row(tmp_path: Path):
    src = copy_fixture("formulas.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(src, out, cells="A1:F11", header=True, seed="f")
    ws = load(out).active
    for r in range(2, 12):
        n = int(ws.cell(r, 1).value[1:])
        assert ws.cell(r, 2).value == n
        assert ws.cell(r, 3).value == f"=B{r}*2"
        assert ws.cell(r, 4).value == "=SUM($B$2:$B$11)"
        assert ws.cell(r, 5).value == f"=B{r}+B{r - 1}"
        assert ws.cell(r, 6).value == f"=$B${n + 1}"  # absolute references stay put
    assert ws["H2"].value == "=SUM(B2:B11)"
    assert ws["H3"].value == "=C2"


def test_columns_selection_keeps_other_columns(plain: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(plain, out, columns="B,D", seed=7)
    before, after = load(plain).active, load(out).active
    assert record.header is True
    assert grid(after, range(1, 14), range(1, 2)) == grid(before, range(1, 14), range(1, 2))
    assert grid(after, range(1, 14), range(3, 4)) == grid(before, range(1, 14), range(3, 4))
    pairs = [(before.cell(r, 2).value, before.cell(r, 4).value) for r in range(2, 14)]
    got = [(after.cell(r, 2).value, after.cell(r, 4).value) for r in range(2, 14)]
    assert got == xlshuffle.shuffled(pairs, seed=7)


def test_table_selection(tmp_path: Path):
    src = copy_fixture("table.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, table="People", seed=3)
    assert record.header is True
    assert record.rows == 11
    after = load(out).active
    assert after.tables["People"].ref == "A3:D13"
    assert [after.cell(3, c).value for c in range(1, 5)] == ["id", "name", "team", "points"]
    ids = [after.cell(r, 1).value for r in range(4, 14)]
    assert ids == xlshuffle.shuffled([f"r{i}" for i in range(1, 11)], seed=3)
    assert after["A1"].value == "People list"
    assert after["F3"].value == "side note"


def test_second_sheet_and_active_sheet(tmp_path: Path):
    src = copy_fixture("two_sheets.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed=9)
    assert record.sheet == "Data"
    before, after = load(src), load(out)
    assert sheet_state(after["Notes"]) == sheet_state(before["Notes"])
    assert after.defined_names["firstv"].attr_text == "Data!$B$2"
    with pytest.raises(OptionError, match="no sheet named 'Nope'"):
        shuffle_workbook(src, out, sheet="Nope", seed=9)


def test_dates_errors_blanks_survive(tmp_path: Path):
    src = copy_fixture("dates_errors_blanks.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="mixed")
    before, after = load(src).active, load(out).active
    for p, s in enumerate(record.permutation):
        for c in range(1, 6):
            assert state_at(after, p + 2, c) == state_at(before, s + 2, c)


def test_macro_workbook_keeps_its_vba_project(tmp_path: Path):
    src = copy_fixture("macro.xlsm", tmp_path)
    out = tmp_path / "out.xlsm"
    shuffle_workbook(src, out, seed=1)
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
        assert b.read("xl/vbaProject.bin") == a.read("xl/vbaProject.bin")
        assert b"macroEnabled" in b.read("[Content_Types].xml")


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("name", "kwargs", "message"),
    [
        ("merged.xlsx", {"by": "cells"}, r"merged cells B5:C5 span cells the draw moves apart"),
        ("array.xlsx", {}, r"F3:F4 holds an array formula"),
        ("protected.xlsx", {}, r"sheet 'Data' is protected"),
        ("table.xlsx", {"cells": "A4:C13"}, r"cuts through table People"),
        ("table.xlsx", {"table": "People", "by": "columns"}, r"reorder table People"),
        ("encrypted.xlsx", {}, r"password-protected"),
        ("legacy.xls", {}, r"legacy Excel 97-2003"),
        ("binary.xlsb", {}, r"binary workbook \(\.xlsb\)"),
        ("sheet.ods", {}, r"OpenDocument spreadsheet"),
        ("csv_named.xlsx", {}, r"not a zip package"),
        ("not_a_workbook.csv", {}, r"not a zip package"),
        ("empty.xlsx", {}, r"the file is empty"),
        ("truncated.xlsx", {}, r"damaged or not a zip package .*truncated"),
        ("entities.xlsx", {}, r"declares XML entities"),
    ],
)
def test_refusals_are_one_clear_line(tmp_path: Path, name: str, kwargs: dict, message: str):
    src = copy_fixture(name, tmp_path)
    digest = sha(src)
    with pytest.raises(WorkbookError, match=message) as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", seed=1, **kwargs)
    assert "\n" not in str(info.value)
    assert str(src) in str(info.value)
    assert sha(src) == digest
    assert not (tmp_path / "out.xlsx").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_merged_title_outside_the_range_is_fine(tmp_path: Path):
    src = copy_fixture("merged.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(src, out, cells="A3:A8", seed=1)
    assert [str(m) for m in load(out).active.merged_cells.ranges] == ["A1:C1", "B5:C5"]


def test_single_row_merges_travel_with_their_row(tmp_path: Path):
    src = copy_fixture("merged.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed=1)
    before, after = load(src).active, load(out).active
    moved_to = {after.cell(r, 1).value: r for r in range(1, after.max_row + 1)}
    merge_row = next(
        r
        for r in range(1, before.max_row + 1)
        if before.cell(r, 2).coordinate
        in {str(m).split(":")[0] for m in before.merged_cells.ranges}
    )
    new_row = moved_to[before.cell(merge_row, 1).value]
    merges = sorted(str(m) for m in after.merged_cells.ranges)
    assert merges == sorted(["A1:C1", f"B{new_row}:C{new_row}"])
    assert record.unit == "rows"


def test_custom_xml_and_every_other_part_survive(tmp_path: Path):
    src = copy_fixture("custom_xml.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed=1)
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
        assert a.namelist() == b.namelist()
        changed = {n for n in a.namelist() if a.read(n) != b.read(n)}
    assert changed == set(record.parts["rewritten"]) - {"xl/workbook.xml"}
    assert any(n.startswith("customXml/") for n in zipfile.ZipFile(out).namelist())


@pytest.mark.slow  # builds and inflates a 900 MB member (test_wb_zipio.py checks the ratio small)
def test_zip_bomb_is_refused(tmp_path: Path):
    plain = copy_fixture("plain.xlsx", tmp_path)
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"</worksheet>", b"\x20" * (900 * 1024**2) + b"</worksheet>")
            zf.writestr(info, data)
    with pytest.raises(WorkbookError, match="like a zip bomb"):
        shuffle_workbook(bomb, tmp_path / "out.xlsx", seed=1)


def test_workbook_open_in_excel_is_refused(plain: Path, tmp_path: Path):
    lock = tmp_path / "~$plain.xlsx"
    lock.write_bytes(b"owner")
    with pytest.raises(WorkbookError, match=r"open in Excel \(lock file ~\$plain.xlsx"):
        shuffle_workbook(plain, tmp_path / "out.xlsx", seed=1)


def test_bad_options(plain: Path, tmp_path: Path):
    with pytest.raises(OptionError, match="unknown mode"):
        shuffle_workbook(plain, tmp_path / "o.xlsx", by="diagonal")
    with pytest.raises(OptionError, match="not an A1 range"):
        shuffle_workbook(plain, tmp_path / "o.xlsx", cells="nonsense!")
    with pytest.raises(OptionError, match="at most one of"):
        shuffle_workbook(plain, tmp_path / "o.xlsx", cells="A1:B2", columns="B")
    with pytest.raises(OptionError, match="no table named 'Nope'"):
        shuffle_workbook(plain, tmp_path / "o.xlsx", table="Nope")
    with pytest.raises(OptionError, match="output is the input"):
        shuffle_workbook(plain, plain)
    with pytest.raises(OptionError, match="give an output path"):
        shuffle_workbook(plain)


# --------------------------------------------------------------------------- in place, records


def test_in_place_keeps_a_backup(plain: Path):
    original = plain.read_bytes()
    record = shuffle_workbook(plain, in_place=True, seed=5)
    backup = plain.with_name("plain.bak.xlsx")
    assert record.backup == str(backup)
    assert backup.read_bytes() == original
    assert record.input_sha256 != record.output_sha256 == sha(plain)
    verify_record(record, input=backup, output=plain)


def test_in_place_without_backup(plain: Path):
    shuffle_workbook(plain, in_place=True, backup=False, seed=5)
    assert sorted(p.name for p in plain.parent.iterdir()) == ["plain.xlsx"]


def test_record_replays_and_catches_tampering(plain: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(plain, out, seed="audit")
    verify_record(record, input=plain, output=out)
    verify_record(record, output=out)
    assert record.to_dict()["protocol"] == "xlshuffle/draw/v1"
    wb = load(out)
    wb.active["A5"] = "forged"
    wb.save(out)
    with pytest.raises(WorkbookError, match=r"row 5 does not hold input row \d+"):
        verify_record(record, input=plain, output=out)
    with pytest.raises(WorkbookError, match="not the recorded output"):
        verify_record(record, output=out)
    with pytest.raises(WorkbookError, match="not the recorded input"):
        verify_record(record, input=out)


def test_unseeded_draw_records_its_seed(plain: Path, tmp_path: Path):
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(plain, out)
    assert len(record.seed) == 26
    assert record.permutation == xlshuffle.permutation(12, seed=record.seed)


def test_fixtures_are_committed():
    names = {p.name for p in FIXTURES.iterdir()}
    assert {"plain.xlsx", "macro.xlsm", "styles.xlsx", "table.xlsx"} <= names


def test_rich_text_runs_survive(tmp_path: Path):
    import openpyxl
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    src, out = tmp_path / "rich.xlsx", tmp_path / "out.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Note"])
    for i in range(8):
        note = CellRichText(["plain ", TextBlock(InlineFont(b=True), f"bold {i}")])
        ws.append([f"n{i}", note])
    wb.save(src)
    shuffle_workbook(src, out, seed=3)
    notes = [c.value for c in load(out)["Sheet"]["B"][1:]]
    assert all(isinstance(n, CellRichText) for n in notes)
    assert sorted(str(n) for n in notes) == sorted(f"plain bold {i}" for i in range(8))
    assert all(n[1].font.b for n in notes)
