"""Small standard-library utilities shared by the edges of xlshuffle.

Not part of the public API: the command line, the fairness lab and batch mode use these,
and their names may change between releases.

Modules
-------
a1
    The sheet's size (``MAX_ROW``, ``MAX_COL``) and its column letters.
celltext
    The text of a cell value, as ``xlshuffle sample`` writes it and section 17 digests it.
counts
    The number of groups and ``-k`` checked alike for workbooks and lists.
digest
    SHA-256 of bytes and of whole files, as records and the lock log write them.
entrants
    The rows of a draw as a table of values, whatever file they came from.
files
    Safe file writing: a temporary file beside the target, fsync, then an atomic rename.
names
    New sheet names and header labels, checked before they are written.
progress
    A progress bar for long work, drawn only on a terminal.
raffles, raffle_options, raffle_parts
    Raffles and audits (tickets, reserves, strata, exclusions) over a table.
targets
    Where an output may go, checked before any work (links, devices, folders, the input).
teams
    Balanced teams over any table of entrants.
winners
    Winners saved from stdout, compared with the draw's.

This package may import only :mod:`xlshuffle.draw` and itself.
"""

__all__: list[str] = []
