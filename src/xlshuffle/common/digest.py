"""SHA-256 digests as records write them: lower-case hex, of bytes or of a whole file.

Every record's ``input_sha256`` and ``output_sha256``, and the Excel lock log's input and
output hashes, are made here, so they are all the same kind of digest. A file is read a
block at a time, never whole.

Standard library only.

Examples
--------
>>> import io
>>> bytes_sha256(b"abc")[:16]
'ba7816bf8f01cfea'
>>> file_sha256(io.BytesIO(b"abc")) == bytes_sha256(b"abc")
True
>>> out = io.BytesIO()
>>> copy_sha256([b"a", b"bc"], out.write) == bytes_sha256(out.getvalue())
True
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from typing import BinaryIO

__all__ = ["bytes_sha256", "copy_sha256", "file_sha256"]

_BLOCK = 1 << 20  # 1 MiB at a time: a million-row workbook is never read whole


def bytes_sha256(data: bytes | bytearray | memoryview) -> str:
    """The SHA-256 of ``data``, as 64 lower-case hex digits.

    Parameters
    ----------
    data : bytes-like
        What to hash.

    Returns
    -------
    str
        ``hashlib.sha256(data).hexdigest()``.
    """
    return hashlib.sha256(data).hexdigest()


def file_sha256(file: str | os.PathLike[str] | BinaryIO) -> str:
    """The SHA-256 of a file's content, read a block at a time, as 64 lower-case hex digits.

    Parameters
    ----------
    file : str, path-like or binary file
        A path to open and read, or an open binary file, read from where it stands to its
        end (seek it to 0 first to hash all of it).

    Returns
    -------
    str
        The same digest :func:`bytes_sha256` gives for the bytes read.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, "rb") as fh:
            return file_sha256(fh)
    digest = hashlib.sha256()
    for block in iter(lambda: file.read(_BLOCK), b""):
        digest.update(block)
    return digest.hexdigest()


def copy_sha256(
    chunks: Iterable[bytes | bytearray], write: Callable[[bytes | bytearray], object]
) -> str:
    """Pass each of ``chunks`` to ``write``, in order, and return the SHA-256 of them all.

    For output that cannot be read back (a FIFO): it is hashed on its way out.

    Parameters
    ----------
    chunks : iterable of bytes
        The content, in pieces.
    write : callable
        Where each piece goes (a file's ``write``).

    Returns
    -------
    str
        The same digest :func:`bytes_sha256` gives for the pieces joined.
    """
    digest = hashlib.sha256()
    for chunk in chunks:
        write(chunk)
        digest.update(chunk)
    return digest.hexdigest()
