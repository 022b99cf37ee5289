"""verify and the text of moved formulas.

A shuffle translates each moved formula as Excel translates a sorted one, so ``verify``
compares the output's formula at each cell with the input's formula translated to it.
An output whose moved formula was edited afterwards (``=B2*2`` made ``=B2*3``), lost its
formula or gained one must be refused, naming the cell; an untouched output verifies,
also when the input's formulas were shared ones and when openpyxl re-saved the output
(it writes shared formulas as plain ones). The edits here are made on the output's bytes
by the test itself, and what each cell must read is worked out by hand.
"""

from __future__ import annotations

import io
import re
import zipfile
from contextlib import redirect_stderr
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main
from xlshuffle.workbook.records.formulatext import canonical


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def _write(parts: dict[str, bytes], dst: Path) -> None:
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def _edit_sheet(src: Path, dst: Path, pattern: bytes, new: bytes) -> re.Match[bytes]:
    parts = _parts(src)
    sheet = parts["xl/worksheets/sheet1.xml"]
    found = re.search(pattern, sheet)
    assert found is not None, pattern
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(found[0], found.expand(new), 1)
    _write(parts, dst)
    return found


def _book(path: Path, rows: int = 10) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["name", "x", "y"])
    for r in range(2, rows + 2):
        ws.append([f"p{r}", r, f"=B{r}*2"])
    wb.save(path)
    return path


def _shared(src: Path, dst: Path, rows: int = 10) -> Path:
    """``src`` with column C's formulas written as one shared formula (C2 its master)."""
    parts = _parts(src)
    sheet = parts["xl/worksheets/sheet1.xml"]
    sheet, n = re.subn(
        rb'<c r="C2"><f>B2\*2</f>',
        b'<c r="C2"><f t="shared" ref="C2:C%d" si="0">B2*2</f>' % (rows + 1),
        sheet,
    )
    sheet, m = re.subn(rb'(<c r="C(\d+)">)<f>B\2\*2</f>', rb'\1<f t="shared" si="0"/>', sheet)
    assert (n, m) == (1, rows - 1)
    parts["xl/worksheets/sheet1.xml"] = sheet
    _write(parts, dst)
    return dst


def _draw(src: Path, tmp: Path, *args: str) -> tuple[Path, Path]:
    out, record = tmp / "out.xlsx", tmp / "r.json"
    cmd = ["shuffle", str(src), "--seed", "1", "-o", str(out), "--record", str(record), *args]
    assert main(cmd) == 0
    return out, record


def _verify(record: Path, src: Path, out: Path) -> tuple[int, str]:
    err = io.StringIO()
    with redirect_stderr(err):
        code = main(["verify", str(record), "--input", str(src), "--output", str(out)])
    return code, err.getvalue()


def test_an_edited_moved_formula_is_refused_naming_its_cell(tmp_path: Path) -> None:
    src = _book(tmp_path / "in.xlsx")
    out, record = _draw(src, tmp_path)
    assert _verify(record, src, out)[0] == 0
    edited = tmp_path / "edited.xlsx"
    found = _edit_sheet(out, edited, rb'<c r="C(\d+)"><f>B\1\*2</f>', rb'<c r="C\1"><f>B\1*3</f>')
    row = found[1].decode()
    code, err = _verify(record, src, edited)
    assert code == 1
    assert f"cell C{row} holds =B{row}*3, not =B{row}*2" in err
    assert err.count("\n") == 1


def test_a_formula_removed_or_added_is_refused(tmp_path: Path) -> None:
    src = _book(tmp_path / "in.xlsx")
    out, record = _draw(src, tmp_path)
    gone = tmp_path / "gone.xlsx"
    # the formula dropped, its cached value kept: the values still read the same
    _edit_sheet(out, gone, rb'(<c r="C(\d+)")><f>B\2\*2</f>', rb"\1>")
    code, err = _verify(record, src, gone)
    assert code == 1 and "holds no formula, not =B" in err
    added = tmp_path / "added.xlsx"
    _edit_sheet(out, added, rb'<c r="B(\d+)" t="n"><v>(\d+)</v>', rb'<c r="B\1"><f>\2</f><v>\2</v>')
    code, err = _verify(record, src, added)
    assert code == 1, err


def test_shared_formulas_verify_and_an_edit_of_one_is_refused(tmp_path: Path) -> None:
    src = _shared(_book(tmp_path / "plain.xlsx"), tmp_path / "in.xlsx")
    out, record = _draw(src, tmp_path)
    assert _verify(record, src, out)[0] == 0
    # every moved formula reads B<its own row>*2 again: the group's text, translated
    sheet = _parts(out)["xl/worksheets/sheet1.xml"]
    pairs = re.findall(rb'<c r="C(\d+)"[^>]*><f>B(\d+)\*2</f>', sheet)
    assert len(pairs) == 10 and all(a == b for a, b in pairs)
    edited = tmp_path / "edited.xlsx"
    _edit_sheet(out, edited, rb'<c r="C(\d+)"><f>B\1\*2</f>', rb'<c r="C\1"><f>B\1*2+0</f>')
    assert _verify(record, src, edited)[0] == 1


@pytest.mark.parametrize("mode", ["cells", "columns", "within-rows"])
def test_other_modes_verify_and_refuse_an_edit(tmp_path: Path, mode: str) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["a", "b", "c"])
    for r in range(2, 8):
        ws.append([r, f"=Z{r}+1", f"=$Z$2*{r}"])
    src = tmp_path / "in.xlsx"
    wb.save(src)
    out, record = _draw(src, tmp_path, "--by", mode)
    assert _verify(record, src, out)[0] == 0
    edited = tmp_path / "edited.xlsx"
    _edit_sheet(out, edited, rb"<f>\$Z\$2\*(\d+)</f>", rb"<f>$Z$3*\1</f>")
    code, err = _verify(record, src, edited)
    assert code == 1 and "$Z$3*" in err, err


def test_an_output_re_saved_by_openpyxl_still_verifies(tmp_path: Path) -> None:
    src = _shared(_book(tmp_path / "plain.xlsx"), tmp_path / "in.xlsx")
    out, record = _draw(src, tmp_path)
    wb = openpyxl.load_workbook(out)
    resaved = tmp_path / "resaved.xlsx"
    wb.save(resaved)
    assert _verify(record, src, resaved)[0] == 0
    wb["Sheet"]["C5"] = "=B5*7"
    wb.save(resaved)
    code, err = _verify(record, src, resaved)
    assert code == 1 and "cell C5 holds =B5*7, not =B5*2" in err


def test_canonical_ignores_spacing_and_case_outside_strings_only() -> None:
    assert canonical("=sum( b2 , 1 )") == canonical("SUM(B2,1)") == "SUM(B2,1)"
    assert canonical('A1&" x "') != canonical('A1&"x"')
    assert canonical('A1&"ab"') != canonical('A1&"AB"')
    assert canonical('"a""b" & c1') == '"a""b"&C1'
