"""Reading the input once and putting the output in place safely.

The input is read whole (its SHA-256 goes in the record) and never written unless
``in_place``. The output is written to a temporary file beside the target, flushed to
disk, and renamed over the target in one step, so a crash or a refusal half-way leaves
the target as it was (links are written through; FIFOs and devices are written into).
An in-place write first keeps the original as ``NAME.bak.xlsx`` (or ``NAME.bak-2.xlsx``
and so on: a backup never overwrites anything).
A dry run writes the whole package to a sink that keeps nothing, so every check a real
run makes is made.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ...common.digest import bytes_sha256
from ...common.files import write_output
from ...common.targets import check_output, is_stream, output_of
from ...draw.errors import OptionError, WorkbookError
from ..limits import LIMITS
from .parts import Book, open_book
from .zipwrite import Content, NullSink, write_package

__all__ = ["Changes", "Input", "Written", "read_input", "write_workbook"]


@dataclass
class Input:
    """The input file: its path as given, bytes, SHA-256 and workbook."""

    path: str
    data: bytes
    sha256: str
    book: Book


def _lock_file(path: str) -> tuple[str, str] | None:
    """The lock file an office suite keeps beside a workbook it has open, and the suite."""
    folder, name = os.path.split(os.path.abspath(path))
    # Excel shortens long names by their first two characters; LibreOffice never does.
    candidates = [(f"~${name}", "Excel"), (f"~${name[2:]}", "Excel")]
    candidates.append((f".~lock.{name}#", "LibreOffice"))
    for candidate, suite in candidates:
        lock = os.path.join(folder, candidate)
        if candidate != "~$" and os.path.exists(lock):
            return lock, suite
    return None


def refuse_if_open(path: str) -> None:
    """Refuse a workbook that Excel (``~$NAME``) or LibreOffice (``.~lock.NAME#``) has open."""
    found = _lock_file(path)
    if found is not None:
        lock, suite = found
        raise WorkbookError(
            f"{path}: the workbook is open in {suite} (lock file {os.path.basename(lock)} "
            f"beside it): close it in {suite} first (or delete a stale lock file), then retry"
        )


def read_input(src: str | os.PathLike[str]) -> Input:
    """Read and open the input workbook, or raise one clear error."""
    path = os.fspath(src)
    refuse_if_open(path)
    size = os.path.getsize(path)
    if size > LIMITS.max_file_bytes:
        raise WorkbookError(
            f"{path}: the file is {size / 1024**2:,.0f} MB, more than the "
            f"{LIMITS.max_file_bytes / 1024**2:,.0f} MB xlshuffle reads: raise the limit with "
            "--max-mb (workbook.raised(max_file_bytes=...)) if the workbook is genuine"
        )
    with open(path, "rb") as fh:  # a buffer the file's size, not the limit's (2 GB)
        data = fh.read(min(size, LIMITS.max_file_bytes) + 1)
    return Input(path, data, bytes_sha256(data), open_book(data, path))


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
    """What :func:`write_workbook` did: the output's SHA-256 and the backup it kept."""

    sha256: str | None
    backup: str | None


def _extension_kind(path: str) -> str | None:
    return _KINDS.get(os.path.splitext(path)[1].lower())


# the kind of package Excel expects behind each extension (.xls/.xlsb: none of ours)
_KINDS = {
    ".xlsx": "xlsx",
    ".xlsm": "xlsm",
    ".xltx": "xltx",
    ".xltm": "xltm",
    ".xls": "xls",
    ".xlsb": "xlsb",
    ".xlam": "xlam",
}


def check_output_name(
    book: Book, src: str, dst: str, *, also: str = "", option: str = "-o"
) -> None:
    """Refuse an output name whose extension Excel would not open this package under
    (an .xlsx package named .xlsm, or the reverse), or that is no workbook's name at all
    (``out.csv``, ``out.txt``, ``out``); ``option`` is the option that named it."""
    want = book.kind
    got = _extension_kind(dst)
    if got is None and not is_stream(dst):  # out.csv, out.txt, out: not a workbook's name
        stem, ext = os.path.splitext(dst)
        what = f"a {ext} file" if ext else "a name without an extension"
        raise OptionError(
            f"{option} {dst}: the output is an .{want} workbook like {src}, not {what}: "
            f"name it {stem}.{want}{also}"
        )
    if got is not None and got != want:
        stem = os.path.splitext(dst)[0]
        also = (
            " (rename the input too: Excel will not open it either)"
            if (_extension_kind(src) == got)
            else ""
        )
        raise OptionError(
            f"{'' if option == '-o' else option + ' '}{dst}: {src} is an .{want} workbook, "
            "which Excel will not open under the "
            f"name .{got}: name the output {stem}.{want}{also}"
        )


def write_workbook(
    inp: Input,
    changes: Changes,
    dst: str | None,
    *,
    in_place: bool,
    backup: bool,
    dry_run: bool,
) -> Written:
    """Write the changed package to ``dst`` (or over the input with ``in_place``).

    ``dst`` may be a symbolic link (the file it points to is replaced), a FIFO or a
    device such as ``/dev/null`` (written into); never the input (or a link to it) unless
    ``in_place``, which replaces the input (through its link) after keeping a backup that
    overwrites nothing (``NAME.bak.xlsx``, ``NAME.bak-2.xlsx``...).
    """
    path = inp.path
    target = output_of(path, dst, in_place=in_place, dry_run=dry_run)
    if target is not None and not in_place:
        check_output(target, path)
        check_output_name(inp.book, path, target)
    if dry_run or target is None:
        _write(inp, changes, NullSink())
        return Written(None, None)
    if not in_place:
        refuse_if_open(target)
    keep = inp.data if in_place and backup else None
    return Written(*write_output(target, path, lambda fh: _write(inp, changes, fh), keep=keep))


def _write(inp: Input, changes: Changes, out: object) -> None:
    try:
        write_package(
            inp.book.pkg,
            out,  # type: ignore[arg-type]
            changed=changes.changed,
            removed=changes.removed,
            added=changes.added,
            like=changes.like,
        )
    except WorkbookError as exc:  # the zip writer does not know the file's name
        if inp.path in str(exc):
            raise
        raise WorkbookError(f"{inp.path}: {exc}") from None
