"""Mutations of small valid workbooks, and the check every mutant must pass, for the reader
fuzz tests (tests/test_wb_fuzz.py).

A mutant is a fixture of tests/fixtures/engine/ with random byte flips, truncations,
insertions, or one member's XML replaced with a damaged copy (flipped bytes, deleted or
duplicated tags, huge numbers in ``r=``/``ref=``/``spans=``, a whole-sheet dimension,
unbalanced quotes, invalid UTF-8, lone surrogates as character references, deep nesting),
the zip rebuilt with ``zipfile``. :func:`check_outcome` runs every public entry point on it
under a watchdog: each must succeed with a readable output, or refuse in one line naming
the input file.
"""

from __future__ import annotations

import contextlib
import io
import signal
import warnings
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import openpyxl
from hypothesis import strategies as st

import xlshuffle
from xlshuffle.workbook import groups_workbook, sample_workbook, shuffle_workbook

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"
SEEDS = ["strict.xlsx", "prefixed.xlsx", "comments.xlsx", "shared_formulas.xlsx", "merges.xlsx"]

#: Seconds one entry point may take on one of these small files.
BUDGET = 2.0

_SNIPPETS = [
    b'<dimension ref="A1:XFD1048576"/>',
    b'<c r="XFD1048576"><v>1</v></c>',
    b'<row r="99999999999">',
    b'<row r="1048576" spans="1:99999999999">',
    b'<mergeCell ref="A1:XFD1048576"/>',
    b'<mergeCell ref="A99999999:B3"/>',
    b'<c r="A1" t="s"><v>99999999999999999999</v></c>',
    b'<c r="B2"><f t="shared" ref="A1:XFD1048576" si="0">A1</f></c>',
    b'<c r="B2"><f t="shared" si="99999999999"/></c>',
    b"&#xD800;",
    b"&#55296;",
    b"&#x110000;",
    b"&#0;",
    b"\xff\xfe\xc3\x28",
    b"\xed\xa0\x80",
    b'"',
    b"'",
    b"<",
    b">",
    b"</row>",
    b"<row>",
    b"<sheetData>",
    b"</sheetData>",
    b"<![CDATA[",
    b"<!--",
    b"<?x",
    b"<x:" + b"a>" * 3,
    b"<a>" * 2000 + b"</a>" * 2000,
    b"<a " + b'b="' * 300,
    b' r="' + b"9" * 400 + b'"',
    b' ref="' + b"A" * 5000 + b'1"',
]


def members(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [(info, zf.read(info)) for info in zf.infolist()]


def rebuild(parts: list[tuple[zipfile.ZipInfo, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, body in parts:
            zf.writestr(info, body)
    return buf.getvalue()


@st.composite
def xml_edits(draw: st.DrawFn, xml: bytes) -> bytes:
    """``xml`` with one to four random edits."""
    for _ in range(draw(st.integers(1, 4))):
        n = len(xml)
        at = draw(st.integers(0, n))
        kind = draw(st.sampled_from(["flip", "insert", "delete", "dup_tag", "del_tag", "number"]))
        if kind == "flip" and n:
            at = min(at, n - 1)
            xml = xml[:at] + bytes([xml[at] ^ draw(st.integers(1, 255))]) + xml[at + 1 :]
        elif kind == "insert":
            snippet = draw(st.sampled_from(_SNIPPETS) | st.binary(min_size=1, max_size=8))
            xml = xml[:at] + snippet + xml[at:]
        elif kind == "delete":
            xml = xml[:at] + xml[at + draw(st.integers(1, 40)) :]
        elif kind in ("dup_tag", "del_tag"):
            i = xml.find(b"<", at)
            j = xml.find(b">", i) + 1 if i >= 0 else 0
            if i >= 0 and j > 0:
                tag = xml[i:j]
                xml = xml[:j] + tag + xml[j:] if kind == "dup_tag" else xml[:i] + xml[j:]
        else:  # a digit run replaced with a huge or zero number
            i = next((k for k in range(at, n) if xml[k : k + 1].isdigit()), -1)
            if i >= 0:
                j = i
                while j < n and xml[j : j + 1].isdigit():
                    j += 1
                big = draw(st.sampled_from([b"0", b"1048577", b"16385", b"9" * 30, b"-1"]))
                xml = xml[:i] + big + xml[j:]
    return xml


@st.composite
def mutants(draw: st.DrawFn, seeds: list[str] = SEEDS) -> bytes:
    """A damaged copy of one of ``seeds``."""
    data = (ENGINE / draw(st.sampled_from(seeds))).read_bytes()
    how = draw(st.sampled_from(["member", "member", "member", "bytes", "truncate"]))
    if how == "truncate":
        return data[: draw(st.integers(0, len(data) - 1))]
    if how == "bytes":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 6))):
            at = draw(st.integers(0, len(out) - 1))
            if draw(st.booleans()):
                out[at] ^= draw(st.integers(1, 255))
            else:
                out[at:at] = draw(st.binary(min_size=1, max_size=6))
        return bytes(out)
    parts = members(data)
    xml_parts = [
        i for i, (info, _) in enumerate(parts) if info.filename.endswith((".xml", ".rels", ".vml"))
    ]
    sheets = [i for i in xml_parts if "worksheets/" in parts[i][0].filename]
    pick = draw(
        st.sampled_from(sheets) if sheets and draw(st.booleans()) else st.sampled_from(xml_parts)
    )
    info, body = parts[pick]
    parts[pick] = (info, draw(xml_edits(body)))
    return rebuild(parts)


class Hang(Exception):
    """An entry point ran past its time budget."""


@contextlib.contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread once ``seconds`` have passed."""

    def fire(signum: int, frame: object) -> None:
        raise Hang(f"ran past {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _calls(src: Path, out: Path) -> list[tuple[str, Callable[[], object], Path | None]]:
    return [
        ("shuffle", lambda: shuffle_workbook(src, out / "s.xlsx", seed=1), out / "s.xlsx"),
        ("shuffle dry", lambda: shuffle_workbook(src, seed=1, dry_run=True), None),
        ("sample", lambda: sample_workbook(src, out / "k.xlsx", k=2, seed=1), out / "k.xlsx"),
        ("groups", lambda: groups_workbook(src, out / "g.xlsx", k=2, seed=1), out / "g.xlsx"),
    ]


def _openpyxl_error(path: Path) -> str | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with open(path, "rb") as fh:  # closed even when openpyxl fails half-way
                openpyxl.load_workbook(fh).close()
        except Exception as exc:  # any refusal of openpyxl's
            return f"{type(exc).__name__}: {exc}"
    return None


def check_output(path: Path, src: Path) -> None:
    """A written output is a zip whose every member inflates to its CRC, and openpyxl reads
    it unless it also refuses the input."""
    with zipfile.ZipFile(path) as zf:
        assert zf.testzip() is None, f"{path}: a member fails its CRC"
    refused = _openpyxl_error(path)
    if refused is not None:
        assert _openpyxl_error(src) is not None, (
            f"openpyxl reads the input, not the output: {refused}"
        )


def check_outcome(data: bytes, folder: Path) -> None:
    """Every entry point on ``data`` succeeds with a readable output, or refuses in one line
    naming the input, within :data:`BUDGET` seconds each."""
    src = folder / "fuzzed input.xlsx"
    src.write_bytes(data)
    out = folder / "out"
    out.mkdir(exist_ok=True)
    for what, call, written in _calls(src, out):
        if written is not None and written.exists():
            written.unlink()
        try:
            with watchdog(BUDGET):
                call()
        except xlshuffle.XlshuffleError as exc:
            message = str(exc)
            assert "\n" not in message, f"{what}: a message of several lines: {message!r}"
            assert str(src) in message, f"{what}: the message does not name the input: {message}"
            assert ".~xlshuffle" not in message, f"{what}: names a temporary file: {message}"
            continue
        if written is not None:
            check_output(written, src)
