"""The raffle and audit worksheet functions: SAMPLE's tickets, reserves and exclusions, SAMPLEBY and
AUDITSAMPLE, through xlwings' own custom-function machinery (:func:`excel_calls.call`).

Two independent references for every result:

- the command line, run in-process on the same range saved as a CSV list without a
  header row (``xlshuffle sample t.csv --no-header --weights C --reserves 2 ...``); its
  rows come back as text, so the Excel result is compared as the text its cells show;
- ``tools/make_vectors.py``, which implements the draw protocol on its own from
  docs/draw-protocol.md and never imports xlshuffle (a linear walk for tickets, its own
  sub-stream key, its own audit hits).
"""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import xlwings as xw
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from excel_calls import NA_IN, call, cell, column, texts
from protocol_references import MV, tenths
from xlshuffle import deal
from xlshuffle.cli import main
from xlshuffle.excel import AUDITSAMPLE, SAMPLE, SAMPLEBY

from support import ROOT

# name, email, tickets, department, amount: a raffle list and a ledger in one table.
TABLE: list[list[Any]] = [
    ["Ada", "ada@example.com", 5, "Sales", 1250.5],
    ["Ben", "ben@example.com", 1, "Finance", 20],
    ["Chen", "chen@example.com", 0, "Sales", 0],
    ["Dara", "dara@example.com", 3, "Support", 310.25],
    ["Eli", "eli@example.com", 2.5, 42, 75],
    ["Fay", "fay@example.com", 4, "Finance", 5000],
    ["Gus", " gus@example.com ", 1, 42.0, 12.34],
    ["Hana", "hana@example.com", 6, "Sales", 999.99],
    ["Ivo", "ivo@example.com", 0.5, "Support", 88],
    ["Jo", "jo@example.com", 2, "Finance", 140],
    ["Kai", "kai@example.com", 3, "Sales", 2.5],
    ["Lea", "lea@example.com", 1, "42", 460],
]
NAME, EMAIL, TICKETS, DEPT, AMOUNT = range(5)
SEEDS = ["2026 spring raffle", 42, "Zoë"]


def col(j: int, rows: list[list[Any]] = TABLE) -> list[list[Any]]:
    return [[row[j]] for row in rows]


def cli(tmp_path: Path, seed: object, *options: str, rows: list[list[Any]] = TABLE) -> Any:
    """What ``xlshuffle sample`` draws from ``rows`` saved as CSV without a header row."""
    src = tmp_path / "table.csv"
    with src.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(texts(rows))
    out = tmp_path / "drawn.csv"
    argv = ["sample", str(src), "--no-header", *options, "--seed", str(seed), "-o", str(out)]
    assert main(argv) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def placed(indexes: list[int], winners: int, rows: list[list[Any]] = TABLE) -> list[list[Any]]:
    """Rows in draw order with Role and Rank, from the protocol's rule (section 9)."""
    return [
        [
            *rows[i],
            "winner" if p < winners else "reserve",
            p + 1 if p < winners else p + 1 - winners,
        ]
        for p, i in enumerate(indexes)
    ]


# --------------------------------------------------------------------------- SAMPLE


@pytest.mark.parametrize("seed", SEEDS)
def test_tickets_and_reserves_equal_the_command_line_and_the_oracle(
    tmp_path: Path, seed: object
) -> None:
    got = call("SAMPLE", TABLE, cell(3), cell(seed), col(TICKETS), cell(2), None, None)
    assert texts(got) == cli(tmp_path, seed, "-k", "3", "--weights", "C", "--reserves", "2")
    drawn = MV.weighted(tenths([r[TICKETS] for r in TABLE]), 5, MV.words(seed))
    assert got == placed(drawn, 3)
    # The winners are the draw of 3 alone: reserves never change them.
    alone = call("SAMPLE", TABLE, cell(3), cell(seed), col(TICKETS), None, None, None)
    assert alone == [row[:5] for row in got[:3]]


@pytest.mark.parametrize("seed", SEEDS)
def test_reserves_without_tickets_are_the_next_rows_of_the_plain_draw(
    tmp_path: Path, seed: object
) -> None:
    got = call("SAMPLE", TABLE, cell(2), cell(seed), None, cell(3), None, None)
    assert texts(got) == cli(tmp_path, seed, "-k", "2", "--reserves", "3")
    assert got == placed(MV.deal(list(range(12)), 5, seed), 2)
    assert [row[:5] for row in got] == deal(TABLE, 5, seed=seed)  # SAMPLE(data, 5, seed)


def test_zero_reserves_and_no_weights_is_the_sample_of_before() -> None:
    before = call("SAMPLE", TABLE, cell(4), cell(7))
    assert call("SAMPLE", TABLE, cell(4), cell(7), None, cell(0), None, None) == before
    assert before == [TABLE[i] for i in MV.deal(list(range(12)), 4, 7)]


EXCLUDED = [["ben@example.com"], ["gus@example.com"], [""], ["nobody@example.com"], ["Fay"]]


@pytest.mark.parametrize("weighted", [False, True], ids=["plain", "tickets"])
def test_exclusions_by_id_equal_the_command_line_and_the_oracle(
    tmp_path: Path, weighted: bool
) -> None:
    seed = "2026 summer raffle"
    weights = col(TICKETS) if weighted else None
    got = call("SAMPLE", TABLE, cell(3), cell(seed), weights, None, EXCLUDED, col(EMAIL))
    listed = tmp_path / "excluded.txt"
    listed.write_text("\n".join(r[0] for r in EXCLUDED) + "\n", encoding="utf-8")
    options = ["-k", "3", "--exclude", str(listed), "--id", "B"]
    assert texts(got) == cli(tmp_path, seed, *options, *(["--weights", "C"] if weighted else []))
    out = {MV.canonical(x[0]) for x in EXCLUDED} - {""}
    kept = [i for i, r in enumerate(TABLE) if MV.canonical(r[EMAIL]) not in out]
    assert len(kept) == 10  # Ben and Gus (spaces around his ID do not count); not Fay
    if weighted:
        picks = MV.weighted(tenths([TABLE[i][TICKETS] for i in kept]), 3, MV.words(seed))
    else:
        picks = MV.deal(list(range(len(kept))), 3, seed)
    assert got == [TABLE[kept[p]] for p in picks]


def test_exclusions_match_the_first_column_when_ids_is_omitted(tmp_path: Path) -> None:
    excluded = [["Ada", "Hana"], [" Kai ", None]]  # any shape; a blank excludes nobody
    got = call("SAMPLE", TABLE, cell(4), cell(1), None, cell(1), excluded, None)
    listed = tmp_path / "excluded.txt"
    listed.write_text("Ada\nHana\nKai\n", encoding="utf-8")
    assert texts(got) == cli(
        tmp_path, 1, "-k", "4", "--reserves", "1", "--exclude", str(listed), "--id", "A"
    )
    assert not {"Ada", "Hana", "Kai"} & {row[0] for row in got}


def test_a_single_row_is_drawn_cell_by_cell_and_stays_a_row() -> None:
    names = [[r[NAME] for r in TABLE]]
    tickets = [[r[TICKETS] for r in TABLE]]
    got = call("SAMPLE", names, cell(2), cell("row"), tickets, cell(1), None, None)
    drawn = MV.weighted(tenths(tickets[0]), 3, MV.words("row"))
    assert got == [
        [TABLE[i][NAME] for i in drawn],
        ["winner", "winner", "reserve"],
        [1, 2, 1],
    ]
    # the same draw as the column of those names, turned back into rows
    down = call("SAMPLE", col(NAME), cell(2), cell("row"), col(TICKETS), cell(1), None, None)
    assert got == [list(line) for line in zip(*down, strict=True)]


def test_texts_and_decimals_as_tickets_are_read_exactly() -> None:
    data = col(NAME)[:4]
    as_text = call(
        "SAMPLE", data, cell(2), cell(9), column(["0.1", " 0.2", "3", 0]), None, None, None
    )
    as_numbers = call("SAMPLE", data, cell(2), cell(9), column([1, 2, 30, 0]), None, None, None)
    assert as_text == as_numbers == [data[i] for i in MV.weighted([1, 2, 30, 0], 2, MV.words(9))]


# --------------------------------------------------------------------------- SAMPLEBY


@pytest.mark.parametrize(
    ("k", "reserves", "weighted"), [(1, None, False), (2, None, True), (1, 1, False), (1, 1, True)]
)
def test_sampleby_equals_the_command_line_and_the_oracle(
    tmp_path: Path, k: int, reserves: int | None, weighted: bool
) -> None:
    seed = "strata 2026"
    weights = col(TICKETS) if weighted else None
    got = call(
        "SAMPLEBY",
        TABLE,
        cell(k),
        col(DEPT),
        cell(seed),
        weights,
        None if reserves is None else cell(reserves),
    )
    options = ["-k", str(k), "--strata", "D"]
    options += ["--weights", "C"] if weighted else []
    options += ["--reserves", str(reserves)] if reserves else []
    assert texts(got) == cli(tmp_path, seed, *options)
    labels = [r[DEPT] for r in TABLE]
    extra = reserves or 0
    parts = MV.strata(
        seed, labels, "k", k + extra, tenths([r[TICKETS] for r in TABLE]) if weighted else None
    )
    # Strata in order of first appearance; 42, 42.0 and "42" are one stratum.
    assert [p[0] for p in parts] == ["Sales", "Finance", "Support", 42]
    expected = [row for _, _, drawn in parts for row in placed(drawn, k)]
    assert got == (expected if reserves else [row[:5] for row in expected])


def test_sampleby_strata_outside_data() -> None:
    names = col(NAME)
    got = call("SAMPLEBY", names, cell(1), col(DEPT), cell(3), None, None)
    parts = MV.strata(3, [r[DEPT] for r in TABLE], "k", 1, None)
    assert got == [names[i] for _, _, drawn in parts for i in drawn]


# --------------------------------------------------------------------------- AUDITSAMPLE


@pytest.mark.parametrize("seed", ["audit 2026", 7])
def test_systematic_selection_equals_the_command_line_and_the_oracle(
    tmp_path: Path, seed: object
) -> None:
    got = call("AUDITSAMPLE", TABLE, cell(4), cell(seed), None, None)
    assert texts(got) == cli(tmp_path, seed, "-k", "4", "--method", "systematic")
    _, items = MV.audit_hits(12, 4, MV.words(seed))
    assert got == [TABLE[i] for i in items]
    assert call("AUDITSAMPLE", TABLE, cell(4), cell(seed), cell(" Systematic "), None) == got


@pytest.mark.parametrize(("seed", "k"), [("audit 2026", 5), ("ledger", 9), (1, 2)])
def test_monetary_unit_selection_equals_the_command_line_and_the_oracle(
    tmp_path: Path, seed: object, k: int
) -> None:
    got = call("AUDITSAMPLE", TABLE, cell(k), cell(seed), cell("mus"), col(AMOUNT))
    assert texts(got) == cli(tmp_path, seed, "-k", str(k), "--method", "mus", "--amount", "E")
    cents = [int(Decimal(str(r[AMOUNT])) * 100) for r in TABLE]
    selected = MV.monetary_units(cents, k, seed)["selected"]
    assert got == [[*TABLE[i], hits] for i, hits in selected]
    # amounts alone mean mus; "monetary unit" is its long name
    assert call("AUDITSAMPLE", TABLE, cell(k), cell(seed), None, col(AMOUNT)) == got
    assert (
        call("AUDITSAMPLE", TABLE, cell(k), cell(seed), cell("Monetary-Unit"), col(AMOUNT)) == got
    )


@pytest.mark.parametrize(("seed", "k", "top"), [("audit 2026", 5, None), ("ledger", 4, "interval")])
def test_cell_selection_equals_the_command_line_and_the_oracle(
    tmp_path: Path, seed: object, k: int, top: str | None
) -> None:
    got = call("AUDITSAMPLE", TABLE, cell(k), cell(seed), cell("cell"), col(AMOUNT), cell(top))
    argv = ["-k", str(k), "--method", "cell", "--amount", "E"]
    argv += [] if top is None else ["--top-stratum", top]
    assert texts(got) == cli(tmp_path, seed, *argv)
    cents = [int(Decimal(str(r[AMOUNT])) * 100) for r in TABLE]
    picked = MV.mus_strata(cents, k, seed, top, True)["selected"]
    tops = set(MV.mus_strata(cents, k, seed, top, True)["top"])
    flag = [] if top is None else ["yes"]
    assert got == [
        [*TABLE[i], hits, *(["yes" if i in tops else "no"] if flag else [])] for i, hits in picked
    ]


def test_a_credit_is_refused_not_dropped() -> None:
    ledger = [["a", 500], ["b", -20], ["c", 130]]
    message = refusal("AUDITSAMPLE", ledger, cell(2), cell(1), cell("mus"), col(1, ledger), None)
    assert "amounts, row 2: the amount is below 0" in message


def test_money_texts_are_read_like_the_command_line_reads_them(tmp_path: Path) -> None:
    ledger = [["a", "$1,234.56"], ["b", "(0.00)"], ["c", "20 €"], ["d", 0.1], ["e", "7"]]
    got = call("AUDITSAMPLE", ledger, cell(3), cell("money"), cell("mus"), col(1, ledger))
    assert texts(got) == cli(
        tmp_path, "money", "-k", "3", "--method", "mus", "--amount", "B", rows=ledger
    )
    selected = MV.monetary_units([123456, 0, 2000, 10, 700], 3, "money")["selected"]
    assert got == [[*ledger[i], hits] for i, hits in selected]


# --------------------------------------------------------------------------- mistakes


def refusal(name: str, *args: Any) -> str:
    with pytest.raises(xw.XlwingsError) as info:
        call(name, *args)
    message = str(info.value)
    assert type(info.value) is xw.XlwingsError
    assert message.startswith(f"{name}: ") and "\n" not in message and len(message) <= 300
    return message


THREE = column(["a", "b", "c"])
BAD: list[tuple[str, list[Any], str]] = [
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), column([1, -2, 3]), None, None, None],
        "weights, row 2: the weight cannot be negative (-2): use 0 to leave the entry out",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), column([1, None, 3]), None, None, None],
        "weights, row 2: the weight is blank: write a number of tickets such as 3 or 2.5, or 0",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), column([1, 2, "three"]), None, None, None],
        "weights, row 3: the weight 'three' is not a number",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), column([1, NA_IN, 3]), None, None, None],
        "weights, row 2 shows the error #N/A: fix that cell",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), column([1, True, 3]), None, None, None],
        "weights, row 2: the weight cannot be TRUE",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), column([1, 2]), None, None, None],
        "weights has 2 cells but data has 3 rows: give one weights cell for each row of data",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), [[1, 2], [3, 4]], None, None, None],
        "weights is 2 rows by 2 columns: give one column",
    ),
    (
        "SAMPLE",
        [THREE, cell(3), cell(1), column([1, 0, 3]), None, None, None],
        "cannot draw 3 winners: only 2 entrants have tickets, so at most 2 can win",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), None, cell(2), None, None],
        "cannot draw 2 + 2 reserves from 3 rows: ask for fewer",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), None, cell(-1), None, None],
        "reserves must be 0 or more, not -1",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), None, cell(1.5), None, None],
        "reserves must be a whole number of 0 or more, not 1.5",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), None, cell(NA_IN), None, None],
        "reserves shows the error #N/A",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), None, None, None, THREE],
        'ids is read with exclude or with method "ticket": give one, or leave ids empty',
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), None, None, column(["a", NA_IN]), None],
        "exclude, cell 2 shows the error #N/A: fix that cell",
    ),
    (
        "SAMPLE",
        [THREE, cell(2), cell(1), None, None, cell("a"), column(["x", "y"])],
        "ids has 2 cells but data has 3 rows",
    ),
    (
        "SAMPLE",
        [THREE, cell(3), cell(1), None, None, cell("a"), None],
        "cannot draw 3 from 2 rows: ask for fewer",
    ),
    (
        "SAMPLEBY",
        [THREE, cell(1), column(["N", None, "S"]), cell(1), None, None],
        "strata, row 2 is empty: give every row a text or a number",
    ),
    (
        "SAMPLEBY",
        [THREE, cell(2), column(["N", "N", "S"]), cell(1), None, None],
        "stratum 'S': cannot draw 2 from 1 row: ask for fewer",
    ),
    (
        "SAMPLEBY",
        [THREE, cell(1), column(["N", "S"]), cell(1), None, None],
        "strata has 2 cells but data has 3 rows",
    ),
    (
        "SAMPLEBY",
        [THREE, cell(1), None, cell(1), None, None],
        "strata has 1 cells but data has 3 rows",
    ),
    (
        "AUDITSAMPLE",
        [THREE, cell(4), cell(1), None, None],
        "cannot select 4 of 3 items: k must be at most 3",
    ),
    (
        "AUDITSAMPLE",
        [THREE, cell(1), cell(1), cell("cells"), None],
        "unknown method 'cells': use systematic, or mus or cell (monetary-unit sampling) with "
        "amounts",
    ),
    ("AUDITSAMPLE", [THREE, cell(1), cell(1), cell("mus"), None], 'method "mus" needs amounts'),
    (
        "AUDITSAMPLE",
        [THREE, cell(1), cell(1), cell("systematic"), column([1, 2, 3])],
        'amounts are read by method "mus" or "cell" only',
    ),
    (
        "AUDITSAMPLE",
        [THREE, cell(1), cell(1), None, column([1, -2, 3])],
        "amounts, row 2: the amount is below 0: a monetary-unit sample sets credits aside",
    ),
    (
        "AUDITSAMPLE",
        [THREE, cell(1), cell(1), None, column([1, 2.345, 3])],
        "amounts, row 2: the amount 2.345 has more than 2 decimal places: round it",
    ),
    (
        "AUDITSAMPLE",
        [THREE, cell(700), cell(1), None, column([1, 2, 3])],
        "cannot hit 700 cents of a total of 600: k must be at most the total",
    ),
    (
        "AUDITSAMPLE",
        [THREE, cell(10**7), cell(1), None, column([1, 2, 3])],
        "k must be at most 1,048,576 (the rows of a sheet), not 10000000",
    ),
]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [THREE, cell(1), cell(1), None, None, cell("x"), column(["a", "b", " a"])],
            "ids, row 3: the ID 'a' is also in ids, row 1: each row of data is one entrant",
        ),
        (  # ids omitted: the first column of data, named as the IDs all the same
            [column(["a", "b", 42, "b", 42.0]), cell(1), cell(1), None, None, cell("x"), None],
            "ids, row 4: the ID 'b' is also in ids, row 2: each row of data is one entrant",
        ),
        (
            [[["c", "c", "d", "c"]], cell(1), cell(1), None, None, cell("x"), None],
            "ids, cell 2: the ID 'c' is also in ids, cell 1 (3 hold it): each cell of data",
        ),
    ],
    ids=["ids", "first column", "a row"],
)
def test_the_same_id_twice_is_refused_in_the_words_of_the_worksheet(
    args: list[Any], message: str
) -> None:
    """Each row is one entrant: exclude names entrants by ID, so an ID on two rows is
    refused, naming the SAMPLE argument and its rows, never the command line's options
    (``--id``, ``--one-entry-per-id``), which a worksheet does not have."""
    got = refusal("SAMPLE", *args)
    assert message in got and "give each its own ID in ids" in got
    assert "--" not in got


@pytest.mark.parametrize(("name", "args", "message"), BAD, ids=[b[2][:30] for b in BAD])
def test_mistakes_are_one_line_naming_the_argument_and_row(
    name: str, args: list[Any], message: str
) -> None:
    assert message in refusal(name, *args)


def test_python_callers_get_the_same_draws() -> None:
    weights = [r[TICKETS] for r in TABLE]
    assert SAMPLE(TABLE, 3, 42, weights, 2) == call(
        "SAMPLE", TABLE, cell(3), cell(42), col(TICKETS), cell(2), None, None
    )
    labels = [r[DEPT] for r in TABLE]
    assert SAMPLEBY(TABLE, 1, labels, 42) == call(
        "SAMPLEBY", TABLE, cell(1), col(DEPT), cell(42), None, None
    )
    amounts = [r[AMOUNT] for r in TABLE]
    assert AUDITSAMPLE(TABLE, 3, 42, "mus", amounts) == call(
        "AUDITSAMPLE", TABLE, cell(3), cell(42), cell("mus"), col(AMOUNT)
    )


# --------------------------------------------------------------------- docs/batch.md's raffle


def test_the_batch_pages_raffle_in_excel_is_the_command_lines(tmp_path: Path) -> None:
    """workbooks/tickets.csv as a sheet (A1:D17, its numbers as numbers): the spring draw
    with tickets and reserves, then the summer draw excluding the spring winners by Email
    (the worked raffle of docs/batch.md), give the rows ``xlshuffle sample`` writes for the
    file itself."""
    src = ROOT / "workbooks" / "tickets.csv"
    with src.open(newline="", encoding="utf-8") as fh:
        header, *lines = list(csv.reader(fh))
    assert header == ["Name", "Email", "Tickets", "Department"]
    sheet = [[name, email, int(tickets), dept] for name, email, tickets, dept in lines]
    tickets = col(2, sheet)

    def drawn(*options: str) -> list[list[str]]:
        out = tmp_path / "out.csv"
        assert main(["sample", str(src), *options, "-o", str(out)]) == 0
        with out.open(newline="", encoding="utf-8") as fh:
            return list(csv.reader(fh))[1:]  # the header row stays first

    spring = call(
        "SAMPLE", sheet, cell(3), cell("2026 spring raffle"), tickets, cell(2), None, None
    )
    cli_spring = [
        "-k",
        "3",
        "--weights",
        "Tickets",
        "--reserves",
        "2",
        "--seed",
        "2026 spring raffle",
    ]
    assert texts(spring) == drawn(*cli_spring)
    page = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    assert [row[0] for row in spring[:3]] == ["Ben Costa", "Kai Haddad", "Maya Garcia"]
    assert all(f"\n{row[0]},{row[1]}," in page for row in spring), "batch.md shows them"
    winners = [[row[1]] for row in spring if row[4] == "winner"]
    summer = call(
        "SAMPLE", sheet, cell(3), cell("2026 summer raffle"), tickets, None, winners, col(1, sheet)
    )
    ids = tmp_path / "spring-winners.txt"
    ids.write_text("".join(f"{w[0]}\n" for w in winners), encoding="utf-8")
    cli_summer = ["-k", "3", "--weights", "Tickets", "--exclude", str(ids), "--id", "Email"]
    assert texts(summer) == drawn(*cli_summer, "--seed", "2026 summer raffle")
    assert not {w[0] for w in winners} & {row[1] for row in summer}


# --------------------------------------------------------------------------- any tickets


@settings(max_examples=60, deadline=None)
@given(
    weights=st.lists(
        st.integers(0, 50) | st.sampled_from([0.5, 2.5, 1.25]), min_size=1, max_size=15
    ),
    data=st.data(),
    seed=st.integers(0, 10**6) | st.text(min_size=1, max_size=6).filter(lambda s: s.strip()),
)
def test_any_tickets_and_reserves_are_the_oracles_draw(
    weights: list[Any], data: st.DataObject, seed: object
) -> None:
    scaled = [int(Decimal(str(w)) * 100) for w in weights]
    can = sum(1 for w in scaled if w)
    assume(can >= 1 and not (isinstance(seed, str) and seed.strip().startswith("#")))
    k = data.draw(st.integers(1, can))
    reserves = data.draw(st.integers(0, can - k))
    rows = [[f"p{i}"] for i in range(len(weights))]
    got = call("SAMPLE", rows, cell(k), cell(seed), column(weights), cell(reserves), None, None)
    drawn = MV.weighted(scaled, k + reserves, MV.words(seed))
    assert got == (placed(drawn, k, rows) if reserves else [rows[i] for i in drawn])
