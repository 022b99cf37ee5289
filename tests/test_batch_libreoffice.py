"""A second reader that is not openpyxl: LibreOffice opens every batch output.

All outputs are converted in one ``soffice --headless --convert-to csv`` call (starting
LibreOffice costs seconds, a file costs milliseconds), with a private profile so the
test neither needs nor touches a user profile. LibreOffice recalculates formulas on
load (openpyxl writes no cached values), so the translated formulas are checked by a
real spreadsheet engine here.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from batch_support import FIXTURES
from xlshuffle.batch import groups_workbook, sample_workbook, shuffle_workbook

from support import require

ROOT = Path(__file__).resolve().parent.parent
GOOD = [
    "plain.xlsx",
    "formulas.xlsx",
    "styles.xlsx",
    "comments_links.xlsx",
    "dates_errors_blanks.xlsx",
    "two_sheets.xlsx",
    "macro.xlsm",
]


def _convert(files: list[Path], out_dir: Path, profile: Path) -> None:
    cmd = [
        "soffice",
        f"-env:UserInstallation={profile.as_uri()}",
        "--headless",
        "--norestore",
        "--convert-to",
        "csv:Text - txt - csv (StarCalc):44,34,76",  # comma, quote, UTF-8
        "--outdir",
        str(out_dir),
        *map(str, files),
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)


def _read_csv(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


@pytest.mark.slow
def test_libreoffice_reads_every_output(tmp_path: Path):
    require(
        "libreoffice", shutil.which("soffice") is not None, "apt-get install libreoffice-calc-nogui"
    )
    outs: list[Path] = []
    for name in GOOD:
        for mode in ("rows", "within-columns"):
            out = tmp_path / f"{mode}-{name}"
            shuffle_workbook(FIXTURES / name, out, by=mode, seed="libreoffice")
            outs.append(out)
    raffle = tmp_path / "raffle.xlsx"
    shuffle_workbook(ROOT / "workbooks" / "raffle.xlsx", raffle, seed="2026")
    table = tmp_path / "table.xlsx"
    shuffle_workbook(FIXTURES / "table.xlsx", table, table="People", seed="t")
    winners = tmp_path / "winners.xlsx"
    sample_workbook(FIXTURES / "plain.xlsx", winners, k=3, seed="w")
    teams = tmp_path / "teams.xlsx"
    groups_workbook(FIXTURES / "plain.xlsx", teams, k=3, seed="g")
    outs += [raffle, table, winners, teams]

    csv_dir = tmp_path / "csv"
    _convert(outs, csv_dir, tmp_path / "lo-profile")

    for out in outs:
        converted = csv_dir / f"{out.stem}.csv"
        assert converted.exists(), f"LibreOffice could not convert {out.name}"
        got = _read_csv(converted)
        ws = openpyxl.load_workbook(out).worksheets[0]
        for r, row in enumerate(ws.iter_rows(values_only=True)):
            for c, value in enumerate(row):
                if isinstance(value, bool):
                    assert got[r][c] == str(value).upper(), (out.name, r + 1, c + 1)
                elif isinstance(value, int | float):  # shown with its number format
                    assert float(got[r][c].replace(",", "")) == value, (out.name, r + 1, c + 1)
                elif isinstance(value, str) and value[:1] != "=":
                    assert got[r][c] == value, (out.name, r + 1, c + 1)

    # formulas travel with their row: LibreOffice recomputes =B{r}*2 from the moved n
    calc = _read_csv(csv_dir / "rows-formulas.csv")
    for row in calc[1:11]:
        assert int(row[2]) == 2 * int(row[1])
        assert row[3] == "55"
    # the untouched sheet still points at Data!A2, which now holds the shuffled first row
    notes = _read_csv(csv_dir / "rows-two_sheets.csv")
    data = openpyxl.load_workbook(tmp_path / "rows-two_sheets.xlsx")["Data"]
    assert notes[1][0] == data["A2"].value
