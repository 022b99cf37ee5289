"""Build workbooks/xlshuffle_demo.xlsx and the pictures of its sheets in docs/img/.

    python tools/make_demo_workbook.py [--out workbooks/xlshuffle_demo.xlsx] [--pictures docs/img]

The workbook holds the five worksheet functions as a person would use them: a survey
question order, a raffle (SAMPLE), a card table (DEAL), team building (GROUPS) and a word
jumble (SHUFFLESTR), each seeded and unseeded side by side. Every formula is stored as an
array formula over exactly the cells it fills, which every Excel and LibreOffice reads,
and the cell above it shows the formula as text. A "Draw and lock" sheet shows a raffle
already drawn by the draw-and-lock command ``draw winners``: the winners as plain values
beside the list, the seed in the cell named ``SEED``, and the ``Draw log`` sheet with the
row that command writes; both come from the lock module itself (``plan``, ``Draw``), with
a fixed time.

Nothing can evaluate xlwings functions here, so the pictures are drawn with matplotlib from
the same sheet description, with each formula's result computed by calling the function
itself (``xlshuffle.excel``). An unseeded formula draws afresh on every recalculation; its
picture shows one such draw (made with a fixed seed, so the picture is reproducible).

Run as a script, the tool writes the same bytes every time: the zip entries carry
``FIXED_TIME`` and openpyxl writes its XML with the standard library (``OPENPYXL_LXML``),
whether or not lxml is installed.

Needs openpyxl (``pip install "xlshuffle[xlsx]"``) and, for the pictures, matplotlib.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import sys
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("XLWINGS_ON_SERVER", "true")  # the real decorators; plain Python either way
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
os.environ.setdefault("OPENPYXL_LXML", "False")  # the same XML bytes with or without lxml

from openpyxl.utils import get_column_letter as _col

import xlshuffle
from xlshuffle import excel
from xlshuffle.draw.protocol import normalise_seed
from xlshuffle.excel import lock
from xlshuffle.lock.log import LOG_COLUMNS, Draw, sheet_ref
from xlshuffle.lock.plan import plan

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
    #: defined names of single cells (written as text, as ``write_seed`` writes a seed)
    names: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: the selected block (row, column, rows, columns) a picture frames, when no formula
    selection: tuple[int, int, int, int] | None = None

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


LOCK_SHEET = "Draw and lock"
LOCK_SEED = "Spring fair 2026"
LOCK_BOOK = "xlshuffle_demo.xlsx"  # the name the log gives the workbook
LOCK_LIST = (5, 1, 12, 2)  # the selection: first row, first column, rows, columns
LOCK_WINNERS = 3
LOCK_PRIZES = ["1st: bicycle", "2nd: cinema tickets", "3rd: cake"]


def _lock_draw() -> Draw:
    """The ``draw winners`` draw of the lock sheet, as :func:`lock.draw_winners` makes it."""
    top, left, height, width = LOCK_LIST
    rows: list[list[Any]] = [[101 + i, name] for i, name in enumerate(NAMES[:height])]
    seed = normalise_seed(LOCK_SEED).decode("utf-8")  # the SEED cell's text, as lock reads it
    output = plan("winners", rows, seed, LOCK_WINNERS)
    first, right = f"{_col(left)}{top}", _col(left + width - 1)
    return Draw(
        mode="winners",
        sheet=LOCK_SHEET,
        address=f"{first}:{right}{top + height - 1}",
        book=LOCK_BOOK,
        seed=seed,
        seed_from=f"{lock.SEED_NAME} cell {LOCK_SHEET}!B3",
        version=xlshuffle.__version__,
        time=FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ"),
        rows=rows,
        output=output,
        output_address=(
            f"{_col(left + width)}{top}:{_col(left + 2 * width - 1)}{top + len(output) - 1}"
        ),
        k=LOCK_WINNERS,
    )


def draw_and_lock(draw: Draw) -> Sheet:
    s = Sheet(
        LOCK_SHEET,
        "Draw and lock: winners drawn once, written as plain values and logged",
        "No formula: 'draw winners' wrote C5:D7 once and logged it on the Draw log sheet.",
        {"A": 14, "B": 16, "C": 15, "D": 16, "E": 2, "F": 44},
    )
    top, left, height, width = LOCK_LIST
    s.put(3, 1, "Seed:", "note")
    s.put(3, 2, LOCK_SEED, "seed")
    s.names[lock.SEED_NAME] = (3, 2)
    s.put(3, 3, "(the cell named SEED)", "note")
    for col, header in enumerate(["Ticket", "Name", "Winning ticket", "Winner"], start=left):
        s.put(top - 1, col, header, "header")
    for r, row in enumerate(draw.rows):
        for c, value in enumerate(row):
            s.put(top + r, left + c, value)
    for r, row in enumerate(draw.output):
        for c, value in enumerate(row):
            s.put(top + r, left + width + c, value, "locked")
    s.column(top - 1, 6, "Prize", LOCK_PRIZES)
    s.selection = (top, left + width, len(draw.output), width)
    lines: list[tuple[str, str]] = [
        ("How it was drawn", "header"),
        ("1. Type a seed into B3 (named SEED: Formulas > Define Name), or leave it empty", ""),
        ("    for a fresh one. Select the list A5:B16 without its header.", ""),
        ("2. xlwings Lite: in the task pane, set k to 3 and click the button", ""),
        ("    'xlshuffle: draw winners from the selected rows'.", ""),
        ("    Windows add-in: a button that runs", ""),
        ('    RunPython "import xlshuffle.excel.subs as x; x.draw_winners(3)"', "formula-text"),
        ("3. The winners land in C5:D7 as plain values; the sheet Draw log gets a row.", ""),
        ("    To draw again, first run 'xlshuffle: restore the last draw': it clears them.", ""),
        ("", ""),
        ("Re-check it (formula and command line from the Draw log row)", "header"),
        ("In Excel with the xlshuffle functions, the same winners:", ""),
        (draw.formula(), "formula-text"),
        ("From the saved workbook, on the command line:", ""),
        (draw.command_line(), "formula-text"),
    ]
    for i, (text, kind) in enumerate(lines, start=top + height + 1):
        if text:
            s.put(i, 1, text, kind or "text")
    return s


def sheets() -> list[Sheet]:
    return [survey(), raffle(), cards(), teams(), jumble(), draw_and_lock(_lock_draw())]


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
Blue results are locked: plain values written once by a draw-and-lock command, logged on
the Draw log sheet (the Draw and lock sheet shows one).
Each formula is an array formula over the cells it fills; the cell above shows it as text.
"""


# --------------------------------------------------------------------------- workbook

FILLS = {"seed": "FFF2CC", "header": "D9D9D9", "locked": "DDEBF7", True: "E2EFDA", False: "FCE4D6"}


def write_workbook(sheets: list[Sheet], path: Path, log: list[list[str]] | None = None) -> None:
    """Write the sheets, with a 'Read me' sheet first, as an .xlsx file.

    ``log``: the rows of a ``Draw log`` sheet (its header first), written last as the
    lock module writes them: every cell text-formatted, then its value.
    """
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.workbook.defined_name import DefinedName
    from openpyxl.worksheet.formula import ArrayFormula
    from openpyxl.writer.excel import ExcelWriter

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
            elif kind == "locked":
                cell.fill = fill(FILLS["locked"])
        for name, (row, col) in sheet.names.items():
            ws.cell(row, col).number_format = "@"
            ref = f"{sheet_ref(sheet.name)}!${_col(col)}${row}"
            wb.defined_names[name] = DefinedName(name, attr_text=ref)
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
    if log is not None:
        ws = wb.create_sheet(lock.LOG_SHEET)
        for col, name in enumerate(LOG_COLUMNS, start=1):
            ws.column_dimensions[_col(col)].width = {
                "input sha256": 66,
                "output sha256": 66,
                "formula": 50,
                "command line": 100,
            }.get(name, max(12, len(name) + 2))
        for r, row in enumerate(log, start=1):
            for c, value in enumerate(row, start=1):
                cell = ws.cell(r, c)
                cell.number_format = "@"
                cell.value = value
                cell.data_type = "s"  # a formula written as text stays text
    wb.properties.creator = "xlshuffle tools/make_demo_workbook.py"
    wb.properties.created = wb.properties.modified = FIXED_TIME
    buffer = io.BytesIO()
    # ExcelWriter, not wb.save: save() stamps the current time as 'modified'
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        ExcelWriter(wb, archive).save()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_fixed_times(buffer.getvalue()))


def _fixed_times(data: bytes) -> bytes:
    """The zip package with every entry dated ``FIXED_TIME`` (zip stores its write time)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, FIXED_TIME.timetuple()[:6])
            fixed.compress_type = info.compress_type
            fixed.external_attr = info.external_attr
            dst.writestr(fixed, src.read(info))
    return out.getvalue()


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

    if sheet.formulas:
        chosen = sheet.formulas[0]
        formula = chosen.text if len(chosen.result) == 1 else "{" + chosen.text + "}"
        top_row, left_col = chosen.row, chosen.col
        height, width = len(chosen.result), len(chosen.result[0])
    else:  # plain values: the bar shows the selected block's first value
        assert sheet.selection is not None
        top_row, left_col, height, width = sheet.selection
        formula = str(values[top_row, left_col][0])
    ax.add_patch(Rectangle((0.05, 0.12), fig_w - 0.1, 0.42, fc="white", ec="#A6A6A6"))
    name_box = f"{_col(left_col)}{top_row}"
    ax.text(0.12, 0.33, name_box, va="center", fontsize=9)
    ax.text(0.75, 0.33, "fx", va="center", fontsize=9, style="italic", color="#595959")
    ax.text(1.05, 0.33, formula, va="center", fontsize=9, family="monospace", parse_math=False)

    colors = {
        "header": "#D9D9D9",
        "seed": "#FFF2CC",
        "seeded": "#E2EFDA",
        "unseeded": "#FCE4D6",
        "locked": "#DDEBF7",
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
    sel = next(i for i in range(n_cols) if i + 1 == left_col)
    ax.add_patch(
        Rectangle(
            (lefts[sel], top + top_row * row_h),
            sum(widths[sel : sel + width]),
            row_h * height,
            fill=False,
            ec="#217346",
            lw=2,
        )
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


#: the Draw log columns a picture of the lock sheet shows under it
PICTURE_LOG = (
    "time (UTC)",
    "range",
    "mode",
    "k",
    "output",
    "seed",
    "seed from",
    "protocol",
    "input sha256",
    "output sha256",
    "formula",
    "command line",
)


def lock_picture(sheet: Sheet, log_row: list[str]) -> Sheet:
    """The lock sheet's list and winners, and below them its Draw log row, a line a column."""
    top, _, height, _ = LOCK_LIST
    cells = {at: cell for at, cell in sheet.cells.items() if at[0] < top + height}
    shown = Sheet(sheet.name, sheet.title, sheet.note, sheet.widths, cells)
    shown.selection = sheet.selection
    first = top + height + 1
    shown.put(first, 1, f"The row on the sheet {lock.LOG_SHEET}", "header")
    shown.put(first, 2, "", "header")
    for i, name in enumerate(PICTURE_LOG, start=first + 1):
        shown.put(i, 1, name, "note")
        shown.put(i, 2, log_row[LOG_COLUMNS.index(name)])
    return shown


def picture_name(sheet: Sheet) -> str:
    if sheet.name == LOCK_SHEET:
        return "excel-demo-lock.png"
    return "excel-demo-" + sheet.name.lower().replace(" ", "-") + ".png"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "workbooks" / "xlshuffle_demo.xlsx")
    parser.add_argument("--pictures", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--no-pictures", action="store_true")
    args = parser.parse_args(argv)
    built = sheets()
    log_row = _lock_draw().log_row()
    write_workbook(built, args.out, log=[list(LOG_COLUMNS), log_row])
    print(f"wrote {args.out}")
    if not args.no_pictures:
        for sheet in built:
            target = args.pictures / picture_name(sheet)
            draw_sheet(lock_picture(sheet, log_row) if sheet.name == LOCK_SHEET else sheet, target)
            print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
