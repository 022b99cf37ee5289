"""Batch tasks on CSV/TSV lists: ``shuffle``, ``sample`` and ``groups`` of a ``.csv`` file.

Called by ``cli.batch._run_task`` for an input ending in ``.csv``, ``.tsv`` or ``.tab``;
returns the same result dict as a workbook task, so the summary line, ``--json`` and
``--record`` work unchanged. Needs no optional dependency.
"""

from __future__ import annotations

import sys
from typing import Any

from ..draw.errors import OptionError, XlshuffleError
from ..lists import DEFAULT_MAX_MB, groups_csv, is_list, sample_csv, shuffle_csv

__all__ = ["is_list", "run_list_task"]

_WORKBOOK_ONLY = (
    ("--sheet", "sheet"),
    ("--range", "cells"),
    ("--table", "table"),
    ("--columns", "columns"),
    ("--keep-blank-rows", "keep_blank_rows"),
)


def run_list_task(command: str, task: dict[str, Any], limits: dict[str, int]) -> dict[str, Any]:
    """Do one list; never raise (an option the list cannot take is flagged ``usage``)."""
    from .. import __version__
    from . import failure

    src: str = task["src"]
    try:
        for option, key in _WORKBOOK_ONLY:
            if task.get(key) is not None:
                raise OptionError(f"{src}: {option} is for workbooks; a CSV/TSV list has none")
        if command == "shuffle" and task.get("by", "rows") != "rows":
            raise OptionError(f"{src}: a CSV/TSV list shuffles whole rows only (--by rows)")
        common: dict[str, Any] = {
            "seed": task["seed"],
            "header": task["header"] is not False,
            "dry_run": task["dry_run"],
            "max_bytes": limits.get("max_file_bytes", DEFAULT_MAX_MB * 1024**2),
        }
        dst, in_place, backup = task["dst"], task["in_place"], task["backup"]
        if command == "shuffle":
            rec = shuffle_csv(src, dst, in_place=in_place, backup=backup, **common)
        elif command == "groups":
            rec = groups_csv(
                src,
                dst,
                k=task["k"],
                size=task.get("size"),
                label=task["label"],
                in_place=in_place,
                backup=backup,
                **common,
            )
        else:
            if in_place:
                raise OptionError(
                    f"{src}: sample writes the winners to stdout or -o, never over a CSV/TSV list"
                )
            sys.stdout.flush()
            rec = sample_csv(src, dst, k=task["k"], out=sys.stdout.buffer, **common)
    except (XlshuffleError, OSError) as exc:
        return failure(exc)
    rec["tool_version"] = __version__
    return {"ok": True, "record": rec}
