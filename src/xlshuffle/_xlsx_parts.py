"""The package side of batch mode: what a file is, and what an openpyxl save would lose.

An .xlsx file is a zip package of *parts* (worksheets, styles, drawings, comments...).
openpyxl rebuilds the package from its object model when it saves, so any part it does
not model is silently dropped: images and shapes it cannot read, threaded comments,
custom XML, connections, query tables, printer settings, thumbnails, rich-data metadata.
This module inventories the parts of the input and of the saved output, by *kind*, and
names every kind that has fewer parts after the save, plus the top-level elements of the
workbook and of each worksheet that did not survive (``extLst`` holds sparklines,
slicers and newer data validation). It reads raw bytes only and never parses XML with
entity expansion, so it is safe to run before openpyxl has looked at the file.

Comparing the real save with the input, rather than predicting openpyxl from a table of
what it supports, keeps the check honest when openpyxl changes.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .draw.errors import WorkbookError

__all__ = ["Package", "lost_between", "open_package", "sniff"]

# A package whose parts inflate past this, or a part that inflates this many times over
# a large size, is refused as a likely zip bomb. Real workbooks compress 5-20 times; a
# million rows x 5 columns is about 200 MB of XML.
MAX_TOTAL_BYTES = 4 * 1024**3
MAX_RATIO = 250
_RATIO_FLOOR = 64 * 1024**2

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")
_STRICT_NS = b"http://purl.oclc.org/ooxml/spreadsheetml/main"

# Parts whose count may change on a save without anything the user made being lost:
# Excel rebuilds the calculation chain, and openpyxl rewrites strings, styles, theme and
# document properties from its model of them.
_BENIGN = frozenset(
    {
        "calculation chain",
        "shared strings",
        "styles",
        "theme",
        "document properties",
        "relationships",
        "content types",
        "workbook",
    }
)

# Top-level elements that openpyxl models and writes back whenever they hold anything
# (an empty <headerFooter/> is legitimately not written), or that Excel recomputes.
# Any other element that disappears (extLst, customSheetViews, ignoredErrors,
# oleObjects, controls, functionGroups...) is reported as lost.
_BENIGN_ELEMENTS = frozenset(
    {
        # worksheet
        "sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData",
        "sheetCalcPr", "sheetProtection", "scenarios", "autoFilter", "mergeCells",
        "conditionalFormatting", "dataValidations", "hyperlinks", "printOptions",
        "pageMargins", "pageSetup", "headerFooter", "rowBreaks", "colBreaks", "drawing",
        "legacyDrawing", "tableParts", "phoneticPr",
        # workbook
        "fileVersion", "fileSharing", "workbookPr", "workbookProtection", "bookViews",
        "sheets", "externalReferences", "definedNames", "calcPr", "pivotCaches",
        "fileRecoveryPr", "AlternateContent", "absPath", "revisionPtr",
    }
)  # fmt: skip

_KINDS: tuple[tuple[str, str], ...] = (
    # (substring of the content type or path, kind name); first match wins
    ("docProps/thumbnail", "thumbnail"),
    ("customXml/", "custom XML"),
    ("threadedComment", "threaded comments"),
    ("person+xml", "threaded comment people"),
    ("comments+xml", "comments"),
    ("vmlDrawing", "VML drawing (comment boxes, form controls)"),
    (".vml", "VML drawing (comment boxes, form controls)"),
    ("drawingml.chart+", "chart"),
    ("chartstyle", "chart style"),
    ("chartcolorstyle", "chart colours"),
    ("drawing+xml", "drawing (pictures, shapes, charts)"),
    ("diagram", "SmartArt"),
    ("image/", "picture"),
    ("printerSettings", "printer settings"),
    ("connections+xml", "data connections"),
    ("queryTable", "query table"),
    ("sheetMetadata", "cell metadata (rich data, dynamic arrays)"),
    ("richData", "rich data (linked data types, pictures in cells)"),
    ("/richData/", "rich data (linked data types, pictures in cells)"),
    ("slicerCache", "slicer cache"),
    ("slicer+", "slicer"),
    ("timeline", "timeline"),
    ("pivotTable", "pivot table"),
    ("pivotCacheDefinition", "pivot cache"),
    ("pivotCacheRecords", "pivot cache records"),
    ("externalLink", "external link"),
    ("vbaProject", "VBA project"),
    ("vbaData", "VBA project"),
    ("ctrlProp", "form control"),
    ("activeX", "ActiveX control"),
    ("customUI", "custom ribbon"),
    ("customProperty", "custom property"),
    ("custom-properties", "custom document properties"),
    ("webextension", "web extension (add-in)"),
    ("taskpane", "web extension (add-in)"),
    ("table+xml", "table"),
    ("calcChain", "calculation chain"),
    ("sharedStrings", "shared strings"),
    ("styles+xml", "styles"),
    ("theme+xml", "theme"),
    ("core-properties", "document properties"),
    ("extended-properties", "document properties"),
    ("relationships", "relationships"),
    ("worksheet+xml", "worksheet"),
    ("chartsheet+xml", "chart sheet"),
    ("dialogsheet", "dialog sheet"),
    ("macrosheet", "Excel 4 macro sheet"),
    ("sheet.main+xml", "workbook"),
    ("sheet.macroEnabled.main+xml", "workbook"),
    ("template.main+xml", "workbook"),
    ("volatileDependencies", "volatile dependencies"),
    ("externalLinkPath", "external link"),
)


@dataclass
class Package:
    """What is inside one xlsx package: its part kinds and top-level XML elements."""

    kinds: Counter[str] = field(default_factory=Counter)
    workbook_elements: set[str] = field(default_factory=set)
    sheet_elements: dict[str, set[str]] = field(default_factory=dict)
    has_vba_parts: bool = False
    #: Whether any string holds rich-text runs (in shared strings or inline in a sheet).
    has_rich_text: bool = False
    #: The merged range with the most cells: (cells, sheet name, A1 reference).
    largest_merge: tuple[int, str, str] = (0, "", "")


def _kind(name: str, content_type: str) -> str:
    probe = f"{name} {content_type}"
    for needle, kind in _KINDS:
        if needle in probe:
            return kind
    return f"other part ({name})"


def sniff(data: bytes, label: str) -> None:
    """Refuse, with one line naming ``label`` and the way out, anything not a usable xlsx.

    Raises
    ------
    WorkbookError
        For encrypted files, legacy .xls, .xlsb, .ods, CSV and other non-zip files,
        truncated zips and likely zip bombs.
    """
    if data.startswith(_OLE_MAGIC):
        if _ENCRYPTION_INFO in data:
            raise WorkbookError(
                f"{label}: the workbook is password-protected (encrypted): open it in Excel, "
                "remove the password (File > Info > Protect Workbook) and save it, then retry"
            )
        raise WorkbookError(
            f"{label}: this is a legacy Excel 97-2003 (.xls) or other OLE file, not .xlsx: "
            "open it and save it as Excel Workbook (.xlsx)"
        )
    if not data.startswith(b"PK"):
        what = "empty" if not data else "not a zip package (perhaps CSV or text)"
        raise WorkbookError(
            f"{label}: the file is {what}, so not an .xlsx workbook: "
            "open it in a spreadsheet program and save it as Excel Workbook (.xlsx)"
        )
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            names = {i.filename for i in infos}
            if "mimetype" in names and b"opendocument" in zf.read("mimetype"):
                raise WorkbookError(
                    f"{label}: this is an OpenDocument spreadsheet (.ods), not .xlsx: "
                    "open it and save it as Excel Workbook (.xlsx)"
                )
            if "xl/workbook.bin" in names:
                raise WorkbookError(
                    f"{label}: this is a binary workbook (.xlsb), which openpyxl cannot "
                    "write: open it in Excel and save it as Excel Workbook (.xlsx)"
                )
            if "[Content_Types].xml" not in names:
                raise WorkbookError(
                    f"{label}: this zip file is not an Office package (no [Content_Types].xml): "
                    "only .xlsx/.xlsm workbooks can be shuffled"
                )
            total = 0
            for info in infos:
                total += info.file_size
                ratio = info.file_size / max(info.compress_size, 1)
                if total > MAX_TOTAL_BYTES or (info.file_size > _RATIO_FLOOR and ratio > MAX_RATIO):
                    raise WorkbookError(
                        f"{label}: refusing a likely zip bomb ({info.filename} inflates "
                        f"{ratio:.0f} times, {total / 1024**2:.0f} MB so far): "
                        "if the workbook is genuine, re-save it in Excel"
                    )
    except zipfile.BadZipFile as exc:
        raise WorkbookError(
            f"{label}: the file is damaged or truncated ({exc}): "
            "copy it again or open and repair it in Excel, then retry"
        ) from None
    if _STRICT_NS in _read_member(data, "xl/workbook.xml"):
        raise WorkbookError(
            f"{label}: the workbook is saved as Strict Open XML, which openpyxl cannot read: "
            "open it and save it as Excel Workbook (.xlsx)"
        )


def _read_member(data: bytes, name: str) -> bytes:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return zf.read(name)
    except KeyError:
        return b""


_ATTR = re.compile(rb'([\w:]+)\s*=\s*"([^"]*)"')
_TAG = re.compile(rb"<(/?)(?:[\w.\-]+:)?([\w.\-]+)((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)(/?)>")


def _elements(xml: bytes, *, depth: int = 0) -> Iterable[tuple[int, str, dict[str, str]]]:
    """Yield ``(depth, local name, attributes)`` of each start tag, without an XML parser.

    Comments, processing instructions and DOCTYPE are skipped by the pattern (they do not
    start with a name character), so no entity is ever expanded.
    """
    for m in _TAG.finditer(xml):
        closing, name, attrs, empty = m.groups()
        if closing:
            depth -= 1
            continue
        yield (
            depth,
            name.decode("ascii", "replace"),
            {
                k.decode("ascii", "replace"): v.decode("utf-8", "replace")
                for k, v in _ATTR.findall(attrs)
            },
        )
        if not empty:
            depth += 1


# A rich-text run, <r> (any namespace prefix); <row>, <rPr>, <rPh> do not match.
_RICH_RUN = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?r[\s>/]")

_REF = re.compile(r"\$?([A-Z]{1,3})\$?(\d+)")


def _ref_cells(ref: str) -> int:
    """Number of cells in an A1 reference such as ``B1:B1048576`` (0 if unreadable)."""
    corners = []
    for part in ref.upper().split(":"):
        m = _REF.fullmatch(part.strip())
        if m is None:
            return 0
        col = 0
        for ch in m.group(1):
            col = col * 26 + ord(ch) - 64
        corners.append((int(m.group(2)), col))
    (r0, c0), (r1, c1) = corners[0], corners[-1]
    return (abs(r1 - r0) + 1) * (abs(c1 - c0) + 1)


def _top_level(xml: bytes) -> tuple[set[str], list[str]]:
    """Local names of the root's children, and the merged ranges; sheetData is skipped."""
    start = xml.find(b"<sheetData")
    if start < 0:
        items = list(_elements(xml))
        merges = [a.get("ref", "") for _, n, a in items if n == "mergeCell"]
        return {name for d, name, _ in items if d == 1}, merges
    head = {name for d, name, _ in _elements(xml[:start]) if d == 1}
    end = xml.find(b"</sheetData>", start)
    if end < 0:  # <sheetData/>
        end = xml.find(b">", start) + 1
    else:
        end += len(b"</sheetData>")
    items = list(_elements(xml[end:], depth=1))
    tail = {name for d, name, _ in items if d == 1}
    merges = [a.get("ref", "") for _, n, a in items if n == "mergeCell"]
    return head | tail | {"sheetData"}, merges


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return target[1:]
    parts = base.split("/")[:-1] + target.split("/")
    out: list[str] = []
    for p in parts:
        if p == "..":
            if out:
                out.pop()
        elif p not in ("", "."):
            out.append(p)
    return "/".join(out)


def open_package(data: bytes) -> Package:
    """Inventory the parts of a package given as bytes (already checked by :func:`sniff`)."""
    pkg = Package()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = [n for n in zf.namelist() if not n.endswith("/")]
        overrides: dict[str, str] = {}
        defaults: dict[str, str] = {}
        for _, tag, attrs in _elements(zf.read("[Content_Types].xml")):
            if tag == "Override":
                overrides[attrs.get("PartName", "").lstrip("/").lower()] = attrs.get(
                    "ContentType", ""
                )
            elif tag == "Default":
                defaults[attrs.get("Extension", "").lower()] = attrs.get("ContentType", "")
        for name in names:
            if name == "[Content_Types].xml":
                continue
            ctype = overrides.get(name.lower()) or defaults.get(name.rpartition(".")[2].lower(), "")
            pkg.kinds[_kind(name, ctype)] += 1
            if "sharedstrings" in name.lower() and _RICH_RUN.search(zf.read(name)):
                pkg.has_rich_text = True
            if name.startswith(("xl/vbaProject", "xl/activeX/", "xl/ctrlProps/", "customUI")):
                pkg.has_vba_parts = True

        book = _workbook_path(zf, names)
        if book is None:
            return pkg
        book_xml = zf.read(book)
        pkg.workbook_elements = {n for d, n, _ in _elements(book_xml) if d == 1}
        rels = _relationships(zf, book)
        for _, tag, attrs in _elements(book_xml):
            if tag != "sheet":
                continue
            rid = next((v for k, v in attrs.items() if k.endswith(":id")), "")
            target = rels.get(rid)
            if target and target in zf.NameToInfo:
                name = attrs.get("name", "")
                sheet_xml = zf.read(target)
                pkg.sheet_elements[name], merges = _top_level(sheet_xml)
                if not pkg.has_rich_text and _RICH_RUN.search(sheet_xml):
                    pkg.has_rich_text = True  # an inline string with runs
                for ref in merges:
                    pkg.largest_merge = max(pkg.largest_merge, (_ref_cells(ref), name, ref))
    return pkg


def _workbook_path(zf: zipfile.ZipFile, names: list[str]) -> str | None:
    for target in _relationships(zf, "").values():
        if target.endswith(".xml") and "workbook" in target.rsplit("/", 1)[-1].lower():
            return target
    return "xl/workbook.xml" if "xl/workbook.xml" in names else None


def _relationships(zf: zipfile.ZipFile, part: str) -> dict[str, str]:
    folder, _, base = part.rpartition("/")
    rels_name = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
    try:
        xml = zf.read(rels_name)
    except KeyError:
        return {}
    out = {}
    for _, tag, attrs in _elements(xml):
        if tag == "Relationship" and attrs.get("TargetMode") != "External":
            out[attrs.get("Id", "")] = _resolve(part, attrs.get("Target", ""))
    return out


def lost_between(before: Package, after: Package) -> list[str]:
    """Name everything in ``before`` that ``after`` no longer has, one phrase per item.

    Examples
    --------
    >>> a = Package(kinds=Counter({"picture": 2, "worksheet": 1}))
    >>> b = Package(kinds=Counter({"picture": 1, "worksheet": 1}))
    >>> lost_between(a, b)
    ['1 of 2 picture parts']
    """
    lost = []
    for kind, count in sorted(before.kinds.items()):
        if kind in _BENIGN:
            continue
        missing = count - after.kinds.get(kind, 0)
        if missing > 0:
            lost.append(f"{missing} of {count} {kind} parts" if count > 1 else kind)
    for name in sorted(before.workbook_elements - after.workbook_elements - _BENIGN_ELEMENTS):
        lost.append(f"workbook <{name}>")
    for sheet, elements in before.sheet_elements.items():
        gone = elements - after.sheet_elements.get(sheet, set()) - _BENIGN_ELEMENTS
        for name in sorted(gone):
            lost.append(
                f"sheet {sheet!r} <{name}>"
                + (" (sparklines, slicers, newer rules)" if name == "extLst" else "")
            )
    return lost
