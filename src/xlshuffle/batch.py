"""Batch mode: shuffle, sample and group the rows of saved .xlsx/.xlsm workbooks.

The order comes from the same draw protocol as the Excel functions, so a seed gives
the same order here as ``=SHUFFLE(...)`` does in a sheet: with ``by="rows"`` the data
rows end up in the order of ``xlshuffle.shuffled(rows, seed=seed)``, a sample of ``k`` is
the first ``k`` rows of that order, and groups are ``xlshuffle.groups(n, k, seed=seed)``.

Cells move as whole openpyxl cells (value, formula, style, hyperlink and comment), and
formulas are translated so relative references keep pointing at the same cells relative
to their new place. Everything outside the selection stays as it was. Before anything
is written the saved package is compared with the input, and a save that would drop a
part (a picture, threaded comments, printer settings...) is refused unless
``allow_loss=True``. Writes go to a temporary file in the target folder and replace the
target atomically; the input is written only with ``in_place=True``, which keeps
``NAME.bak.xlsx`` beside it.

Needs the ``xlsx`` extra: ``pip install 'xlshuffle[xlsx]'``.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import os
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._record import DrawRecord, load_records, sha256_of
from ._xlsx_parts import Package, lost_between, open_package, sniff
from .common.files import backup_path, fsync_folder, temp_beside, unlink_quietly, write_atomically
from .draw.errors import OptionError, SizeError, WorkbookError, XlshuffleError
from .draw.grid import parse_mode
from .draw.knuth import _check_count, group_numbers, permutation
from .draw.protocol import PROTOCOL, DrawStream, normalise_seed

if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = [
    "DrawRecord",
    "SampleResult",
    "groups_workbook",
    "sample_workbook",
    "shuffle_workbook",
    "verify_record",
]

PathLike = str | os.PathLike[str]
Coord = tuple[int, int]

#: Largest selection (in cells) that the cell-by-cell modes will draw for; whole rows
#: and columns have no such limit (a million rows is a million draws).
MAX_CELL_DRAWS = 20_000_000

#: Largest merged range openpyxl is asked to load (it makes one object per cell).
MAX_MERGED_CELLS = 200_000

# openpyxl warnings that mean "this part of the file will not be saved".
_LOSS_WORDS = ("removed", "dropped", "not supported", "discarded", "lost")


# --------------------------------------------------------------------------- loading


@dataclass
class _Loaded:
    path: str
    data: bytes
    package: Package
    workbook: Workbook
    lost_on_load: list[str]

    def close(self) -> None:
        """Close the copy of the package openpyxl keeps for VBA (else a GC-time warning)."""
        archive = getattr(self.workbook, "vba_archive", None)
        if archive is not None:
            archive.close()
            self.workbook.vba_archive = None


def _lock_file(path: str) -> str | None:
    folder, name = os.path.split(os.path.abspath(path))
    for candidate in (f"~${name}", f"~${name[2:]}"):
        lock = os.path.join(folder, candidate)
        if len(candidate) > 2 and os.path.exists(lock):
            return lock
    return None


def _refuse_if_open(path: str) -> None:
    lock = _lock_file(path)
    if lock is not None:
        raise WorkbookError(
            f"{path}: the workbook is open in Excel (lock file {os.path.basename(lock)} "
            "beside it): close it in Excel first (or delete a stale lock file), then retry"
        )


def _load(src: PathLike) -> _Loaded:
    import defusedxml  # noqa: F401  - openpyxl parses safely only when it is installed
    from openpyxl import load_workbook

    path = os.fspath(src)
    _refuse_if_open(path)
    with open(path, "rb") as fh:
        data = fh.read()
    sniff(data, path)
    package = open_package(data)
    cells, sheet, ref = package.largest_merge
    if cells > MAX_MERGED_CELLS:
        # openpyxl makes one object per merged cell: B1:B1048576 takes it minutes and GBs
        raise WorkbookError(
            f"{path}: sheet {sheet!r} merges {ref} ({cells:,} cells), more than openpyxl "
            "can load in reasonable time: unmerge it in Excel (or merge a smaller range)"
        )
    keep_vba = package.has_vba_parts or path.lower().endswith((".xlsm", ".xltm"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            # Rich text costs openpyxl about 20% more load time, so ask for it only when
            # the workbook has some: without it the runs' formatting would be lost.
            wb = load_workbook(io.BytesIO(data), keep_vba=keep_vba, rich_text=package.has_rich_text)
        except XlshuffleError:
            raise
        except Exception as exc:
            kind = type(exc).__name__
            chain: BaseException | None = exc
            while chain is not None and type(chain).__module__.partition(".")[0] != "defusedxml":
                chain = chain.__cause__ or chain.__context__
            if chain is not None:
                raise WorkbookError(
                    f"{path}: the workbook's XML declares entities (a possible XML bomb), "
                    "so it was not read: re-save it in Excel if you trust it"
                ) from None
            detail = " ".join(str(exc).split()[:30])
            raise WorkbookError(
                f"{path}: openpyxl cannot read this workbook ({kind}: {detail}): "
                "open it in Excel, save it again as .xlsx, and retry"
            ) from None
    lost = [
        " ".join(str(w.message).split()).rstrip(".")
        for w in caught
        if any(word in str(w.message).lower() for word in _LOSS_WORDS)
    ]
    return _Loaded(path, data, package, wb, lost)


# --------------------------------------------------------------------------- selection


@dataclass
class _Selection:
    ws: Worksheet
    rows: list[int]  # 1-based sheet rows, top to bottom
    cols: list[int]  # 1-based sheet columns, left to right
    header: bool
    label: str

    @property
    def body(self) -> list[int]:
        return self.rows[1:] if self.header else self.rows


def _col_list(columns: str | Sequence[str]) -> list[int]:
    from openpyxl.utils.cell import column_index_from_string

    parts = columns.split(",") if isinstance(columns, str) else list(columns)
    out: list[int] = []
    for part in (p.strip().upper() for p in parts):
        first, _, last = part.partition(":")
        try:
            a = column_index_from_string(first)
            b = column_index_from_string(last) if last else a
        except ValueError:
            raise OptionError(
                f"columns: {part!r} is not a column letter: use letters such as 'B,D' or 'B:D'"
            ) from None
        for c in range(min(a, b), max(a, b) + 1):
            if c not in out:
                out.append(c)
    if not out:
        raise OptionError("columns: give at least one column letter, such as 'B'")
    return sorted(out)


def _select(
    wb: Workbook,
    *,
    sheet: str | None,
    cells: str | None,
    table: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    path: str,
) -> _Selection:
    from openpyxl.utils.cell import get_column_letter, range_boundaries

    if sum(x is not None for x in (cells, table, columns)) > 1:
        raise OptionError("give at most one of cells (--range), table and columns")
    if table is not None:
        for ws in wb.worksheets:
            if sheet is not None and ws.title != sheet:
                continue
            tbl = ws.tables.get(table)
            if tbl is None:
                found = [t for t in ws.tables if t.lower() == table.lower()]
                tbl = ws.tables.get(found[0]) if found else None
            if tbl is not None:
                c0, r0, c1, r1 = range_boundaries(tbl.ref)
                r1 -= tbl.totalsRowCount or 0
                has_head = tbl.headerRowCount != 0
                return _Selection(
                    ws,
                    list(range(r0, r1 + 1)),
                    list(range(c0, c1 + 1)),
                    has_head if header is None else header,
                    f"table {tbl.name} ({ws.title}!{tbl.ref})",
                )
        names = sorted(t for ws in wb.worksheets for t in ws.tables)
        raise OptionError(
            f"{path}: no table named {table!r}"
            + (f" on sheet {sheet!r}" if sheet else "")
            + (f": the tables are {', '.join(names)}" if names else ": the workbook has no tables")
        )

    if sheet is None:
        ws = wb.active
        if ws is None or not hasattr(ws, "_cells"):
            ws = wb.worksheets[0]
    else:
        matches = [w for w in wb.worksheets if w.title == sheet] or [
            w for w in wb.worksheets if w.title.lower() == sheet.lower()
        ]
        if not matches:
            raise OptionError(
                f"{path}: no sheet named {sheet!r}: the sheets are "
                + ", ".join(repr(w.title) for w in wb.worksheets)
            )
        ws = matches[0]

    if columns is not None:
        cols = _col_list(columns)
        rows = list(range(ws.min_row, ws.max_row + 1))
        letters = ",".join(get_column_letter(c) for c in cols)
        label = f"{ws.title}!{letters} (rows {rows[0]}-{rows[-1]})"
        return _Selection(ws, rows, cols, True if header is None else header, label)
    if cells is not None:
        try:
            c0, r0, c1, r1 = range_boundaries(cells.replace("$", "").strip())
        except (ValueError, TypeError):
            raise OptionError(
                f"range {cells!r} is not an A1 range: write it like 'A2:D200', 'A:D' or '2:200'"
            ) from None
        c0 = c0 or ws.min_column
        c1 = c1 or ws.max_column
        r0 = r0 or ws.min_row
        r1 = r1 or ws.max_row
        label = f"{ws.title}!{get_column_letter(c0)}{r0}:{get_column_letter(c1)}{r1}"
        return _Selection(
            ws,
            list(range(r0, r1 + 1)),
            list(range(c0, c1 + 1)),
            bool(header),
            label,
        )
    c0, r0, c1, r1 = ws.min_column, ws.min_row, ws.max_column, ws.max_row
    label = f"{ws.title}!{get_column_letter(c0)}{r0}:{get_column_letter(c1)}{r1}"
    return _Selection(
        ws,
        list(range(r0, r1 + 1)),
        list(range(c0, c1 + 1)),
        True if header is None else header,
        label,
    )


def _check_movable(sel: _Selection, mode: str, path: str) -> None:
    """Refuse selections whose cells cannot move without breaking the sheet."""
    from openpyxl.utils.cell import get_column_letter, range_boundaries
    from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula

    ws = sel.ws
    where = f"{path}: sheet {ws.title!r}"
    if ws.protection.sheet:
        raise WorkbookError(
            f"{where} is protected: unprotect it in Excel (Review > Unprotect Sheet), "
            "save, and retry"
        )
    rows = sel.rows if mode == "columns" else sel.body
    if not rows or not sel.cols:
        return
    r0, r1, c0, c1 = rows[0], rows[-1], sel.cols[0], sel.cols[-1]
    colset = set(sel.cols)

    for rng in ws.merged_cells.ranges:
        if rng.max_row < r0 or rng.min_row > r1:
            continue
        if any(c in colset for c in range(rng.min_col, rng.max_col + 1)):
            raise WorkbookError(
                f"{where}: merged cells {rng.coord} overlap the cells to shuffle: "
                "unmerge them (Home > Merge & Center) or choose a range without them"
            )

    for tbl in ws.tables.values():
        tc0, tr0, tc1, tr1 = range_boundaries(tbl.ref)
        if tr1 < r0 or tr0 > r1 or tc1 < c0 or tc0 > c1:
            continue
        head_rows = tbl.headerRowCount if tbl.headerRowCount is not None else 1
        data0, data1 = tr0 + head_rows, tr1 - (tbl.totalsRowCount or 0)
        same_cols = sel.cols == list(range(tc0, tc1 + 1))
        if mode == "columns":
            raise WorkbookError(
                f"{where}: moving whole columns would reorder table {tbl.name} ({tbl.ref}), "
                "whose column list Excel keeps separately: shuffle its rows, or convert "
                "it to a range in Excel first"
            )
        if not (same_cols and data0 <= r0 and r1 <= data1):
            raise WorkbookError(
                f"{where}: the selection cuts through table {tbl.name} ({tbl.ref}): "
                f"use --table {tbl.name} (table={tbl.name!r}) or a range inside its data rows "
                "covering all its columns"
            )

    array_types = (ArrayFormula, DataTableFormula)
    for (r, c), cell in ws._cells.items():
        if r0 <= r <= r1 and c in colset and isinstance(cell._value, array_types):
            raise WorkbookError(
                f"{where}: cell {get_column_letter(c)}{r} holds an array formula, "
                "which cannot be moved cell by cell: replace it with its values "
                "(Copy, Paste Values) or leave it out of the selection"
            )


# --------------------------------------------------------------------------- drawing


def _draw(mode: str, n_rows: int, n_cols: int, stream: DrawStream) -> list[Any]:
    """The permutation(s) of one draw, consumed from ``stream`` as ``shuffle_grid`` does."""
    if mode == "rows":
        return permutation(n_rows, seed=stream)
    if mode == "columns":
        return permutation(n_cols, seed=stream)
    if mode == "cells":
        return permutation(n_rows * n_cols, seed=stream)
    if mode == "within-rows":
        return [permutation(n_cols, seed=stream) for _ in range(n_rows)]
    return [permutation(n_rows, seed=stream) for _ in range(n_cols)]


def _inverse(perm: list[int]) -> list[int]:
    inv = [0] * len(perm)
    for p, s in enumerate(perm):
        inv[s] = p
    return inv


def _region(sel: _Selection, mode: str) -> tuple[list[int], set[int]]:
    return (sel.rows if mode == "columns" else sel.body), set(sel.cols)


def _destination(sel: _Selection, mode: str, perm: list[Any]) -> Callable[[int, int], Coord]:
    """Where the cell at ``(row, column)`` of the region goes; ``perm[p] = s`` means item
    ``s`` lands at position ``p``."""
    rows, _ = _region(sel, mode)
    top = rows[0] if rows else 0
    col_pos = {c: j for j, c in enumerate(sel.cols)}
    cols, width = sel.cols, len(sel.cols)
    if mode == "rows":
        inv = _inverse(perm)
        return lambda r, c: (top + inv[r - top], c)
    if mode == "columns":
        inv = _inverse(perm)
        return lambda r, c: (r, cols[inv[col_pos[c]]])
    if mode == "cells":
        inv = _inverse(perm)

        def cell_dest(r: int, c: int) -> Coord:
            q = inv[(r - top) * width + col_pos[c]]
            return top + q // width, cols[q % width]

        return cell_dest
    invs = [_inverse(p) for p in perm]
    if mode == "within-rows":
        return lambda r, c: (r, cols[invs[r - top][col_pos[c]]])
    return lambda r, c: (top + invs[col_pos[c]][r - top], c)


def _sources(sel: _Selection, mode: str) -> list[Coord]:
    """The stored cells of the region. Blank positions hold no cell, so the work is
    proportional to the stored cells, not to the rectangle: a used range stretched to
    XFD1048576 by one stray comment costs nothing more."""
    rows, colset = _region(sel, mode)
    if not rows:
        return []
    top, bottom = rows[0], rows[-1]
    return [key for key in sel.ws._cells if top <= key[0] <= bottom and key[1] in colset]


def _mapping(sel: _Selection, mode: str, perm: list[Any]) -> list[tuple[Coord, Coord]]:
    """``(destination, source)`` of every stored cell that takes part in the draw."""
    dest = _destination(sel, mode, perm)
    return [(dest(r, c), (r, c)) for r, c in _sources(sel, mode)]


def _move(sel: _Selection, mode: str, perm: list[Any], path: str) -> None:
    """Move whole openpyxl cells; translate formulas; rebind hyperlinks.

    The cells are taken out of the sheet first and put back at their destinations, one
    list of references: no per-cell mapping is built (half a million cells would cost
    as much memory again as openpyxl's own cells).
    """
    from openpyxl.formula.translate import Translator, TranslatorError
    from openpyxl.utils.cell import get_column_letter

    cells = sel.ws._cells
    pop = cells.pop
    held = [pop(key) for key in _sources(sel, mode)]
    moved = []
    if mode == "rows":  # the common case, inlined: a third faster on 500,000 cells
        inv, top = _inverse(perm), sel.body[0] if sel.body else 0
        for cell in held:
            r = cell.row
            nr = top + inv[r - top]
            cells[(nr, cell.column)] = cell
            if nr != r:
                cell.row = nr
                if cell.data_type == "f" or cell._hyperlink is not None:
                    moved.append((cell, r, cell.column))
    else:
        dest = _destination(sel, mode, perm)
        for cell in held:
            r, c = cell.row, cell.column
            nr, nc = dest(r, c)
            cells[(nr, nc)] = cell
            if nr != r or nc != c:
                cell.row, cell.column = nr, nc
                moved.append((cell, r, c))
    for cell, r, c in moved:
        if cell.data_type == "f" and isinstance(cell._value, str):
            origin = f"{get_column_letter(c)}{r}"
            try:
                cell._value = Translator(cell._value, origin=origin).translate_formula(
                    cell.coordinate
                )
            except TranslatorError as exc:
                raise WorkbookError(
                    f"{path}: sheet {sel.ws.title!r}: the formula in {origin} cannot move to "
                    f"{cell.coordinate} ({exc}): replace it with its value first"
                ) from None
        if cell._hyperlink is not None:
            cell._hyperlink.ref = cell.coordinate


def _move_row_dimensions(sel: _Selection, perm: list[int]) -> None:
    """Whole rows carry their height, hidden flag and outline level."""
    dims = sel.ws.row_dimensions
    body = sel.body
    if not body:
        return
    top, bottom = body[0], body[-1]
    inv = _inverse(perm)
    held = [(r, dims.pop(r)) for r in list(dims) if top <= r <= bottom]
    for r, dim in held:
        dim.index = top + inv[r - top]
        dims[dim.index] = dim


# --------------------------------------------------------------------------- writing


@dataclass
class _Written:
    sha256: str | None
    lost: list[str]
    backup: str | None


def _save(
    loaded: _Loaded,
    dst: str | None,
    *,
    in_place: bool,
    backup: bool,
    allow_loss: bool,
    dry_run: bool,
) -> _Written:
    """Save, check nothing is lost, then put the file in place atomically."""
    wb, path = loaded.workbook, loaded.path
    target = path if in_place else dst
    if target is None and not dry_run:
        raise OptionError("give an output path (dst / -o) or in_place=True (--in-place)")
    if target is not None and not in_place and os.path.abspath(target) == os.path.abspath(path):
        raise OptionError(
            f"{path}: the output is the input: use in_place=True (--in-place) to replace it"
        )
    if target is not None and not in_place:
        _refuse_if_open(target)

    tmp: str | None = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if dry_run or target is None:
                buf = io.BytesIO()
                wb.save(buf)
                out = buf.getvalue()
            else:
                fd, tmp = temp_beside(target)
                os.close(fd)
                wb.save(tmp)
                with open(tmp, "rb") as fh:
                    out = fh.read()
        lost = loaded.lost_on_load + lost_between(loaded.package, open_package(out))
        if lost and not allow_loss:
            raise WorkbookError(
                f"{path}: saving with openpyxl would lose {'; '.join(lost)}. Nothing was "
                "written. Pass --allow-loss (allow_loss=True) to write it without them, "
                "or make this change in Excel"
            )
        if tmp is None or target is None:  # a dry run
            return _Written(None, lost, None)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        kept = None
        if in_place and backup:
            kept = backup_path(path)
            write_atomically(kept, loaded.data)
        os.replace(tmp, target)
        tmp = None
        fsync_folder(os.path.dirname(os.path.abspath(target)))
        return _Written(sha256_of(out), lost, kept)
    finally:
        loaded.close()
        if tmp is not None:
            unlink_quietly(tmp)


def _seed_text(stream: DrawStream) -> str:
    seed = stream.seed
    if isinstance(seed, str):
        return seed
    return normalise_seed(seed).decode("utf-8")


def _target(dst: PathLike | None) -> str | None:
    return None if dst is None else os.fspath(dst)


# --------------------------------------------------------------------------- public API


def _record(
    command: str,
    loaded: _Loaded,
    sel: _Selection,
    stream: DrawStream,
    mode: str,
    perm: list[Any],
    written: _Written,
    output: str | None,
    *,
    k: int | None = None,
) -> DrawRecord:
    """The draw record of a finished run: the one place its fields are filled in."""
    return DrawRecord(
        command=command,
        seed=_seed_text(stream),
        input=loaded.path,
        input_sha256=sha256_of(loaded.data),
        output=output,
        output_sha256=written.sha256,
        sheet=sel.ws.title,
        selection=sel.label,
        header=sel.header,
        mode=mode,
        rows=len(sel.rows),
        columns=len(sel.cols),
        permutation=perm,
        k=k,
        lost=written.lost,
        backup=written.backup,
    )


def shuffle_workbook(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    sheet: str | None = None,
    cells: str | None = None,
    table: str | None = None,
    columns: str | Sequence[str] | None = None,
    header: bool | None = None,
    by: str = "rows",
    seed: object = None,
    in_place: bool = False,
    backup: bool = True,
    allow_loss: bool = False,
    dry_run: bool = False,
) -> DrawRecord:
    """Shuffle a selection of a saved workbook and write the result.

    Parameters
    ----------
    src : path
        The .xlsx/.xlsm workbook to read. It is never written unless ``in_place``.
    dst : path, optional
        Where to write the shuffled workbook (replaced atomically if it exists).
        Required unless ``in_place`` or ``dry_run``.
    sheet : str, optional
        The sheet to shuffle; the active sheet by default.
    cells : str, optional
        An A1 range such as ``"A2:D200"``, ``"A:D"`` or ``"2:200"``.
    table : str, optional
        An Excel table by name: its data rows (never its totals row).
    columns : str or sequence of str, optional
        Column letters such as ``"B,D"`` or ``"B:D"``, over the used rows; the other
        columns stay where they are.
    header : bool, optional
        Keep the first row of the selection in place as labels, as
        :func:`xlshuffle.shuffle_grid` does. Default: on for ``table``, ``columns`` and
        the whole used range (no selection given); off for ``cells``.
    by : {"rows", "columns", "cells", "within-rows", "within-columns"}, optional
        What moves; see :func:`xlshuffle.shuffle_grid`.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol; ``None`` draws a fresh one (read it from the record).
    in_place : bool, optional
        Replace ``src`` (atomically) instead of writing ``dst``.
    backup : bool, optional
        With ``in_place``, keep the original as ``NAME.bak.xlsx`` (default True).
    allow_loss : bool, optional
        Write even if openpyxl drops package parts; they are listed in ``record.lost``.
    dry_run : bool, optional
        Do everything, including the loss check, but write nothing.

    Returns
    -------
    DrawRecord
        The draw record, with the permutation and both files' SHA-256.

    Raises
    ------
    WorkbookError
        A file that cannot be read or safely written (the message says why and what to do).
    OptionError, SeedError
        Bad options.

    Examples
    --------
    >>> import openpyxl, os, tempfile, xlshuffle
    >>> folder = tempfile.mkdtemp()
    >>> src, dst = os.path.join(folder, "in.xlsx"), os.path.join(folder, "out.xlsx")
    >>> wb = openpyxl.Workbook()
    >>> for row in [["name"], ["Ann"], ["Bob"], ["Cid"], ["Dee"]]:
    ...     wb.active.append(row)
    >>> wb.save(src)
    >>> record = shuffle_workbook(src, dst, seed=42)
    >>> [r[0] for r in openpyxl.load_workbook(dst).active.values]
    ['name', 'Ann', 'Dee', 'Bob', 'Cid']
    >>> xlshuffle.shuffled(["Ann", "Bob", "Cid", "Dee"], seed=42)
    ['Ann', 'Dee', 'Bob', 'Cid']
    >>> record.permutation, record.selection
    ([0, 3, 1, 2], 'Sheet!A1:A5')
    """
    mode = parse_mode(by)
    stream = seed if isinstance(seed, DrawStream) else DrawStream(seed)
    loaded = _load(src)
    sel = _select(
        loaded.workbook,
        sheet=sheet,
        cells=cells,
        table=table,
        columns=columns,
        header=header,
        path=loaded.path,
    )
    _check_movable(sel, mode, loaded.path)
    area = len(sel.body) * len(sel.cols)
    if mode not in ("rows", "columns") and area > MAX_CELL_DRAWS:
        raise SizeError(
            f"{loaded.path}: {sel.label} spans {area:,} cells and mode {mode!r} draws one "
            f"number per cell (at most {MAX_CELL_DRAWS:,}): choose a smaller range"
        )
    perm = _draw(mode, len(sel.body), len(sel.cols), stream)
    _move(sel, mode, perm, loaded.path)
    ws = sel.ws
    if mode == "rows" and sel.cols == list(range(ws.min_column, ws.max_column + 1)):
        _move_row_dimensions(sel, perm)
    target = _target(dst)
    written = _save(
        loaded, target, in_place=in_place, backup=backup, allow_loss=allow_loss, dry_run=dry_run
    )
    output = None if dry_run else (loaded.path if in_place else target)
    return _record("shuffle", loaded, sel, stream, mode, perm, written, output)


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, _dt.datetime | _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass
class SampleResult:
    """A sample: its record, and the drawn rows (header first when there is one)."""

    record: DrawRecord
    table: list[list[object]]


def _values(loaded: _Loaded, sel: _Selection, rows: list[int]) -> list[list[object]]:
    """Cell values, with formulas replaced by the values Excel last computed."""
    ws = sel.ws
    grid = [
        [ws._cells[(r, c)]._value if (r, c) in ws._cells else None for c in sel.cols] for r in rows
    ]
    if any(isinstance(v, str) and v.startswith("=") for row in grid for v in row) or any(
        not isinstance(v, str | int | float | bool | _dt.date | _dt.time | type(None))
        for row in grid
        for v in row
    ):
        from openpyxl import load_workbook

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cached = load_workbook(io.BytesIO(loaded.data), data_only=True)[ws.title]
        grid = [[cached.cell(r, c).value for c in sel.cols] for r in rows]
    return grid


def _sample(
    src: PathLike,
    dst: PathLike | None,
    *,
    k: int,
    sheet: str | None,
    cells: str | None,
    table: str | None,
    columns: str | Sequence[str] | None,
    header: bool | None,
    seed: object,
    sheet_name: str,
    in_place: bool,
    backup: bool,
    allow_loss: bool,
    dry_run: bool,
) -> SampleResult:
    from openpyxl.utils.cell import get_column_letter

    k = _check_count("k", k)
    stream = seed if isinstance(seed, DrawStream) else DrawStream(seed)
    loaded = _load(src)
    sel = _select(
        loaded.workbook,
        sheet=sheet,
        cells=cells,
        table=table,
        columns=columns,
        header=header,
        path=loaded.path,
    )
    n = len(sel.body)
    if k > n:
        raise SizeError(
            f"{loaded.path}: cannot draw {k} rows from {n} data row{'s' if n != 1 else ''} "
            f"of {sel.label}: ask for at most {n}"
        )
    order = permutation(n, seed=stream)[:k]
    drawn = [sel.body[i] for i in order]
    labels: list[object]
    if sel.header:
        labels = ["Rank", *_values(loaded, sel, [sel.rows[0]])[0]]
    else:
        labels = ["Rank", *(get_column_letter(c) for c in sel.cols)]
    rows = [[rank, *vals] for rank, vals in enumerate(_values(loaded, sel, drawn), 1)]
    table_out = [labels, *rows]

    target = _target(dst)
    written = _Written(None, [], None)
    if target is not None and target.lower().endswith(".csv"):
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(
            [[_cell_text(v) for v in row] for row in table_out]
        )
        data = text.getvalue().encode("utf-8")
        if not dry_run:
            write_atomically(target, data)
            written = _Written(sha256_of(data), [], None)
    elif target is not None or in_place:
        wb = loaded.workbook
        name, i = sheet_name, 1
        while name in wb.sheetnames:
            i += 1
            name = f"{sheet_name} {i}"
        out = wb.create_sheet(name)
        for row in table_out:
            out.append(row)
        written = _save(
            loaded, target, in_place=in_place, backup=backup, allow_loss=allow_loss, dry_run=dry_run
        )
    loaded.close()
    output = None if dry_run else (loaded.path if in_place else target)
    record = _record("sample", loaded, sel, stream, "rows", order, written, output, k=k)
    return SampleResult(record, table_out)


def sample_workbook(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int,
    sheet: str | None = None,
    cells: str | None = None,
    table: str | None = None,
    columns: str | Sequence[str] | None = None,
    header: bool | None = None,
    seed: object = None,
    sheet_name: str = "Sample",
    in_place: bool = False,
    backup: bool = True,
    allow_loss: bool = False,
    dry_run: bool = False,
) -> SampleResult:
    """Draw ``k`` data rows (raffle winners), in draw order, from a saved workbook.

    The drawn rows are the first ``k`` rows that :func:`shuffle_workbook` puts in the
    selection with the same seed. They are written, after a ``Rank`` column and the
    header labels, to a new sheet ``sheet_name`` of a copy of the workbook (``dst``
    ending in .xlsx/.xlsm, or ``in_place``), or to a CSV file (``dst`` ending in .csv);
    with neither, nothing is written and the rows are only returned. Formulas are
    reported with the values Excel last computed for them.

    Parameters are those of :func:`shuffle_workbook`, plus ``k`` (how many to draw) and
    ``sheet_name``.

    Returns
    -------
    SampleResult
        ``.record`` (its ``permutation`` holds the ``k`` drawn row indices, 0-based
        among the data rows) and ``.table`` (labels row, then one row per winner).

    Examples
    --------
    >>> import openpyxl, os, tempfile
    >>> src = os.path.join(tempfile.mkdtemp(), "in.xlsx")
    >>> wb = openpyxl.Workbook()
    >>> for row in [["name"], ["Ann"], ["Bob"], ["Cid"], ["Dee"]]:
    ...     wb.active.append(row)
    >>> wb.save(src)
    >>> sample_workbook(src, k=2, seed=42).table
    [['Rank', 'name'], [1, 'Ann'], [2, 'Dee']]
    """
    return _sample(
        src,
        dst,
        k=k,
        sheet=sheet,
        cells=cells,
        table=table,
        columns=columns,
        header=header,
        seed=seed,
        sheet_name=sheet_name,
        in_place=in_place,
        backup=backup,
        allow_loss=allow_loss,
        dry_run=dry_run,
    )


def groups_workbook(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int,
    sheet: str | None = None,
    cells: str | None = None,
    table: str | None = None,
    columns: str | Sequence[str] | None = None,
    header: bool | None = None,
    seed: object = None,
    label: str = "Group",
    in_place: bool = False,
    backup: bool = True,
    allow_loss: bool = False,
    dry_run: bool = False,
) -> DrawRecord:
    """Split the data rows into ``k`` near-equal groups and add a group-number column.

    Row ``i`` gets group ``xlshuffle.groups(n, k, seed=seed)[i]``; rows do not move. The
    column goes right of the sheet's used range, with ``label`` in the header row.

    Examples
    --------
    >>> import openpyxl, os, tempfile, xlshuffle
    >>> folder = tempfile.mkdtemp()
    >>> src, dst = os.path.join(folder, "in.xlsx"), os.path.join(folder, "out.xlsx")
    >>> wb = openpyxl.Workbook()
    >>> for row in [["name"], ["Ann"], ["Bob"], ["Cid"], ["Dee"], ["Eve"]]:
    ...     wb.active.append(row)
    >>> wb.save(src)
    >>> _ = groups_workbook(src, dst, k=2, seed=42)
    >>> [r[1] for r in openpyxl.load_workbook(dst).active.values]
    ['Group', 2, 1, 1, 1, 2]
    >>> xlshuffle.groups(5, 2, seed=42)
    [2, 1, 1, 1, 2]
    """
    k = _check_count("k", k)
    if k < 1:
        raise SizeError("k must be at least 1 group")
    stream = seed if isinstance(seed, DrawStream) else DrawStream(seed)
    loaded = _load(src)
    sel = _select(
        loaded.workbook,
        sheet=sheet,
        cells=cells,
        table=table,
        columns=columns,
        header=header,
        path=loaded.path,
    )
    ws = sel.ws
    n = len(sel.body)
    perm = permutation(n, seed=stream)
    numbers = group_numbers(perm, k)
    column = ws.max_column + 1
    if sel.header:
        ws.cell(sel.rows[0], column, label)
    for r, g in zip(sel.body, numbers, strict=True):
        ws.cell(r, column, g)
    target = _target(dst)
    written = _save(
        loaded, target, in_place=in_place, backup=backup, allow_loss=allow_loss, dry_run=dry_run
    )
    output = None if dry_run else (loaded.path if in_place else target)
    return _record("groups", loaded, sel, stream, "rows", perm, written, output, k=k)


# --------------------------------------------------------------------------- verify


def _replay(record: DrawRecord) -> list[Any]:
    stream = DrawStream(record.seed)
    n_rows = record.rows - (1 if record.header else 0)
    if record.command == "sample":
        return permutation(n_rows, seed=stream)[: record.k or 0]
    if record.command == "groups":
        return permutation(n_rows, seed=stream)
    return _draw(parse_mode(record.mode), n_rows, record.columns, stream)


def _first_difference(a: list[Any], b: list[Any]) -> str | None:
    if len(a) != len(b):
        return f"{len(a)} entries recorded, {len(b)} recomputed"
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            return f"position {i}: recorded {x!r}, recomputed {y!r}"
    return None


def verify_record(
    record: DrawRecord | PathLike,
    *,
    input: PathLike | None = None,
    output: PathLike | None = None,
) -> None:
    """Check a draw record: replay its seed, and check the files against it.

    The permutation is recomputed from the seed with the draw protocol and must equal
    the recorded one. ``input`` must have the recorded SHA-256. ``output`` must have the
    recorded SHA-256, unless ``input`` is given too: then the output's selection must hold
    the input's cells in the recomputed order (a re-saved output still verifies).

    Raises
    ------
    WorkbookError
        With the first difference found.

    Examples
    --------
    >>> record = DrawRecord(command="shuffle", seed="42", input="in.xlsx",
    ...     input_sha256="", sheet="Sheet", selection="Sheet!A1:A5", header=True,
    ...     mode="rows", rows=5, columns=1, permutation=[0, 3, 1, 2])
    >>> verify_record(record)
    >>> record.permutation = [0, 1, 2, 3]
    >>> try:
    ...     verify_record(record)
    ... except WorkbookError as exc:
    ...     print(exc)
    record: seed '42' does not give this permutation: position 1: recorded 1, recomputed 3
    """
    if not isinstance(record, DrawRecord):
        records = load_records(os.fspath(record))
        if len(records) != 1 and (input is not None or output is not None):
            raise OptionError(
                f"{os.fspath(record)} holds {len(records)} draws: check them without "
                "input/output (each against its recorded files)"
            )
        for rec in records:
            verify_record(rec, input=input, output=output)
        return
    label = "record"
    if record.protocol != PROTOCOL:
        raise WorkbookError(
            f"{label}: protocol {record.protocol!r} is not {PROTOCOL!r}: "
            "verify it with the xlshuffle version that made it"
        )
    diff = _first_difference(record.permutation, _replay(record))
    if diff is not None:
        raise WorkbookError(f"{label}: seed {record.seed!r} does not give this permutation: {diff}")
    if input is not None:
        data = _read(input)
        if sha256_of(data) != record.input_sha256:
            raise WorkbookError(
                f"{os.fspath(input)}: SHA-256 {sha256_of(data)[:16]}... is not the recorded "
                f"input's {record.input_sha256[:16]}...: this is not the file that was drawn from"
            )
    if output is None:
        return
    out = _read(output)
    if input is None or record.command != "shuffle":
        if sha256_of(out) != record.output_sha256:
            raise WorkbookError(
                f"{os.fspath(output)}: SHA-256 {sha256_of(out)[:16]}... is not the recorded "
                f"output's {str(record.output_sha256)[:16]}..."
                + (": pass --input too to compare the cells" if input is None else "")
            )
        return
    _verify_cells(record, input, output)


def _read(path: PathLike) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _verify_cells(record: DrawRecord, src: PathLike, dst: PathLike) -> None:
    """The output's selection must hold the input's values moved by the permutation."""
    from openpyxl.utils.cell import get_column_letter

    before = _load(src)
    after = _load(dst)
    before.close()
    after.close()
    sel = _selection_from_label(before.workbook, record, before.path)
    ws_after = after.workbook[record.sheet]
    mapping = _mapping(sel, record.mode, record.permutation)
    src_cells, dst_cells = sel.ws._cells, ws_after._cells
    for dest, origin in mapping:
        a = src_cells.get(origin)
        b = dst_cells.get(dest)
        va = None if a is None else a._value
        vb = None if b is None else b._value
        if isinstance(va, str) and va.startswith("="):
            continue  # translated formulas differ in text by design
        if va != vb:
            where = f"{get_column_letter(dest[1])}{dest[0]}"
            was = f"{get_column_letter(origin[1])}{origin[0]}"
            raise WorkbookError(
                f"{os.fspath(dst)}: sheet {record.sheet!r} cell {where} holds {vb!r}, but the "
                f"draw puts input cell {was} ({va!r}) there"
            )


def _selection_from_label(wb: Workbook, record: DrawRecord, path: str) -> _Selection:
    label = record.selection
    if label.startswith("table "):
        name = label.split()[1]
        return _select(
            wb, sheet=None, cells=None, table=name, columns=None, header=record.header, path=path
        )
    ref = label.rpartition("!")[2]
    if " (rows " in ref:
        letters, _, span = ref.partition(" (rows ")
        first, _, last = span.rstrip(")").partition("-")
        sel = _select(
            wb,
            sheet=record.sheet,
            cells=None,
            table=None,
            columns=letters,
            header=record.header,
            path=path,
        )
        sel.rows = list(range(int(first), int(last) + 1))
        return sel
    return _select(
        wb, sheet=record.sheet, cells=ref, table=None, columns=None, header=record.header, path=path
    )
