"""Write the tiny batch-mode test workbooks into tests/fixtures/, one per edge case.

Run from the project root: ``.venv/bin/python tools/make_fixtures.py``. The files are
committed; rerun this script only when a fixture has to change. Every workbook has a
header row in row 1 (unless said otherwise) and a few data rows whose first cell is
``r1``, ``r2``... so tests can tell rows apart after a shuffle.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.table import Table, TableStyleInfo

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
EPOCH = dt.datetime(2026, 1, 1)


def _fixed(wb: Workbook) -> Workbook:
    wb.properties.creator = "xlshuffle fixtures"
    wb.properties.created = EPOCH
    wb.properties.modified = EPOCH
    return wb


def plain() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Data"
    ws.append(["id", "name", "score", "joined", "active"])
    for i in range(1, 13):
        ws.append([f"r{i}", f"Person {i}", i * 7 % 13, dt.date(2025, 1, i), i % 2 == 0])
    return wb


def formulas() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Calc"
    ws.append(["id", "n", "double", "total", "n+prev", "abs"])
    for r in range(2, 12):
        ws.append(
            [f"r{r - 1}", r - 1, f"=B{r}*2", "=SUM($B$2:$B$11)", f"=B{r}+B{r - 1}", f"=$B${r}"]
        )
    ws["H1"] = "outside"
    ws["H2"] = "=SUM(B2:B11)"
    ws["H3"] = "=C2"
    return wb


def styles() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Styled"
    ws.append(["id", "amount", "note"])
    thin = Side(style="thin", color="FF0000FF")
    for i in range(1, 9):
        ws.append([f"r{i}", i * 1.5, f"note {i}"])
        r = i + 1
        ws.cell(r, 1).font = Font(bold=i % 2 == 0, italic=i % 3 == 0, color=f"FF{i * 20:02X}0000")
        ws.cell(r, 2).fill = PatternFill("solid", fgColor=f"FF00{i * 25:02X}00")
        ws.cell(r, 2).number_format = "0.00" if i % 2 else "#,##0.000"
        ws.cell(r, 3).border = Border(left=thin, bottom=thin) if i % 2 else Border()
        ws.cell(r, 3).alignment = Alignment(horizontal="right" if i % 2 else "center")
        ws.cell(r, 3).protection = Protection(locked=i % 2 == 0)
        ws.row_dimensions[r].height = 12 + i
    ws.row_dimensions[4].hidden = True
    ws.row_dimensions[6].outlineLevel = 1
    ws.column_dimensions["A"].width = 14
    ws.column_dimensions["C"].width = 30
    ws.freeze_panes = "A2"
    ws.print_area = "A1:C9"
    ws.page_setup.orientation = "landscape"
    dv = DataValidation(type="whole", operator="between", formula1="0", formula2="100")
    dv.add("B2:B9")
    ws.add_data_validation(dv)
    ws.conditional_formatting.add(
        "B2:B9", CellIsRule(operator="greaterThan", formula=["5"], fill=PatternFill("solid"))
    )
    ws["E1"] = "kept"
    ws["E1"].font = Font(underline="single")
    wb.defined_names["amounts"] = DefinedName("amounts", attr_text="Styled!$B$2:$B$9")
    return wb


def comments_links() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Links"
    ws.append(["id", "site", "remark"])
    for i in range(1, 7):
        ws.append([f"r{i}", f"site {i}", f"remark {i}"])
        ws.cell(i + 1, 2).hyperlink = f"https://example.org/{i}"
        if i % 2:
            ws.cell(i + 1, 3).comment = Comment(f"comment on r{i}", "tester")
    ws["E1"].comment = Comment("outside the selection", "tester")
    return wb


def merged() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Merged"
    ws["A1"] = "Title over the list"
    ws.merge_cells("A1:C1")
    ws.append(["id", "a", "b"])
    for i in range(1, 7):
        ws.append([f"r{i}", i, i * 10])
    ws.merge_cells("B5:C5")
    return wb


def table() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Tabled"
    ws["A1"] = "People list"
    ws.append([])
    ws.append(["id", "name", "team", "points"])
    for i in range(1, 11):
        ws.append([f"r{i}", f"Name {i}", "AB"[i % 2], i * 3])
    tbl = Table(displayName="People", ref="A3:D13")
    tbl.tableStyleInfo = TableStyleInfo(name="TableStyleMedium9", showRowStripes=True)
    ws.add_table(tbl)
    ws["F3"] = "side note"
    return wb


def dates_errors_blanks() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Mixed"
    ws.append(["id", "when", "time", "value", "text"])
    values = [
        ("r1", dt.datetime(2024, 2, 29, 13, 30), dt.time(8, 15), "#N/A", ""),
        ("r2", dt.date(1999, 12, 31), None, 3.25, None),
        ("r3", None, dt.time(23, 59, 59), "#DIV/0!", "x"),
        ("r4", dt.datetime(2030, 1, 1), None, None, " spaced "),
        ("r5", dt.date(2000, 1, 1), dt.time(0, 0), -1e-9, "ünïcödé ✓"),
        ("r6", None, None, 10**12, None),
    ]
    for row in values:
        ws.append(list(row))
    for r in range(2, 8):
        if isinstance(ws.cell(r, 4).value, str):
            ws.cell(r, 4).data_type = "e"
    ws["B5"].number_format = "yyyy-mm-dd"
    return wb


def two_sheets() -> Workbook:
    wb = _fixed(Workbook())
    ws = wb.active
    ws.title = "Notes"
    ws["A1"] = "This sheet must not change"
    ws["A2"] = "=Data!A2"
    data = wb.create_sheet("Data")
    data.append(["id", "v"])
    for i in range(1, 9):
        data.append([f"r{i}", i])
    wb.active = 1
    wb.defined_names["firstv"] = DefinedName("firstv", attr_text="Data!$B$2")
    return wb


def protected() -> Workbook:
    wb = plain()
    wb.active.protection.sheet = True
    wb.active.protection.password = "secret"
    return wb


def array() -> Workbook:
    wb = plain()
    ws = wb.active
    ws["F3"] = ArrayFormula("F3:F4", "=C3:C4*2")
    return wb


def _save(wb: Workbook) -> bytes:
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _rewrite(data: bytes, edit: dict[str, bytes | None]) -> bytes:
    """Copy a package, replacing (bytes), dropping (None) or adding parts."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename in edit:
                continue
            dst.writestr(info, src.read(info.filename))
        for name, content in edit.items():
            if content is not None:
                info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                dst.writestr(info, content)
    return out.getvalue()


def with_extra_parts(base: bytes, parts: dict[str, tuple[str, bytes]], rel: str | None) -> bytes:
    """Add parts (name -> (content type, bytes)) and a workbook relationship to the first."""
    zf = zipfile.ZipFile(io.BytesIO(base))
    types = zf.read("[Content_Types].xml").decode()
    overrides = "".join(
        f'<Override PartName="/{name}" ContentType="{ctype}"/>'
        for name, (ctype, _) in parts.items()
    )
    types = types.replace("</Types>", overrides + "</Types>")
    edit: dict[str, bytes | None] = {"[Content_Types].xml": types.encode()}
    if rel is not None:
        rels = zf.read("xl/_rels/workbook.xml.rels").decode()
        first = next(iter(parts))
        rels = rels.replace(
            "</Relationships>",
            f'<Relationship Id="rIdX1" Type="{rel}" Target="/{first}"/></Relationships>',
        )
        edit["xl/_rels/workbook.xml.rels"] = rels.encode()
    for name, (_, content) in parts.items():
        edit[name] = content
    return _rewrite(base, edit)


def macro() -> bytes:
    base = _save(plain())
    vba = bytes(range(256)) * 8  # not a real VBA project: openpyxl copies it unread
    data = with_extra_parts(
        base,
        {"xl/vbaProject.bin": ("application/vnd.ms-office.vbaProject", vba)},
        "http://schemas.microsoft.com/office/2006/relationships/vbaProject",
    )
    zf = zipfile.ZipFile(io.BytesIO(data))
    types = zf.read("[Content_Types].xml").decode()
    types = types.replace(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
        "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
    )
    return _rewrite(data, {"[Content_Types].xml": types.encode()})


def custom_xml() -> bytes:
    item = b'<?xml version="1.0"?><draw xmlns="urn:example:raffle"><id>42</id></draw>'
    return with_extra_parts(
        _save(plain()),
        {"customXml/item1.xml": ("application/xml", item)},
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml",
    )


def entities() -> bytes:
    base = _save(plain())
    sheet = zipfile.ZipFile(io.BytesIO(base)).read("xl/worksheets/sheet1.xml").decode()
    bomb = (
        '<?xml version="1.0"?>\n<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>\n'
    )
    body = sheet.split("?>", 1)[1] if sheet.startswith("<?xml") else sheet
    sheet = bomb + body.replace("<v>", "<v>&c;", 1)
    return _rewrite(base, {"xl/worksheets/sheet1.xml": sheet.encode()})


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    books = {
        "plain.xlsx": plain,
        "formulas.xlsx": formulas,
        "styles.xlsx": styles,
        "comments_links.xlsx": comments_links,
        "merged.xlsx": merged,
        "table.xlsx": table,
        "dates_errors_blanks.xlsx": dates_errors_blanks,
        "two_sheets.xlsx": two_sheets,
        "protected.xlsx": protected,
        "array.xlsx": array,
    }
    for name, make in books.items():
        (OUT / name).write_bytes(_save(make()))
    (OUT / "macro.xlsm").write_bytes(macro())
    (OUT / "custom_xml.xlsx").write_bytes(custom_xml())
    (OUT / "entities.xlsx").write_bytes(entities())
    good = _save(plain())
    (OUT / "truncated.xlsx").write_bytes(good[: len(good) // 2])
    (OUT / "not_a_workbook.csv").write_bytes(b"id,name\nr1,Ann\nr2,Bob\n")
    (OUT / "csv_named.xlsx").write_bytes(b"id,name\nr1,Ann\nr2,Bob\n")
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
    (OUT / "legacy.xls").write_bytes(ole + b"Workbook".ljust(64, b"\x00"))
    (OUT / "encrypted.xlsx").write_bytes(ole + "EncryptionInfo".encode("utf-16-le") + bytes(64))
    ods = io.BytesIO()
    with zipfile.ZipFile(ods, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", "<office:document-content/>")
    (OUT / "sheet.ods").write_bytes(ods.getvalue())
    xlsb = io.BytesIO()
    with zipfile.ZipFile(xlsb, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.bin", b"\x83\x01\x00")
    (OUT / "binary.xlsb").write_bytes(xlsb.getvalue())
    (OUT / "empty.xlsx").write_bytes(b"")
    print(f"wrote {len(list(OUT.iterdir()))} fixtures into {OUT}")


if __name__ == "__main__":
    main()
