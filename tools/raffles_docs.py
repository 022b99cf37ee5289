"""The "Raffles and audits" section of docs/fairness.md, and its figure, from the lab.

Used by tools/make_fairness_docs.py, which puts the section in the page it writes;
``python tools/make_fairness_docs.py --only raffles`` rewrites just this section (and
docs/img/fairness-weighted.png) in the page as it is. Every number is computed here by
``xlshuffle.lab.raffles``, by enumeration or exact integration; none is typed in.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from xlshuffle.lab.raffles import (
    METHODS,
    audit_chances,
    compare_weighted,
    reserve_prefix,
    strata_distribution,
    successive_chance,
    weighted_orders,
)

HEADING = "## Raffles and audits"
WEIGHTS = (5, 3, 1, 1)
WINNERS = 2
PROOF_CASES = (([1, 2, 0, 3], 2), ([5, 3, 1, 1], 3), ([3, 1, 2, 2, 1], 3), ([0, 7, 0], 1))


def _cell(p: Fraction) -> str:
    return str(p) if p.denominator == 1 else f"{p} ({float(p):.3f})"


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def chance_tables() -> tuple[str, str, str]:
    """First place and inclusion tables for WEIGHTS, and the duplicate chance."""
    c = compare_weighted(WEIGHTS, WINNERS)
    first = _table(
        ["entrant", "weight", "weight / total", *(METHODS[m][0] for m in c.first)],
        [
            [str(i + 1), str(w), _cell(c.share[i]), *(_cell(ps[i]) for ps in c.first.values())]
            for i, w in enumerate(c.weights)
        ],
    )
    included = _table(
        ["entrant", "weight", f"min(1, {WINNERS} x weight / total)"]
        + [METHODS[m][0] for m in c.included],
        [
            [str(i + 1), str(w), _cell(c.proportional[i])]
            + [_cell(ps[i]) for ps in c.included.values()]
            for i, w in enumerate(c.weights)
        ],
    )
    return first, included, _cell(c.duplicate)


def proof_table() -> str:
    rows = []
    for ws, k in PROOF_CASES:
        orders = weighted_orders(ws, k)
        ok = all(p == successive_chance(ws, o) for o, p in orders.items())
        zeros = [i for i, w in enumerate(ws) if w == 0]
        zero_wins = sum((p for o, p in orders.items() if set(o) & set(zeros)), Fraction(0))
        positive = len(ws) - len(zeros)
        sequences, failures = reserve_prefix(ws, k - 1 if k == positive else k, 1)
        rows.append(
            [
                " ".join(map(str, ws)),
                str(k),
                str(len(orders)),
                "yes" if ok and sum(orders.values()) == 1 else "**no**",
                str(zero_wins) if zeros else "-",
                f"{sequences}, {failures or 'none'}",
            ]
        )
    return _table(
        [
            "weights",
            "k",
            "ordered outcomes",
            "each = product of weight / remaining",
            "chance a weight 0 wins",
            "reserve checks: sequences, failures",
        ],
        rows,
    )


def strata_text() -> str:
    labels = ["A", "B", "A", "C", "A", "B", "A"]
    dist = strata_distribution(labels, {"A": 2, "B": 1, "C": 1})
    chances = sorted(set(dist.values()))
    return f"{len(dist)} outcomes, each with chance {', '.join(map(str, chances))}"


def audit_table() -> str:
    rows = []
    for amounts, k in (([5, 3, 1, 1], 2), ([3, 0, 5, 1, 7], 4), ([10, 1, 1, 1], 3)):
        c = audit_chances(amounts, k)
        total = sum(amounts)
        stated = [min(Fraction(1), Fraction(a * k, total)) for a in amounts]
        rows.append(
            [
                " ".join(map(str, amounts)),
                str(k),
                " ".join(map(str, c.items)),
                "yes" if c.items == stated else "**no**",
                ", ".join(sorted({str(p) for p in c.units})),
                " ".join(str(i + 1) for i, a in enumerate(c.always) if a) or "-",
            ]
        )
    return _table(
        [
            "amounts (cents)",
            "k",
            "chance of each item",
            "= min(1, a k / T)",
            "chance of each cent",
            "always selected",
        ],
        rows,
    )


def systematic_text() -> str:
    checked = 0
    for n in range(1, 8):
        for k in range(1, n + 1):
            assert audit_chances(n, k).items == [Fraction(k, n)] * n
            checked += 1
    return f"all {checked} pairs `1 <= k <= n <= 7`"


def raffles_section() -> str:
    first, included, duplicate = chance_tables()
    return RAFFLES.format(
        first=first,
        included=included,
        duplicate=duplicate,
        proofs=proof_table(),
        strata=strata_text(),
        systematic=systematic_text(),
        audits=audit_table(),
    ).rstrip()


def write_figure(img: Path) -> Path:
    from xlshuffle.lab.plots import WEIGHTED_FIGURE, weighted_figure

    return weighted_figure(WEIGHTS, WINNERS, img / WEIGHTED_FIGURE)


def splice(page: str, section: str) -> str:
    """``page`` with its "Raffles and audits" section replaced by ``section`` (put before the
    JSON report's section when the page has none yet)."""
    if HEADING + "\n" not in page:
        at = page.index("## JSON report")
        return page[:at] + section + "\n\n" + page[at:]
    start = page.index(HEADING + "\n")
    end = page.find("\n## ", start + len(HEADING))
    return page[:start] + section + ("\n" + page[end:] if end >= 0 else "\n")


RAFFLES = """\
## Raffles and audits

The draws of protocol sections 8-12 take the same kind of source, so the lab runs their
real code through the same scripted source and adds up exact fractions
(`xlshuffle.lab.raffles`). One command prints the comparison below and checks the chances
the protocol states:

```
xlshuffle fairness --draws                               # weights 5 3 1 1, 2 winners
xlshuffle fairness --draws --weights 4 2 1 --winners 2 --json
xlshuffle fairness --draws --plot figures/               # writes fairness-weighted.png
```

![Exact chances of first place and of winning, weights 5 3 1 1](img/fairness-weighted.png)

**A raffle is not a PPS selection.** xlshuffle's weighted draw picks each winner from the
entrants still in the draw, with chance *weight / remaining total*: one win each, more
tickets more chances. So first place is exactly proportional to weight, but the chance of
being among the `k` winners is not `k x weight / total`: once the big entrant has won, the
small ones share its tickets. pandas' `sample(weights=..., replace=False)` (numpy's `choice`
with `p` and `replace=False`) draws the same way, which surprises those who read its weights
as inclusion chances (pandas-dev/pandas#61516).
Chances proportional to size are what the monetary-unit selection gives (capped at 1: the
top stratum). Weights 5, 3, 1, 1, first place:

{first}

Among the {winners_word} winners:

{included}

The two ways by hand:

* **Running totals and `RANDBETWEEN`**, the formula copied down for each winner. Each draw
  is right, but nobody leaves the draw: the same person wins twice with chance
  {duplicate} here (for two winners the sum of `p_i^2`, `p_i = weight / total`).
  Redrawing on a repeat fixes it: a redraw lands on each remaining entrant in proportion to
  its tickets, which is exactly xlshuffle's draw.
* **Sort by `RAND()*weight`.** A key uniform on `[0, w]` is not "w tickets": with weights
  2 and 1 the first wins with chance `1 - 1/4 = 3/4`, not 2/3, and here the biggest entrant
  takes first place with chance 41/60 instead of 1/2. The lab integrates it exactly (the
  key order given `U_i = u` is a product of step functions, a polynomial between
  breakpoints). The key that is a raffle is `RAND()^(1/weight)` (Efraimidis and Spirakis).

What the enumeration proves, through the public functions (every sequence of `randbelow`
answers, exact fractions; the tests compare them with closed forms computed on their own,
`tests/test_fairness_raffles.py`):

* **Weighted draw** (section 8): every ordered outcome has chance
  `product of weight / remaining total`, and weight 0 never wins. **Reserves** (section 9):
  on every sequence of answers, the winners of a draw of winners + 1 reserve are the draw of
  the winners alone, fed the same answers, and the reserve comes next.

{proofs}

* **Strata** (section 11), labels `A B A C A B A`, counts A 2, B 1, C 1, each stratum's
  sub-stream modelled as its own uniform answers: {strata}, which is 1/12 (an ordered pair
  of A's 4 rows) x 1/2 (one of B's 2 rows) x 1 (C's one row). Uniform within each stratum,
  and the strata independent.
* **Systematic selection** (section 12): every item has chance exactly `k/n`, for
  {systematic}.
* **Monetary-unit selection** (section 12): every cent is hit with chance `k/T`, every item
  selected with chance `min(1, a k / T)`, and the top stratum (`a k >= T`) in every
  outcome:

{audits}

`xlshuffle fairness --draws --json` prints one object (schema `xlshuffle/fairness-draws/v1`):
`weights`, `winners`, `methods[]` (`name`, `title`, `note`), `entrants[]` (`index`, `weight`,
`share`, `proportional`, and `first` and `included`, each a fraction text by method name;
`first` has no monetary-unit entry, its selection has no order), `duplicate` (the running
totals' chance of a repeat), `checks[]` (`name`, `cases`, `holds`) and `plots`.
""".replace("{winners_word}", str(WINNERS))
