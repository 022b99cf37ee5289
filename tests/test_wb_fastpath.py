"""The streaming block path (move/block.py) writes exactly what the cell-by-cell path writes.

``plan_move(..., careful=True)`` forces :func:`move_cells`; every test here draws the same
selection and permutation both ways and compares the drawn sheet's bytes (or the error).
Sheets come from three sources: raw sheet XML drawn by :func:`wb_strategies.raw_sheets`
(with the unusual rows the quick cut must hand over: gaps, comments, cells without
``r``, shared formulas...), workbooks openpyxl writes (:func:`wb_strategies.book_specs`),
and the shared corpus when it is present.
"""

from __future__ import annotations

import dataclasses
import random
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import wb_costly
from wb_strategies import book_specs, raw_sheets, write_book
from xlshuffle import XlshuffleError
from xlshuffle.common.request import Region
from xlshuffle.draw.errors import WorkbookError
from xlshuffle.workbook import shuffle_workbook, verify_record
from xlshuffle.workbook.jobs import Job, open_job
from xlshuffle.workbook.move import plan
from xlshuffle.workbook.move.block import BlockMover
from xlshuffle.workbook.move.plan import plan_move

from support import SHARED

CORPUS = SHARED / "corpus"
_SLOW_OK = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _letter(c: int) -> str:
    s = ""
    while c:
        c, r = divmod(c - 1, 26)
        s = chr(65 + r) + s
    return s


def _sheet_bytes(job: Job, sel: Any, perm: list[int], careful: bool) -> bytes | str:
    try:
        changes = plan_move(job.inp, job.sx, sel, "rows", perm, careful=careful)
        return b"".join(changes.changed[sel.sheet.part])
    except XlshuffleError as exc:  # both paths must refuse the same row the same way
        return f"{type(exc).__name__}: {exc}"


def _same_both_ways(job: Job, sel: Any, perm: list[int]) -> bytes | str:
    fast = _sheet_bytes(job, sel, perm, careful=False)
    slow = _sheet_bytes(job, sel, perm, careful=True)
    if isinstance(fast, str) and isinstance(slow, str):
        # both refuse, but not always naming the same thing: the careful path writes every
        # cell before it looks at merges and links, the streaming one after (as the
        # whole-row path does), and each names the first cell it cannot move
        fast, slow = fast.split(":")[0], slow.split(":")[0]
    assert fast == slow
    return fast


def _job(path: Path, cells: str | None = None) -> Job | None:
    try:
        return open_job(path, Region(cells=cells, header=True), whole_rows=cells is None)
    except XlshuffleError:
        return None


@_SLOW_OK
@given(sheet=raw_sheets(), data=st.data())
def test_raw_sheets_come_out_the_same_both_ways(tmp_path: Path, sheet: Any, data: Any) -> None:
    xml, n_rows, n_cols = sheet
    src = tmp_path / "raw.xlsx"
    src.write_bytes(wb_costly.workbook(xml))
    c0 = data.draw(st.integers(1, n_cols + 1))
    c1 = data.draw(st.integers(c0, n_cols + 1))
    top = data.draw(st.integers(1, max(1, n_rows - 1)))
    job = _job(src, f"{_letter(c0)}{top}:{_letter(c1)}{n_rows + data.draw(st.integers(0, 2))}")
    assume(job is not None)
    assert job is not None
    perm = data.draw(st.permutations(range(job.sel.n_body)))
    written = _same_both_ways(job, job.sel, list(perm))
    event("refused" if isinstance(written, str) else "written")


@settings(
    deadline=None, max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(spec=book_specs(max_cols=5, layout_traps=True), data=st.data())
def test_openpyxl_workbooks_come_out_the_same_both_ways(
    tmp_path: Path, spec: Any, data: Any
) -> None:
    src = write_book(spec, tmp_path / "book.xlsx")
    c0 = data.draw(st.integers(1, spec.n_cols))
    c1 = data.draw(st.integers(c0, spec.n_cols))
    job = _job(src, f"{_letter(c0)}1:{_letter(c1)}{spec.bottom}")
    assume(job is not None and job.sel.n_body > 0)
    assert job is not None
    perm = data.draw(st.permutations(range(job.sel.n_body)))
    written = _same_both_ways(job, job.sel, list(perm))
    event("refused" if isinstance(written, str) else "written")


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.iterdir() if p.suffix.lower() in (".xlsx", ".xlsm"))


@pytest.mark.slow
@pytest.mark.skipif(not _corpus_files(), reason=f"no shared corpus at {CORPUS}")
def test_corpus_workbooks_come_out_the_same_both_ways() -> None:
    compared = 0
    for path in _corpus_files():
        job = _job(path)  # the default selection, drawn as if it were a range
        if job is None or not job.sel.cols or job.sel.n_body < 2:
            continue
        perm = list(range(job.sel.n_body))
        random.Random(path.name).shuffle(perm)
        cols = job.sel.cols
        narrower = [cols, cols[1:-1] or cols]
        for chosen in narrower:
            sel = dataclasses.replace(job.sel, cols=chosen, whole_rows=False)
            compared += isinstance(_same_both_ways(job, sel, perm), bytes)
    assert compared


# ---------------------------------------------------------------- the path is taken


def _bench_like(rows: int) -> bytes:
    """Rows as bench_batch.py writes them: a number, a string, a date, a float, a formula."""
    out = [
        b'<row r="1" spans="1:5">'
        + b"".join(
            b'<c r="%s1" t="inlineStr"><is><t>h%s</t></is></c>' % (c, c)
            for c in (b"A", b"B", b"C", b"D", b"E")
        )
        + b"</row>"
    ]
    for i in range(rows):
        r = i + 2
        out.append(
            b'<row r="%d" spans="1:5"><c r="A%d"><v>%d</v></c><c r="B%d" t="s"><v>0</v></c>'
            b'<c r="C%d" s="1"><v>%d</v></c><c r="D%d"><v>%s</v></c>'
            b'<c r="E%d"><f>A%d*2</f><v>%d</v></c></row>'
            % (r, r, i, r, r, 46023 + i, r, str(i * 0.25).encode(), r, r, i * 2)
        )
    return wb_costly._sheet(b"".join(out))


@pytest.mark.parametrize("cells", ["A1:E201", "B1:D201", "C1:C201", "A1:Z500"])
def test_ranges_take_the_streaming_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cells: str
) -> None:
    src = tmp_path / "bench.xlsx"
    src.write_bytes(wb_costly.workbook(_bench_like(200)))
    made: list[BlockMover] = []

    class Counted(BlockMover):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("move_cells was called")

    monkeypatch.setattr(plan, "BlockMover", Counted)
    monkeypatch.setattr(plan, "move_cells", refuse)
    shuffle_workbook(src, tmp_path / "out.xlsx", cells=cells, header=True, seed="fast")
    assert len(made) == 1
    # each of the 200 rows is cut once at its place and once as a source, all quickly
    assert (made[0].quick, made[0].careful) == (400, 0)


def test_a_column_list_with_holes_moves_cell_by_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "bench.xlsx"
    src.write_bytes(wb_costly.workbook(_bench_like(20)))
    monkeypatch.setattr(plan, "BlockMover", None)  # would fail if used
    shuffle_workbook(src, tmp_path / "out.xlsx", columns=["B", "D"], header=True, seed="x")


def _tampered(path: Path, old: bytes, new: bytes) -> None:
    with zipfile.ZipFile(path) as zf:
        members = [(info, zf.read(info)) for info in zf.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, body in members:
            if info.filename == "xl/worksheets/sheet1.xml":
                assert body.count(old) == 1
                body = body.replace(old, new)
            zf.writestr(info, body)


@pytest.mark.parametrize("cells", ["A1:E41", "B1:D41"])
def test_verify_of_a_block_compares_rows_quickly_and_still_finds_a_changed_cell(
    tmp_path: Path, cells: str
) -> None:
    src, out = tmp_path / "bench.xlsx", tmp_path / "out.xlsx"
    src.write_bytes(wb_costly.workbook(_bench_like(40)))
    record = shuffle_workbook(src, out, cells=cells, header=True, seed="verify")
    verify_record(record, input=src, output=out)
    with zipfile.ZipFile(out) as zf:
        sheet = zf.read("xl/worksheets/sheet1.xml")
    cell = re.search(rb'<c r="D20"><v>[^<]*</v>', sheet)
    assert cell is not None
    _tampered(out, cell[0], b'<c r="D20"><v>-1</v>')
    with pytest.raises(WorkbookError, match="cell D20 does not hold"):
        verify_record(record, input=src, output=out)


def _row(r: int, cols: str) -> bytes:
    cells = b"".join(b'<c r="%s%d"><f>A%d</f><v>0</v></c>' % (c.encode(), r, r) for c in cols)
    return b'<row r="%d" spans="1:4">%s</row>' % (r, cells)


@pytest.mark.parametrize(
    "layout",
    [
        ["AB", "A", "BCD", "D"],  # cells only left, only right of the block B:C
        ["", "BC", "A", "ABCD"],  # an empty row, a row all block
        ["D", "AD", "BC", "C"],
    ],
)
def test_rows_with_cells_on_one_side_of_the_block_take_block_cells_in_order(
    tmp_path: Path, layout: list[str]
) -> None:
    src = tmp_path / "sides.xlsx"
    rows = b"".join(_row(r, cols) for r, cols in enumerate(["ABCD", *layout], start=1))
    src.write_bytes(wb_costly.workbook(wb_costly._sheet(rows)))
    job = _job(src, "B1:C5")
    assert job is not None
    for perm in ([1, 2, 3, 0], [3, 2, 1, 0], [2, 0, 3, 1]):
        written = _same_both_ways(job, job.sel, perm)
        assert isinstance(written, bytes)
