"""=ALLOCATE(arms, n, [seed], [ratio], [block_sizes], [strata]) through xlwings' own machinery.

The rows must be the Python API's and the command line's for the same seed (a cell of 42 is
``--seed 42``), with the ratio and block sizes given as texts, numbers or ranges alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import xlwings as xw

from excel_calls import call, cell, column, refusal
from protocol_references import reference_namespace
from xlshuffle import allocation_list
from xlshuffle.cli import main

REF = reference_namespace()


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


# --------------------------------------------------------------------------- strata

STRATA = [("site", ["North", "South"]), ("sex", ["F", "M"])]


def reference(seed: object, strata: list) -> list[list[object]]:
    """The rows of docs/draw-protocol.md's section 15 code, as ALLOCATE lays them out."""
    rows = REF["allocation_list"](seed, ["Drug", "Placebo"], [2, 1], 5, [3, 6], strata)
    return [[seq, *combo, block, size, arm] for seq, combo, block, size, arm, _ in rows]


@pytest.mark.parametrize(
    "strata",
    [
        cell("site=North,South;sex=F,M"),
        cell("site = North, South\nsex=F,M"),
        column(["site=North,South", "sex=F,M"]),
        [["site", "North,South"], ["sex", "F, M"]],
        [["site", "North", "South"], ["sex", "F", "M"]],
        [["site", "North", "South"], ["sex", "F,M", None]],
    ],
)
def test_strata_give_the_reference_rows(strata: list) -> None:
    args = [cell("Drug,Placebo"), cell(5), cell("trial 7"), cell("2:1"), cell("3,6")]
    assert call("ALLOCATE", *args, strata) == reference("trial 7", STRATA)


def test_strata_values_that_are_numbers_are_their_text() -> None:
    got = call(
        "ALLOCATE",
        cell("Drug,Placebo"),
        cell(5),
        cell(42),
        cell("2:1"),
        cell("3,6"),
        [["centre", 1, 2.0]],
    )
    assert got == reference(42, [("centre", ["1", "2"])])


def test_strata_rows_are_the_command_line_rows(tmp_path: Path, capsys) -> None:
    out = tmp_path / "o.csv"
    argv = ["allocate", "--arms", "A,B", "--ratio", "2:1", "--n", "4", "--block-sizes", "3,6"]
    strata = ["--strata", "site=North,South", "--strata", "sex=F,M"]
    assert main([*argv, *strata, "--seed", "42", "-o", str(out)]) == 0
    capsys.readouterr()
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Seq,site,sex,Block,BlockSize,Arm"
    got = call(
        "ALLOCATE",
        cell("A,B"),
        cell(4),
        cell(42),
        cell("2:1"),
        cell("3,6"),
        cell("site=North,South;sex=F,M"),
    )
    assert [",".join(map(str, row)) for row in got] == lines[1:]
    assert len({tuple(row[1:3]) for row in got}) == 4


@pytest.mark.parametrize(
    ("strata", "words"),
    [
        (cell("site"), "the stratum 'site' has no values: put them in the cells right"),
        (cell("site="), "'site=' is not NAME=V1,V2: write them as \"site=North,South;sex=F,M\""),
        (cell("site=N,,S"), "stratum 'site' has an empty value: separate its values with ','"),
        (cell("site=N,N"), "stratum 'site' needs its values once each"),
        (cell("site=N;site=S"), "the stratum 'site' is given twice: give each stratum once"),
        (cell("a|b=N,S"), "the stratum 'a|b' holds '|': rename it"),
        (column(["site=N,S", 3]), "strata: 3 is not NAME=V1,V2"),
        ([["site", None]], "the stratum 'site' has no values"),
        (column(["site=N,S", "#N/A"]), "strata, cell 2 shows the error #N/A: fix that cell"),
    ],
)
def test_bad_strata_are_one_line_saying_how_to_fix(strata: list, words: str) -> None:
    message = refusal("ALLOCATE", cell("A,B"), cell(4), cell(1), None, None, strata)
    assert message.startswith("ALLOCATE: strata")
    assert words in message, message
