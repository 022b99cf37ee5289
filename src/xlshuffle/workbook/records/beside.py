"""The restore fingerprint computed beside the rewrite, in a second Python process.

The fingerprint of a million rows (:mod:`.fingerprint`) costs a few seconds of Python, as
much as rewriting them, and both hold the GIL. On a machine with a second core, a second
process computes it from the input file while this one rewrites the sheet; the caller
collects it (:meth:`Beside.result`) before the output is put in place, so a fingerprint
that cannot be taken still refuses the draw with nothing written.

The second process is a fresh interpreter (``python -c``: what :mod:`multiprocessing`
calls the "spawn" start method, which every platform has), started through
:mod:`subprocess`. A :mod:`multiprocessing` child would import the caller's ``__main__``
again (running the top of a user's script that calls the library without an ``if
__name__ == "__main__"`` guard), and a fork copies a process that runs threads. The child
runs this very package (its folder goes first on the child's path), is sent its request
on its standard input and answers on its standard output.

For a file of :data:`WARM_FILE_BYTES` or more, the child is started before the sheet is
read (:func:`warm`): its interpreter starts and imports while the caller reads the sheet,
and it is sent its request when the draw is known, or stopped if none comes.

Where no second process can be started (no ``sys.executable``, a frozen application,
Pyodide), for a sheet too small to repay the start (:data:`MIN_BYTES`), or when the child
fails in any way (the file changed since it was read, a limit, a crash), the caller
computes the fingerprint itself: the same bytes either way.

Memory: the child streams the sheet through :mod:`zipfile` a window of whole rows at a
time (:data:`WINDOW` bytes), which it reads as a sheet of its own (:class:`SheetXml`), so
it holds a window, its canonical forms and the digests (4 bytes a row), never the sheet;
it is sent where the windows start and the rows the caller's quick scan found in each
(where each row starts, 4 bytes a row, and their numbers, unless they follow each other),
so that it reads no row twice; a sheet whose rows the quick scan did not read is
fingerprinted by the caller.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
import os
import pickle
import struct
import subprocess
import sys
import time
import zipfile
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice, pairwise, repeat
from operator import sub
from typing import Any, Literal

from ..limits import LIMITS
from ..package.codec import crc32, new_decompressor
from ..scan.sheet import SheetXml
from ..values.cells import SharedStrings
from .fingerprint import Fingerprint, canon, empty_digests, fill_digests

__all__ = [
    "MIN_BYTES",
    "WARM_FILE_BYTES",
    "WINDOW",
    "Beside",
    "Request",
    "Warm",
    "fingerprint_of_file",
    "serve",
    "start",
    "warm",
]

#: The peak memory (MB) of the last child that answered, where its system says it: what
#: ``benchmarks/bench_batch.py`` adds to the command's own.
last_child_peak_mb: float | None = None
#: Rows of fewer bytes are fingerprinted here: starting a process costs about 0.2 s.
MIN_BYTES = 8 << 20
#: A file at least this large has its child started before the sheet is read
#: (:func:`warm`): it imports its modules while the caller reads the sheet.
WARM_FILE_BYTES = 1 << 20
#: The child's window: whole rows, about this many bytes of XML.
WINDOW = 1 << 20

# The child imports the modules it runs and not the packages above them, which import
# every draw and the engine (0.1 s): the packages stand in as bare namespaces, their
# modules found in their folders.
_BOOT = """import os, sys, types
root = sys.argv[1]
sys.path.insert(0, root)
for name in ("xlshuffle", "xlshuffle.draw", "xlshuffle.workbook", "xlshuffle.workbook.records"):
    package = types.ModuleType(name)
    package.__path__ = [os.path.join(root, *name.split("."))]
    sys.modules[name] = package
from xlshuffle.workbook.records.beside import serve
serve()
"""


@dataclass
class Request:
    """What the child is sent: the file and its SHA-256, the sheet part, where its windows
    of whole rows start and end (offsets in the part) and the rows each holds (count,
    first and last number; where each row starts in its window; the numbers, when some are
    missing), the rows and columns of the fingerprint, and the limits in force."""

    path: str
    sha256: str
    part: str
    strings: str | None
    label: str
    prefix: bytes
    #: every cell of the rows says ``r`` (:meth:`~..scan.sheet.SheetXml.cells_numbered`)
    numbered: bool
    #: no row says ``r`` (:attr:`~..scan.sheet.SheetXml.row_numbering`)
    counted: bool
    cuts: list[int]
    rows: list[tuple[int, int, int]]
    #: where each row starts, from its window's start: the windows' rows one after another
    starts: array[int]
    #: the rows' numbers, the windows' one after another; None when they follow each other
    numbers: array[int] | None
    top: int
    bottom: int
    cols: list[int] | None
    #: :data:`~..limits.LIMITS` as a dict (the caller may have raised some)
    limits: dict[str, int]


class Beside:
    """A fingerprint being computed by a child process; :meth:`result` waits for it.

    The wait is bounded: a child that has not answered :attr:`grace` seconds plus
    :attr:`factor` times as long as it has run when the caller asks (the caller has
    rewritten the sheet meanwhile, about as much work) is stopped, and the fingerprint is
    computed here: a child stopped by its system or stuck cannot hold the draw forever.
    """

    #: Seconds a child may take beyond :attr:`factor` times its running time so far.
    grace = 30.0
    factor = 3.0

    def __init__(self, proc: subprocess.Popen[bytes], fallback: Callable[[], dict[str, Any]]):
        self.proc = proc
        self.fallback = fallback
        self.started = time.monotonic()
        self.value: dict[str, Any] | None = None
        #: Whether the child's answer was used (for tests).
        self.used = False

    def result(self) -> dict[str, Any]:
        """The fingerprint's record field: the child's, or computed here when it failed."""
        if self.value is None:
            self.value = self._answer()
            if self.value is None:
                self.value = self.fallback()
            else:
                self.used = True
        return self.value

    def _answer(self) -> dict[str, Any] | None:
        proc = self.proc
        timeout = self.grace + self.factor * (time.monotonic() - self.started)
        try:
            out, _ = proc.communicate(timeout=timeout)
            status, value, peak = pickle.loads(out)
        except Exception:  # a child that died, answered nothing or took too long: here
            self.cancel()
            return None
        global last_child_peak_mb  # read by the benchmarks
        last_child_peak_mb = peak
        if status != "ok" or not isinstance(value, bytes):
            return None
        return Fingerprint(base64.b64encode(value).decode("ascii")).to_dict()

    def after(self, pieces: bytes | Iterable[bytes]) -> Iterator[bytes]:
        """``pieces``, then the fingerprint collected: the writer of the sheet takes its
        last piece only once the fingerprint is there (or has refused the draw)."""
        if isinstance(pieces, bytes):
            yield pieces
        else:
            yield from pieces
        self.result()

    def cancel(self) -> None:
        """Stop the child (a refusal, an interrupt): it writes nothing anywhere."""
        proc = self.proc
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(OSError, ValueError):
            if proc.stdout is not None:
                proc.stdout.close()
            proc.wait()


def start(
    sx: SheetXml,
    path: str,
    sha256: str,
    part: str,
    strings: str | None,
    top: int,
    bottom: int,
    cols: list[int] | None,
    fallback: Callable[[], dict[str, Any]],
    *,
    warmed: Warm | None = None,
) -> Beside | None:
    """The fingerprint of rows ``top..bottom`` (columns ``cols``, every cell for None) of
    sheet ``sx`` (part ``part`` of the file at ``path``) started in a child process (the
    ``warmed`` one, when given and still there), or None where the caller had better
    compute it itself."""
    i0, i1 = sx.index_of(top), sx.index_of(bottom + 1)
    if i0 >= i1 or sx.ends[i1 - 1] - sx.starts[i0] < MIN_BYTES or not sx.row_numbering:
        return None
    cuts, rows, starts = _windows(sx, i0, i1)
    gaps = sx.numbers[i1 - 1] - sx.numbers[i0] != i1 - i0 - 1
    request = Request(
        path=os.path.abspath(path),
        sha256=sha256,
        part=part,
        strings=strings,
        label=sx.label,
        prefix=sx.prefix,
        numbered=sx.cells_numbered(sx.starts[i0], sx.ends[i1 - 1]),
        counted=sx.row_numbering == "counted",
        cuts=cuts,
        rows=rows,
        starts=starts,
        numbers=array("I", sx.numbers[i0:i1]) if gaps else None,
        top=top,
        bottom=bottom,
        cols=cols,
        limits=dataclasses.asdict(LIMITS),
    )
    proc = warmed.take() if warmed is not None else None
    if proc is None:
        proc = _spawn()
    if proc is None:  # no second process here
        return None
    beside = Beside(proc, fallback)
    try:
        assert proc.stdin is not None  # Popen(stdin=PIPE) made it
        proc.stdin.write(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL))
        proc.stdin.close()
        proc.stdin = None  # sent: communicate() then only reads the answer
    except OSError:
        beside.cancel()
        return None
    return beside


def _spawn() -> subprocess.Popen[bytes] | None:
    """A child started on this package, waiting for its request; None where none can
    start (no ``sys.executable``, a frozen application, no processes)."""
    if not sys.executable or getattr(sys, "frozen", False):
        return None
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    try:
        return subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT, root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, ValueError):
        return None


class Warm:
    """A child started before the sheet is read (:func:`warm`), so that its start and
    imports (about 50 ms) run beside the reading; :func:`start` takes it, and
    :meth:`discard` stops it if nothing did."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc: subprocess.Popen[bytes] | None = proc

    def take(self) -> subprocess.Popen[bytes] | None:
        """The child, handed over once (None when it has already been taken or has died)."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is not None:
            return None
        return proc

    def discard(self) -> None:
        """Stop the child unless it was taken: it has read no request and writes nothing."""
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(OSError, ValueError):
                if proc.stdin is not None:
                    proc.stdin.close()
            Beside(proc, dict).cancel()


def warm(path: str) -> Warm | None:
    """A child started for the file at ``path`` before its sheet is read, when the file is
    large enough (:data:`WARM_FILE_BYTES`) that its sheet will likely be fingerprinted
    beside the rewrite; None otherwise."""
    try:
        if os.path.getsize(path) < WARM_FILE_BYTES:
            return None
    except (OSError, TypeError, ValueError):
        return None
    proc = _spawn()
    return None if proc is None else Warm(proc)


def _windows(
    sx: SheetXml, i0: int, i1: int
) -> tuple[list[int], list[tuple[int, int, int]], array[int]]:
    """Where the windows of rows ``i0..i1-1`` start (offsets in the part: row starts, and
    the last row's end), each one's rows (how many, the first and last numbers), and where
    each row starts from its window's start (C-level maps, 4 bytes a row)."""
    cuts, rows, i = [sx.starts[i0]], [], i0
    starts = array("I")
    while i < i1:
        j = bisect_left(sx.starts, sx.starts[i] + WINDOW, i + 1, i1)
        cuts.append(sx.starts[j] if j < i1 else sx.ends[i1 - 1])
        rows.append((j - i, sx.numbers[i], sx.numbers[j - 1]))
        starts.extend(map(sub, islice(sx.starts, i, j), repeat(sx.starts[i])))
        i = j
    return cuts, rows, starts


# ---------------------------------------------------------------------- the child's side


def serve() -> None:
    """The child: read a :class:`Request` on standard input, write ``("ok", digests,
    peak)`` or ``("error", text, peak)`` on standard output (``peak``: the child's peak resident
    memory in MB, where the system says it, for the benchmarks)."""
    try:
        request = pickle.load(sys.stdin.buffer)
        answer: tuple[str, object, float | None] = ("ok", fingerprint_of_file(request), None)
    except BaseException as exc:  # every failure is the parent's cue to do it itself
        answer = ("error", f"{type(exc).__name__}: {exc}", None)
    answer = (answer[0], answer[1], _peak_mb())
    sys.stdout.buffer.write(pickle.dumps(answer))
    sys.stdout.buffer.flush()


def _peak_mb() -> float | None:
    """This process's peak resident memory since it started its own program (Linux's
    ``VmHWM``: ``getrusage`` also counts the parent's pages it was started from)."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def fingerprint_of_file(request: Request) -> bytes:
    """The digests of the fingerprint a :class:`Request` asks for (4 bytes a row), read
    from its file a window at a time."""
    for name, value in request.limits.items():
        setattr(LIMITS, name, value)
    if _file_sha256(request.path) != request.sha256:
        raise ValueError("the file changed since it was read")
    with zipfile.ZipFile(request.path) as zf:
        strings: list[SharedStrings | None] = []

        def shared() -> SharedStrings | None:
            if not strings:
                strings.append(_strings(zf, request.strings))
            return strings[0]

        digests = empty_digests(request.top, request.bottom)
        form = None
        p = request.prefix
        windows = _read_windows(_member(request.path, zf, request.part), request.cuts)
        numbering: Literal["r", "counted"] = "counted" if request.counted else "r"
        at = 0
        for window, (count, first, last) in zip(windows, request.rows, strict=True):
            numbers = (
                array("l", range(first, last + 1))
                if request.numbers is None
                else array("l", request.numbers[at : at + count])
            )
            starts = array("q", request.starts[at : at + count])
            at += count
            if len(numbers) != count or (numbers[0], numbers[-1]) != (first, last):
                raise ValueError("a window does not hold the rows the sheet has there")
            sx = SheetXml.of_rows(window, request.label, p, numbering, numbers, starts)
            if request.numbered:
                sx.know_cells_numbered()
            if form is None:
                form = canon(sx, shared, request.cols)
            form.sx = sx
            fill_digests(digests, form, request.top, request.bottom)
    return bytes(digests)


def _file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _strings(zf: zipfile.ZipFile, part: str | None) -> SharedStrings | None:
    if part is None:
        return None
    with zf.open(part) as fh:
        return SharedStrings.parse(_bounded(fh, LIMITS.max_strings_bytes))


def _bounded(fh: Any, cap: int) -> Iterator[bytes]:
    total = 0
    for block in iter(lambda: fh.read(1 << 20), b""):
        total += len(block)
        if total > cap:
            raise ValueError("a part is larger than the limit")
        yield block


def _member(path: str, zf: zipfile.ZipFile, part: str) -> Iterator[bytes]:
    """The part's bytes in blocks, inflated by the package's codec (python-isal where it is
    installed: zipfile inflates with zlib, about three times as slow), its size and CRC-32
    checked as zipfile checks them."""
    info = zf.getinfo(part)
    if info.flag_bits & 0x01 or info.compress_type not in (
        zipfile.ZIP_STORED,
        zipfile.ZIP_DEFLATED,
    ):
        raise ValueError("the sheet part is stored in a way this reader does not read")
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        header = fh.read(30)
        if len(header) != 30 or header[:4] != b"PK\x03\x04":
            raise ValueError("the sheet part's local header is not where the directory says")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        fh.seek(info.header_offset + 30 + name_length + extra_length)
        inflate = new_decompressor() if info.compress_type == zipfile.ZIP_DEFLATED else None
        left, total, crc = info.compress_size, 0, 0
        while left > 0 or (inflate is not None and inflate.unconsumed_tail):
            if inflate is not None and inflate.unconsumed_tail:
                out = inflate.decompress(inflate.unconsumed_tail, _BLOCK)
            else:
                block = fh.read(min(_BLOCK, left))
                if not block:
                    raise ValueError("the file ends inside the sheet part")
                left -= len(block)
                out = block if inflate is None else inflate.decompress(block, _BLOCK)
            total += len(out)
            if total > info.file_size:
                raise ValueError("the sheet part inflates past its declared size")
            crc = crc32(out, crc)
            if out:
                yield out
    if total != info.file_size or crc != info.CRC:
        raise ValueError("the sheet part does not match its checksum")


#: What :func:`_member` reads and inflates at a time.
_BLOCK = 1 << 20


def _read_windows(blocks: Iterator[bytes], cuts: list[int]) -> Iterator[bytes]:
    """The bytes of the part (``blocks``, from its start) between consecutive cuts."""
    buffer = bytearray()
    at = 0  # the part's offset of buffer[0]
    for a, b in pairwise(cuts):
        while at + len(buffer) < b:
            block = next(blocks, b"")
            if not block:
                raise ValueError("the sheet part ends early")
            buffer += block
        with memoryview(buffer) as view:
            window = bytes(view[a - at : b - at])
        del buffer[: b - at]
        at = b
        yield window


if __name__ == "__main__":  # pragma: no cover - the child runs serve() through _BOOT
    serve()
