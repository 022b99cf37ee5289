"""The files beyond the list that a draw reads: ``--exclude`` (the IDs that cannot win)
and ``--strata-counts`` (each stratum's count). One reader each, for the draw, a committed
draw and ``verify`` alike."""

from __future__ import annotations

import csv
import json
from typing import Any

from ..draw.errors import OptionError

__all__ = ["read_counts", "read_excluded"]

_MAX_EXCLUDE_BYTES = 256 * 1024**2
_MAX_COUNTS_BYTES = 16 * 1024**2


def read_counts(path: str) -> tuple[tuple[str, int], ...]:
    """A ``--strata-counts`` file: ``stratum,count`` a line (comma, semicolon or tab), a
    header line allowed first, blank lines skipped."""
    with open(path, "rb") as fh:
        data = fh.read(_MAX_COUNTS_BYTES + 1)
    if len(data) > _MAX_COUNTS_BYTES:
        raise OptionError(f"--strata-counts {path}: more than 16 MB: not a table of counts")
    lines = data.decode("utf-8-sig", "replace").splitlines()
    sample = next((line for line in lines if line.strip()), "")
    delimiter = max("\t;,", key=sample.count)
    out: list[tuple[str, int]] = []
    for number, fields in enumerate(csv.reader(lines, delimiter=delimiter), 1):
        if not any(f.strip() for f in fields):
            continue
        count = fields[1].strip().replace("_", "") if len(fields) == 2 else ""
        if len(fields) == 2 and count.isdigit():
            out.append((fields[0].strip(), int(count)))
        elif out or number > 1 or len(fields) != 2 or _numberish(count):
            # only the first line may be a header, and a header's count is not a number
            raise OptionError(
                f"--strata-counts {path}: line {number} is not 'stratum,count' (a whole "
                "number 0 or more): write one stratum and its count a line"
            )
    if not out:
        raise OptionError(f"--strata-counts {path}: no 'stratum,count' lines")
    return tuple(out)


def read_excluded(path: str) -> tuple[str, ...]:
    """The IDs a ``--exclude`` file lists: an xlshuffle record's winners, or one ID a
    line of a text file (blank lines skipped)."""
    with open(path, "rb") as fh:
        data = fh.read(_MAX_EXCLUDE_BYTES + 1)
    if len(data) > _MAX_EXCLUDE_BYTES:
        raise OptionError(f"--exclude {path}: more than 256 MB: not a list of IDs")
    text = data.decode("utf-8-sig", "replace")
    if text.lstrip()[:1] in ("{", "["):
        return _record_winners(path, text)
    return tuple(line for line in text.splitlines() if line.strip())


def _numberish(text: str) -> bool:
    return bool(text) and text.lstrip("+-").replace(".", "").replace(",", "").isdigit()


def _record_winners(path: str, text: str) -> tuple[str, ...]:
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OptionError(
            f"--exclude {path}: not a readable record (JSON error at line {exc.lineno})"
        ) from None
    out: list[str] = []
    for rec in data if isinstance(data, list) else [data]:
        spec = (rec.get("target") or {}).get("draw") if isinstance(rec, dict) else None
        winners = spec.get("winners") if isinstance(spec, dict) else None
        if not isinstance(winners, list):
            raise OptionError(
                f"--exclude {path}: the record names no winners by ID: draw with --id COL "
                "to record them, or give a text file of IDs, one per line"
            )
        out += [str(w) for w in winners]
    return tuple(out)
