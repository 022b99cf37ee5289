"""Restore undoes only its own draw.

The file given to ``restore`` must be the record's output (its SHA-256), or that output
edited since where the drawn cells still hold what the draw wrote (re-saved by openpyxl
or LibreOffice, a cell changed outside the drawn rows). Anything else - another workbook,
the unshuffled input, an output whose drawn cell was edited - is refused in one line
naming where it differs (exit 1), and nothing is written. Files are edited and read back
with openpyxl, which shares no code with the engine.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from xlshuffle import WorkbookError
from xlshuffle.cli import main
from xlshuffle.workbook import restore_workbook, shuffle_workbook

from support import require

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


def _book(path: Path, names: list[str] = NAMES) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["name", "score", "note"])
    for i, name in enumerate(names):
        ws.append([name, 10 * i + 1.5, f"n{i}" if i % 3 else None])
    ws["E1"] = "outside"
    wb.save(path)
    return path


def _values(path: Path) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(path)["Data"]
    return list(ws.iter_rows(max_row=len(NAMES) + 1, max_col=3, values_only=True))


def _draw(tmp_path: Path, **options: object) -> tuple[Path, Path, Path]:
    src, out, rec = _book(tmp_path / "in.xlsx"), tmp_path / "out.xlsx", tmp_path / "r.json"
    record = shuffle_workbook(src, out, seed="undo", **options)  # type: ignore[arg-type]
    rec.write_text(json.dumps(record.to_dict(), ensure_ascii=False), encoding="utf-8")
    return src, out, rec


def _refused(capsys, rec: Path, given: Path, back: Path) -> str:
    assert main(["restore", str(rec), str(given), "-o", str(back)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert not back.exists()
    return err[0]


def _edit(path: Path, cell: str, value: object, sheet: str = "Data") -> None:
    wb = openpyxl.load_workbook(path)
    wb[sheet][cell] = value
    wb.save(path)


def test_the_record_keeps_a_fingerprint_of_the_drawn_rows(tmp_path: Path):
    _, _, rec = _draw(tmp_path)
    data = json.loads(rec.read_text(encoding="utf-8"))
    assert data["fingerprint"]["digest"] == "crc32"
    assert len(data["fingerprint"]["rows"]) == 4 * ((4 * len(NAMES) + 2) // 3)  # base64


def test_restoring_the_output_gives_back_the_input(tmp_path: Path, capsys):
    src, out, rec = _draw(tmp_path)
    back = tmp_path / "back.xlsx"
    assert main(["restore", str(rec), str(out), "-o", str(back)]) == 0
    assert _values(back) == _values(src)


def test_another_workbook_is_refused(tmp_path: Path, capsys):
    _, _, rec = _draw(tmp_path)
    other = _book(tmp_path / "other.xlsx", [n + "!" for n in NAMES])
    line = _refused(capsys, rec, other, tmp_path / "back.xlsx")
    assert line.startswith(f"Error: {other}: sheet 'Data', row 2 (cells A")
    assert "not what the draw wrote there" in line


def test_the_unshuffled_input_is_refused(tmp_path: Path, capsys):
    src, _, rec = _draw(tmp_path)
    line = _refused(capsys, rec, src, tmp_path / "back.xlsx")
    assert "this is the draw's input" in line and "nothing to restore" in line


def test_a_copy_of_the_input_edited_elsewhere_is_refused_by_its_rows(tmp_path: Path, capsys):
    src, _, rec = _draw(tmp_path)
    copy = tmp_path / "copy.xlsx"
    shutil.copy(src, copy)
    _edit(copy, "E1", "changed")  # not the input's bytes any more, and not shuffled
    line = _refused(capsys, rec, copy, tmp_path / "back.xlsx")
    assert "not what the draw wrote there" in line


def test_an_output_whose_drawn_cell_was_edited_is_refused_naming_it(tmp_path: Path, capsys):
    _, out, rec = _draw(tmp_path)
    _edit(out, "B7", 999)
    line = _refused(capsys, rec, out, tmp_path / "back.xlsx")
    assert "sheet 'Data', row 7 (cells A7:E7): not what the draw wrote there" in line


def test_a_cell_by_cell_draw_names_the_cells_that_go_back_to_the_row(tmp_path: Path, capsys):
    _, out, rec = _draw(tmp_path, cells="A1:C11", by="cells", header=True)
    record = json.loads(rec.read_text(encoding="utf-8"))
    # the input cell B4 went to the output cell the permutation names
    n, width = len(NAMES), 3
    inv = [0] * (n * width)
    for pos, item in enumerate(record["permutation"]):
        inv[item] = pos
    q = inv[(4 - 2) * width + 1]
    row, col = 2 + q // width, "ABC"[q % width]
    _edit(out, f"{col}{row}", "edited")
    line = _refused(capsys, rec, out, tmp_path / "back.xlsx")
    assert f"{col}{row}" in line.split(": not what")[0]


def test_an_output_edited_outside_the_drawn_rows_is_restored(tmp_path: Path):
    src, out, rec = _draw(tmp_path)
    _edit(out, "E1", "edited after the draw")  # beside the header, which stays
    _edit(out, "A20", "a row below the list")
    back = tmp_path / "back.xlsx"
    assert main(["restore", str(rec), str(out), "-o", str(back)]) == 0
    assert _values(back) == _values(src)
    ws = openpyxl.load_workbook(back)["Data"]
    assert ws["E1"].value == "edited after the draw"
    assert ws["A20"].value == "a row below the list"


def test_an_output_resaved_by_openpyxl_is_restored(tmp_path: Path):
    src, out, rec = _draw(tmp_path)
    openpyxl.load_workbook(out).save(out)  # new shared strings, styles and XML
    back = tmp_path / "back.xlsx"
    restore_workbook(rec, out, back)
    assert _values(back) == _values(src)


def test_a_record_without_a_fingerprint_needs_the_output_itself(tmp_path: Path, capsys):
    src, out, rec = _draw(tmp_path)
    data = json.loads(rec.read_text(encoding="utf-8"))
    del data["fingerprint"]
    rec.write_text(json.dumps(data), encoding="utf-8")
    back = tmp_path / "back.xlsx"
    assert main(["restore", str(rec), str(out), "-o", str(back)]) == 0
    assert _values(back) == _values(src)
    back.unlink()
    _edit(out, "E1", "edited")
    line = _refused(capsys, rec, out, back)
    assert "the record predates the check of edited outputs" in line
    assert "restore the file the draw wrote, unedited" in line


def test_a_missing_sheet_is_refused_in_one_line(tmp_path: Path, capsys):
    _, out, rec = _draw(tmp_path)
    wb = openpyxl.load_workbook(out)
    wb["Data"].title = "Renamed"
    wb.save(out)
    line = _refused(capsys, rec, out, tmp_path / "back.xlsx")
    assert "Data" in line


def test_a_refused_restore_in_place_writes_nothing(tmp_path: Path, capsys):
    _, out, rec = _draw(tmp_path)
    _edit(out, "A3", "edited")
    before = out.read_bytes()
    assert main(["restore", str(rec), str(out), "--in-place"]) == 1
    assert out.read_bytes() == before
    assert not list(tmp_path.glob("*.bak*"))
    with pytest.raises(WorkbookError, match="row 3"):
        restore_workbook(rec, out, dry_run=True)


@pytest.mark.slow
def test_an_output_resaved_by_libreoffice_is_restored(tmp_path: Path):
    require(
        "libreoffice", shutil.which("soffice") is not None, "apt-get install libreoffice-calc-nogui"
    )
    src, out, rec = _draw(tmp_path)
    folder = tmp_path / "lo"
    folder.mkdir()
    profile = tmp_path / "profile"
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(folder),
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    resaved = folder / "out.xlsx"
    assert resaved.read_bytes() != out.read_bytes()
    back = tmp_path / "back.xlsx"
    restore_workbook(rec, resaved, back)
    assert _values(back) == _values(src)


def test_restore_writes_its_own_record(tmp_path: Path) -> None:
    """``restore --record FILE``: the restore's record, with the rows a
    ``--keep-blank-rows`` shuffle left in place (``target.kept``), never over an input."""
    from xlshuffle.cli import main

    src = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    for row in (["Name"], ["A"], ["B"], [None], ["C"], ["D"]):
        wb.active.append(row)
    wb.save(src)
    out, rec = tmp_path / "out.xlsx", tmp_path / "r.json"
    argv = ["shuffle", str(src), "--seed", "5", "--keep-blank-rows", "-o", str(out)]
    assert main([*argv, "--record", str(rec)]) == 0
    back, rec2 = tmp_path / "back.xlsx", tmp_path / "restore.json"
    assert main(["restore", str(rec), str(out), "-o", str(back), "--record", str(rec2)]) == 0
    data = json.loads(rec2.read_text(encoding="utf-8"))
    assert data["command"] == "restore"
    assert data["target"]["kept"] == json.loads(rec.read_text(encoding="utf-8"))["target"]["kept"]
    jsonschema = pytest.importorskip("jsonschema")
    from support import ROOT

    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data)) == []
    assert [r[0] for r in openpyxl.load_workbook(back).active.values] == [
        "Name",
        "A",
        "B",
        None,
        "C",
        "D",
    ]
    assert (
        main(["restore", str(rec), str(out), "-o", str(tmp_path / "x.xlsx"), "--record", str(rec)])
        == 2
    )
