"""TICKET and SAMPLE's ticket methods through xlwings' own function machinery (Office.js
calls, as xlwings Lite and Server make them): the same draw as the command line on the
range saved as CSV, and the tickets of the protocol's reference code."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import xlwings as xw
from consistent_sampler import sampler

from excel_calls import call, cell, column
from protocol_references import reference_namespace
from xlshuffle.cli import main

REF = reference_namespace()

PEOPLE = [["Ann", 3], ["Bo", 1], ["Cy", 5], ["Di", 2], ["Ed", 0], ["Fay", 4], ["Gus", 2]]
NAMES = [p[0] for p in PEOPLE]


def _values(result: object) -> list[list[object]]:
    assert isinstance(result, list), result
    return [list(row) for row in result]


def test_ticket_spills_one_ticket_per_id_in_the_ranges_shape() -> None:
    got = _values(call("TICKET", column([*NAMES, None]), cell("spring"), None))
    assert got == [[REF["ticket"]("spring", 0, n)] for n in NAMES] + [[""]]
    across = _values(call("TICKET", [NAMES[:3]], cell(42), cell(2)))
    assert across == [[REF["ticket"](42, 2, n) for n in NAMES[:3]]]


def test_sortby_ticket_is_the_ticket_order() -> None:
    """=SORTBY(names, TICKET(names, seed)) lists the entrants as the draw takes them."""
    tickets = [row[0] for row in _values(call("TICKET", column(NAMES), cell("spring"), None))]
    by_ticket = [n for _, n in sorted(zip(tickets, NAMES, strict=True))]
    assert by_ticket == [NAMES[i] for i in REF["ticket_draw"]("spring", NAMES)]


def test_sample_by_ticket_is_the_command_lines_draw(tmp_path: Path) -> None:
    got = _values(
        call("SAMPLE", PEOPLE, cell(3), cell("spring"), None, cell(1), None, None, cell("ticket"))
    )
    src = tmp_path / "people.csv"
    with src.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows(PEOPLE)
    out = tmp_path / "w.csv"
    argv = [
        "sample",
        str(src),
        "--no-header",
        "-k",
        "3",
        "--reserves",
        "1",
        "--method",
        "ticket",
        "--id",
        "A",
        "--seed",
        "spring",
        "-o",
        str(out),
    ]
    assert main(argv) == 0
    with out.open(encoding="utf-8") as fh:
        cli = list(csv.reader(fh))
    assert [[str(v) for v in row] for row in got] == cli
    assert [row[0] for row in got] == [
        NAMES[i] for i in REF["ticket_draw"]("spring", NAMES, 3, reserves=1)
    ]


def test_sample_by_weighted_tickets_and_rivests_order() -> None:
    weights = column([p[1] for p in PEOPLE])
    got = _values(
        call("SAMPLE", PEOPLE, cell(2), cell(7), weights, None, None, None, cell("ticket"))
    )
    counts = [p[1] for p in PEOPLE]
    assert [r[0] for r in got] == [NAMES[i] for i in REF["ticket_draw"](7, NAMES, 2, counts)]
    rivest = _values(
        call("SAMPLE", PEOPLE, cell(4), cell(314159), None, None, None, None, cell("rivest"))
    )
    assert [r[0] for r in rivest] == list(sampler(NAMES, seed="314159", take=4, output="id"))


def test_mistakes_are_one_line_in_the_cell() -> None:
    with pytest.raises(xw.XlwingsError, match="TICKET: a ticket needs a seed"):
        call("TICKET", column(NAMES), None, None)
    with pytest.raises(xw.XlwingsError, match="ids, row 2 is empty"):
        call(
            "SAMPLE",
            [["Ann"], [None], ["Cy"]],
            cell(1),
            cell(1),
            None,
            None,
            None,
            None,
            cell("ticket"),
        )
    with pytest.raises(xw.XlwingsError, match='method "rivest" gives one ticket per row'):
        call("SAMPLE", PEOPLE, cell(1), cell(1), column([1] * 7), None, None, None, cell("rivest"))
