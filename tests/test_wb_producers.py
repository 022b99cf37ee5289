"""The rows real producers write take the fast paths, and draw as the plain file does.

Every variant of one workbook, as a producer writes it: LibreOffice's formulas
(``<f aca="false">``, ``s="0" t="n"`` on every cell, its row attributes), rows and cells
without ``r`` (their places counted: Open XML SDK programs, streaming writers), inline
strings (XlsxWriter's constant-memory mode). Each must give the plain file's output cell
by cell (byte for byte where only ``aca`` differs), the same permutation and restore
fingerprint, verify, restore, and take the block paths rather than the cell-by-cell one:
asserted on work counters, never on time.
"""

from __future__ import annotations

import random
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

import wb_costly
from xlshuffle.draw.errors import OptionError, WorkbookError
from xlshuffle.workbook import restore_workbook, shuffle_workbook, verify_record
from xlshuffle.workbook.formulas.translate import FormulaMover
from xlshuffle.workbook.move import block, cells, cellwrite, rowcut
from xlshuffle.workbook.move.cells import SharedGroups
from xlshuffle.workbook.move.cellwrite import CellWriter
from xlshuffle.workbook.records import beside, fingerprint, formulatext
from xlshuffle.workbook.scan import edits, sheet
from xlshuffle.workbook.scan.refs import Area
from xlshuffle.workbook.scan.sheet import SheetXml, numbered_row, parse_cells
from xlshuffle.workbook.values.cells import SharedStrings
from xlshuffle.workbook.verification import rows

ROWS = 120
SHEET = "xl/worksheets/sheet1.xml"
_SLOW_OK = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# ------------------------------------------------------------------ the variants


def _plain_rows(rows: int, inline_every: int = 0, text: bytes = b"") -> bytes:
    """bench_batch.py's rows (a number, a shared string, a date, a float, a same-row
    formula), with every ``inline_every``-th string written inline as ``text``."""
    out = [
        b'<row r="1" spans="1:5">'
        + b"".join(b'<c r="%s1" t="s"><v>0</v></c>' % c for c in (b"A", b"B", b"C", b"D", b"E"))
        + b"</row>"
    ]
    for i in range(rows):
        r = i + 2
        string = b'<c r="B%d" t="s"><v>0</v></c>' % r
        if inline_every and r % inline_every == 0:
            string = b'<c r="B%d" t="inlineStr"><is><t>%s</t></is></c>' % (r, text)
        out.append(
            b'<row r="%d" spans="1:5"><c r="A%d"><v>%d</v></c>%s'
            b'<c r="C%d" s="1"><v>%d</v></c><c r="D%d"><v>%s</v></c>'
            b'<c r="E%d"><f>A%d*2</f><v>%d</v></c></row>'
            % (r, r, i, string, r, 46023 + i, r, str(i * 0.25).encode(), r, r, i * 2)
        )
    return b"".join(out)


def _no_r(rows: bytes) -> bytes:
    return re.sub(rb'(<(?:row|c)) r="[A-Z]*\d+"', rb"\1", rows)


def _aca(rows: bytes) -> bytes:
    return rows.replace(b"<f>", b'<f aca="false">')


def _libreoffice(rows: bytes) -> bytes:
    """As LibreOffice saves it: ``aca`` on formulas, a style and a type on every cell, its
    row attributes."""
    rows = _aca(rows)
    rows = re.sub(rb'(<c r="[A-Z]+\d+")(?: s="(\d+)")?>', rb'\1 s="\2" t="n">', rows)
    rows = rows.replace(b' s="" t="n"', b' s="0" t="n"')
    return re.sub(
        rb'(<row r="\d+") spans="1:5"',
        rb'\1 customFormat="false" ht="12.8" hidden="false" customHeight="false" '
        rb'outlineLevel="0" collapsed="false"',
        rows,
    )


def _shared(rows: bytes) -> bytes:
    """As Excel saves a formula filled down: the first data row's formula the master of a
    shared formula (its range, its text), every other one a member (``si`` alone)."""
    last = ROWS + 1

    def member(m: re.Match[bytes]) -> bytes:
        if m[1] == b"2":
            return b'<f t="shared" ref="E2:E%d" si="0">A2*2</f>' % last
        return b'<f t="shared" si="0"/>'

    return re.sub(rb"<f>A(\d+)\*2</f>", member, rows)


def _first_string(src: Path) -> bytes:
    with zipfile.ZipFile(src) as zf:
        sst = zf.read("xl/sharedStrings.xml")
    m = re.search(rb"<si><t[^>]*>([^<]*)</t>", sst)
    assert m is not None
    return m[1]


def _book(path: Path, rows: bytes) -> Path:
    path.write_bytes(wb_costly.workbook(wb_costly._sheet(rows)))
    return path


@pytest.fixture
def variants(tmp_path: Path) -> dict[str, Path]:
    plain = _book(tmp_path / "plain.xlsx", _plain_rows(ROWS))
    text = _first_string(plain)
    return {
        "plain": plain,
        "aca": _book(tmp_path / "aca.xlsx", _aca(_plain_rows(ROWS))),
        "libreoffice": _book(tmp_path / "lo.xlsx", _libreoffice(_plain_rows(ROWS))),
        "no-r": _book(tmp_path / "nor.xlsx", _no_r(_plain_rows(ROWS))),
        "inline": _book(tmp_path / "inline.xlsx", _plain_rows(ROWS, 3, text)),
        "no-r-inline": _book(tmp_path / "nori.xlsx", _no_r(_plain_rows(ROWS, 3, text))),
        "shared": _book(tmp_path / "shared.xlsx", _shared(_plain_rows(ROWS))),
    }


def _cells(path: Path) -> list[tuple[Any, ...]]:
    ws = load_workbook(path).active
    assert ws is not None
    return [tuple(row) for row in ws.iter_rows(values_only=True)]


def _sheet_xml(path: Path) -> bytes:
    with zipfile.ZipFile(path) as zf:
        return zf.read(SHEET)


SELECTIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "range": {"cells": f"B1:D{ROWS + 1}", "header": True},
    "whole-range": {"cells": f"A1:E{ROWS + 1}", "header": True},
}


# ------------------------------------------------------------------ known answers


@pytest.mark.parametrize("selection", list(SELECTIONS))
@pytest.mark.parametrize("name", ["aca", "libreoffice", "no-r", "inline", "no-r-inline"])
def test_each_variant_draws_as_the_plain_file(
    tmp_path: Path, variants: dict[str, Path], name: str, selection: str
) -> None:
    options = SELECTIONS[selection]
    plain_out, out = tmp_path / "plain-out.xlsx", tmp_path / f"{name}-out.xlsx"
    want = shuffle_workbook(variants["plain"], plain_out, seed="producers", **options)
    got = shuffle_workbook(variants[name], out, seed="producers", **options)
    assert got.permutation == want.permutation
    assert got.selection == want.selection
    # the restore fingerprint is of the cells, however the producer spelt them
    assert got.fingerprint == want.fingerprint
    assert _cells(out) == _cells(plain_out)
    verify_record(got, input=variants[name], output=out)
    back = tmp_path / f"{name}-back.xlsx"
    restore_workbook(got, out, back)
    assert _cells(back) == _cells(variants[name])


@pytest.mark.parametrize("selection", list(SELECTIONS))
def test_aca_changes_no_byte_but_its_own(
    tmp_path: Path, variants: dict[str, Path], selection: str
) -> None:
    options = SELECTIONS[selection]
    shuffle_workbook(variants["plain"], tmp_path / "p.xlsx", seed=7, **options)
    shuffle_workbook(variants["aca"], tmp_path / "a.xlsx", seed=7, **options)
    aca = _sheet_xml(tmp_path / "a.xlsx")
    assert aca.count(b' aca="false"') == ROWS
    assert aca.replace(b' aca="false"', b"") == _sheet_xml(tmp_path / "p.xlsx")


def test_an_edited_output_of_a_sheet_without_r_restores(
    tmp_path: Path, variants: dict[str, Path]
) -> None:
    """Before, such a sheet's fingerprint had no references (its cells say none) while the
    output's cells, moved, said theirs: no edited output of it could be restored."""
    out, edited = tmp_path / "out.xlsx", tmp_path / "edited.xlsx"
    record = shuffle_workbook(variants["no-r"], out, seed="edit", cells=f"A1:E{ROWS + 1}")
    with zipfile.ZipFile(out) as zf, zipfile.ZipFile(edited, "w", zipfile.ZIP_STORED) as new:
        for info in zf.infolist():  # the same parts, stored: another file, the same cells
            new.writestr(info.filename, zf.read(info))
    restore_workbook(record, edited, tmp_path / "back.xlsx")
    assert _cells(tmp_path / "back.xlsx") == _cells(variants["no-r"])


# ------------------------------------------------------------------ the paths taken


class _Calls:
    """Counts the cell-by-cell reads of rows: ``parse_cells`` wherever it is called."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.n = 0
        real = sheet.parse_cells

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.n += 1
            return real(*args, **kwargs)

        for module in (sheet, cells, block, fingerprint):
            monkeypatch.setattr(module, "parse_cells", counted)


def _block_movers(monkeypatch: pytest.MonkeyPatch) -> list[block.BlockMover]:
    """The block movers the draws make from now on, kept to read their counts."""
    made: list[block.BlockMover] = []
    real = block.BlockMover

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr("xlshuffle.workbook.move.plan.BlockMover", Counted)
    return made


@pytest.mark.parametrize("selection", list(SELECTIONS))
@pytest.mark.parametrize("name", ["plain", "aca", "libreoffice", "no-r", "inline", "shared"])
def test_no_row_is_read_cell_by_cell(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    variants: dict[str, Path],
    name: str,
    selection: str,
) -> None:
    """Before, 100,000 rows with a formula filled down (``shared``) took 19.8 s, 20.1 s
    and 22.4 s for the three selections, the plain file 0.9-1.2 s."""
    calls = _Calls(monkeypatch)
    made = _block_movers(monkeypatch)
    shuffle_workbook(variants[name], tmp_path / "out.xlsx", seed=3, **SELECTIONS[selection])
    # the layout rules read the first rows' values (a sample of 23 rows, whatever the
    # sheet's size) and a row whose spans end in its own number ("5" in row 5) takes the
    # careful way, as it did: a few reads, never one a row
    assert calls.n <= 26
    for mover in made:
        assert mover.careful == 0


@pytest.mark.parametrize("selection", list(SELECTIONS))
@pytest.mark.parametrize("name", ["plain", "aca", "libreoffice", "no-r", "inline", "shared"])
def test_verify_reads_no_row_cell_by_cell(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    variants: dict[str, Path],
    name: str,
    selection: str,
) -> None:
    """``verify`` compares every row by its digest and every formula from the block's
    own search: LibreOffice's formulas and rows whose cells the input counted (the draw
    numbers them) and Excel's shared formulas read as their moved copies do. Before, each
    such row was compared again value by value, cell by cell: 15-35 s for 100,000 rows
    against 1.7 s."""
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(variants[name], out, seed=3, **SELECTIONS[selection])
    calls = _Calls(monkeypatch)
    monkeypatch.setattr(formulatext, "parse_cells", _counting(calls, formulatext.parse_cells))
    again: list[tuple[int, int]] = []
    real_same = rows.RowsAgain.same

    def same(self: rows.RowsAgain, src: int, dst: int) -> bool:
        again.append((src, dst))
        return real_same(self, src, dst)

    monkeypatch.setattr(rows.RowsAgain, "same", same)
    verify_record(record, input=variants[name], output=out)
    assert again == []
    assert calls.n <= 26


def test_verify_finds_a_formula_filled_down_that_the_draw_did_not_write(
    tmp_path: Path, variants: dict[str, Path]
) -> None:
    """The quick reading of shared formulas still checks each one: an output whose moved
    formula reads another row fails, and so does one where a member was left shared."""
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(variants["shared"], out, seed=3)
    with zipfile.ZipFile(out) as zf:
        parts = {name: zf.read(name) for name in zf.namelist()}
    moved = parts[SHEET]
    m = re.search(rb'<c r="E(\d+)"><f>A(\d+)\*2</f>', moved)
    assert m is not None and m[1] == m[2]
    for bad in (
        moved.replace(m[0], b'<c r="E%s"><f>A%d*2</f>' % (m[1], int(m[2]) + 1), 1),
        moved.replace(m[0], b'<c r="E%s"><f t="shared" si="7"/>' % m[1], 1),
    ):
        with zipfile.ZipFile(out, "w") as zf:
            for name, data in parts.items():
                zf.writestr(name, bad if name == SHEET else data)
        with pytest.raises(WorkbookError, match="translated to where the draw puts it"):
            verify_record(record, input=variants["shared"], output=out)


def test_a_formula_filled_down_moves_as_the_careful_path_moves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path]
) -> None:
    quick = shuffle_workbook(variants["shared"], tmp_path / "quick.xlsx", seed=8)
    monkeypatch.setattr(cellwrite.SharedFormulas, "move_row", lambda *args: None)
    careful = shuffle_workbook(variants["shared"], tmp_path / "careful.xlsx", seed=8)
    assert quick.output_sha256 == careful.output_sha256
    with zipfile.ZipFile(tmp_path / "quick.xlsx") as zf:
        moved = zf.read(SHEET)
    assert b"shared" not in moved and moved.count(b"<f>") == ROWS


def _counting(calls: _Calls, real: Any) -> Any:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.n += 1
        return real(*args, **kwargs)

    return counted


def test_a_block_with_one_rich_inline_string_reads_that_row_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The inline-string cliff: one rich text among 500 rows sent the whole block of 4,096
    rows cell by cell (85 us a row); now that row alone is read so."""
    text = b"plain"
    rows = _plain_rows(500, 2, text)
    rich = b'<c r="B40" t="inlineStr"><is><r><t>ri</t></r><r><t>ch</t></r></is></c>'
    rows = re.sub(rb'<c r="B40" t="inlineStr">.*?</c>', rich, rows)
    sx = SheetXml(wb_costly._sheet(rows), "rich")
    plain_reads: list[int] = []
    real = fingerprint._Canon._plain

    def counted(self: Any, i: int) -> bytes:
        plain_reads.append(i)
        return real(self, i)

    monkeypatch.setattr(fingerprint._Canon, "_plain", counted)
    strings = SharedStrings.parse([b"<sst><si><t>s0</t></si></sst>"])
    fingerprint.fingerprint_of(sx, lambda: strings, 2, 501, None)
    assert plain_reads == [sx.index_of(40)]


def test_the_careful_path_is_per_row_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows that mix cells with and without ``r`` (genuinely rare) are read cell by cell,
    each once per use, never a block or a sheet per row."""
    rows = b"".join(
        b'<row r="%d"><c r="A%d"><v>1</v></c><c><v>2</v></c><c r="D%d"><v>3</v></c></row>'
        % (r, r, r)
        for r in range(1, 201)
    )
    calls = _Calls(monkeypatch)
    sx = SheetXml(wb_costly._sheet(rows), "mixed")
    from xlshuffle.workbook.scan.rowfind import used_cols

    assert used_cols(sx, 0, len(sx) - 1) == (1, 4)
    assert calls.n == 200
    calls.n = 0
    fingerprint.fingerprint_of(sx, lambda: None, 1, 200, None)
    assert calls.n == 200


# ------------------------------------------------------------------ properties

_RAW_CELL = st.sampled_from(
    [
        b"<v>%d</v>",
        b' t="s"><v>0</v>',
        b' s="3"><v>%d.5</v>',
        b"><f>A%d*2</f><v>1</v>",
        b'><f aca="false">A%d*2</f><v>1</v>',
        b'><f ca="1">NOW()+A%d</f><v>1</v>',
        b' t="b"><f aca="false">TRUE()</f><v>1</v>',
        b' t="inlineStr"><is><t>x %d</t></is>',
        b' t="inlineStr"><is><t xml:space="preserve"> y </t></is>',
        b' t="inlineStr"><is><r><t>ri</t></r><r><rPr><color rgb="FF0000"/></rPr><t>ch</t></r></is>',
        b' t="inlineStr"><is><t>a &amp; b &quot;q&quot;</t></is>',
        b' t="inlineStr"><is><t>_x0041_ \xc3\xa9</t></is>',
        b' t="e"><v>#N/A</v>',
        b' t="str"><f>"a"&amp;A%d</f><v>a1</v>',
        b' ph="1"><v>5</v>',
        b"/>",
        b' s="2"/>',
        b' t="inlineStr" />',
    ]
)


@st.composite
def _producer_rows(draw: st.DrawFn) -> tuple[bytes, int]:
    """``(sheet data, rows)``: rows as one producer writes them (cells and rows with or
    without ``r``), of cells of every kind above."""
    numbered_rows = draw(st.booleans())
    numbered_cells = draw(st.booleans())
    n = draw(st.integers(1, 8))
    rows = []
    for r in range(1, n + 1):
        if draw(st.integers(0, 9)) == 0:
            rows.append(b'<row r="%d"/>' % r if numbered_rows else b"<row/>")
            continue
        kinds = draw(st.lists(_RAW_CELL, min_size=0, max_size=4))
        out = []
        for c, kind in enumerate(kinds, start=1):
            ref = b' r="%s%d"' % (b"ABCD"[c - 1 : c], r) if numbered_cells else b""
            body = kind.replace(b"%d", b"%d" % r)
            if not body.startswith((b" ", b"/")):
                body = b">" + body
            out.append(b"<c" + ref + body + (b"" if body.endswith(b"/>") else b"</c>"))
        tag = b'<row r="%d" spans="1:4">' % r if numbered_rows else b'<row spans="1:4">'
        rows.append(tag + b"".join(out) + b"</row>")
    return b"".join(rows), n


def _careful_numbered(row: bytes, number: int) -> bytes:
    """What the cell-by-cell path writes for a row whose cells say no ``r``: each cell's
    ``r`` set where :func:`~xlshuffle.workbook.scan.edits.r_edit` sets it, and the row's."""
    changes = [edits.r_edit(row[: row.find(b">") + 1], b"%d" % number)]
    for cell in parse_cells(row, number, b"", "test"):
        a, b, new = edits.r_edit(
            row[cell.start : cell.tag_end], b"%s%d" % (_letters(cell.col), number)
        )
        changes.append((cell.start + a, cell.start + b, new))
    return edits.spliced(row, changes)


def _letters(col: int) -> bytes:
    return b"ABCDEFGH"[col - 1 : col]


@_SLOW_OK
@given(case=_producer_rows(), number=st.integers(1, 50))
def test_numbered_row_writes_what_the_careful_path_writes(
    case: tuple[bytes, int], number: int
) -> None:
    data, _ = case
    sx = SheetXml(wb_costly._sheet(data), "rows")
    for i in range(len(sx)):
        row = sx.row(i)
        got = numbered_row(row, number, b"")
        if got is None:
            continue
        if b' r="' in row[row.find(b">") :]:
            pytest.fail("a row whose cells say r was numbered")
        assert got == _careful_numbered(row, number)


@_SLOW_OK
@given(case=_producer_rows(), data=st.data())
def test_whole_rows_move_as_the_careful_path_moves_them(case: tuple[bytes, int], data: Any) -> None:
    _whole_rows_both_ways(*case, 4, data)


def _whole_rows_both_ways(rows: bytes, n: int, width: int, data: Any) -> None:
    """Each of the ``n`` rows (of ``width`` columns) moved to a drawn other place by the
    quick path and by the cell-by-cell one: the same bytes, or the same refusal."""
    sx = SheetXml(wb_costly._sheet(rows), "rows")
    mover = FormulaMover()
    shared = SharedGroups(sx, Area((1, 1, n, width)))
    quick = cells._QuickRows(sx, mover, shared)
    writer = CellWriter(sx, mover, shared)
    for i in range(len(sx)):
        src = sx.numbers[i]
        # a row that stays keeps its bytes (its cells are not renumbered), as it did
        dst = data.draw(st.integers(1, 60).filter(lambda d, src=src: d != src))
        try:
            want: bytes | str = cells._rewrite_row(sx, writer, i, src, dst)
        except Exception as exc:  # both ways refuse alike
            want = type(exc).__name__
        try:
            got: bytes | str = quick.row(sx.row(i), i, src, dst)
        except Exception as exc:
            got = type(exc).__name__
        assert got == want


_SHARED_TEXTS = ["A1*2", "SUM(A1:B1)", "A1+$B$1", "B1-A2", 'A1&amp;"x"', "ROW()", "A1*1"]


@st.composite
def _shared_rows(draw: st.DrawFn) -> tuple[bytes, int]:
    """``(sheet data, rows)``: rows holding a shared formula filled down column E (its
    master in row 1, the text drawn: references to its own row, another row, an absolute
    cell; ``ca="1"`` or not), maybe one filled right from F1 to G1 and another filled down
    column H, with values written every way a member's cached value is (or none), and
    plain cells."""
    n = draw(st.integers(2, 8))
    text = draw(st.sampled_from(_SHARED_TEXTS))
    ref_first = draw(st.booleans())
    second = draw(st.sampled_from([None, *_SHARED_TEXTS]))  # another column filled down
    ca = draw(st.sampled_from([b"", b' ca="1"']))  # as Excel writes a volatile one
    rows = []
    for r in range(1, n + 1):
        out = [b'<c r="A%d"><v>%d</v></c>' % (r, r)]
        if draw(st.integers(0, 4)):  # most rows hold the member
            value = draw(st.sampled_from([b"<v>3</v>", b"<v/>", b""]))
            if r == 1:
                attrs = b' ref="E1:E%d" t="shared"' if ref_first else b' t="shared" ref="E1:E%d"'
                f = b"<f" + attrs % n + ca + b' si="0">' + text.encode() + b"</f>"
            else:
                f = b'<f t="shared"' + ca + b' si="0"/>'
            out.append(b'<c r="E%d">%s%s</c>' % (r, f, value))
        if r == 1 and draw(st.booleans()):
            out.append(b'<c r="F1"><f t="shared" ref="F1:G1" si="1">A1*3</f><v>3</v></c>')
            out.append(b'<c r="G1"><f t="shared" si="1"/><v>3</v></c>')
        if second is not None:
            master = b' ref="H1:H%d" si="2">%s</f>' % (n, second.encode())
            f = b'<f t="shared"' + (master if r == 1 else b' si="2"/>')
            out.append(b'<c r="H%d">%s<v>1</v></c>' % (r, f))
        rows.append(b'<row r="%d" spans="1:8">' % r + b"".join(out) + b"</row>")
    return b"".join(rows), n


@_SLOW_OK
@given(case=_shared_rows(), data=st.data())
def test_rows_with_a_shared_formula_move_as_the_careful_path_moves_them(
    case: tuple[bytes, int], data: Any
) -> None:
    _whole_rows_both_ways(*case, 8, data)


def _block_both_ways(rows: bytes, c0: int, c1: int, perm: list[int]) -> tuple[Any, Any]:
    """The sheet with the block of columns ``c0..c1`` of all its rows drawn by ``perm``,
    by the streaming block path and by the cell-by-cell one (or the error's type)."""
    sx = SheetXml(wb_costly._sheet(rows), "rows")
    top, bottom = sx.numbers[0], sx.numbers[-1]
    cols = list(range(c0, c1 + 1))
    places = {top + s: top + p for p, s in enumerate(perm)}
    out: list[Any] = []
    for careful in (False, True):
        mover, shared = FormulaMover(), SharedGroups(sx, Area((top, c0, bottom, c1)))
        try:
            if careful:
                region = cells.Region(top, bottom, cols)
                start, end, new = cells.move_cells(
                    sx, region, lambda r, c: (places[r], c), mover, shared
                )
            else:
                moving = block.BlockMover(sx, top, bottom, cols, mover, shared)
                start, end = sx.starts[0], sx.ends[-1]
                new = b"".join(moving.rows(perm))
            out.append(sx.data[:start] + new + sx.data[end:])
        except Exception as exc:  # both ways refuse alike
            out.append(type(exc).__name__)
    return out[0], out[1]


_PLAIN_CELL = st.sampled_from(
    [
        b"><v>%d</v>",
        b' t="s"><v>0</v>',
        b' s="%d"><v>7</v>',  # the row's number followed by a quote, not a reference
        b' s="1"><v>4%d</v>',
        b' t="inlineStr"><is><t>x %d</t></is>',
        b"><f>A%d*2</f><v>2</v>",
        b' aca="false"><f>SUM(A%d:B%d)</f><v>1</v>',
        b"/>",
    ]
)


@st.composite
def _rows_without_r(draw: st.DrawFn) -> tuple[bytes, int]:
    """``(sheet data, rows)``: rows of plain cells, none saying ``r`` (the start tags
    seldom do), of different lengths, some stored empty."""
    n = draw(st.integers(1, 8))
    rows = []
    for r in range(1, n + 1):
        tag = draw(
            st.sampled_from([b"<row", b"<row", b'<row r="%d"' % r, b"<row ht='3' r=\"%d\"" % r])
        )
        tag += draw(st.sampled_from([b"", b' spans="1:4"', b' spans="2:3" s="%d"' % r]))
        if draw(st.integers(0, 9)) == 0:
            rows.append(tag + b"/>")
            continue
        kinds = draw(st.lists(_PLAIN_CELL, min_size=0, max_size=5))
        out = [b"<c" + kind.replace(b"%d", b"%d" % r) for kind in kinds]
        out = [c if c.endswith(b"/>") else c + b"</c>" for c in out]
        rows.append(tag + b">" + b"".join(out) + b"</row>")
    return b"".join(rows), n


@_SLOW_OK
@given(case=st.one_of(_rows_without_r(), _producer_rows()), data=st.data())
def test_blocks_of_rows_without_r_move_as_the_careful_path_moves_them(
    case: tuple[bytes, int], data: Any
) -> None:
    """A block of columns moving with its rows, in rows that say no ``r`` (their cells
    numbered where they are written, not whole rows first) or do: the bytes the
    cell-by-cell path writes."""
    rows, _ = case
    sx = SheetXml(wb_costly._sheet(rows), "rows")
    assume(len(sx) > 0 and sx.numbers[-1] - sx.numbers[0] + 1 == len(sx))
    c0 = data.draw(st.integers(1, 5))
    c1 = data.draw(st.integers(c0, 5))
    perm = data.draw(st.permutations(range(len(sx))))
    fast, careful = _block_both_ways(rows, c0, c1, list(perm))
    assert fast == careful


@_SLOW_OK
@given(case=_shared_rows(), data=st.data())
def test_blocks_of_rows_with_a_shared_formula_move_as_the_careful_path_moves_them(
    case: tuple[bytes, int], data: Any
) -> None:
    """A block of columns moving with its rows beside a formula Excel filled down (kept
    where it is when the block does not touch its group), or over it: the bytes the
    cell-by-cell path writes."""
    rows, n = case
    c0 = data.draw(st.integers(1, 8))
    c1 = data.draw(st.integers(c0, 8))
    perm = data.draw(st.permutations(range(n)))
    fast, careful = _block_both_ways(rows, c0, c1, list(perm))
    assert fast == careful


@pytest.mark.parametrize("selection", ["range", "whole-range"])
def test_a_block_keeps_a_formula_filled_down_beside_it_and_writes_out_one_it_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path], selection: str
) -> None:
    """Three columns moving beside a shared formula's column (it stays, untouched), or
    the whole range with it (written out where it lands), by the block path."""
    made = _block_movers(monkeypatch)
    out = tmp_path / "out.xlsx"
    shuffle_workbook(variants["shared"], out, seed=3, **SELECTIONS[selection])
    assert made and all(m.careful == 0 for m in made)
    with zipfile.ZipFile(out) as zf:
        moved = zf.read(SHEET).count(b'<f t="shared"')
    assert moved == (ROWS if selection == "range" else 0)


def test_rows_without_r_are_not_numbered_whole_to_move_a_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows that say no ``r`` take the block path's quick way with their cells numbered
    as they are written: no row numbered whole (a numbering a row shape, at most), and
    the bytes the careful path writes."""
    calls = []
    real = rowcut.numbered_row

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(rowcut, "numbered_row", counted)
    rows = _no_r(_plain_rows(40))
    perm = list(range(41))
    random.Random(5).shuffle(perm)
    for c0, c1 in ((1, 5), (2, 4), (5, 5)):
        calls.clear()
        fast, careful = _block_both_ways(rows, c0, c1, perm)
        assert fast == careful
        assert isinstance(fast, bytes) and fast.count(b'<c r="') == 41 * 5
        assert len(calls) <= 3 and all(not any(48 <= ch < 58 for ch in row) for row in calls)


def _canonical(form: Any, rows: bytes) -> bytes:
    return form._values(form._markup(rows))


@_SLOW_OK
@given(case=_producer_rows())
def test_rows_read_by_the_block_agree_with_the_cell_by_cell_reading(
    case: tuple[bytes, int],
) -> None:
    """A row the fingerprint reads by its block's expressions (its inline strings spelt,
    :class:`_Agreed`) has the canonical form :meth:`_plain` gives it: the digests of a
    block with inline strings are those the cell-by-cell reading gave before."""
    rows, _ = case
    sx = SheetXml(wb_costly._sheet(rows), "rows")
    strings = SharedStrings.parse([b"<sst><si><t>s0</t></si></sst>"])
    form = fingerprint._Canon(sx, lambda: strings, None)
    for i in range(len(sx)):
        spelt = form._spelt(form._numbered(i))
        if form._misread(spelt) or not form.agreed(spelt):
            continue
        assert _canonical(form, spelt) == _canonical(form, form._plain(i))


def test_the_known_differences_are_read_cell_by_cell() -> None:
    sx = SheetXml(wb_costly._sheet(b'<row r="1"/>'), "x")
    agreed = fingerprint._Canon(sx, lambda: None, None).agreed
    assert agreed(b'<row r="2"><c r="A2" t="S"><v>x</v></c></row>')
    for odd in [
        b'<row r="2"/>',  # the cell-by-cell reading closes it
        b'<row r="2"><c r="A2" t="b"><f>TRUE()</f><v>1</v></c></row>',
        b'<row r="2"><c r="A2" ph="1"><v>1</v></c></row>',
        b'<row r="2"><c r="A2" t="s" /></row>',
        b'<row r="2"><c r="A2"><v>a&quot;b</v></c></row>',
        b'<row r="2"><c r="A2"><v>a>b</v></c></row>',
        b'<row r="2"><c r="A2"><v>\xff</v></c></row>',
        b'<row r="2"><c r="A2"><v>1</v><extLst/></c></row>',
    ]:
        assert not agreed(odd), odd


# ------------------------------------------------------------------ the second process


@pytest.mark.parametrize(
    "name", ["plain", "libreoffice", "no-r", "inline", "no-r-inline", "shared"]
)
@pytest.mark.parametrize("selection", ["default", "range"])
def test_the_fingerprint_beside_is_the_fingerprint(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    variants: dict[str, Path],
    name: str,
    selection: str,
) -> None:
    here = shuffle_workbook(variants[name], tmp_path / "here.xlsx", seed=5, **SELECTIONS[selection])
    monkeypatch.setattr(beside, "MIN_BYTES", 0)
    monkeypatch.setattr(beside, "WINDOW", 2000)  # several windows of a small sheet
    started: list[beside.Beside] = []
    real = beside.start

    def start(*args: Any, **kwargs: Any) -> beside.Beside | None:
        made = real(*args, **kwargs)
        if made is not None:
            started.append(made)
        return made

    monkeypatch.setattr(beside, "start", start)
    there = shuffle_workbook(
        variants[name], tmp_path / "there.xlsx", seed=5, **SELECTIONS[selection]
    )
    assert len(started) == 1 and started[0].used
    assert there.fingerprint == here.fingerprint
    assert there.output_sha256 == here.output_sha256


def _missing_rows(rows: bytes) -> bytes:
    """Every 7th data row not stored (an empty row, which Excel leaves out)."""
    return re.sub(
        rb'<row r="(\d+)".*?</row>',
        lambda m: b"" if int(m[1]) > 1 and int(m[1]) % 7 == 0 else m[0],
        rows,
    )


@pytest.mark.parametrize("no_r", [False, True])
def test_the_fingerprint_beside_reads_rows_that_skip_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_r: bool
) -> None:
    """The child is sent the rows' numbers when some are missing (a range over rows Excel
    left out), or counts them when no row says its number; either way its fingerprint is
    the caller's."""
    rows = _missing_rows(_plain_rows(ROWS))
    src = _book(tmp_path / "gaps.xlsx", _no_r(rows) if no_r else rows)
    selection = {"cells": f"A1:E{ROWS + 1}", "header": True}
    here = shuffle_workbook(src, tmp_path / "here.xlsx", seed=5, **selection)
    monkeypatch.setattr(beside, "MIN_BYTES", 0)
    monkeypatch.setattr(beside, "WINDOW", 2000)
    sent: list[beside.Request] = []
    real_start, real_dumps = beside.start, beside.pickle.dumps

    def dumps(obj: Any, *args: Any, **kwargs: Any) -> bytes:
        if isinstance(obj, beside.Request):
            sent.append(obj)
        return real_dumps(obj, *args, **kwargs)

    def start(*args: Any, **kwargs: Any) -> beside.Beside | None:
        made = real_start(*args, **kwargs)
        assert made is not None and made.result() is not None and made.used
        return made

    monkeypatch.setattr(beside.pickle, "dumps", dumps)
    monkeypatch.setattr(beside, "start", start)
    there = shuffle_workbook(src, tmp_path / "there.xlsx", seed=5, **selection)
    assert len(sent) == 1 and len(sent[0].rows) > 1
    assert (sent[0].numbers is None) == no_r  # counted rows follow each other
    assert there.fingerprint == here.fingerprint
    assert there.output_sha256 == here.output_sha256


def test_without_a_second_process_the_fingerprint_is_computed_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path]
) -> None:
    here = shuffle_workbook(variants["plain"], tmp_path / "here.xlsx", seed=5)
    monkeypatch.setattr(beside, "MIN_BYTES", 0)
    monkeypatch.setattr(beside.sys, "executable", str(tmp_path / "no-python"))
    there = shuffle_workbook(variants["plain"], tmp_path / "there.xlsx", seed=5)
    assert there.fingerprint == here.fingerprint


def test_a_child_that_fails_leaves_the_fingerprint_to_the_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path]
) -> None:
    """The child refuses a file changed since the caller read it (here: a request whose
    SHA-256 is not the file's), and the caller computes the fingerprint itself."""
    here = shuffle_workbook(variants["plain"], tmp_path / "here.xlsx", seed=5)
    monkeypatch.setattr(beside, "MIN_BYTES", 0)
    real = beside.start
    used: list[bool] = []

    def start(sx: Any, path: str, sha256: str, *args: Any, **kwargs: Any) -> beside.Beside | None:
        made = real(sx, path, "0" * 64, *args, **kwargs)
        assert made is not None
        made.result()
        used.append(made.used)
        return made

    monkeypatch.setattr(beside, "start", start)
    there = shuffle_workbook(variants["plain"], tmp_path / "there.xlsx", seed=5)
    assert used == [False]
    assert there.fingerprint == here.fingerprint


def test_a_refusal_stops_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path]
) -> None:
    monkeypatch.setattr(beside, "MIN_BYTES", 0)
    started: list[beside.Beside] = []
    real = beside.start

    def start(*args: Any, **kwargs: Any) -> beside.Beside | None:
        made = real(*args, **kwargs)
        assert made is not None
        started.append(made)
        return made

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("refused")

    monkeypatch.setattr(beside, "start", start)
    monkeypatch.setattr("xlshuffle.workbook.api.plan_move", refuse)
    with pytest.raises(RuntimeError):
        shuffle_workbook(variants["plain"], tmp_path / "out.xlsx", seed=5)
    assert started and started[0].proc.poll() is not None
    assert not (tmp_path / "out.xlsx").exists()


def test_a_large_files_child_starts_before_its_sheet_is_read_and_is_the_one_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path]
) -> None:
    """A file of WARM_FILE_BYTES or more has its child started before the sheet is read:
    that child computes the fingerprint; a smaller file has none started early."""
    here = shuffle_workbook(variants["plain"], tmp_path / "here.xlsx", seed=5)
    monkeypatch.setattr(beside, "MIN_BYTES", 0)
    warmed: list[beside.Warm | None] = []
    started: list[beside.Beside] = []
    real_warm, real_start = beside.warm, beside.start

    def warm(path: str) -> beside.Warm | None:
        made = real_warm(path)
        warmed.append(made)
        return made

    def start(*args: Any, **kwargs: Any) -> beside.Beside | None:
        made = real_start(*args, **kwargs)
        assert made is not None and kwargs["warmed"] is warmed[-1]
        started.append(made)
        return made

    monkeypatch.setattr(beside, "warm", warm)
    monkeypatch.setattr(beside, "start", start)
    for size, early in ((1 << 40, False), (0, True)):
        monkeypatch.setattr(beside, "WARM_FILE_BYTES", size)
        there = shuffle_workbook(variants["plain"], tmp_path / f"there{size}.xlsx", seed=5)
        assert (warmed[-1] is not None) == early
        assert started[-1].used and there.fingerprint == here.fingerprint
        if early:
            assert warmed[-1] is not None and warmed[-1].take() is None  # taken by start


def test_a_warm_child_nothing_takes_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path]
) -> None:
    """A draw refused after its child was started early, or one whose sheet is too small
    for a child (fingerprinted here), leaves no child running."""
    monkeypatch.setattr(beside, "WARM_FILE_BYTES", 0)
    warmed: list[beside.Warm] = []
    real_warm = beside.warm

    def warm(path: str) -> beside.Warm | None:
        made = real_warm(path)
        assert made is not None
        warmed.append(made)
        return made

    procs: list[Any] = []
    real_take = beside.Warm.take

    def take(self: beside.Warm) -> Any:
        procs.append(self._proc)
        return real_take(self)

    monkeypatch.setattr(beside, "warm", warm)
    with pytest.raises(OptionError):  # no such sheet: refused after the child started
        shuffle_workbook(variants["plain"], tmp_path / "out.xlsx", seed=5, sheet="Nowhere")
    assert not (tmp_path / "out.xlsx").exists()
    shuffle_workbook(variants["plain"], tmp_path / "small.xlsx", seed=5)  # under MIN_BYTES
    assert len(warmed) == 2
    for made in warmed:
        assert made._proc is None  # discarded: stopped and waited for
    monkeypatch.setattr(beside.Warm, "take", take)
    made = real_warm(str(variants["plain"]))
    assert made is not None
    proc = made._proc
    made.discard()
    assert proc is not None and proc.poll() is not None
    assert made.take() is None


def test_a_child_that_never_answers_is_stopped_and_the_fingerprint_computed_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variants: dict[str, Path]
) -> None:
    """A child that hangs (stopped by its system, stuck) cannot hold the draw: past its
    grace it is stopped, and the caller computes the same fingerprint itself."""
    here = shuffle_workbook(variants["plain"], tmp_path / "here.xlsx", seed=5)
    monkeypatch.setattr(beside, "MIN_BYTES", 0)
    monkeypatch.setattr(beside, "_BOOT", "import sys, time\ntime.sleep(600)\n")
    monkeypatch.setattr(beside.Beside, "grace", 0.2)
    monkeypatch.setattr(beside.Beside, "factor", 0.0)
    real = beside.start
    made: list[beside.Beside] = []

    def start(*args: Any, **kwargs: Any) -> beside.Beside | None:
        child = real(*args, **kwargs)
        assert child is not None
        made.append(child)
        return child

    monkeypatch.setattr(beside, "start", start)
    there = shuffle_workbook(variants["plain"], tmp_path / "there.xlsx", seed=5)
    assert there.fingerprint == here.fingerprint
    assert [child.used for child in made] == [False]
    assert made[0].proc.poll() is not None  # stopped, not left running


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_the_child_reads_a_part_as_zipfile_does(tmp_path: Path, method: int) -> None:
    """The child inflates the sheet part with the package's codec (python-isal where it is
    installed), in blocks: the bytes zipfile reads; a part whose bytes were changed is
    refused by its CRC-32."""
    data = b"".join(
        b'<row r="%d"><c r="A%d"><v>%d</v></c></row>' % (i, i, i) for i in range(60_000)
    )
    path = tmp_path / "book.xlsx"
    with zipfile.ZipFile(path, "w", compression=method) as zf:
        zf.writestr("[Content_Types].xml", b"<Types/>")
        zf.writestr(SHEET, data)
    with zipfile.ZipFile(path) as zf:
        blocks = list(beside._member(str(path), zf, SHEET))
        assert b"".join(blocks) == zf.read(SHEET) == data
        assert len(blocks) > 1
        info = zf.getinfo(SHEET)
    if method == zipfile.ZIP_STORED:  # a stored part's bytes, changed where they lie
        raw = bytearray(path.read_bytes())
        raw[info.header_offset + 30 + len(SHEET) + 40] ^= 0x01
        path.write_bytes(bytes(raw))
        with zipfile.ZipFile(path) as zf, pytest.raises(ValueError, match="checksum"):
            b"".join(beside._member(str(path), zf, SHEET))
