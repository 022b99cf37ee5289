"""Rows and cells compared without what a draw rewrites by design.

A moved row keeps every byte of its XML except its references (``r=``, ``spans=``),
its formulas' text (translated) and their cached values (recomputed): :func:`norm_general`
removes those, and :func:`row_digests` keeps only an 8-byte digest of each row so that
``verify`` holds one sheet in memory at a time. :func:`block_digests` does the same
for the cells of a block of columns in each row, when the block moves with its rows.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import re
import sys
from array import array
from typing import Any

from ..move.rowcut import RowCut
from ..scan.sheet import numbered_row, plain_formula_tag

__all__ = ["UNKNOWN", "block_digests", "norm_general", "row_digests"]

_R_ATTR = re.compile(rb"\s(?:r|spans)\s*=\s*[\"'][^\"']*[\"']")
# [^<>]: each try stays inside one tag (linear; [^>] went quadratic without a ">")
# a cached value may be written <v/> (the engine drops it when the formula moves)
_FORMULA = re.compile(
    rb"<([\w.-]+:)?f(?:\s[^<>]*)?(?:/>|>[^<]*</\1?f>)(?:<\1?v>[^<]*</\1?v>|<\1?v\s*/>)?"
)


def norm_general(xml: bytes) -> bytes:
    """A cell or row's XML without references, spans, formula text and cached values."""
    xml = _R_ATTR.sub(b"", xml)
    if b"f" in xml:
        xml = _FORMULA.sub(b"<f/>", xml)
    return xml


def _digest(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data.rstrip(), digest_size=8).digest(), "little")


_BLAKE8 = functools.partial(hashlib.blake2b, digest_size=8)
_DIGEST = operator.methodcaller("digest")


def _digests(pieces: list[bytes]) -> array[int]:
    """:func:`_digest` of each piece, by C-level maps (no Python code per row)."""
    out = array("Q")
    out.frombytes(b"".join(map(_DIGEST, map(_BLAKE8, map(bytes.rstrip, pieces)))))
    if sys.byteorder != "little":
        out.byteswap()
    return out


def _plain_formula_and_value(prefix: bytes) -> re.Pattern[bytes]:
    """A plain formula (LibreOffice's ``<f aca="false">`` too) and its cached value."""
    p = re.escape(prefix)
    value = rb"(?:<" + p + rb"v>[^<]*</" + p + rb"v>)?"
    return re.compile(plain_formula_tag(prefix).pattern + rb"[^<]*</" + p + rb"f>" + value)


class _Normal:
    """The normal form of rows of ``sx``, as :func:`row_digests` digests them."""

    def __init__(self, sx: Any) -> None:
        self.sx = sx
        p = re.escape(sx.prefix)
        self.row_open = b"<" + sx.prefix + b'row r=""'  # how every row starts once normalised
        self.numbers = re.compile(rb"(<" + p + rb'(?:c r="[A-Z]{1,3}|row r="))(\d+)(?=")')
        # plain formulas (LibreOffice's <f aca="false"> too) and their cached values
        self.plain_f = _plain_formula_and_value(sx.prefix)
        self.f_open = b"<" + sx.prefix + b"f"

    def row(self, i: int) -> bytes:
        """Row ``i`` alone, as a piece of a split block reads: without its normalised
        start. A row whose cells say no ``r`` is numbered first, as a draw writes it, so
        that it reads as its moved copy does."""
        sx = self.sx
        row = sx.row(i)
        numbered = numbered_row(row, 0, sx.prefix)
        return self.block(row if numbered is None else numbered).removeprefix(self.row_open)

    def block(self, block: bytes) -> bytes:
        """Quick: literal-prefixed patterns for what Excel writes (r= first, plain <f>,
        shared formulas); anything else falls back to the general patterns."""
        if self.f_open in block:
            block = _formulas_as_one(block, self.plain_f, self.f_open)
            if _other_formula(block, self.f_open):
                return norm_general(block)
        parts = self.numbers.split(block)
        if block.count(b' r="') != len(parts) // 3:  # a reference not written first
            return norm_general(block)
        parts[2::3] = [b""] * (len(parts) // 3)
        return b"".join(parts)


def _formulas_as_one(block: bytes, plain_f: re.Pattern[bytes], f_open: bytes) -> bytes:
    """``block`` with every formula and its cached value one byte that XML cannot hold:
    the plain ones (one literal-prefixed search), then a shared formula as Excel fills it
    down (its moved copy is a plain one) and any other spelling."""
    block = plain_f.sub(b"\x01", block)
    if _other_formula(block, f_open):
        block = _FORMULA.sub(b"\x01", block)
    return block


def _other_formula(block: bytes, f_open: bytes) -> bool:
    return f_open + b" " in block or f_open + b"/" in block or f_open + b">" in block


def row_digests(sx: Any, top: int, bottom: int) -> array[int]:
    """An 8-byte digest of each row ``top..bottom`` without references, spans, formula
    text and cached values. Rows are normalised 4,096 at a time with two regular
    expressions over the block (C speed), then split where each row starts."""
    digests = array("Q", [_digest(b"")]) * (bottom - top + 1)
    i0, i1 = sx.index_of(top), sx.index_of(bottom + 1)
    normal = _Normal(sx)
    data, c_any, c_r = sx.data, b"<" + sx.prefix + b"c", b"<" + sx.prefix + b'c r="'
    for c0 in range(i0, i1, 4096):
        c1 = min(c0 + 4096, i1)
        a, b = sx.starts[c0], sx.ends[c1 - 1]
        pieces = normal.block(data[a:b]).split(normal.row_open)
        cells = sum(data.count(c_any + end, a, b) for end in (b">", b" ", b"/"))
        if pieces[0] or len(pieces) != c1 - c0 + 1 or data.count(c_r, a, b) != cells:
            # something between rows, rows or cells that do not say r: one row at a time
            pieces = [normal.row(i) for i in range(c0, c1)]
        else:
            del pieces[0]
        found = _digests(pieces)
        n0 = sx.numbers[c0] - top
        if sx.numbers[c1 - 1] - top == n0 + len(found) - 1:  # no gaps: one slice
            digests[n0 : n0 + len(found)] = found
        else:
            for k, digest in enumerate(found):
                digests[sx.numbers[c0 + k] - top] = digest
    return digests


#: What :func:`block_digests` gives a row it cannot cut quickly (compared cell by cell).
UNKNOWN = 0


def block_digests(sx: Any, top: int, bottom: int, cols: list[int]) -> array[int]:
    """An 8-byte digest of the cells of columns ``cols[0]..cols[-1]`` in each row
    ``top..bottom`` (an empty block for a row not stored), without the row numbers of
    their references, their formulas' text and cached values; :data:`UNKNOWN` for a row
    :class:`~..move.block.RowCut` does not cut quickly. The column letters stay: equal
    digests mean the same cells in the same columns, each alike as :func:`norm_general`
    reads it."""
    digests = array("Q", [_digest(b"")]) * (bottom - top + 1)
    cut = RowCut(sx, cols[0], cols[-1])
    p = re.escape(sx.prefix)
    numbers = re.compile(rb"(<" + p + rb'c r="[A-Z]{1,3})\d+"')
    # RowCut's grammar allows plain formulas (LibreOffice's <f aca="false"> too) and
    # shared ones as Excel fills one down, each followed by at most one <v>
    plain_f = _plain_formula_and_value(sx.prefix)
    f_open = b"<" + sx.prefix + b"f"
    for i in range(sx.index_of(top), sx.index_of(bottom + 1)):
        block = cut.block_of(i)
        if block is None:
            digest = UNKNOWN
        else:
            if f_open in block:
                block = _formulas_as_one(block, plain_f, f_open)
            digest = _digest(numbers.sub(rb'\1"', block)) or 1
        digests[sx.numbers[i] - top] = digest
    return digests
