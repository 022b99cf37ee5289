"""Lines of a text file as one buffer and an array of offsets: ``xlshuffle lines``.

The input is held once, as bytes, with the start offset of every line in an
``array.array`` (4 bytes a line below 4 GiB): memory is about the input's size plus four
bytes a line. A list of bytes objects, one a line, costs ~40 bytes a line more than the
line itself (0.1 used 3-9 GB for a 500 MB input); it was rejected for that.

The line rule: a line ends just after ``\\n`` and keeps its own ending (``\\n`` or
``\\r\\n``) byte for byte; ``\\r``, ``\\x0b``, ``\\x0c``, ``\\x1c``... are ordinary bytes
inside a line. A last line without ``\\n`` is a line; it is written with the file's own
ending (the first line's: ``\\r\\n`` or ``\\n``) so it cannot be glued to the next one,
as ``shuf`` does with ``\\n``. No decoding is done, so every byte comes out as it went in.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate, islice
from typing import BinaryIO

from ..draw.errors import ListError
from ..draw.knuth import deal, shuffle_prefix
from ..draw.protocol import DrawStream

__all__ = ["DEFAULT_MAX_LINES", "DEFAULT_MAX_MB", "LineList", "read_limited"]

#: Default limit on an input's size, in MB (the ``--max-mb`` default of batch mode too).
DEFAULT_MAX_MB = 2048

#: Default limit on the number of lines of ``xlshuffle lines`` (``--max-lines``): each line
#: costs 4 bytes of offsets and ~1.5 us of drawing and writing, so the most is 400 MB and a
#: few minutes; a stream of empty lines is refused after ~100 MB instead of filling memory.
DEFAULT_MAX_LINES = 100_000_000

_CHUNK = 1 << 20
# deal() swaps through a dict, touching only the k chosen lines, below this share of n.
_SPARSE_FACTOR = 8


def read_limited(
    fh: BinaryIO, max_bytes: int, name: str, *, max_lines: int | None = None
) -> bytearray:
    """Read all of ``fh`` into one buffer, refusing (before reading it all) past ``max_bytes``
    or, when ``max_lines`` is given, past that many line endings.

    Raises
    ------
    ListError
        When the input is larger than ``max_bytes``; a regular file is refused from its
        size alone, a pipe as soon as one chunk too many has arrived. When it holds more
        than ``max_lines`` lines, as soon as the chunk that holds one too many has arrived.
    """
    too_large = ListError(
        f"{name}: the input is larger than {max_bytes / 1024**2:g} MB: "
        "raise the limit with --max-mb N if this is the file you meant"
    )
    try:
        size = os.fstat(fh.fileno()).st_size
    except (OSError, AttributeError, ValueError):
        size = 0
    if size > max_bytes:
        raise too_large

    def too_many(most: int) -> ListError:
        return ListError(
            f"{name}: more than {most:,} lines, the most xlshuffle lines takes (each costs "
            "memory): raise the limit with --max-lines N"
        )

    buf = bytearray()
    lines = 0
    while chunk := fh.read(_CHUNK):
        if len(buf) + len(chunk) > max_bytes:
            raise too_large
        if max_lines is not None:
            lines += chunk.count(b"\n")
            if lines > max_lines:
                raise too_many(max_lines)
        buf += chunk
    if max_lines is not None and buf and buf[-1] != 0x0A and lines + 1 > max_lines:
        raise too_many(max_lines)  # a last line without a newline is a line too
    return buf


def _line_starts(data: bytes | bytearray) -> array[int]:
    """Offsets at which the lines of ``data`` start, found a chunk at a time by C code."""
    starts = array("I" if len(data) < 2**32 else "q", [0] if data else [])
    view = memoryview(data)
    for at in range(0, len(data), _CHUNK):
        pieces = bytes(view[at : at + _CHUNK]).split(b"\n")
        # every piece but the last ends at a newline: the next line starts after it
        ends = accumulate(map((1).__add__, map(len, pieces[:-1])), initial=at)
        starts.extend(islice(ends, 1, None))
    if starts and starts[-1] == len(data):  # the newline that ends the file starts nothing
        starts.pop()
    return starts


class LineList:
    """The lines of one input, drawn in the same order as ``deal(lines, k, seed)``."""

    def __init__(self, data: bytes | bytearray) -> None:
        self.data = data
        self.starts = _line_starts(data)
        first_end = data.find(b"\n")
        self.ending = b"\r\n" if first_end > 0 and data[first_end - 1] == 0x0D else b"\n"

    def __len__(self) -> int:
        return len(self.starts)

    def draw(self, k: int | None, seed: DrawStream) -> Sequence[int]:
        """Start offsets of the first ``k`` lines of the draw (all of them for None).

        ``k`` larger than the number of lines draws them all, like ``shuf -n``.
        """
        n = len(self.starts)
        k = n if k is None else min(k, n)
        if k * _SPARSE_FACTOR < n:
            return [self.starts[i] for i in deal(range(n), k, seed=seed)]
        # in place, the swaps deal() makes on its copy: its first k are deal()'s k
        shuffle_prefix(self.starts, min(k, n - 1) if n else 0, seed)  # type: ignore[arg-type]
        return self.starts[:k] if k < n else self.starts

    def chunks(self, order: Sequence[int]) -> Iterator[bytes]:
        """The lines starting at ``order``, joined into blocks of at most ~1 MB."""
        data, find, ending = self.data, self.data.find, self.ending
        batch: list[bytes | bytearray] = []
        size = 0
        for start in order:
            end = find(b"\n", start) + 1
            line = data[start:end] if end else data[start:] + ending
            batch.append(line)
            size += len(line)
            if size >= _CHUNK or len(batch) >= 8192:
                yield b"".join(batch)
                batch, size = [], 0
        if batch:
            yield b"".join(batch)
