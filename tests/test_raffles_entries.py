"""One entrant per ID: the same ID on two rows is refused under ``--id`` (it would win
twice), unless ``--one-entry-per-id`` makes a person's rows one entrant whose tickets
are added up (docs/draw-protocol.md section 10).

The expected rows come from the protocol's rules written again here: the grouping by ID
with plain dicts, the tickets summed with ``fractions.Fraction``, and the weighted draw of
section 8 as a linear walk fed by ``DrawStream.randbelow`` (never the engine's code).
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from math import gcd, lcm
from pathlib import Path

import pytest

from raffle_books import save_book
from xlshuffle.cli import main
from xlshuffle.draw.protocol import DrawStream

from support import ROOT

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
)

HEAD = ["ID", "Name", "Tickets", "Region"]
#: one row per purchase: Ann bought three times, Cy twice
ROWS = [
    ["A1", "Ann", "1", "North"],
    ["B2", "Bo", "2", "South"],
    ["A1", "Ann", "0.5", "North"],
    ["C3", "Cy", "1", "North"],
    ["D4", "Di", "3", "South"],
    [" A1", "Ann", "2", "North"],
    ["C3", "Cy", "1.5", "North"],
    ["E5", "Ed", "1", "South"],
]


def write(path: Path, rows: list[list[str]], head: list[str] = HEAD) -> Path:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([head, *rows])
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def drawn(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


# --------------------------------------------------------------------- the oracle


def entrants(rows: list[list[str]], weights: bool) -> tuple[list[int], list[Fraction]]:
    """Section 10's rule written again: each distinct ID (spaces around ignored) is one
    entrant at its first row; its tickets are its rows' count, or their weights' sum."""
    first: dict[str, int] = {}
    tickets: dict[str, Fraction] = {}
    for i, row in enumerate(rows):
        key = row[0].strip()
        first.setdefault(key, i)
        tickets[key] = tickets.get(key, Fraction(0)) + (Fraction(row[2]) if weights else 1)
    keys = sorted(first, key=first.__getitem__)
    return [first[k] for k in keys], [tickets[k] for k in keys]


def linear_weighted(tickets: list[Fraction], k: int, stream: DrawStream) -> list[int]:
    """Section 8: whole numbers (scaled by a common denominator), reduced by their GCD,
    then k times a linear walk of the ranges."""
    scale = lcm(*(t.denominator for t in tickets))
    ws = [int(t * scale) for t in tickets]
    g = gcd(*ws) or 1
    ws = [w // g for w in ws]
    out = []
    for _ in range(k):
        r = stream.randbelow(sum(ws))
        i = 0
        while r >= ws[i]:
            r -= ws[i]
            i += 1
        out.append(i)
        ws[i] = 0
    return out


def expected(rows: list[list[str]], k: int, seed: str, weights: bool) -> list[list[str]]:
    firsts, tickets = entrants(rows, weights)
    return [rows[firsts[p]] for p in linear_weighted(tickets, k, DrawStream(seed))]


# --------------------------------------------------------------------- duplicates refused


def test_the_same_id_on_two_rows_is_refused_naming_it_and_its_rows(capsys, tmp_path) -> None:
    src = write(tmp_path / "buys.csv", ROWS)
    code, out, err = run(capsys, "sample", src, "-k", "2", "--id", "ID", "--seed", "1")
    assert code == 1 and out == ""
    assert err.startswith(f"Error: {src}: --id ID: the ID 'A1' is on 3 rows (cell A2, cell A4, ")
    assert "--one-entry-per-id" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_same_id_in_a_workbook_is_named_by_its_cells(capsys, tmp_path) -> None:
    rows: list[list[object]] = [["T1", "Ann", 1], ["T2", "Bo", 2], ["T3", "Cy", 1], [2, "Di", 1]]
    rows[2][0] = 2.0  # the number 2 and the number 2 (a float) are one ID, "2"
    book = save_book(tmp_path / "t.xlsx", rows, head=["ID", "Name", "Tickets"], left=2)
    code, _, err = run(capsys, "sample", book, "-k", "1", "--id", "ID", "--weights", "Tickets")
    assert code == 1
    assert "the ID '2' is on 2 rows (Tickets!B4, Tickets!B5)" in err, err


def test_blank_ids_and_draws_without_id_are_not_refused(capsys, tmp_path) -> None:
    rows = [["", "x", "1", "N"], ["", "y", "1", "N"], ["Z", "z", "1", "N"]]
    src = write(tmp_path / "blank.csv", rows)
    assert run(capsys, "sample", src, "-k", "2", "--id", "ID", "--seed", "b")[0] == 0
    src = write(tmp_path / "buys.csv", ROWS)
    assert run(capsys, "sample", src, "-k", "2", "--weights", "C", "--seed", "b")[0] == 0
