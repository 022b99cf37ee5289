"""One file's draw, as the command line asked for it: :class:`Task`.

``shuffle``, ``sample`` and ``groups`` build one task per input file and hand it to the
workbook engine (:mod:`xlshuffle.workbook`) or to the list engine (:mod:`xlshuffle.lists`)
through their public keyword APIs; a task crosses into a worker process with ``--jobs N``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Command", "Task"]

#: The subcommands that draw on files.
Command = Literal["shuffle", "sample", "groups"]


@dataclass(frozen=True, kw_only=True)
class Task:
    """One draw on one file: what to draw, how, and where the result goes.

    ``options`` holds the options of the command's own (``by`` for shuffle, ``k``,
    ``sheet_name`` and, for issue 20's draws, ``draw`` (a ``DrawOptions``) for sample,
    ``k``, ``size`` and ``label`` for groups), by their keyword names; ``limits`` are the
    keyword arguments of :func:`xlshuffle.workbook.raised`.
    """

    command: Command
    src: str
    dst: str | None
    seed: str
    sheet: str | None = None
    cells: str | None = None
    table: str | None = None
    columns: str | None = None
    header: bool | None = None
    keep_blank_rows: bool = False
    in_place: bool = False
    backup: bool = True
    dry_run: bool = False
    limits: dict[str, int] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def workbook_keywords(self) -> dict[str, Any]:
        """The keyword arguments of ``shuffle_workbook``, ``sample_workbook`` or
        ``groups_workbook`` (``keep_blank_rows`` only when asked for, as the command line
        has always passed it)."""
        keywords: dict[str, Any] = {
            "src": self.src,
            "dst": self.dst,
            "sheet": self.sheet,
            "cells": self.cells,
            "table": self.table,
            "columns": self.columns,
            "header": self.header,
            "seed": self.seed,
            "in_place": self.in_place,
            "backup": self.backup,
            "dry_run": self.dry_run,
            **self.options,
        }
        if self.keep_blank_rows:
            keywords["keep_blank_rows"] = True
        draw = keywords.pop("draw", None)
        if draw is not None:  # issue 20's draws: sample_workbook's keywords of the same names
            keywords |= {
                "weights": draw.weights,
                "reserves": draw.reserves,
                "exclude_ids": draw.excluded,
                "id": draw.id,
                "strata": draw.strata,
                "method": draw.method,
                "amount": draw.amount,
                "total": draw.total,
                "strata_counts": draw.counts,
                "one_entry_per_id": draw.one_entry_per_id,
                "all_of_small_strata": draw.all_of_small_strata,
            }
        return keywords

    def workbook_only(self) -> list[str]:
        """The options given that only a workbook can take (a CSV/TSV list refuses them)."""
        given = (
            ("--sheet", self.sheet is not None),
            ("--range", self.cells is not None),
            ("--table", self.table is not None),
            ("--columns", self.columns is not None),
            ("--keep-blank-rows", self.keep_blank_rows),
        )
        return [option for option, is_given in given if is_given]
