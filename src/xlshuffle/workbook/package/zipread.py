"""The zip container of a workbook, read with bounds.

:class:`Package` parses the zip's central directory itself: the writer
(:mod:`.zipwrite`) needs each member's exact byte range to copy it verbatim.

Inflating is bounded: a member may not inflate past its declared size, past a limit, or
past a ratio that only zip bombs reach, whatever its header claims.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ...draw.errors import WorkbookError
from ..limits import LIMITS
from .codec import INFLATE_ERRORS, NAME, crc32, new_decompressor

__all__ = [
    "CENTRAL",
    "EOCD",
    "LOCAL",
    "SIG_EOCD",
    "U32",
    "UNDRAWN_SHEET_READ_MAX",
    "Member",
    "Package",
    "left_unread",
    "strip_zip64",
    "zip64_values",
]

# The zip's records (APPNOTE 4.3) that the writer (:mod:`.zipwrite`) writes too.
#: End of central directory record, and its signature.
EOCD = struct.Struct("<4sHHHHIIH")
SIG_EOCD = b"PK\x05\x06"
#: Central directory file header.
CENTRAL = struct.Struct("<4sHHHHHHIIIHHHHHII")
#: Local file header.
LOCAL = struct.Struct("<4sHHHHHIIIHH")
#: A 32-bit size or offset holding this is in the zip64 extra block; a value this large needs one.
U32 = 0xFFFFFFFF

_EOCD64_LOCATOR = struct.Struct("<4sIQI")
_EOCD64 = struct.Struct("<4sQHHIIQQQQ")
_SIG_EOCD64 = b"PK\x06\x06"
_SIG_LOCATOR = b"PK\x06\x07"
_SIG_CENTRAL = b"PK\x01\x02"
#: The newest "version needed to extract" (APPNOTE 6.3, as 63) a member may declare.
_NEWEST_ZIP = 63
_SIG_LOCAL = b"PK\x03\x04"
_SIG_DESCRIPTOR = b"PK\x07\x08"
_CHUNK = 1 << 20
_RATIO_FLOOR = 64 * 1024**2
#: Whether :meth:`Package.read` inflates a member by one call: python-isal's output buffer
#: grows to the size asked at most, where zlib's is joined from blocks (twice the memory).
_ONE_CALL = NAME == "python-isal"


@dataclass
class Member:
    """One member of the zip, located by byte ranges in the file."""

    name: str
    flags: int
    method: int
    crc: int
    compress_size: int
    file_size: int
    #: Where the local header starts, the compressed data starts and ends, and the
    #: member's record (data descriptor included) ends.
    offset: int
    data_start: int
    data_end: int
    record_end: int
    #: The original central-directory record, copied into the output.
    central: bytes
    #: DOS time and date words of the member.
    time: int
    date: int


#: A sheet that is not drawn is inflated (to check its CRC when copied, or to look for
#: formulas) only up to this many compressed bytes: past it, it is copied byte for byte
#: unread, so a workbook of many large sheets costs the drawn sheet's time, not theirs.
UNDRAWN_SHEET_READ_MAX = 1 << 20
_SHEET_FOLDERS = ("xl/worksheets/", "xl/chartsheets/", "xl/dialogsheets/", "xl/macrosheets/")


def left_unread(m: Member) -> bool:
    """Whether ``m`` is a sheet too large to read unless it is the one drawn
    (:data:`UNDRAWN_SHEET_READ_MAX`)."""
    return (
        m.name.lower().startswith(_SHEET_FOLDERS)
        and m.data_end - m.data_start > UNDRAWN_SHEET_READ_MAX
    )


def _bad(label: str, what: str) -> WorkbookError:
    return WorkbookError(
        f"{label}: the file is damaged or not a zip package ({what}): "
        "copy it again, or open and repair it in Excel, then retry"
    )


def zip64_values(extra: bytes, wanted: list[bool]) -> list[int | None]:
    """Values of the zip64 extra block for the fields flagged in ``wanted`` (usize, csize,
    offset), in that order."""
    pos = 0
    out: list[int | None] = [None, None, None]
    while pos + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, pos)
        body = extra[pos + 4 : pos + 4 + size]
        if tag == 1:
            at = 0
            for i, need in enumerate(wanted):
                if need and at + 8 <= len(body):
                    out[i] = struct.unpack_from("<Q", body, at)[0]
                    at += 8
        pos += 4 + size
    return out


def strip_zip64(extra: bytes) -> bytes:
    """The extra field `extra` without its zip64 block (the writer writes no zip64)."""
    pos, kept = 0, []
    while pos + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, pos)
        if tag != 1:
            kept.append(extra[pos : pos + 4 + size])
        pos += 4 + size
    return b"".join(kept)


class Package:
    """A zip package held in memory, its members listed in central-directory order.

    Parameters
    ----------
    data : bytes
        The whole file.
    label : str
        The name to use in error messages (the user's path).
    """

    def __init__(self, data: bytes, label: str) -> None:
        self.data = data
        self.label = label
        self.members: list[Member] = []
        self.by_name: dict[str, Member] = {}
        self.comment = b""
        self._parse()

    # ------------------------------------------------------------------ parsing

    def _parse(self) -> None:
        """Read the central directory: every member, located and checked."""
        count, cd_size, cd_offset = self._directory()
        pos, end_of_directory = cd_offset, cd_offset + cd_size
        seen: set[str] = set()
        for _ in range(count):
            member, pos = self._entry(pos, end_of_directory)
            key = member.name.lower()
            if key in seen:
                raise WorkbookError(
                    f"{self.label}: the package holds the part {member.name!r} twice, so it is "
                    "ambiguous which one Excel reads: open it in Excel, save it again, and retry"
                )
            seen.add(key)
            self.members.append(member)
            self.by_name[member.name] = member

    def _directory(self) -> tuple[int, int, int]:
        """The end-of-archive record (zip64 too): entry count, directory size and offset;
        the archive comment is kept."""
        data, label = self.data, self.label
        at = data.rfind(SIG_EOCD, max(0, len(data) - 65_557 - 22))
        if at < 0 or at + EOCD.size > len(data):
            raise _bad(label, "no end-of-archive record; the file may be truncated")
        _, _disk, _cd_disk, _n_disk, count, cd_size, cd_offset, comment_len = EOCD.unpack_from(
            data, at
        )
        self.comment = data[at + EOCD.size : at + EOCD.size + comment_len]
        if count == 0xFFFF or cd_offset == U32 or cd_size == U32:
            loc = at - _EOCD64_LOCATOR.size
            if loc < 0 or data[loc : loc + 4] != _SIG_LOCATOR:
                raise _bad(label, "a zip64 archive without its locator")
            (_, _, eocd64, _) = _EOCD64_LOCATOR.unpack_from(data, loc)
            if eocd64 + _EOCD64.size > len(data) or data[eocd64 : eocd64 + 4] != _SIG_EOCD64:
                raise _bad(label, "a broken zip64 end record")
            fields = _EOCD64.unpack_from(data, eocd64)
            count, cd_size, cd_offset = fields[7], fields[8], fields[9]
        if cd_offset + cd_size > at or count > len(data) // 46 + 1:
            raise _bad(label, "the central directory lies outside the file")
        return count, cd_size, cd_offset

    def _entry(self, pos: int, end_of_directory: int) -> tuple[Member, int]:
        """The member of the central directory entry at ``pos``, and where the next
        entry starts."""
        data, label = self.data, self.label
        if data[pos : pos + 4] != _SIG_CENTRAL or pos + CENTRAL.size > len(data):
            raise _bad(label, "a broken central directory entry")
        (
            _,
            _made,
            need,
            flags,
            method,
            mtime,
            mdate,
            crc,
            csize,
            usize,
            nlen,
            xlen,
            clen,
            _dstart,
            _iattr,
            _eattr,
            offset,
        ) = CENTRAL.unpack_from(data, pos)
        end = pos + CENTRAL.size + nlen + xlen + clen
        if end > end_of_directory:
            raise _bad(label, "a central directory entry runs past its end")
        raw_name = data[pos + CENTRAL.size : pos + CENTRAL.size + nlen]
        extra = data[pos + CENTRAL.size + nlen : pos + CENTRAL.size + nlen + xlen]
        name = raw_name.decode("utf-8" if flags & 0x800 else "cp437", "replace")
        if usize == U32 or csize == U32 or offset == U32:
            z = zip64_values(extra, [usize == U32, csize == U32, offset == U32])
            usize = z[0] if z[0] is not None else usize
            csize = z[1] if z[1] is not None else csize
            offset = z[2] if z[2] is not None else offset
        version = need & 0xFF
        if version > _NEWEST_ZIP:  # zipfile (so openpyxl, pandas) refuses the package
            raise _bad(
                label,
                f"part {name!r} needs zip version {version // 10}.{version % 10}, which "
                "no zip specification has defined",
            )
        member = self._locate(
            name, raw_name, flags, method, crc, csize, usize, offset, mtime, mdate
        )
        member.central = data[pos:end]
        return member, end

    def _locate(
        self,
        name: str,
        raw_name: bytes,
        flags: int,
        method: int,
        crc: int,
        csize: int,
        usize: int,
        offset: int,
        mtime: int,
        mdate: int,
    ) -> Member:
        data, label = self.data, self.label
        if offset + LOCAL.size > len(data) or data[offset : offset + 4] != _SIG_LOCAL:
            raise _bad(label, f"member {name!r} has no local header where the directory says")
        nlen, xlen = struct.unpack_from("<HH", data, offset + 26)
        start = offset + LOCAL.size + nlen + xlen
        if data[offset + LOCAL.size : offset + LOCAL.size + nlen] != raw_name:
            raise _bad(label, f"member {name!r} has another name in its local header")
        end = start + csize
        if end > len(data):
            raise _bad(label, f"member {name!r} runs past the end of the file")
        record_end = end
        if flags & 0x08:
            zip64 = csize >= U32 or usize >= U32
            size = 20 if zip64 else 12
            if data[end : end + 4] == _SIG_DESCRIPTOR:
                size += 4
            record_end = min(end + size, len(data))
        return Member(
            name,
            flags,
            method,
            crc,
            csize,
            usize,
            offset,
            start,
            end,
            record_end,
            b"",
            mtime,
            mdate,
        )

    # ------------------------------------------------------------------ reading

    def has(self, name: str) -> bool:
        """Whether the package holds the part ``name`` (exact zip name)."""
        return name in self.by_name

    def find(self, name: str) -> str | None:
        """The zip name of part ``name``, matched without regard to case (OPC part names are
        case-insensitive); None when absent."""
        if name in self.by_name:
            return name
        low = name.lower()
        return next((n for n in self.by_name if n.lower() == low), None)

    def chunks(self, name: str, *, limit: int | None = None) -> Iterator[bytes]:
        """Inflate a member in chunks, checking its size and CRC as it goes.

        Raises
        ------
        WorkbookError
            An encrypted member, an unknown compression method, a member that inflates
            past its declared size, past ``limit`` or like a zip bomb, or a wrong CRC.
        """
        m = self._readable(name)
        cap = LIMITS.max_part_bytes if limit is None else limit
        total, crc = 0, 0
        for out in self._inflated(m):
            total += len(out)
            self._check_size(m, total, cap)
            crc = crc32(out, crc)
            yield out
        if total != m.file_size or crc != m.crc:
            raise _bad(self.label, f"part {name} does not match its checksum")

    def _readable(self, name: str) -> Member:
        """The member ``name``, refused when it is missing, encrypted or compressed by a
        method xlshuffle does not read."""
        label = self.label
        m = self.by_name.get(name)
        if m is None:
            raise _bad(label, f"no part {name}, which the workbook points to")
        if m.flags & 0x01:
            raise WorkbookError(
                f"{label}: part {name} is encrypted: remove the password in Excel "
                "(File > Info > Protect Workbook), save, and retry"
            )
        if m.method not in (0, 8):
            raise WorkbookError(
                f"{label}: part {name} uses zip compression method {m.method}, which xlshuffle "
                "does not read: open the workbook in Excel, save it again, and retry"
            )
        return m

    def _inflated(self, m: Member) -> Iterator[bytes]:
        """The member's content in non-empty pieces of at most ``_CHUNK`` bytes, as
        stored or inflated (bounded by the caller, which counts what it takes)."""
        view = memoryview(self.data)
        stored = m.method == 0
        inflater = new_decompressor()
        for pos in range(m.data_start, max(m.data_end, m.data_start + 1), _CHUNK):
            piece = bytes(view[pos : min(pos + _CHUNK, m.data_end)])
            if stored:
                if piece:
                    yield piece
                continue
            while piece:
                out = self._inflate(m, inflater.decompress, piece, _CHUNK)
                piece = inflater.unconsumed_tail
                if out:
                    yield out
        if not stored:
            tail = self._inflate(m, inflater.flush)
            if tail:
                yield tail
            if not inflater.eof:
                raise _bad(self.label, f"part {m.name} is cut short")

    def _inflate(
        self, m: Member, step: Callable[..., bytes], *args: int | bytes | memoryview
    ) -> bytes:
        try:
            return step(*args)
        except INFLATE_ERRORS:
            raise _bad(self.label, f"part {m.name} does not inflate") from None

    def _check_size(self, m: Member, total: int, cap: int) -> None:
        if total > m.file_size:
            raise _bad(self.label, f"part {m.name} inflates past the size it declares")
        if total > cap:
            raise WorkbookError(
                f"{self.label}: part {m.name} is larger than {cap / 1024**2:,.0f} MB once "
                "inflated, more than xlshuffle reads: raise the limit (--max-mb) if the "
                "workbook is genuine"
            )
        if total > _RATIO_FLOOR and total > LIMITS.max_ratio * max(m.compress_size, 1):
            raise WorkbookError(
                f"{self.label}: part {m.name} inflates more than {LIMITS.max_ratio} times "
                "its stored size, like a zip bomb: refusing to read it (--max-ratio N raises "
                "the limit for a genuine workbook)"
            )

    def read(self, name: str, *, limit: int | None = None) -> bytes:
        """Inflate a whole member (bounded as :meth:`chunks`).

        With python-isal, a deflated member whose declared size passes the limits is
        inflated by one call that may give one byte more than that size, into one buffer
        of it (:meth:`_whole`). Otherwise the chunks go into one growing buffer
        (``io.BytesIO``, which hands its bytes over without a copy). Either way a 200 MB
        sheet costs 200 MB of memory, where joining a list of chunks, or zlib's one-shot
        buffer, costs twice that at the peak.
        """
        m = self._readable(name)
        cap = LIMITS.max_part_bytes if limit is None else limit
        size = m.file_size
        if (
            m.method == 8
            and _ONE_CALL
            and size <= cap
            and (size <= _RATIO_FLOOR or size <= LIMITS.max_ratio * max(m.compress_size, 1))
        ):
            return self._whole(m)
        buffer = io.BytesIO()
        for chunk in self.chunks(name, limit=limit):
            buffer.write(chunk)
        return buffer.getvalue()

    def _whole(self, m: Member) -> bytes:
        """A deflated member inflated by one call (its declared size already within the
        limits, which then bound the output), checked as :meth:`chunks` checks it, with
        the same errors in the same order: about twice as fast for a large sheet."""
        inflater = new_decompressor()
        stored = memoryview(self.data)[m.data_start : m.data_end]
        out = self._inflate(m, inflater.decompress, stored, m.file_size + 1)
        if len(out) > m.file_size:
            raise _bad(self.label, f"part {m.name} inflates past the size it declares")
        if not inflater.eof:
            raise _bad(self.label, f"part {m.name} is cut short")
        if len(out) != m.file_size or crc32(out, 0) != m.crc:
            raise _bad(self.label, f"part {m.name} does not match its checksum")
        return out
