"""Fuzzing the workbook reader: damaged copies of small fixtures (tests/wb_fuzz.py) must be
drawn or refused in one line naming the file, within a time budget; and one regression test
per bug the fuzzer found, each a fixed edit of a fixture.
"""

from __future__ import annotations

import io
import struct
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import wb_fuzz
from xlshuffle import WorkbookError
from xlshuffle.workbook import groups_workbook, sample_workbook, shuffle_workbook

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
