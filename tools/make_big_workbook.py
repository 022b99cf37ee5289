"""Write a workbook of many large sheets where one small sheet is the list to draw.

Run from the project root::

    .venv/bin/python tools/make_big_workbook.py OUT.xlsx [--sheets 10] [--mb 50]

The first sheet, ``List``, holds a header and 1,000 data rows; the ``--sheets`` sheets
after it (``Big1``, ``Big2``...) hold about ``--mb`` MB of sheet XML each (numbers and
inline strings, ~100 bytes a row), written a block at a time with ``zipfile`` so the
generator itself needs little memory. A draw of ``List`` should inflate only ``List``
and copy the other sheets' compressed bytes as they are (see tests/test_bounds_workbook.py).
"""

from __future__ import annotations

import argparse
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


def _rows(first: int, last: int) -> bytes:
    return b"".join(
        b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>name %d</t></is></c>'
        b'<c r="B%d"><v>%d</v></c><c r="C%d"><v>%d.5</v></c></row>' % (r, r, r, r, r, r, r % 97)
        for r in range(first, last + 1)
    )


def _sheet(zf: zipfile.ZipFile, name: str, rows: int | None, size: int) -> None:
    with zf.open(name, "w", force_zip64=True) as fh:
        fh.write(
            f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">'
            '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c>'
            '<c r="B1" t="inlineStr"><is><t>Number</t></is></c>'
            '<c r="C1" t="inlineStr"><is><t>Half</t></is></c></row>'.encode()
        )
        r, written = 2, 0
        while (rows is None and written < size) or (rows is not None and r <= rows + 1):
            last = r + 9999 if rows is None else min(r + 9999, rows + 1)
            block = _rows(r, last)
            fh.write(block)
            written += len(block)
            r = last + 1
        fh.write(b"</sheetData></worksheet>")


def make_big_workbook(path: str, *, sheets: int = 10, mb: float = 50) -> None:
    """Write ``path``: sheet ``List`` (1,000 rows), then ``sheets`` sheets of ``mb`` MB."""
    names = ["List"] + [f"Big{i}" for i in range(1, sheets + 1)]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        overrides = "".join(
            f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{SHEET_TYPE}"/>'
            for i in range(1, len(names) + 1)
        )
        zf.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats'
            '.org/package/2006/content-types"><Default Extension="rels" ContentType="application'
            '/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
            'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType='
            '"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            f"{overrides}</Types>",
        )
        zf.writestr(
            "_rels/.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_REL}">'
            f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>",
        )
        sheet_list = "".join(
            f'<sheet name="{n}" sheetId="{i}" r:id="rId{i}"/>' for i, n in enumerate(names, 1)
        )
        zf.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{REL}">'
            f"<sheets>{sheet_list}</sheets></workbook>",
        )
        rels = "".join(
            f'<Relationship Id="rId{i}" Type="{REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(names) + 1)
        )
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_REL}">{rels}'
            "</Relationships>",
        )
        _sheet(zf, "xl/worksheets/sheet1.xml", 1000, 0)
        for i in range(2, len(names) + 1):
            _sheet(zf, f"xl/worksheets/sheet{i}.xml", None, int(mb * 1024**2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--sheets", type=int, default=10, help="large sheets (default 10)")
    parser.add_argument("--mb", type=float, default=50, help="MB of XML each (default 50)")
    args = parser.parse_args()
    make_big_workbook(args.out, sheets=args.sheets, mb=args.mb)


if __name__ == "__main__":
    main()
