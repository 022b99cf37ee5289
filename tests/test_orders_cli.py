"""``xlshuffle orders`` and ``verify`` of its record: tables, refusals, replay.

The expected orders come from the reference code of docs/draw-protocol.md (sections 13-14),
which is checked against tools/make_vectors.py's independent vectors, not from xlshuffle.
"""

from __future__ import annotations

import csv
import json
import re
import shlex
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from xlshuffle.cli import main

from support import ROOT

REF = reference_namespace()
ITEMS = ["Maze", "Stroop", "N-back", "Flanker"]
IDS = ["Ann", "Bo", "Zoë", "42", "Di"]


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    items = tmp_path / "tasks.csv"
    items.write_text("Task;Minutes\n" + "".join(f"{t};5\n" for t in ITEMS), encoding="utf-8")
    ids = tmp_path / "people.txt"
    ids.write_text("\n".join(IDS) + "\n\n", encoding="utf-8")  # a blank line at the end
    return items, ids


def table(path: Path) -> list[list[str]]:
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # Excel reads the UTF-8 right
    return list(csv.reader(data.decode("utf-8-sig").splitlines()))


def test_per_person_orders(files: tuple[Path, Path], tmp_path: Path) -> None:
    items, ids = files
    out, rec = tmp_path / "orders.csv", tmp_path / "orders.json"
    assert run("orders", items, "--ids", ids, "--seed", "lab", "-o", out, "--record", rec) == 0
    want = [[pid, *(ITEMS[i] for i in REF["person_order"](4, 4, "lab", pid))] for pid in IDS]
    assert table(out) == [["ID", "1", "2", "3", "4"], *want]
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert (record["command"], record["seed"], record["n"], record["people"]) == (
        "orders",
        "lab",
        4,
        5,
    )
    assert run("verify", rec, "--input", items, "--ids", ids, "--output", out) == 0
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(record)) == []
    assert record["tool_version"]


def test_partial_and_balanced_orders(files: tuple[Path, Path], tmp_path: Path) -> None:
    items, ids = files
    out = tmp_path / "bal.csv"
    assert (
        run("orders", items, "--ids", ids, "--seed", "lab", "-o", out, "--balanced", "-k", "2") == 0
    )
    want = [ITEMS[i] for row in REF["balanced_orders"](4, 5, 2, "lab") for i in row]
    got = table(out)
    assert got[0] == ["ID", "1", "2"]
    assert [row[0] for row in got[1:]] == IDS
    assert [x for row in got[1:] for x in row[1:]] == want


def test_a_person_keeps_their_order_when_others_join(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    items, ids = files
    run("orders", items, "--ids", ids, "--seed", "lab", "-o", tmp_path / "a.csv")
    ids.write_text("Newcomer\n" + "\n".join(reversed(IDS)) + "\n", encoding="utf-8")
    run("orders", items, "--ids", ids, "--seed", "lab", "-o", tmp_path / "b.csv")
    before = {row[0]: row for row in table(tmp_path / "a.csv")[1:]}
    after = {row[0]: row for row in table(tmp_path / "b.csv")[1:]}
    assert all(after[pid] == before[pid] for pid in IDS)


def test_columns_by_header_or_letter(tmp_path: Path) -> None:
    items = tmp_path / "items.tsv"
    items.write_text("No\tName\n1\tA\n2\tB\n3\tC\n", encoding="utf-8")
    ids = tmp_path / "ids.csv"
    ids.write_text("Class,Pupil\n4B,Ann\n4B,Bo\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    opts = ("--items-column", "Name", "--ids-column", "B", "--seed", "s", "-o", out)
    assert run("orders", items, "--ids", ids, *opts) == 0
    want = [[p, *("ABC"[i] for i in REF["person_order"](3, 3, "s", p))] for p in ("Ann", "Bo")]
    assert table(out)[1:] == want


@pytest.mark.parametrize(
    ("ids_text", "args", "code", "message"),
    [
        ("Ann\nBo\nAnn\n", (), 1, "people.txt: line 3: the ID 'Ann' is also on line 1"),
        (
            "Zo\u00eb\n Zoe\u0308 \n",
            (),
            1,
            "people.txt: line 2: the ID 'Zoe\u0308' is also on line 1",
        ),
        ("Ann\n\nBo\n", (), 1, "people.txt: line 2 is blank: fill it in or delete the line"),
        ("Ann\n", ("-k", "5"), 2, "tasks.csv holds 4 items: give -k at most 4"),
        ("Ann\n", ("--ids-column", "Z"), 2, "--ids-column is for CSV/TSV lists"),
        ("\n\n", (), 1, "people.txt: no values in it"),
    ],
)
def test_refusals_are_one_line(
    files: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    ids_text: str,
    args: tuple[str, ...],
    code: int,
    message: str,
) -> None:
    items, ids = files
    ids.write_text(ids_text, encoding="utf-8")
    out = tmp_path / "o.csv"
    assert run("orders", items, "--ids", ids, "--seed", "s", "-o", out, *args) == code
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()


def test_empty_items_and_unknown_column_are_refused(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items, ids = files
    out = tmp_path / "o.csv"
    assert run("orders", items, "--ids", ids, "-o", out, "--items-column", "Colour") == 2
    assert "--items-column Colour: no such column" in capsys.readouterr().err
    assert run("orders", items, "--ids", ids, "-o", ids) == 2
    assert f"{ids} is an input: write the table" in capsys.readouterr().err
    assert ids.read_text(encoding="utf-8").startswith("Ann\n")
    items.write_text("Task;Minutes\n", encoding="utf-8")
    assert run("orders", items, "--ids", ids, "-o", out) == 1
    assert "tasks.csv: no values in it" in capsys.readouterr().err


def test_verify_names_the_first_differing_row(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items, ids = files
    out, rec = tmp_path / "orders.csv", tmp_path / "orders.json"
    run("orders", items, "--ids", ids, "--seed", "lab", "-o", out, "--record", rec)
    rows = table(out)
    rows[3][1], rows[3][2] = rows[3][2], rows[3][1]  # Zoë's first two places swapped
    out.write_text("\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert run("verify", rec, "--input", items, "--ids", ids, "--output", out) == 1
    err = capsys.readouterr().err
    assert "line 4 is" in err and "the row of ID 'Zoë'" in err
    # another IDs file is not the recorded input; no --ids is a usage error
    ids.write_text("Ann\n", encoding="utf-8")
    assert run("verify", rec, "--input", items, "--ids", ids, "--output", out) == 1
    assert "people.txt: not the recorded input (ids_sha256 differs)" in capsys.readouterr().err
    assert run("verify", rec, "--input", items) == 2
    assert "give --input ITEMS and --ids IDS" in capsys.readouterr().err


def test_the_worked_example_in_batch_md(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/batch.md, 'Per-person orders': every command's output and file as shown."""
    text = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    section = text.split("## Per-person orders", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```console\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 3
    monkeypatch.chdir(tmp_path)
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "Questions"
    book.active.append(["Question"])
    for i in range(40):
        book.active.append([f"Q{i + 1}"])
    panel = book.create_sheet("Panel")
    panel.append(["Respondent"])
    for i in range(300):
        panel.append([1000 + i])
    book.save("survey.xlsx")
    Path("participants.txt").write_text("P01\nP02\nP03\nP04\n", encoding="utf-8")
    Path("dup.txt").write_text("P01\nP02\nP01\n", encoding="utf-8")
    steps = re.split(r"^\$ ", "".join(blocks), flags=re.MULTILINE)[1:]
    assert len(steps) == 9
    for step in steps:
        command, _, shown = step.replace("\\\n    ", "").partition("\n")
        argv = shlex.split(command)
        if argv[0] == "cat":
            if argv[1] == "tasks.csv":  # the input, as the example shows it
                Path("tasks.csv").write_text(shown, encoding="utf-8")
            data = Path(argv[1]).read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
            assert data == shown, command
            continue
        assert argv[0] == "xlshuffle"
        main(argv[1:])
        got = capsys.readouterr()
        assert got.out + got.err == shown, command
    # P05 joins: the four rows stay, P05's is the one the text quotes
    Path("participants.txt").write_text("P01\nP02\nP03\nP04\nP05\n", encoding="utf-8")
    main(
        ["orders", "tasks.csv", "--ids", "participants.txt", "--seed", "study 2026", "-o", "5.csv"]
    )
    five = Path("5.csv").read_text(encoding="utf-8-sig").splitlines()
    assert five[:5] == Path("orders.csv").read_text(encoding="utf-8-sig").splitlines()
    assert five[5] in section


def test_a_header_shared_by_two_columns_is_named_not_guessed(tmp_path: Path) -> None:
    """The column lookup is the raffles' one (tabledraw.entrants.find_column): a header text two
    columns share is refused, as --weights refuses it, rather than taken as the first."""
    from xlshuffle import OptionError
    from xlshuffle.lists.orders import read_values

    items = tmp_path / "items.csv"
    items.write_text("Task,Task\nMaze,Stroop\n", encoding="utf-8")
    with pytest.raises(OptionError, match="2 columns are headed 'Task': give the column's letter"):
        read_values(items, column="Task", option="--items-column")
    assert read_values(items, column="B", option="--items-column")[0] == ["Stroop"]
