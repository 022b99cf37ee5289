"""The draw record: a JSON account of one draw on a file (a workbook or a CSV/TSV list)
that anyone can replay and check, written by both engines (``xlshuffle.records`` gives it to
the public with the other kinds of record). Standard library only."""

from __future__ import annotations

import copy
import datetime as _dt
import io
import json
import os
import re
from dataclasses import MISSING, dataclass, field
from typing import Any, Literal, get_args

from ..draw.errors import OptionError, WorkbookError
from ..draw.grid import Mode
from ..draw.protocol import PROTOCOL
from .a1 import col_index, col_letters
from .digest import file_sha256

__all__ = [
    "RECORD_VERSION",
    "DrawRecord",
    "RecordCommand",
    "Unit",
    "load_one_record",
    "load_records",
    "record_items",
]

#: The commands whose record this is.
RecordCommand = Literal["shuffle", "sample", "groups", "restore"]
#: What moved: whole rows (every cell, height and row format) or only the selected cells.
Unit = Literal["rows", "cells"]

#: The version of the record format written today (docs/record.schema.json). Version 1,
#: written by xlshuffle 0.1, has no ``record_version``, ``unit``, ``target`` or ``parts``.
RECORD_VERSION = 2


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
    record_version : int
        The record format (docs/record.schema.json): 2 today; a record without the field
        is version 1 (xlshuffle 0.1), read with ``unit="cells"`` and the ``target`` its
        ``selection`` text names.
    fingerprint : dict or None
        What the selection held before a ``shuffle``, so that ``restore`` can check an
        output edited since: ``{"digest": "crc32", "rows": BASE64}``, one CRC-32
        (4 bytes) per data row (the header too for ``columns``) of the cells'
        canonical values (:mod:`xlshuffle.workbook.records.fingerprint`). None for other
        commands, dry runs and records written before it existed.
    set_aside_output, set_aside_output_sha256 : str or None
        A monetary-unit sample's file of the rows it set aside (``--set-aside-output``:
        the header and the rows of amount 0 or below) and the SHA-256 of its bytes.
        Absent when no such file was written.
    commitment, reveal : dict and list, or None
        A committed draw's (``xlshuffle draw COMMITMENT --reveal V``, protocol section
        17): ``{"body": ..., "sha256": ...}`` as published before the draw, and the
        revealed values the seed was derived from. Absent from every other record.
    """

    command: RecordCommand
    seed: str
    input: str
    input_sha256: str
    sheet: str
    selection: str
    header: bool
    mode: Mode
    rows: int
    columns: int
    permutation: list[Any]
    output: str | None = None
    output_sha256: str | None = None
    k: int | None = None
    size: int | None = None
    unit: Unit = "rows"
    target: dict[str, Any] = field(default_factory=dict)
    parts: dict[str, list[str]] = field(default_factory=dict)
    backup: str | None = None
    fingerprint: dict[str, Any] | None = None
    set_aside_output: str | None = None
    set_aside_output_sha256: str | None = None
    commitment: dict[str, Any] | None = None
    reveal: list[str] | None = None
    protocol: str = PROTOCOL
    tool: str = "xlshuffle"
    record_version: int = RECORD_VERSION
    tool_version: str = ""
    time_utc: str = ""

    def __post_init__(self) -> None:
        if not self.tool_version:
            from .. import __version__

            self.tool_version = __version__
        if not self.time_utc:
            now = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
            self.time_utc = now.isoformat().replace("+00:00", "Z")

    def check_protocol(self) -> None:
        """Refuse a record of another protocol version (its seeds mean other draws)."""
        if self.protocol != PROTOCOL:
            raise WorkbookError(
                f"record: protocol {self.protocol!r} is not {PROTOCOL!r}: verify it with the "
                "xlshuffle version that made it"
            )

    def check_input(self, path: str | os.PathLike[str]) -> None:
        """Refuse a file that is not the recorded input (by its SHA-256)."""
        got = file_sha256(path)
        if got != self.input_sha256:
            raise WorkbookError(
                f"{os.fspath(path)}: SHA-256 {got[:16]}... is not the recorded input's "
                f"{self.input_sha256[:16]}...: this is not the file that was drawn from"
            )

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data, protocol first: what ``--record`` writes, and
        what :func:`json.dump` takes (the record itself is a dataclass, which it does not).

        Examples
        --------
        >>> import json
        >>> rec = DrawRecord(command="shuffle", seed="42", input="in.csv", input_sha256="",
        ...     sheet="", selection="rows 1-4", header=True, mode="rows", rows=4, columns=1,
        ...     permutation=[2, 0, 1], tool_version="0.1.0", time_utc="2026-11-28T10:00:00Z")
        >>> text = json.dumps(rec.to_dict())
        >>> DrawRecord.from_dict(json.loads(text)) == rec
        True
        """
        # Fields hold only JSON types; a shallow copy per field avoids asdict's deep copy,
        # which costs seconds for a million-entry permutation.
        data = {name: copy.copy(getattr(self, name)) for name in self.__dataclass_fields__}
        # only a committed draw's record has these, and a sample that wrote its rows set aside
        for name in ("commitment", "reveal", "set_aside_output", "set_aside_output_sha256"):
            if data[name] is None:
                del data[name]
        head = {
            "protocol": data.pop("protocol"),
            "tool": data.pop("tool"),
            "record_version": data.pop("record_version"),
        }
        return head | data

    @classmethod
    def from_dict(cls, data: dict[str, Any], label: str = "record") -> DrawRecord:
        """Build a record from :meth:`to_dict` output, naming the first missing field."""
        names = set(cls.__dataclass_fields__)
        data = dict(data)
        if "record_version" not in data:
            data = _from_version_1(data)
        version = data["record_version"]
        if isinstance(version, bool) or version not in (1, RECORD_VERSION):
            # first: a newer format may have fields this version does not know
            raise WorkbookError(
                f"{label}: record_version {version!r} is not one this xlshuffle reads (1 or "
                f"{RECORD_VERSION}): check it with the xlshuffle version that made it"
            )
        unknown = sorted(set(data) - names)
        if unknown:
            raise WorkbookError(f"{label}: unknown field {unknown[0]!r} in the draw record")
        missing = sorted(
            n
            for n, f in cls.__dataclass_fields__.items()
            if n not in data and f.default is MISSING and f.default_factory is MISSING
        )
        if missing:
            raise WorkbookError(
                f"{label}: not a complete draw record (no {', '.join(missing)}): give the "
                "record file xlshuffle wrote"
            )
        _check_values(data, label)
        if data["record_version"] == 1 and not data.get("target"):
            data["target"] = _target_of_selection(data.get("selection"), data)
        return cls(**data)


def _check_values(data: dict[str, Any], label: str) -> None:
    """Refuse a field of the wrong JSON type, a name outside its choices, a negative count."""
    for name, value in data.items():
        kinds = _TYPES.get(name, (str,))
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            want = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise WorkbookError(
                f"{label}: field {name!r} of the draw record is {type(value).__name__}, "
                f"not {want}: give the record file xlshuffle wrote"
            )
    for name, kind in (("command", RecordCommand), ("mode", Mode), ("unit", Unit)):
        if name in data and data[name] not in get_args(kind):
            raise WorkbookError(
                f"{label}: field {name!r} of the draw record is {data[name]!r}, not one of "
                f"{', '.join(get_args(kind))}: give the record file xlshuffle wrote"
            )
    for name in ("rows", "columns", "k", "size"):
        if isinstance(data.get(name), int) and data[name] < 0:
            raise WorkbookError(f"{label}: field {name!r} of the draw record is negative")


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A record without ``record_version``: xlshuffle 0.1 wrote it (so did development
    builds between 0.1 and the field). 0.1 moved only the selected cells (openpyxl's save
    path) and wrote ``lost``, always empty without ``--allow-loss``."""
    data = {"record_version": 1, **data}
    if not data.get("lost", []):
        data.pop("lost", None)
    if "target" not in data:
        data.setdefault("unit", "cells")
    return data


# 0.1's selection texts: "S!A1:C7" (sheet or --range), "S!A,C (rows 1-7)" (--columns),
# "table T (S!A1:C9)" (--table; the ref counts the totals row, the record's rows do not)
_V1_TABLE = re.compile(r"table (\S+) \((.*)\)")
_V1_COLUMNS = re.compile(r"([A-Z]{1,3}(?:,[A-Z]{1,3})*) \(rows (\d+)-(\d+)\)")
_V1_RANGE = re.compile(r"\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?")


def _target_of_selection(selection: object, data: dict[str, Any]) -> dict[str, Any]:
    """The ``target`` of a version 1 record, from its ``selection`` text and sizes; an
    empty dict when the text is none of 0.1's forms (the record then cannot be checked
    cell by cell)."""

    text, table = str(selection or ""), None
    m = _V1_TABLE.fullmatch(text)
    if m:
        table, text = m[1], m[2]
    ref = text.rpartition("!")[2]
    rows, cols = data.get("rows"), data.get("columns")
    if not isinstance(rows, int) or not isinstance(cols, int) or rows < 1 or cols < 1:
        return {}
    m = _V1_COLUMNS.fullmatch(ref)
    if m:
        letters = m[1].split(",")
        numbers = sorted(col_index(c) for c in letters)
        top = int(m[2])
        area = f"{col_letters(numbers[0])}{top}:{col_letters(numbers[-1])}{top + rows - 1}"
        return {"kind": "columns", "ref": area, "columns": m[1], "table": None}
    m = _V1_RANGE.fullmatch(ref)
    if not m:
        return {}
    left, top = col_index(m[1]), int(m[2])
    area = f"{m[1]}{top}:{col_letters(left + cols - 1)}{top + rows - 1}"
    return {"kind": "table" if table else "range", "ref": area, "columns": None, "table": table}


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
    "set_aside_output": (str, type(None)),
    "set_aside_output_sha256": (str, type(None)),
    "backup": (str, type(None)),
    "record_version": (int,),
    "fingerprint": (dict, type(None)),
    "commitment": (dict, type(None)),
    "reveal": (list, type(None)),
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


def record_items(path: str) -> list[dict[str, Any]]:
    """The JSON objects of a record file: one object, a JSON array of them, or JSON lines
    (WorkbookError naming ``path`` for a file that is none of these)."""
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
    except (ValueError, RecursionError) as whole:  # JSONDecodeError is a ValueError
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except (ValueError, RecursionError) as exc:
            if isinstance(whole, json.JSONDecodeError) and _cut_short(whole, text):
                why = "the file ends before the JSON does (a truncated file?)"
            elif isinstance(exc, RecursionError):
                why = "nested too deep"
            else:
                why = str(exc)
            raise WorkbookError(
                f"{path}: not a JSON draw record ({why}): give the record file xlshuffle wrote"
            ) from None
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(i, dict) for i in items):
        raise WorkbookError(
            f"{path}: not a draw record (expected a JSON object, or a list of them, per "
            "draw): give the record file xlshuffle wrote"
        )
    return items


def load_records(path: str) -> list[DrawRecord]:
    """Read a record file: one JSON object, a JSON array of them, or JSON lines."""
    return [DrawRecord.from_dict(i, path) for i in record_items(path)]


def _cut_short(error: json.JSONDecodeError, text: str) -> bool:
    """Whether the JSON failed where the file ends: at its end, in a string or a number
    or literal it does not finish (``"ab``, ``12``, ``nu``)."""
    rest = text[error.pos :]
    return error.msg.startswith("Unterminated") or _UNFINISHED.fullmatch(rest) is not None


_UNFINISHED = re.compile(r"\s*[-+.0-9A-Za-z]*\s*")


def load_one_record(path: str) -> DrawRecord:
    """Read a record file that holds one draw, as ``restore`` (of a workbook or a list)
    undoes one draw at a time."""
    records = load_records(path)
    if len(records) != 1:
        raise OptionError(f"{path} holds {len(records)} draws: restore one record at a time")
    return records[0]
