"""The package around the sheets: content types, relationships and the workbook part.

Reads what the engine needs (which part each sheet is, its tables, comments, pivot tables)
and makes the few edits it may make outside the drawn sheet: remove the calculation chain
(with its relationship and content type), ask for full recalculation on load, and add a
sheet. Every edit changes the bytes of one element and leaves the rest of the part as it
was. Strict Open XML (other namespaces, same element names) is read and written alike.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from ...draw.errors import WorkbookError
from ..scan.xmlscan import (
    Tag,
    attrs,
    check_no_doctype,
    escape_attr,
    iter_tags,
    local,
    tags_or_refuse,
    unescape,
)
from .partedit import drop_element, insert_before_end, not_well_formed, root_prefix
from .zipread import Package

__all__ = ["Book", "Rel", "SheetInfo", "TableInfo", "open_book", "sniff"]

STRICT_MAIN = b"http://purl.oclc.org/ooxml/spreadsheetml/main"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")
_REL_WORKSHEET = {
    False: "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet",
    True: "http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet",
}
_REL_NS = {
    False: b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    True: b"http://purl.oclc.org/ooxml/officeDocument/relationships",
}
WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_XMLNS = re.compile(rb"\sxmlns:([\w.-]+)\s*=\s*[\"']([^\"']*)[\"']")


@dataclass
class Rel:
    """One relationship: id, type (its last path segment, e.g. ``"worksheet"``), target
    (a zip name, or the raw target when external)."""

    id: str
    type: str
    target: str
    external: bool


@dataclass
class TableInfo:
    """An Excel table (list object) on a sheet."""

    name: str
    ref: str
    header_rows: int
    totals_rows: int
    part: str


@dataclass
class SheetInfo:
    """A sheet of the workbook, in tab order."""

    name: str
    part: str
    kind: str  # "worksheet", "chartsheet", "dialogsheet", ...
    state: str
    rels: list[Rel] = field(default_factory=list)


def sniff(data: bytes, label: str) -> None:
    """Refuse, in one line naming ``label`` and the way out, what is not an xlsx package."""
    if data.startswith(_OLE_MAGIC):
        if _ENCRYPTION_INFO in data:
            raise WorkbookError(
                f"{label}: the workbook is password-protected (encrypted): open it in Excel, "
                "remove the password (File > Info > Protect Workbook), save, and retry"
            )
        raise WorkbookError(
            f"{label}: this is a legacy Excel 97-2003 (.xls) or other OLE file, not .xlsx: "
            "open it and save it as Excel Workbook (.xlsx)"
        )
    if not data.startswith(b"PK"):
        what = "empty" if not data else "not a zip package (perhaps CSV or text)"
        raise WorkbookError(
            f"{label}: the file is {what}, so not an .xlsx workbook: open it in a "
            "spreadsheet program and save it as Excel Workbook (.xlsx)"
        )


_KINDS = (
    ("sheet.macroEnabled.main", "xlsm"),
    ("template.macroEnabled.main", "xltm"),
    ("spreadsheetml.template.main", "xltx"),
    ("addin.macroEnabled.main", "xlam"),
)


def _rels_name(part: str) -> str:
    folder, _, base = part.rpartition("/")
    return f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return posixpath.normpath(target[1:])
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


class Book:
    """The workbook part and everything needed to find and edit sheets."""

    def __init__(self, pkg: Package) -> None:
        self.pkg = pkg
        self.label = pkg.label
        names = {m.name for m in pkg.members}
        if "mimetype" in names and b"opendocument" in pkg.read("mimetype", limit=1024):
            raise WorkbookError(
                f"{self.label}: this is an OpenDocument spreadsheet (.ods), not .xlsx: "
                "open it and save it as Excel Workbook (.xlsx)"
            )
        if pkg.find("xl/workbook.bin"):
            raise WorkbookError(
                f"{self.label}: this is a binary workbook (.xlsb): open it in Excel and save "
                "it as Excel Workbook (.xlsx)"
            )
        ct = pkg.find("[Content_Types].xml")
        if ct is None:
            raise WorkbookError(
                f"{self.label}: this zip file is not an Office package (no "
                "[Content_Types].xml): only .xlsx/.xlsm/.xltx/.xltm workbooks can be drawn"
            )
        self.content_types_part = ct
        self.content_types = self.read(ct)
        _tags(self.content_types, self.label, ct)
        office = [r for r in self.rels("") if r.type == "officeDocument" and not r.external]
        book = office[0].target if office else pkg.find("xl/workbook.xml")
        if book is None or pkg.find(book) is None:
            raise WorkbookError(
                f"{self.label}: the package has no workbook part: it is not a spreadsheet, "
                "or it is damaged; open it in Excel and save it again"
            )
        self.part = pkg.find(book) or book
        self.xml = self.read(self.part)
        _tags(self.xml, self.label, self.part)
        self.strict = STRICT_MAIN in self.xml[:4096] or STRICT_MAIN in self.xml
        self.sheets = self._sheets()

    @property
    def kind(self) -> str:
        """``"xlsx"``, ``"xlsm"``, ``"xltx"``, ``"xltm"`` or ``"xlam"``: what the
        workbook part's content type says the package is (the extension Excel needs)."""
        name, xml = "/" + self.part, self.content_types
        try:
            tags = list(iter_tags(xml))
        except ValueError:  # not well-formed: the package says nothing
            return "xlsx"
        for tag in tags:
            if tag.kind in ("start", "empty") and local(tag.name) == b"Override":
                a = attrs(xml[tag.start : tag.end])
                if unescape(a.get(b"PartName", b"")).lower() == name.lower():
                    ct = unescape(a.get(b"ContentType", b""))
                    for mark, kind in _KINDS:
                        if mark in ct:
                            return kind
                    break
        return "xlsx"

    def read(self, part: str, *, limit: int | None = None) -> bytes:
        """Inflate a part and refuse it if it declares entities."""
        data = self.pkg.read(part, limit=limit)
        check_no_doctype(data, self.label, part)
        return data

    def rels(self, part: str) -> list[Rel]:
        """The relationships of ``part`` ("" for the package), targets resolved."""
        name = self.pkg.find(_rels_name(part))
        if name is None:
            return []
        out = []
        xml = self.read(name)
        for tag in _tags(xml, self.label, name):
            if tag.kind in ("start", "empty") and local(tag.name) == b"Relationship":
                a = {
                    k.decode("utf-8", "replace"): unescape(v)
                    for k, v in attrs(xml[tag.start : tag.end]).items()
                }
                external = a.get("TargetMode") == "External"
                target = a.get("Target", "")
                out.append(
                    Rel(
                        a.get("Id", ""),
                        a.get("Type", "").rstrip("/").rpartition("/")[2],
                        target if external else _resolve(part, target),
                        external,
                    )
                )
        return out

    def _sheets(self) -> list[SheetInfo]:
        rels = {r.id: r for r in self.rels(self.part)}
        out = []
        for tag in iter_tags(self.xml):
            if tag.kind in ("start", "empty") and local(tag.name) == b"sheet":
                a = attrs(self.xml[tag.start : tag.end])
                rid = next((v for k, v in a.items() if local(k) == b"id" and b":" in k), b"")
                rel = rels.get(unescape(rid))
                name = unescape(a.get(b"name", b""))
                if rel is None:
                    continue
                part = self.pkg.find(rel.target) or rel.target
                info = SheetInfo(name, part, rel.type, unescape(a.get(b"state", b"visible")))
                out.append(info)
        return out

    @property
    def active_index(self) -> int:
        """Index of the sheet Excel shows when the file opens."""
        for tag in iter_tags(self.xml):
            if local(tag.name) == b"workbookView" and tag.kind in ("start", "empty"):
                tab = attrs(self.xml[tag.start : tag.end]).get(b"activeTab", b"0")
                return int(tab) if tab.isdigit() and int(tab) < len(self.sheets) else 0
            if local(tag.name) == b"sheets":
                break
        return 0

    def tables(self, sheet: SheetInfo) -> list[TableInfo]:
        """The Excel tables of a worksheet."""
        out = []
        for rel in self.rels(sheet.part):
            if rel.type != "table" or rel.external or self.pkg.find(rel.target) is None:
                continue
            part = self.pkg.find(rel.target) or rel.target
            xml = self.read(part)
            for tag in _tags(xml, self.label, part):
                if tag.kind in ("start", "empty") and local(tag.name) == b"table":
                    a = attrs(xml[tag.start : tag.end])
                    name = unescape(a.get(b"displayName") or a.get(b"name") or b"")
                    counts = a.get(b"headerRowCount", b"1"), a.get(b"totalsRowCount", b"0")
                    if not all(c.isdigit() and len(c) < 8 for c in counts):
                        raise not_well_formed(self.label, part, "a row count that is not one")
                    out.append(
                        TableInfo(
                            name, unescape(a.get(b"ref", b"")), int(counts[0]), int(counts[1]), part
                        )
                    )
                    break
        return out

    # ------------------------------------------------------------------ edits

    def without_calc_chain(self) -> tuple[dict[str, bytes], list[str]]:
        """Changed parts and removed parts that drop ``calcChain.xml``."""
        rels_part = self.pkg.find(_rels_name(self.part))
        chain = [r for r in self.rels(self.part) if r.type == "calcChain" and not r.external]
        if not chain or rels_part is None:
            return {}, []
        target = self.pkg.find(chain[0].target)
        changed = {
            rels_part: drop_element(self.read(rels_part), b"Relationship", b"Id", chain[0].id),
        }  # both parts were read whole by iter_tags already: their elements end
        ct = drop_element(self.content_types, b"Override", b"PartName", "/" + chain[0].target)
        if ct != self.content_types:
            changed[self.content_types_part] = ct
        return changed, [target] if target else []

    def with_full_calc(self, xml: bytes | None = None) -> bytes:
        """The workbook part with ``<calcPr fullCalcOnLoad="1">``: Excel and LibreOffice
        recompute every formula when the file is opened."""
        xml = self.xml if xml is None else xml
        tags = list(iter_tags(xml))
        root = next(t for t in tags if t.kind == "start")
        prefix = root.name[: -len(b"workbook")] if root.name.endswith(b"workbook") else b""
        for tag in tags:
            if tag.kind in ("start", "empty") and local(tag.name) == b"calcPr":
                head = xml[tag.start : tag.end]
                m = re.search(rb"\sfullCalcOnLoad\s*=\s*[\"'][^\"']*[\"']", head)
                if m is not None:
                    head = head[: m.start()] + b' fullCalcOnLoad="1"' + head[m.end() :]
                else:
                    cut = len(head) - (2 if head.endswith(b"/>") else 1)
                    head = head[:cut].rstrip() + b' fullCalcOnLoad="1"' + head[cut:]
                return xml[: tag.start] + head + xml[tag.end :]
        after = (
            b"oleSize",
            b"customWorkbookViews",
            b"pivotCaches",
            b"smartTagPr",
            b"smartTagTypes",
            b"webPublishing",
            b"fileRecoveryPr",
            b"webPublishObjects",
            b"extLst",
        )
        depth = 0
        for tag in tags:
            if tag.kind == "start":
                depth += 1
            if (tag.kind in ("start", "empty") and depth <= 2 and local(tag.name) in after) or (
                tag.kind == "end" and tag.name == root.name
            ):
                at = tag.start
                return xml[:at] + b"<" + prefix + b'calcPr fullCalcOnLoad="1"/>' + xml[at:]
            if tag.kind == "end":
                depth -= 1
        raise WorkbookError(f"{self.label}: the workbook part has no end tag")

    def add_sheet(self, name: str, sheet_xml: bytes) -> tuple[dict[str, bytes], str]:
        """Changed parts (workbook, its rels, content types) and the new part's name for a
        new last sheet ``name``."""
        n = 1
        while self.pkg.find(f"xl/worksheets/sheet{n}.xml") is not None:
            n += 1
        part = f"xl/worksheets/sheet{n}.xml"
        rels_name, rels_xml, rid = self._with_relationship(part)
        prefix = root_prefix(self.content_types, self.label, self.content_types_part)
        override = b'<%sOverride PartName="/%s" ContentType="%s"/>' % (
            prefix,
            part.encode(),
            WORKSHEET_TYPE.encode(),
        )
        ct = insert_before_end(self.content_types, override)
        book = self._with_sheet_entry(name, rid)
        return {self.part: book, rels_name: rels_xml, self.content_types_part: ct}, part

    def _with_relationship(self, part: str) -> tuple[str, bytes, str]:
        """The workbook's relationships part (name, new content) with one more, to the
        worksheet ``part``, and that relationship's fresh id."""
        rels_part = _rels_name(self.part)
        rels_name = self.pkg.find(rels_part) or rels_part
        rels_xml = self.read(rels_name)
        used = {r.id for r in self.rels(self.part)}
        k = 1
        while f"rId{k}" in used:
            k += 1
        rid = f"rId{k}"
        target = posixpath.relpath(part, posixpath.dirname(self.part))
        rel = b'<%sRelationship Id="%s" Type="%s" Target="%s"/>' % (
            root_prefix(rels_xml, self.label, rels_name),
            rid.encode(),
            _REL_WORKSHEET[self.strict].encode(),
            target.encode(),
        )
        return rels_name, insert_before_end(rels_xml, rel), rid

    def _with_sheet_entry(self, name: str, rid: str) -> bytes:
        """The workbook part with a last ``<sheet>`` named ``name`` for relationship ``rid``."""
        book = self.xml
        ids = [int(v) for v in re.findall(rb"\ssheetId\s*=\s*[\"'](\d+)[\"']", book)]
        declared = [(p, uri) for p, uri in _XMLNS.findall(book) if uri.endswith(b"/relationships")]
        r_prefix, r_uri = declared[0] if declared else (b"r", _REL_NS[self.strict])
        sheets_end = re.search(rb"</([\w.-]+:)?sheets>", book)
        if sheets_end is None:
            raise WorkbookError(f"{self.label}: the workbook part lists no sheets")
        # The prefix is declared on the new element too: some writers (openpyxl) declare
        # it on each <sheet> rather than on the root.
        entry = b'<%ssheet xmlns:%s="%s" name="%s" sheetId="%d" %s:id="%s"/>' % (
            sheets_end[1] or b"",
            r_prefix,
            r_uri,
            escape_attr(name),
            max(ids, default=0) + 1,
            r_prefix,
            rid.encode(),
        )
        return book[: sheets_end.start()] + entry + book[sheets_end.start() :]


def _tags(xml: bytes, label: str, part: str) -> list[Tag]:
    return tags_or_refuse(xml, label, f"part {part}")


def open_book(data: bytes, label: str) -> Book:
    """Sniff, open and read a workbook package given as bytes."""
    sniff(data, label)
    return Book(Package(data, label))
