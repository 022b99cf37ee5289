"""What the user asked to draw, read before the workbook is (the request's
:class:`~xlshuffle.common.request.Region` says which):
``--range`` (:func:`user_range`) and ``--columns`` (:func:`parse_columns`), each refused in
one line that shows how to write it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...draw.errors import OptionError
from ..scan.refs import MAX_COL, MAX_ROW, col_index, parse_area

__all__ = ["parse_columns", "user_range"]


def parse_columns(spec: str | Sequence[str]) -> list[int]:
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    out: set[int] = set()
    for part in (p.strip().upper() for p in parts):
        first, _, last = part.partition(":")
        if not re.fullmatch(r"[A-Z]{1,3}", first) or (
            last and not re.fullmatch(r"[A-Z]{1,3}", last)
        ):
            raise OptionError(
                f"columns: {part!r} is not a column letter: use letters such as 'B,D' or 'B:D'"
            )
        a, b = col_index(first), col_index(last or first)
        if max(a, b) > MAX_COL:
            raise OptionError(f"columns: {part!r} is past column XFD, the last one of a sheet")
        out.update(range(min(a, b), max(a, b) + 1))
    if not out:
        raise OptionError("columns: give at least one column letter, such as 'B'")
    return sorted(out)


_A1_PART = re.compile(r"\s*\$?([A-Za-z]{0,3})\$?(\d{0,7})\s*")


def user_range(text: str) -> tuple[int, int, int, int]:
    """``--range``: (top, left, bottom, right), or a usage error that shows how to
    write it. Stricter than a range read from a file: no bare column or row, no
    corners in reverse."""
    how = (
        "write it like 'A2:D200', 'A:D', '2:200' or 'Sheet1!A2:D200' (columns A-XFD, "
        f"rows 1-{MAX_ROW})"
    )
    area = parse_area(text.replace("$", ""))
    found = [_A1_PART.fullmatch(p) for p in text.split(":")]
    parts = [(m[1].upper(), m[2]) for m in found if m is not None]
    if area is None or len(parts) != len(found) or (len(parts) == 1 and not all(parts[0])):
        raise OptionError(f"--range {text!r} is not an A1 range on a sheet: {how}")
    if len(parts) == 2:
        (c0, r0), (c1, r1) = parts
        cols = sorted((c0, c1), key=lambda c: (len(c), c))
        rows = sorted((r0, r1), key=lambda r: int(r or 0))
        if [c0, c1] != cols or [r0, r1] != rows:
            raise OptionError(
                f"--range {text!r} runs backwards: write it top-left first, as "
                f"'{cols[0]}{rows[0]}:{cols[1]}{rows[1]}'"
            )
    return area.top, area.left, area.bottom, area.right
