"""Write the hand-made packages that test the workbook engine into tests/fixtures/engine/.

Run from the project root: ``.venv/bin/python tools/make_engine_fixtures.py [OUT_DIR]``.
Every package is written with ``zipfile`` from literal XML, with fixed timestamps and
attributes, so a rerun gives identical bytes (for one zlib build). Every sheet that holds
data has a header row and data rows whose first cell reads ``r1``, ``r2``... so a test
can tell rows apart after a shuffle. Data rows are rows 2-9 unless said otherwise.

Packages the engine should shuffle:

- ``strict.xlsx``: Strict Open XML (purl.oclc.org namespaces and relationship types,
  ``conformance="strict"``), shared strings, a second sheet.
- ``template.xltx`` / ``macro_template.xltm``: template content types; the .xltm has a
  dummy ``xl/vbaProject.bin`` (not a real VBA project, like tests/fixtures/macro.xlsm).
- ``inline_strings.xlsx``: ``t="inlineStr"`` cells, one rich text with runs (B4), one
  with ``xml:space="preserve"`` and leading spaces.
- ``no_refs.xlsx``: rows and cells without ``r=`` (positions implied); row 3 has a cell
  ``r="D3"`` after a gap followed by an unreferenced cell (E3); rows 1-5 implied, then
  ``<row r="8">`` after a gap and an implied row 9.
- ``prefixed.xlsx``: every SpreadsheetML element written with an ``x:`` prefix (workbook,
  sheets, styles, shared strings), as the Open XML SDK does.
- ``cdata_charrefs.xlsx``: inline strings with CDATA (B3 holds ``</row>`` and
  ``<c r="Z9">`` as text; the id of row 4 is ``<![CDATA[r3]]>``), character references
  (``&#10;``, ``&#x1F600;``, an id written ``r&#53;``) and an XML comment between rows 6
  and 7 that itself looks like a row.
- ``shared_formulas.xlsx``: C2:C9 one shared formula (master C2 ``B2*2``), D1:D9 a second
  group whose master D1 is in the header row (``ROW(B1)-1``), cached values,
  ``xl/calcChain.xml`` and ``<calcPr calcId="191029"/>``.
- ``relative_formulas.xlsx``: same-row (C ``B5*2``), absolute (D ``$B$2``), mixed (E
  ``B$2``, F ``$B5``), cross-sheet (G ``'Other sheet'!A5``), whole column (H
  ``SUM(B:B)``) and row-above (I ``B4``; in row 2 it reads the header B1) formulas with
  cached values; a sheet "Other sheet".
- ``off_sheet.xlsx``: C9 holds ``=B1``; moving row 9 to row 2 would make it ``B-6``.
- ``merges.xlsx``: title A1:D1 merged above the header in row 2, data rows 3-10, a
  single-row merge B5:C5 inside the data.
- ``merge_spanning.xlsx``: a merge B4:B5 spanning two data rows.
- ``comments.xlsx``: a threaded comment on B4 (threadedComment1.xml, persons, and the
  legacy placeholder Excel 365 writes) and a legacy note on C6; VML drawing with
  ``<x:Row>``/``<x:Column>``/``<x:Anchor>``; ``<legacyDrawing>``.
- ``hyperlinks.xlsx``: external hyperlinks (B3, B7, TargetMode="External") and an
  internal one (B5, ``location="Other!A1"``).
- ``table_title.xlsx``: two title rows, table "People" ``ref="A3:D12"`` (header row 3,
  data rows 4-11, totals row 12 with ``SUBTOTAL``), note cell F5 beside the table.
- ``row_attrs.xlsx``: rows with ``spans``, ``ht``/``customHeight``, ``hidden``,
  ``outlineLevel``, ``s``/``customFormat``, ``x14ac:dyDescent`` (with the mc:Ignorable
  declarations Excel writes), styled empty cells (F) right of the data.
- ``extras.xlsx``: sheetPr, dimension, sheetViews with a frozen pane and selection,
  sheetFormatPr, cols, phoneticPr, conditionalFormatting, dataValidations, pageMargins,
  pageSetup (+ printerSettings1.bin, stored uncompressed), headerFooter, ignoredErrors, a
  drawing with a bar chart over Data!$B$2:$B$9 (numCache), an x14 sparkline group (F1
  over B2:B9) in extLst, defined names, docProps (with an odd timestamp and Unix
  attributes in the zip), a custom XML part and a zip comment.
- ``dates_1900.xlsx`` / ``dates_1904.xlsx``: date-styled serials (numFmtId 14 and a custom
  ``yyyy-mm-dd hh:mm``); the 1904 one has ``<workbookPr date1904="1"/>``. Both show the
  same dates.

Layout traps of the default selection (docs/batch.md, "How the default selection finds
the data"); data rows hold ids ``r1``, ``r2``... in column A:

- ``layout_titles.xlsx``: a title A1 merged over A1:D1, a subtitle in A2, a blank row 3,
  the header in row 4, data rows 5-12 (drawn: 5-12; rows 1-3 left out as titles).
- ``layout_blank_end.xlsx``: data rows 2-9, then row 10 holding an empty shared string and
  row 11 an inline string of spaces, then rows 12-14 with styled empty cells and a
  height only (drawn: 2-9; rows 10-11 left out as blank).
- ``layout_total.xlsx``: data rows 2-9, row 10 missing, row 11 "Total" with
  ``SUM(C2:C9)``; sheet "Formula total": data rows 2-9 and row 10 with only
  ``SUBTOTAL(109,C2:C9)`` in C (drawn: 2-9 on both).
- ``layout_blank_inside.xlsx``: data rows 2-5, row 6 stored with styled empty cells only,
  data rows 7-10 (refused, naming row 6); sheet "Gap": rows 6-7 not stored at all.
- ``layout_second_header.xlsx``: header row 1, a second header row 2 (``code``, ``full
  name``, ``points``) over numbers in C (refused, naming rows 1-2 and A3:C10).
- ``layout_merged_header.xlsx``: a two-row header, A1:A2 and D1:D2 merged down, B1:C1
  merged across over B2 and C2 (refused: A1:A2 joins the header rows); sheet "Across":
  only B1:C1 merged across over the text labels of row 2 (refused, naming B1:C1).
- ``layout_tables.xlsx``: sheet "Data": tables Left (A1:B6) and Right (D1:E6),
  each with a totals row (the default selection is refused: use --table); sheet "One
  table": a title row, table Scores A3:C12 with a totals row 12, and a note in row 14
  (drawn: the table body 4-11).

Packages the engine should refuse (or treat with care):

- ``array_formula.xlsx``: ``t="array"`` formula C3:C5 in the data.
- ``dynamic_array.xlsx``: a spilled dynamic array (C2, ``cm="1"``, xl/metadata.xml).
- ``data_table.xlsx``: a what-if data table (``t="dataTable"``, C3:C9, input E1).
- ``protected_sheet.xlsx``: ``<sheetProtection sheet="1" .../>``.
- ``pivot.xlsx``: a pivot table at F1:G4 on the data sheet, with cache definition and
  records.
- ``doctype.xlsx``: the sheet has a ``<!DOCTYPE>`` declaring an entity used in A2.
- ``duplicate_member.xlsx``: two zip members named ``xl/worksheets/sheet1.xml`` (the
  second one says ``evil``).
- ``lying_size.xlsx``: sheet1.xml declares half its real uncompressed size in both the
  local and the central header (CRC and compressed size are true).
"""

from __future__ import annotations

import datetime as dt
import io
import struct
import sys
import warnings
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "engine"

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"
STRICT_R = "http://purl.oclc.org/ooxml/officeDocument/relationships"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
X14AC = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"
XR = "http://schemas.microsoft.com/office/spreadsheetml/2014/revision"
TC_NS = "http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"

CT_SHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
CT_TEMPLATE = "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml"
# Excel writes this for .xltm (not "...sheet.macroEnabled.template.main+xml")
CT_MACRO_TEMPLATE = "application/vnd.ms-excel.template.macroEnabled.main+xml"
CT_SSML = "application/vnd.openxmlformats-officedocument.spreadsheetml"
CT_WORKSHEET = f"{CT_SSML}.worksheet+xml"
CT_STYLES = f"{CT_SSML}.styles+xml"
CT_SST = f"{CT_SSML}.sharedStrings+xml"

STAMP = (2026, 1, 1, 0, 0, 0)
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
N = 8  # data rows in most fixtures
NAMES = ["Ann", "Bob", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal"]


def value(i: int) -> int:
    """The number in column B of data row ``i`` (1-based): distinct, not sorted."""
    return i * 7 % 13 + 1


# ---------------------------------------------------------------- zip writing


class Member:
    """One zip member with the metadata to write it with."""

    def __init__(
        self,
        name: str,
        data: str | bytes,
        *,
        stored: bool = False,
        date_time: tuple[int, int, int, int, int, int] = STAMP,
        unix_mode: int | None = None,
    ) -> None:
        self.name = name
        self.data = data.encode() if isinstance(data, str) else data
        self.stored = stored
        self.date_time = date_time
        self.unix_mode = unix_mode

    def info(self) -> zipfile.ZipInfo:
        info = zipfile.ZipInfo(self.name, self.date_time)
        info.compress_type = zipfile.ZIP_STORED if self.stored else zipfile.ZIP_DEFLATED
        if self.unix_mode is None:  # what Excel writes: MS-DOS, no attributes
            info.create_system = 0
            info.external_attr = 0
        else:
            info.create_system = 3
            info.external_attr = self.unix_mode << 16
        return info


def zip_bytes(members: Iterable[Member], comment: bytes = b"") -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Duplicate name" for duplicate_member.xlsx
        with zipfile.ZipFile(buf, "w") as zf:
            for m in members:
                zf.writestr(m.info(), m.data, compresslevel=6)
            zf.comment = comment
    return buf.getvalue()


# ---------------------------------------------------------------- cells and sheets


def col_letter(c: int) -> str:
    s = ""
    while c:
        c, rem = divmod(c - 1, 26)
        s = chr(65 + rem) + s
    return s


class Strings:
    """A shared string table filled while the sheets are written."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def __call__(self, text: str) -> int:
        if text not in self.items:
            self.items.append(text)
        return self.items.index(text)

    def xml(self, ns: str = MAIN) -> str:
        sis = "".join(f"<si><t{_space(t)}>{esc(t)}</t></si>" for t in self.items)
        n = len(self.items)
        return f'{HEAD}<sst xmlns="{ns}" count="{n}" uniqueCount="{n}">{sis}</sst>'


def esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _space(text: str) -> str:
    return ' xml:space="preserve"' if text != text.strip() or "\n" in text else ""


def s_cell(ref: str, text: str, sst: Strings, style: int | None = None) -> str:
    return f'<c r="{ref}"{_s(style)} t="s"><v>{sst(text)}</v></c>'


def n_cell(ref: str, num: float, style: int | None = None) -> str:
    return f'<c r="{ref}"{_s(style)}><v>{num}</v></c>'


def is_cell(ref: str, text: str, style: int | None = None) -> str:
    return f'<c r="{ref}"{_s(style)} t="inlineStr"><is><t{_space(text)}>{esc(text)}</t></is></c>'


def f_cell(
    ref: str, formula: str, cached: object, attrs: str = "", style: int | None = None
) -> str:
    t = ' t="str"' if isinstance(cached, str) else ""
    v = "" if cached is None else f"<v>{esc(str(cached))}</v>"
    return f'<c r="{ref}"{_s(style)}{t}><f{attrs}>{esc(formula)}</f>{v}</c>'


def _s(style: int | None) -> str:
    return "" if style is None else f' s="{style}"'


def row(r: int, cells: Sequence[str], attrs: str = "") -> str:
    return f'<row r="{r}"{attrs}>{"".join(cells)}</row>'


def worksheet(rows: Iterable[str], *, before: str = "", after: str = "", root: str = "") -> str:
    return (
        f'{HEAD}<worksheet xmlns="{MAIN}" xmlns:r="{R}"{root}>{before}'
        f"<sheetData>{''.join(rows)}</sheetData>{after}</worksheet>"
    )


def people(sst: Strings, first: int = 2, header: Sequence[str] = ("id", "name", "n")) -> list[str]:
    """Header row at ``first - 1`` and N data rows: id, name, number."""
    h = first - 1
    rows = [row(h, [s_cell(f"{col_letter(c + 1)}{h}", t, sst) for c, t in enumerate(header)])]
    for i in range(1, N + 1):
        r = h + i
        cells = [
            s_cell(f"A{r}", f"r{i}", sst),
            s_cell(f"B{r}", NAMES[i - 1], sst),
            n_cell(f"C{r}", value(i)),
        ]
        rows.append(row(r, cells))
    return rows


# ---------------------------------------------------------------- package parts

STYLES_BODY = (
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts>'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
    '<fills count="3"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill>'
    '<fill><patternFill patternType="solid"><fgColor rgb="FFFFFF00"/>'
    '<bgColor indexed="64"/></patternFill></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="6">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="0" fontId="0" fillId="2" borderId="0" xfId="0" applyFill="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    "</cellXfs>"
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    '<dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" '
    'defaultPivotStyle="PivotStyleLight16"/>'
)
# cellXfs: 0 default, 1 date (14), 2 bold, 3 yellow fill, 4 yyyy-mm-dd hh:mm, 5 0.00
DATE, BOLD, FILL, DATETIME, FIXED2 = 1, 2, 3, 4, 5


def styles_xml(ns: str = MAIN) -> str:
    return f'{HEAD}<styleSheet xmlns="{ns}">{STYLES_BODY}</styleSheet>'


def rels_xml(rels: Iterable[tuple[str, str, str] | tuple[str, str, str, str]]) -> str:
    out = []
    for rel in rels:
        rid, typ, target = rel[:3]
        mode = f' TargetMode="{rel[3]}"' if len(rel) == 4 else ""
        out.append(f'<Relationship Id="{rid}" Type="{typ}" Target="{esc(target)}"{mode}/>')
    return f'{HEAD}<Relationships xmlns="{PKG}">{"".join(out)}</Relationships>'


class Book:
    """A workbook package: sheets, styles, shared strings and any extra parts."""

    def __init__(self, sst: Strings | None = None) -> None:
        self.sst = sst if sst is not None else Strings()
        self.sheets: list[tuple[str, str]] = []
        self.sheet_rels: dict[int, list[tuple[str, ...]]] = {}
        self.workbook_ct = CT_SHEET
        self.workbook_pr = '<workbookPr defaultThemeVersion="164011"/>'
        self.workbook_tail = ""  # definedNames, calcPr, pivotCaches ... after <sheets>
        self.wb_rels: list[tuple[str, ...]] = []
        self.parts: list[tuple[Member, str | None]] = []  # member, content type override
        self.defaults: dict[str, str] = {}
        self.root_rels: list[tuple[str, ...]] = []
        self.comment = b""
        self.docprops = False

    def add_sheet(self, name: str, xml: str, rels: Sequence[tuple[str, ...]] = ()) -> None:
        self.sheets.append((name, xml))
        if rels:
            self.sheet_rels[len(self.sheets)] = list(rels)

    def add_part(self, name: str, data: str | bytes, ctype: str | None, **kw: object) -> None:
        self.parts.append((Member(name, data, **kw), ctype))  # type: ignore[arg-type]

    def members(self) -> list[Member]:
        n = len(self.sheets)
        wb_rels = [
            (f"rId{i}", f"{R}/worksheet", f"worksheets/sheet{i}.xml") for i in range(1, n + 1)
        ]
        wb_rels.append((f"rId{n + 1}", f"{R}/styles", "styles.xml"))
        if self.sst.items:
            wb_rels.append((f"rId{n + 2}", f"{R}/sharedStrings", "sharedStrings.xml"))
        wb_rels += self.wb_rels
        sheets = "".join(
            f'<sheet name="{esc(name)}" sheetId="{i}" r:id="rId{i}"/>'
            for i, (name, _) in enumerate(self.sheets, 1)
        )
        workbook = (
            f'{HEAD}<workbook xmlns="{MAIN}" xmlns:r="{R}">{self.workbook_pr}'
            '<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="16000" '
            f'windowHeight="9000"/></bookViews><sheets>{sheets}</sheets>'
            f"{self.workbook_tail}</workbook>"
        )
        root_rels = [("rId1", f"{R}/officeDocument", "xl/workbook.xml"), *self.root_rels]
        parts: list[tuple[Member, str | None]] = [
            (Member("xl/workbook.xml", workbook), self.workbook_ct),
            (Member("xl/_rels/workbook.xml.rels", rels_xml(wb_rels)), None),
        ]
        for i, (_, xml) in enumerate(self.sheets, 1):
            parts.append((Member(f"xl/worksheets/sheet{i}.xml", xml), CT_WORKSHEET))
            if i in self.sheet_rels:
                rels = rels_xml(self.sheet_rels[i])  # type: ignore[arg-type]
                parts.append((Member(f"xl/worksheets/_rels/sheet{i}.xml.rels", rels), None))
        parts.append((Member("xl/styles.xml", styles_xml()), CT_STYLES))
        if self.sst.items:
            parts.append((Member("xl/sharedStrings.xml", self.sst.xml()), CT_SST))
        parts += self.parts
        if self.docprops:
            root_rels += [
                ("rId2", f"{PKG}/metadata/core-properties", "docProps/core.xml"),
                ("rId3", f"{R}/extended-properties", "docProps/app.xml"),
            ]
        defaults = {
            "rels": "application/vnd.openxmlformats-package.relationships+xml",
            "xml": "application/xml",
            **self.defaults,
        }
        types = "".join(
            f'<Default Extension="{ext}" ContentType="{ct}"/>' for ext, ct in defaults.items()
        )
        types += "".join(
            f'<Override PartName="/{m.name}" ContentType="{ct}"/>'
            for m, ct in parts
            if ct is not None
        )
        content_types = f'{HEAD}<Types xmlns="{CT_NS}">{types}</Types>'
        return [
            Member("[Content_Types].xml", content_types),
            Member("_rels/.rels", rels_xml(root_rels)),
            *(m for m, _ in parts),
        ]

    def bytes(self) -> bytes:
        return zip_bytes(self.members(), self.comment)


def simple(sheet_name: str = "Data") -> Book:
    book = Book()
    book.add_sheet(sheet_name, worksheet(people(book.sst)))
    return book


# ---------------------------------------------------------------- the fixtures


def strict() -> bytes:
    book = Book()
    rows = people(book.sst)
    book.add_sheet("Data", worksheet(rows))
    other = [row(1, [s_cell("A1", "see Data", book.sst)])]
    book.add_sheet("Other", worksheet(other))
    book.workbook_pr = '<workbookPr dateCompatibility="0"/>'
    members = book.members()
    out = []
    for m in members:
        text = m.data.decode()
        text = text.replace(MAIN, STRICT_MAIN).replace(R, STRICT_R)
        text = text.replace(
            f'<workbook xmlns="{STRICT_MAIN}" xmlns:r="{STRICT_R}">',
            f'<workbook xmlns="{STRICT_MAIN}" xmlns:r="{STRICT_R}" conformance="strict">',
        )
        out.append(Member(m.name, text))
    return zip_bytes(out)


def template() -> bytes:
    book = simple()
    book.workbook_ct = CT_TEMPLATE
    return book.bytes()


def macro_template() -> bytes:
    book = simple()
    book.workbook_ct = CT_MACRO_TEMPLATE
    book.workbook_pr = '<workbookPr codeName="ThisWorkbook" defaultThemeVersion="164011"/>'
    book.defaults["bin"] = "application/vnd.ms-office.vbaProject"
    # a dummy, not a real VBA project (same idea as tests/fixtures/macro.xlsm)
    book.add_part("xl/vbaProject.bin", bytes(range(256)) * 4, None)
    book.wb_rels.append(
        (
            "rId9",
            "http://schemas.microsoft.com/office/2006/relationships/vbaProject",
            "vbaProject.bin",
        )
    )
    return book.bytes()


def inline_strings() -> bytes:
    book = Book()
    rows = [row(1, [is_cell("A1", "id"), is_cell("B1", "text"), is_cell("C1", "n")])]
    for i in range(1, N + 1):
        r = i + 1
        text = f"plain {NAMES[i - 1]}"
        if i == 3:
            b = (
                f'<c r="B{r}" t="inlineStr"><is>'
                '<r><rPr><rFont val="Calibri"/><b/><sz val="11"/></rPr><t>bold</t></r>'
                '<r><rPr><rFont val="Calibri"/><i/><sz val="11"/><color rgb="FFFF0000"/>'
                '</rPr><t xml:space="preserve"> red italic</t></r>'
                '<r><t xml:space="preserve"> plain</t></r></is></c>'
            )
        elif i == 5:
            b = is_cell(f"B{r}", "   three leading spaces")
        else:
            b = is_cell(f"B{r}", text)
        rows.append(row(r, [is_cell(f"A{r}", f"r{i}"), b, n_cell(f"C{r}", value(i))]))
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def no_refs() -> bytes:
    book = Book()
    sst = book.sst

    def ids(i: int) -> str:
        return f'<c t="s"><v>{sst(f"r{i}")}</v></c>'

    def txt(text: str) -> str:
        return f'<c t="s"><v>{sst(text)}</v></c>'

    rows = [
        "<row>" + "".join(txt(t) for t in ("id", "name", "n", "d", "e")) + "</row>",
        f"<row>{ids(1)}{txt(NAMES[0])}<c><v>{value(1)}</v></c></row>",
        # A3, B3 implied; then D3 after a gap and E3 implied
        f'<row>{ids(2)}{txt(NAMES[1])}<c r="D3"><v>40</v></c><c><v>50</v></c></row>',
        f"<row>{ids(3)}{txt(NAMES[2])}<c><v>{value(3)}</v></c></row>",
        f'<row>{ids(4)}{txt(NAMES[3])}<c s="{BOLD}"><v>{value(4)}</v></c></row>',
        # rows 6, 7 absent; row 8 named after the gap, row 9 implied again
        f'<row r="8">{ids(5)}{txt(NAMES[4])}<c><v>{value(5)}</v></c></row>',
        f"<row>{ids(6)}{txt(NAMES[5])}<c><v>{value(6)}</v></c></row>",
    ]
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def prefixed() -> bytes:
    import re

    book = simple()
    out = []
    for m in book.members():
        text = m.data.decode()
        if f'xmlns="{MAIN}"' in text:
            text = text.replace(f'xmlns="{MAIN}"', f'xmlns:x="{MAIN}"')
            text = re.sub(r"<(/?)([A-Za-z][\w.-]*)(?=[\s/>])", r"<\1x:\2", text)
        out.append(Member(m.name, text))
    return zip_bytes(out)


def cdata_charrefs() -> bytes:
    book = Book()
    rows = [row(1, [is_cell("A1", "id"), is_cell("B1", "text"), is_cell("C1", "n")])]
    special = {
        2: '<is><t><![CDATA[</row> and <c r="Z9"> as text]]></t></is>',
        3: "<is><t>two&#10;lines</t></is>",
        4: "<is><t>smile &#x1F600; &amp; &lt;ok&gt;</t></is>",
        6: '<is><t xml:space="preserve">mixed <![CDATA[<v>1</v>]]> &#x41;</t></is>',
    }
    for i in range(1, N + 1):
        r = i + 1
        if i == 3:
            a = f'<c r="A{r}" t="inlineStr"><is><t><![CDATA[r3]]></t></is></c>'
        elif i == 5:
            a = f'<c r="A{r}" t="inlineStr"><is><t>r&#53;</t></is></c>'
        else:
            a = is_cell(f"A{r}", f"r{i}")
        if i in special:
            b = f'<c r="B{r}" t="inlineStr">{special[i]}</c>'
        else:
            b = is_cell(f"B{r}", NAMES[i - 1])
        rows.append(row(r, [a, b, n_cell(f"C{r}", value(i))]))
        if r == 6:
            rows.append('<!-- between rows 6 and 7: <row r="99"><c r="A99"/></row> -->')
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def shared_formulas() -> bytes:
    book = Book()
    sst = book.sst
    rows = [
        row(
            1,
            [
                s_cell("A1", "id", sst),
                s_cell("B1", "n", sst),
                s_cell("C1", "double", sst),
                '<c r="D1"><f t="shared" ref="D1:D9" si="1">ROW(B1)-1</f><v>0</v></c>',
            ],
        )
    ]
    for i in range(1, N + 1):
        r = i + 1
        c = (
            f'<c r="C{r}"><f t="shared" ref="C2:C9" si="0">B2*2</f><v>{2 * value(i)}</v></c>'
            if r == 2
            else f'<c r="C{r}"><f t="shared" si="0"/><v>{2 * value(i)}</v></c>'
        )
        d = f'<c r="D{r}"><f t="shared" si="1"/><v>{r - 1}</v></c>'
        rows.append(row(r, [s_cell(f"A{r}", f"r{i}", sst), n_cell(f"B{r}", value(i)), c, d]))
    book.add_sheet("Data", worksheet(rows))
    book.workbook_tail = '<calcPr calcId="191029"/>'
    cells = [f"D{r}" for r in range(1, N + 2)] + [f"C{r}" for r in range(2, N + 2)]
    first = ' i="1"'  # the sheet index is written once, on the first entry
    chain = "".join(f'<c r="{ref}"{first if k == 0 else ""}/>' for k, ref in enumerate(cells))
    book.add_part(
        "xl/calcChain.xml",
        f'{HEAD}<calcChain xmlns="{MAIN}">{chain}</calcChain>',
        f"{CT_SSML}.calcChain+xml",
    )
    book.wb_rels.append(("rId9", f"{R}/calcChain", "calcChain.xml"))
    return book.bytes()


def relative_formulas() -> bytes:
    book = Book()
    sst = book.sst
    head = ["id", "n", "double", "abs", "mixed row", "mixed col", "other", "sum", "above"]
    rows = [row(1, [s_cell(f"{col_letter(c + 1)}1", t, sst) for c, t in enumerate(head)])]
    total = sum(value(i) for i in range(1, N + 1))
    other = {r: 100 + r for r in range(1, N + 2)}
    for i in range(1, N + 1):
        r = i + 1
        above: object = "n" if r == 2 else value(i - 1)
        cells = [
            s_cell(f"A{r}", f"r{i}", sst),
            n_cell(f"B{r}", value(i)),
            f_cell(f"C{r}", f"B{r}*2", 2 * value(i)),
            f_cell(f"D{r}", "$B$2", value(1)),
            f_cell(f"E{r}", "B$2", value(1)),
            f_cell(f"F{r}", f"$B{r}", value(i)),
            f_cell(f"G{r}", f"'Other sheet'!A{r}", other[r]),
            f_cell(f"H{r}", "SUM(B:B)", total),
            f_cell(f"I{r}", f"B{r - 1}", above),
        ]
        rows.append(row(r, cells))
    book.add_sheet("Data", worksheet(rows))
    book.add_sheet(
        "Other sheet", worksheet(row(r, [n_cell(f"A{r}", other[r])]) for r in range(1, N + 2))
    )
    return book.bytes()


def off_sheet() -> bytes:
    book = Book()
    rows = people(book.sst)
    rows[-1] = rows[-1].replace("</row>", f"{f_cell('D9', 'B1', 'name')}</row>")
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def merges() -> bytes:
    book = Book()
    sst = book.sst
    rows = [
        row(
            1,
            [s_cell("A1", "Title over the data", sst, BOLD)]
            + [f'<c r="{c}1" s="{BOLD}"/>' for c in "BCD"],
        ),
        row(
            2,
            [
                s_cell(f"{c}2", t, sst)
                for c, t in zip("ABCD", ("id", "name", "n", "team"), strict=True)
            ],
        ),
    ]
    for i in range(1, N + 1):
        r = i + 2
        cells = [s_cell(f"A{r}", f"r{i}", sst), s_cell(f"B{r}", NAMES[i - 1], sst)]
        # B5:C5 is merged: Excel keeps the covered cell C5 (empty)
        cells.append(f'<c r="C{r}"/>' if r == 5 else n_cell(f"C{r}", value(i)))
        cells.append(s_cell(f"D{r}", "AB"[i % 2], sst))
        rows.append(row(r, cells))
    after = '<mergeCells count="2"><mergeCell ref="A1:D1"/><mergeCell ref="B5:C5"/></mergeCells>'
    book.add_sheet("Data", worksheet(rows, after=after))
    return book.bytes()


def merge_spanning() -> bytes:
    book = Book()
    rows = people(book.sst)
    rows[4] = rows[4].replace(f'<c r="B5" t="s"><v>{book.sst(NAMES[3])}</v></c>', '<c r="B5"/>')
    after = '<mergeCells count="1"><mergeCell ref="B4:B5"/></mergeCells>'
    book.add_sheet("Data", worksheet(rows, after=after))
    return book.bytes()


PERSON = "{9F6C1E3A-2B4D-4C5E-8F70-1A2B3C4D5E6F}"
THREAD = "{00000000-0001-0000-0000-000000000001}"

NOTE_TEXT = (
    "[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; "
    "however, any edits to it will get removed if the file is opened in a newer version of "
    "Excel. Learn more: https://go.microsoft.com/fwlink/?linkid=870924\n\nComment:\n"
    "    Check this row"
)


def _vml_shape(n: int, row0: int, col0: int) -> str:
    anchor = f"{col0 + 1}, 15, {max(row0 - 1, 0)}, 10, {col0 + 3}, 31, {row0 + 3}, 9"
    return (
        f'<v:shape id="_x0000_s{1024 + n}" type="#_x0000_t202" style=\'position:absolute;'
        "margin-left:107.25pt;margin-top:36pt;width:108pt;height:59.25pt;z-index:"
        f'{n};visibility:hidden\' fillcolor="#ffffe1" o:insetmode="auto">\n'
        '  <v:fill color2="#ffffe1"/>\n  <v:shadow on="t" color="black" obscured="t"/>\n'
        '  <v:path o:connecttype="none"/>\n'
        "  <v:textbox style='mso-direction-alt:auto'>\n"
        "   <div style='text-align:left'></div>\n  </v:textbox>\n"
        '  <x:ClientData ObjectType="Note">\n   <x:MoveWithCells/>\n   <x:SizeWithCells/>\n'
        f"   <x:Anchor>\n    {anchor}</x:Anchor>\n   <x:AutoFill>False</x:AutoFill>\n"
        f"   <x:Row>{row0}</x:Row>\n   <x:Column>{col0}</x:Column>\n  </x:ClientData>\n"
        " </v:shape>"
    )


def comments() -> bytes:
    book = simple()
    book.sheets[0] = (
        "Data",
        book.sheets[0][1].replace("</sheetData>", '</sheetData><legacyDrawing r:id="rId1"/>'),
    )
    book.sheet_rels[1] = [
        ("rId1", f"{R}/vmlDrawing", "../drawings/vmlDrawing1.vml"),
        ("rId2", f"{R}/comments", "../comments1.xml"),
        (
            "rId3",
            "http://schemas.microsoft.com/office/2017/10/relationships/threadedComment",
            "../threadedComments/threadedComment1.xml",
        ),
    ]
    vml = (
        '<xml xmlns:v="urn:schemas-microsoft-com:vml"\n'
        ' xmlns:o="urn:schemas-microsoft-com:office:office"\n'
        ' xmlns:x="urn:schemas-microsoft-com:office:excel">\n'
        ' <o:shapelayout v:ext="edit">\n  <o:idmap v:ext="edit" data="1"/>\n'
        ' </o:shapelayout><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202"\n'
        '  path="m,l,21600r21600,l21600,xe">\n  <v:stroke joinstyle="miter"/>\n'
        '  <v:path gradientshapeok="t" o:connecttype="rect"/>\n </v:shapetype>'
        f"{_vml_shape(1, 3, 1)}{_vml_shape(2, 5, 2)}</xml>"
    )
    legacy = (
        f'{HEAD}<comments xmlns="{MAIN}" xmlns:mc="{MC}" mc:Ignorable="xr" xmlns:xr="{XR}">'
        f"<authors><author>tc={THREAD}</author><author>Author</author></authors><commentList>"
        f'<comment ref="B4" authorId="0" shapeId="0" xr:uid="{THREAD}"><text>'
        f"<t>{NOTE_TEXT}</t></text></comment>"
        '<comment ref="C6" authorId="1" shapeId="0" '
        'xr:uid="{00000000-0006-0000-0000-000000000002}">'
        '<text><r><rPr><b/><sz val="9"/><color indexed="81"/><rFont val="Tahoma"/>'
        '<family val="2"/></rPr><t>Author:</t></r><r><rPr><sz val="9"/><color indexed="81"/>'
        '<rFont val="Tahoma"/><family val="2"/></rPr><t xml:space="preserve">\n'
        "a legacy note on C6</t></r></text></comment></commentList></comments>"
    )
    threaded = (
        f'{HEAD}<ThreadedComments xmlns="{TC_NS}" xmlns:x="{MAIN}">'
        f'<threadedComment ref="B4" dT="2026-01-01T09:30:00.00" personId="{PERSON}" '
        f'id="{THREAD}"><text>Check this row</text></threadedComment>'
        f'<threadedComment ref="B4" dT="2026-01-01T09:31:00.00" personId="{PERSON}" '
        f'id="{{00000000-0001-0000-0000-000000000002}}" parentId="{THREAD}">'
        "<text>A reply</text></threadedComment></ThreadedComments>"
    )
    persons = (
        f'{HEAD}<personList xmlns="{TC_NS}" xmlns:x="{MAIN}">'
        f'<person displayName="Test Person" id="{PERSON}" userId="test@example.com" '
        'providerId="None"/></personList>'
    )
    book.defaults["vml"] = "application/vnd.openxmlformats-officedocument.vmlDrawing"
    book.add_part("xl/comments1.xml", legacy, f"{CT_SSML}.comments+xml")
    book.add_part("xl/drawings/vmlDrawing1.vml", vml, None)
    book.add_part(
        "xl/threadedComments/threadedComment1.xml",
        threaded,
        "application/vnd.ms-excel.threadedcomments+xml",
    )
    book.add_part("xl/persons/person.xml", persons, "application/vnd.ms-excel.person+xml")
    book.wb_rels.append(
        (
            "rId9",
            "http://schemas.microsoft.com/office/2017/10/relationships/person",
            "persons/person.xml",
        )
    )
    return book.bytes()


def hyperlinks() -> bytes:
    book = simple()
    links = (
        '<hyperlinks><hyperlink ref="B3" r:id="rId1"/>'
        '<hyperlink ref="B5" location="Other!A1" display="Other!A1"/>'
        '<hyperlink ref="B7" r:id="rId2" tooltip="row r6"/></hyperlinks>'
    )
    book.sheets[0] = ("Data", book.sheets[0][1].replace("</sheetData>", f"</sheetData>{links}"))
    book.sheet_rels[1] = [
        ("rId1", f"{R}/hyperlink", "https://example.com/r2", "External"),
        ("rId2", f"{R}/hyperlink", "https://example.com/r6?a=1&b=2", "External"),
    ]
    book.add_sheet("Other", worksheet([row(1, [s_cell("A1", "target", book.sst)])]))
    return book.bytes()


def table_title() -> bytes:
    book = Book()
    sst = book.sst
    rows = [
        row(1, [s_cell("A1", "Team list", sst, BOLD)]),
        row(2, [s_cell("A2", "second title row", sst)]),
        row(
            3,
            [
                s_cell(f"{c}3", t, sst)
                for c, t in zip("ABCD", ("id", "name", "score", "team"), strict=True)
            ],
        ),
    ]
    for i in range(1, N + 1):
        r = i + 3
        cells = [
            s_cell(f"A{r}", f"r{i}", sst),
            s_cell(f"B{r}", NAMES[i - 1], sst),
            n_cell(f"C{r}", value(i)),
            s_cell(f"D{r}", "AB"[i % 2], sst),
        ]
        if r == 5:
            cells.append(s_cell("F5", "note beside the table", sst))
        rows.append(row(r, cells))
    total = sum(value(i) for i in range(1, N + 1))
    rows.append(
        row(12, [s_cell("A12", "Total", sst), f_cell("C12", "SUBTOTAL(109,People[score])", total)])
    )
    after = '<tableParts count="1"><tablePart r:id="rId1"/></tableParts>'
    book.add_sheet(
        "Data", worksheet(rows, after=after), [("rId1", f"{R}/table", "../tables/table1.xml")]
    )
    table = (
        f'{HEAD}<table xmlns="{MAIN}" id="1" name="People" displayName="People" ref="A3:D12" '
        'totalsRowCount="1"><autoFilter ref="A3:D11"/><tableColumns count="4">'
        '<tableColumn id="1" name="id" totalsRowLabel="Total"/>'
        '<tableColumn id="2" name="name"/>'
        '<tableColumn id="3" name="score" totalsRowFunction="sum"/>'
        '<tableColumn id="4" name="team"/>'
        '</tableColumns><tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" '
        'showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>'
    )
    book.add_part("xl/tables/table1.xml", table, f"{CT_SSML}.table+xml")
    return book.bytes()


def row_attrs() -> bytes:
    book = Book()
    sst = book.sst
    attrs = {
        2: "",
        3: ' ht="30" customHeight="1"',
        4: ' hidden="1"',
        5: ' outlineLevel="1"',
        6: ' outlineLevel="1" hidden="1" ht="20.25" customHeight="1"',
        7: f' s="{FILL}" customFormat="1"',
        8: "",
        9: f' s="{BOLD}" customFormat="1" ht="18" customHeight="1"',
    }
    dy = ' x14ac:dyDescent="0.25"'
    rows = [
        row(
            1,
            [s_cell(f"{c}1", t, sst) for c, t in zip("ABC", ("id", "name", "n"), strict=True)],
            f' spans="1:6"{dy}',
        )
    ]
    for i in range(1, N + 1):
        r = i + 1
        cells = [
            s_cell(f"A{r}", f"r{i}", sst),
            s_cell(f"B{r}", NAMES[i - 1], sst),
            n_cell(f"C{r}", value(i), FIXED2 if i % 2 else None),
            f'<c r="F{r}" s="{FILL}"/>',
        ]
        rows.append(row(r, cells, f' spans="1:6"{attrs[r]}{dy}'))
    root = (
        f' xmlns:mc="{MC}" mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="{X14AC}" xmlns:xr="{XR}"'
        ' xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2"'
        ' xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3"'
        ' xr:uid="{00000000-0001-0000-0000-000000000000}"'
    )
    before = (
        '<dimension ref="A1:F9"/><sheetViews><sheetView tabSelected="1" workbookViewId="0"/>'
        '</sheetViews><sheetFormatPr defaultRowHeight="15" outlineLevelRow="1" '
        'x14ac:dyDescent="0.25"/>'
    )
    after = (
        '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>'
    )
    book.add_sheet("Data", worksheet(rows, before=before, after=after, root=root))
    return book.bytes()


def lookalikes() -> bytes:
    """Rows whose own number also ends other attribute values, text and a formula's
    string constant (``ht="14"`` in row 14, ``"7"`` in row 7's formula), some cells with
    ``r`` not written first, and two-letter columns: only the references may change."""
    book = Book()
    sst = book.sst
    head = zip(["A", "B", "C", "AB"], ["id", "note", "n", "label"], strict=True)
    rows = [row(1, [s_cell(f"{c}1", t, sst) for c, t in head])]
    for r in range(2, 32):
        note = is_cell(f"B{r}", f'row {r}" tall, r="A{r}"')
        if r % 3 == 0:  # r written after another attribute
            num = f'<c s="{FIXED2}" r="C{r}"><v>{value(r)}</v></c>'
        else:
            num = n_cell(f"C{r}", value(r), FIXED2 if r % 2 else None)
        label = f_cell(f"AB{r}", f'A{r}&"{r}"', f"r{r}{r}")
        attrs = f' spans="1:{r}" ht="{r}" customHeight="1"'
        rows.append(row(r, [s_cell(f"A{r}", f"r{r}", sst), note, num, label], attrs))
    book.add_sheet("Data", worksheet(rows, before='<dimension ref="A1:AB31"/>'))
    return book.bytes()


X14 = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
XM = "http://schemas.microsoft.com/office/excel/2006/main"
C_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"


def _chart() -> str:
    ids = "".join(f'<c:pt idx="{i - 1}"><c:v>r{i}</c:v></c:pt>' for i in range(1, N + 1))
    nums = "".join(f'<c:pt idx="{i - 1}"><c:v>{value(i)}</c:v></c:pt>' for i in range(1, N + 1))
    axis = '<c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
    return (
        f'{HEAD}<c:chartSpace xmlns:c="{C_NS}" xmlns:a="{A_NS}" xmlns:r="{R}">'
        '<c:roundedCorners val="0"/><c:chart><c:autoTitleDeleted val="1"/><c:plotArea>'
        '<c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>'
        '<c:varyColors val="0"/><c:ser><c:idx val="0"/><c:order val="0"/>'
        '<c:tx><c:strRef><c:f>Data!$C$1</c:f><c:strCache><c:ptCount val="1"/>'
        '<c:pt idx="0"><c:v>n</c:v></c:pt></c:strCache></c:strRef></c:tx>'
        f'<c:cat><c:strRef><c:f>Data!$A$2:$A$9</c:f><c:strCache><c:ptCount val="{N}"/>{ids}'
        "</c:strCache></c:strRef></c:cat>"
        "<c:val><c:numRef><c:f>Data!$C$2:$C$9</c:f><c:numCache><c:formatCode>General"
        f'</c:formatCode><c:ptCount val="{N}"/>{nums}</c:numCache></c:numRef></c:val>'
        '</c:ser><c:gapWidth val="150"/><c:axId val="10"/><c:axId val="20"/></c:barChart>'
        f'<c:catAx><c:axId val="10"/>{axis}<c:axPos val="b"/><c:crossAx val="20"/></c:catAx>'
        f'<c:valAx><c:axId val="20"/>{axis}<c:axPos val="l"/><c:crossAx val="10"/></c:valAx>'
        '</c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>'
    )


def _drawing() -> str:
    def at(tag: str, col: int, r: int) -> str:
        return (
            f"<xdr:{tag}><xdr:col>{col}</xdr:col><xdr:colOff>0</xdr:colOff>"
            f"<xdr:row>{r}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:{tag}>"
        )

    return (
        f'{HEAD}<xdr:wsDr xmlns:xdr="{XDR}" xmlns:a="{A_NS}"><xdr:twoCellAnchor>'
        f'{at("from", 7, 1)}{at("to", 13, 15)}<xdr:graphicFrame macro="">'
        '<xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/>'
        '</xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>'
        f'<a:graphic><a:graphicData uri="{C_NS}"><c:chart xmlns:c="{C_NS}" xmlns:r="{R}" '
        'r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/>'
        "</xdr:twoCellAnchor></xdr:wsDr>"
    )


def extras() -> bytes:
    book = Book()
    sst = book.sst
    rows = people(sst, header=("id", "name", "n", "team"))
    for i in range(1, N + 1):
        r = i + 1
        rows[i] = rows[i].replace("</row>", s_cell(f"D{r}", "AB"[i % 2], sst) + "</row>")
    rows[0] = rows[0].replace("</row>", s_cell("F1", "trend", sst) + "</row>")
    before = (
        '<sheetPr codeName="Sheet1"><tabColor rgb="FF00B050"/><pageSetUpPr fitToPage="1"/>'
        "</sheetPr>"
        '<dimension ref="A1:F9"/><sheetViews><sheetView tabSelected="1" workbookViewId="0">'
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
        '<selection pane="bottomLeft" activeCell="B3" sqref="B3:C4"/></sheetView></sheetViews>'
        '<sheetFormatPr defaultRowHeight="15"/>'
        '<cols><col min="1" max="1" width="12.7109375" customWidth="1"/>'
        f'<col min="2" max="3" width="10" style="{FIXED2}" customWidth="1"/></cols>'
    )
    sparkline = (
        f'<extLst><ext uri="{{05C60535-1F16-4fd2-B633-F4F36F0B64E0}}" xmlns:x14="{X14}">'
        f'<x14:sparklineGroups xmlns:xm="{XM}"><x14:sparklineGroup displayEmptyCellsAs="gap">'
        '<x14:colorSeries rgb="FF376092"/><x14:colorNegative rgb="FFD00000"/>'
        '<x14:colorAxis rgb="FF000000"/><x14:colorMarkers rgb="FFD00000"/>'
        '<x14:colorFirst rgb="FFD00000"/><x14:colorLast rgb="FFD00000"/>'
        '<x14:colorHigh rgb="FFD00000"/><x14:colorLow rgb="FFD00000"/><x14:sparklines>'
        "<x14:sparkline><xm:f>Data!C2:C9</xm:f><xm:sqref>F1</xm:sqref></x14:sparkline>"
        "</x14:sparklines></x14:sparklineGroup></x14:sparklineGroups></ext></extLst>"
    )
    after = (
        '<phoneticPr fontId="0" type="noConversion"/>'
        '<conditionalFormatting sqref="C2:C9"><cfRule type="colorScale" priority="1">'
        '<colorScale><cfvo type="min"/><cfvo type="max"/><color rgb="FFF8696B"/>'
        '<color rgb="FF63BE7B"/></colorScale></cfRule></conditionalFormatting>'
        '<dataValidations count="1"><dataValidation type="list" allowBlank="1" '
        'showInputMessage="1" showErrorMessage="1" sqref="D2:D9"><formula1>"A,B"</formula1>'
        "</dataValidation></dataValidations>"
        '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>'
        '<pageSetup paperSize="9" orientation="landscape" r:id="rId2"/>'
        "<headerFooter><oddHeader>&amp;CShuffled &amp;D</oddHeader></headerFooter>"
        '<ignoredErrors><ignoredError sqref="A2:A9" numberStoredAsText="1"/></ignoredErrors>'
        f'<drawing r:id="rId1"/>{sparkline}'
    )
    book.add_sheet(
        "Data",
        worksheet(rows, before=before, after=after),
        [
            ("rId1", f"{R}/drawing", "../drawings/drawing1.xml"),
            ("rId2", f"{R}/printerSettings", "../printerSettings/printerSettings1.bin"),
        ],
    )
    book.workbook_tail = (
        '<definedNames><definedName name="_xlnm.Print_Area" localSheetId="0">Data!$A$1:$D$9'
        '</definedName><definedName name="Scores">Data!$C$2:$C$9</definedName></definedNames>'
        '<calcPr calcId="191029"/>'
    )
    book.defaults["bin"] = f"{CT_SSML}.printerSettings"
    book.add_part(
        "xl/drawings/drawing1.xml",
        _drawing(),
        "application/vnd.openxmlformats-officedocument.drawing+xml",
    )
    book.add_part(
        "xl/drawings/_rels/drawing1.xml.rels",
        rels_xml([("rId1", f"{R}/chart", "../charts/chart1.xml")]),
        None,
    )
    book.add_part(
        "xl/charts/chart1.xml",
        _chart(),
        "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
    )
    devmode = b"xlshuffle printer".ljust(220, b"\x00") + bytes(range(1, 40))
    book.add_part("xl/printerSettings/printerSettings1.bin", devmode, None, stored=True)
    item = f'{HEAD}<draw xmlns="urn:xlshuffle:test"><note>kept byte for byte</note></draw>'
    props = (
        f'{HEAD}<ds:datastoreItem ds:itemID="{{6F1B7D2A-0C3E-4A5B-9D8E-7F6A5B4C3D2E}}" '
        'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml">'
        "<ds:schemaRefs/></ds:datastoreItem>"
    )
    book.add_part("customXml/item1.xml", item, None)
    book.add_part(
        "customXml/itemProps1.xml",
        props,
        "application/vnd.openxmlformats-officedocument.customXmlProperties+xml",
    )
    book.add_part(
        "customXml/_rels/item1.xml.rels",
        rels_xml([("rId1", f"{R}/customXmlProps", "itemProps1.xml")]),
        None,
    )
    book.wb_rels.append(("rId9", f"{R}/customXml", "../customXml/item1.xml"))
    core = (
        f'{HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
        'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>xlshuffle fixtures'
        '</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">2026-01-01T00:00:00Z'
        "</dcterms:created></cp:coreProperties>"
    )
    app = (
        f'{HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
        'extended-properties"><Application>Microsoft Excel</Application></Properties>'
    )
    book.docprops = True
    odd = (2025, 6, 30, 23, 59, 58)
    book.add_part(
        "docProps/core.xml",
        core,
        "application/vnd.openxmlformats-package.core-properties+xml",
        date_time=odd,
        unix_mode=0o100644,
    )
    book.add_part(
        "docProps/app.xml",
        app,
        "application/vnd.openxmlformats-officedocument.extended-properties+xml",
        unix_mode=0o100600,
    )
    book.comment = b"xlshuffle fixture: this zip comment must survive"
    return book.bytes()


EPOCH_1900 = dt.date(1899, 12, 30)
EPOCH_1904 = dt.date(1904, 1, 1)


def dates(date1904: bool) -> bytes:
    book = Book()
    sst = book.sst
    epoch = EPOCH_1904 if date1904 else EPOCH_1900
    head = ("id", "date", "when", "n")
    rows = [row(1, [s_cell(f"{c}1", t, sst) for c, t in zip("ABCD", head, strict=True)])]
    for i in range(1, N + 1):
        r = i + 1
        day = (dt.date(2025, 1, 1) + dt.timedelta(days=37 * i) - epoch).days
        cells = [
            s_cell(f"A{r}", f"r{i}", sst),
            n_cell(f"B{r}", day, DATE),
            n_cell(f"C{r}", day + i / 8, DATETIME),
            n_cell(f"D{r}", value(i)),
        ]
        rows.append(row(r, cells))
    book.add_sheet("Data", worksheet(rows))
    if date1904:
        book.workbook_pr = '<workbookPr date1904="1" defaultThemeVersion="164011"/>'
    return book.bytes()


# ---------------------------------------------------------------- refusal fixtures


def array_formula() -> bytes:
    book = Book()
    rows = people(book.sst, header=("id", "name", "n", "double"))
    for i in range(1, N + 1):
        r = i + 1
        if r == 3:
            cell = f'<c r="D3"><f t="array" ref="D3:D5">C3:C5*2</f><v>{2 * value(i)}</v></c>'
        elif r in (4, 5):
            cell = n_cell(f"D{r}", 2 * value(i))
        else:
            cell = f_cell(f"D{r}", f"C{r}*2", 2 * value(i))
        rows[i] = rows[i].replace("</row>", cell + "</row>")
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def dynamic_array() -> bytes:
    book = Book()
    rows = people(book.sst, header=("id", "name", "n", "double"))
    for i in range(1, N + 1):
        r = i + 1
        if r == 2:
            cell = f'<c r="D2" cm="1"><f t="array" ref="D2:D9">C2:C9*2</f><v>{2 * value(i)}</v></c>'
        else:
            cell = n_cell(f"D{r}", 2 * value(i))
        rows[i] = rows[i].replace("</row>", cell + "</row>")
    book.add_sheet("Data", worksheet(rows))
    metadata = (
        f'{HEAD}<metadata xmlns="{MAIN}" '
        'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">'
        '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" '
        'copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" '
        'clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>'
        '<futureMetadata name="XLDAPR" count="1"><bk><extLst>'
        '<ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">'
        '<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk>'
        '</futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>'
        "</metadata>"
    )
    book.add_part("xl/metadata.xml", metadata, f"{CT_SSML}.sheetMetadata+xml")
    book.wb_rels.append(("rId9", f"{R}/sheetMetadata", "metadata.xml"))
    return book.bytes()


def data_table() -> bytes:
    book = Book()
    sst = book.sst
    head = ("id", "input", "result", "", "rate")
    rows = [
        row(
            1,
            [s_cell(f"{c}1", t, sst) for c, t in zip("ABCDE", head, strict=True) if t]
            + [n_cell("F1", 5)],
        )
    ]
    for i in range(1, N + 1):
        r = i + 1
        cells = [s_cell(f"A{r}", f"r{i}", sst), n_cell(f"B{r}", value(i))]
        if r == 2:
            cells.append(f_cell("C2", "F1*10", 50))
        elif r == 3:
            cells.append(
                f'<c r="C3"><f t="dataTable" ref="C3:C9" dt2D="0" dtr="0" r1="F1"/>'
                f"<v>{value(i) * 10}</v></c>"
            )
        else:
            cells.append(n_cell(f"C{r}", value(i) * 10))
        rows.append(row(r, cells))
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def protected_sheet() -> bytes:
    book = simple()
    prot = '<sheetProtection sheet="1" objects="1" scenarios="1"/>'
    book.sheets[0] = ("Data", book.sheets[0][1].replace("</sheetData>", f"</sheetData>{prot}"))
    return book.bytes()


def pivot() -> bytes:
    book = Book()
    sst = book.sst
    rows = people(sst, header=("id", "team", "n"))
    teams = ["AB"[i % 2] for i in range(1, N + 1)]
    sums = {t: sum(value(i) for i in range(1, N + 1) if teams[i - 1] == t) for t in "AB"}
    for i in range(1, N + 1):
        rows[i] = rows[i].replace(f"<v>{sst(NAMES[i - 1])}</v>", f"<v>{sst(teams[i - 1])}</v>")
    out = {
        1: [s_cell("F1", "Row Labels", sst, BOLD), s_cell("G1", "Sum of n", sst)],
        2: [s_cell("F2", "A", sst), n_cell("G2", sums["A"])],
        3: [s_cell("F3", "B", sst), n_cell("G3", sums["B"])],
        4: [s_cell("F4", "Grand Total", sst, BOLD), n_cell("G4", sums["A"] + sums["B"], BOLD)],
    }
    for r, cells in out.items():
        rows[r - 1] = rows[r - 1].replace("</row>", "".join(cells) + "</row>")
    book.add_sheet(
        "Data", worksheet(rows), [("rId1", f"{R}/pivotTable", "../pivotTables/pivotTable1.xml")]
    )
    book.workbook_tail = '<pivotCaches><pivotCache cacheId="1" r:id="rId9"/></pivotCaches>'
    book.wb_rels.append(
        ("rId9", f"{R}/pivotCacheDefinition", "pivotCache/pivotCacheDefinition1.xml")
    )
    values = [value(i) for i in range(1, N + 1)]
    definition = (
        f'{HEAD}<pivotCacheDefinition xmlns="{MAIN}" xmlns:r="{R}" r:id="rId1" '
        'refreshOnLoad="1" createdVersion="6" refreshedVersion="6" minRefreshableVersion="3" '
        f'recordCount="{N}"><cacheSource type="worksheet"><worksheetSource ref="A1:C9" '
        'sheet="Data"/></cacheSource><cacheFields count="3">'
        '<cacheField name="id" numFmtId="0"><sharedItems/></cacheField>'
        '<cacheField name="team" numFmtId="0"><sharedItems count="2"><s v="A"/><s v="B"/>'
        '</sharedItems></cacheField><cacheField name="n" numFmtId="0"><sharedItems '
        'containsSemiMixedTypes="0" containsString="0" containsNumber="1" containsInteger="1" '
        f'minValue="{min(values)}" maxValue="{max(values)}"/></cacheField></cacheFields>'
        "</pivotCacheDefinition>"
    )
    records = "".join(
        f'<r><s v="r{i}"/><x v="{"AB".index(teams[i - 1])}"/><n v="{value(i)}"/></r>'
        for i in range(1, N + 1)
    )
    records = (
        f'{HEAD}<pivotCacheRecords xmlns="{MAIN}" xmlns:r="{R}" count="{N}">{records}'
        "</pivotCacheRecords>"
    )
    table = (
        f'{HEAD}<pivotTableDefinition xmlns="{MAIN}" name="PivotTable1" cacheId="1" '
        'applyNumberFormats="0" applyBorderFormats="0" applyFontFormats="0" '
        'applyPatternFormats="0" applyAlignmentFormats="0" applyWidthHeightFormats="1" '
        'dataCaption="Values" updatedVersion="6" minRefreshableVersion="3" '
        'useAutoFormatting="1" itemPrintTitles="1" createdVersion="6" indent="0" outline="1" '
        'outlineData="1" multipleFieldFilters="0"><location ref="F1:G4" firstHeaderRow="1" '
        'firstDataRow="1" firstDataCol="1"/><pivotFields count="3"><pivotField showAll="0"/>'
        '<pivotField axis="axisRow" showAll="0"><items count="3"><item x="0"/><item x="1"/>'
        '<item t="default"/></items></pivotField><pivotField dataField="1" showAll="0"/>'
        '</pivotFields><rowFields count="1"><field x="1"/></rowFields><rowItems count="3">'
        '<i><x/></i><i><x v="1"/></i><i t="grand"><x/></i></rowItems><colItems count="1"><i/>'
        '</colItems><dataFields count="1"><dataField name="Sum of n" fld="2" baseField="0" '
        'baseItem="0"/></dataFields><pivotTableStyleInfo name="PivotStyleLight16" '
        'showRowHeaders="1" showColHeaders="1" showRowStripes="0" showColStripes="0" '
        'showLastColumn="1"/></pivotTableDefinition>'
    )
    book.add_part("xl/pivotTables/pivotTable1.xml", table, f"{CT_SSML}.pivotTable+xml")
    book.add_part(
        "xl/pivotTables/_rels/pivotTable1.xml.rels",
        rels_xml(
            [("rId1", f"{R}/pivotCacheDefinition", "../pivotCache/pivotCacheDefinition1.xml")]
        ),
        None,
    )
    book.add_part(
        "xl/pivotCache/pivotCacheDefinition1.xml", definition, f"{CT_SSML}.pivotCacheDefinition+xml"
    )
    book.add_part(
        "xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels",
        rels_xml([("rId1", f"{R}/pivotCacheRecords", "pivotCacheRecords1.xml")]),
        None,
    )
    book.add_part(
        "xl/pivotCache/pivotCacheRecords1.xml", records, f"{CT_SSML}.pivotCacheRecords+xml"
    )
    return book.bytes()


def doctype() -> bytes:
    book = simple()
    xml = book.sheets[0][1].replace(HEAD, HEAD + '<!DOCTYPE worksheet [<!ENTITY who "r1">]>\n')
    xml = xml.replace(
        f'<c r="A2" t="s"><v>{book.sst("r1")}</v></c>',
        '<c r="A2" t="inlineStr"><is><t>&who;</t></is></c>',
    )
    book.sheets[0] = ("Data", xml)
    return book.bytes()


def duplicate_member() -> bytes:
    book = simple()
    members = book.members()
    sheet = next(m for m in members if m.name == "xl/worksheets/sheet1.xml")
    evil = Member(sheet.name, worksheet([row(1, [is_cell("A1", "evil")])]))
    return zip_bytes([*members, evil])


def lying_size() -> bytes:
    data = bytearray(simple().bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as zf:
        info = zf.getinfo("xl/worksheets/sheet1.xml")
    lie = info.file_size // 2
    local = info.header_offset
    assert data[local : local + 4] == b"PK\x03\x04"
    struct.pack_into("<L", data, local + 22, lie)
    name = info.filename.encode()
    central = data.find(b"PK\x01\x02" + data[local + 4 : local + 6])
    while data[central + 46 : central + 46 + len(name)] != name:
        central = data.find(b"PK\x01\x02", central + 4)
    struct.pack_into("<L", data, central + 24, lie)
    return bytes(data)


# ---------------------------------------------------------------- layout traps


def _data_rows(sst: Strings, first: int, n: int = N, ids: int = 1) -> list[str]:
    """``n`` data rows from row ``first``: id ``r<ids>``..., a name, a number, a team."""
    out = []
    for k in range(n):
        i, r = ids + k, first + k
        out.append(
            row(
                r,
                [
                    s_cell(f"A{r}", f"r{i}", sst),
                    s_cell(f"B{r}", NAMES[(i - 1) % N], sst),
                    n_cell(f"C{r}", value(i)),
                    s_cell(f"D{r}", "AB"[i % 2], sst),
                ],
            )
        )
    return out


def _header(sst: Strings, r: int, labels: Sequence[str] = ("id", "name", "n", "team")) -> str:
    return row(r, [s_cell(f"{col_letter(c)}{r}", t, sst) for c, t in enumerate(labels, 1)])


def _merged(refs: Sequence[str]) -> str:
    cells = "".join(f'<mergeCell ref="{ref}"/>' for ref in refs)
    return f'<mergeCells count="{len(refs)}">{cells}</mergeCells>'


def layout_titles() -> bytes:
    book = Book()
    sst = book.sst
    rows = [
        row(
            1,
            [s_cell("A1", "Spring raffle 2026", sst, BOLD)]
            + [f'<c r="{c}1" s="{BOLD}"/>' for c in "BCD"],
        ),
        row(2, [s_cell("A2", "Drawn on 1 March", sst)]),
        row(3, ['<c r="A3" s="3"/>']),
        _header(sst, 4),
        *_data_rows(sst, 5),
    ]
    book.add_sheet("Data", worksheet(rows, after=_merged(["A1:D1"])))
    return book.bytes()


def layout_blank_end() -> bytes:
    book = Book()
    sst = book.sst
    rows = [_header(sst, 1), *_data_rows(sst, 2)]
    rows.append(row(10, [s_cell("A10", "", sst), s_cell("B10", "", sst)]))
    rows.append(row(11, [is_cell("A11", "   "), is_cell("C11", " ")]))
    for r in (12, 13, 14):
        rows.append(
            row(r, [f'<c r="{c}{r}" s="{FILL}"/>' for c in "ABCD"], ' ht="20" customHeight="1"')
        )
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def layout_total() -> bytes:
    book = Book()
    sst = book.sst
    total = sum(value(i) for i in range(1, N + 1))
    rows = [_header(sst, 1), *_data_rows(sst, 2)]
    rows.append(row(11, [s_cell("A11", "Total", sst, BOLD), f_cell("C11", "SUM(C2:C9)", total)]))
    book.add_sheet("Data", worksheet(rows))
    rows = [_header(sst, 1), *_data_rows(sst, 2)]
    rows.append(row(10, [f_cell("C10", "SUBTOTAL(109,C2:C9)", total)]))
    book.add_sheet("Formula total", worksheet(rows))
    return book.bytes()


def layout_blank_inside() -> bytes:
    book = Book()
    sst = book.sst
    rows = [_header(sst, 1), *_data_rows(sst, 2, 4)]
    rows.append(row(6, [f'<c r="{c}6" s="{FILL}"/>' for c in "ABCD"]))
    rows += _data_rows(sst, 7, 4, ids=5)
    book.add_sheet("Data", worksheet(rows))
    rows = [_header(sst, 1), *_data_rows(sst, 2, 4), *_data_rows(sst, 8, 4, ids=5)]
    book.add_sheet("Gap", worksheet(rows))
    return book.bytes()


def layout_second_header() -> bytes:
    book = Book()
    sst = book.sst
    rows = [
        _header(sst, 1, ("id", "name", "score")),
        _header(sst, 2, ("code", "full name", "points")),
    ]
    for i in range(1, N + 1):
        r = i + 2
        rows.append(
            row(
                r,
                [
                    s_cell(f"A{r}", f"r{i}", sst),
                    s_cell(f"B{r}", NAMES[i - 1], sst),
                    n_cell(f"C{r}", value(i)),
                ],
            )
        )
    book.add_sheet("Data", worksheet(rows))
    return book.bytes()


def layout_merged_header() -> bytes:
    book = Book()
    sst = book.sst

    def body(with_n: bool) -> list[str]:
        out = []
        for i in range(1, N + 1):
            r = i + 2
            cells = [
                s_cell(f"A{r}", f"r{i}", sst),
                s_cell(f"B{r}", NAMES[i - 1], sst),
                s_cell(f"C{r}", "AB"[i % 2], sst),
            ]
            out.append(row(r, cells + ([n_cell(f"D{r}", value(i))] if with_n else [])))
        return out

    top = row(
        1,
        [
            s_cell("A1", "id", sst),
            s_cell("B1", "person", sst),
            '<c r="C1"/>',
            s_cell("D1", "n", sst),
        ],
    )
    second = row(
        2, ['<c r="A2"/>', s_cell("B2", "name", sst), s_cell("C2", "team", sst), '<c r="D2"/>']
    )
    merged = _merged(["A1:A2", "B1:C1", "D1:D2"])
    book.add_sheet("Data", worksheet([top, second, *body(True)], after=merged))
    top = row(1, [s_cell("A1", "id", sst), s_cell("B1", "person", sst), '<c r="C1"/>'])
    second = row(2, [s_cell("B2", "name", sst), s_cell("C2", "team", sst)])
    book.add_sheet("Across", worksheet([top, second, *body(False)], after=_merged(["B1:C1"])))
    return book.bytes()


def _table_xml(tid: int, name: str, ref: str, cols: Sequence[str], body_end: int) -> str:
    columns = "".join(
        f'<tableColumn id="{k}" name="{c}"'
        + (' totalsRowLabel="Total"/>' if k == 1 else ' totalsRowFunction="sum"/>')
        for k, c in enumerate(cols, 1)
    )
    first = ref.split(":")[0]
    last_col = ref.split(":")[1].rstrip("0123456789")
    return (
        f'{HEAD}<table xmlns="{MAIN}" id="{tid}" name="{name}" displayName="{name}" '
        f'ref="{ref}" totalsRowCount="1"><autoFilter ref="{first}:{last_col}{body_end}"/>'
        f'<tableColumns count="{len(cols)}">{columns}</tableColumns>'
        '<tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" '
        'showRowStripes="1" showColumnStripes="0"/></table>'
    )


def layout_tables() -> bytes:
    book = Book()
    sst = book.sst
    rows = [
        row(
            1,
            [
                s_cell("A1", "id", sst),
                s_cell("B1", "n", sst),
                s_cell("D1", "id", sst),
                s_cell("E1", "n", sst),
            ],
        )
    ]
    for i in range(1, 5):
        r = i + 1
        rows.append(
            row(
                r,
                [
                    s_cell(f"A{r}", f"r{i}", sst),
                    n_cell(f"B{r}", value(i)),
                    s_cell(f"D{r}", f"q{i}", sst),
                    n_cell(f"E{r}", value(i + 4)),
                ],
            )
        )
    rows.append(
        row(
            6,
            [
                s_cell("A6", "Total", sst),
                f_cell("B6", "SUBTOTAL(109,Left[n])", sum(value(i) for i in range(1, 5))),
                s_cell("D6", "Total", sst),
                f_cell("E6", "SUBTOTAL(109,Right[n])", sum(value(i) for i in range(5, 9))),
            ],
        )
    )
    parts = '<tableParts count="2"><tablePart r:id="rId1"/><tablePart r:id="rId2"/></tableParts>'
    book.add_sheet(
        "Data",
        worksheet(rows, after=parts),
        [
            ("rId1", f"{R}/table", "../tables/table1.xml"),
            ("rId2", f"{R}/table", "../tables/table2.xml"),
        ],
    )
    book.add_part(
        "xl/tables/table1.xml",
        _table_xml(1, "Left", "A1:B6", ["id", "n"], 5),
        f"{CT_SSML}.table+xml",
    )
    book.add_part(
        "xl/tables/table2.xml",
        _table_xml(2, "Right", "D1:E6", ["id", "n"], 5),
        f"{CT_SSML}.table+xml",
    )
    rows = [row(1, [s_cell("A1", "Scores 2026", sst, BOLD)]), _header(sst, 3, ("id", "name", "n"))]
    for i in range(1, N + 1):
        r = i + 3
        rows.append(
            row(
                r,
                [
                    s_cell(f"A{r}", f"r{i}", sst),
                    s_cell(f"B{r}", NAMES[i - 1], sst),
                    n_cell(f"C{r}", value(i)),
                ],
            )
        )
    total = sum(value(i) for i in range(1, N + 1))
    rows.append(
        row(12, [s_cell("A12", "Total", sst), f_cell("C12", "SUBTOTAL(109,Scores[n])", total)])
    )
    rows.append(row(14, [s_cell("A14", "Note: prizes are collected at the desk", sst)]))
    parts = '<tableParts count="1"><tablePart r:id="rId1"/></tableParts>'
    book.add_sheet(
        "One table", worksheet(rows, after=parts), [("rId1", f"{R}/table", "../tables/table3.xml")]
    )
    book.add_part(
        "xl/tables/table3.xml",
        _table_xml(3, "Scores", "A3:C12", ["id", "name", "n"], 11),
        f"{CT_SSML}.table+xml",
    )
    return book.bytes()


FIXTURES = {
    "strict.xlsx": strict,
    "template.xltx": template,
    "macro_template.xltm": macro_template,
    "inline_strings.xlsx": inline_strings,
    "no_refs.xlsx": no_refs,
    "prefixed.xlsx": prefixed,
    "cdata_charrefs.xlsx": cdata_charrefs,
    "shared_formulas.xlsx": shared_formulas,
    "relative_formulas.xlsx": relative_formulas,
    "off_sheet.xlsx": off_sheet,
    "merges.xlsx": merges,
    "merge_spanning.xlsx": merge_spanning,
    "comments.xlsx": comments,
    "hyperlinks.xlsx": hyperlinks,
    "table_title.xlsx": table_title,
    "row_attrs.xlsx": row_attrs,
    "lookalikes.xlsx": lookalikes,
    "extras.xlsx": extras,
    "dates_1900.xlsx": lambda: dates(date1904=False),
    "dates_1904.xlsx": lambda: dates(date1904=True),
    "array_formula.xlsx": array_formula,
    "dynamic_array.xlsx": dynamic_array,
    "data_table.xlsx": data_table,
    "protected_sheet.xlsx": protected_sheet,
    "pivot.xlsx": pivot,
    "doctype.xlsx": doctype,
    "duplicate_member.xlsx": duplicate_member,
    "lying_size.xlsx": lying_size,
    "layout_titles.xlsx": layout_titles,
    "layout_blank_end.xlsx": layout_blank_end,
    "layout_total.xlsx": layout_total,
    "layout_blank_inside.xlsx": layout_blank_inside,
    "layout_second_header.xlsx": layout_second_header,
    "layout_merged_header.xlsx": layout_merged_header,
    "layout_tables.xlsx": layout_tables,
}


def main(argv: Sequence[str] = ()) -> None:
    out = Path(argv[0]) if argv else OUT
    out.mkdir(parents=True, exist_ok=True)
    for name, make in FIXTURES.items():
        (out / name).write_bytes(make())


if __name__ == "__main__":
    main(sys.argv[1:])
