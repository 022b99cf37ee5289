"""Workbooks at the edges end in one line, with nothing left behind: a used range that
reaches column XFD (``groups``), a damaged merge reference in the drawn sheet.

The workbooks are made here with openpyxl and edited with zipfile, not with xlshuffle.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from xlshuffle.cli import main

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
def test_groups_has_no_column_past_xfd(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       far: str, extra: list[str]) -> None:  # fmt: skip
    # the group column went to "XFE", which is no column: Excel refused the output
    src = make_list(tmp_path / "wide.xlsx", far=far)
    line = refused(capsys, tmp_path, "groups", str(src), "-k", "2", "--seed", "1",
                   "-o", str(tmp_path / "out.xlsx"), "--record", str(tmp_path / "r.json"),
                   *extra)  # fmt: skip
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
def test_a_damaged_merge_reference_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               ref: str, command: list[str]) -> None:  # fmt: skip
    # such a merge was skipped by every check that reads merges, and drawn over
    src = make_list(tmp_path / "merged.xlsx", merge="A9:B9")
    replace_in_sheet(src, b'ref="A9:B9"', f'ref="{ref}"'.encode())
    line = refused(capsys, tmp_path, *command, str(src), "--seed", "1",
                   "-o", str(tmp_path / "out.xlsx"), "--record", str(tmp_path / "r.json"))  # fmt: skip
    assert f"{ref!r}" in line and "sheet 'Data'" in line and str(src) in line


def test_a_sound_merge_below_the_list_still_draws(tmp_path: Path) -> None:
    src = make_list(tmp_path / "merged.xlsx", merge="A9:B9")
    assert main(["shuffle", str(src), "--seed", "1", "--range", "A1:B7", "-o",
                 str(tmp_path / "out.xlsx")]) == 0  # fmt: skip
