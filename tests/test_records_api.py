"""``xlshuffle.records``: every kind of record, and one ``verify`` that gives a verdict.

Records are made by the real command line; a forged record (one field edited) must give
a verdict that is not ok, never an exception, and every record returned must serialise
with ``to_dict()`` through :func:`json.dumps`. Expected hands come from the reference
code of docs/draw-protocol.md, not from the engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from xlshuffle import records
from xlshuffle.cli import main
from xlshuffle.draw.errors import ListError, OptionError, WorkbookError

REF = reference_namespace()


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_importing_records_loads_only_the_standard_library() -> None:
    code = (
        "import sys, json, xlshuffle.records; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('openpyxl', "
        "'xlshuffle.workbook', 'xlshuffle.lists', 'regex')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


@pytest.fixture
def entries(tmp_path: Path) -> Path:
    path = tmp_path / "entries.csv"
    path.write_text("Name,Tickets\n" + "".join(f"P{i},{i % 3}\n" for i in range(9)), "utf-8")
    return path


def test_every_kind_loads_serialises_and_verifies(
    entries: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shuffled, record = tmp_path / "s.csv", tmp_path / "s.json"
    assert (
        run(capsys, "shuffle", entries, "--seed", "7", "-o", shuffled, "--record", record)[0] == 0
    )
    (draw,) = records.load(record)
    assert isinstance(draw, records.DrawRecord) and draw.command == "shuffle"
    assert json.loads(json.dumps(draw.to_dict())) == json.loads(record.read_text("utf-8"))
    verdict = records.verify(draw, input=entries, output=shuffled)
    assert verdict.ok and bool(verdict) and "input and output checked" in verdict.message
    assert records.verify(record, input=entries).ok

    code, out, _ = run(
        capsys, "deal", "--cards", 3, "--hands", 2, "--deck", 10, "--seed", "x", "--json"
    )
    assert code == 0
    deal_file = tmp_path / "deal.json"
    deal_file.write_text(out, encoding="utf-8")
    (deal,) = records.load(deal_file)
    assert isinstance(deal, records.DealRecord) and deal.deck == 10
    dealt = REF["deal"](list(range(1, 11)), 6, "x")
    assert [list(h) for h in deal.hands] == [dealt[0::2], dealt[1::2]]
    assert records.verify(deal_file).message == "ok: deal with seed x: 2 hands of 3 dealt again"
    assert json.loads(json.dumps(deal.to_dict())) == json.loads(out)

    alloc, alloc_record = tmp_path / "a.csv", tmp_path / "a.json"
    argv = ["allocate", "--arms", "A,B", "--n", 8, "--block-sizes", 4, "--seed", "t"]
    assert run(capsys, *argv, "-o", alloc, "--record", alloc_record)[0] == 0
    (allocation,) = records.load(alloc_record)
    assert isinstance(allocation, records.AllocationRecord) and allocation.seed == "t"
    assert records.verify(allocation, output=alloc).ok


def test_a_forged_record_is_a_verdict_not_an_exception(
    entries: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "r.json"
    assert run(capsys, "sample", entries, "-k", 3, "--seed", "7", "--record", record)[0] == 0
    data = json.loads(record.read_text("utf-8"))
    forged = records.parse(data | {"permutation": data["permutation"][::-1]})
    verdict = records.verify(forged)
    assert not verdict.ok and "does not give this permutation" in verdict.message
    deal = records.DealRecord(seed="x", hands=((1, 2, 3),), deck=10)
    assert not records.verify(deal).ok


def test_what_is_not_a_verdict_raises(
    entries: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"command": "shuffle", "seed"', encoding="utf-8")
    with pytest.raises(WorkbookError, match=r"broken\.json: not a JSON draw record"):
        records.load(broken)
    record = tmp_path / "r.json"
    assert (
        run(
            capsys, "shuffle", entries, "--seed", "7", "-o", tmp_path / "o.csv", "--record", record
        )[0]
        == 0
    )
    with pytest.raises(ListError, match=r"input .*missing\.csv: no such file"):
        records.verify(record, input=tmp_path / "missing.csv")
    with pytest.raises(OptionError, match="--ids checks an orders record"):
        records.verify(record, ids=entries)
    # and the command line: a broken record is the file's fault (1), naming it
    code, _, err = run(capsys, "verify", broken)
    assert code == 1 and err.count("\n") == 1 and "broken.json" in err
