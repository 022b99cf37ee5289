"""Where the data is when nothing says so: the layout rules of the default selection.

Real draw lists are not clean tables. With no ``--range``, ``--table`` or ``--columns``
(and a sheet without Excel tables) these rules narrow the used range: rows left out stay
in place and are listed, with their reason, in the selection and the record; a layout
that cannot be read for sure is refused with a one-line hint:

* **title rows** - up to 3 rows above the header that each hold one text cell (a merged
  title too) are left out (``"title"``), with blank rows around them (``"blank"``), when
  the header labels at least two columns and at least half of the 10 rows under it hold
  two values or more (a wide table);
* **blank rows at the end** - rows at the bottom whose cells hold nothing but empty text
  or spaces are left out (``"blank"``); rows with no value at all are never in the used
  range;
* **total rows** - up to 3 last rows whose first non-empty cell reads Total, Totals,
  Grand total, Sum, Summe, Gesamt, Somme, Total général, 合計... (any case), or that hold a
  ``SUM``/``SUBTOTAL``/``AGGREGATE`` of a range of their own column above them, are left
  out (``"total"``), and the blank rows between them and the data with them;
* **two header rows** - a row right under the header whose cells are all text, when one
  of them stands over a column of numbers, dates or booleans, or under a merged header
  cell; and merged cells joining the header row to the row below: refused, offering the
  ``--range`` that draws the data rows only (could be data with a typo: not guessed);
* **a blank row inside the data** - a missing or value-less row between the header and
  the last data row: refused (two lists, or a gap: not guessed), offering
  ``--keep-blank-rows`` (the blank rows stay, listed in ``kept``) and the ``--range`` of
  the block above and of the block below.

A refusal is a :class:`~.suggest.LayoutRefusal`; the command names only the offers a dry
run accepts (:func:`~.suggest.refuse`).

``--columns`` only gets the second rule. At a million rows, cells are read in the top 30
rows and the bottom rows left out; blank rows inside the data are found by C-level
searches over row offsets; shared strings are looked up in the raw part, one by one.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..scan.refs import Area, col_index, col_letters
from .suggest import LayoutRefusal, Suggestion

__all__ = ["Excluded", "Layout", "Rows", "blank_runs", "find_data", "trim_blank_tail"]

TITLE_ROWS = 3  # most title rows skipped
TOP_WINDOW = 20  # rows looked at for titles and the header
BELOW = 10  # rows under the header that show the table's shape
TOTAL_ROWS = 3  # most summary rows left out at the bottom

_TOTAL_WORDS = frozenset(
    [
        "total",
        "totals",
        "grand total",
        "sum",
        "summe",
        "gesamt",
        "gesamtsumme",
        "somme",
        "total général",
        "totale",
        "totaal",
        "suma",
        "subtotal",
        "合計",
        "合计",
        "总计",
        "總計",
    ]
)
_AGGREGATE = re.compile(
    r"\s*=?\s*(?:_xlfn\.)?(?:SUM|SUBTOTAL|AGGREGATE)\s*\((?:[^():]*,)?\s*"
    r"\$?([A-Z]{1,3})\$?(\d+)\s*:\s*\$?([A-Z]{1,3})\$?(\d+)\s*\)\s*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Excluded:
    """Rows ``first..last`` (numbers) of the used range that are not data, and why:
    ``"title"``, ``"blank"`` or ``"total"``."""

    first: int
    last: int
    why: str

    def rows(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"

    def to_dict(self) -> dict[str, str]:
        return {"rows": self.rows(), "why": self.why}

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> Excluded:
        first, _, last = str(data["rows"]).partition("-")
        return cls(int(first), int(last or first), str(data["why"]))


@dataclass
class Layout:
    """Indexes of the top row (the header, if any) and last data row; rows left out."""

    top: int
    bottom: int
    excluded: list[Excluded] = field(default_factory=list)
    #: ``--keep-blank-rows``: the runs of blank rows inside the data, as row numbers.
    kept: list[tuple[int, int]] = field(default_factory=list)


#: A cell as the rules see it: (column, kind, text, formula). ``kind`` is ``"text"``,
#: ``"number"`` (dates too), ``"bool"``, ``"error"`` or ``"formula"`` (a formula whose
#: value is not known); ``formula`` is the formula's text, ``""`` for none.
Cell = tuple[int, str, str, str]


class Rows(Protocol):
    """The rows the rules read, by index: a file's stored rows or a worksheet's rows, of
    ascending ``numbers``. :meth:`cells` is called for a few rows only."""

    numbers: Sequence[int]

    def cells(self, i: int) -> list[Cell]:
        """The cells of row ``i`` that hold a value (empty text included)."""

    def merges(self) -> list[Area]: ...

    def first_blank(self, i0: int, i1: int) -> int | None:
        """The first row number without a value in rows ``i0..i1`` (missing ones too)."""

    def last_blank(self, number: int) -> int:
        """The last row of the run of rows without a value that starts at ``number``."""

    def columns(self, i0: int, i1: int) -> tuple[int, int]:
        """Leftmost and rightmost used column of rows ``i0..i1`` (for messages)."""


# ------------------------------------------------------------------------- the rules


def _filled(cells: list[Cell], cols: set[int] | None = None) -> list[Cell]:
    return [c for c in cells if (c[1] != "text" or c[2].strip()) and (cols is None or c[0] in cols)]


def _is_total(cells: list[Cell], number: int) -> bool:
    """A first non-empty cell reading Total..., or a sum of the column above."""
    if cells and cells[0][1] == "text":
        t = " ".join(cells[0][2].casefold().split()).rstrip(":").strip()
        if t in _TOTAL_WORDS or t.startswith(("total ", "totals ", "grand total")):
            return True
    for col, _, _, formula in cells:
        m = _AGGREGATE.fullmatch(formula)
        if (
            m
            and col_index(m[1].upper()) == col_index(m[3].upper()) == col
            and (max(int(m[2]), int(m[4])) < number)
        ):
            return True
    return False


def _runs(reasons: dict[int, str]) -> list[Excluded]:
    """Row number -> reason, as runs of consecutive rows with one reason."""
    out: list[Excluded] = []
    for r in sorted(reasons):
        if out and out[-1].last == r - 1 and out[-1].why == reasons[r]:
            out[-1] = Excluded(out[-1].first, r, reasons[r])
        else:
            out.append(Excluded(r, r, reasons[r]))
    return out


def _tail(
    rows: Rows, top: int, last: int, cols: set[int] | None, totals: bool
) -> tuple[int, dict[int, str]]:
    """The last data row (index), leaving out blank and total rows at the bottom."""
    nums = rows.numbers
    reasons: dict[int, str] = {}
    n_totals = 0
    while last > top:
        filled = _filled(rows.cells(last), cols)
        if not filled:
            why = "blank"
        elif totals and n_totals < TOTAL_ROWS and _is_total(filled, nums[last]):
            why, n_totals = "total", n_totals + 1
        else:
            break
        reasons[nums[last]] = why
        reasons.update(dict.fromkeys(range(nums[last - 1] + 1, nums[last]), "blank"))
        last -= 1
    return last, reasons


def trim_blank_tail(
    rows: Rows, first: int, last: int, cols: Sequence[int]
) -> tuple[int, list[Excluded]]:
    """``--columns``: the last row (index) with a value in ``cols``; the rows after it."""
    last, reasons = _tail(rows, first, last, set(cols), totals=False)
    return last, _runs(reasons)


def find_data(
    rows: Rows, first: int, last: int, *, header: bool, where: str, keep_blank: bool = False
) -> Layout:
    """The default selection's rows inside the used rows ``first..last`` (indexes); a
    :class:`~.suggest.LayoutRefusal` (``where`` starts it) for two header rows or, unless
    ``keep_blank`` (then listed in ``kept``), a blank row in the data."""
    nums = rows.numbers
    window = [(i, _filled(rows.cells(i))) for i in range(first, min(last, first + TOP_WINDOW) + 1)]
    reasons: dict[int, str] = {}
    top = first
    head = next((k for k, (_, f) in enumerate(window) if len(f) >= 2), None)
    if head:  # rows above the first row with two values: titles?
        above = [(i, f) for i, f in window[:head] if f]
        below = [f for _, f in window[head + 1 : head + 1 + BELOW] if f]
        anchors = {(a.top, a.left) for a in rows.merges() if a.right > a.left}
        titles = len(above) <= TITLE_ROWS and all(
            len(f) == 1 and (f[0][1] == "text" or (nums[i], f[0][0]) in anchors) for i, f in above
        )
        if titles and below and 2 * sum(len(f) >= 2 for f in below) >= len(below):
            top = window[head][0]
            reasons.update(dict.fromkeys(range(nums[first], nums[top]), "blank"))
            reasons.update((nums[i], "title") for i, _ in above)
    bottom, tail = _tail(rows, top, last, None, totals=True)
    reasons.update(tail)
    if header and bottom > top:
        _check_one_header(rows, top, bottom, where)
    if not keep_blank:
        _check_no_gap(rows, top, bottom, header, where)
        return Layout(top, bottom, _runs(reasons))
    i0 = top + 1 if header else top
    kept = blank_runs(rows, i0, bottom) if bottom > i0 else []
    return Layout(top, bottom, _runs(reasons), kept)


def _range(rows: Rows, top: int, bottom: int, first: int, last: int) -> str:
    """``A3:D40``: rows ``first..last`` (numbers), columns used in rows ``top..bottom``."""
    left, right = rows.columns(top, bottom)
    return f"{col_letters(left)}{first}:{col_letters(right)}{last}"


def _check_one_header(rows: Rows, top: int, bottom: int, where: str) -> None:
    nums = rows.numbers
    h, end = nums[top], nums[bottom]

    def under(first: int, what: str, when: str = "", header: bool = False) -> Suggestion:
        return Suggestion(
            {"cells": _range(rows, top, bottom, first, end), "header": header}, what, when
        )

    merges = rows.merges()
    for m in merges:
        if m.top <= h < m.bottom:
            raise LayoutRefusal(
                where,
                f"merged cells {m.a1()} join header row {h} to row {h + 1}, so the header "
                f"looks like rows {h}-{m.bottom}",
                [under(m.bottom + 1, "the rows under them (rows above stay as they are)")],
                "unmerge them",
            )
    if nums[top + 1] != h + 1:
        return
    second = _filled(rows.cells(top + 1))
    if not second or any(c[1] != "text" for c in second):
        return
    kinds_under: dict[int, set[str]] = {}
    for i in range(top + 2, min(bottom, top + 1 + BELOW) + 1):
        for col, kind, _, _ in _filled(rows.cells(i)):
            kinds_under.setdefault(col, set()).add(kind)
    spans = [m for m in merges if m.top == m.bottom == h and m.right > m.left]
    for col, _, _, _ in second:
        kinds = kinds_under.get(col, set())
        grouped = next((m for m in spans if m.left <= col <= m.right), None)
        if grouped or (kinds and kinds <= {"number", "bool"}):
            why = (
                f"merged header cell {grouped.a1()} stands over it"
                if grouped
                else f"{col_letters(col)}{h + 1} is text over numbers"
            )
            raise LayoutRefusal(
                where,
                f"rows {h}-{h + 1} look like two header rows ({why})",
                [
                    under(
                        h + 2,
                        "the rows under them (rows above stay as they are)",
                        f"if row {h + 1} is a header",
                    ),
                    under(h, "", "if it is data", True),
                ],
                "",
                decides=1,
            )


def blank_runs(rows: Rows, i0: int, i1: int) -> list[tuple[int, int]]:
    """The runs of rows without a value (missing ones too) in rows ``i0..i1`` (indexes),
    as ``(first, last)`` row numbers: C-level searches, one per run."""
    nums, out = rows.numbers, list[tuple[int, int]]()
    while i0 <= i1:
        first = rows.first_blank(i0, i1)
        if first is None:
            break
        last = min(rows.last_blank(first), nums[i1])
        out.append((first, last))
        i0 = bisect_left(nums, last + 1)
    return out


def _check_no_gap(rows: Rows, top: int, bottom: int, header: bool, where: str) -> None:
    """Refuse a blank row among the data rows: two lists, or a gap? Not guessed, but the
    refusal offers what draws: the rows around it, the block above, the block below."""
    i0 = top + 1 if header else top
    if bottom <= i0:
        return
    first = rows.first_blank(i0, bottom)
    if first is None:
        return
    last, nums = rows.last_blank(first), rows.numbers
    n0, it = nums[top], "it" if first == last else "them"
    what = f"row {first} is" if first == last else f"rows {first}-{last} are"
    stays = "it stays" if first == last else "they stay"
    offers = [
        Suggestion({"keep_blank_rows": True}, f"the other rows around {it} ({stays} in place)")
    ]
    if first - 2 > (n0 if header else n0 - 1):  # a block of one row draws nothing
        offers.append(
            Suggestion(
                {"cells": _range(rows, top, bottom, n0, first - 1), "header": header},
                f"only the rows above {it}",
            )
        )
    k = bisect_left(nums, last + 1)  # the block below ends at the next blank row
    after = rows.first_blank(k, bottom) if k <= bottom else None
    end = nums[bottom] if after is None else after - 1
    if end > last + 1:
        offers.append(
            Suggestion(
                {"cells": _range(rows, top, bottom, last + 1, end), "header": False},
                f"only the rows below {it}",
            )
        )
    raise LayoutRefusal(
        where,
        f"{what} blank inside the data {_range(rows, top, bottom, n0, nums[bottom])}",
        offers,
        f"delete {it}",
    )
