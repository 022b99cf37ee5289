"""Write workbooks/raffle.xlsx: the example draw list that the README shuffles.

200 made-up ticket holders (name, ticket number, email, department) on a sheet
``Tickets`` with a bold, frozen header row, plus a ``Prizes`` sheet. The names are drawn
with xlshuffle itself from fixed lists and a fixed seed, so the file is the same on
every run. Run from the project root: ``.venv/bin/python tools/make_raffle.py``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill

from xlshuffle import DrawStream

OUT = Path(__file__).resolve().parent.parent / "workbooks" / "raffle.xlsx"

FIRST = (  # noqa: SIM905
    "Ada Amir Ana Ben Chen Chloe Dara Diego Elif Emma Farah Femi Grace Hana Ivan Jonas Kai "
    "Lea Leila Luca Maya Mei Nia Noah Omar Priya Rosa Sami Sofia Tariq Una Yuki Zoe"
).split()
LAST = (  # noqa: SIM905
    "Adams Baker Chen Costa Dubois Eriksen Fischer Garcia Haddad Ito Jansen Kowalski Kumar "
    "Larsen Martin Mensah Novak Okafor Petrov Quinn Rossi Santos Schmidt Silva Tanaka "
    "Varga Weber Wright Yilmaz Zhang"
).split()
DEPARTMENTS = ("Finance", "Sales", "Engineering", "Support", "Marketing", "People", "Legal")


def main() -> None:
    stream = DrawStream("raffle workbook v1")
    wb = Workbook()
    wb.properties.creator = "xlshuffle"
    wb.properties.created = wb.properties.modified = dt.datetime(2026, 1, 1)
    ws = wb.active
    ws.title = "Tickets"
    ws.append(["Name", "Ticket", "Email", "Department"])
    used: set[str] = set()
    for i in range(200):
        while True:
            first = FIRST[stream.randbelow(len(FIRST))]
            last = LAST[stream.randbelow(len(LAST))]
            if f"{first} {last}" not in used:
                break
        used.add(f"{first} {last}")
        email = f"{first}.{last}@example.com".lower()
        dept = DEPARTMENTS[stream.randbelow(len(DEPARTMENTS))]
        ws.append([f"{first} {last}", 1001 + i, email, dept])
    bold = Font(bold=True, color="FFFFFFFF")
    fill = PatternFill("solid", fgColor="FF305496")
    for cell in ws[1]:
        cell.font = bold
        cell.fill = fill
        cell.alignment = Alignment(horizontal="center")
    for col, width in zip("ABCD", (22, 10, 34, 16), strict=True):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = "A1:D201"

    prizes = wb.create_sheet("Prizes")
    prizes.append(["Place", "Prize"])
    for row in [(1, "Weekend for two"), (2, "E-bike"), (3, "Headphones"), (4, "Book voucher")]:
        prizes.append(list(row))
    prizes["A1"].font = prizes["B1"].font = Font(bold=True)
    prizes.column_dimensions["B"].width = 20
    wb.active = 0
    OUT.parent.mkdir(exist_ok=True)
    wb.save(OUT)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
