"""Refusals that lead somewhere: the deciding reason first, and every option a
refusal suggests is accepted on the same file; ``--keep-blank-rows`` keeps blank rows
inside the data in place while the other rows are drawn.

Which rows went where is read back with openpyxl and the independent oracle
(tests/oracle.py) and compared with the core's ``shuffled``/``deal``/``groups`` over the
rows that are not blank, never with the engine's own reading of the sheet.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import openpyxl
import pytest

import oracle
import xlshuffle
from refusal_options import suggestions
from xlshuffle import OptionError, WorkbookError, XlshuffleError
from xlshuffle.cli import main
from xlshuffle.workbook import (
    DrawRecord,
    groups_workbook,
    restore_workbook,
    sample_workbook,
    shuffle_workbook,
    shuffle_worksheet,
    verify_record,
)

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"


def refusal(src: Path, **kwargs: object) -> str:
    with pytest.raises(WorkbookError) as info:
        shuffle_workbook(src, src.with_name("refused.xlsx"), seed=1, **kwargs)  # type: ignore[arg-type]
    message = str(info.value)
    assert "\n" not in message and str(src) in message
    assert not src.with_name("refused.xlsx").exists()
    return message


def assert_every_suggestion_draws(src: Path, message: str, **kwargs: object) -> int:
    """Each suggestion of ``message`` shuffles ``src`` and its record verifies."""
    found = suggestions(message)
    for i, options in enumerate(found):
        out = src.with_name(f"suggested{i}.xlsx")
        record = shuffle_workbook(src, out, seed="s", **kwargs, **options)  # type: ignore[arg-type]
        verify_record(record, input=src, output=out)
    return len(found)


def names(path: Path, sheet: str | None = None) -> list[object]:
    ws = openpyxl.load_workbook(path)[sheet] if sheet else openpyxl.load_workbook(path).active
    return [row[0] for row in ws.iter_rows(values_only=True)]


def build(
    path: Path,
    rows: list[list[object] | None],
    *,
    merges: tuple[str, ...] = (),
    protect: bool = False,
) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    for r, row in enumerate(rows, 1):
        for c, value in enumerate(row or [], 1):
            ws.cell(r, c, value)
    for ref in merges:
        ws.merge_cells(ref)
    ws.protection.sheet = protect
    wb.save(path)
    return path


PEOPLE = [
    ["name", "n"],
    ["Ann", 1],
    ["Bob", 2],
    ["Cid", 3],
    None,
    ["Dee", 4],
    ["Eve", 5],
    None,
    None,
    ["Fay", 6],
    ["Gus", 7],
]
FILLED = [2, 3, 4, 6, 7, 10, 11]  # the rows with a value under the header


# ------------------------------------------------------------------ refusals, each kind


@pytest.mark.parametrize(
    ("fixture", "sheet", "count"),
    [
        ("layout_blank_inside.xlsx", "Data", 3),
        ("layout_blank_inside.xlsx", "Gap", 3),
        ("layout_second_header.xlsx", "Data", 2),
        ("layout_merged_header.xlsx", "Data", 1),
        ("layout_merged_header.xlsx", "Across", 2),
    ],
)
def test_every_option_a_layout_refusal_names_draws(
    tmp_path: Path, fixture: str, sheet: str, count: int
) -> None:
    src = tmp_path / fixture
    shutil.copyfile(ENGINE / fixture, src)
    message = refusal(src, sheet=sheet)
    assert assert_every_suggestion_draws(src, message, sheet=sheet) == count


def test_the_blank_row_refusal_offers_the_block_above_the_block_below_and_keeping_it(
    tmp_path: Path,
) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE)
    assert refusal(src) == (
        f"{src}: sheet 'Data': row 5 is blank inside the data A1:B11: give --keep-blank-rows "
        "to draw the other rows around it (it stays in place), give --range A1:B4 --header "
        "to draw only the rows above it, give --range A6:B7 to draw only the rows below it, "
        "or delete it"
    )
    out = tmp_path / "below.xlsx"  # the block below ends at the next blank row
    shuffle_workbook(src, out, cells="A6:B7", seed="b")
    assert names(out)[5:7] == xlshuffle.shuffled(["Dee", "Eve"], seed="b")


def test_a_protected_sheet_is_the_reason_given_first(tmp_path: Path) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE, protect=True)
    message = refusal(src)
    assert message.startswith(f"{src}: sheet 'Data' is protected: unprotect it")
    assert message.endswith("(and row 5 is blank inside the data A1:B11)")
    assert suggestions(message) == []


def test_groups_refuses_a_protected_sheet(tmp_path: Path) -> None:
    # was: the group column was written into a sheet Excel would not let anyone edit
    src = build(tmp_path / "in.xlsx", [["name"], ["Ann"], ["Bob"], ["Cid"]], protect=True)
    with pytest.raises(WorkbookError, match=r"sheet 'Data' is protected: unprotect it"):
        groups_workbook(src, tmp_path / "out.xlsx", k=2, seed=1)
    assert not (tmp_path / "out.xlsx").exists()


def test_an_option_that_would_be_refused_is_not_offered(tmp_path: Path) -> None:
    # a merge down A2:A3 stops the block above and the whole list; the block below draws
    src = build(tmp_path / "in.xlsx", PEOPLE, merges=("A2:A3",))
    message = refusal(src)
    assert suggestions(message) == [{"cells": "A6:B7"}]
    assert "--keep-blank-rows" not in message and "A1:B4" not in message
    assert assert_every_suggestion_draws(src, message) == 1


def test_when_nothing_draws_the_deciding_reason_comes_first(tmp_path: Path) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE, merges=("A2:A3", "A6:A7"))
    message = refusal(src)
    assert re.match(rf"{re.escape(str(src))}: sheet 'Data': merged cells A2:A3 span cells", message)
    assert message.endswith("(and row 5 is blank inside the data A1:B11)")
    assert suggestions(message) == []


def test_sample_and_groups_offer_what_they_accept(tmp_path: Path) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE)
    with pytest.raises(WorkbookError) as info:
        sample_workbook(src, k=3, seed=1)
    offered = suggestions(str(info.value))  # the block below has two rows: not k=3
    assert offered == [{"keep_blank_rows": True}, {"cells": "A1:B4", "header": True}]
    for options in offered:
        sample_workbook(src, k=3, seed=1, **options)  # type: ignore[arg-type]


# ------------------------------------------------------------------ --keep-blank-rows


def test_keep_blank_rows_shuffles_around_the_blank_rows(tmp_path: Path) -> None:
    src, out, back = (
        build(tmp_path / "in.xlsx", PEOPLE),
        tmp_path / "out.xlsx",
        tmp_path / "back.xlsx",
    )
    record = shuffle_workbook(src, out, seed="keep", keep_blank_rows=True)
    before, after = names(src), names(out)
    assert [after[r - 1] for r in (5, 8, 9)] == [None, None, None]
    assert [after[r - 1] for r in FILLED] == xlshuffle.shuffled(
        [before[r - 1] for r in FILLED], seed="keep"
    )
    assert record.target["kept"] == ["5", "8-9"] and record.unit == "rows"
    assert [record.permutation[i] for i in (3, 6, 7)] == [3, 6, 7]  # blank rows stay
    verify_record(record, input=src, output=out)
    restore_workbook(record, out, back)
    assert oracle.cell_texts(back, "Data") == oracle.cell_texts(src, "Data")
    tampered = record.to_dict()
    tampered["target"]["kept"] = ["5", "8"]
    with pytest.raises(WorkbookError, match="record: "):
        verify_record(DrawRecord.from_dict(tampered))


def test_a_styled_blank_row_keeps_its_place_and_style(tmp_path: Path) -> None:
    src = tmp_path / "in.xlsx"
    shutil.copyfile(ENGINE / "layout_blank_inside.xlsx", src)
    out = tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, sheet="Data", seed="row6", keep_blank_rows=True)
    assert record.target["kept"] == ["6"]
    assert oracle.sheet_rows(out, "Data")[6] == oracle.sheet_rows(src, "Data")[6]
    cells = oracle.sheet_cells(src, "Data")
    assert {k: v for k, v in oracle.sheet_cells(out, "Data").items() if k[0] == 6} == {
        k: v for k, v in cells.items() if k[0] == 6
    }
    body = [r for r in range(2, 11) if r != 6]
    texts_in, texts_out = oracle.cell_texts(src, "Data"), oracle.cell_texts(out, "Data")
    assert [texts_out[(r, 1)] for r in body] == xlshuffle.shuffled(
        [texts_in[(r, 1)] for r in body], seed="row6"
    )
    verify_record(record, input=src, output=out)


def test_keep_blank_rows_samples_and_groups_the_other_rows(tmp_path: Path) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE)
    people = [PEOPLE[r - 1][0] for r in FILLED]  # type: ignore[index]
    result = sample_workbook(src, k=4, seed="w", keep_blank_rows=True)
    assert [row[1] for row in result.table[1:]] == xlshuffle.deal(people, 4, seed="w")
    verify_record(result.record)
    out = tmp_path / "groups.xlsx"
    record = groups_workbook(src, out, k=3, seed="g", keep_blank_rows=True)
    ws = openpyxl.load_workbook(out).active
    got = [ws.cell(r, 3).value for r in range(2, 12)]
    assert [got[r - 2] for r in (5, 8, 9)] == [None, None, None]  # blank rows: no group
    assert [got[r - 2] for r in FILLED] == xlshuffle.groups(len(FILLED), 3, seed="g")
    verify_record(record)


def test_keep_blank_rows_on_a_range_keeps_rows_blank_in_its_columns(tmp_path: Path) -> None:
    rows = [["name", "note"], ["Ann", "x"], [None, "only a note"], ["Bob"], ["Cid"], ["Dee"]]
    src, out = build(tmp_path / "in.xlsx", rows), tmp_path / "out.xlsx"
    record = shuffle_workbook(src, out, cells="A2:A6", seed="r", keep_blank_rows=True)
    assert record.target["kept"] == ["3"]
    after = names(out)
    assert after[2] is None and after[1:2] + after[3:6] == xlshuffle.shuffled(
        ["Ann", "Bob", "Cid", "Dee"], seed="r"
    )
    verify_record(record, input=src, output=out)


def test_without_blank_rows_keep_blank_rows_changes_nothing(tmp_path: Path) -> None:
    src = build(tmp_path / "in.xlsx", [row for row in PEOPLE if row])
    plain = shuffle_workbook(src, tmp_path / "a.xlsx", seed=7)
    kept = shuffle_workbook(src, tmp_path / "b.xlsx", seed=7, keep_blank_rows=True)
    assert kept.permutation == plain.permutation and "kept" not in kept.target
    assert (tmp_path / "a.xlsx").read_bytes() == (tmp_path / "b.xlsx").read_bytes()
    with pytest.raises(OptionError, match=r"--keep-blank-rows .* --by rows"):
        shuffle_workbook(src, tmp_path / "c.xlsx", seed=7, by="cells", keep_blank_rows=True)


def test_the_in_memory_engine_keeps_blank_rows_and_names_the_same_options(
    tmp_path: Path,
) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE, protect=False)
    record = shuffle_workbook(src, tmp_path / "out.xlsx", seed=3, keep_blank_rows=True)
    ws = openpyxl.load_workbook(src).active
    with pytest.raises(WorkbookError) as info:
        shuffle_worksheet(ws, seed=3)
    assert suggestions(str(info.value)) == suggestions(refusal(src))
    assert shuffle_worksheet(ws, seed=3, keep_blank_rows=True) == record.permutation
    ws.protection.sheet = True
    with pytest.raises(WorkbookError, match=r"^sheet 'Data' is protected.*\(and row 5 is blank"):
        shuffle_worksheet(ws, seed=3)


def test_the_cli_takes_keep_blank_rows(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE)
    assert (
        main(
            [
                "shuffle",
                str(src),
                "-o",
                str(tmp_path / "out.xlsx"),
                "--seed",
                "c",
                "--keep-blank-rows",
                "--json",
            ]
        )
        == 0
    )
    record = json.loads(capsys.readouterr().out)
    assert record["target"]["kept"] == ["5", "8-9"]
    assert (
        main(
            [
                "verify",
                str(_write(tmp_path / "r.json", record)),
                "--input",
                str(src),
                "--output",
                str(tmp_path / "out.xlsx"),
            ]
        )
        == 0
    )
    assert main(["shuffle", str(src), "--seed", "c", "--keep-blank-rows", "--dry-run"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("; blank rows kept in place: 5, 8-9")
    csv = tmp_path / "list.csv"
    csv.write_text("name\nAnn\n\nBob\n", encoding="utf-8")
    assert main(["shuffle", str(csv), "-o", str(tmp_path / "o.csv"), "--keep-blank-rows"]) == 2
    assert "--keep-blank-rows is for workbooks" in capsys.readouterr().err


def _write(path: Path, record: dict) -> Path:
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_an_option_the_run_cannot_take_is_left_out(tmp_path: Path) -> None:
    src = build(tmp_path / "in.xlsx", PEOPLE)
    message = refusal(src, by="cells")  # --keep-blank-rows moves whole rows only
    assert suggestions(message) == [{"cells": "A1:B4", "header": True}, {"cells": "A6:B7"}]
    assert assert_every_suggestion_draws(src, message, by="cells") == 2


@pytest.mark.parametrize(("sheet", "blank"), [("Data", [6]), ("Gap", [6, 7])])
def test_groups_skip_stored_and_missing_blank_rows(tmp_path: Path, sheet: str, blank: list) -> None:
    src, out = tmp_path / "in.xlsx", tmp_path / "out.xlsx"
    shutil.copyfile(ENGINE / "layout_blank_inside.xlsx", src)
    record = groups_workbook(src, out, k=2, sheet=sheet, seed="g", keep_blank_rows=True)
    ws = openpyxl.load_workbook(out)[sheet]
    last = ws.max_row
    body = [r for r in range(2, last + 1) if r not in blank]
    assert [ws.cell(r, 5).value for r in blank] == [None] * len(blank)
    assert [ws.cell(r, 5).value for r in body] == xlshuffle.groups(len(body), 2, seed="g")
    assert ws.cell(1, 5).value == "Group"
    verify_record(record)
    shuffle_workbook(out, sheet=sheet, seed=1, keep_blank_rows=True, dry_run=True)  # readable


def test_a_suggestion_is_tried_with_the_selection_given(tmp_path: Path) -> None:
    # was: --no-header was tried on the default selection (the whole list), accepted, and
    # offered for --range A1:B1, where -k 2 of its one row is then refused
    src = build(tmp_path / "in.xlsx", [["name", "n"], ["Ann", 1], ["Bob", 2], ["Cid", 3]])
    with pytest.raises(XlshuffleError) as info:
        sample_workbook(src, k=2, cells="A1:B1", header=True, seed=1)
    assert "--no-header" not in str(info.value), info.value
    assert "only a header row" in str(info.value)
    message = refusal(src, cells="A1:B1", header=True)  # a shuffle of that one row draws
    assert "give --no-header" in message
    assert assert_every_suggestion_draws(src, message, cells="A1:B1") == 1
