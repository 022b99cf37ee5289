"""Raffles and audits on a workbook: tickets, reserves, exclusions, strata and audits.

:func:`draw_sample` reads the selection's data rows into an
:class:`~xlshuffle.tabledraw.entrants.Entrants` (values by column, with the engine's own
reader: shared strings, dates, a formula's cached value), lets
:mod:`xlshuffle.tabledraw.raffles` choose the rows (the same code a CSV/TSV list's draw
uses), and returns them with the table ``sample_workbook`` writes: the labels and the
drawn rows in output order, the added columns (``Role``, ``Rank``, ``Hits``) after the
last one, as a list's draw adds its fields. Blank rows kept in place
(``--keep-blank-rows``) are no entrants; ``permutation`` and the recorded exclusion name
data rows (0-based, blank ones counted) as everywhere else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from ..common.celltext import text_of
from ..draw.errors import OptionError, SeedError, WorkbookError
from ..draw.knuth import check_count
from ..draw.protocol import DrawStream
from ..draw.raffle import canonical_id
from ..tabledraw.entrants import Entrants
from ..tabledraw.raffle_options import parse_method
from ..tabledraw.raffle_parts import label_text
from ..tabledraw.raffles import Drawn, DrawOptions, choose, exclusion_of
from .draws import CellReader
from .jobs import Job
from .scan.refs import cell_ref, col_letters, quote_sheet
from .selection.keep import free_indexes, parse_kept

__all__ = ["DataRows", "draw_options", "draw_sample", "free_rows", "to_data_rows"]

#: The keywords of ``sample_workbook`` that ask for a raffle or an audit, and their
#: defaults (all of them at their default: a plain sample).
DRAW_DEFAULTS: dict[str, Any] = {
    "weights": None,
    "reserves": 0,
    "exclude_ids": None,
    "id": None,
    "strata": None,
    "method": "random",
    "amount": None,
    "total": None,
    "strata_counts": None,
    "one_entry_per_id": False,
    "all_of_small_strata": False,
}


def draw_options(k: int | None, keywords: dict[str, Any]) -> DrawOptions | None:
    """The draw ``sample_workbook``'s keywords ask for, or None when each is at its
    default (a plain sample, exactly as before); OptionError for ones that cannot
    combine. ``k`` is None when ``total`` or ``strata_counts`` says how many."""
    shared = keywords["total"] is not None or keywords["strata_counts"] is not None
    if (k is None) != shared:
        raise OptionError(
            "give k, or total or strata_counts with strata (how many to draw), not both"
            if shared
            else "k is required: how many rows to draw"
        )
    if all(
        keywords[key] is None if value is None else keywords[key] == value
        for key, value in DRAW_DEFAULTS.items()
    ):  # `is None`: an array of IDs compares element by element
        return None
    ids = keywords["exclude_ids"]
    opts = DrawOptions(
        k=k or 0,
        total=keywords["total"],
        counts=_counts(keywords["strata_counts"]),
        method=parse_method(keywords["method"]),
        weights=keywords["weights"],
        amount=keywords["amount"],
        reserves=keywords["reserves"],
        strata=keywords["strata"],
        id=keywords["id"],
        excluded=None if ids is None else _canonical(ids),
        one_entry_per_id=bool(keywords["one_entry_per_id"]),
        all_of_small_strata=bool(keywords["all_of_small_strata"]),
    )
    opts.check()
    return opts


def _counts(given: object) -> tuple[tuple[str, int], ...] | None:
    """``strata_counts`` (a mapping or ``(stratum, count)`` pairs) as DrawOptions holds it."""
    if given is None:
        return None
    try:
        pairs = list(given.items()) if isinstance(given, Mapping) else list(given)  # type: ignore[call-overload]
        return tuple((label_text(a) or "", check_count("count", n)) for a, n in pairs)
    except (TypeError, ValueError, SeedError):
        raise OptionError(
            "strata_counts: give each stratum's count, {'North': 2, 'South': 1}"
        ) from None


def _canonical(ids: Iterable[object]) -> tuple[str, ...]:
    """The excluded IDs as the texts they are matched by (a number as ``42``)."""
    if isinstance(ids, str | bytes):
        raise OptionError(
            "exclude_ids: give a list of IDs (exclude_ids=['M01', 'M07']), not one text"
        )
    out = []
    for n, value in enumerate(ids, 1):
        try:
            out.append(canonical_id(value))
        except SeedError:
            raise OptionError(
                f"exclude_ids: ID {n} ({value!r}) cannot be an ID: give texts or numbers"
            ) from None
    return tuple(out)


def free_rows(job: Job, kept: list[tuple[int, int]]) -> list[int]:
    """The data rows (0-based) that are entrants: all, less the blank rows ``kept`` in
    place."""
    sel = job.sel
    return free_indexes(sel.n_body, kept, sel.body_top) if kept else list(range(sel.n_body))


def recorded_free_rows(job: Job, record: Any) -> list[int]:
    """:func:`free_rows` of the rows a draw ``record`` (a ``DrawRecord``) kept in place
    (``target.kept``), found again in ``job``'s selection; WorkbookError for a record whose
    kept rows do not fit it."""
    sel = job.sel
    try:
        return free_rows(job, parse_kept(record.target, sel.body_top, sel.n_body))
    except ValueError as exc:
        raise WorkbookError(f"record: target.kept: {exc}: the record was edited") from None


class DataRows:
    """The selection's data rows ``free`` (0-based data-row indexes) as entrants, read
    column by column when a draw asks for a column, and row by row for the output."""

    def __init__(self, job: Job, free: list[int]) -> None:
        self.job = job
        self.free = free
        self.reader = CellReader.of(job.inp.book)
        self._columns: dict[int, list[object]] = {}

    def _place(self, number: int, col: int) -> str:
        return f"sheet {self.job.sel.sheet.name!r}, cell {cell_ref(number, col)}"

    def row(self, number: int) -> list[object]:
        """Row ``number``'s values in the selection's columns (None for an empty cell)."""
        sx, cols = self.job.sx, self.job.sel.cols
        i = sx.index_of(number)
        got: dict[int, object] = {}
        if i < len(sx) and sx.numbers[i] == number:
            row, wanted = sx.row(i), set(cols)
            got = {
                c.col: self.reader.value(row, c, self._place(number, c.col))
                for c in sx.cells(i)
                if c.col in wanted
            }
        return [got.get(c) for c in cols]

    def column(self, j: int) -> list[object]:
        """The values of the selection's column ``j`` (0-based) over the entrants."""
        if j not in self._columns:
            sx, sel = self.job.sx, self.job.sel
            col, out = sel.cols[j], list[object]()
            for d in self.free:
                number = sel.body_top + d
                i = sx.index_of(number)
                value = None
                if i < len(sx) and sx.numbers[i] == number:
                    row = sx.row(i)
                    cell = next((c for c in sx.cells(i) if c.col == col), None)
                    if cell is not None:
                        name = f"{self.job.inp.path}: {quote_sheet(sel.sheet.name)}!"
                        name += cell_ref(number, col)
                        value = self.reader.known(row, cell, self._place(number, col), name)
                out.append(value)
            self._columns[j] = out
        return self._columns[j]

    def cell(self, i: int, j: int) -> str:
        """``book.xlsx: Tickets!C7``: entrant ``i``'s cell in column ``j``."""
        sel = self.job.sel
        ref = cell_ref(sel.body_top + self.free[i], sel.cols[j])
        return f"{self.job.inp.path}: {quote_sheet(sel.sheet.name)}!{ref}"

    def labels(self) -> list[object]:
        """The header row's values, or the column letters without a header."""
        sel = self.job.sel
        return self.row(sel.top) if sel.header else [col_letters(c) for c in sel.cols]

    def entrants(self) -> Entrants:
        sel = self.job.sel
        return Entrants(
            where=self.job.inp.path,
            labels=[text_of(v) for v in self.labels()] if sel.header else None,
            letters=[col_letters(c) for c in sel.cols],
            n=len(self.free),
            values=self.column,
            cell=self.cell,
            fail=WorkbookError,
        )

    def table(self, drawn: Drawn) -> list[list[object]]:
        """The labels and the drawn rows (``drawn.rows`` are data rows), each followed by
        its added values."""
        top = self.job.sel.body_top
        rows = [
            [*self.row(top + d), *extra] for d, extra in zip(drawn.rows, drawn.extra, strict=True)
        ]
        return [[*self.labels(), *drawn.extra_labels], *rows]


def to_data_rows(drawn: Drawn, free: list[int]) -> Drawn:
    """``drawn`` (rows numbered among the entrants) with its rows, and the recorded
    exclusion's, numbered among all the data rows (its ``parts`` keep the entrants'
    numbering: they are the draw's own working, not written anywhere)."""
    spec = dict(drawn.spec)
    if spec.get("exclusion") is not None:
        spec["exclusion"] = {
            **spec["exclusion"],
            "rows": [free[r] for r in spec["exclusion"]["rows"]],
        }
    return dataclasses.replace(drawn, rows=[free[r] for r in drawn.rows], spec=spec)


def draw_sample(
    job: Job, opts: DrawOptions, stream: DrawStream
) -> tuple[Drawn, list[list[object]]]:
    """The rows ``opts`` draws from the job's selection (numbered among its data rows, in
    output order), and the table that shows them."""
    free = free_rows(job, job.sel.kept)
    rows = DataRows(job, free)
    ents = rows.entrants()
    excluded = exclusion_of(ents, opts, opts.columns(ents).get("id"))
    drawn = to_data_rows(choose(ents, opts, stream, excluded), free)
    return drawn, rows.table(drawn)
