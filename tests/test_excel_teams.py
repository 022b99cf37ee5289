"""=GROUPS(data, k, [seed], [balance]): balanced teams as Excel calls it (Office.js).

The team numbers must be those of ``xlshuffle groups IN --balance COL`` on the range saved
as CSV, and those of the reference code of docs/draw-protocol.md (section 16), which
tests/test_vectors_teams.py checks against tools/make_vectors.py's vectors. Without
``balance`` GROUPS is the plain draw it always was.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from excel_calls import call, cell, column, refusal
from protocol_references import reference_namespace
from xlshuffle import groups
from xlshuffle.cli import main

REF = reference_namespace()
HEADER = ["Name", "Gender", "Level"]
ROWS = [
    ["Ann", "F", 1],
    ["Bo", "M", 2],
    ["Cy", "M", 1],
    ["Dee", "F", 3.0],
    ["Ed", "M", 3],
    ["Fay", "F", 2],
    ["Gus", "M", 1],
    ["Hal", "M", 2],
    ["Ida", "F", 1],
    ["Jo", "F", 3],
    ["Kim", None, 2],
]


def cli_teams(tmp_path: Path, seed: str, k: int, *balance: str) -> list[int]:
    src, out = tmp_path / "class.csv", tmp_path / "teams.csv"
    with open(src, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        # as Excel saves the sheet: 3.0 shows as 3, an empty cell as nothing
        writer.writerows([[n, g or "", f"{lv:g}"] for n, g, lv in ROWS])
    options = [x for b in balance for x in ("--balance", b)]
    argv = ["groups", str(src), "-k", str(k), *options, "--seed", seed, "-o", str(out)]
    assert main(argv) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        table = list(csv.reader(fh))
    assert table[0][-1] == "Group"
    return [int(row[-1]) for row in table[1:]]


def reference(k: int, seed: object, *columns: int) -> list[int]:
    labels = [[None if row[c] is None else str(row[c]) for c in columns] for row in ROWS]
    labels = [[v.removesuffix(".0") if v else v for v in row] for row in labels]
    return list(REF["balanced_teams"](labels, k, seed))


def test_by_header_texts_the_command_line_teams(tmp_path: Path) -> None:
    want = cli_teams(tmp_path, "class 4B", 3, "Gender", "Level")
    assert want == reference(3, "class 4B", 1, 2)
    data = [HEADER, *ROWS]
    got = call("GROUPS", data, cell(3), cell("class 4B"), [["gender", " Level "]])
    assert got == [["Group"], *column(want)]
    # one text cell naming both, and the header texts mixed with a column number
    assert call("GROUPS", data, cell(3), cell("class 4B"), cell("Gender, Level")) == got
    assert call("GROUPS", data, cell(3), cell("class 4B"), [["Gender", 3]]) == got


def test_by_numbers_no_header_row(tmp_path: Path) -> None:
    want = cli_teams(tmp_path, "42", 4, "B")
    assert want == reference(4, 42, 1)
    assert call("GROUPS", ROWS, cell(4), cell(42), cell(2)) == column(want)
    assert call("GROUPS", ROWS, cell(4), cell("42"), cell(2.0)) == column(want)


def test_each_value_is_spread_evenly() -> None:
    got = [g for [g] in call("GROUPS", ROWS, cell(2), cell("even"), cell(2))]
    for value in ("F", "M"):
        teams = [g for g, row in zip(got, ROWS, strict=True) if row[1] == value]
        assert abs(teams.count(1) - teams.count(2)) <= 1


def test_without_balance_the_plain_draw_is_unchanged() -> None:
    plain = column(groups(len(ROWS), 3, seed="class 4B"))
    assert call("GROUPS", ROWS, cell(3), cell("class 4B")) == plain
    assert call("GROUPS", ROWS, cell(3), cell("class 4B"), None) == plain


@pytest.mark.parametrize(
    ("data", "balance", "words"),
    [
        ([HEADER, *ROWS], cell("Sex"), "balance: no column is headed 'Sex' (the first row holds"),
        (ROWS, cell(4), "balance: column 4 is past the 3 column(s) of the data"),
        (ROWS, cell(0), "balance must be 1 or more"),
        (ROWS, cell(True), "balance must name columns by header text or number, not TRUE"),
        (ROWS, [[2, 2]], "balance names one column twice"),
        ([HEADER, *ROWS], [["Gender", 2]], "balance names one column twice"),
        ([[*HEADER[:2], "Gender"], *ROWS], cell("Gender"), "2 columns are headed 'Gender'"),
        ([HEADER], cell("Gender"), "data holds only its header row"),
        (ROWS, cell("#N/A"), "balance, cell 1 shows the error #N/A: fix that cell"),
        ([HEADER, *ROWS[:2]], cell("Gender"), "cannot split 2 people into 3 teams"),
    ],
)
def test_refusals_say_how_to_fix(data: list, balance: list, words: str) -> None:
    message = refusal("GROUPS", data, cell(3), cell(1), balance)
    assert words in message, message
