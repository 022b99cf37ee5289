"""``groups_workbook``: a group-number column added to a workbook's data rows."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..common.celltext import text_of
from ..common.names import check_cell_text
from ..common.record import DrawRecord
from ..common.request import DrawRequest, GroupsOptions
from ..draw.errors import OptionError, SizeError
from ..draw.knuth import group_numbers, permutation
from ..draw.seed import Seed
from ..tabledraw.counts import group_count, refuse_taken_label, too_many
from .add.sheetxml import group_column_edits
from .add.teams import deal_teams
from .jobs import Job, file_request, make_record, open_request
from .move.refusals import check_unprotected
from .package.readwrite import Changes, write_workbook
from .scan.edits import splice
from .scan.refs import cell_ref
from .selection.keep import free_indexes, spread
from .values.reader import CellReader

__all__ = ["groups_request", "groups_workbook"]

PathLike = str | os.PathLike[str]


def groups_workbook(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int | None = None,
    size: int | None = None,
    sheet: str | None = None,
    cells: str | None = None,
    table: str | None = None,
    columns: str | Sequence[str] | None = None,
    header: bool | None = None,
    seed: object = None,
    keep_blank_rows: bool = False,
    label: str = "Group",
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    balance: Sequence[str] | None = None,
    avoid: PathLike | None = None,
) -> DrawRecord:
    """Split the data rows into ``k`` near-equal groups and add a group-number column.

    Row ``i`` gets group ``xlshuffle.groups(n, k, seed=seed)[i]``; rows do not move. The
    column goes right of every stored cell of the sheet, with ``label`` in the header row
    (refused when a header cell holds ``label`` already: a column of an earlier run).
    Give ``size`` instead of ``k`` for groups of at most ``size`` rows: ``k`` is then
    ``ceil(n / size)`` (sizes within one of each other), and the record keeps both.

    With ``balance`` (columns of the selection by header text or letter, most important
    first) the groups are balanced teams (protocol section 16, as for a CSV/TSV list):
    each value's count per team differs by at most one; ``avoid`` (the record of an
    earlier groups draw of the same rows) keeps people who were together apart as far as
    the draw can. The record's ``target["balance"]`` holds the balance table.

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
    options = GroupsOptions(
        k=k,
        size=size,
        label=label,
        balance=None if balance is None and avoid is None else tuple(balance or ()),
        avoid=None if avoid is None else os.fspath(avoid),
    )
    return groups_request(
        file_request(
            "groups",
            src,
            dst,
            options,
            seed=seed,
            sheet=sheet,
            cells=cells,
            table=table,
            columns=columns,
            header=header,
            keep_blank_rows=keep_blank_rows,
            in_place=in_place,
            backup=backup,
            dry_run=dry_run,
        )
    )


def groups_request(request: DrawRequest) -> DrawRecord:
    """The engine's groups: :func:`groups_workbook` of a typed request."""
    asked, out = request.options, request.output
    if not isinstance(asked, GroupsOptions):
        raise OptionError(f"groups take GroupsOptions, not {type(asked).__name__}")
    k, size, label = asked.k, asked.size, asked.label
    group_count(k, size, 0)  # a bad k, size or label is refused before the file is read
    check_cell_text(label, option="label")
    stream = request.seed.stream()
    teams_asked = asked.balance is not None
    job = open_request(request, groups_request, whole_rows=False)
    sel, sx = job.sel, job.sx
    check_unprotected(job.inp.book, sx, sel)  # the group column is written into the sheet
    free = free_indexes(sel.n_body, sel.kept, sel.body_top) if sel.kept else None
    n = sel.n_body if free is None else len(free)
    k = group_count(k, size, n)
    if k > max(n, 1) and n:
        raise SizeError(too_many(job.inp.path, k, n, "split into groups"))
    if sel.header:
        _refuse_label(job, label)
    spec = None
    if teams_asked:
        teams, avoided = deal_teams(
            job, free or list(range(n)), asked.balance or (), k, stream, asked.avoid
        )
        perm = permutation(n, seed=Seed.given(stream).stream())  # step 1 of section 16
        numbers: list[int | None] = list(teams.numbers)
        spec = teams.spec(k, label) | ({"avoid": avoided} if avoided else {})
    else:
        perm = permutation(n, seed=stream)
        numbers = list(group_numbers(perm, k))
    if free is not None:  # --keep-blank-rows: blank rows get no group
        spread_numbers: list[int | None] = [None] * sel.n_body
        for i, g in zip(free, numbers, strict=True):
            spread_numbers[i] = g
        numbers, perm = spread_numbers, spread(perm, sel.n_body, free)
    changes = Changes(like=sel.sheet.part)
    if sel.n_rows > 0 and not sx.empty_data:
        edits = group_column_edits(sx, sel, numbers, label, only=free)
        changes.changed[sel.sheet.part] = splice(sx.data, edits)
    written = write_workbook(
        job.inp, changes, out.path, in_place=out.in_place, backup=out.backup, dry_run=out.dry_run
    )
    output = None if out.dry_run else (job.inp.path if out.in_place else out.path)
    record = make_record("groups", job, stream, "rows", perm, written, changes, output, k=k)
    record.size = size
    if spec is not None:
        record.target["balance"] = spec
    return record


def _refuse_label(job: Job, label: str) -> None:
    """Refuse a group column whose header a cell of the header row holds already."""
    sx, top = job.sx, job.sel.top
    i = sx.index_of(top)
    if i >= len(sx) or sx.numbers[i] != top:
        return
    reader = CellReader.of(job.inp.book)
    row = sx.row(i)
    name = job.sel.sheet.name
    header = []
    for c in sx.cells(i):
        ref = cell_ref(top, c.col)
        header.append((f"cell {ref}", text_of(reader.value(row, c, f"sheet {name!r}, cell {ref}"))))
    refuse_taken_label(job.inp.path, header, label)
