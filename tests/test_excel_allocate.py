"""=ALLOCATE(arms, n, [seed], [ratio], [block_sizes]) through xlwings' own machinery.

The rows must be the Python API's and the command line's for the same seed (a cell of 42 is
``--seed 42``), with the ratio and block sizes given as texts, numbers or ranges alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import xlwings as xw

from test_excel import call, cell, column
from test_excel_errors import refusal
from xlshuffle import allocation_list
from xlshuffle.cli import main


def api(arms: list[str], n: int, seed: object, ratio: list[int], sizes: list[int]) -> list:
    rows = allocation_list(arms, ratio=ratio, n=n, block_sizes=sizes, seed=seed)
    return [[r.seq, r.block, r.block_size, r.arm] for r in rows]


def test_the_rows_are_the_api_rows() -> None:
    want = api(["Drug", "Placebo"], 10, "trial", [2, 1], [3, 6])
    got = call(
        "ALLOCATE", column(["Drug", "Placebo"]), cell(10), cell("trial"), cell("2:1"), cell("3,6")
    )
    assert got == want
    # a ratio and block sizes from ranges of numbers, arms from one text cell
    same = call(
        "ALLOCATE", cell("Drug, Placebo"), cell(10.0), cell("trial"), [[2, 1]], column([3, 6])
    )
    assert same == want


def test_defaults_are_one_each_and_blocks_of_two_and_four_times_the_sum() -> None:
    got = call("ALLOCATE", column(["A", "B", "C"]), cell(7), cell(42), None, None)
    assert got == api(["A", "B", "C"], 7, 42, [1, 1, 1], [6, 12])
    got = call("ALLOCATE", column(["A", "B"]), cell(7), cell(42), cell("4:2"), None)
    assert got == api(["A", "B"], 7, 42, [2, 1], [6, 12])


def test_the_command_line_writes_the_same_rows(tmp_path: Path, capsys) -> None:
    out = tmp_path / "o.csv"
    argv = ["allocate", "--arms", "A,B", "--ratio", "2:1", "--n", "9", "--block-sizes", "3,6"]
    assert main([*argv, "--seed", "42", "-o", str(out)]) == 0
    capsys.readouterr()
    lines = out.read_text(encoding="utf-8").splitlines()[1:]
    got = call("ALLOCATE", cell("A,B"), cell(9), cell(42), cell("2:1"), cell("3,6"))
    assert [",".join(map(str, row)) for row in got] == lines


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([cell("A,B"), cell(5), cell(1), cell("2:1"), cell("3,4")], "not a multiple of 3"),
        ([cell("A,A"), cell(5), cell(1), None, None], "'A' is named twice"),
        ([cell("A"), cell(5), cell(1), None, None], "at least two arms"),
        ([cell("A,B"), cell(0), cell(1), None, None], "n must be 1 or more"),
        ([cell("A,B"), cell(5), cell(1), cell("2:x"), None], "ratio must hold whole numbers"),
        ([cell("A,B"), cell(5), cell(1), cell("2::1"), None], "ratio has an empty item"),
        ([cell("A,B"), cell(5), cell(1), cell("0:0"), None], "is 0"),
        ([cell("A,B"), cell(5), cell(1), cell(True), None], "ratio must hold whole numbers"),
        ([cell(None), cell(5), cell(1), None, None], "arms has only empty cells"),
    ],
)
def test_refusals_are_one_named_line(args: list, words: str) -> None:
    assert words in refusal("ALLOCATE", *args)


def test_python_callers_get_the_same_line() -> None:
    from xlshuffle.excel import ALLOCATE

    with pytest.raises(xw.XlwingsError, match=r"ALLOCATE: .*not a multiple of 2"):
        ALLOCATE([["A", "B"]], 4, 1, None, 3)
