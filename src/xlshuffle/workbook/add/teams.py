"""Teams in a workbook: ``groups --balance COL`` on a sheet's data rows, and an earlier
groups draw dealt again from its record.

:func:`~xlshuffle.workbook.groups_workbook` with ``balance`` deals its data rows into teams
by protocol section 16 (:func:`xlshuffle.tabledraw.teams.draw_teams`, shared with CSV/TSV
lists, so the same rows give the same teams in a list and in a workbook) and writes the
team numbers as a plain groups draw writes group numbers. The record is a groups record:
its ``permutation`` is step 1 of section 16 (the plain groups draw's shuffle) and
``target["balance"]`` holds the columns, the balance table and what was avoided, from
which :func:`~xlshuffle.workbook.verification.groups.verify_balanced_workbook` deals the
teams again.

:func:`groups_again` gives each data row's group (or team) in the draw a groups record
describes, dealt again from the input and the seed: the plain split of section 7, or the
balanced teams of section 16. ``groups --avoid`` takes an earlier draw's teams from it, and
``verify`` checks both kinds with it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from ...common.record import DrawRecord
from ...draw.errors import OptionError, WorkbookError
from ...draw.knuth import group_numbers, permutation
from ...draw.protocol import DrawStream
from ...draw.seed import Seed
from ...draw.teams import repeats
from ...tabledraw.teams import Teams, draw_teams
from ..jobs import Job, target_of
from .datarows import DataRows, recorded_free_rows

__all__ = ["deal_teams", "groups_again"]

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
    return str(target_of(job.sel).get("ref"))


def groups_again(record: DrawRecord, job: Job) -> tuple[list[int], list[int], Teams | None]:
    """The data rows (0-based; rows kept in place left out) the groups draw ``record``
    split in ``job``'s selection, each one's group dealt again, and the balanced teams
    (None for a plain split).

    Raises WorkbookError for a record whose ``k``, kept rows or balance spec is damaged.
    """
    free = recorded_free_rows(job, record)
    k = record.k
    if not isinstance(k, int) or k < 1:
        raise WorkbookError(f"record: k {k!r} is not a number of groups: the record was edited")
    spec = record.target.get("balance")
    if spec is None:
        return free, group_numbers(permutation(len(free), seed=record.seed), k), None
    try:
        given = [str(c["column"]) for c in spec["columns"]]
        before = (spec.get("avoid") or {}).get("before")
    except (KeyError, TypeError, AttributeError):
        raise WorkbookError("record: target.balance was edited or damaged") from None
    teams = draw_teams(
        DataRows(job, free).entrants(), given, k, Seed.given(record.seed).stream(), before
    )
    return free, teams.numbers, teams
