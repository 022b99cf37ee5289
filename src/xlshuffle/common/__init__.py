"""Small standard-library utilities shared by the edges of xlshuffle.

Not part of the public API: the command line, the fairness lab and batch mode use these,
and their names may change between releases.

Modules
-------
a1
    The sheet's size (``MAX_ROW``, ``MAX_COL``) and its column letters.
digest
    SHA-256 of bytes and of whole files, as records and the lock log write them.
files
    Safe file writing: a temporary file beside the target, fsync, then an atomic rename.
targets
    Where an output may go, checked before any work (links, devices, folders, the input).
progress
    A progress bar for long work, drawn only on a terminal.

This package may import only :mod:`xlshuffle.draw` and itself.
"""

__all__: list[str] = []
