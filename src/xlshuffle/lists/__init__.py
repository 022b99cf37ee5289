"""Draw lists that are not workbooks: the lines of a text file, CSV and TSV tables.

Every draw here is the one a sheet of the same rows gets (``xlshuffle.draw.knuth``), and
every line or record is written back with its own bytes: delimiter, quoting, encoding and
line endings are never re-rendered.

Modules
-------
lines
    The lines of a text file, held as one buffer and an array of offsets (``lines``).

This package may import only :mod:`xlshuffle.draw`, :mod:`xlshuffle.common` and itself.
"""

from .lines import DEFAULT_MAX_MB, LineList, read_limited

__all__ = ["DEFAULT_MAX_MB", "LineList", "read_limited"]
