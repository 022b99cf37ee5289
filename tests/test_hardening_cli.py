"""One clear line and the right exit code for anything an argument or a record file can
cause: usage errors exit 2 naming the argument, refusals exit 1, never a traceback, and
a record that claims a billion rows costs nothing to refuse."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from batch_support import copy_fixture
from xlshuffle import SeedError, SizeError
from xlshuffle.cli import main
from xlshuffle.draw.cards import deal_hands, standard_deck
from xlshuffle.draw.protocol import normalise_seed

from support import ROOT

RAFFLE = ROOT / "workbooks" / "raffle.xlsx"


def outcome(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("Error")]
    assert "Traceback" not in err
    assert len(lines) <= 1, err
    return code, lines[0] if lines else ""


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["--seed", "\udced"], 2, "half of a character"),
        (["--seed", "a\udcffb"], 2, "half of a character"),
        (["--range", "foo"], 2, "--range 'foo' is not an A1 range"),
        (["--range", "12"], 2, "--range '12' is not an A1 range"),
        (["--range", "D9:A1"], 2, "runs backwards: write it top-left first, as 'A1:D9'"),
        (["--range", "C:A"], 2, "as 'A:C'"),
        (["--range", "9:2"], 2, "as '2:9'"),
        (["--range", "A1:XFE9"], 2, "is not an A1 range"),
        (["--range", "A1:B1048577"], 2, "is not an A1 range"),
        (["--range", "Z900:Z990"], 2, "holds no data of sheet 'Tickets' (its data is in A1:D201)"),
    ],
)
def test_shuffle_arguments(tmp_path: Path, capsys, argv: list[str], code: int, message: str):
    src = tmp_path / "raffle.xlsx"
    src.write_bytes(RAFFLE.read_bytes())
    argv = [*argv, "--seed", "1"] if "--seed" not in argv else argv
    got, line = outcome(capsys, "shuffle", src, "-o", tmp_path / "o.xlsx", *argv)
    assert (got, message in line) == (code, True), line
    assert not (tmp_path / "o.xlsx").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sample", "-k", "99999999999999999999999"], "ask for at most 200"),
        (["groups", "-k", "500"], "-k 500 is more than the 200 data rows to split into groups"),
    ],
)
def test_counts_past_the_rows_are_usage_errors(tmp_path: Path, capsys, argv, message):
    src = tmp_path / "raffle.xlsx"
    src.write_bytes(RAFFLE.read_bytes())
    code, line = outcome(capsys, argv[0], src, *argv[1:], "-o", tmp_path / "o.xlsx")
    assert code == 2 and message in line, line


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--decks", "99999999999"], "99999999999 decks of 52 cards make more than 1,048,576"),
        (["--jokers", "99999999999"], "1 deck of 100000000051 cards makes more"),
        (["--deck", "9" * 30], "deck must be at most 2**53"),
        (["--hands", "99999999999", "--cards", "3"], "that needs 299999999997 cards"),
        (["--cards", "9" * 25], "cards and the deck has 52"),
    ],
)
def test_deal_with_huge_numbers_is_one_line_at_once(capsys, argv: list[str], message: str):
    code, line = outcome(capsys, "deal", *argv, "--seed", "1")
    assert code == 2 and message in line, line


def test_the_core_refuses_what_cannot_be_drawn() -> None:
    with pytest.raises(SeedError, match="half of a character"):
        normalise_seed("\ud800")
    with pytest.raises(SizeError, match="make more than"):
        standard_deck(decks=10**12)
    with pytest.raises(SizeError, match="at most 2\\*\\*53"):
        deal_hands(1, deck=2**64)
    assert len(deal_hands(3, 2, deck=2**53, seed=1)[1]) == 3  # the largest deck: sparse


def _record(**changes: object) -> dict[str, object]:
    rec: dict[str, object] = {
        "protocol": "xlshuffle/draw/v1",
        "tool": "xlshuffle",
        "command": "shuffle",
        "seed": "1",
        "input": "x.xlsx",
        "input_sha256": "",
        "sheet": "S",
        "selection": "S!A1:A3",
        "header": True,
        "mode": "rows",
        "rows": 3,
        "columns": 1,
        "permutation": [1, 0],
    }
    rec.update(changes)
    return rec


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{}", "byte 0 is not UTF-8 text"),
        (b"[" * 100_000, "nested too deep"),
        (b'{"rows": 1' + b"0" * 5000 + b"}", "not a JSON draw record"),
        (b"[1, 2]", "expected a JSON object"),
        (json.dumps({"a": 1}).encode(), "unknown field 'a'"),
        (json.dumps(_record(rows="3")).encode(), "field 'rows' of the draw record is str"),
        (json.dumps(_record(header=1)).encode(), "field 'header' of the draw record is int"),
        (json.dumps(_record(permutation="10")).encode(), "field 'permutation'"),
        (json.dumps(_record(rows=-4)).encode(), "field 'rows' of the draw record is negative"),
        (json.dumps(_record(rows=10**11)).encode(), "the permutation has 2 entries"),
        (json.dumps(_record(mode="cells", columns=10**9)).encode(), "does not fit"),
        (json.dumps(_record(mode="within-rows")).encode(), "does not fit"),
        (json.dumps({k: v for k, v in _record().items() if k != "seed"}).encode(), "(no seed)"),
    ],
)
def test_a_bad_record_is_one_line(tmp_path: Path, capsys, content: bytes, message: str):
    path = tmp_path / "r.json"
    path.write_bytes(content)
    code, line = outcome(capsys, "verify", path)
    assert code == 1 and message in line, line


def test_a_good_record_still_verifies(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record(permutation=[0, 1])))
    assert outcome(capsys, "verify", path)[0] == 1  # seed 1 draws [1, 0], not [0, 1]
    path.write_text(json.dumps(_record()))
    assert outcome(capsys, "verify", path) == (0, "")


def test_an_empty_folder_and_an_unmatched_glob_are_errors(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert outcome(capsys, "shuffle", "empty")[0] == 2
        assert outcome(capsys, "shuffle", "*.xlsx")[0] == 2
        copy_fixture("plain.xlsx", tmp_path)
        assert outcome(capsys, "shuffle", "*.xlsx", "--dry-run", "--seed", "1")[0] == 0
    finally:
        os.chdir(cwd)


def test_a_folder_draws_its_workbooks_and_lists_but_no_backups(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "draws"
    folder.mkdir()
    src = copy_fixture("plain.xlsx", tmp_path)
    for name in ("a.xlsx", "a.bak.xlsx", "a.bak-2.xlsx", "~$old.xlsx"):
        (folder / name).write_bytes(src.read_bytes())
    (folder / "b.csv").write_bytes(b"name\r\nAnn\r\nBob\r\nCid\r\n")
    (folder / "b.bak-3.csv").write_bytes(b"name\r\nAnn\r\n")
    code = main(["shuffle", str(folder), "--dry-run", "--seed", "1", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    inputs = sorted(json.loads(line)["input"] for line in out.splitlines() if line.startswith("{"))
    assert inputs == [str(folder / "a.xlsx"), str(folder / "b.csv")]


@pytest.mark.parametrize(
    "sheet",
    [
        b'<worksheet><sheetData><row r="5"><c r="A1"/></row></sheetData></worksheet>',
        b"<worksheet><sheetData><!-- x --></foo><row r='1'/></sheetData></worksheet>",
    ],
)
def test_a_broken_sheet_is_said_once(sheet: bytes) -> None:
    from xlshuffle import WorkbookError
    from xlshuffle.workbook.scan.sheet import SheetXml, parse_cells

    def read() -> None:
        sx = SheetXml(sheet, "f.xlsx: sheet 'S'")
        parse_cells(sx.row(0), sx.numbers[0], b"", sx.label)

    with pytest.raises(WorkbookError) as info:
        read()
    text = str(info.value)
    assert text.count("f.xlsx") == 1 and text.count("save it again") == 1, text


def test_every_limit_has_an_option(tmp_path: Path, capsys) -> None:
    src = tmp_path / "raffle.xlsx"
    src.write_bytes(RAFFLE.read_bytes())
    out = tmp_path / "o.xlsx"
    code, line = outcome(capsys, "shuffle", src, "-o", out, "--by", "cells", "--max-cells", "10")
    assert code == 1 and "at most 10" in line and "--max-cells N" in line, line
    assert outcome(capsys, "shuffle", src, "-o", out, "--by", "cells", "--max-cells", "800")[0] == 0
    for option in ("--max-cells", "--max-ranges", "--max-ratio", "--max-mb"):
        code, line = outcome(capsys, "shuffle", src, "-o", out, option, "0")
        assert code == 2 and f"{option} must be 1 or more" in line, line


def test_folder_inputs_know_every_list_extension() -> None:
    from xlshuffle.cli.paths import _EXTENSIONS
    from xlshuffle.lists import LIST_EXTENSIONS

    assert set(LIST_EXTENSIONS) <= set(_EXTENSIONS)
