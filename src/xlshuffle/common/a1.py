"""A sheet's size and its column letters, as Excel's A1 notation writes them (1-based).

The one definition of both: the workbook engine uses them through
``xlshuffle.workbook.scan.refs``, the worksheet functions (``xlshuffle.excel``, which may
not import the workbook layer) directly.

Standard library only.

Examples
--------
>>> col_index("XFD") == MAX_COL, col_letters(28), col_index(b"ab")
(True, 'AB', 28)
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["MAX_COL", "MAX_ROW", "col_index", "col_letters"]

#: The last row of a worksheet (.xlsx, Excel 2007 and later).
MAX_ROW = 1_048_576
#: The last column of a worksheet: XFD.
MAX_COL = 16_384


@lru_cache(maxsize=20_000)
def col_index(letters: bytes | str) -> int:
    """``"A"`` -> 1, ``"XFD"`` -> 16384 (either case; letters are not checked)."""
    n = 0
    for ch in letters.upper() if isinstance(letters, str) else letters.upper().decode("ascii"):
        n = n * 26 + ord(ch) - 64
    return n


@lru_cache(maxsize=20_000)
def col_letters(index: int) -> str:
    """1 -> ``"A"``, 16384 -> ``"XFD"`` (``""`` for 0 or less)."""
    out = ""
    while index > 0:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out
