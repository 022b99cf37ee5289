"""The exception tree of xlshuffle.

::

    XlshuffleError                 base of everything xlshuffle raises on purpose
    ├── SeedError       (ValueError)   a seed that cannot be normalised (TRUE, NaN, a list)
    ├── SizeError       (ValueError)   counts that do not fit (k > n, n < 0, deck too small)
    ├── OptionError     (ValueError)   an unknown mode, unit or option value
    ├── ShapeError      (ValueError)   a ragged or empty grid
    ├── WorkbookError   (ValueError)   a workbook that cannot be read or safely written
    ├── ListError       (ValueError)   a line or CSV/TSV list that cannot be read or drawn
    └── EntryError      (ValueError)   one entrant's weight, amount, ID or stratum that
                                       cannot be used; ``.index`` says which (0-based)

Every leaf is also a :class:`ValueError`, so ``except ValueError`` keeps working for
callers that do not know xlshuffle. Messages say what was wrong *and* how to fix it.
"""

from __future__ import annotations

import re

__all__ = [
    "EntryError",
    "ListError",
    "OptionError",
    "SeedError",
    "ShapeError",
    "SizeError",
    "WorkbookError",
    "XlshuffleError",
]


# line breaks and other control characters, which a message may quote from a file
_CONTROL = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")


class XlshuffleError(Exception):
    """Base class of every error xlshuffle raises on purpose.

    A message is one line: a line break or other control character in it (quoted from a
    damaged file, say) is shown escaped, as ``\\n``.
    """

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str) and _CONTROL.search(args[0]):
            args = (_CONTROL.sub(lambda m: repr(m[0])[1:-1], args[0]),)
        super().__init__(*args)


class SeedError(XlshuffleError, ValueError):
    """A seed that the draw protocol cannot normalise (a boolean, NaN, infinity, a list...)."""


class SizeError(XlshuffleError, ValueError):
    """Counts that do not fit: more items asked for than there are, a negative size..."""


class OptionError(XlshuffleError, ValueError):
    """An option value that is not one of the allowed ones (a mode name, a text unit...)."""


class ShapeError(XlshuffleError, ValueError):
    """A grid whose rows differ in length, or another shape the operation cannot keep."""


class WorkbookError(XlshuffleError, ValueError):
    """A workbook that cannot be read, or cannot be written without losing something."""


class ListError(XlshuffleError, ValueError):
    """A draw list (lines, CSV or TSV) that cannot be read or drawn: empty, too large..."""


class EntryError(XlshuffleError, ValueError):
    """One entrant's value (a weight, an amount, an ID, a stratum label) that cannot be used.

    Attributes
    ----------
    index : int
        The entrant's 0-based position in the list given, so a front end can name the
        cell (``A2`` for index 0 below a header).
    reason : str
        What is wrong and how to fix it, without the position.

    Examples
    --------
    >>> err = EntryError(3, "'abc' is not a number: write a whole number of tickets such as 3")
    >>> err.index, str(err)
    (3, "item 3 (0-based): 'abc' is not a number: write a whole number of tickets such as 3")
    """

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"item {index} (0-based): {reason}")
        self.index = index
        self.reason = reason

    def __reduce__(self) -> tuple[type[EntryError], tuple[int, str]]:
        # so that it survives pickling (a worker process of batch mode, say)
        return EntryError, (self.index, self.reason)
