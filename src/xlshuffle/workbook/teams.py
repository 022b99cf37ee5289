"""Balanced teams in a workbook: ``groups --balance COL`` on a sheet's data rows.

:func:`~xlshuffle.workbook.groups_workbook` with ``balance`` deals its data rows into teams
by protocol section 16 (:func:`xlshuffle.tabledraw.teams.draw_teams`, shared with CSV/TSV
lists, so the same rows give the same teams in a list and in a workbook) and writes the
team numbers as a plain groups draw writes group numbers. The record is a groups record:
its ``permutation`` is step 1 of section 16 (the plain groups draw's shuffle) and
``target["balance"]`` holds the columns, the balance table and what was avoided, from
which :func:`verify_balanced_workbook` deals the teams again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from ..common.digest import file_sha256
from ..common.record import DrawRecord
from ..draw.errors import OptionError, WorkbookError
from ..draw.knuth import permutation
from ..draw.protocol import DrawStream
from ..draw.teams import repeats
from ..tabledraw.teams import Teams, balance_table, draw_teams
from .jobs import Job, _target_of, job_from_record
from .raffle import DataRows
from .selection.keep import spread
from .verify_groups import groups_again, verify_group_column

__all__ = ["deal_teams", "verify_balanced_workbook"]

PathLike = str | os.PathLike[str]


def deal_teams(
    job: Job,
    free: list[int],
    balance: Sequence[str],
    k: int,
    stream: DrawStream,
    avoid: PathLike | None,
) -> tuple[Teams, dict[str, Any] | None]:
    """The teams of the data rows ``free`` (0-based data-row indexes), and the record's
    ``avoid`` entry when ``avoid`` (an earlier groups draw's record) was given."""
    before = None if avoid is None else _avoid_of_record(os.fspath(avoid), job, free)
    teams = draw_teams(DataRows(job, free).entrants(), balance, k, stream, before)
    if before is None or avoid is None:
        return teams, None
    spec = {"file": os.fspath(avoid), "before": before, "repeats": repeats(before, teams.numbers)}
    return teams, spec


def _avoid_of_record(name: str, job: Job, free: list[int]) -> list[int | None]:
    """Each entrant's team in the earlier groups draw of the same rows that the record
    ``name`` describes (plain or balanced; dealt again from this very workbook)."""
    if not name.lower().endswith(".json"):
        raise OptionError(
            f"--avoid {name}: for a workbook, give the earlier groups draw's record (the "
            "JSON file its --record wrote)"
        )
    try:
        with open(name, encoding="utf-8") as fh:
            data = json.load(fh)
        rec = DrawRecord.from_dict(data) if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError, RecursionError):
        rec = None
    sel = job.sel
    if rec is None or rec.command != "groups" or rec.input_sha256 != job.inp.sha256:
        raise OptionError(
            f"--avoid {name}: not the record of a groups draw of {job.inp.path}: give that "
            "draw's record (--record FILE when it was drawn)"
        )
    if rec.sheet != sel.sheet.name or rec.target.get("ref") != _ref_of(job):
        raise OptionError(
            f"--avoid {name}: that draw split {rec.selection} of sheet {rec.sheet!r}, not "
            f"these rows: draw with the same --sheet/--range/--table"
        )
    earlier_free, earlier, _ = groups_again(rec, job)
    by_row = dict(zip(earlier_free, earlier, strict=True))
    return [by_row.get(d) for d in free]


def _ref_of(job: Job) -> str:
    return str(_target_of(job.sel).get("ref"))


def verify_balanced_workbook(
    record: DrawRecord, src: PathLike | None, saved: PathLike | None = None
) -> None:
    """Deal the balanced teams of ``record`` again from ``src`` and its seed; check the
    record's shuffle and balance table, and ``saved`` (the output) by its SHA-256 or, when
    its bytes differ (re-saved), by the team column's cells.

    Raises
    ------
    WorkbookError
        At the first difference: not the recorded input, a permutation or balance table
        the seed does not give again, an output that is not the one written.
    OptionError
        Without ``src`` (the balancing columns are read from it).
    """
    if src is None:
        raise OptionError(
            f"record: the balanced teams of {record.input} are dealt again from its input, "
            "which holds the balancing columns: pass input= (--input IN) too"
        )
    record.check_protocol()
    path = os.fspath(src)
    record.check_input(path)
    job = job_from_record(path, record)
    sel = job.sel
    free, numbers, teams = groups_again(record, job)
    perm = permutation(len(free), seed=record.seed)
    if free != list(range(sel.n_body)):
        perm = spread(perm, sel.n_body, free)
    if perm != record.permutation:
        raise WorkbookError(f"record: seed {record.seed!r} does not give this permutation")
    k = int(record.k or 0)  # checked by groups_again
    want = record.target["balance"].get("teams")
    if teams is None or balance_table(teams.columns, teams.keys, numbers, k) != want:
        raise WorkbookError("record: target.balance.teams is not what the draw gives again")
    if saved is not None and file_sha256(saved) != record.output_sha256:
        # other bytes (re-saved by Excel?): the team column, cell by cell
        verify_group_column(record, job, saved, dict(zip(free, numbers, strict=True)))
