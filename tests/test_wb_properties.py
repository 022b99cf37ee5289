"""Property tests of the workbook engine on random workbooks written by openpyxl.

Every expectation comes from outside the engine: the core's ``shuffle_grid`` (the order),
openpyxl (values, styles, merges, comments, hyperlinks, row dimensions, and its formula
``Translator`` for the text a moved formula must get) and the independent zip/XML oracle
``tests/oracle.py`` (byte-identical members, cell and row facts). Only the public
functions of ``xlshuffle.workbook`` are called.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, Phase, assume, event, given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import MergedCell
from openpyxl.formula.tokenizer import TokenizerError
from openpyxl.formula.translate import Translator, TranslatorError
from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries

import oracle
import xlshuffle
from wb_strategies import OTHER, SHEET, BookSpec, Style, Value, book_specs, write_book
from xlshuffle import OptionError, WorkbookError
from xlshuffle.workbook import (
    groups_workbook,
    restore_workbook,
    sample_workbook,
    shuffle_workbook,
    verify_record,
)

Pos = tuple[int, int]

modes = st.sampled_from(xlshuffle.GRID_MODES)
headers = st.sampled_from([None, True, False])
seeds = st.one_of(st.integers(0, 10**9), st.text(min_size=1, max_size=8))

# Each example writes and reads a few small workbooks: no deadline, and a function-scoped
# temporary folder is not used (hypothesis runs many examples per test call). A property
# takes seconds (a hundred examples), so each is marked slow: the quick suite draws the
# engine's fixtures (tests/test_wb_engine.py, test_batch.py), the full suite runs these.
SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="wbprop-") as tmp:
        yield Path(tmp)


def coord(pos: Pos) -> str:
    return f"{get_column_letter(pos[1])}{pos[0]}"


# ---------------------------------------------------------------- where cells go


def selection(record: Any) -> tuple[list[int], list[int]]:
    """(rows, columns) of the record's selection, header row included."""
    left, top, right, bottom = range_boundaries(record.target["ref"])
    if record.target.get("columns"):
        cols = [column_index_from_string(c) for c in record.target["columns"].split(",")]
    else:
        cols = list(range(left, right + 1))
    return list(range(top, bottom + 1)), cols


def sources(record: Any) -> dict[Pos, Pos]:
    """new position -> old position of every cell the record's permutation moves.

    Derived from ``permutation[p]`` = index of the item now at position ``p`` (rows,
    columns or row-major cells; one list per row or column for the within- modes).
    """
    rows, cols = selection(record)
    perm = record.permutation
    body = rows[1:] if record.header else rows
    out: dict[Pos, Pos] = {}
    mode = record.mode
    if mode == "rows":
        for i, s in enumerate(perm):
            for c in cols:
                out[body[i], c] = (body[s], c)
    elif mode == "columns":
        for j, s in enumerate(perm):
            for r in rows:
                out[r, cols[j]] = (r, cols[s])
    elif mode == "cells":
        n = len(cols)
        for p, q in enumerate(perm):
            out[body[p // n], cols[p % n]] = (body[q // n], cols[q % n])
    elif mode == "within-rows":
        for i, line in enumerate(perm):
            for j, s in enumerate(line):
                out[body[i], cols[j]] = (body[i], cols[s])
    else:
        for j, line in enumerate(perm):
            for i, s in enumerate(line):
                out[body[i], cols[j]] = (body[s], cols[j])
    return out


def grid_sources(rows: list[int], cols: list[int], by: str, header: bool, seed: Any) -> dict:
    """The same map as :func:`sources`, from ``shuffle_grid`` of the cells' positions."""
    grid = [[(r, c) for c in cols] for r in rows]
    drawn = xlshuffle.shuffle_grid(grid, by=by, header=header, seed=seed)
    return {(r, c): drawn[i][j] for i, r in enumerate(rows) for j, c in enumerate(cols)}


def translated(formula: str, old: Pos, new: Pos) -> str:
    if old == new:
        return formula
    return Translator(formula, origin=coord(old)).translate_formula(coord(new))


# ---------------------------------------------------------------- reading with openpyxl


def book(path: Path, **kw: Any) -> Any:
    return openpyxl.load_workbook(path, **kw)


def typed(cell: Any) -> tuple[str, Any]:
    """A cell's value with its openpyxl type, so that 1, 1.0 and True differ."""
    v = cell.value
    return (cell.data_type, type(v).__name__, v)


def shown(path: Path, sheet: str) -> Any:
    """A reader of what a cell of ``sheet`` shows before Excel computes: openpyxl writes
    formulas without a cached value, so None for them. Text has its ``_xHHHH_`` escapes
    decoded, as Excel shows it (openpyxl neither writes nor reads them). A cell that
    stores no value is None, though openpyxl puts a hyperlink's target into it when it
    reads (both differences are documented by xlshuffle.workbook.values.cells)."""
    stored = oracle.sheet_cells(path, sheet)

    def value(cell: Any) -> Any:
        if cell.data_type == "f":
            return None
        facts = stored.get((cell.row, cell.column))
        if facts is None or (facts.v is None and facts.text is None):
            return None
        if isinstance(cell.value, str):
            return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), cell.value)
        return cell.value

    return value


_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def style_of(cell: Any) -> tuple:
    # openpyxl's style proxies do not compare equal to each other: compare their text
    parts = (cell.font, cell.fill, cell.border, cell.alignment, cell.protection)
    return (cell.number_format, *map(repr, parts))


def comments(ws: Any) -> dict[Pos, tuple[str, str]]:
    return {
        (c.row, c.column): (c.comment.text, c.comment.author)
        for row in ws.iter_rows()
        for c in row
        if c.comment is not None
    }


def links(ws: Any) -> dict[Pos, str]:
    return {
        (c.row, c.column): c.hyperlink.target
        for row in ws.iter_rows()
        for c in row
        if c.hyperlink is not None
    }


def merges(ws: Any) -> set[tuple[int, int, int, int]]:
    return {(m.min_row, m.min_col, m.max_row, m.max_col) for m in ws.merged_cells.ranges}


def position_rules(wb: Any) -> tuple:
    """Data validation, conditional formatting and defined names: they stay with positions."""
    ws = wb[SHEET]
    dv = sorted(
        (str(d.sqref), d.type, d.formula1, d.formula2) for d in ws.data_validations.dataValidation
    )
    cf = sorted(
        (str(rng.sqref), r.type, r.operator, tuple(r.formula))
        for rng in ws.conditional_formatting
        for r in rng.rules
    )
    names = sorted((n, d.attr_text) for n, d in wb.defined_names.items())
    return dv, cf, names


def no_spans(rows: dict[int, dict[str, str]]) -> dict[int, dict[str, str]]:
    out = {r: {k: v for k, v in a.items() if k != "spans"} for r, a in rows.items()}
    return {r: a for r, a in out.items() if a}


def moving_facts(cell: oracle.CellFacts | None) -> Any:
    """What a moved cell must keep: everything, but a formula's text and cached value."""
    if cell is None or not cell.is_formula:
        return cell
    attrs = tuple((k, v) for k, v in cell.attrs if k != "t")
    return ("formula", cell.s, attrs, cell.f_attrs, cell.extra)


# ---------------------------------------------------------------- refusals


def used_area(src: Path) -> tuple[list[int], list[int]]:
    """The default selection as documented: the first to the last row holding a value or
    formula, and the leftmost to the rightmost cell stored in those rows."""
    cells = oracle.sheet_cells(src, SHEET)
    full = [
        r for (r, _c), f in cells.items() if f.v is not None or f.text is not None or f.is_formula
    ]
    top, bottom = min(full), max(full)
    cols = [c for (r, c) in cells if top <= r <= bottom]
    return list(range(top, bottom + 1)), list(range(min(cols), max(cols) + 1))


def expected_refusals(
    src: Path, moves: dict[Pos, Pos], by: str, whole_rows: bool
) -> tuple[set[str], set[str]]:
    """Why a draw with these moves (new -> old, every cell of the moving block) must be
    refused, and why it may be: (required, allowed).

    Required: a formula would leave the sheet (openpyxl's Translator raises), or merged
    cells hold both cells that move and cells that stay, or overlap the moving cells in a
    mode other than rows (docs/batch.md, Refusals; whole rows carry one-row merges).
    Allowed besides: a merge in a gap of a column list, within the moving columns' span.
    """
    required, allowed = set(), set()
    ws = book(src)[SHEET]
    # openpyxl reads a text cell whose text starts with "=" back as a formula: ask the
    # sheet's XML which cells really hold one
    stored = oracle.sheet_cells(src, SHEET)
    for new, old in moves.items():
        cell = ws.cell(*old)
        if new != old and old in stored and stored[old].is_formula:
            try:
                translated(cell.value, old, new)
            except (TranslatorError, TokenizerError, IndexError):
                # off the sheet, or text openpyxl cannot even tokenize ("=0'", "=)"),
                # written as a formula: either way the engine must refuse to move it
                required.add("formula")
    if moves:
        rows = {r for r, _c in moves}
        cols = {c for _r, c in moves}
        for r0, c0, r1, c1 in merges(ws):
            if r1 < min(rows) or r0 > max(rows):
                continue
            if whole_rows:
                if r0 != r1:
                    required.add("merge")
                continue
            span = set(range(c0, c1 + 1))
            if span & cols and (span - cols or r0 != r1 or by != "rows"):
                required.add("merge")
            elif not span & cols and not (c1 < min(cols) or c0 > max(cols)):
                allowed.add("merge")
    return required, required | allowed


REFUSAL_TEXT = {"formula": "cannot move to", "merge": "merged cells"}


def draw_or_refusal(src: Path, dst: Path, **kw: Any) -> Any:
    """Shuffle; a refusal must be one the inputs call for, found with the same order."""
    usage = ""
    try:
        return shuffle_workbook(src, dst, **kw)
    except WorkbookError as exc:
        refusal = str(exc)
    except OptionError as exc:  # a range with no value in it is a usage error
        usage = str(exc)
    if usage:
        assert kw.get("cells") and "holds no data" in usage, usage
        left, top, right, bottom = range_boundaries(kw["cells"])
        valued = [
            (r, c)
            for (r, c), f in oracle.sheet_cells(src, SHEET).items()
            if f.v is not None or f.text is not None or f.is_formula
        ]
        assert not any(top <= r <= bottom and left <= c <= right for r, c in valued)
        event("refused: a range without data")
        return None
    # the refusal is checked outside the except block
    rows, cols = used_area(src)
    if kw.get("cells"):
        left, top, right, bottom = range_boundaries(kw["cells"])
        rows, cols = list(range(top, bottom + 1)), list(range(left, right + 1))
    if kw.get("columns"):
        given = kw["columns"]
        letters = given.split(",") if isinstance(given, str) else given
        cols = [column_index_from_string(c) for c in letters]
        # rows at the end blank in these columns (no value, or empty text) are not drawn
        ws = book(src)[SHEET]
        values = [ws.cell(r, c).value for r in rows for c in cols]
        solid = [
            r
            for r, v in zip([r for r in rows for _ in cols], values, strict=True)
            if v is not None and str(v).strip()
        ]
        rows = [r for r in rows if r <= max([rows[0], *solid])]
    header = kw.get("header")
    if header is None:
        header = not kw.get("cells")
    if header and len(rows) == 1:  # a header row and no data rows: refused in every mode
        assert "only a header row" in refusal, refusal
        event("refused: no data rows")
        return None
    by = kw.get("by", "rows")
    whole_rows = by == "rows" and not (kw.get("cells") or kw.get("columns"))
    moves = grid_sources(rows, cols, by, header, kw["seed"])
    if header and by != "columns":
        moves = {(r, c): o for (r, c), o in moves.items() if r != rows[0]}
    _required, why = expected_refusals(src, moves, by, whole_rows)
    assert why, f"unexplained refusal: {refusal}"
    assert any(REFUSAL_TEXT[w] in refusal for w in why), (why, refusal)
    event(f"refused: {'+'.join(sorted(why))}")
    return None


# ---------------------------------------------------------------- the checks


def check_draw(src: Path, dst: Path, record: Any, by: str, header: bool | None, seed: Any) -> None:
    """Everything a draw must hold, checked against openpyxl, shuffle_grid and the oracle."""
    rows, cols = selection(record)
    moves = sources(record)
    # the record's permutation is shuffle_grid's order
    assert grid_sources(rows, cols, by, record.header, seed) == {
        (r, c): moves.get((r, c), (r, c)) for r in rows for c in cols
    }
    # and the draw was due: nothing called for a refusal
    assert expected_refusals(src, moves, by, record.unit == "rows")[0] == set()

    # 2. every member the record does not list is the same bytes, in the same order
    allowed = {p for names in record.parts.values() for p in names}
    assert oracle.unchanged_members(src, dst, allowed) == []

    wb_in, wb_out = book(src), book(dst)
    ws_in, ws_out = wb_in[SHEET], wb_out[SHEET]

    # 1. values are shuffle_grid's, formulas are translated as openpyxl translates them
    grid_in = [[typed(ws_in.cell(r, c)) for c in cols] for r in rows]
    want = xlshuffle.shuffle_grid(grid_in, by=by, header=record.header, seed=seed)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            got = ws_out.cell(r, c)
            old = moves.get((r, c), (r, c))
            before = ws_in.cell(*old)
            if before.data_type == "f":
                assert got.data_type == "f", (coord((r, c)), got.value)
                assert got.value == translated(before.value, old, (r, c)), (old, (r, c))
            else:
                assert typed(got) == want[i][j], (coord((r, c)), coord(old))
            # 3. styles travel with every moved cell
            assert style_of(got) == style_of(before), (coord((r, c)), coord(old))

    # cell facts (oracle): moved cells keep everything but formula text and cache;
    # every other cell of the sheet is unchanged
    cells_in = oracle.sheet_cells(src, SHEET)
    cells_out = oracle.sheet_cells(dst, SHEET)
    whole_rows = record.unit == "rows"
    band = set(rows[1:] if record.header and by != "columns" else rows)
    for pos in set(cells_in) | set(cells_out) | set(moves):
        if pos in moves:
            old = moves[pos]
            assert moving_facts(cells_out.get(pos)) == moving_facts(cells_in.get(old)), pos
        elif whole_rows and pos[0] in band:
            continue  # a cell right of the selection in a moved row: checked below
        else:
            assert cells_out.get(pos) == cells_in.get(pos), coord(pos)

    # row attributes travel with whole rows, and stay put otherwise
    rows_in = no_spans(oracle.sheet_rows(src, SHEET))
    rows_out = no_spans(oracle.sheet_rows(dst, SHEET))
    if whole_rows and band:
        top, bottom = min(band), max(band)
        oracle.is_row_permutation(
            cells_in,
            cells_out,
            top,
            bottom,
            whole_rows=True,
            before_rows=oracle.sheet_rows(src, SHEET),
            after_rows=oracle.sheet_rows(dst, SHEET),
        )
        row_of = {new[0]: old[0] for new, old in moves.items()}
        for r in set(rows_in) | set(rows_out):
            assert rows_out.get(r) == rows_in.get(row_of.get(r, r)), r
            dim_in = ws_in.row_dimensions[row_of.get(r, r)]
            dim_out = ws_out.row_dimensions[r]
            assert (dim_out.height, dim_out.hidden) == (dim_in.height, dim_in.hidden), r
    else:
        assert rows_out == rows_in

    # merges, comments and hyperlinks go where their cells go
    goes = {old: new for new, old in moves.items()}

    def moved(pos: Pos) -> Pos:
        return goes.get(pos, pos)

    want_merges = set()
    for r0, c0, r1, c1 in merges(ws_in):
        nr, nc = moved((r0, c0))
        want_merges.add((nr, nc, nr + r1 - r0, nc + c1 - c0))
    assert merges(ws_out) == want_merges
    assert comments(ws_out) == {moved(p): v for p, v in comments(ws_in).items()}
    assert links(ws_out) == {moved(p): v for p, v in links(ws_in).items()}

    # data validation, conditional formatting and defined names stay with positions
    assert position_rules(wb_out) == position_rules(wb_in)


# ---------------------------------------------------------------- the properties


@pytest.mark.slow
@SETTINGS
@given(spec=book_specs(), by=modes, header=headers, seed=seeds)
def test_any_mode_moves_values_and_translates_formulas(spec, by, header, seed) -> None:
    """1. Any mode x header x seed: values are shuffle_grid's, formulas openpyxl's translation."""
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx"
        record = draw_or_refusal(src, dst, by=by, header=header, seed=seed)
        if record is None:
            assert not dst.exists()
            return
        event(f"drawn: {by}")
        assert record.unit == ("rows" if by == "rows" else "cells")
        assert selection(record) == used_area(src)
        check_draw(src, dst, record, by, header, seed)


@pytest.mark.slow
@SETTINGS
@given(
    spec=book_specs(with_formulas=False, with_merges=False), by=modes, header=headers, seed=seeds
)
def test_members_not_listed_are_byte_identical_and_in_order(spec, by, header, seed) -> None:
    """2. Every zip member the record does not list is the input's, byte for byte."""
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx"
        record = draw_or_refusal(src, dst, by=by, header=header, seed=seed)
        if record is None:  # only a header row (nothing else is refused without formulas)
            assert not dst.exists()
            return
        allowed = {p for names in record.parts.values() for p in names}
        assert oracle.unchanged_members(src, dst, allowed) == []
        assert record.parts["added"] == record.parts["removed"] == []
        assert list(oracle.members(dst)) == list(oracle.members(src))
        assert oracle.sheet_part(src, OTHER) not in allowed
        if any(new != old for new, old in sources(record).items()):
            assert oracle.sheet_part(src, SHEET) in record.parts["rewritten"]
        # without formulas and merges nothing is refused: the full check, in every mode
        check_draw(src, dst, record, by, header, seed)


@pytest.mark.slow
@SETTINGS
@given(spec=book_specs(min_rows=1), header=headers, seed=seeds)
def test_whole_rows_carry_attributes_merges_comments_links_and_styles(spec, header, seed) -> None:
    """3. Default selection by rows: whole rows move with everything that is theirs."""
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx"
        record = draw_or_refusal(src, dst, header=header, seed=seed)
        if record is None:
            return
        assert record.unit == "rows"
        check_draw(src, dst, record, "rows", header, seed)


def same_sheet(a: Path, b: Path) -> None:
    """The sheets' cells are equal, but formulas' cached values; so are the rows."""
    before, after = oracle.sheet_cells(a, SHEET), oracle.sheet_cells(b, SHEET)
    assert set(before) == set(after)
    for pos, cell in before.items():
        if cell.is_formula:
            assert moving_facts(after[pos]) == moving_facts(cell), pos
            assert after[pos].f == cell.f, pos
        else:
            assert after[pos] == cell, pos
    assert no_spans(oracle.sheet_rows(a, SHEET)) == no_spans(oracle.sheet_rows(b, SHEET))


@pytest.mark.slow
@SETTINGS
@given(spec=book_specs(), by=modes, header=headers, seed=seeds)
def test_shuffle_then_restore_gives_back_the_sheet(spec, by, header, seed) -> None:
    """4. restore(shuffle(x)) has x's cells; every member neither run lists is x's bytes."""
    with folder() as tmp:
        src, out, back = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx", tmp / "back.xlsx"
        record = draw_or_refusal(src, out, by=by, header=header, seed=seed)
        if record is None:
            return
        undo = restore_workbook(record, out, back)
        same_sheet(src, back)
        allowed = {p for rec in (record, undo) for names in rec.parts.values() for p in names}
        assert oracle.unchanged_members(src, back, allowed) == []
        wb_in, wb_back = book(src), book(back)
        assert merges(wb_back[SHEET]) == merges(wb_in[SHEET])
        assert comments(wb_back[SHEET]) == comments(wb_in[SHEET])
        assert links(wb_back[SHEET]) == links(wb_in[SHEET])


@pytest.mark.slow
@SETTINGS
@given(spec=book_specs(with_merges=False), seed=seeds, data=st.data())
def test_sample_is_the_first_k_rows_of_the_shuffle(spec, seed, data) -> None:
    """5a. sample(k) = the first k data rows of shuffle with the same seed."""
    with folder() as tmp:
        src, out, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx", tmp / "s.xlsx"
        rows, cols = used_area(src)
        n = len(rows) - 1
        k = data.draw(st.integers(0, n), label="k")
        drawn = draw_or_refusal(src, out, seed=seed)
        if n == 0:  # only a header row: refused, whatever k
            with pytest.raises(WorkbookError, match="only a header row"):
                sample_workbook(src, dst, k=k, seed=seed)
            assert not dst.exists()
            return
        result = sample_workbook(src, dst, k=k, seed=seed)
        assert len(result.record.permutation) == k
        assert result.record.permutation == xlshuffle.permutation(n, seed=seed)[:k]
        allowed = {p for names in result.record.parts.values() for p in names}
        assert oracle.unchanged_members(src, dst, allowed) == []
        ws = book(src)[SHEET]
        cached = shown(src, SHEET)
        assert result.table[0] == ["Rank", *(cached(ws.cell(rows[0], c)) for c in cols)]
        body = [[cached(ws.cell(r, c)) for c in cols] for r in rows[1:]]
        want = xlshuffle.deal(body, k, seed=seed)
        got = [row[1:] for row in result.table[1:]]
        assert [[(type(v), v) for v in row] for row in got] == [
            [(type(v), v) for v in row] for row in want
        ]
        assert [row[0] for row in result.table[1:]] == list(range(1, k + 1))
        if drawn is not None:
            assert result.record.permutation == drawn.permutation[:k]
            shuffled_ws = book(out)[SHEET]
            cached = shown(out, SHEET)
            first = [[cached(shuffled_ws.cell(r, c)) for c in cols] for r in rows[1 : 1 + k]]
            assert got == first
        written = book(dst)
        assert written.sheetnames[:2] == [SHEET, OTHER]
        sheet = written[written.sheetnames[-1]]
        cached = shown(dst, sheet.title)
        assert [[cached(c) for c in row] for row in sheet.iter_rows()] == result.table


@pytest.mark.slow
@SETTINGS
@given(spec=book_specs(min_rows=1), seed=seeds, data=st.data())
def test_groups_numbers_are_the_cores(spec, seed, data) -> None:
    """5b. groups(k): the new column holds xlshuffle.groups(n, k, seed); nothing else moves."""
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "g.xlsx"
        rows, _cols = used_area(src)
        n = len(rows) - 1
        k = data.draw(st.integers(1, max(n, 1)), label="k")
        record = groups_workbook(src, dst, k=k, seed=seed, label="Group")
        allowed = {p for names in record.parts.values() for p in names}
        assert oracle.unchanged_members(src, dst, allowed) == []
        before = oracle.sheet_cells(src, SHEET)
        after = oracle.sheet_cells(dst, SHEET)
        col = max(c for _r, c in before) + 1
        assert {p: f for p, f in after.items() if p[1] != col} == before
        ws = book(dst)[SHEET]
        assert ws.cell(1, col).value == "Group"
        assert [ws.cell(r, col).value for r in rows[1:]] == xlshuffle.groups(n, k, seed=seed)
        assert all(p in before for p in after if p[0] not in rows)
        assert no_spans(oracle.sheet_rows(src, SHEET)) == no_spans(oracle.sheet_rows(dst, SHEET))


@pytest.mark.slow
@SETTINGS
@given(spec=book_specs(min_rows=2), by=modes, header=headers, seed=seeds, data=st.data())
def test_verify_passes_and_catches_one_changed_cell(spec, by, header, seed, data) -> None:
    """6. verify_record passes on the output, and fails once one moved cell is changed."""
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx"
        record = draw_or_refusal(src, dst, by=by, header=header, seed=seed)
        if record is None:
            return
        verify_record(record, input=src, output=dst)
        moves = {n: o for n, o in sources(record).items() if n != o}
        assume(moves)
        # the output's zip rewritten member by member, same bytes: still verifies
        copy = tmp / "copy.xlsx"
        rezip(dst, copy, {})
        verify_record(record, input=src, output=copy)
        # one moved cell changed in the sheet's XML, nothing else: verify fails
        stored = oracle.sheet_cells(dst, SHEET)
        candidates = sorted(p for p in moves if p in stored and stored[p].text != "tampered")
        assume(candidates)
        pos = data.draw(st.sampled_from(candidates), label="changed cell")
        part = oracle.sheet_part(dst, SHEET)
        with zipfile.ZipFile(dst) as zf:
            xml = zf.read(part)
        tampered = tmp / "tampered.xlsx"
        rezip(dst, tampered, {part: replace_cell(xml, pos)})
        with pytest.raises(WorkbookError):
            verify_record(record, input=src, output=tampered)
        # the same with openpyxl (which also rewrites the rest of the file)
        wb = book(dst)
        cell = wb[SHEET].cell(*pos)
        if not isinstance(cell, MergedCell):
            cell.value = "tampered ✗"
            wb.save(dst)
            with pytest.raises(WorkbookError):
                verify_record(record, input=src, output=dst)


def rezip(src: Path, dst: Path, replace: dict[str, bytes]) -> None:
    """Copy a zip member by member, with some members' content replaced."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, replace.get(info.filename, zin.read(info)))


def replace_cell(xml: bytes, pos: Pos) -> bytes:
    """The sheet XML with the stored cell at ``pos`` holding an inline string instead."""
    ref = coord(pos).encode()
    new = b'<c r="' + ref + b'" t="inlineStr"><is><t>tampered</t></is></c>'
    cell = re.compile(rb'<c r="' + ref + rb'"(?:[^>]*?/>|[^>]*?>.*?</c>)', re.S)
    out, n = cell.subn(lambda _m: new, xml, count=1)
    assert n == 1, pos
    return out


@st.composite
def ranges(draw: st.DrawFn, n_rows: int, n_cols: int) -> str:
    top = draw(st.integers(1, n_rows))
    bottom = draw(st.integers(top, n_rows))
    left = draw(st.integers(1, n_cols))
    right = draw(st.integers(left, n_cols))
    return f"{get_column_letter(left)}{top}:{get_column_letter(right)}{bottom}"


@pytest.mark.slow
@SETTINGS
@given(
    spec=book_specs(min_rows=1, layout_traps=True),
    by=modes,
    header=headers,
    seed=seeds,
    data=st.data(),
)
def test_explicit_cells_move_only_those_cells(spec, by, header, seed, data) -> None:
    """7a. cells="B3:D7": only those cells move; other cells and the rows stay."""
    cells = data.draw(ranges(spec.bottom, spec.n_cols), label="cells")
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx"
        record = draw_or_refusal(src, dst, cells=cells, by=by, header=header, seed=seed)
        if record is None:
            return
        assert record.unit == "cells"
        assert record.target["kind"] == "range"
        assert range_boundaries(record.target["ref"]) == range_boundaries(cells)
        assert record.header == bool(header)
        check_draw(src, dst, record, by, header, seed)


@pytest.mark.slow
@SETTINGS
@given(
    spec=book_specs(min_rows=1, layout_traps=True),
    by=modes,
    header=headers,
    seed=seeds,
    data=st.data(),
)
def test_explicit_columns_move_only_those_columns(spec, by, header, seed, data) -> None:
    """7b. columns=["B", "D"]: only those columns' cells move, over the used rows."""
    letters = [get_column_letter(c) for c in range(1, spec.n_cols + 1)]
    chosen = data.draw(st.lists(st.sampled_from(letters), min_size=1, unique=True), label="cols")
    chosen.sort(key=column_index_from_string)
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx"
        given_as = data.draw(st.sampled_from([chosen, ",".join(chosen)]), label="given as")
        record = draw_or_refusal(src, dst, columns=given_as, by=by, header=header, seed=seed)
        if record is None:
            return
        assert record.unit == "cells"
        assert record.target["kind"] == "columns"
        assert record.target["columns"] == ",".join(chosen)
        assert record.header == (header is not False)
        # rows at the end blank in these columns (no value, or empty text) are not drawn
        # read_only: openpyxl's full mode fills an empty cell that has a hyperlink with
        # the link's target, which would make a blank row look filled.
        picked = {column_index_from_string(c) for c in chosen}
        with contextlib.closing(book(src, read_only=True)) as wb:
            sheet_rows = list(wb[SHEET].iter_rows(values_only=True))
        solid = [
            r
            for r, row in enumerate(sheet_rows, 1)
            for c, v in enumerate(row, 1)
            if c in picked and v is not None and str(v).strip()
        ]
        rows, _ = selection(record)
        assert rows[-1] == max([rows[0], *solid])
        check_draw(src, dst, record, by, header, seed)


def test_an_empty_cell_with_only_a_link_is_blank_below_the_data() -> None:
    """Found by the property above: A5 holds an empty text and a hyperlink. It is blank,
    so the draw over column A ends at row 2 (openpyxl's full mode reads the link's target
    as A5's value; the oracle reads in read-only mode)."""
    plain = Style(bold=False, fill=None, number_format=None)
    spec = BookSpec(
        labels=["0"],
        n_data=7,
        cells={(2, 1): "=A2", (5, 1): Value("")},
        styles={(r, 1): plain for r in range(1, 6)},
        merges=[],
        comments={},
        links={(5, 1): "https://example.com/0/5-1"},
        heights={},
        hidden=set(),
        extras=False,
    )
    with folder() as tmp:
        src, dst = write_book(spec, tmp / "in.xlsx"), tmp / "out.xlsx"
        record = draw_or_refusal(src, dst, columns=["A"], by="rows", header=None, seed=0)
        assert record is not None
        assert selection(record)[0] == [1, 2]
        check_draw(src, dst, record, "rows", None, 0)
