"""Workbooks at the edges end in one line, with nothing left behind: a used range that
reaches column XFD (``groups``), a damaged merge reference in the drawn sheet; and a
workbook of many large sheets costs only the sheet drawn.

The workbooks are made here with openpyxl and edited with zipfile, not with xlshuffle.
"""

from __future__ import annotations

import importlib.util
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from xlshuffle.cli import main

from support import ROOT

openpyxl = pytest.importorskip("openpyxl")


def make_list(path: Path, *, far: str | None = None, merge: str | None = None) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Name", "Score"])
    for i in range(6):
        ws.append([f"pupil {i}", i])
    if far:
        ws[far] = "far"
    if merge:
        ws.merge_cells(merge)
    wb.save(path)
    return path


def replace_in_sheet(path: Path, old: bytes, new: bytes) -> None:
    """Rewrite ``xl/worksheets/sheet1.xml`` of ``path`` with ``old`` replaced by ``new``."""
    with zipfile.ZipFile(path) as zin:
        items = [(info, zin.read(info)) for info in zin.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in items:
            if info.filename == "xl/worksheets/sheet1.xml":
                assert old in data
                data = data.replace(old, new)
            zout.writestr(info, data)


def refused(capsys: pytest.CaptureFixture[str], folder: Path, *argv: str) -> str:
    """Run ``argv``; require exit 1, one ``Error:`` line, nothing on stdout, no new file."""
    before = set(folder.iterdir())
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 1, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    assert out == ""
    assert set(folder.iterdir()) == before  # no output, no temporary file, no record
    return lines[0]


@pytest.mark.parametrize(
    ("far", "extra"),
    [
        ("XFD1", []),
        ("XFD7", []),
        ("XFD1", ["--dry-run"]),
        ("XFD1", ["--range", "A1:B7"]),
        ("XFD1", ["--columns", "A:B"]),
        ("XFD20", ["--range", "A1:B7"]),  # a cell below the list: still no column past it
    ],
)
def test_groups_has_no_column_past_xfd(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], far: str, extra: list[str]
) -> None:
    # the group column went to "XFE", which is no column: Excel refused the output
    src = make_list(tmp_path / "wide.xlsx", far=far)
    line = refused(
        capsys,
        tmp_path,
        "groups",
        str(src),
        "-k",
        "2",
        "--seed",
        "1",
        "-o",
        str(tmp_path / "out.xlsx"),
        "--record",
        str(tmp_path / "r.json"),
        *extra,
    )
    assert "column XFD" in line and "'Data'" in line and str(src) in line


def test_groups_next_to_xfc_still_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = make_list(tmp_path / "wide.xlsx", far="XFC1")
    out = tmp_path / "out.xlsx"
    assert main(["groups", str(src), "-k", "2", "--seed", "1", "-o", str(out)]) == 0
    ws = openpyxl.load_workbook(out)["Data"]
    assert ws["XFD1"].value == "Group"
    assert sorted(ws.cell(r, 16384).value for r in range(2, 8)) == [1, 1, 1, 2, 2, 2]


@pytest.mark.parametrize("ref", ["A1:ZZZZZ9", "", "B2:A1", "A9:B9:C9", "A0:B9", "XFE9:XFE9"])
@pytest.mark.parametrize("command", [["shuffle"], ["sample", "-k", "2"], ["groups", "-k", "2"]])
def test_a_damaged_merge_reference_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ref: str, command: list[str]
) -> None:
    # such a merge was skipped by every check that reads merges, and drawn over
    src = make_list(tmp_path / "merged.xlsx", merge="A9:B9")
    replace_in_sheet(src, b'ref="A9:B9"', f'ref="{ref}"'.encode())
    out, record = str(tmp_path / "out.xlsx"), str(tmp_path / "r.json")
    line = refused(
        capsys, tmp_path, *command, str(src), "--seed", "1", "-o", out, "--record", record
    )
    assert f"{ref!r}" in line and "sheet 'Data'" in line and str(src) in line


def test_a_sound_merge_below_the_list_still_draws(tmp_path: Path) -> None:
    src = make_list(tmp_path / "merged.xlsx", merge="A9:B9")
    assert (
        main(
            [
                "shuffle",
                str(src),
                "--seed",
                "1",
                "--range",
                "A1:B7",
                "-o",
                str(tmp_path / "out.xlsx"),
            ]
        )
        == 0
    )


# --------------------------------------------------------------------------- many large sheets


def _make_big_workbook() -> Any:
    tool = ROOT / "tools" / "make_big_workbook.py"
    spec = importlib.util.spec_from_file_location("make_big_workbook", tool)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_big_workbook


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sheet ``List`` (1,000 rows) and three sheets of 12 MB of XML each (~1.7 MB deflated,
    past the size up to which a sheet that is not drawn is read)."""
    path = tmp_path_factory.mktemp("big") / "big.xlsx"
    _make_big_workbook()(str(path), sheets=3, mb=12)
    with zipfile.ZipFile(path) as zf:
        for name in ("xl/worksheets/sheet2.xml", "xl/worksheets/sheet4.xml"):
            assert zf.getinfo(name).compress_size > 1024**2
    return path


@pytest.fixture
def inflated(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The parts the engine inflates, counted (every read goes through Package.chunks or,
    a part inflated by one call, Package._whole)."""
    from xlshuffle.workbook.package import zipread as zipio

    seen: Counter[str] = Counter()
    real, real_whole = zipio.Package.chunks, zipio.Package._whole

    def chunks(self: Any, name: str, **kwargs: Any) -> Any:
        seen[name] += 1
        return real(self, name, **kwargs)

    def whole(self: Any, member: Any) -> bytes:
        seen[member.name] += 1
        return real_whole(self, member)

    monkeypatch.setattr(zipio.Package, "chunks", chunks)
    monkeypatch.setattr(zipio.Package, "_whole", whole)
    return seen


@pytest.mark.slow  # builds three sheets of 12 MB
def test_only_the_drawn_sheet_of_many_large_sheets_is_read(
    big: Path, tmp_path: Path, inflated: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # each other sheet was inflated twice by a shuffle: once to look for formulas, once to
    # check its CRC before copying it; 10 sheets of 50 MB took 10 s for a 1,000-row list
    out, rec = tmp_path / "out.xlsx", tmp_path / "rec.json"
    runs = [
        [
            "shuffle",
            str(big),
            "--sheet",
            "List",
            "--seed",
            "1",
            "-o",
            str(out),
            "--record",
            str(rec),
        ],
        ["verify", str(rec), "--input", str(big), "--output", str(out)],
        ["restore", str(rec), str(out), "-o", str(tmp_path / "back.xlsx")],
        [
            "groups",
            str(big),
            "--sheet",
            "List",
            "-k",
            "3",
            "--seed",
            "1",
            "-o",
            str(tmp_path / "groups.xlsx"),
        ],
        [
            "sample",
            str(big),
            "--sheet",
            "List",
            "-k",
            "3",
            "--seed",
            "1",
            "--out-dir",
            str(tmp_path / "sample"),
        ],
    ]
    (tmp_path / "sample").mkdir()
    for argv in runs:
        inflated.clear()
        assert main(argv) == 0, capsys.readouterr().err
        assert "xl/worksheets/sheet1.xml" in inflated or argv[0] == "restore", argv
        others = sorted(
            n
            for n in inflated
            if n.startswith("xl/worksheets/sheet") and n != "xl/worksheets/sheet1.xml"
        )
        assert others == [], (argv[0], others)
    # the other sheets are copied byte for byte; the drawn one holds the same rows
    with zipfile.ZipFile(big) as a, zipfile.ZipFile(out) as b:
        for n in ("xl/worksheets/sheet2.xml", "xl/worksheets/sheet3.xml"):
            assert a.getinfo(n).CRC == b.getinfo(n).CRC and a.read(n) == b.read(n)
    book = openpyxl.load_workbook(out, read_only=True)
    try:
        rows = list(book["List"].values)
    finally:
        book.close()
    assert rows[0] == ("Name", "Number", "Half")
    assert sorted(r[1] for r in rows[1:]) == list(range(2, 1002))


@pytest.mark.slow  # draws a sheet of 12 MB
def test_a_large_sheet_that_is_drawn_is_read(
    big: Path, tmp_path: Path, inflated: Counter[str]
) -> None:
    out = tmp_path / "out.xlsx"
    assert main(["shuffle", str(big), "--sheet", "Big1", "--seed", "1", "-o", str(out)]) == 0
    assert inflated["xl/worksheets/sheet2.xml"] == 1
    assert "xl/worksheets/sheet3.xml" not in inflated
