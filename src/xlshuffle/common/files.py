"""Safe file writing: nobody ever sees a half-written file.

Every write goes to a temporary file in the target's own folder (named
``.~xlshuffle-*.tmp``, so it is easy to recognise and clean up after a crash), is flushed
to disk, and then replaces the target with one atomic rename; the folder is synced too,
so the rename itself survives a power cut. If anything fails the temporary file is
removed and the target is left as it was.

Standard library only; used by the command line and by batch mode.

Examples
--------
>>> import os, pathlib, tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     target = pathlib.Path(folder, "out.txt")
...     write_atomically(str(target), b"hello")
...     print(target.read_bytes(), os.listdir(folder))
b'hello' ['out.txt']
>>> backup_path("report.xlsx")
'report.bak.xlsx'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from typing import BinaryIO

__all__ = [
    "TEMP_PREFIX",
    "TEMP_SUFFIX",
    "atomic_writer",
    "backup_path",
    "fsync_folder",
    "temp_beside",
    "unlink_quietly",
    "write_atomically",
]

#: Name pattern of every temporary file xlshuffle writes: ``.~xlshuffle-*.tmp``.
TEMP_PREFIX = ".~xlshuffle-"
TEMP_SUFFIX = ".tmp"


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


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` all at once, or not at all.

    The bytes go to a temporary file beside ``path`` (:func:`temp_beside`), are synced
    to disk, and replace ``path`` with an atomic rename; then the folder is synced
    (:func:`fsync_folder`). On any error the temporary file is removed and ``path`` is
    untouched.

    Parameters
    ----------
    path : str
        The file to create or replace.
    data : bytes
        Its whole new content.
    """
    fd, tmp = temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        unlink_quietly(tmp)
        raise
    fsync_folder(_folder_of(path))  # make the rename durable too


@contextlib.contextmanager
def atomic_writer(path: str, *, mode_of: str | None = None) -> Iterator[BinaryIO]:
    """Stream a file's new content to ``path``, which is replaced only if all went well.

    The streaming form of :func:`write_atomically`, for outputs too large to hold twice
    in memory: the caller writes to the yielded file (a temporary one beside ``path``);
    on a clean exit it is synced and renamed onto ``path``, and the folder is synced. If
    the block raises, the temporary file is removed and ``path`` is untouched.

    Parameters
    ----------
    path : str
        The file to create or replace.
    mode_of : str, optional
        A file whose permission bits the new file takes (the input of a draw).
    """
    fd, tmp = temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if mode_of is not None:
            with contextlib.suppress(OSError):
                os.chmod(tmp, os.stat(mode_of).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        unlink_quietly(tmp)
        raise
    fsync_folder(_folder_of(path))


def backup_path(path: str) -> str:
    """``report.xlsx`` -> ``report.bak.xlsx``: the backup an in-place write keeps.

    Parameters
    ----------
    path : str
        The file about to be replaced.

    Returns
    -------
    str
        The path of its backup, in the same folder.
    """
    stem, ext = os.path.splitext(path)
    return f"{stem}.bak{ext}"
