"""The zip layer: copies keep every byte, rewrites keep every member's metadata, reads are
bounded. Checked against the standard library's zipfile, not against zipio itself."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlshuffle.draw.errors import WorkbookError
from xlshuffle.workbook import raised
from xlshuffle.workbook.package import zipread
from xlshuffle.workbook.package.zipread import Package
from xlshuffle.workbook.package.zipwrite import NullSink, write_package

from support import ROOT, SHARED, require

CORPUS = SHARED / "corpus"


def make_zip(members: list[tuple[str, bytes, int]], comment: bytes = b"") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i, (name, data, method) in enumerate(members):
            info = zipfile.ZipInfo(name, date_time=(2020, 1 + i % 12, 2, 3, 4, 6))
            info.compress_type = method
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
        zf.comment = comment
    return buf.getvalue()


def written(pkg: Package, **kw: object) -> bytes:
    out = io.BytesIO()
    write_package(pkg, out, **kw)  # type: ignore[arg-type]
    return out.getvalue()


def test_untouched_package_is_identical() -> None:
    data = make_zip(
        [("a.xml", b"<a/>" * 50, zipfile.ZIP_DEFLATED), ("b.bin", b"\0\1" * 9, 0)], b"hello"
    )
    assert written(Package(data, "t.xlsx")) == data


def test_every_corpus_package_copies_byte_for_byte() -> None:
    require("corpus", CORPUS.is_dir(), "put the shared corpus at ../shared/corpus")
    copied = 0
    for path in sorted(CORPUS.glob("*.xls[xm]")):
        data = path.read_bytes()
        try:
            pkg = Package(data, path.name)
        except WorkbookError:
            continue  # encrypted (OLE) or empty files: not zips
        assert written(pkg) == data, path.name
        copied += 1
    assert copied > 150


def test_changed_member_keeps_place_name_and_times() -> None:
    data = make_zip(
        [
            ("first.xml", b"<x>1</x>", zipfile.ZIP_DEFLATED),
            ("mid.xml", b"<x>2</x>" * 100, zipfile.ZIP_DEFLATED),
            ("stored.bin", b"raw", zipfile.ZIP_STORED),
        ],
        b"keep me",
    )
    out = written(
        Package(data, "t"),
        changed={"mid.xml": [b"<y>", b"new" * 1000, b"</y>"]},
        removed=["stored.bin"],
        added=[("new.xml", b"<n/>")],
        like="first.xml",
    )
    before, after = zipfile.ZipFile(io.BytesIO(data)), zipfile.ZipFile(io.BytesIO(out))
    assert after.testzip() is None
    assert [i.filename for i in after.infolist()] == ["first.xml", "mid.xml", "new.xml"]
    assert after.read("mid.xml") == b"<y>" + b"new" * 1000 + b"</y>"
    old, new = before.getinfo("mid.xml"), after.getinfo("mid.xml")
    assert (new.date_time, new.compress_type, new.external_attr) == (
        old.date_time,
        old.compress_type,
        old.external_attr,
    )
    assert after.getinfo("new.xml").date_time == before.getinfo("first.xml").date_time
    assert after.comment == b"keep me"
    # the first member's local record is the input's bytes
    first = before.getinfo("first.xml")
    assert out[: first.compress_size + 30] == data[: first.compress_size + 30]


def test_dry_run_sink_accepts_a_package() -> None:
    data = make_zip([("a.xml", b"<a/>", zipfile.ZIP_DEFLATED)])
    sink = NullSink()
    write_package(Package(data, "t"), sink, changed={"a.xml": b"<b/>"})
    assert sink.tell() > 0


@given(st.lists(st.binary(max_size=3000), min_size=1, max_size=5), st.integers(1, 5000))
def test_rewrite_round_trips_any_content(parts: list[bytes], chunk: int) -> None:
    data = make_zip([(f"p{i}.xml", p, zipfile.ZIP_DEFLATED) for i, p in enumerate(parts)])
    pkg = Package(data, "t")
    blob = b"".join(parts)
    pieces = [blob[i : i + chunk] for i in range(0, len(blob), chunk)]
    out = written(pkg, changed={"p0.xml": pieces})
    zf = zipfile.ZipFile(io.BytesIO(out))
    assert zf.read("p0.xml") == blob
    assert [zf.read(f"p{i}.xml") for i in range(1, len(parts))] == parts[1:]
    assert b"".join(pkg.chunks("p0.xml")) == parts[0]


def _patch_sizes(data: bytes, name: str, usize: int) -> bytes:
    """Make the headers of ``name`` declare ``usize`` bytes uncompressed."""
    out = bytearray(data)
    zf = zipfile.ZipFile(io.BytesIO(data))
    info = zf.getinfo(name)
    struct.pack_into("<I", out, info.header_offset + 22, usize)
    cd = out.find(b"PK\x01\x02")
    while cd >= 0:
        nlen = struct.unpack_from("<H", out, cd + 28)[0]
        if bytes(out[cd + 46 : cd + 46 + nlen]) == name.encode():
            struct.pack_into("<I", out, cd + 24, usize)
        cd = out.find(b"PK\x01\x02", cd + 4)
    return bytes(out)


def test_member_that_inflates_past_its_declared_size_is_refused() -> None:
    data = _patch_sizes(
        make_zip([("big.xml", b"a" * 100_000, zipfile.ZIP_DEFLATED)]), "big.xml", 10
    )
    with pytest.raises(WorkbookError, match="inflates past the size it declares"):
        Package(data, "lie.xlsx").read("big.xml")


def test_read_limit_and_bomb_ratio() -> None:
    data = make_zip([("big.xml", b"a" * 3_000_000, zipfile.ZIP_DEFLATED)])
    with pytest.raises(WorkbookError, match="larger than"):
        Package(data, "t").read("big.xml", limit=1_000_000)
    bomb = make_zip([("bomb.xml", b"\0" * (70 * 1024**2), zipfile.ZIP_DEFLATED)])
    with raised(max_ratio=100), pytest.raises(WorkbookError, match="zip bomb"):
        Package(bomb, "t").read("bomb.xml", limit=10**9)


def test_duplicate_names_truncation_and_garbage_are_one_line_errors() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("a.xml", b"1")
        with pytest.warns(UserWarning, match="Duplicate name"):
            zf.writestr("a.xml", b"2")
    with pytest.raises(WorkbookError, match="twice"):
        Package(buf.getvalue(), "dup.xlsx")
    good = make_zip([("a.xml", b"<a/>" * 100, zipfile.ZIP_DEFLATED)])
    for bad in (good[: len(good) // 2], b"PK\x03\x04" + b"\0" * 40, b""):
        with pytest.raises(WorkbookError) as info:
            Package(bad, "bad.xlsx")
        assert "\n" not in str(info.value) and "bad.xlsx" in str(info.value)


def test_crc_mismatch_is_refused() -> None:
    data = bytearray(make_zip([("a.xml", b"<a>hello</a>", zipfile.ZIP_STORED)]))
    at = data.find(b"hello")
    data[at] = ord("j")
    with pytest.raises(WorkbookError, match="checksum"):
        Package(bytes(data), "t").read("a.xml")


def test_deflate_output_is_standard() -> None:
    data = make_zip([("a.xml", b"x", zipfile.ZIP_DEFLATED)])
    out = written(Package(data, "t"), changed={"a.xml": b"hello " * 999})
    info = zipfile.ZipFile(io.BytesIO(out)).getinfo("a.xml")
    raw = out[info.header_offset + 30 + len("a.xml") :][: info.compress_size]
    assert zlib.decompress(raw, -15) == b"hello " * 999


def test_fixture_files_are_parsed(tmp_path: Path) -> None:
    for path in (ROOT / "workbooks").glob("*.xlsx"):
        assert written(Package(path.read_bytes(), path.name)) == path.read_bytes()


@pytest.mark.parametrize("library", ["zlib", "python-isal"])
def test_either_library_reads_and_refuses_alike(
    library: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parts inflate to zipfile's bytes, and a broken stream is one line, whether
    python-isal or zlib inflates them (the README's install has python-isal where it has
    wheels; elsewhere zlib)."""
    if library == "python-isal":
        isal_zlib = pytest.importorskip("isal.isal_zlib")
        monkeypatch.setattr(zipread, "new_decompressor", lambda: isal_zlib.decompressobj(-15))
        monkeypatch.setattr(zipread, "crc32", isal_zlib.crc32)
    else:
        monkeypatch.setattr(zipread, "new_decompressor", lambda: zlib.decompressobj(-15))
        monkeypatch.setattr(zipread, "crc32", zlib.crc32)
    text = b"".join(b"<row r='%d'><c><v>%d</v></c></row>" % (i, i * i) for i in range(40_000))
    data = make_zip([("a.xml", text, zipfile.ZIP_DEFLATED), ("b.bin", b"x" * 10, 0)])
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert Package(data, "t.xlsx").read("a.xml") == zf.read("a.xml")
    start = data.index(b"a.xml") + len(b"a.xml")  # the local header's name, then the data
    broken = data[:start] + b"\xff" * 64 + data[start + 64 :]
    with pytest.raises(WorkbookError) as err:
        Package(broken, "t.xlsx").read("a.xml")
    assert "t.xlsx" in str(err.value) and "\n" not in str(err.value)


def _damaged_members() -> list[tuple[str, bytes]]:
    """Packages whose member ``a.xml`` is damaged in each way a reader must refuse."""
    text = b"".join(b"<row r='%d'><c><v>%d</v></c></row>" % (i, i * i) for i in range(20_000))
    good = make_zip([("a.xml", text, zipfile.ZIP_DEFLATED)])
    start = good.index(b"a.xml") + len(b"a.xml")
    info = zipfile.ZipFile(io.BytesIO(good)).getinfo("a.xml")
    end = start + info.compress_size
    crc = bytearray(good)
    struct.pack_into("<I", crc, crc.find(b"PK\x01\x02") + 16, info.CRC ^ 1)
    return [
        ("good", good),
        ("declared too small", _patch_sizes(good, "a.xml", len(text) - 1)),
        ("declared too large", _patch_sizes(good, "a.xml", len(text) + 1)),
        ("broken stream", good[:start] + b"\xff" * 64 + good[start + 64 :]),
        (
            "cut short",
            good[: start + info.compress_size // 2]
            + b"\0" * (end - start - info.compress_size // 2)
            + good[end:],
        ),
        ("wrong CRC", bytes(crc)),
    ]


@pytest.mark.parametrize(
    ("case", "data"), _damaged_members(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_one_call_reads_and_refuses_as_the_chunks_do(
    case: str, data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A member inflated by one call (python-isal) gives the bytes and the errors that
    the chunked reading gives, for every kind of damage."""
    pytest.importorskip("isal.isal_zlib")
    got = []
    for one_call in (True, False):
        monkeypatch.setattr(zipread, "_ONE_CALL", one_call)
        try:
            got.append(Package(data, "t.xlsx").read("a.xml"))
        except WorkbookError as exc:
            got.append(str(exc))
    assert got[0] == got[1]
    if case == "good":
        assert got[0] == zipfile.ZipFile(io.BytesIO(data)).read("a.xml")
    else:
        assert isinstance(got[0], str) and "t.xlsx" in got[0]
