"""Batch tasks on CSV/TSV lists: ``shuffle``, ``sample`` and ``groups`` of a ``.csv`` file.

Called by ``cli.batch._run_task`` for an input ending in ``.csv``, ``.tsv`` or ``.tab``;
returns the same result dict as a workbook task, so the summary line, ``--json`` and
``--record`` work unchanged. Needs no optional dependency.
"""

from __future__ import annotations

import io
from typing import Any

from ..draw.errors import OptionError, XlshuffleError
from ..lists import DEFAULT_MAX_MB, groups_csv, is_list, sample_csv, shuffle_csv
from ..lists.raffle import draw_csv
from ..lists.teams import balanced_groups_csv
from .task import Task

__all__ = ["is_list", "run_list_task"]


def run_list_task(task: Task) -> dict[str, Any]:
    """Do one list; never raise (an option the list cannot take is flagged ``usage``)."""
    from .. import __version__
    from . import failure

    src, options = task.src, task.options
    printed = None
    try:
        if workbook_only := task.workbook_only():
            raise OptionError(
                f"{src}: {workbook_only[0]} is for workbooks; a CSV/TSV list has none"
            )
        if task.command == "shuffle" and options.get("by", "rows") != "rows":
            raise OptionError(f"{src}: a CSV/TSV list shuffles whole rows only (--by rows)")
        common: dict[str, Any] = {
            "seed": task.seed,
            "header": task.header is not False,
            "dry_run": task.dry_run,
            "max_bytes": task.limits.get("max_file_bytes", DEFAULT_MAX_MB * 1024**2),
        }
        dst, in_place, backup = task.dst, task.in_place, task.backup
        if task.command == "shuffle":
            rec = shuffle_csv(src, dst, in_place=in_place, backup=backup, **common)
        elif task.command == "groups" and "balance" in options:
            rec = balanced_groups_csv(
                src,
                dst,
                balance=options["balance"],
                avoid=options.get("avoid"),
                k=options["k"],
                size=options.get("size"),
                label=options["label"],
                in_place=in_place,
                backup=backup,
                **common,
            )
        elif task.command == "groups":
            rec = groups_csv(
                src,
                dst,
                k=options["k"],
                size=options.get("size"),
                label=options["label"],
                in_place=in_place,
                backup=backup,
                **common,
            )
        else:
            rec, printed = _sample(task, common)
    except (XlshuffleError, OSError) as exc:
        return failure(exc)
    rec["tool_version"] = __version__
    result = {"ok": True, "record": rec}
    if printed is not None:
        result["printed"] = printed
    return result


def _sample(task: Task, common: dict[str, Any]) -> tuple[dict[str, Any], bytes | None]:
    """A sample of a list: its record, and the winners to print on stdout (None when they
    went to a file), which the report prints as they are or inside ``--json``'s document."""
    src, dst, options = task.src, task.dst, task.options
    if task.in_place:
        raise OptionError(
            f"{src}: sample writes the winners to stdout or -o, never over a CSV/TSV list"
        )
    out = io.BytesIO()
    if "draw" in options:
        rec = draw_csv(src, dst, options=options["draw"], out=out, **common)
    else:
        rec = sample_csv(src, dst, k=options["k"], out=out, **common)
    return rec, out.getvalue() if dst is None and not task.dry_run else None
