"""Where an output may go: the checks made before any work, so that a draw is never
done for a file it cannot write.

A symbolic link is written through (the file it points to is the target), a FIFO or a
character device such as ``/dev/null`` is written into as a stream, and a folder or any
other kind of file is refused, as is a file in a folder that does not exist or may not
be written, and the input under another name. :mod:`.files` writes to the targets
resolved here.

Standard library only; used by the command line and by batch mode.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from ..draw.errors import OptionError

__all__ = [
    "Target",
    "check_another_output",
    "check_output",
    "check_writable",
    "is_stream",
    "output_of",
    "output_target",
]


@dataclass(frozen=True)
class Target:
    """Where an output goes: ``path`` with symbolic links resolved; ``stream`` when it is
    a FIFO or a character device to write into rather than a file to replace."""

    path: str
    stream: bool = False


def output_target(path: str) -> Target:
    """Resolve an output path, or refuse it with one line.

    Parameters
    ----------
    path : str
        The output as the user gave it.

    Returns
    -------
    Target
        The file to create or replace (through any symbolic link), or the FIFO or
        character device (``/dev/null``) to write into.

    Raises
    ------
    OptionError
        For a folder, a socket or block device, or a file in a folder that does not exist.
    """
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except (FileNotFoundError, NotADirectoryError):
        folder = os.path.dirname(real)
        if os.path.lexists(folder) and not os.path.isdir(folder):
            raise OptionError(
                f"{path}: {folder} is a file, not a folder: write somewhere else"
            ) from None
        if not os.path.isdir(folder):
            raise OptionError(
                f"{path}: the folder {folder} does not exist: create it first, or write "
                "somewhere else"
            ) from None
        return Target(real)
    if stat.S_ISREG(mode):
        return Target(real)
    if stat.S_ISDIR(mode):
        raise OptionError(f"{path} is a folder: name a file in it (or use --out-dir {path})")
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        return Target(real, stream=True)
    raise OptionError(f"{path} is not a regular file, a FIFO or a device: name a file instead")


def output_of(source: str, dst: str | None, *, in_place: bool, dry_run: bool) -> str | None:
    """The file a draw on ``source`` writes: ``dst``, or ``source`` itself ``in_place``.

    Parameters
    ----------
    source : str
        The input.
    dst : str or None
        The output given (``-o``), if any.
    in_place : bool
        Replace the input (``--in-place``): ``dst`` is then ignored.
    dry_run : bool
        Nothing will be written, so no output is needed.

    Returns
    -------
    str or None
        The output, or None for a dry run given none.

    Raises
    ------
    OptionError
        When there is neither an output nor ``in_place``, and this is no dry run.
    """
    target = source if in_place else dst
    if target is None and not dry_run:
        raise OptionError("give an output path (-o / dst) or --in-place (in_place=True)")
    return target


def is_stream(path: str) -> bool:
    """Whether ``path`` (through its links) is a FIFO or a character device (``/dev/null``),
    which an output is written into whatever its name: no name check applies to it."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def check_writable(path: str) -> None:
    """Refuse, before any work, a file that could not be written at the end: what
    :func:`output_target` refuses, or a folder this process may not create files in.
    Nothing is created to find out (a dry run writes nothing).

    Raises
    ------
    OptionError
        Naming the path and the folder.
    """
    if os.path.isdir(path):
        raise OptionError(
            f"{path} is a folder: name a file in it, such as {os.path.join(path, 'draw.json')}"
        )
    target = output_target(path)
    if target.stream:
        return
    folder = os.path.dirname(target.path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(
            f"{path}: the folder {folder} is not writable: write somewhere else, or ask for "
            "write permission on it"
        )


def check_output(path: str, source: str) -> None:
    """Refuse, before any work, an output that cannot be written (:func:`output_target`)
    or that is ``source`` under another name: a link to it, a hard link, another spelling.

    Raises
    ------
    OptionError
        Saying to use ``--in-place`` to replace the input.
    """
    output_target(path)
    try:
        same = os.path.samefile(path, source)
    except OSError:  # the output does not exist yet
        same = os.path.realpath(path) == os.path.realpath(source)
    if same:
        alias = "" if path == source else f" {source} (another name for the same file)"
        raise OptionError(f"{path}: the output is the input{alias}: use --in-place to replace it")


def check_another_output(path: str, option: str, taken: dict[str, str | None]) -> None:
    """Refuse, before any work, a second output of a draw (``--set-aside-output``) that
    cannot be written (:func:`output_target`) or that is one of the files ``taken`` names
    (``{"the input": src, "the sample's output (-o)": dst}``), under any name.

    Raises
    ------
    OptionError
        Naming ``option``, the path and the file it would replace.
    """
    try:
        output_target(path)
    except OptionError as exc:
        raise OptionError(f"{option} {exc}") from None
    for what, other in taken.items():
        if other is None:
            continue
        try:
            same = os.path.samefile(path, other)
        except OSError:  # one of them does not exist yet
            same = os.path.realpath(path) == os.path.realpath(other)
        if same:
            raise OptionError(f"{option} {path}: that is {what}: name another file")
