"""Reading the input once and putting the output in place safely.

The input is read whole (its SHA-256 goes in the record) and never written unless
``in_place``. The output is written to a temporary file beside the target, flushed to
disk, and renamed over the target in one step, so a crash or a refusal half-way leaves
the target as it was. An in-place write first keeps the original as ``NAME.bak.xlsx``.
A dry run writes the whole package to a sink that keeps nothing, so every check a real
run makes is made.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass, field

from ..common.files import backup_path, fsync_folder, temp_beside, write_atomically
from ..draw.errors import OptionError, WorkbookError
from .limits import LIMITS
from .parts import Book, open_book
from .zipwrite import Content, NullSink, write_package

__all__ = ["Changes", "Input", "Written", "commit", "read_input"]


@dataclass
class Input:
    """The input file: its path as given, bytes, SHA-256 and workbook."""

    path: str
    data: bytes
    sha256: str
    book: Book


def _lock_file(path: str) -> str | None:
    folder, name = os.path.split(os.path.abspath(path))
    for candidate in (f"~${name}", f"~${name[2:]}"):
        lock = os.path.join(folder, candidate)
        if len(candidate) > 2 and os.path.exists(lock):
            return lock
    return None


def refuse_if_open(path: str) -> None:
    """Refuse a workbook that Excel has open (its ``~$NAME`` lock file is beside it)."""
    lock = _lock_file(path)
    if lock is not None:
        raise WorkbookError(
            f"{path}: the workbook is open in Excel (lock file {os.path.basename(lock)} "
            "beside it): close it in Excel first (or delete a stale lock file), then retry"
        )


def read_input(src: str | os.PathLike[str]) -> Input:
    """Read and open the input workbook, or raise one clear error."""
    path = os.fspath(src)
    refuse_if_open(path)
    size = os.path.getsize(path)
    if size > LIMITS.max_file_bytes:
        raise WorkbookError(
            f"{path}: the file is {size / 1024**2:,.0f} MB, more than the "
            f"{LIMITS.max_file_bytes / 1024**2:,.0f} MB xlshuffle reads"
        )
    with open(path, "rb") as fh:
        data = fh.read(LIMITS.max_file_bytes + 1)
    return Input(path, data, hashlib.sha256(data).hexdigest(), open_book(data, path))


@dataclass
class Changes:
    """What a draw changes in the package: parts rewritten, added and removed."""

    changed: dict[str, Content] = field(default_factory=dict)
    added: list[tuple[str, Content]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    like: str | None = None

    def report(self) -> dict[str, list[str]]:
        return {
            "rewritten": sorted(self.changed),
            "added": [name for name, _ in self.added],
            "removed": sorted(self.removed),
        }


@dataclass
class Written:
    """What :func:`commit` did: the output's SHA-256 and the backup it kept."""

    sha256: str | None
    backup: str | None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def commit(
    inp: Input,
    changes: Changes,
    dst: str | None,
    *,
    in_place: bool,
    backup: bool,
    dry_run: bool,
) -> Written:
    """Write the changed package to ``dst`` (or over the input with ``in_place``)."""
    path = inp.path
    target = path if in_place else dst
    if target is None and not dry_run:
        raise OptionError("give an output path (-o / dst) or --in-place (in_place=True)")
    if target is not None and not in_place and _same_file(target, path):
        raise OptionError(f"{path}: the output is the input: use --in-place to replace it")
    if dry_run or target is None:
        _write(inp, changes, NullSink())
        return Written(None, None)
    if not in_place:
        refuse_if_open(target)
    fd, tmp = temp_beside(target)
    try:
        with os.fdopen(fd, "w+b") as fh:
            _write(inp, changes, fh)
            fh.flush()
            os.fsync(fh.fileno())
            fh.seek(0)
            digest = hashlib.sha256()
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        with contextlib.suppress(OSError):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        kept = None
        if in_place and backup:
            kept = backup_path(path)
            write_atomically(kept, inp.data)
        os.replace(tmp, target)
        tmp = ""
        fsync_folder(os.path.dirname(os.path.abspath(target)))
        return Written(digest.hexdigest(), kept)
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _write(inp: Input, changes: Changes, out: object) -> None:
    write_package(
        inp.book.pkg,
        out,  # type: ignore[arg-type]
        changed=changes.changed,
        removed=changes.removed,
        added=changes.added,
        like=changes.like,
    )
