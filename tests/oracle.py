"""An independent oracle for the workbook engine: zip members, sheet cells, row permutations.

Built only on ``zipfile``, ``struct`` and ``lxml`` (entities never resolved, no network,
a ``<!DOCTYPE>`` refused), never on xlshuffle itself, so that a bug in the engine cannot
hide in a helper the tests share with it.

- :func:`members` reads every zip member's *stored* bytes straight from its local header,
  with its metadata; :func:`unchanged_members` / :func:`member_differences` compare two
  packages member by member (byte for byte, metadata, order, zip comment).
- :func:`sheet_part`, :func:`sheet_cells`, :func:`sheet_rows`, :func:`shared_strings`,
  :func:`cell_texts` read one sheet (Transitional or Strict, any namespace prefix, implied
  ``r=`` positions).
- :func:`is_row_permutation` finds the permutation that turned one sheet's rows into
  another's and checks that nothing else changed.
- :func:`libreoffice_csv` converts many packages to CSV in one LibreOffice call.
"""

from __future__ import annotations

import csv
import posixpath
import re
import shutil
import struct
import subprocess
import tempfile
import zipfile
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from lxml import etree

MAIN_NS = (
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main",
)
REL_NS = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "http://purl.oclc.org/ooxml/officeDocument/relationships",
)
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"

ORDER = "<member order>"  # reported by unchanged_members when the member order changed
COMMENT = "<zip comment>"  # reported by unchanged_members when the zip comment changed

_LOCAL = struct.Struct("<4s5H3L2H")  # local file header, 30 bytes
_MAX_ROW, _MAX_COL = 1_048_576, 16_384


class OracleError(Exception):
    """A package the oracle refuses to read: it would not know what the truth is."""


# ---------------------------------------------------------------- zip members


@dataclass(frozen=True)
class MemberFacts:
    """One zip member as stored: its compressed bytes and every header field."""

    name: str
    raw: bytes  # the stored (compressed) bytes, read from the local header's offset
    local_header: bytes  # the whole local header: signature ... name, extra
    compress_type: int
    date_time: tuple[int, int, int, int, int, int]
    external_attr: int
    internal_attr: int
    flag_bits: int
    crc: int
    compress_size: int
    file_size: int
    create_system: int
    create_version: int
    extract_version: int
    extra: bytes  # central directory extra field
    comment: bytes  # member comment

    def differences(self, other: MemberFacts) -> list[str]:
        """Names of the fields (all but ``name``) in which ``other`` differs."""
        return [
            f.name
            for f in fields(self)
            if f.name != "name" and getattr(self, f.name) != getattr(other, f.name)
        ]


class Members(dict[str, MemberFacts]):
    """``members()``'s answer: name -> facts in central-directory order, plus the comment."""

    comment: bytes = b""


def members(path: str | Path, *, verify: bool = True) -> Members:
    """Every member of the zip at ``path``, with its stored bytes, and the zip comment.

    Raises :class:`OracleError` for two members with one name, for a local header that
    disagrees with the central directory, and (``verify``) for a member that does not
    inflate to its declared size and CRC.
    """
    data = Path(path).read_bytes()
    out = Members()
    with zipfile.ZipFile(Path(path)) as zf:
        out.comment = zf.comment
        for info in zf.infolist():
            if info.filename in out:
                raise OracleError(f"{path}: two zip members named {info.filename!r}")
            off = info.header_offset
            if off + _LOCAL.size > len(data):
                raise OracleError(f"{path}: {info.filename}: local header out of the file")
            sig, _ver, flags, method, _t, _d, crc, _cs, _us, nlen, elen = _LOCAL.unpack_from(
                data, off
            )
            if sig != b"PK\x03\x04":
                raise OracleError(f"{path}: {info.filename}: no local header at {off}")
            raw_name = data[off + 30 : off + 30 + nlen]
            name = raw_name.decode("utf-8" if flags & 0x800 else "cp437")
            if name != info.orig_filename or method != info.compress_type:
                raise OracleError(f"{path}: {info.filename}: local header disagrees")
            if not flags & 0x08 and crc != info.CRC:
                raise OracleError(f"{path}: {info.filename}: local CRC disagrees")
            start = off + 30 + nlen + elen
            raw = data[start : start + info.compress_size]
            if len(raw) != info.compress_size:
                raise OracleError(f"{path}: {info.filename}: data runs past the end")
            facts = MemberFacts(
                name=info.filename,
                raw=raw,
                local_header=data[off:start],
                compress_type=info.compress_type,
                date_time=info.date_time,
                external_attr=info.external_attr,
                internal_attr=info.internal_attr,
                flag_bits=info.flag_bits,
                crc=info.CRC,
                compress_size=info.compress_size,
                file_size=info.file_size,
                create_system=info.create_system,
                create_version=info.create_version,
                extract_version=info.extract_version,
                extra=info.extra,
                comment=info.comment,
            )
            if verify:
                _verify(path, facts)
            out[info.filename] = facts
    return out


def _verify(path: str | Path, m: MemberFacts) -> None:
    if m.compress_type == zipfile.ZIP_STORED:
        content = m.raw
    elif m.compress_type == zipfile.ZIP_DEFLATED:
        d = zlib.decompressobj(-15)
        try:  # max_length 0 would mean "no limit", hence the + 1
            content = d.decompress(m.raw, m.file_size + 1)
        except zlib.error as e:
            raise OracleError(f"{path}: {m.name}: {e}") from None
        if len(content) != m.file_size or not d.eof:
            raise OracleError(f"{path}: {m.name}: does not inflate to its declared size")
    else:
        raise OracleError(f"{path}: {m.name}: compression method {m.compress_type}")
    if len(content) != m.file_size or zlib.crc32(content) != m.crc:
        raise OracleError(f"{path}: {m.name}: size or CRC does not match its content")


def member_differences(a: str | Path, b: str | Path, allowed: Iterable[str] = ()) -> dict[str, str]:
    """What differs between packages ``a`` and ``b``, outside the ``allowed`` members.

    Keys are member names (or :data:`ORDER`, :data:`COMMENT`), values say what differs.
    """
    ma, mb = members(a), members(b)
    allowed = set(allowed)
    out: dict[str, str] = {}
    for name in [*ma, *(n for n in mb if n not in ma)]:
        if name in allowed:
            continue
        if name not in mb:
            out[name] = "removed"
        elif name not in ma:
            out[name] = "added"
        elif diff := ma[name].differences(mb[name]):
            out[name] = "differs in " + ", ".join(diff)
    common_a = [n for n in ma if n in mb]
    common_b = [n for n in mb if n in ma]
    if common_a != common_b:
        out[ORDER] = f"order {common_a} became {common_b}"
    if ma.comment != mb.comment:
        out[COMMENT] = f"zip comment {ma.comment!r} became {mb.comment!r}"
    return out


def unchanged_members(a: str | Path, b: str | Path, allowed: Iterable[str] = ()) -> list[str]:
    """Names of the members outside ``allowed`` that differ, were added or were removed.

    An empty list means every other member was copied byte for byte, header fields and
    all. The list also holds :data:`ORDER` when the members common to both packages come
    in another order, and :data:`COMMENT` when the zip comment changed.
    """
    return list(member_differences(a, b, allowed))


# ---------------------------------------------------------------- XML parts

_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_pis=False
)


def _xml(zf: zipfile.ZipFile, name: str) -> Any:
    try:
        data = zf.read(name)
    except KeyError:
        raise OracleError(f"no part {name!r}") from None
    root = etree.fromstring(data, _PARSER)
    if root.getroottree().docinfo.doctype:
        raise OracleError(f"{name}: has a <!DOCTYPE>")
    return root


def _local(el: Any) -> str | None:
    """The local name of a SpreadsheetML element (either namespace), else None."""
    if not isinstance(el.tag, str):
        return None
    q = etree.QName(el)
    return q.localname if q.namespace in MAIN_NS else None


def _rel_attr(el: Any, name: str) -> str | None:
    for ns in REL_NS:
        v = el.get(f"{{{ns}}}{name}")
        if v is not None:
            return v
    return None


def _rels(zf: zipfile.ZipFile, part: str) -> list[tuple[str, str, str, str | None]]:
    """(Id, Type, resolved target, TargetMode) of the relationships of ``part``."""
    folder, base = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", base + ".rels")
    if rels_name not in zf.namelist():
        return []
    out = []
    for rel in _xml(zf, rels_name).iter(f"{{{PKG_REL_NS}}}Relationship"):
        target, mode = rel.get("Target"), rel.get("TargetMode")
        if mode != "External":
            if target.startswith("/"):
                target = target[1:]
            else:
                target = posixpath.normpath(posixpath.join(folder, target))
        out.append((rel.get("Id"), rel.get("Type"), target, mode))
    return out


def _rel_type(typ: str, kind: str) -> bool:
    return any(typ == f"{ns}/{kind}" for ns in REL_NS)


def workbook_part(path: str | Path) -> str:
    """The workbook part's name, from ``_rels/.rels``."""
    with zipfile.ZipFile(Path(path)) as zf:
        for _id, typ, target, _mode in _rels(zf, ""):
            if _rel_type(typ, "officeDocument"):
                return target
    raise OracleError(f"{path}: no officeDocument relationship")


def sheet_names(path: str | Path) -> list[str]:
    """The sheet names in workbook order."""
    wb = workbook_part(path)
    with zipfile.ZipFile(Path(path)) as zf:
        root = _xml(zf, wb)
        return [el.get("name") for el in root.iter() if _local(el) == "sheet"]


def sheet_part(path: str | Path, sheet_name: str) -> str:
    """The part name (``xl/worksheets/sheet1.xml``) of the sheet called ``sheet_name``."""
    wb = workbook_part(path)
    with zipfile.ZipFile(Path(path)) as zf:
        root = _xml(zf, wb)
        rid = None
        for el in root.iter():
            if _local(el) == "sheet" and el.get("name") == sheet_name:
                rid = _rel_attr(el, "id")
                break
        if rid is None:
            raise KeyError(f"{path}: no sheet named {sheet_name!r}")
        for rel_id, _typ, target, _mode in _rels(zf, wb):
            if rel_id == rid:
                return target
    raise OracleError(f"{path}: sheet {sheet_name!r} has no relationship {rid}")


def shared_strings(path: str | Path) -> list[str]:
    """The shared string table's texts (runs joined, phonetic runs left out)."""
    wb = workbook_part(path)
    with zipfile.ZipFile(Path(path)) as zf:
        for _id, typ, target, _mode in _rels(zf, wb):
            if _rel_type(typ, "sharedStrings"):
                root = _xml(zf, target)
                return [_string_item(si)[0] for si in root if _local(si) == "si"]
    return []


def _string_item(el: Any) -> tuple[str, tuple[tuple[Any, str], ...]]:
    """Text and runs ((canonical rPr or None, text), ...) of an ``<si>`` or ``<is>``."""
    text: list[str] = []
    runs: list[tuple[Any, str]] = []
    for child in el:
        name = _local(child)
        if name == "t":
            text.append(child.text or "")
            runs.append((None, child.text or ""))
        elif name == "r":
            rpr, t = None, ""
            for part in child:
                if _local(part) == "rPr":
                    rpr = _canon(part)
                elif _local(part) == "t":
                    t = part.text or ""
            text.append(t)
            runs.append((rpr, t))
    return "".join(text), tuple(runs)


def _canon(el: Any) -> tuple[Any, ...]:
    """A prefix-independent, comparable form of an element (comments and PIs left out)."""
    attrs = tuple(sorted(el.attrib.items()))
    kids = tuple(_canon(k) for k in el if isinstance(k.tag, str))
    return (el.tag, attrs, el.text if not kids else (el.text or "").strip(), kids)


# ---------------------------------------------------------------- sheet cells


@dataclass(frozen=True)
class CellFacts:
    """What a ``<c>`` holds, apart from its reference.

    ``v`` is the raw text of ``<v>`` (None without one), ``text``/``runs`` the inline
    string (None unless ``<is>``), ``f`` the formula text (None without ``<f>``, "" for
    a shared-formula follower), ``f_attrs`` its attributes, ``attrs`` every attribute of
    the cell but ``r`` (Clark notation for namespaced ones), ``extra`` any other child.
    """

    s: str | None
    t: str | None
    v: str | None
    text: str | None
    runs: tuple[tuple[Any, str], ...] | None
    f: str | None
    f_attrs: tuple[tuple[str, str], ...]
    cm: str | None
    vm: str | None
    attrs: tuple[tuple[str, str], ...]
    extra: tuple[Any, ...]

    @property
    def is_formula(self) -> bool:
        return self.f is not None


_REF = re.compile(r"^([A-Z]{1,3})([1-9][0-9]{0,6})$")


def parse_ref(ref: str) -> tuple[int, int]:
    """``"B4"`` -> ``(4, 2)``."""
    m = _REF.match(ref)
    if not m:
        raise OracleError(f"not a cell reference: {ref!r}")
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)), col


def col_letter(col: int) -> str:
    s = ""
    while col:
        col, rem = divmod(col - 1, 26)
        s = chr(65 + rem) + s
    return s


def _sheet_data(path: str | Path, sheet_name: str) -> Any:
    part = sheet_part(path, sheet_name)
    with zipfile.ZipFile(Path(path)) as zf:
        root = _xml(zf, part)
    if _local(root) != "worksheet":
        raise OracleError(f"{part}: root is {root.tag}, not a worksheet")
    data = [el for el in root if _local(el) == "sheetData"]
    if len(data) != 1:
        raise OracleError(f"{part}: {len(data)} sheetData elements")
    return data[0]


def _walk(path: str | Path, sheet_name: str) -> Iterable[tuple[int, Any, list[tuple[int, Any]]]]:
    """(row number, row element, [(column, cell element)]) with implied positions."""
    previous_row = 0
    for row in _sheet_data(path, sheet_name):
        if not isinstance(row.tag, str):
            continue  # comments and processing instructions
        if _local(row) != "row":
            # Invalid but real (a .NET producer writes <autoFilter> here): such an element
            # is not a row and takes no part in a draw. Its bytes are checked with the rest
            # of the part by the engine's tests, not here.
            continue
        r = int(row.get("r")) if row.get("r") is not None else previous_row + 1
        if not previous_row < r <= _MAX_ROW:
            raise OracleError(f"row {r} after row {previous_row}")
        previous_row = r
        cells = []
        previous_col = 0
        for c in row:
            if not isinstance(c.tag, str):
                continue
            if _local(c) != "c":
                if _local(c) == "extLst":
                    continue
                raise OracleError(f"unexpected {c.tag} in row {r}")
            if c.get("r") is not None:
                cr, col = parse_ref(c.get("r"))
                if cr != r:
                    raise OracleError(f"cell {c.get('r')} inside row {r}")
            else:
                col = previous_col + 1
            if not previous_col < col <= _MAX_COL:
                raise OracleError(f"row {r}: column {col} after column {previous_col}")
            previous_col = col
            cells.append((col, c))
        yield r, row, cells


def _cell_facts(c: Any) -> CellFacts:
    v = text = runs = f = None
    f_attrs: tuple[tuple[str, str], ...] = ()
    extra = []
    for child in c:
        if not isinstance(child.tag, str):
            continue
        name = _local(child)
        if name == "v":
            v = child.text or ""
        elif name == "is":
            text, runs = _string_item(child)
            rest = [_canon(k) for k in child if _local(k) not in ("t", "r")]
            if rest:
                extra.append(("is", tuple(rest)))
        elif name == "f":
            f = child.text or ""
            f_attrs = tuple(sorted(child.attrib.items()))
        else:
            extra.append(_canon(child))
    return CellFacts(
        s=c.get("s"),
        t=c.get("t"),
        v=v,
        text=text,
        runs=runs,
        f=f,
        f_attrs=f_attrs,
        cm=c.get("cm"),
        vm=c.get("vm"),
        attrs=tuple(sorted((k, val) for k, val in c.attrib.items() if k != "r")),
        extra=tuple(extra),
    )


def sheet_cells(path: str | Path, sheet_name: str) -> dict[tuple[int, int], CellFacts]:
    """Every ``<c>`` of the sheet by (row, column), 1-based, positions implied if needed."""
    out: dict[tuple[int, int], CellFacts] = {}
    for r, _row, cells in _walk(path, sheet_name):
        for col, c in cells:
            out[r, col] = _cell_facts(c)
    return out


def sheet_rows(path: str | Path, sheet_name: str) -> dict[int, dict[str, str]]:
    """Every ``<row>``'s attributes but ``r`` (Clark notation for namespaced ones)."""
    return {
        r: {k: v for k, v in row.attrib.items() if k != "r"}
        for r, row, _cells in _walk(path, sheet_name)
    }


def cell_texts(path: str | Path, sheet_name: str) -> dict[tuple[int, int], str]:
    """What each cell holds as text: shared or inline string, else the raw ``<v>``."""
    sst = shared_strings(path)
    out = {}
    for pos, cell in sheet_cells(path, sheet_name).items():
        if cell.t == "s" and cell.v is not None:
            out[pos] = sst[int(cell.v)]
        elif cell.t == "inlineStr":
            out[pos] = cell.text or ""
        elif cell.v is not None:
            out[pos] = cell.v
    return out


# ---------------------------------------------------------------- row permutations


def _formula_attrs(cell: CellFacts) -> tuple[tuple[str, str], ...]:
    """Formula attributes that must travel unchanged: a shared formula may be unshared."""
    shared = dict(cell.f_attrs).get("t") == "shared"
    drop = {"ref", "si", "t"} if shared else {"ref"}
    return tuple((k, v) for k, v in cell.f_attrs if k not in drop)


def _moving_key(cell: CellFacts) -> tuple[Any, ...]:
    """Facts a moved cell keeps: for a formula, not its text nor its cached value."""
    if not cell.is_formula:
        return ("value", cell)
    attrs = tuple((k, v) for k, v in cell.attrs if k != "t")
    return ("formula", cell.s, attrs, _formula_attrs(cell), cell.extra)


def _outside_key(cell: CellFacts) -> tuple[Any, ...]:
    """Facts a cell that does not move keeps: a formula keeps its text, not its cache."""
    if not cell.is_formula:
        return ("value", cell)
    attrs = tuple((k, v) for k, v in cell.attrs if k != "t")
    return ("formula", cell.s, attrs, cell.f, _formula_attrs(cell), cell.extra)


def _unshared(
    b: CellFacts, pos: tuple[int, int], cells: Mapping[tuple[int, int], CellFacts], a: CellFacts
) -> CellFacts:
    """A shared-formula follower (text "") that stays put while its master moves must be
    written out: the master's text, translated to the follower's place (openpyxl's
    Translator, as Excel does), becomes its own text. Other cells: as they are."""
    attrs = dict(b.f_attrs)
    if not (b.is_formula and b.f == "" and attrs.get("t") == "shared" and a.f):
        return b
    from dataclasses import replace

    from openpyxl.formula.translate import Translator

    for (r, c), m in cells.items():
        m_attrs = dict(m.f_attrs) if m.is_formula else {}
        if m.f and m_attrs.get("t") == "shared" and m_attrs.get("si") == attrs.get("si"):
            origin, here = f"{col_letter(c)}{r}", f"{col_letter(pos[1])}{pos[0]}"
            text = Translator("=" + m.f, origin=origin).translate_formula(here)[1:]
            return replace(b, f=text)
    return b


def _differing(b: CellFacts, a: CellFacts) -> list[str]:
    return [f.name for f in fields(b) if getattr(b, f.name) != getattr(a, f.name)]


def _by_row(cells: Mapping[tuple[int, int], CellFacts]) -> dict[int, dict[int, CellFacts]]:
    out: dict[int, dict[int, CellFacts]] = defaultdict(dict)
    for (r, c), cell in cells.items():
        out[r][c] = cell
    return out


def _show(cells: Mapping[int, CellFacts]) -> str:
    parts = []
    for c in sorted(cells):
        cell = cells[c]
        what = cell.text if cell.text is not None else cell.v
        if cell.t == "s":
            what = f"shared#{cell.v}"
        if cell.is_formula:
            what = f"={cell.f}"
        parts.append(f"{col_letter(c)}:{what!r}" + (f"/s{cell.s}" if cell.s else ""))
    return "{" + ", ".join(parts) + "}"


def is_row_permutation(
    before_cells: Mapping[tuple[int, int], CellFacts],
    after_cells: Mapping[tuple[int, int], CellFacts],
    top: int,
    bottom: int,
    *,
    whole_rows: bool,
    cols: Iterable[int] | None = None,
    formula_check: Callable[[CellFacts, CellFacts, int], bool] | None = None,
    before_rows: Mapping[int, Mapping[str, str]] | None = None,
    after_rows: Mapping[int, Mapping[str, str]] | None = None,
) -> list[int]:
    """Check that rows ``top..bottom`` of ``after`` are those of ``before``, reordered.

    With ``whole_rows`` every cell of a row moves with it; otherwise only the cells in
    ``cols`` (1-based column numbers) move and the rest of each row stays. A moved cell
    keeps every fact but its reference; a formula cell may change its formula text,
    cached value (``<v>``, ``t``), ``ref``, and, if it was or becomes part of a shared
    formula, ``t="shared"``/``si`` (it may be unshared). ``formula_check(before, after,
    row_delta)`` may judge the new formula text. Every cell outside the moving block must
    be unchanged (a formula there may change only its cached value and its sharing).
    Given ``before_rows``/``after_rows`` (from :func:`sheet_rows`) and ``whole_rows``, row
    attributes must travel with their rows (``spans`` ignored) and stay put elsewhere.

    Returns ``p`` with after row ``top + i`` == before row ``top + p[i]``; duplicated
    rows are matched in order (any consistent answer). Raises AssertionError otherwise.
    """
    if bottom < top:
        raise ValueError("bottom < top")
    if not whole_rows and cols is None:
        raise ValueError("cols is required unless whole_rows")
    band = range(top, bottom + 1)
    before, after = _by_row(before_cells), _by_row(after_cells)
    if whole_rows:
        moving = {c for r in band for c in (*before.get(r, {}), *after.get(r, {}))}
    else:
        moving = set(cols or ())

    def moves(r: int, c: int) -> bool:
        return r in band and c in moving

    problems = []
    for pos in sorted(set(before_cells) | set(after_cells)):
        if moves(*pos):
            continue
        ref = f"{col_letter(pos[1])}{pos[0]}"
        b, a = before_cells.get(pos), after_cells.get(pos)
        if b is None or a is None:
            problems.append(f"{ref} {'appeared' if b is None else 'disappeared'}: {b or a}")
        elif _outside_key(_unshared(b, pos, before_cells, a)) != _outside_key(a):
            diff = [f"{k}={getattr(b, k)!r}->{getattr(a, k)!r}" for k in _differing(b, a)]
            problems.append(f"{ref} changed outside the shuffled rows: {', '.join(diff)}")
    if problems:
        raise AssertionError(_report(problems))

    def key(rows: dict[int, dict[int, CellFacts]], r: int) -> tuple[Any, ...]:
        return tuple(sorted((c, _moving_key(x)) for c, x in rows.get(r, {}).items() if c in moving))

    def moving_cells(rows: dict[int, dict[int, CellFacts]], r: int) -> dict[int, CellFacts]:
        return {c: x for c, x in rows.get(r, {}).items() if c in moving}

    row_key = _row_key(before_rows, after_rows) if whole_rows else None
    buckets: dict[Any, list[int]] = defaultdict(list)
    for r in band:
        k = (key(before, r), row_key(before_rows, r) if row_key else None)
        buckets[k].append(r)
    perm: list[int] = []
    for r in band:
        k = (key(after, r), row_key(after_rows, r) if row_key else None)
        chosen = None
        for candidate in buckets.get(k, []):
            if formula_check is None or all(
                formula_check(x, after[r][c], r - candidate)
                for c, x in moving_cells(before, candidate).items()
                if x.is_formula
            ):
                chosen = candidate
                break
        if chosen is None:
            problems.append(_unmatched(r, moving_cells(after, r), before, buckets, moving_cells))
            continue
        buckets[k].remove(chosen)
        perm.append(chosen - top)
    if problems:
        raise AssertionError(_report(problems))
    if whole_rows and before_rows is not None and after_rows is not None:
        for r in sorted(set(before_rows) | set(after_rows)):
            if r not in band and _attrs(before_rows.get(r)) != _attrs(after_rows.get(r)):
                problems.append(f"row {r} attributes {before_rows.get(r)} -> {after_rows.get(r)}")
        if problems:
            raise AssertionError(_report(problems))
    return perm


def _attrs(attrs: Mapping[str, str] | None) -> dict[str, str]:
    return {k: v for k, v in (attrs or {}).items() if k != "spans"}


def _row_key(
    before_rows: Mapping[int, Mapping[str, str]] | None,
    after_rows: Mapping[int, Mapping[str, str]] | None,
) -> Callable[[Mapping[int, Mapping[str, str]] | None, int], Any] | None:
    if before_rows is None or after_rows is None:
        return None
    return lambda rows, r: tuple(sorted(_attrs((rows or {}).get(r)).items()))


def _unmatched(
    r: int,
    cells: dict[int, CellFacts],
    before: dict[int, dict[int, CellFacts]],
    buckets: Mapping[Any, list[int]],
    moving_cells: Callable[[dict[int, dict[int, CellFacts]], int], dict[int, CellFacts]],
) -> str:
    unused = sorted(x for rows in buckets.values() for x in rows)
    best, best_diff = None, None
    for candidate in unused:
        old = moving_cells(before, candidate)
        diff = [
            col_letter(c)
            for c in sorted(set(old) | set(cells))
            if c not in old or c not in cells or _moving_key(old[c]) != _moving_key(cells[c])
        ]
        if best_diff is None or len(diff) < len(best_diff):
            best, best_diff = candidate, diff
    msg = f"after row {r} {_show(cells)} matches no unused before row"
    if best is not None:
        msg += (
            f"; closest is before row {best} {_show(moving_cells(before, best))},"
            f" differing in {', '.join(best_diff or []) or 'row attributes or formulas'}"
        )
    return msg


def _report(problems: list[str]) -> str:
    head = f"{len(problems)} problem(s):\n  "
    more = f"\n  ... and {len(problems) - 10} more" if len(problems) > 10 else ""
    return head + "\n  ".join(problems[:10]) + more


# ---------------------------------------------------------------- LibreOffice


def libreoffice_csv(
    paths: Iterable[str | Path], sheet_index: int = 0, *, timeout: float = 600
) -> dict[Path, list[list[str]] | None]:
    """Each package's sheet ``sheet_index`` (0-based) as LibreOffice reads it, as CSV rows.

    One ``soffice --headless --convert-to csv`` call for all files, with a private
    profile; values are written raw (not as formatted), UTF-8. Every value is None when
    ``soffice`` is not installed; a file LibreOffice could not convert maps to None too
    (callers that expect a conversion must assert it). Needs LibreOffice 7.2+ for the
    sheet-number token of the CSV filter options.
    """
    paths = [Path(p) for p in paths]
    if shutil.which("soffice") is None:
        return dict.fromkeys(paths)
    out: dict[Path, list[list[str]] | None] = {}
    with tempfile.TemporaryDirectory(prefix="oracle-lo-") as tmp:
        tmp_dir = Path(tmp)
        (tmp_dir / "in").mkdir()
        inputs = []
        for i, p in enumerate(paths):
            dst = tmp_dir / "in" / f"f{i:04d}{p.suffix}"  # unique stems, same extension
            shutil.copyfile(p, dst)
            inputs.append(dst)
        options = f"44,34,76,1,,0,false,true,false,false,false,{sheet_index + 1}"
        cmd = [
            "soffice",
            f"-env:UserInstallation={(tmp_dir / 'profile').as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            f"csv:Text - txt - csv (StarCalc):{options}",
            "--outdir",
            str(tmp_dir / "out"),
            *map(str, inputs),
        ]
        subprocess.run(cmd, check=False, capture_output=True, timeout=timeout)
        for i, p in enumerate(paths):
            # with a sheet number, LibreOffice names the output <stem>-<sheet name>.csv
            found = sorted((tmp_dir / "out").glob(f"f{i:04d}-*.csv"))
            found += sorted((tmp_dir / "out").glob(f"f{i:04d}.csv"))
            if not found:
                out[p] = None
                continue
            with found[0].open(encoding="utf-8", newline="") as fh:
                out[p] = list(csv.reader(fh))
    return out
