"""Fuzzing the workbook reader: damaged copies of small fixtures (tests/wb_fuzz.py) must be
drawn or refused in one line naming the file, within a time budget; and one regression test
per bug the fuzzer found, each a fixed edit of a fixture.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import resource
import struct
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import wb_costly
import wb_fuzz
from xlshuffle import WorkbookError
from xlshuffle.workbook import groups_workbook, raised, sample_workbook, shuffle_workbook
from xlshuffle.workbook.package.zipread import Package

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "src"

_FUZZ = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
_MORE_SEEDS = [
    *wb_fuzz.SEEDS,
    "no_refs.xlsx",
    "cdata_charrefs.xlsx",
    "table_title.xlsx",
    "hyperlinks.xlsx",
    "extras.xlsx",
    "inline_strings.xlsx",
    "row_attrs.xlsx",
    "relative_formulas.xlsx",
]


def _check(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        wb_fuzz.check_outcome(data, Path(folder))


@_FUZZ
@given(wb_fuzz.mutants())
def test_damaged_workbooks_are_drawn_or_refused_in_one_line(data: bytes) -> None:
    _check(data)


@pytest.mark.slow
@settings(_FUZZ, max_examples=3000)
@given(wb_fuzz.mutants(_MORE_SEEDS))
def test_damaged_workbooks_many(data: bytes) -> None:
    _check(data)


# --------------------------------------------------------------------------- regressions


def edited(fixture: str, part: str, old: bytes, new: bytes) -> bytes:
    """``fixture`` with ``old`` replaced by ``new`` (once) in member ``part``."""
    parts = wb_fuzz.members((wb_fuzz.ENGINE / fixture).read_bytes())
    for i, (info, body) in enumerate(parts):
        if info.filename == part:
            assert old in body, f"{old!r} is not in {part}"
            parts[i] = (info, body.replace(old, new, 1))
    return wb_fuzz.rebuild(parts)


def refused(tmp_path: Path, data: bytes, match: str, call: str = "shuffle") -> None:
    src = tmp_path / "in.xlsx"
    src.write_bytes(data)
    run = {
        "shuffle": lambda: shuffle_workbook(src, tmp_path / "out.xlsx", seed=1),
        "sample": lambda: sample_workbook(src, tmp_path / "out.xlsx", k=2, seed=1),
        "groups": lambda: groups_workbook(src, tmp_path / "out.xlsx", k=2, seed=1),
    }[call]
    with pytest.raises(WorkbookError, match=match) as info:
        run()
    assert str(src) in str(info.value)
    assert "\n" not in str(info.value)
    assert not (tmp_path / "out.xlsx").exists()


SHEET = "xl/worksheets/sheet1.xml"


def test_cell_reference_past_the_sheet_is_refused(tmp_path: Path) -> None:
    # was: read as a cell without r=, and the moved cell written with two r attributes
    data = edited("merges.xlsx", SHEET, b'<c r="C4">', b'<c r="C99999999999999">')
    refused(tmp_path, data, r"row 4 has a cell at 'C99999999999999', which is not a place")


@pytest.mark.parametrize("number", [b"0", b"99999999999"])
def test_row_number_off_the_sheet_is_refused(tmp_path: Path, number: bytes) -> None:
    # was: row 0 accepted, and a long number read as "the previous row plus one"
    data = edited("merges.xlsx", SHEET, b'<row r="1">', b'<row r="' + number + b'">')
    refused(tmp_path, data, r"(row 0 is not a row of a sheet|a row is numbered at '9+')")


def _corrupt_deflate(data: bytes, part: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo(part)
    out = bytearray(data)
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    out[start : start + 4] = b"\xff\xff\xff\xff"  # a reserved block type
    return bytes(out)


def test_member_that_does_not_inflate_is_refused(tmp_path: Path) -> None:
    # was: zlib.error escaping from the reader
    data = _corrupt_deflate((wb_fuzz.ENGINE / "merges.xlsx").read_bytes(), SHEET)
    refused(tmp_path, data, r"part xl/worksheets/sheet1.xml does not inflate")


def test_copied_member_with_a_wrong_checksum_is_refused(tmp_path: Path) -> None:
    # was: copied verbatim, so the output failed its CRC as the input did
    data = bytearray((wb_fuzz.ENGINE / "merges.xlsx").read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as zf:
        info = zf.getinfo("xl/styles.xml")
    central = data.find(b"PK\x01\x02")
    while data[central + 46 : central + 46 + len(info.filename)] != info.filename.encode():
        central = data.find(b"PK\x01\x02", central + 4)
    for at in (info.header_offset + 14, central + 16):
        struct.pack_into("<L", data, at, info.CRC ^ 1)
    refused(tmp_path, bytes(data), r"part xl/styles.xml does not match its checksum")


def test_local_header_naming_another_part_is_refused(tmp_path: Path) -> None:
    # was: written out as it was, and zipfile refuses to read such a member
    data = (wb_fuzz.ENGINE / "merges.xlsx").read_bytes()
    name = b"xl/_rels/workbook.xml.rels"
    at = data.find(name)  # the local header comes first
    data = data[:at] + b"xl/_rels.workbook.xml.rels" + data[at + len(name) :]
    refused(tmp_path, data, r"'xl/_rels/workbook.xml.rels' has another name in its local header")


def test_missing_part_is_refused(tmp_path: Path) -> None:
    # was: KeyError
    rels = "xl/_rels/workbook.xml.rels"
    data = edited("merges.xlsx", rels, b"worksheets/sheet1.xml", b"worksheets/sheet9.xml")
    refused(tmp_path, data, r"no part xl/worksheets/sheet9.xml, which the workbook points to")


def test_relationship_id_not_in_utf8_is_read(tmp_path: Path) -> None:
    # was: UnicodeDecodeError; now the sheet simply has no relationship
    data = edited("merges.xlsx", "xl/workbook.xml", b'r:id="rId1"', b'r:id="rI\xc8\x01"')
    refused(tmp_path, data, r"no worksheet to draw from")


@pytest.mark.parametrize(
    ("part", "old", "new", "match"),
    [
        ("xl/styles.xml", b"</styleSheet>", b"</styleSheetX>", r"styles part is not well-formed"),
        ("xl/sharedStrings.xml", b"</sst>", b"</sstX>", r"shared strings part is not well"),
        (SHEET, b"<v>0</v>", b"<v>9999</v>", r"cell A1: shared string 9999 does not exist"),
    ],
)
def test_sample_names_the_file_when_a_value_cannot_be_read(
    tmp_path: Path, part: str, old: bytes, new: bytes, match: str
) -> None:
    # was: a message naming neither the file nor the cell
    refused(tmp_path, edited("merges.xlsx", part, old, new), match, call="sample")


def test_sample_refuses_unterminated_content_types(tmp_path: Path) -> None:
    # was: ValueError("unterminated processing instruction") when adding the sample sheet
    data = edited("merges.xlsx", "[Content_Types].xml", b"</Types>", b"</Types><?x")
    refused(tmp_path, data, r"part \[Content_Types\].xml is not well-formed XML", "sample")


def test_unterminated_tag_after_the_sheet_data_is_refused(tmp_path: Path) -> None:
    # was: ValueError("unterminated tag") from the protection check
    data = edited("merges.xlsx", SHEET, b"</worksheet>", b'</worksheet><a b="')
    refused(tmp_path, data, r"the sheet is not well-formed XML \(unterminated tag\)")


def test_formula_not_in_utf8_is_refused(tmp_path: Path) -> None:
    # was: UnicodeDecodeError while translating the formula
    data = edited(
        "relative_formulas.xlsx", SHEET, b"<f>'Other sheet'!A3", b"<f>\xa7Other sheet'!A3"
    )
    refused(tmp_path, data, r"the formula in G3 is not UTF-8 text")


def test_a_line_break_quoted_from_the_file_stays_one_line(tmp_path: Path) -> None:
    # was: a two-line message (found by the fuzzer): the shared-string index of a damaged
    # cell, quoted in the refusal, held a line break
    data = edited("merges.xlsx", SHEET, b"<v>0</v>", b"<v>1\n2</v>")
    refused(tmp_path, data, r"shared string 1\\n2 does not exist")


def test_formula_not_in_utf8_moved_cell_by_cell_is_refused(tmp_path: Path) -> None:
    # was: UnicodeEncodeError writing the translated formula (found by the fuzzer); the
    # whole-row path above refused it, the cell-by-cell path (--range) did not
    data = edited(
        "relative_formulas.xlsx", SHEET, b"<f>'Other sheet'!A3", b"<f>\xa7Other sheet'!A3"
    )
    src = tmp_path / "in.xlsx"
    src.write_bytes(data)
    with pytest.raises(WorkbookError, match=r"the formula in G3 cannot move .*not UTF-8") as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", cells="A1:I9", header=True, seed=1)
    assert str(src) in str(info.value)
    assert "\n" not in str(info.value)
    assert not (tmp_path / "out.xlsx").exists()


def test_shared_formula_master_not_in_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    # was: UnicodeEncodeError (found by the fuzzer in CI): the master of a shared formula
    # stays in the header row but is written out whole, its bytes not UTF-8; its own text
    # is kept, and the cells below, which must translate it, refuse
    data = edited("shared_formulas.xlsx", SHEET, b">ROW(B1)-1<", b">\xd2OW(B1)-1<")
    refused(tmp_path, data, r"the formula in D\d cannot move .*not UTF-8")


def test_a_member_needing_a_zip_version_no_one_defined_is_refused(tmp_path: Path) -> None:
    # was: drawn (found by the fuzzer), and the output, which copies the member's entry as
    # it is, was refused by Python's zipfile ("zip file version 8.4"), so by openpyxl too
    data = bytearray((wb_fuzz.ENGINE / "merges.xlsx").read_bytes())
    at = data.index(b"PK\x01\x02")
    data[at + 6] = 84  # "version needed to extract" of the first entry: 8.4
    with pytest.raises(NotImplementedError, match=r"zip file version 8\.4"):  # the oracle
        zipfile.ZipFile(io.BytesIO(bytes(data)))
    refused(tmp_path, bytes(data), r"needs zip version 8\.4")


# --------------------------------------------------------------------------- cost


#: CPU seconds and peak memory (KB, the child's own high-water mark) one entry point may take on the
#: adversarial workbooks of tests/wb_costly.py, all of them small in real content.
COST_SECONDS = 5.0
COST_KB = 300 * 1024

# The books of many rows or megabytes take seconds each to build and draw: the full suite runs
# them, the quick one the claims and shapes that stay small.
BIG = pytest.mark.slow

COSTLY = [
    pytest.param("merges", "shuffle", "drawn", marks=BIG),
    pytest.param("merges", "groups", "drawn", marks=BIG),
    ("wide_merges", "shuffle", "drawn"),
    ("wide_merges", "cells", "drawn"),
    # the lone cell at XFD1048576 leaves a gap the layout rules will not guess across
    ("whole_sheet_claims", "shuffle", "refused: .*rows 6-1048575 are blank inside the data"),
    ("whole_sheet_claims", "sample", "refused: .*blank inside the data"),
    ("whole_sheet_claims", "groups", "refused: .*blank inside the data"),
    ("whole_sheet_claims", "cells", "refused: .*blank inside the data"),
    ("wide_used_range", "shuffle", "drawn"),
    ("wide_used_range", "within-rows", "drawn"),
    pytest.param("empty_rows", "shuffle", "drawn", marks=BIG),
    pytest.param("empty_rows", "sample", "drawn", marks=BIG),
    pytest.param("long_values", "shuffle", "drawn", marks=BIG),
    pytest.param("long_values", "groups", "drawn", marks=BIG),
]


@pytest.fixture(scope="module")
def costly_books(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Each adversarial workbook, built once, when a test first asks for it."""
    folder = tmp_path_factory.mktemp("costly")

    def book(name: str) -> Path:
        path = folder / f"{name}.xlsx"
        if not path.exists():
            path.write_bytes(wb_costly.workbook(wb_costly.BUILDERS[name]()))
        return path

    return book


@pytest.mark.parametrize(("name", "call", "outcome"), COSTLY)
def test_cost_follows_the_content(
    costly_books: Callable[[str], Path], tmp_path: Path, name: str, call: str, outcome: str
) -> None:
    src = costly_books(name)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}
    out = tmp_path / "o.xlsx"
    done = subprocess.run(
        [sys.executable, str(TESTS / "wb_costly.py"), name, call, str(src), str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    got = json.loads(done.stdout.splitlines()[-1])
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert re.match(outcome, got["outcome"]), got["outcome"]
    if got["outcome"].startswith("refused"):
        assert str(src) in got["outcome"] and "\n" not in got["outcome"]
    assert got["seconds"] < COST_SECONDS, f"{name} {call}: {got['seconds']:.1f} s"
    assert got["peak_kb"] < COST_KB, f"{name} {call}: {got['peak_kb'] // 1024} MB"
    assert children >= got["peak_kb"]  # the same peak, as the parent sees it


@pytest.mark.parametrize("declared", [1, 0xFFFFFFFE])
def test_declared_size_that_lies_costs_what_the_member_holds(tmp_path: Path, declared: int) -> None:
    data = bytearray(wb_costly.workbook(wb_costly.empty_rows(200_000)))
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as zf:
        info = zf.getinfo(SHEET)
    central = data.find(b"PK\x01\x02")
    while data[central + 46 : central + 46 + len(info.filename)] != info.filename.encode():
        central = data.find(b"PK\x01\x02", central + 4)
    struct.pack_into("<L", data, info.header_offset + 22, declared)
    struct.pack_into("<L", data, central + 24, declared)
    t0 = time.perf_counter()
    refused(tmp_path, bytes(data), r"inflates past the size|does not match its checksum")
    assert time.perf_counter() - t0 < COST_SECONDS
    tracemalloc.start()
    try:
        with pytest.raises(WorkbookError):
            Package(bytes(data), "lying.xlsx").read(SHEET)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * info.file_size + 16 * 1024**2  # never what the header claims


# --------------------------------------------------------------------------- regexes

#: Every regular expression of the engine that runs over file content, by module and name,
#: and how the engine applies it ("search" scans a whole part or row; "fullmatch" one token).
CONTENT_REGEXES = [
    ("scan.xmlscan", "_QUOTE_OR_GT", "search"),
    ("scan.xmlscan", "_ATTR", "search"),
    ("scan.xmlscan", "_NAME", "search"),
    ("move.anchors", "_CLIENT", "search"),
    ("move.anchors", "_FIELD", "search"),
    ("move.cellwrite", "_ROW_NUMBER", "search"),
    ("move.cellwrite", "_SPECIAL", "search"),
    ("move.plan", "_ANY_FORMULA", "search"),
    ("formulas.lex", "_LEX", "search"),
    ("formulas.shapes", "_QUOTED_RE", "search"),
    ("formulas.shapes", "_THIS_ROW_RE", "fullmatch"),
    ("package.parts", "_XMLNS", "search"),
    ("move.refusals", "_ARRAY", "search"),
    ("move.refusals", "_REF", "search"),
    ("scan.sheet", "_ROW_R", "search"),
    ("scan.sheet", "_MARKUP", "search"),
    ("scan.sheet", "_CELL_R", "search"),
    ("records.rowdigest", "_R_ATTR", "search"),
    ("records.rowdigest", "_FORMULA", "search"),
]
#: Units repeated to 12 KB: quotes, spaces and tag openings that never close.
ADVERSARIAL = [
    b" ",
    b'"',
    b"'",
    b"<",
    b"a",
    b"[",
    b"[@",
    b"''",
    b"<a:",
    b"<f ",
    b"<c ",
    b"<f>",
    b"<v>",
    b'<f t="array" ',
    b'<f t="shared" ',
    b"<x:ClientData ",
    b"<x:Row>",
    b' r="1',
    b' ref="',
    b" xmlns:a=",
    b' a="',
    b" a='",
    b"[#This Row],[",
    b"'a",
    b"$A$",
    b'<c r="A',
]


@pytest.mark.parametrize(("module", "name", "how"), CONTENT_REGEXES)
def test_content_regexes_are_linear(module: str, name: str, how: str) -> None:
    # was: select._ARRAY 3.5 s on '<f t="array" ' x 1,000, verify._FORMULA 0.4 s and the
    # shared-formula search 0.24 s on '<f ' x 4,000, adjust._CLIENT quadratic
    pattern = getattr(importlib.import_module(f"xlshuffle.workbook.{module}"), name)
    for unit in ADVERSARIAL:
        text = unit * (12 * 1024 // len(unit))
        subject = text if isinstance(pattern.pattern, bytes) else text.decode("latin-1")
        t0 = time.perf_counter()
        if how == "fullmatch":
            pattern.fullmatch(subject)
        else:
            for _ in pattern.finditer(subject):
                pass
        assert time.perf_counter() - t0 < 1.0, f"{module}.{name} on {unit!r} x N"


@pytest.mark.parametrize("unit", [b'<f t="array" ', b'<f t="shared" ', b"<f ", b"<c "])
def test_tag_openings_that_never_close_cost_little(tmp_path: Path, unit: bytes) -> None:
    # the searches built per sheet (shared formulas, array formulas) over a comment of them
    junk = b"<!-- " + unit.replace(b"--", b"") * (12 * 1024 // len(unit)) + b" -->"
    data = edited("shared_formulas.xlsx", SHEET, b"</row>", b"</row>" + junk)
    src = tmp_path / "in.xlsx"
    src.write_bytes(data)
    t0 = time.perf_counter()
    shuffle_workbook(src, tmp_path / "out.xlsx", seed=1)
    assert time.perf_counter() - t0 < 1.0


def test_anchor_limit_is_one_line_naming_how_to_raise_it(tmp_path: Path) -> None:
    src = tmp_path / "in.xlsx"
    src.write_bytes((wb_fuzz.ENGINE / "merges.xlsx").read_bytes())
    with raised(max_anchors=1), pytest.raises(WorkbookError) as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", seed=1)
    message = str(info.value)
    assert str(src) in message and "\n" not in message
    assert "more than 1 merged cells entries: raise the limit" in message
    assert "raised(max_anchors=N)" in message


def test_member_in_another_compression_is_still_copied_unchecked(tmp_path: Path) -> None:
    # the checksum check of copied members must not refuse what it cannot inflate
    parts = wb_fuzz.members((wb_fuzz.ENGINE / "merges.xlsx").read_bytes())
    extra = zipfile.ZipInfo("customXml/blob.bin", (2026, 1, 1, 0, 0, 0))
    extra.compress_type = zipfile.ZIP_BZIP2
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, body in parts:
            zf.writestr(info, body)
        zf.writestr(extra, b"kept as it is " * 100)
    src, out = tmp_path / "in.xlsx", tmp_path / "out.xlsx"
    src.write_bytes(buf.getvalue())
    shuffle_workbook(src, out, seed=1)
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
        assert a.read("customXml/blob.bin") == b.read("customXml/blob.bin")
        assert b.getinfo("customXml/blob.bin").compress_type == zipfile.ZIP_BZIP2


def test_a_formula_type_that_is_not_text_is_refused_in_one_line(tmp_path: Path) -> None:
    # was: UnicodeDecodeError while writing the refusal that names the formula's type
    data = edited("relative_formulas.xlsx", SHEET, b"<f>B2*2</f>", b'<f t="\x80">B2*2</f>')
    src = tmp_path / "in.xlsx"
    src.write_bytes(data)
    with pytest.raises(WorkbookError) as info:
        shuffle_workbook(src, tmp_path / "out.xlsx", seed=1, cells="C2:C9", by="cells")
    assert str(src) in str(info.value) and "\n" not in str(info.value)
    assert not (tmp_path / "out.xlsx").exists()
