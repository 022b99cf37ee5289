"""Build workbooks/xlshuffle_demo.xlsx and the pictures of its sheets in docs/img/.

    python tools/make_demo_workbook.py [--out workbooks/xlshuffle_demo.xlsx] [--pictures docs/img]

The workbook holds the five worksheet functions as a person would use them: a survey
question order, a raffle (SAMPLE), a card table (DEAL), team building (GROUPS) and a word
jumble (SHUFFLESTR), each seeded and unseeded side by side. Every formula is stored as an
array formula over exactly the cells it fills, which every Excel and LibreOffice reads,
and the cell above it shows the formula as text.

Nothing can evaluate xlwings functions here, so the pictures are drawn with matplotlib from
the same sheet description, with each formula's result computed by calling the function
itself (``xlshuffle.excel``). An unseeded formula draws afresh on every recalculation; its
picture shows one such draw (made with a fixed seed, so the picture is reproducible).

Needs openpyxl (``pip install "xlshuffle[xlsx]"``) and, for the pictures, matplotlib.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("XLWINGS_ON_SERVER", "true")  # the real decorators; plain Python either way
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

from openpyxl.utils import get_column_letter as _col

from xlshuffle import excel

ROOT = Path(__file__).resolve().parent.parent
PICTURE_SEED = "picture"  # stands in for the fresh seed of an unseeded formula in a picture
FIXED_TIME = dt.datetime(2026, 1, 1)  # document properties, so rebuilding changes no byte


@dataclass
class Formula:
    row: int
    col: int
    text: str
    result: list[list[Any]]
    seeded: bool


@dataclass
class Sheet:
    """One worksheet: plain cells, and formulas with the results they spill."""

    name: str
    title: str
    note: str
    widths: Mapping[str, float]
    cells: dict[tuple[int, int], tuple[Any, str]] = field(default_factory=dict)
    formulas: list[Formula] = field(default_factory=list)

    def put(self, row: int, col: int, value: Any, kind: str = "input") -> None:
        self.cells[row, col] = (value, kind)

    def column(self, row: int, col: int, header: str, values: list[Any]) -> None:
        self.put(row, col, header, "header")
        for i, value in enumerate(values, start=1):
            self.put(row + i, col, value)

    def formula(
        self, row: int, col: int, text: str, result: Any, *, seeded: bool, label: int | None = -1
    ) -> None:
        """Enter ``text`` at (row, col); show it as text ``label`` rows away (None: not)."""
        rows = result if isinstance(result, list) else [[result]]
        self.formulas.append(Formula(row, col, text, rows, seeded))
        if label is not None:
            self.put(row + label, col, text, "formula-text")


def _preview(func: Callable[..., Any], seed: Any, *args: Any) -> Any:
    """What ``func(*args, seed)`` shows; a fixed seed stands in for 'no seed' in a picture."""
    return func(*args, PICTURE_SEED if seed is None else seed)


# --------------------------------------------------------------------------- the sheets

QUESTIONS = [
    "How did you hear about us?",
    "How easy was it to book?",
    "How friendly was the staff?",
    "How clean was the room?",
    "How was breakfast?",
    "Was the price fair?",
    "Would you come back?",
    "Would you recommend us?",
]
NAMES = [
    "Ada",
    "Alan",
    "Barbara",
    "Bjarne",
    "Claude",
    "Dennis",
    "Edsger",
    "Frances",
    "Grace",
    "Guido",
    "Hedy",
    "Ivan",
    "John",
    "Ken",
    "Linus",
    "Margaret",
    "Niklaus",
    "Ole",
    "Radia",
    "Rasmus",
    "Sophie",
    "Tim",
    "Tony",
    "Ward",
    "Yukihiro",
    "Adele",
    "Anita",
    "Brian",
    "Carol",
    "Donald",
]
WORDS = ["spreadsheet", "shuffle", "fairness", "naïve", "crème brûlée", "Zoë", "raffle", "deck"]
SENTENCE = "the quick brown fox jumps over the lazy dog"


def survey() -> Sheet:
    s = Sheet(
        "Survey",
        "Survey: each respondent gets their own question order",
        "The respondent's ID is the seed, so a person always sees the same order; "
        "the unseeded column reshuffles whenever an input changes.",
        {"A": 28, "B": 2, "C": 28, "D": 28, "E": 2, "F": 28},
    )
    s.column(4, 1, "Question", QUESTIONS)
    questions = [[q] for q in QUESTIONS]
    for col, seed in ((3, "R-101"), (4, "R-102"), (6, None)):
        s.put(3, col, seed or "(no seed)", "seed" if seed else "note")
        ref = f", {_col(col)}$3" if seed else ""
        result = _preview(excel.SHUFFLE, seed, questions)
        s.formula(5, col, f"=SHUFFLE($A$5:$A$12{ref})", result, seeded=bool(seed))
    return s


def raffle() -> Sheet:
    s = Sheet(
        "Raffle",
        "Raffle: draw the winners with SAMPLE",
        "Winners come in draw order, first prize first; drawing 5 with the same seed "
        "keeps the first three winners.",
        {"A": 14, "B": 2, "C": 25, "D": 25, "E": 2, "F": 20, "G": 2, "H": 14},
    )
    seed = "Summer fete 2026"
    s.put(3, 3, "Seed:", "note")
    s.put(3, 4, seed, "seed")
    s.column(4, 1, "Ticket holder", NAMES[:20])
    tickets = [[n] for n in NAMES[:20]]
    s.formula(5, 3, "=SAMPLE(A5:A24, 3, $D$3)", excel.SAMPLE(tickets, 3, seed), seeded=True)
    s.formula(5, 4, "=SAMPLE(A5:A24, 5, $D$3)", excel.SAMPLE(tickets, 5, seed), seeded=True)
    unseeded = _preview(excel.SAMPLE, None, tickets, 3)
    s.formula(5, 6, "=SAMPLE(A5:A24, 3)", unseeded, seeded=False)
    s.column(4, 8, "Prize", ["1st: hamper", "2nd: voucher", "3rd: wine"])
    return s


def cards() -> Sheet:
    s = Sheet(
        "Cards",
        "Card table: DEAL five cards to four players",
        "One column per hand, one row per round, so row by row is the dealing order; "
        "DEAL(6, 1, seed, 49) draws lottery balls.",
        dict.fromkeys("ABCDFGHI", 8) | {"E": 2, "J": 2, "K": 22},
    )
    seed = "poker night"
    s.put(3, 1, "Seed:", "note")
    s.put(3, 2, seed, "seed")
    for col, name in enumerate(["North", "East", "South", "West"], start=1):
        s.put(5, col, name, "header")
        s.put(5, col + 5, name, "header")
    s.formula(6, 1, "=DEAL(5, 4, $B$3)", excel.DEAL(5, 4, seed), seeded=True, label=-2)
    unseeded = _preview(excel.DEAL, None, 5, 4)
    s.formula(6, 6, "=DEAL(5, 4)", unseeded, seeded=False, label=-2)
    s.put(5, 11, "Lottery, 6 of 49", "header")
    lottery = excel.DEAL(6, 1, seed, 49)
    s.formula(6, 11, "=DEAL(6, 1, $B$3, 49)", lottery, seeded=True, label=-2)
    return s


def teams() -> Sheet:
    s = Sheet(
        "Teams",
        "Team building: GROUPS splits 16 players into 4 teams",
        "Each player's team number sits beside the name; team sizes differ by one at most.",
        {"A": 14, "B": 26, "C": 26},
    )
    seed = "offsite 2026"
    s.put(3, 1, "Seed:", "note")
    s.put(3, 2, seed, "seed")
    players = NAMES[:16]
    s.column(4, 1, "Player", players)
    column = [[p] for p in players]
    s.formula(5, 2, "=GROUPS(A5:A20, 4, $B$3)", excel.GROUPS(column, 4, seed), seeded=True)
    unseeded = _preview(excel.GROUPS, None, column, 4)
    s.formula(5, 3, "=GROUPS(A5:A20, 4)", unseeded, seeded=False)
    return s


def jumble() -> Sheet:
    s = Sheet(
        "Word jumble",
        "Word jumble: SHUFFLESTR mixes the letters of a word",
        "Accented letters stay whole; each word is seeded with the seed and itself, so "
        "words of the same length get different orders.",
        {"A": 36, "B": 32, "C": 24},
    )
    seed = "jumble"
    s.put(3, 1, "Seed:", "note")
    s.put(3, 2, seed, "seed")
    s.column(4, 1, "Word", WORDS)
    for i, word in enumerate(WORDS):
        row, label = 5 + i, (-1 if i == 0 else None)
        seeded = excel.SHUFFLESTR(word, seed + word)
        s.formula(row, 2, f"=SHUFFLESTR(A{row}, $B$3 & A{row})", seeded, seeded=True, label=label)
        unseeded = _preview(excel.SHUFFLESTR, None, word)
        s.formula(row, 3, f"=SHUFFLESTR(A{row})", unseeded, seeded=False, label=label)
    s.column(14, 1, "Sentence", [SENTENCE])
    words = excel.SHUFFLESTR(SENTENCE, seed, "words")
    s.formula(15, 2, '=SHUFFLESTR(A15, $B$3, "words")', words, seeded=True)
    return s


def sheets() -> list[Sheet]:
    return [survey(), raffle(), cards(), teams(), jumble()]


_TITLE = "xlshuffle demo: fair, reproducible shuffles, deals and draws"
_README = """
The formulas need the xlshuffle worksheet functions; until they are set up, a cell shows #NAME?.
Step by step for each way to run them: docs/excel.md in the xlshuffle repository.
- Windows add-in: pip install "xlshuffle[excel]", xlwings addin install, set UDF Modules to
  xlshuffle.excel, click Import Functions, then press Ctrl+Alt+F9.
- xlwings Lite: paste workbooks/lite/main.py into the main.py tab and
  workbooks/lite/requirements.txt into the requirements.txt tab.
- xlwings Server: import xlshuffle.excel in the server's custom functions module.

Yellow cells are seeds: keep one and its draw never changes; change it for a new draw.
Green results are seeded: the same seed gives the same result in Excel, Python and the CLI.
Orange results have no seed: they draw afresh whenever an input changes (not on every edit).
Each formula is an array formula over the cells it fills; the cell above shows it as text.
"""


# --------------------------------------------------------------------------- workbook

FILLS = {"seed": "FFF2CC", "header": "D9D9D9", True: "E2EFDA", False: "FCE4D6"}


def write_workbook(sheets: list[Sheet], path: Path) -> None:
    """Write the sheets, with a 'Read me' sheet first, as an .xlsx file."""
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.worksheet.formula import ArrayFormula

    def fill(color: str) -> PatternFill:
        return PatternFill("solid", start_color=color, end_color=color)

    wb = Workbook()
    readme = wb.active
    assert readme is not None
    readme.title = "Read me"
    readme.column_dimensions["A"].width = 120
    readme.cell(1, 1, _TITLE).font = Font(bold=True, size=14)
    for row, line in enumerate(_README.strip("\n").splitlines(), start=3):
        readme.cell(row, 1, line)

    for sheet in sheets:
        ws = wb.create_sheet(sheet.name)
        for letter, width in sheet.widths.items():
            ws.column_dimensions[letter].width = width
        ws.cell(1, 1, sheet.title).font = Font(bold=True, size=14)
        ws.cell(2, 1, sheet.note).font = Font(italic=True, color="595959")
        for (row, col), (value, kind) in sheet.cells.items():
            cell = ws.cell(row, col, value)
            if kind == "formula-text":
                cell.data_type = "s"  # shown as text, not evaluated
                cell.font = Font(name="Consolas", color="1F4E79", bold=True)
            elif kind == "header":
                cell.font = Font(bold=True)
                cell.fill = fill(FILLS["header"])
            elif kind == "seed":
                cell.font = Font(bold=True)
                cell.fill = fill(FILLS["seed"])
            elif kind == "note":
                cell.font = Font(italic=True, color="595959")
        for f in sheet.formulas:
            height, width = len(f.result), len(f.result[0])
            first = f"{_col(f.col)}{f.row}"
            last = f"{_col(f.col + width - 1)}{f.row + height - 1}"
            if height == width == 1:
                ws[first] = f.text
            else:
                ws[first] = ArrayFormula(f"{first}:{last}", f.text)
            for r in range(height):
                for c in range(width):
                    ws.cell(f.row + r, f.col + c).fill = fill(FILLS[f.seeded])
    wb.properties.creator = "xlshuffle tools/make_demo_workbook.py"
    wb.properties.created = wb.properties.modified = FIXED_TIME
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


# --------------------------------------------------------------------------- pictures


def draw_sheet(sheet: Sheet, path: Path) -> None:
    """Draw the sheet as Excel shows it after calculation, formula bar on its first formula."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    values: dict[tuple[int, int], tuple[Any, str]] = {
        (1, 1): (sheet.title, "title"),
        (2, 1): (sheet.note, "note"),
        **sheet.cells,
    }
    for f in sheet.formulas:
        for r, row in enumerate(f.result):
            for c, value in enumerate(row):
                values[f.row + r, f.col + c] = (value, "seeded" if f.seeded else "unseeded")
    n_rows = max(r for r, _ in values) + 1
    n_cols = max(c for _, c in values)
    widths = [sheet.widths.get(_col(c), 10) * 0.075 for c in range(1, n_cols + 1)]
    lefts = [0.45 + sum(widths[:i]) for i in range(n_cols)]
    row_h, top = 0.3, 0.75
    fig_w, fig_h = lefts[-1] + widths[-1] + 0.1, top + row_h * (n_rows + 1) + 0.1
    fig = plt.figure(figsize=(fig_w, fig_h), dpi=110)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, fig_w)
    ax.set_ylim(fig_h, 0)
    ax.axis("off")

    chosen = sheet.formulas[0]
    ax.add_patch(Rectangle((0.05, 0.12), fig_w - 0.1, 0.42, fc="white", ec="#A6A6A6"))
    name_box = f"{_col(chosen.col)}{chosen.row}"
    ax.text(0.12, 0.33, name_box, va="center", fontsize=9)
    ax.text(0.75, 0.33, "fx", va="center", fontsize=9, style="italic", color="#595959")
    formula = chosen.text if len(chosen.result) == 1 else "{" + chosen.text + "}"
    ax.text(1.05, 0.33, formula, va="center", fontsize=9, family="monospace", parse_math=False)

    colors = {
        "header": "#D9D9D9",
        "seed": "#FFF2CC",
        "seeded": "#E2EFDA",
        "unseeded": "#FCE4D6",
    }
    y0 = top
    ax.add_patch(Rectangle((0.05, y0), 0.4, row_h, fc="#F2F2F2", ec="#BFBFBF", lw=0.5))
    for c in range(n_cols):
        ax.add_patch(
            Rectangle((lefts[c], y0), widths[c], row_h, fc="#F2F2F2", ec="#BFBFBF", lw=0.5)
        )
        ax.text(
            lefts[c] + widths[c] / 2,
            y0 + row_h / 2,
            _col(c + 1),
            ha="center",
            va="center",
            fontsize=8,
        )
    for r in range(1, n_rows + 1):
        y = top + r * row_h
        ax.add_patch(Rectangle((0.05, y), 0.4, row_h, fc="#F2F2F2", ec="#BFBFBF", lw=0.5))
        ax.text(0.25, y + row_h / 2, str(r), ha="center", va="center", fontsize=8)
        for c in range(1, n_cols + 1):
            value, kind = values.get((r, c), (None, ""))
            fc = colors.get(kind, "white")
            ax.add_patch(
                Rectangle((lefts[c - 1], y), widths[c - 1], row_h, fc=fc, ec="#D9D9D9", lw=0.5)
            )
            if value is None or value == "":
                continue
            text = str(value)
            style: dict[str, Any] = {"fontsize": 8.5, "va": "center", "parse_math": False}
            if kind == "title":
                style |= {"fontsize": 11, "weight": "bold"}
            elif kind in ("note",):
                style |= {"style": "italic", "color": "#595959"}
            elif kind in ("header", "seed"):
                style |= {"weight": "bold"}
            elif kind == "formula-text":
                style |= {
                    "family": "monospace",
                    "color": "#1F4E79",
                    "weight": "bold",
                    "fontsize": 8,
                }
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            if numeric:
                ax.text(
                    lefts[c - 1] + widths[c - 1] - 0.05, y + row_h / 2, text, ha="right", **style
                )
            else:
                ax.text(lefts[c - 1] + 0.05, y + row_h / 2, text, ha="left", **style)
    sel = next(i for i in range(n_cols) if i + 1 == chosen.col)
    ax.add_patch(
        Rectangle(
            (lefts[sel], top + chosen.row * row_h),
            sum(widths[sel : sel + len(chosen.result[0])]),
            row_h * len(chosen.result),
            fill=False,
            ec="#217346",
            lw=2,
        )
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def picture_name(sheet: Sheet) -> str:
    return "excel-demo-" + sheet.name.lower().replace(" ", "-") + ".png"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "workbooks" / "xlshuffle_demo.xlsx")
    parser.add_argument("--pictures", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--no-pictures", action="store_true")
    args = parser.parse_args(argv)
    built = sheets()
    write_workbook(built, args.out)
    print(f"wrote {args.out}")
    if not args.no_pictures:
        for sheet in built:
            target = args.pictures / picture_name(sheet)
            draw_sheet(sheet, target)
            print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
