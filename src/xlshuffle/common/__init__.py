"""What the edges share: the typed request of a draw on a file, the record it leaves, and
plain standard-library utilities.

Not part of the public API: the command line, the fairness lab and batch mode use these,
and their names may change between releases. The draws over a table of values that the
edges share are :mod:`xlshuffle.tabledraw`.

Modules
-------
request
    A draw on a file as one typed request: region, options, output, seed, side files.
record
    The draw record both engines write: fields, versions, reading.
a1
    The sheet's size (``MAX_ROW``, ``MAX_COL``) and its column letters.
celltext
    The text of a cell value, as ``xlshuffle sample`` writes it and section 17 digests it.
digest
    SHA-256 of bytes and of whole files, as records and the lock log write them.
files
    Safe file writing: a temporary file beside the target, fsync, then an atomic rename.
names
    New sheet names and header labels, checked before they are written.
progress
    A progress bar for long work, drawn only on a terminal.
targets
    Where an output may go, checked before any work (links, devices, folders, the input).

This package may import only :mod:`xlshuffle.draw`, :mod:`xlshuffle.tabledraw` (a request
holds a raffle's options) and itself.
"""

__all__: list[str] = []
