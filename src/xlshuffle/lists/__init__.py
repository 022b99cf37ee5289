"""Draw lists that are not workbooks: the lines of a text file, CSV and TSV tables.

Every draw here is the one a sheet of the same rows gets (``xlshuffle.draw.knuth``), and
every line or record is written back with its own bytes: delimiter, quoting, encoding and
line endings are never re-rendered.

Modules
-------
lines
    The lines of a text file, held as one buffer and an array of offsets (``lines``).
table
    CSV/TSV records found by the :mod:`csv` module's rules, as byte ranges.
opened
    A list opened for a draw, its output written byte for byte, its record, and the
    typed request the keyword functions stand for.
api
    ``shuffle_csv``, ``sample_csv`` and ``groups_csv``: draws on CSV/TSV lists with a
    header row, each returning a draw record as a plain dict (``raffle``: draws by
    tickets, strata, exclusions and audits; ``teams``: balanced teams).
drawing
    ``draw_list``: the engine's one entry, a typed request drawn on its list.
restore
    ``restore_csv``: a shuffle undone, the input's exact bytes given back.

This package may import only :mod:`xlshuffle.draw`, :mod:`xlshuffle.common` and itself.
"""

from .api import LIST_EXTENSIONS, groups_csv, is_list, sample_csv, shuffle_csv
from .lines import DEFAULT_MAX_MB, LineList, read_limited
from .restore import restore_csv

__all__ = [
    "DEFAULT_MAX_MB",
    "LIST_EXTENSIONS",
    "LineList",
    "groups_csv",
    "is_list",
    "read_limited",
    "restore_csv",
    "sample_csv",
    "shuffle_csv",
]
