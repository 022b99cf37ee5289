"""The workbook engine on one fixture per format and edge case (tests/fixtures/engine/,
written by tools/make_engine_fixtures.py), checked with the independent oracle and openpyxl.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl.formula.translate import Translator

import oracle
import xlshuffle
from xlshuffle import WorkbookError
from xlshuffle.workbook import (
    groups_workbook,
    restore_workbook,
    sample_workbook,
    shuffle_workbook,
    verify_record,
)
from xlshuffle.workbook.scan.refs import parse_area

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"

EXACT = [
    "strict.xlsx",
    "template.xltx",
    "macro_template.xltm",
    "inline_strings.xlsx",
    "no_refs.xlsx",
    "prefixed.xlsx",
    "cdata_charrefs.xlsx",
    "shared_formulas.xlsx",
    "relative_formulas.xlsx",
    "merges.xlsx",
    "comments.xlsx",
    "hyperlinks.xlsx",
    "table_title.xlsx",
    "row_attrs.xlsx",
    "lookalikes.xlsx",
    "extras.xlsx",
    "dates_1900.xlsx",
    "dates_1904.xlsx",
]

# no_refs.xlsx has rows 6-7 missing inside its data, which the default selection refuses
# (test_layout.py); an explicit range draws it, rows and cells without r= included
OPTIONS = {"no_refs.xlsx": {"cells": "A1:E9", "header": True}}

REFUSED = {
    "array_formula.xlsx": r"D3:D5 holds an array formula or spill",
    "dynamic_array.xlsx": r"D2:D9 holds an array formula or spill",
    "data_table.xlsx": r"C3:C9 holds a data table",
    "protected_sheet.xlsx": r"sheet 'Data' is protected",
    "pivot.xlsx": r"pivot table output F1:G4 lies in the selection",
    "doctype.xlsx": r"declares XML entities",
    "duplicate_member.xlsx": r"holds the part 'xl/worksheets/sheet1.xml' twice",
    "lying_size.xlsx": r"inflates past the size it declares",
    "merge_spanning.xlsx": r"merged cells B4:B5 span cells the draw moves apart",
    "off_sheet.xlsx": r"formula in D9 cannot move to D\d+ \(reference B1 would move above row 1",
}


def copy(name: str, folder: Path) -> Path:
    dst = folder / name
    shutil.copyfile(ENGINE / name, dst)
    return dst


def band(record) -> tuple[int, int]:
    area = parse_area(record.target["ref"])
    return area.top + (1 if record.header else 0), area.bottom


@pytest.mark.parametrize("name", EXACT)
def test_exact_draw_and_restore(tmp_path: Path, name: str) -> None:
    src = copy(name, tmp_path)
    out, back = tmp_path / f"out-{name}", tmp_path / f"back-{name}"
    record = shuffle_workbook(src, out, seed="fixtures", **OPTIONS.get(name, {}))
    allowed = {*record.parts["rewritten"], *record.parts["added"], *record.parts["removed"]}
    assert oracle.unchanged_members(src, out, allowed) == []
    top, bottom = band(record)
    before = oracle.sheet_cells(src, record.sheet)
    after = oracle.sheet_cells(out, record.sheet)
    if record.unit == "rows":
        oracle.is_row_permutation(
            before,
            after,
            top,
            bottom,
            whole_rows=True,
            before_rows=oracle.sheet_rows(src, record.sheet),
            after_rows=oracle.sheet_rows(out, record.sheet),
        )
    else:
        area = parse_area(record.target["ref"])
        cols = range(area.left, area.right + 1)
        oracle.is_row_permutation(before, after, top, bottom, whole_rows=False, cols=cols)
    # the data rows are told apart by their first cell: r1, r2, ...
    first_col = min(c for _, c in before)
    texts_in = oracle.cell_texts(src, record.sheet)
    texts_out = oracle.cell_texts(out, record.sheet)
    for p, s in enumerate(record.permutation):
        assert texts_out.get((top + p, first_col)) == texts_in.get((top + s, first_col))
    verify_record(record, input=src, output=out)
    restore_workbook(record, out, back)
    assert oracle.unchanged_members(src, back, allowed) == []
    found = oracle.is_row_permutation(
        before, oracle.sheet_cells(back, record.sheet), top, bottom, whole_rows=True
    )
    assert found == list(range(bottom - top + 1))


@pytest.mark.parametrize(("name", "message"), sorted(REFUSED.items()))
def test_refusal_names_the_cell_and_writes_nothing(tmp_path: Path, name: str, message: str):
    src = copy(name, tmp_path)
    data = src.read_bytes()
    with pytest.raises(WorkbookError, match=message) as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", seed=1)
    assert "\n" not in str(info.value) and str(src) in str(info.value)
    assert src.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_templates_and_macros_keep_their_content_types(tmp_path: Path) -> None:
    for name in ("template.xltx", "macro_template.xltm"):
        src = copy(name, tmp_path)
        out = tmp_path / f"out-{name}"
        shuffle_workbook(src, out, seed=3)
        with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
            assert a.read("[Content_Types].xml") == b.read("[Content_Types].xml")
            assert a.namelist() == b.namelist()


def test_strict_workbook_stays_strict(tmp_path: Path) -> None:
    src = copy("strict.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(src, out, seed=3)
    with zipfile.ZipFile(out) as zf:
        sheet = zf.read(oracle.sheet_part(out, "Data"))
    assert b"http://purl.oclc.org/ooxml/spreadsheetml/main" in sheet
    assert b"schemas.openxmlformats.org/spreadsheetml" not in sheet


def test_shared_formulas_are_written_out_and_the_calc_chain_goes(tmp_path: Path) -> None:
    src = copy("shared_formulas.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="shared")
    assert record.parts["removed"] == ["xl/calcChain.xml"]
    with zipfile.ZipFile(out) as zf:
        assert "xl/calcChain.xml" not in zf.namelist()
        assert b"calcChain" not in zf.read("[Content_Types].xml")
        assert b"calcChain" not in zf.read("xl/_rels/workbook.xml.rels")
        assert re.search(rb'<calcPr [^>]*fullCalcOnLoad="1"', zf.read("xl/workbook.xml"))
    # every formula reads as openpyxl translates the input's formula to its new place
    wb_in = openpyxl.load_workbook(src)
    wb_out = openpyxl.load_workbook(out)
    ws_in, ws_out = wb_in[record.sheet], wb_out[record.sheet]
    top, _ = band(record)
    for p, s in enumerate(record.permutation):
        for cell in ws_in[top + s]:
            if cell.data_type != "f":
                continue
            moved = ws_out.cell(top + p, cell.column)
            expected = Translator(cell.value, origin=cell.coordinate).translate_formula(
                moved.coordinate
            )
            assert moved.value == expected, (cell.coordinate, moved.coordinate)


def test_comments_notes_and_threads_travel(tmp_path: Path) -> None:
    src = copy("comments.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="notes")
    top, _ = band(record)
    inv = {s: p for p, s in enumerate(record.permutation)}
    new_row = {r: top + inv[r - top] for r in range(top, top + len(inv))}
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
        refs_in = re.findall(rb'<comment ref="([A-Z]+)(\d+)"', a.read("xl/comments1.xml"))
        refs_out = re.findall(rb'<comment ref="([A-Z]+)(\d+)"', b.read("xl/comments1.xml"))
        assert refs_out == [(c, b"%d" % new_row[int(r)]) for c, r in refs_in]
        vml_in = re.findall(rb"<x:Row>(\d+)</x:Row>", a.read("xl/drawings/vmlDrawing1.vml"))
        vml_out = re.findall(rb"<x:Row>(\d+)</x:Row>", b.read("xl/drawings/vmlDrawing1.vml"))
        assert vml_out == [b"%d" % (new_row[int(r) + 1] - 1) for r in vml_in]
        thread = "xl/threadedComments/threadedComment1.xml"
        t_in = re.findall(rb'ref="([A-Z]+)(\d+)"', a.read(thread))
        t_out = re.findall(rb'ref="([A-Z]+)(\d+)"', b.read(thread))
        assert t_out == [(c, b"%d" % new_row[int(r)]) for c, r in t_in]
    ws = openpyxl.load_workbook(out)[record.sheet]
    commented = [c for row in ws.iter_rows() for c in row if c.comment is not None]
    assert commented  # openpyxl still finds the notes on their cells


def test_hyperlinks_travel(tmp_path: Path) -> None:
    src = copy("hyperlinks.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="links")
    a, b = openpyxl.load_workbook(src)[record.sheet], openpyxl.load_workbook(out)[record.sheet]
    links_in = {
        c.value: c.hyperlink.target or c.hyperlink.location
        for row in a.iter_rows()
        for c in row
        if c.hyperlink
    }
    links_out = {
        c.value: c.hyperlink.target or c.hyperlink.location
        for row in b.iter_rows()
        for c in row
        if c.hyperlink
    }
    assert links_in == links_out and links_in


def test_table_with_title_rows_draws_its_body(tmp_path: Path) -> None:
    src = copy("table_title.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="table")
    assert record.target["kind"] == "table" and record.unit == "cells"
    a, b = openpyxl.load_workbook(src).active, openpyxl.load_workbook(out).active
    assert [c.value for c in a[1]] == [c.value for c in b[1]]  # title rows stay
    assert [c.value for c in a[12]] == [c.value for c in b[12]]  # totals row stays
    assert a["F5"].value == b["F5"].value is not None  # the note beside the table stays
    body_in = [[c.value for c in a[r][:4]] for r in range(4, 12)]
    body_out = [[c.value for c in b[r][:4]] for r in range(4, 12)]
    assert body_out == xlshuffle.shuffled(body_in, seed="table")


def test_rows_without_references_get_them(tmp_path: Path) -> None:
    src = copy("no_refs.xlsx", tmp_path)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(src, out, seed=1, **OPTIONS["no_refs.xlsx"])
    with zipfile.ZipFile(out) as zf:
        xml = zf.read("xl/worksheets/sheet1.xml")
    moved_rows = re.findall(rb"<row[^>]*>", xml)
    assert all(b' r="' in tag for tag in moved_rows[1:])


def test_sample_sheet_and_groups_in_prefixed_and_strict_workbooks(tmp_path: Path) -> None:
    for name in ("prefixed.xlsx", "strict.xlsx"):
        src = copy(name, tmp_path)
        out = tmp_path / f"sample-{name}"
        result = sample_workbook(src, out, k=3, seed="s")
        (added,) = result.record.parts["added"]
        assert (
            added.startswith("xl/worksheets/sheet") and added not in zipfile.ZipFile(src).namelist()
        )
        names = oracle.sheet_names(out)
        assert names[-1] == "Sample"
        texts = oracle.cell_texts(out, "Sample")
        assert texts[(1, 1)] == "Rank"
        ids = [texts[(r, 2)] for r in (2, 3, 4)]
        src_texts = oracle.cell_texts(src, "Data")
        rows = [src_texts[(r, 1)] for r in range(2, 10)]
        assert ids == xlshuffle.deal(rows, 3, seed="s")
        allowed = {*result.record.parts["rewritten"], *result.record.parts["added"]}
        assert oracle.unchanged_members(src, out, allowed) == []
        grouped = tmp_path / f"groups-{name}"
        record = groups_workbook(src, grouped, k=3, seed="g")
        col = max(c for _, c in oracle.sheet_cells(src, "Data")) + 1
        got = [oracle.cell_texts(grouped, "Data")[(r, col)] for r in range(2, 10)]
        assert got == [str(g) for g in xlshuffle.groups(8, 3, seed="g")]
        assert record.parts["rewritten"] == [oracle.sheet_part(src, "Data")]


def test_dry_run_checks_everything_and_writes_nothing(tmp_path: Path) -> None:
    src = copy("off_sheet.xlsx", tmp_path)
    with pytest.raises(WorkbookError, match="cannot move"):
        shuffle_workbook(src, tmp_path / "o.xlsx", seed=1, dry_run=True)
    src = copy("comments.xlsx", tmp_path)
    record = shuffle_workbook(src, tmp_path / "o.xlsx", seed=1, dry_run=True)
    assert record.output is None and record.output_sha256 is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["comments.xlsx", "off_sheet.xlsx"]


def test_libreoffice_opens_every_output(tmp_path: Path) -> None:
    from support import require

    require(
        "libreoffice",
        shutil.which("soffice") is not None,
        "install LibreOffice (apt-get install libreoffice-calc-nogui)",
    )
    pairs = []
    for name in EXACT:
        src = copy(name, tmp_path)
        out = tmp_path / f"out-{name}"
        record = shuffle_workbook(src, out, seed="lo", **OPTIONS.get(name, {}))
        pairs.append((src, out, record))
    tables = oracle.libreoffice_csv([p for s, o, _ in pairs for p in (s, o)])
    for src, out, record in pairs:
        before, after = tables[src], tables[out]
        assert after is not None, src.name
        if before is None or oracle.sheet_names(src)[0] != record.sheet:
            continue
        top, _ = band(record)
        for p, s in enumerate(record.permutation):  # the r1, r2... ids in the first column
            col = min(c for _, c in oracle.sheet_cells(src, record.sheet)) - 1
            assert after[top + p - 1][col] == before[top + s - 1][col], (src.name, p)


def test_verify_accepts_an_output_resaved_with_other_string_indexes(tmp_path: Path) -> None:
    """A re-save (Excel, LibreOffice, openpyxl) renumbers shared strings and styles; the
    cells still hold the same values, so the draw still verifies; a changed value does not."""
    src = copy("prefixed.xlsx", tmp_path)
    out, resaved = tmp_path / "out.xlsx", tmp_path / "resaved.xlsx"
    record = shuffle_workbook(src, out, seed="resave")
    wb = openpyxl.load_workbook(out)
    wb.save(resaved)  # openpyxl drops the x: prefix and writes its own shared strings
    with zipfile.ZipFile(resaved) as zf:
        assert b"<x:row" not in zf.read(oracle.sheet_part(resaved, record.sheet))
    verify_record(record, input=src, output=resaved)
    top, _ = band(record)
    wb[record.sheet].cell(top + 1, 1).value = "forged"
    wb.save(resaved)
    with pytest.raises(WorkbookError, match=rf"row {top + 1} does not hold input row"):
        verify_record(record, input=src, output=resaved)


def test_formula_patterns_with_the_row_number_as_a_constant(tmp_path: Path) -> None:
    """The quick path blanks a row's number out of its formulas; a formula where that
    number is also a constant, a function name or an absolute row must still be exact."""
    src, out = tmp_path / "in.xlsx", tmp_path / "out.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["id", "n", "a", "b", "c", "d", "e"])
    for r in range(2, 40):
        ws.append(
            [
                f"r{r}",
                r,
                f"=B{r}*{r}",
                f"=B{r}*2",
                f"=$B${r}+B{r}",
                f"=LOG10(B{r})",
                f"=SUM(A{r}:B{r})*12+B{r - 1 if r > 2 else r}",
            ]
        )
    wb.save(src)
    record = shuffle_workbook(src, out, seed="patterns")
    a, b = openpyxl.load_workbook(src).active, openpyxl.load_workbook(out).active
    for p, s in enumerate(record.permutation):
        for cell in a[2 + s][2:]:
            moved = b.cell(2 + p, cell.column)
            want = Translator(cell.value, origin=cell.coordinate).translate_formula(
                moved.coordinate
            )
            assert moved.value == want, (cell.coordinate, moved.coordinate)


def test_output_keeps_the_input_permission_bits(tmp_path: Path) -> None:
    src = copy("merges.xlsx", tmp_path)
    src.chmod(0o640)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(src, out, seed=1)
    assert out.stat().st_mode & 0o777 == 0o640


def test_calc_chain_override_written_as_a_pair_is_removed_whole(tmp_path: Path) -> None:
    src = copy("shared_formulas.xlsx", tmp_path)
    paired = tmp_path / "paired.xlsx"
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(paired, "w", zipfile.ZIP_DEFLATED) as b:
        for info in a.infolist():
            data = a.read(info)
            if info.filename == "[Content_Types].xml":
                data = re.sub(
                    rb'(<Override PartName="/xl/calcChain.xml"[^>]*?)/>', rb"\1></Override>", data
                )
                assert b"></Override>" in data
            b.writestr(info, data)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(paired, out, seed="shared")
    with zipfile.ZipFile(out) as zf:
        types = zf.read("[Content_Types].xml")
    assert b"calcChain" not in types and b"</Override>" not in types
    openpyxl.load_workbook(out)  # still a valid package


def test_row_number_lookalikes_keep_their_text(tmp_path: Path) -> None:
    """A row's number that also ends another attribute, a text or a formula's string
    constant is not a reference: only references change (written out by hand here)."""
    src, out = copy("lookalikes.xlsx", tmp_path), tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, seed="lookalikes")
    ws = openpyxl.load_workbook(out).active
    for p, s in enumerate(record.permutation):
        old, new = 2 + s, 2 + p
        assert ws[f"A{new}"].value == f"r{old}"
        assert ws[f"B{new}"].value == f'row {old}" tall, r="A{old}"'
        assert ws[f"AB{new}"].value == f'=A{new}&"{old}"'
        assert ws.row_dimensions[new].height == old
    assert sorted(record.permutation) == list(range(30))
    assert record.permutation != list(range(30))


def test_sample_of_prefixed_cells_without_references(tmp_path: Path) -> None:
    """Cells that omit r= in a sheet with a namespace prefix get their new reference after
    the whole element name (was: ``<x r="B2":c``, which no reader opens)."""
    src = tmp_path / "in.xlsx"
    with zipfile.ZipFile(ENGINE / "prefixed.xlsx") as zin, zipfile.ZipFile(src, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'(<x:c) r="[A-Z]+\d+"', rb"\1", data)
            zout.writestr(info, data)
    out = tmp_path / "out.xlsx"
    sample_workbook(src, out, k=3, seed="s")
    texts = oracle.cell_texts(out, "Sample")
    src_texts = oracle.cell_texts(src, "Data")
    rows = [[src_texts[(r, c)] for c in (1, 2, 3)] for r in range(2, 10)]
    assert [[texts[(r, c)] for c in (2, 3, 4)] for r in (2, 3, 4)] == xlshuffle.deal(
        rows, 3, seed="s"
    )


@pytest.mark.parametrize(
    ("inside", "plain"),
    [
        (b"", True),
        # "!" and "?" in formulas and text, no markup: the quick byte search finds them,
        # and the careful search says plain all the same
        (b'<c r="B1" t="str"><f>Sheet2!A1&amp;"?"</f><v>x?</v></c>', True),
        (b'<c r="B1"><v>1</v></c><!-- a note -->', False),
        (b'<c r="B1"><v>1</v></c><?producer keep?>', False),
        (b'<c r="B1" t="inlineStr"><is><t><![CDATA[a<b]]></t></is></c>', False),
    ],
)
def test_a_sheet_is_plain_unless_markup_sits_in_its_rows(inside: bytes, plain: bool) -> None:
    from xlshuffle.workbook.scan.sheet import SheetXml

    sheet = b'<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1"><v>2</v></c>'
    sheet += inside + b"</row></sheetData><!-- after --></worksheet>"
    assert SheetXml(sheet, "s").plain is plain


@pytest.mark.parametrize(
    "tail",
    [
        b"",
        b"<!-- </sheetData> -->",  # the end tag again, in a comment after the rows' end
        b"<extLst><ext><![CDATA[</sheetData>]]></ext></extLst>",
        b"<mergeCells/>" * 50,
    ],
)
@pytest.mark.parametrize(
    "rows",
    [
        b'<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>',
        b'<row r="1"><c r="A1"><v>1</v></c></row>\n  <row r="3"><c r="A3"><v>3</v></c></row>\n',
        b'<row r="1"><c r="A1"><v>1</v></c></row><autoFilter ref="A1:A2"/><row r="2"></row>',
        b"<row><c><v>1</v></c></row><row><c><v>2</v></c></row>",
    ],
)
def test_the_rows_end_at_the_first_end_of_sheet_data(rows: bytes, tail: bytes) -> None:
    """The end of <sheetData> is searched from the part's end (where it is, a search from
    the start reads every row); the rows found are those a reader from the start finds,
    whatever follows them."""
    from xlshuffle.workbook.scan.sheet import SheetXml

    head = b'<?xml version="1.0"?><worksheet><sheetData>'
    sheet = head + rows + b"</sheetData>" + tail + b"</worksheet>"
    sx = SheetXml(sheet, "s")
    assert (sx.content_start, sx.content_end) == (len(head), len(head) + len(rows))
    assert sx.plain
    found = [sheet[a:b] for a, b in zip(sx.starts, sx.ends, strict=True)]
    assert b"".join(found) == re.sub(rb"\s*<autoFilter[^>]*>\s*|\n\s*", b"", rows)


@given(
    st.lists(
        st.sampled_from(
            [b"<c", b"<row", b" ", b"\t", b"r", b"=", b'"1"', b"s", b">", b"<v>r=</v>", b"x"]
        ),
        max_size=30,
    )
)
def test_no_r_attribute_answers_as_the_tag_searches(pieces: list[bytes]) -> None:
    """When no_r_attribute says no attribute r is written, neither a cell's nor a row's
    tag search finds one (it answers for both, and is their quick first search)."""
    from xlshuffle.workbook.scan.sheet import no_r_attribute, numbered_cell_tag

    data = b"".join(pieces)
    if no_r_attribute(data, 0, len(data)):
        assert numbered_cell_tag(b"").search(data) is None
        assert re.search(rb"<row\s[^<>]*?(?<=\s)r\s*=", data) is None


def test_no_r_attribute_reads_a_bounded_number_of_lookalikes() -> None:
    """Text full of "r=" that is no attribute: a bounded number of reads, then the exact
    search decides (False here means: search exactly)."""
    from xlshuffle.workbook.scan.sheet import cells_unnumbered, no_r_attribute

    rows = b"<row><c><v>xr=</v></c></row>" * 10_000
    assert not no_r_attribute(rows, 0, len(rows))
    assert cells_unnumbered(rows, 0, len(rows), b"")
    assert no_r_attribute(b"<row><c><v>xr=</v></c></row>", 0, 27)
