"""Safe file writing: nobody ever sees a half-written file.

Every write goes to a temporary file in the target's own folder (named
``.~xlshuffle-*.tmp``, so it is easy to recognise and clean up after a crash), is flushed
to disk, and then replaces the target with one atomic rename; the folder is synced too,
so the rename itself survives a power cut. If anything fails the temporary file is
removed and the target is left as it was.

A target is resolved first (:func:`.targets.output_target`): a symbolic link is written through
(the file it points to is replaced, the link stays), a FIFO or a character device such as
``/dev/null`` is written into as a stream, and a folder or any other kind of file is
refused; nothing is ever replaced by a regular file that was not one. Backups never
overwrite anything (:func:`write_new`): ``NAME.bak.xlsx``, then ``NAME.bak-2.xlsx``...

Standard library only; used by the command line and by batch mode.

Examples
--------
>>> import os, pathlib, tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     target = pathlib.Path(folder, "out.txt")
...     write_atomically(str(target), b"hello")
...     print(target.read_bytes(), os.listdir(folder))
b'hello' ['out.txt']
>>> backup_path("report.xlsx"), backup_path("report.xlsx", 2)
('report.bak.xlsx', 'report.bak-2.xlsx')
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from ..draw.errors import OptionError
from .digest import copy_sha256, file_sha256
from .targets import output_target

__all__ = [
    "TEMP_PREFIX",
    "TEMP_SUFFIX",
    "atomic_writer",
    "backup_path",
    "escape_undecodable",
    "fsync_folder",
    "keep_backup",
    "temp_beside",
    "unlink_quietly",
    "write_atomically",
    "write_new",
    "write_output",
]

#: Name pattern of every temporary file xlshuffle writes: ``.~xlshuffle-*.tmp``.
TEMP_PREFIX = ".~xlshuffle-"
TEMP_SUFFIX = ".tmp"


def escape_undecodable(text: str) -> str:
    """``text`` (JSON) with each byte of a file name that is not UTF-8, which Python holds
    as a lone surrogate (``b"caf\\xe9"`` -> ``"caf\\udce9"``), written as its ``\\udcXX``
    escape: valid JSON and UTF-8 text, read back by ``json.loads`` as the same name, which
    the file functions turn back into the same bytes. Raw bytes would make a record
    unreadable as UTF-8; a replacement character would lose the name."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _folder_of(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def temp_beside(target: str) -> tuple[int, str]:
    """Create an empty temporary file in ``target``'s folder.

    Beside the target, so that :func:`os.replace` onto it is a rename within one file
    system, and therefore atomic.

    Parameters
    ----------
    target : str
        The file the temporary one will replace.

    Returns
    -------
    (int, str)
        An open OS-level file descriptor and the temporary file's path, as
        :func:`tempfile.mkstemp` returns them; the caller closes and removes them.
    """
    return tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=_folder_of(target))


def fsync_folder(folder: str) -> None:
    """Flush a folder's entry list to disk, so a rename in it is durable.

    Does nothing where folders cannot be opened or synced (Windows).

    Parameters
    ----------
    folder : str
        The folder that holds the renamed file.
    """
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - not possible on every platform
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def unlink_quietly(path: str) -> None:
    """Remove a file, ignoring every :class:`OSError` (it may be gone already)."""
    with contextlib.suppress(OSError):
        os.unlink(path)


def keep_backup(path: str, data: bytes) -> str:
    """Keep ``data``, ``path``'s content before an in-place write, under the first free
    name of :func:`backup_path` beside the file replaced (the one a link points to), with
    ``path``'s permission bits. Never overwrites (:func:`write_new`); returns the name."""
    base = os.path.realpath(path) if os.path.islink(path) else path
    mode = os.stat(path).st_mode & 0o7777
    return write_new(lambda n: backup_path(base, n), data, mode=mode)


def _new_file_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` all at once, or not at all.

    The bytes go to a temporary file beside ``path`` (:func:`temp_beside`), are synced
    to disk, and replace ``path`` with an atomic rename; then the folder is synced
    (:func:`fsync_folder`). On any error the temporary file is removed and ``path`` is
    untouched. Links, FIFOs and devices are handled as :func:`atomic_writer` says.

    Parameters
    ----------
    path : str
        The file to create or replace.
    data : bytes
        Its whole new content.
    """
    with atomic_writer(path) as fh:
        fh.write(data)


def write_new(
    path: Callable[[int], str], data: bytes, *, mode: int | None = None, tries: int = 1000
) -> str:
    """Write ``data`` to the first of ``path(1)``, ``path(2)``... that does not exist yet.

    Never overwrites: the synced temporary file is hard-linked to the new name, which
    fails if the name exists; where hard links are not supported, the file is created
    with ``O_EXCL`` instead. Used for backups.

    Parameters
    ----------
    path : callable
        ``n`` -> the ``n``-th candidate name, all in one folder.
    data : bytes
        The content.
    mode : int, optional
        Permission bits (default: those of any new file).
    tries : int
        How many names to try before giving up.

    Returns
    -------
    str
        The name written.
    """
    first = path(1)
    try:
        fd, tmp = temp_beside(first)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), first) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _new_file_mode() if mode is None else mode)
        for n in range(1, tries + 1):
            name = path(n)
            try:
                os.link(tmp, name)
            except FileExistsError:
                continue
            except OSError:  # no hard links here (some network and FAT file systems)
                try:
                    _write_exclusive(name, data, os.stat(tmp).st_mode & 0o7777)
                except FileExistsError:
                    continue
            fsync_folder(_folder_of(name))
            return name
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), first) from None
    finally:
        unlink_quietly(tmp)
    raise OptionError(f"{first}: {tries} backups of this name exist already: remove old ones")


def _write_exclusive(name: str, data: bytes, mode: int) -> None:
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.chmod(name, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        unlink_quietly(name)
        raise


@contextlib.contextmanager
def atomic_writer(
    path: str, *, mode: int | None = None, seekable: bool = False
) -> Iterator[BinaryIO]:
    """Write a file's new content to ``path``, which is replaced only if all went well.

    The caller writes to the yielded file. For a file (through its links) that is a
    temporary file beside it; on a clean exit it is synced, given the replaced file's
    permission bits (or, for a new file, ``mode``, or else those of any new file) and
    renamed onto the target in one step, and the folder is synced. If anything raises,
    the temporary file is removed, the target is untouched, and an :class:`OSError`
    names ``path``, not the temporary file. A FIFO or a device (:func:`.targets.output_target`)
    gets the bytes written into it, through an anonymous temporary file when the caller
    needs to ``seek``.

    Parameters
    ----------
    path : str
        The output as the user gave it.
    mode : int, optional
        Permission bits for a new file (the input's, for the output of a draw). A file
        replaced keeps its own: an output someone made private stays private.
    seekable : bool
        Whether the caller needs ``seek``, ``tell`` and ``read`` on the file it gets.
    """
    target = output_target(path)
    if target.stream:
        with open(target.path, "wb") as out:
            if not seekable:
                yield out
                return
            with tempfile.TemporaryFile() as fh:
                yield fh
                fh.seek(0)
                shutil.copyfileobj(fh, out, 1 << 20)
        return
    try:
        mode = os.stat(target.path).st_mode & 0o7777
    except FileNotFoundError:
        mode = _new_file_mode() if mode is None else mode
    tmp = ""
    try:
        fd, tmp = temp_beside(target.path)
        with os.fdopen(fd, "w+b") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, mode)
        os.replace(tmp, target.path)
    except OSError as exc:  # disk full, no permission...: name the user's file, not ours
        raise OSError(exc.errno, exc.strerror or str(exc), path) from None
    finally:
        if tmp and os.path.lexists(tmp):
            unlink_quietly(tmp)
    fsync_folder(_folder_of(target.path))  # make the rename durable too


def write_output(
    target: str,
    source: str,
    content: Iterable[bytes | bytearray] | Callable[[BinaryIO], object],
    *,
    keep: bytes | None = None,
) -> tuple[str, str | None]:
    """Write the output of a draw on ``source`` to ``target``: the one write path of the
    workbook and list operations, once their output is checked (:mod:`.targets`).

    Parameters
    ----------
    target : str
        The output (``source`` itself for an in-place write), through :func:`atomic_writer`:
        a new file gets ``source``'s permission bits.
    source : str
        The input.
    content : iterable of bytes, or callable
        The chunks to write, in order, hashed as they go (so a FIFO receives them as they
        come); or a function that writes into the seekable file it is given, which is then
        read back for its digest (a zip writer seeks).
    keep : bytes, optional
        ``source``'s content, to keep first as a backup (:func:`keep_backup`) that
        overwrites nothing.

    Returns
    -------
    (str, str or None)
        The output's SHA-256 (:mod:`.digest`) and the backup kept.
    """
    mode = os.stat(source).st_mode & 0o7777
    kept = None if keep is None else keep_backup(source, keep)
    if callable(content):
        with atomic_writer(target, mode=mode, seekable=True) as fh:
            content(fh)
            fh.seek(0)
            return file_sha256(fh), kept
    with atomic_writer(target, mode=mode) as fh:
        return copy_sha256(content, fh.write), kept


def backup_path(path: str, n: int = 1) -> str:
    """``report.xlsx`` -> ``report.bak.xlsx`` (``report.bak-2.xlsx`` for ``n=2``...): the
    names an in-place write tries, in order, for the backup it keeps.

    Parameters
    ----------
    path : str
        The file about to be replaced.
    n : int
        Which candidate: 1 for the first.

    Returns
    -------
    str
        The path of the backup, in the same folder.
    """
    stem, ext = os.path.splitext(path)
    return f"{stem}.bak{ext}" if n == 1 else f"{stem}.bak-{n}{ext}"
