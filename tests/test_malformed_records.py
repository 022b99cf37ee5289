"""A record that is not JSON, JSON of the wrong shape or a truncated file is the record's
fault: verify and restore exit 1 with one line naming the record file, never 2 (the
command line was right) and never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from batch_support import copy_fixture
from xlshuffle.cli import main


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


def _draws(tmp: Path) -> dict[str, tuple[Path, list[str | Path]]]:
    """One record of each kind, and the verify options that replay it."""
    book = copy_fixture("plain.xlsx", tmp)
    (tmp / "l.csv").write_text("name,w\nAnn,1\nBob,2\nCid,3\n")
    (tmp / "items.txt").write_text("a\nb\nc\n")
    (tmp / "ids.csv").write_text("id\n1\n2\n")
    runs: dict[str, tuple[list[str | Path], list[str | Path]]] = {
        "workbook": (
            ["shuffle", book, "-o", tmp / "s.xlsx"],
            ["--input", book, "--output", tmp / "s.xlsx"],
        ),
        "list": (
            ["shuffle", tmp / "l.csv", "-o", tmp / "s.csv"],
            ["--input", tmp / "l.csv", "--output", tmp / "s.csv"],
        ),
        "draw": (
            ["sample", tmp / "l.csv", "-k", "2", "--weights", "w", "-o", tmp / "w.csv"],
            ["--input", tmp / "l.csv", "--output", tmp / "w.csv"],
        ),
        "orders": (
            ["orders", tmp / "items.txt", "--ids", tmp / "ids.csv", "-o", tmp / "o.csv"],
            ["--input", tmp / "items.txt", "--ids", tmp / "ids.csv", "--output", tmp / "o.csv"],
        ),
        "allocation": (
            ["allocate", "--arms", "A,B", "--n", "4", "--block-sizes", "2", "-o", tmp / "a.csv"],
            ["--output", tmp / "a.csv"],
        ),
    }
    beacon = ["--beacon", "the five main numbers of a lottery"]
    assert run("commit", tmp / "l.csv", "-k", "2", *beacon, "-o", tmp / "c.json") == 0
    runs["committed"] = (
        ["draw", tmp / "c.json", tmp / "l.csv", "--reveal", "4 17", "-o", tmp / "cw.csv"],
        ["--input", tmp / "l.csv", "--output", tmp / "cw.csv"],
    )
    out = {}
    for kind, (draw, check) in runs.items():
        seed = [] if kind == "committed" else ["--seed", "1"]
        record = tmp / f"{kind}.json"
        assert run(*draw, *seed, "--record", record) == 0
        assert run("verify", record, *check) == 0
        out[kind] = (record, check)
    return out


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        data = json.loads(text)
        change(data)
        return json.dumps(data)

    return edit


def _set(data: dict[str, Any], path: str, value: object) -> None:
    *parents, last = path.split(".")
    for name in parents:
        data = data[name]
    data[last] = value


DAMAGE: dict[str, Callable[[str], str]] = {
    "not JSON": lambda text: "hello, this is not a record",
    "truncated": lambda text: text[: len(text) // 2],
    "empty": lambda text: "",
    "a number": lambda text: "42",
    "an empty list": lambda text: "[]",
    "an empty object": lambda text: "{}",
}
# fields of each kind set to a value of the wrong shape
FIELDS = {
    "workbook": [("permutation", [5, 5, 5]), ("target", 5), ("rows", "x")],
    "list": [("permutation", "x"), ("target.kind", 5)],
    "draw": [("target.draw", 5), ("target.draw", {}), ("target.draw.method", 5)],
    "orders": [("k", "x"), ("items", None), ("seed", [1]), ("people", "x")],
    "allocation": [("options.arms", 5), ("options.n", "x"), ("options", 5), ("seed", None)],
    "committed": [
        ("commitment", 5),
        ("commitment.body", 5),
        ("commitment.body.draw", None),
        ("commitment.sha256", None),
        ("reveal", 5),
    ],
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[str | Path]]]:
    return _draws(tmp_path_factory.mktemp("records"))


def _cases() -> list[tuple[str, str, Callable[[str], str]]]:
    cases = [(kind, name, edit) for kind in FIELDS for name, edit in DAMAGE.items()]
    for kind, fields in FIELDS.items():
        for field, value in fields:
            edit = _edit(lambda d, f=field, v=value: _set(d, f, v))
            cases.append((kind, f"{field}={value!r}", edit))
    return cases


@pytest.mark.parametrize(("kind", "damage", "edit"), _cases())
def test_verify_of_a_malformed_record_names_it_and_exits_1(
    made: dict[str, tuple[Path, list[str | Path]]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    damage: str,
    edit: Callable[[str], str],
) -> None:
    record, check = made[kind]
    bad = tmp_path / f"bad-{kind}.json"
    bad.write_text(edit(record.read_text()))
    capsys.readouterr()
    assert run("verify", bad, *check) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: {bad}: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    if damage == "truncated":
        assert "(a truncated file?)" in err


@pytest.mark.parametrize("damage", ["not JSON", "truncated", "an empty object"])
@pytest.mark.parametrize("kind", ["workbook", "list"])
def test_restore_of_a_malformed_record_names_it_and_exits_1(
    made: dict[str, tuple[Path, list[str | Path]]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    damage: str,
) -> None:
    record, check = made[kind]
    bad = tmp_path / f"bad-{kind}.json"
    bad.write_text(DAMAGE[damage](record.read_text()))
    shuffled = Path(check[-1])
    capsys.readouterr()
    assert run("restore", bad, shuffled, "-o", tmp_path / f"back{shuffled.suffix}") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: {bad}: ") and err.count("\n") == 1, err
    assert not (tmp_path / f"back{shuffled.suffix}").exists()


def test_a_truncated_record_is_called_truncated(
    made: dict[str, tuple[Path, list[str | Path]]], tmp_path: Path, capsys
) -> None:
    record, check = made["workbook"]
    bad = tmp_path / "cut.json"
    bad.write_text(record.read_text()[:200])
    assert run("verify", bad, *check) == 1
    assert "ends before the JSON does (a truncated file?)" in capsys.readouterr().err
