"""Writing a workbook's zip so that every member that is not changed keeps its bytes.

:func:`write_package` writes a new zip in which every member that is not changed is the
*same bytes* as in the input - local header, compressed data and data descriptor copied
verbatim, in the same order, with the same names, flags, compression and timestamps - and
the zip comment is kept. Only changed or added members are deflated again. The central
directory is rewritten with the new offsets; each copied entry is the original record
with its offset patched.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from ...draw.errors import WorkbookError
from ..limits import LIMITS
from .codec import Compressor, crc32, new_compressor
from .zipread import (
    CENTRAL,
    EOCD,
    LOCAL,
    SIG_EOCD,
    U32,
    Member,
    Package,
    left_unread,
    strip_zip64,
    zip64_values,
)

__all__ = ["Content", "NullSink", "write_package"]


class _Sink(Protocol):
    def write(self, data: Any, /) -> int: ...
    def tell(self) -> int: ...
    def seek(self, pos: int, whence: int = ..., /) -> int: ...


class NullSink:
    """A writable that keeps nothing: a dry run writes the package here."""

    def __init__(self) -> None:
        self._pos = 0
        self._end = 0

    def write(self, data: Any) -> int:
        n = len(data)
        self._pos += n
        self._end = max(self._end, self._pos)
        return n

    def tell(self) -> int:
        return self._pos

    def seek(self, pos: int, whence: int = 0) -> int:
        self._pos = self._end if whence == 2 else pos
        return self._pos


def _patched_central(raw: bytes, **fields: int) -> bytes:
    """The central record ``raw`` with some fields replaced (``offset``, ``crc``,
    ``csize``, ``usize``, ``flags``); zip64 values are dropped when they are replaced."""
    head = list(CENTRAL.unpack_from(raw, 0))
    nlen, xlen = head[10], head[11]
    name = raw[CENTRAL.size : CENTRAL.size + nlen]
    extra = raw[CENTRAL.size + nlen : CENTRAL.size + nlen + xlen]
    rest = raw[CENTRAL.size + nlen + xlen :]
    slots = {"flags": 3, "crc": 7, "csize": 8, "usize": 9, "offset": 16}
    zip64_in_use = U32 in (head[8], head[9], head[16])
    if zip64_in_use:
        usize, csize, offset = zip64_values(
            extra, [head[9] == U32, head[8] == U32, head[16] == U32]
        )
        head[9] = usize if usize is not None else head[9]
        head[8] = csize if csize is not None else head[8]
        head[16] = offset if offset is not None else head[16]
        extra = strip_zip64(extra)
        head[11] = len(extra)
    for key, value in fields.items():
        head[slots[key]] = value
    if max(head[8], head[9], head[16]) >= U32:
        raise WorkbookError(
            "the output would be larger than 4 GB, which xlshuffle does not write: "
            "split the workbook"
        )
    return CENTRAL.pack(*head) + name + extra + rest


Content = bytes | Iterable[bytes]


def _deflate_all(
    pieces: Iterable[bytes], packer: Compressor | None, out: _Sink
) -> tuple[int, int, int]:
    crc = usize = csize = 0
    for piece in pieces:
        if not piece:
            continue
        crc = crc32(piece, crc)
        usize += len(piece)
        blob = packer.compress(piece) if packer is not None else piece
        csize += len(blob)
        out.write(blob)
    if packer is not None:
        blob = packer.flush()
        csize += len(blob)
        out.write(blob)
    return crc, usize, csize


def _pump(pieces: Iterable[bytes], packer: Compressor | None, out: _Sink) -> tuple[int, int, int]:
    """Deflate and write ``pieces``: CRC, sizes. A generator of pieces (a sheet being
    rewritten in Python) is deflated in a second thread, which zlib and isal run without
    the GIL, so the two overlap on a multi-core machine."""
    if isinstance(pieces, list | tuple):
        return _deflate_all(pieces, packer, out)
    chunks: queue.Queue[bytes | None] = queue.Queue(maxsize=8)
    result: list[tuple[int, int, int]] = []
    failure: list[BaseException] = []

    ended = False  # the worker took the producer's final None

    def drain() -> Iterator[bytes]:
        nonlocal ended
        while (piece := chunks.get()) is not None:
            yield piece
        ended = True

    def work() -> None:
        try:
            result.append(_deflate_all(drain(), packer, out))
        except BaseException as exc:  # handed to the caller
            failure.append(exc)
            # let the producer finish (it may be blocked on a full queue); the final
            # write can fail after the last piece, when there is nothing more to take
            while not ended and chunks.get() is not None:
                pass

    worker = threading.Thread(target=work, name="xlshuffle-deflate", daemon=True)
    worker.start()
    try:
        for piece in pieces:
            if failure:
                break
            chunks.put(piece)
    finally:
        chunks.put(None)
        worker.join()
    if failure:
        raise failure[0]
    return result[0]


def _write_member(
    out: _Sink, template: Member, name: str, content: Content, data: bytes, *, new: bool
) -> bytes:
    """Write one deflated member and return its central-directory record.

    A changed member keeps ``template``'s local header (name, flags, method, times); a
    ``new`` member borrows its version, times and flags under its own name.
    """
    offset = out.tell()
    head = list(LOCAL.unpack_from(data, template.offset))
    nlen, xlen = head[9], head[10]
    base = template.offset + LOCAL.size
    if new:
        name_bytes = name.encode("utf-8")
        extra = b""
        utf8 = 0 if name.isascii() else 0x800
        head[2] = (head[2] & ~0x0809) | utf8
        head[3] = method = 8
        central = list(CENTRAL.unpack_from(template.central, 0))
        central[3] = (central[3] & ~0x0809) | utf8
        central[4] = 8
        central[10], central[11], central[12] = len(name_bytes), 0, 0
        central[14], central[15] = 0, 0
        record = CENTRAL.pack(*central) + name_bytes
    else:
        name_bytes = data[base : base + nlen]
        extra = strip_zip64(data[base + nlen : base + nlen + xlen])
        method = template.method
        record = template.central
    head[2] &= ~0x08
    head[9], head[10] = len(name_bytes), len(extra)
    out.write(b"\0" * (LOCAL.size + len(name_bytes) + len(extra)))
    pieces = [content] if isinstance(content, bytes | bytearray) else content
    packer = new_compressor() if method == 8 else None
    crc, usize, csize = _pump(pieces, packer, out)
    end = out.tell()
    if max(usize, csize, offset) >= U32:
        raise WorkbookError(
            f"part {name} would be larger than 4 GB, which xlshuffle does not write: "
            "split the workbook"
        )
    head[6], head[7], head[8] = crc, csize, usize
    out.seek(offset)
    out.write(LOCAL.pack(*head) + name_bytes + extra)
    out.seek(end)
    flags = CENTRAL.unpack_from(record, 0)[3] & ~0x08
    return _patched_central(record, offset=offset, crc=crc, csize=csize, usize=usize, flags=flags)


def _check_copied(pkg: Package, m: Member) -> None:
    """Refuse a member that does not inflate to its checksum: copied as it is, it would
    make the output as damaged as the input (Excel offers to repair both). A member that
    xlshuffle cannot inflate (encrypted, another compression method) is copied unchecked,
    as before; so is a large sheet, which only the drawn one is read (:func:`left_unread`)."""
    if m.flags & 0x01 or m.method not in (0, 8) or left_unread(m):
        return
    for _ in pkg.chunks(m.name, limit=max(LIMITS.max_part_bytes, LIMITS.max_sheet_bytes)):
        pass


def write_package(
    pkg: Package,
    out: _Sink,
    *,
    changed: dict[str, Content] | None = None,
    removed: Iterable[str] = (),
    added: Iterable[tuple[str, Content]] = (),
    like: str | None = None,
) -> None:
    """Write ``pkg`` to ``out``: changed members re-deflated, removed ones left out, added
    ones appended (with the version, flags and timestamps of member ``like``), every
    other member copied byte for byte.

    ``out`` must be seekable (a file, or :class:`NullSink` for a dry run). A changed
    member keeps its place, name, flags, compression method and timestamps.
    """
    changed = changed or {}
    gone = set(removed)
    data = pkg.data
    view = memoryview(data)
    if out.tell() != 0:
        raise ValueError("write_package needs an empty output positioned at 0")
    # Members go out in the order of their bytes in the file and the directory keeps its
    # own order: the two differ in some producers' files, and both are kept.
    records: dict[str, bytes] = {}
    for m in sorted(pkg.members, key=lambda m: m.offset):
        if m.name in gone:
            continue
        if m.name in changed:
            records[m.name] = _write_member(out, m, m.name, changed[m.name], data, new=False)
            continue
        _check_copied(pkg, m)
        offset = out.tell()
        out.write(view[m.offset : m.record_end])
        same = offset == m.offset
        records[m.name] = m.central if same else _patched_central(m.central, offset=offset)
    ordered = [records[m.name] for m in pkg.members if m.name in records]
    template = pkg.by_name.get(like or "") or pkg.members[0]
    for name, content in added:
        ordered.append(_write_member(out, template, name, content, data, new=True))
    cd_offset = out.tell()
    for record in ordered:
        out.write(record)
    cd_size = out.tell() - cd_offset
    if len(ordered) > 0xFFFE or cd_offset >= U32:
        raise WorkbookError(
            "the output would need zip64 (more than 65,534 parts or 4 GB), which xlshuffle "
            "does not write: split the workbook"
        )
    comment = pkg.comment
    out.write(
        EOCD.pack(SIG_EOCD, 0, 0, len(ordered), len(ordered), cd_size, cd_offset, len(comment))
        + comment
    )
