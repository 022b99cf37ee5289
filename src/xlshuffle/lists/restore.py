"""Undo a shuffle of a CSV/TSV list, giving back the input's exact bytes.

As for workbooks, the file given must be the draw's output: its SHA-256 is the record's,
or, for an output edited since outside the drawn records (its header, blank lines at the
end, line endings), each data record still holds the bytes the draw put there (the
record's ``fingerprint``: one CRC-32 (4 bytes) per data record, of its fields'
bytes without the line ending, in the input's order). Anything else is refused in one
line naming the first record that differs, and nothing is written.
"""

from __future__ import annotations

import base64
import datetime as _dt
import os
from typing import Any

from ..common.digest import bytes_sha256
from ..draw.errors import ListError, OptionError
from .lines import DEFAULT_MAX_MB
from .opened import DIGEST_SIZE, Opened, write_list

__all__ = ["restore_csv"]

PathLike = str | os.PathLike[str]


def _short(digest: object) -> str:
    return f"{str(digest)[:16]}..."


def _line_of(op: Opened, r: int) -> int:
    return op.lst.data.count(b"\n", 0, op.lst.bounds[r]) + 1


def _check(op: Opened, record: dict[str, Any], inv: list[int]) -> None:
    if op.sha256 == record.get("output_sha256"):
        return
    if op.sha256 == record.get("input_sha256"):
        raise ListError(
            f"{op.path}: this is the draw's input (SHA-256 {_short(op.sha256)}), not its "
            "output: it already holds the records as they were before the draw; nothing to "
            "restore"
        )
    fp = record.get("fingerprint")
    if not isinstance(fp, dict) or fp.get("digest") != "crc32":
        raise ListError(
            f"{op.path}: SHA-256 {_short(op.sha256)} is not the recorded output's "
            f"{_short(record.get('output_sha256'))}, and the record predates the check of "
            "edited outputs: restore the file the draw wrote, unedited, or take the input "
            "back from its backup"
        )
    try:
        want = base64.b64decode(str(fp.get("rows", "")), validate=True)
    except ValueError:
        want = b""
    got = op.digests(inv)  # the records in the order the restore puts them
    if got == want:
        return
    bad = [
        s
        for s in range(op.n)
        if got[s * DIGEST_SIZE : (s + 1) * DIGEST_SIZE]
        != want[s * DIGEST_SIZE : (s + 1) * DIGEST_SIZE]
    ] or [0]
    r = op.first + min(inv[s] for s in bad)  # the first record of the file given
    raise ListError(
        f"{op.path}: record {r + 1} (line {_line_of(op, r)}): not what the draw wrote there "
        "(this is not the draw's output, or a drawn record was edited since): restore the "
        "file the draw wrote"
    )


def restore_csv(
    record: dict[str, Any],
    src: PathLike,
    dst: PathLike | None = None,
    *,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> dict[str, Any]:
    """Undo :func:`~xlshuffle.lists.shuffle_csv`: put every data record back.

    ``record`` is the shuffle's record (a dict, as ``shuffle_csv`` returns it); ``src``
    its output, checked as the module says. The restored list is the input's bytes: the
    byte order mark, the header, each record with its own line ending, the blank lines
    at the end (a line break the draw added after an unterminated last record is dropped
    again).

    Returns
    -------
    dict
        A record of the restore (``command="restore"``), whose permutation is the inverse.

    Raises
    ------
    ListError
        ``src`` is not the record's output, or a drawn record was edited since; nothing is
        written.
    """
    if record.get("command") != "shuffle" or (record.get("target") or {}).get("kind") != "list":
        raise OptionError(
            f"{os.fspath(src)}: the record is not a shuffle of a CSV/TSV list "
            f"({record.get('command')} of {record.get('input')}): give the shuffle's record"
        )
    perm = record.get("permutation")
    op = Opened(src, bool(record.get("header", True)), max_bytes)
    if not isinstance(perm, list) or sorted(perm) != list(range(op.n)):
        raise ListError(
            f"{op.path}: {op.n} data records, and the record's permutation moves "
            f"{len(perm) if isinstance(perm, list) else 0}: this is not the draw's output; "
            "restore the file the draw wrote"
        )
    inv = [0] * op.n
    for pos, item in enumerate(perm):
        inv[item] = pos
    _check(op, record, inv)
    lst = op.lst
    body = [lst.record(op.first + p) for p in inv]
    restored = b"".join([*op.start(), *body, lst.tail])
    if body and not lst.tail and bytes_sha256(restored) != record["input_sha256"]:
        # the draw ended an unterminated last record with a line break: drop it again
        # when that gives back the input, or when the record says the input had none
        last = body[-1]
        cut = 2 if last.endswith(b"\r\n") else 1 if last.endswith(b"\n") else 0
        stripped = restored[: len(restored) - cut]
        fp = record.get("fingerprint")
        if bytes_sha256(stripped) == record["input_sha256"] or (
            isinstance(fp, dict) and fp.get("last_line_break") is False
        ):
            restored = stripped
    written = write_list(op, dst, [restored], in_place=in_place, backup=backup, dry_run=dry_run)
    output, output_sha256, kept = written
    return record | {
        "command": "restore",
        "input": op.path,
        "input_sha256": op.sha256,
        "permutation": inv,
        "output": output,
        "output_sha256": output_sha256,
        "backup": kept,
        "fingerprint": None,
        "time_utc": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()[:19] + "Z",
    }
