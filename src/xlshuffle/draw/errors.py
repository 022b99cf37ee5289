"""The exception tree of xlshuffle.

::

    XlshuffleError                 base of everything xlshuffle raises on purpose
    ├── SeedError       (ValueError)   a seed that cannot be normalised (TRUE, NaN, a list)
    ├── SizeError       (ValueError)   counts that do not fit (k > n, n < 0, deck too small)
    ├── OptionError     (ValueError)   an unknown mode, unit or option value
    ├── ShapeError      (ValueError)   a ragged or empty grid
    ├── WorkbookError   (ValueError)   a workbook that cannot be read or safely written
    └── ListError       (ValueError)   a line or CSV/TSV list that cannot be read or drawn

Every leaf is also a :class:`ValueError`, so ``except ValueError`` keeps working for
callers that do not know xlshuffle. Messages say what was wrong *and* how to fix it.
"""

from __future__ import annotations

__all__ = [
    "ListError",
    "OptionError",
    "SeedError",
    "ShapeError",
    "SizeError",
    "WorkbookError",
    "XlshuffleError",
]


class XlshuffleError(Exception):
    """Base class of every error xlshuffle raises on purpose."""


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
