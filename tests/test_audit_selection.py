"""Monetary-unit samples of a ledger (protocol section 20) through ``xlshuffle sample``:
cell selection, a top stratum, amounts of 0 or below set aside, decimal commas.

Each expected selection is worked out here from the protocol's words with
``DrawStream.randbelow`` and plain arithmetic (or by enumerating every start), never by the
engine's code; records validate against the schema and ``verify`` replays them.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raffle_books import run
from xlshuffle import cell_sample, decimal_mark, mus_population, parse_amounts
from xlshuffle.draw.errors import EntryError
from xlshuffle.draw.protocol import DrawStream

from support import ROOT

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
)

# A ledger as a European accounting system exports it: semicolons, decimal commas, a
# credit note, a zero line and one large invoice.
LEDGER = [
    ("INV-1", "1.234,56"),
    ("CRN-2", "-50,00"),
    ("INV-3", "0,00"),
    ("INV-4", "25.000,00"),
    ("INV-5", "300,10"),
    ("INV-6", "4.500,00"),
    ("INV-7", "12,50"),
    ("INV-8", "9.999,99"),
]
CENTS = [123456, -5000, 0, 2500000, 30010, 450000, 1250, 999999]


def ledger(tmp_path: Path, rows: list[tuple[str, str]] = LEDGER, sep: str = ";") -> str:
    path = tmp_path / "ledger.csv"
    body = "".join(f"{a}{sep}{b}\n" for a, b in rows)
    path.write_text(f"Invoice{sep}Amount\n{body}", encoding="utf-8")
    return str(path)


def holder(sizes: list[int], unit: int) -> int:
    for i, size in enumerate(sizes):
        if unit < size:
            return i
        unit -= size
    raise AssertionError("a unit past the total")


# --------------------------------------------------------------- the API, exactly


def test_cell_selection_by_the_protocols_words() -> None:
    amounts = [700, 50, 3000, 1, 249]
    stream, total, k = DrawStream("cells"), sum(amounts), 5
    units = [(stream.randbelow(total) + j * total) // k for j in range(k)]
    sample = cell_sample(amounts, k, seed="cells")
    assert list(sample.units) == units
    want: dict[int, int] = {}
    for u in units:
        want[holder(amounts, u)] = want.get(holder(amounts, u), 0) + 1
    assert [(s.item, s.hits) for s in sample.selected] == sorted(want.items())


def test_each_cell_hits_every_cent_of_it_once_over_all_starts() -> None:
    # Exact enumeration: N = 7 cents, k = 3 cells. Over the 7**3 start triples each cent is
    # hit k/N of the time on average, as in a fixed-interval selection; item chances follow.
    amounts, k = [1, 3, 3], 3
    total = sum(amounts)
    hits_of = [Fraction(0)] * len(amounts)
    chosen = [Fraction(0)] * len(amounts)
    for starts in itertools.product(range(total), repeat=k):
        units = [(s + j * total) // k for j, s in enumerate(starts)]
        items = [holder(amounts, u) for u in units]
        for i in range(len(amounts)):
            hits_of[i] += Fraction(items.count(i), total**k)
            chosen[i] += Fraction(i in items, total**k)
    assert hits_of == [Fraction(a * k, total) for a in amounts]
    # item 1 (3 cents, at least the interval 7/3) straddles two cells: it may be missed;
    # item 2 holds the last cell whole: certain, as the sample says
    assert chosen[1] < 1 and chosen[2] == 1
    for seed in range(20):
        for s in cell_sample(amounts, k, seed=seed).selected:
            assert s.certain == (chosen[s.item] == 1)


@given(st.lists(st.integers(0, 40), min_size=1, max_size=8), st.integers(1, 6), st.text())
def test_a_certain_item_is_selected_whatever_the_seed(
    amounts: list[int], k: int, seed: str
) -> None:
    total = sum(amounts)
    if total < k:
        return
    sample = cell_sample(amounts, k, seed=seed)
    c = 0
    for i, a in enumerate(amounts):  # holds a whole cell [jN, (j+1)N) of x = s_j + jN
        whole = any(k * c <= j * total and (j + 1) * total <= k * (c + a) for j in range(k))
        if whole:
            assert i in sample.indexes
        c += a
    assert sum(s.hits for s in sample.selected) == k


def test_top_stratum_and_set_aside() -> None:
    split = mus_population(CENTS, 4, cutoff="interval")
    positive = sum(a for a in CENTS if a > 0)
    assert split.cutoff == Fraction(positive, 4)
    assert split.set_aside == (1, 2)
    assert split.top == tuple(i for i, a in enumerate(CENTS) if a > 0 and a * 4 >= positive)
    assert mus_population(CENTS, 4, cutoff=450000).top == (3, 5, 7)
    assert mus_population(CENTS, 4).top == ()
    with pytest.raises(ValueError, match="cutoff"):
        mus_population(CENTS, 4, cutoff=0)


# --------------------------------------------------------------- decimal commas


def test_decimal_comma_amounts_are_exact() -> None:
    texts = [a for _, a in LEDGER]
    assert decimal_mark(texts) == "comma"
    assert parse_amounts(texts, signed=True, decimal="comma") == CENTS
    assert parse_amounts(["1 234,56 €", "1'000,5", "(7,00)"], signed=True, decimal="comma") == [
        123456,
        100050,
        -700,
    ]
    # a number is a number either way
    assert parse_amounts([1234.56, 7], decimal="comma") == [123456, 700]


@pytest.mark.parametrize(
    ("values", "index", "says"),
    [
        (["12,50", "3.40"], 1, "has a decimal point but item 0 ('12,50') a decimal comma"),
        (["7", "1.234"], 1, "'1.234' could be 1234 or 1.234"),
        (["1,234", "2"], 0, "could be 1234 or 1.234"),
    ],
)
def test_an_undecided_column_is_refused_naming_the_cell(
    values: list[str], index: int, says: str
) -> None:
    with pytest.raises(EntryError) as caught:
        decimal_mark(values)
    assert caught.value.index == index and says in str(caught.value)


# --------------------------------------------------------------- the command line


def test_cell_sample_with_a_top_stratum_end_to_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = ledger(tmp_path)
    out, rec = tmp_path / "s.csv", tmp_path / "r.json"
    argv = ["sample", src, "-k", "4", "--method", "cell", "--amount", "Amount"]
    argv += ["--top-stratum", "interval", "--seed", "audit", "-o", str(out), "--record", str(rec)]
    code, said, err = run(capsys, *argv)
    assert code == 0, err
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert list(VALIDATOR.iter_errors(record)) == []
    draw = record["target"]["draw"]
    assert (draw["method"], draw["top_stratum"], draw["decimal"]) == (
        "monetary-unit-cell",
        "interval",
        "comma",
    )
    part = draw["parts"][0]
    positive = sum(a for a in CENTS if a > 0)
    top = [i for i, a in enumerate(CENTS) if a > 0 and a * 4 >= positive]
    rest = [i for i, a in enumerate(CENTS) if a > 0 and a * 4 < positive]
    assert part["set_aside"] == [1, 2] and part["set_aside_amount"] == -5000
    assert part["top"] == top and part["top_amount"] == sum(CENTS[i] for i in top)
    # the cells by hand: N the rest's total, one start per cell
    sizes = [CENTS[i] for i in rest]
    n, stream = sum(sizes), DrawStream("audit")
    hits: dict[int, int] = {}
    for j in range(4):
        row = rest[holder(sizes, (stream.randbelow(n) + j * n) // 4)]
        hits[row] = hits.get(row, 0) + 1
    rows = sorted([*hits, *top])
    assert record["permutation"] == rows
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Invoice;Amount;Hits;Top stratum"
    want = [
        f"{LEDGER[r][0]};{LEDGER[r][1]};{hits.get(r, 0)};{'yes' if r in top else 'no'}"
        for r in rows
    ]
    assert lines[1:] == want
    assert "top stratum: 1 row of" in err + said
    assert "set aside: 2 rows of amount 0 or below, -50.00 in all (data rows 2, 3" in err + said
    code, said, err = run(capsys, "verify", str(rec), "--input", src, "--output", str(out))
    assert code == 0, err


def test_negative_amounts_are_set_aside_and_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = [("A", "100.00"), ("B", "-20.00"), ("C", "(5.00)"), ("D", "300.00")]
    src = ledger(tmp_path, rows, sep=",")
    code, said, err = run(
        capsys, "sample", src, "-k", "2", "--method", "mus", "--amount", "Amount", "--seed", "1"
    )
    assert code == 0, err
    assert "set aside: 2 rows of amount 0 or below, -25.00 in all (data rows 2, 3;" in err
    assert "B," not in said and "C," not in said  # never sampled
    assert "book value 400.00 (the positive amounts)" in err


def test_records_made_before_zeros_were_reported_still_verify(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = ledger(tmp_path, [("A", "100.00"), ("Z", "0"), ("B", "300.00")], sep=",")
    out, rec = tmp_path / "s.csv", tmp_path / "r.json"
    argv = ["sample", src, "-k", "2", "--method", "mus", "--amount", "Amount", "--seed", "z"]
    assert run(capsys, *argv, "-o", str(out), "--record", str(rec))[0] == 0
    record = json.loads(rec.read_text(encoding="utf-8"))
    part = record["target"]["draw"]["parts"][0]
    assert part.pop("set_aside") == [1] and part.pop("set_aside_amount") == 0
    rec.write_text(json.dumps(record), encoding="utf-8")  # as an earlier version wrote it
    code, _, err = run(capsys, "verify", str(rec), "--input", src, "--output", str(out))
    assert code == 0, err


@pytest.mark.parametrize(
    ("argv", "says", "exit_code"),
    [
        (["--top-stratum", "100"], "--top-stratum is for a monetary-unit sample", 2),
        (["--method", "mus", "--amount", "Amount", "--top-stratum", "x"], "--top-stratum x", 2),
        (["--method", "mus", "--amount", "Amount", "--top-stratum", "0"], "more than 0", 2),
        (["--decimal-comma"], "say how --amount writes decimals", 2),
        (["--method", "cell", "--amount", "Amount", "--decimal-point"], "cell B2", 1),
    ],
)
def test_refusals_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], says: str, exit_code: int
) -> None:
    src = ledger(tmp_path)
    code, out, err = run(capsys, "sample", src, "-k", "2", "--seed", "1", *argv)
    assert (code, out) == (exit_code, "")
    assert says in err and len(err.strip().splitlines()) == 1, err


def test_an_ambiguous_amount_is_refused_naming_its_cell(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = ledger(tmp_path, [("A", "1,234"), ("B", "7")])
    code, out, err = run(
        capsys, "sample", src, "-k", "1", "--method", "mus", "--amount", "Amount", "--seed", "1"
    )
    assert (code, out) == (1, "")
    assert "cell B2: the amount '1,234' could be 1234 or 1.234" in err
    # said which, it is read
    argv = ["sample", src, "-k", "1", "--method", "mus", "--amount", "Amount", "--seed", "1"]
    code, out, err = run(capsys, *argv, "--decimal-point")
    assert code == 0, err
