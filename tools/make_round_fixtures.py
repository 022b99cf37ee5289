"""Write the rounds the verifier's Node tests check into verifier/tests/fixtures/rounds/.

Run from the project root: ``.venv/bin/python tools/make_round_fixtures.py``.

Every file is written by xlshuffle itself, never imitated:

- ``book/``: a workbook raffle with a prize table (``sample book.xlsx --prizes ... --id ID
  --record draw.json -o draw.xlsx``) and two rounds of it (``redraw ... -o round1.xlsx
  --record round1.json``, then ``round2``), each round's table on a sheet added to a copy
  of the workbook;
- ``excel/``: a raffle locked in Excel (``draw_raffle`` with reserves, through xlwings'
  Office.js machinery and the stand-in of tests/excel_book.py) and two rounds of it
  (``replace_winner``): ``log.tsv`` holds the Draw log's rows as Excel copies them (tab
  separated), ``Raffle.xlsx`` the sheet as saved after the rounds (written by openpyxl),
  ``draw.xlsx`` as saved after the draw, before any round.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "verifier" / "tests" / "fixtures" / "rounds"
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]
os.environ.setdefault("XLWINGS_ON_SERVER", "true")  # as the root conftest: the real Office.js
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")  # machinery, as the tests run it

from excel_book import LOG_HEADER, Excel  # noqa: E402
from xlshuffle.cli import main  # noqa: E402

HEAD = ["ID", "Name", "Tickets", "Region", "Amount"]
ROWS: list[list[object]] = [
    ["T1", "Ann", 3, "North", 120.5],
    ["T2", "Bo", 1, "South", 15],
    ["T3", "Cy", 5, "North", 900],
    ["T4", "Di", 2, "South", 33.1],
    ["T5", "Ed", 0, "North", 0],
    ["T6", "Fay", 4, "East", 410],
    ["T7", "Gus", 2.5, "East", 1250],
    ["T8", "Hal", 1, "North", 75.25],
    ["T9", "Ivy", 6, "South", 2000.75],
    ["T10", "Jo", 2, "East", 12.4],
]
PRIZES = "Mug,2,1\nBike,1,2\n"
RAFFLE = [[name, 101 + n, t] for n, (_, name, t, *_r) in enumerate(ROWS[:8])]


def cli(*argv: object) -> None:
    if main([str(a) for a in argv]) != 0:
        raise SystemExit(f"xlshuffle {' '.join(map(str, argv))} failed")


def book_rounds(out: Path) -> None:
    """A workbook raffle by prize table and two rounds, the tables on added sheets."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Tickets"
    for row in [HEAD, *ROWS]:
        ws.append(row)
    wb.create_sheet("Notes").append(["drawn on prize day"])
    wb.save(out / "book.xlsx")
    (out / "prizes.csv").write_text(PRIZES, encoding="utf-8")
    with contextlib.chdir(out):
        cli(
            "sample",
            "book.xlsx",
            "--prizes",
            "prizes.csv",
            "--weights",
            "Tickets",
            "--id",
            "ID",
            "--seed",
            "prize day",
            "-o",
            "draw.xlsx",
            "--record",
            "draw.json",
        )
        rows = list(openpyxl.load_workbook("draw.xlsx").worksheets[-1].values)
        winners = [r[0] for r in rows[1:] if r[-1] == "winner"]
        cli(
            "redraw",
            "draw.json",
            "--replace",
            winners[1],
            "--reason",
            "no answer",
            "-o",
            "round1.xlsx",
            "--record",
            "round1.json",
        )
        cli(
            "redraw",
            "round1.json",
            "--replace",
            winners[2],
            "--reason",
            "declined; moved",
            "-o",
            "round2.xlsx",
            "--record",
            "round2.json",
        )
        cli("verify", "round2.json", "--input", "book.xlsx", "--output", "round2.xlsx")
    (out / "prizes.csv").unlink()


def save_sheet(excel: Excel, path: Path) -> None:
    """The stand-in's Sheet1 as a workbook saved by openpyxl."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for r, row in enumerate(excel.sheet("Sheet1")["values"], 1):
        for c, v in enumerate(row, 1):
            if v not in ("", None):
                ws.cell(r, c, v)
    wb.save(path)


def log_text(excel: Excel) -> str:
    rows = [r for r in excel.sheet("Draw log")["values"] if any(v not in ("", None) for v in r)]
    return "".join("\t".join(str(v) for v in r) + "\n" for r in rows)


def excel_rounds(out: Path) -> None:
    """A raffle locked in Excel with reserves, then two rounds."""
    excel = Excel([["Name", "Ticket", "Tickets"], *RAFFLE], "A2:C9")
    excel.put("Sheet1", 1, 8, "2026 prize day")
    excel.name("SEED", "H1")
    excel.script("draw_raffle", 2, 3, "Tickets")
    save_sheet(excel, out / "draw.xlsx")
    (draw,) = excel.log()
    assert draw["output"] == "D2:H6", draw
    result = excel.cells("Sheet1", 2, 4, 5, 5)
    winners = [row[1] for row in result if row[3] == "winner"]
    excel.script("replace_winner", str(winners[0]), "no answer", "Ticket")
    excel.script("replace_winner", str(winners[1]), "declined", "")
    save_sheet(excel, out / "Raffle.xlsx")
    assert [e["mode"] for e in excel.log()] == ["raffle", "round", "round"]
    assert excel.sheet("Draw log")["values"][0][: len(LOG_HEADER)] == LOG_HEADER
    (out / "log.tsv").write_text(log_text(excel), encoding="utf-8", newline="")


def main_() -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    for part, make in (("book", book_rounds), ("excel", excel_rounds)):
        (OUT / part).mkdir(parents=True)
        make(OUT / part)
    print("wrote", *sorted(os.path.relpath(p, ROOT) for p in OUT.rglob("*") if p.is_file()))


if __name__ == "__main__":
    main_()
