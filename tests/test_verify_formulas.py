"""verify and the text of moved formulas: a known gap of issue 18, kept visible.

``verify`` compares a shuffle's output with its input by cell values and by each cell's
XML with the formula text and cached value left out (a moved formula's text changes: it
is translated as Excel translates a sorted formula). So an output whose moved formula was
edited afterwards (``=B2*2`` made ``=B2*3``) still verifies. The test below edits one
formula in the output's bytes, changing nothing else, and expects verify to refuse it;
until verify compares each moved formula with its translation it reports an expected
failure (the draw and the unedited output are checked for real before that).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main


def _edit_first_formula(src: Path, dst: Path) -> None:
    with zipfile.ZipFile(src) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    found = re.search(rb"<f>B(\d+)\*2</f>", sheet)
    assert found is not None
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(found[0], b"<f>B%s*3</f>" % found[1], 1)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def test_verify_refuses_an_output_whose_moved_formula_was_edited(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["name", "x", "y"])
    for r in range(2, 12):
        ws.append([f"p{r}", r, f"=B{r}*2"])
    src, out, edited = tmp_path / "in.xlsx", tmp_path / "out.xlsx", tmp_path / "edited.xlsx"
    wb.save(src)
    record = tmp_path / "r.json"
    assert main(["shuffle", str(src), "--seed", "1", "-o", str(out), "--record", str(record)]) == 0
    assert main(["verify", str(record), "--input", str(src), "--output", str(out)]) == 0
    _edit_first_formula(out, edited)
    code = main(["verify", str(record), "--input", str(src), "--output", str(edited)])
    if code == 0:
        pytest.xfail("verify leaves the text of moved formulas out (issue 18, open)")
    assert code == 1
