"""Check the winners ``sample`` printed to stdout from a CSV/TSV list, as the user saved them.

The record names no output file (the winners went to stdout), so the winners are taken
again from the input (the header record, then the records the permutation names, in draw
order) and compared field by field with the saved file (:mod:`xlshuffle.tabledraw.winners`).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping
from typing import Any

from ..draw.errors import ListError
from ..tabledraw.winners import first_difference, read_saved_table
from .lines import DEFAULT_MAX_MB
from .opened import Opened

__all__ = ["verify_winners"]

PathLike = str | os.PathLike[str]


def verify_winners(
    record: Mapping[str, Any],
    src: PathLike,
    saved: PathLike,
    *,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> None:
    """``saved`` must hold the list's header record and the recorded winners, in draw
    order, field for field as the input holds them.

    ``record`` is the draw record (a dict, as :func:`~xlshuffle.lists.sample_csv` returns
    it); its permutation is taken as it is (replaying its seed is ``verify``'s first
    step). Raises :class:`~xlshuffle.draw.errors.ListError` naming the first line of
    ``saved`` that differs.
    """
    op = Opened(src, bool(record["header"]), max_bytes)
    if op.sha256 != record["input_sha256"]:
        raise ListError(f"{op.path}: not the recorded input (SHA-256 differs)")
    lst = op.lst

    def fields(r: int) -> list[str]:
        text = bytes(lst.record(r)).decode("utf-8", "surrogateescape")
        rows = csv.reader(io.StringIO(text, newline=""), delimiter=lst.delimiter, strict=False)
        return next(rows, [])

    def line(r: int) -> int:
        return lst.data.count(b"\n", 0, lst.bounds[r]) + 1

    want = [("the header row", fields(0))] if op.header else []
    for rank, i in enumerate(record["permutation"], 1):
        r = op.first + i
        want.append((f"winner {rank} (input line {line(r)})", fields(r)))
    diff = first_difference(read_saved_table(saved, lst.delimiter), want, lst.delimiter)
    if diff is not None:
        raise ListError(f"{os.fspath(saved)}: not the winners this draw printed: {diff}")
