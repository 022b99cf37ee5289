"""A monetary-unit sample's rows set aside (amounts of 0 or below), written to a file of
their own (``--set-aside-output``), as the sample itself is written: a copy of the
workbook with a new sheet ``Set aside`` (the rows' own cells, styles kept), or the rows
as CSV/TSV. The sheet holds the labels and the rows in input order, nothing added.
"""

from __future__ import annotations

from ...common.names import free_sheet_name
from ...common.setaside import SET_ASIDE_OPTION, SET_ASIDE_SHEET, nothing_set_aside
from ...common.targets import check_another_output
from ...tabledraw.raffles import Drawn
from ..jobs import Job
from ..package.readwrite import Changes, check_output_name, write_workbook
from .datarows import DataRows, free_rows
from .plain_sample import write_csv
from .sheetxml import sample_sheet_xml

__all__ = [
    "LIST_OUTPUTS",
    "check_set_aside",
    "set_aside_rows",
    "set_aside_sheet",
    "set_aside_table",
    "write_set_aside",
]

#: Names written as a list (tab-separated for .tsv and .tab), not a workbook.
LIST_OUTPUTS = (".csv", ".tsv", ".tab")


def check_set_aside(job: Job, target: str, output: str | None) -> None:
    """Refuse, before the sample is written, a file the rows set aside cannot go to: the
    input, the sample's own output, a folder, a name that is neither a workbook of the
    input's kind nor a CSV/TSV list (OptionError naming ``--set-aside-output``)."""
    taken = {"the input": job.inp.path, "the sample's output (-o)": output}
    check_another_output(target, SET_ASIDE_OPTION, taken)
    if not target.lower().endswith(LIST_OUTPUTS):
        also = " (or .csv for CSV, .tsv for TSV)"
        check_output_name(job.inp.book, job.inp.path, target, also=also, option=SET_ASIDE_OPTION)


def set_aside_rows(free: list[int], drawn: Drawn) -> list[int]:
    """The data rows (0-based, blank rows kept in place counted) ``drawn`` set aside, of
    the entrants ``free`` (their data rows)."""
    return [free[r] for r in drawn.set_aside()]


def set_aside_table(job: Job, rows: list[int]) -> list[list[object]]:
    """The labels (or the column letters), then the values of each data row of ``rows``."""
    data = DataRows(job, [])
    top = job.sel.body_top
    return [data.labels(), *(data.row(top + d) for d in rows)]


def set_aside_sheet(job: Job) -> str:
    """The name of the sheet the rows go to in a copy of the workbook: ``Set aside``, or
    ``Set aside 2``... when the workbook has one."""
    return free_sheet_name(SET_ASIDE_SHEET, {s.name for s in job.inp.book.sheets})


def write_set_aside(
    job: Job, drawn: Drawn, target: str, *, dry_run: bool, notes: list[str]
) -> tuple[str | None, str | None]:
    """Write the rows ``drawn`` set aside to ``target`` (checked by :func:`check_set_aside`);
    the path and the SHA-256 written (None, None in a dry run, or when no row was set
    aside: then ``notes`` says so, and nothing is written)."""
    rows = set_aside_rows(free_rows(job, job.sel.kept), drawn)
    if not rows:
        notes.append(nothing_set_aside(target))
        return None, None
    if target.lower().endswith(LIST_OUTPUTS):
        written = write_csv(target, set_aside_table(job, rows), dry_run=dry_run)
    else:
        book = job.inp.book
        xml = sample_sheet_xml(book, job.sx, job.sel, rows, added=([], [[] for _ in rows]))
        changed, part = book.add_sheet(set_aside_sheet(job), xml)
        changes = Changes(changed=dict(changed), added=[(part, xml)], like=job.sel.sheet.part)
        written = write_workbook(
            job.inp, changes, target, in_place=False, backup=False, dry_run=dry_run
        )
    return (None, None) if written.sha256 is None else (target, written.sha256)
