"""The rows of a draw as a table of values, whatever file they came from.

Raffles and audits (tickets, reserves, exclusions, strata) read columns of the
drawn rows: a weight, an amount, an ID, a stratum label. Lists and workbooks each turn
their rows into an :class:`Entrants` (values by column, and how to name a cell in a
message); :mod:`xlshuffle.tabledraw.raffles` decides which rows win from it, the same way
for both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..draw.errors import EntryError, OptionError, SeedError

__all__ = ["Column", "Entrants", "find_column"]

T = TypeVar("T")


@dataclass(frozen=True)
class Column:
    """A column an option named: as given (``"Tickets"``, ``"C"``) and its 0-based index
    within the rows."""

    given: str
    index: int

    def to_dict(self) -> dict[str, object]:
        return {"column": self.given, "index": self.index}


def find_column(
    where: str, labels: Sequence[str] | None, letters: Sequence[str], given: str, option: str
) -> int:
    """The 0-based column ``option`` names by its header text (one of ``labels``) or its
    letters (one of ``letters``); OptionError naming ``where`` if none, or if two columns
    share the header text.

    Examples
    --------
    >>> find_column("t.csv", ["Name", "Tickets"], ["A", "B"], "tickets", "--weights")
    Traceback (most recent call last):
    ...
    xlshuffle.draw.errors.OptionError: t.csv: --weights tickets: no such column (the header \
has 'Name', 'Tickets'): give a header text or a column letter (A-B)
    >>> find_column("t.csv", ["Name", "Tickets"], ["A", "B"], "b", "--weights")
    1
    """
    text = given.strip()
    if labels is not None:
        found = [j for j, label in enumerate(labels) if label.strip() == text]
        if len(found) > 1:
            raise OptionError(
                f"{where}: {option} {given}: {len(found)} columns are headed "
                f"{text!r}: give the column's letter instead"
            )
        if found:
            return found[0]
    if text.upper() in letters:
        return list(letters).index(text.upper())
    heads = ", ".join(repr(h) for h in (labels or [])[:8])
    known = f"the header has {heads}" if heads else "there is no header"
    raise OptionError(
        f"{where}: {option} {given}: no such column ({known}): give a header "
        f"text or a column letter ({letters[0]}-{letters[-1]})"
    )


@dataclass(frozen=True)
class Entrants:
    """The data rows of one draw, read by column.

    Attributes
    ----------
    where : str
        The file, for messages (``raffle.csv``).
    labels : sequence of str or None
        The header row's texts, or None without a header.
    letters : sequence of str
        Each column's letters (``A``, ``B``...; a workbook's own letters).
    n : int
        How many data rows.
    values : callable
        ``values(j)``: column ``j``'s values over the data rows, in input order.
    cell : callable
        ``cell(i, j)``: how a message names data row ``i``, column ``j``
        (``raffle.csv: cell C7``, ``book.xlsx: Tickets!C7``).
    fail : callable
        Makes the error of a value that cannot be used (the edge's own error type).
    delimiter : str or None
        A list's delimiter (``;`` lists write amounts as ``1.234,56``); None for a
        workbook.
    """

    where: str
    labels: Sequence[str] | None
    letters: Sequence[str]
    n: int
    values: Callable[[int], list[object]]
    cell: Callable[[int, int], str]
    fail: Callable[[str], Exception]
    delimiter: str | None = None

    def column(self, given: str, option: str) -> Column:
        """The column ``option`` names by its header text or its letters."""
        return Column(given, find_column(self.where, self.labels, self.letters, given, option))

    def read(
        self,
        column: Column,
        rows: Sequence[int],
        parse: Callable[[list[object]], list[T]],
    ) -> list[T]:
        """``parse`` of the column's values at ``rows``; an entry it refuses is named by
        its cell (``raffle.csv: cell C7: the weight 'abc' is not a number...``)."""
        values = self.values(column.index)
        try:
            return parse([values[i] for i in rows])
        except EntryError as exc:
            raise self.fail(f"{self.cell(rows[exc.index], column.index)}: {exc.reason}") from None
        except SeedError as exc:  # not expected from the parsers given; named all the same
            raise self.fail(f"{self.where}: {column.given}: {exc}") from None
