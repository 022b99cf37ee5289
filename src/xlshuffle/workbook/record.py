"""The draw record: a JSON account of one batch draw that anyone can replay and check."""

from __future__ import annotations

import copy
import datetime as _dt
import hashlib
import io
import json
from dataclasses import MISSING, dataclass, field
from typing import Any

from ..draw.errors import WorkbookError
from ..draw.protocol import PROTOCOL

__all__ = ["DrawRecord", "load_records", "sha256_of"]


@dataclass
class DrawRecord:
    """What one ``shuffle``, ``sample`` or ``groups`` run did, enough to replay and check it.

    Attributes
    ----------
    command : {"shuffle", "sample", "groups"}
    seed : str
        The seed as text (the generated one when none was given). A number or date seed
        is kept as the text the draw protocol hashes, which replays the same stream.
    input, output : str or None
        Paths as given; ``output`` is None for a dry run or a CSV on stdout.
    input_sha256, output_sha256 : str or None
        SHA-256 of the input bytes read and of the output bytes written.
    sheet, selection : str
        The sheet name and the selection as an A1 range (``"A1:D201"``) or a column list.
    header : bool
        Whether the first row of the selection stayed in place as labels.
    mode : str
        The grid mode (``"rows"``, ``"columns"``...).
    rows, columns : int
        Size of the selection, header row included.
    permutation : list
        What moved where, as the draw protocol produced it: ``permutation[p]`` is the
        0-based index (among the data rows, columns or cells) of the item now at
        position ``p``. For ``within-rows``/``within-columns`` one list per line.
    k : int or None
        Winners drawn (``sample``) or number of groups (``groups``).
    size : int or None
        For ``groups --size N``: the most rows a group may hold, from which ``k`` was
        derived (``ceil(data rows / N)``); None otherwise.
    unit : {"rows", "cells"}
        What moved: whole rows (every cell, height and row formatting) or only the
        selected cells.
    target : dict
        The selection, enough to find it again: ``kind`` (``"sheet"``, ``"range"``,
        ``"table"`` or ``"columns"``), ``ref`` (the A1 range, header row included),
        ``columns`` (the column letters, for ``"columns"``), ``table`` (its name) and,
        only when rows of the used range were left out, ``excluded``: a list of
        ``{"rows": "1-2", "why": "title"}`` (``"title"``, ``"blank"`` or ``"total"``);
        only with ``--keep-blank-rows`` and blank rows inside the data, ``kept``: the
        rows left in place, as ``["7", "12-13"]`` (the permutation is drawn over the
        other rows and spread over all, a kept row's entry being its own index).
    parts : dict
        The package parts the write ``"rewritten"``, ``"added"`` and ``"removed"``; every
        other part of the output is the input's, byte for byte.
    backup : str or None
        The backup kept by an in-place write.
    fingerprint : dict or None
        What the selection held before a ``shuffle``, so that ``restore`` can check an
        output edited since: ``{"digest": "crc32", "rows": BASE64}``, one CRC-32
        (4 bytes) per data row (the header too for ``columns``) of the cells'
        canonical values (:mod:`xlshuffle.workbook.fingerprint`). None for other
        commands, dry runs and records written before it existed.
    """

    command: str
    seed: str
    input: str
    input_sha256: str
    sheet: str
    selection: str
    header: bool
    mode: str
    rows: int
    columns: int
    permutation: list[Any]
    output: str | None = None
    output_sha256: str | None = None
    k: int | None = None
    size: int | None = None
    unit: str = "rows"
    target: dict[str, Any] = field(default_factory=dict)
    parts: dict[str, list[str]] = field(default_factory=dict)
    backup: str | None = None
    fingerprint: dict[str, Any] | None = None
    protocol: str = PROTOCOL
    tool: str = "xlshuffle"
    tool_version: str = ""
    time_utc: str = ""

    def __post_init__(self) -> None:
        if not self.tool_version:
            from .. import __version__

            self.tool_version = __version__
        if not self.time_utc:
            now = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
            self.time_utc = now.isoformat().replace("+00:00", "Z")

    def to_dict(self) -> dict[str, Any]:
        """Return the record as plain JSON-ready data, protocol first."""
        # Fields hold only JSON types; a shallow copy per field avoids asdict's deep copy,
        # which costs seconds for a million-entry permutation.
        data = {name: copy.copy(getattr(self, name)) for name in self.__dataclass_fields__}
        head = {"protocol": data.pop("protocol"), "tool": data.pop("tool")}
        return head | data

    def to_json(self) -> str:
        """Return the record as one line of JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any], label: str = "record") -> DrawRecord:
        """Build a record from :meth:`to_dict` output, naming the first missing field."""
        names = set(cls.__dataclass_fields__)
        data = dict(data)
        if not data.get("lost", []):
            data.pop("lost", None)  # written by 0.1, always empty without --allow-loss
        unknown = sorted(set(data) - names)
        if unknown:
            raise WorkbookError(f"{label}: unknown field {unknown[0]!r} in the draw record")
        missing = sorted(n for n, f in cls.__dataclass_fields__.items()
                         if n not in data and f.default is MISSING
                         and f.default_factory is MISSING)  # fmt: skip
        if missing:
            raise WorkbookError(
                f"{label}: not a complete draw record (no {', '.join(missing)}): give the "
                "record file xlshuffle wrote"
            )
        for name, value in data.items():
            kinds = _TYPES.get(name, (str,))
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                want = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
                raise WorkbookError(
                    f"{label}: field {name!r} of the draw record is {type(value).__name__}, "
                    f"not {want}: give the record file xlshuffle wrote"
                )
        for name in ("rows", "columns", "k", "size"):
            if isinstance(data.get(name), int) and data[name] < 0:
                raise WorkbookError(f"{label}: field {name!r} of the draw record is negative")
        return cls(**data)


# the JSON type of each field that is not text
_TYPES: dict[str, tuple[type, ...]] = {
    "seed": (str, int, float),
    "header": (bool,),
    "rows": (int,),
    "columns": (int,),
    "k": (int, type(None)),
    "size": (int, type(None)),
    "permutation": (list,),
    "target": (dict,),
    "parts": (dict,),
    "output": (str, type(None)),
    "output_sha256": (str, type(None)),
    "backup": (str, type(None)),
    "fingerprint": (dict, type(None)),
}
#: The largest record file read: a million-row draw's record is about 8 MB.
MAX_RECORD_BYTES = 1 << 30


def _read_bounded(path: str, limit: int) -> bytes:
    """A file's bytes, read a chunk at a time and refused past ``limit``.

    Not ``read(limit + 1)``: that allocates a buffer of the limit's size up front, which
    fails with MemoryError under an address-space cap (``ulimit -v``) even for a tiny file.
    """
    buffer = io.BytesIO()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            if buffer.tell() + len(chunk) > limit:
                raise WorkbookError(f"{path}: more than {limit >> 20} MB: not a draw record")
            buffer.write(chunk)
    return buffer.getvalue()


def load_records(path: str) -> list[DrawRecord]:
    """Read a record file: one JSON object, a JSON array of them, or JSON lines."""
    raw = _read_bounded(path, MAX_RECORD_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise WorkbookError(
            f"{path}: not a draw record (byte {exc.start} is not UTF-8 text): give the JSON "
            "record file xlshuffle wrote"
        ) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except (ValueError, RecursionError) as exc:
            why = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
            raise WorkbookError(f"{path}: not a JSON draw record ({why})") from None
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(i, dict) for i in items):
        raise WorkbookError(f"{path}: expected a JSON object (or a list of them) per draw")
    return [DrawRecord.from_dict(i, path) for i in items]


def sha256_of(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()
