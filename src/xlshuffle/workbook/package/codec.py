"""Deflate, inflate and CRC-32 for the zip: python-isal where it is installed, else zlib.

python-isal (the ``xlsx`` extra installs it where it has wheels) reads and writes the same
deflate streams as zlib. On a million-row sheet (219 MB of XML) it inflates in 0.17 s
against zlib's 0.31 s, computes the CRC-32 in 0.015 s against 0.10 s, and deflates about
ten times as fast (at its level 2, against zlib's 6: a standard stream either way, a few
per cent larger). The inflated bytes and the CRC-32 are the same whichever computes them.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, cast

__all__ = [
    "INFLATE_ERRORS",
    "LEVEL",
    "NAME",
    "Compressor",
    "Decompressor",
    "crc32",
    "new_compressor",
    "new_decompressor",
]

#: Deflate level for the parts written with zlib: its default, as zipfile and Excel use.
LEVEL = 6


class Compressor(Protocol):
    def compress(self, data: bytes, /) -> bytes: ...
    def flush(self, mode: int = ..., /) -> bytes: ...


class Decompressor(Protocol):
    @property
    def unconsumed_tail(self) -> bytes: ...
    @property
    def eof(self) -> bool: ...
    def decompress(self, data: bytes, max_length: int = ..., /) -> bytes: ...
    def flush(self, length: int = ..., /) -> bytes: ...


@dataclass(frozen=True)
class _Codec:
    compressor: Callable[[], Compressor]
    decompressor: Callable[[], Decompressor]
    crc32: Callable[[bytes, int], int]
    errors: tuple[type[Exception], ...]
    name: str


def _choose() -> _Codec:
    """python-isal's functions where it is installed, zlib's otherwise."""
    try:
        from isal import isal_zlib
    except ImportError:
        return _Codec(
            lambda: zlib.compressobj(LEVEL, zlib.DEFLATED, -15),
            lambda: zlib.decompressobj(-15),
            zlib.crc32,
            (zlib.error,),
            "zlib",
        )
    return _Codec(
        lambda: isal_zlib.compressobj(2, isal_zlib.DEFLATED, -15),
        lambda: isal_zlib.decompressobj(-15),
        isal_zlib.crc32,
        (zlib.error, cast("type[Exception]", isal_zlib.error)),  # its stubs say an instance
        "python-isal",
    )


_CODEC = _choose()
#: Which library deflates and inflates: ``"python-isal"`` or ``"zlib"``.
NAME = _CODEC.name
#: A raw deflate compressor for a part being written.
new_compressor = _CODEC.compressor
#: A raw deflate decompressor for a part being read.
new_decompressor = _CODEC.decompressor
#: ``crc32(data, value)``: the zip's CRC-32 of ``data``, continuing from ``value``.
crc32 = _CODEC.crc32
#: What a decompressor raises on a stream that does not inflate.
INFLATE_ERRORS = _CODEC.errors
