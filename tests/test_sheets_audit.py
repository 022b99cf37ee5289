"""Google Sheets: SAMPLESIZE and UPPERLIMIT of the Apps Script file, under Node, give
xlshuffle.excel's results exactly: the same sizes, the same doubles, the same words for a
mistake, on the AICPA tables the Python tests use (tests/audit_tables.py), on grids of the
three models and on Hypothesis-drawn inputs. Below the functions, each step of the
arithmetic (50-digit decimals, Clopper-Pearson and Poisson bounds, the gamma tail) gives
Python's decimal digits, not only the same double. Skipped without Node, with a note,
unless XLSHUFFLE_REQUIRE lists ``node`` (CI).
"""

from __future__ import annotations

import datetime as dt
import resource
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit_tables import A1, A2, A3_SIZES, C1, C1_TOLERABLE, EXPECTED, TOLERABLE
from sheets_script import OMITTED, calls, date, run
from xlshuffle import excel
from xlshuffle.draw import tails
from xlshuffle.draw.auditplan import MAX_SAMPLE

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _python(value: Any) -> Any:
    """A cell as Excel hands it to xlshuffle.excel: a number a float, a blank None."""
    if isinstance(value, list):
        return [_python(v) for v in value]
    if isinstance(value, dict) and "$date" in value:
        return dt.datetime.fromisoformat(value["$date"])
    if isinstance(value, dict):
        return None
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return float(value)
    return None if value == "" else value


def _excel(name: str, args: list[Any]) -> Any:
    """xlshuffle.excel's result, or its mistake as Sheets shows it."""
    try:
        return getattr(excel, name)(*[_python(a) for a in args])
    except Exception as exc:
        return {"$error": str(exc)}


def _same_as_excel(tmp_path: Path, cases: list[tuple[str, list[Any]]]) -> list[Any]:
    found = calls(tmp_path, *cases)
    for case, got in zip(cases, found, strict=True):
        want = _excel(*case)
        assert got == want, case
    return found


def _pct(f: Fraction) -> str:
    return f"{Decimal(f.numerator) / Decimal(f.denominator) * 100}%"


# ---------------------------------------------------------------- the AICPA tables


def test_aicpa_attribute_tables_a1_and_a2(tmp_path: Path) -> None:
    """Tables A-1 (95%) and A-2 (90%), binomial: rates as numbers and as texts."""
    cases: list[tuple[str, list[Any]]] = []
    for confidence, table in ((0.95, A1), (0.9, A2)):
        for tolerable, sizes in zip(TOLERABLE, table, strict=True):
            for i, expected in enumerate(EXPECTED[: len(sizes)]):
                if i % 2:
                    cases.append(("SAMPLESIZE", [confidence, float(tolerable), float(expected)]))
                else:
                    cases.append(
                        ("SAMPLESIZE", [f"{confidence:.0%}", _pct(tolerable), _pct(expected)])
                    )
    found = _same_as_excel(tmp_path, cases)
    flat = [s for table in (A1, A2) for sizes in table for s in sizes]
    assert found == flat


def test_aicpa_monetary_table_c1(tmp_path: Path) -> None:
    """Table C-1, Poisson: the plan on rates of the book value."""
    cases = [
        (
            "SAMPLESIZE",
            [1 - risk / 100, float(t), float(t * ratio / 10), OMITTED, "poisson"],
        )
        for (risk, ratio) in sorted(C1)
        for t in C1_TOLERABLE
    ]
    found = _same_as_excel(tmp_path, cases)
    assert found == [s for key in sorted(C1) for s in C1[key]]


def test_aicpa_table_a3_upper_limits(tmp_path: Path) -> None:
    """Table A-3's upper deviation limits, Clopper-Pearson, as the same doubles as Python."""
    cases = [("UPPERLIMIT", [n, k, 0.95]) for n in A3_SIZES for k in range(11)]
    _same_as_excel(tmp_path, cases)


# ---------------------------------------------------------------- grids of the three models


def test_grids_of_the_models(tmp_path: Path) -> None:
    cases: list[tuple[str, list[Any]]] = []
    for confidence in (0.8, 0.9, "95%", 0.99):
        for population in (40, 250, 1000, 12_345, 1_000_000):
            for tolerable, expected in ((0.05, 0), (0.1, 0.02), ("7.5%", "2.5%"), (0.2, 0.1)):
                cases.append(
                    (
                        "SAMPLESIZE",
                        [confidence, tolerable, expected, population, "hypergeometric"],
                    )
                )
        for model in ("binomial", "Poisson ", OMITTED):
            cases.append(("SAMPLESIZE", [confidence, 0.04, 0.01, OMITTED, model]))
            for n, k in ((1, 0), (1, 1), (7, 3), (59, 0), (100, 2), (300, 150), (2000, 40)):
                cases.append(("UPPERLIMIT", [n, k, confidence, OMITTED, model]))
        for n, k, population in ((10, 2, 10), (59, 0, 1000), (100, 5, 400), (500, 10, 20_000)):
            cases.append(("UPPERLIMIT", [n, k, confidence, population, "hypergeometric"]))
        for taints in ([[1], [0.5], [""]], [["25%"], [-0.2], [0.75], [1.5], [0.1]], [[0]]):
            for model in ("poisson", "binomial"):
                cases.append(("UPPERLIMIT", [100, taints, confidence, OMITTED, model]))
    _same_as_excel(tmp_path, cases)


MISTAKES: list[tuple[str, list[Any]]] = [
    ("SAMPLESIZE", [95, 0.05]),
    ("SAMPLESIZE", ["95", "5%"]),
    ("SAMPLESIZE", [0.95, 0]),
    ("SAMPLESIZE", [0.95, "five"]),
    ("SAMPLESIZE", ["", 0.05]),
    ("SAMPLESIZE", [True, 0.05]),
    ("SAMPLESIZE", [0.95, 0.05, 0.05]),
    ("SAMPLESIZE", [0.95, 0.05, -0.01]),
    ("SAMPLESIZE", [0.95, 0.05, 0, OMITTED, "hypergeometric"]),
    ("SAMPLESIZE", [0.95, 0.05, 0, 0, "hypergeometric"]),
    ("SAMPLESIZE", [0.95, 0.05, 0, 2.5]),
    ("SAMPLESIZE", [0.95, 0.05, 0, OMITTED, "normal"]),
    ("SAMPLESIZE", [0.95, 0.05, 0, OMITTED, 3]),
    ("SAMPLESIZE", [0.95, 0.001, 0.0009, OMITTED, "poisson"]),
    ("SAMPLESIZE", [0.99, 0.01, 0.005, 50, "hypergeometric"]),
    ("SAMPLESIZE", [[[0.95], [0.9]], 0.05]),
    ("SAMPLESIZE", ["#N/A", 0.05]),
    ("SAMPLESIZE", [date(dt.date(2026, 1, 1)), 0.05]),
    ("UPPERLIMIT", [0, 0, 0.95]),
    ("UPPERLIMIT", [20_000, 0, 0.95]),
    ("UPPERLIMIT", [10.5, 0, 0.95]),
    ("UPPERLIMIT", [10, 11, 0.95]),
    ("UPPERLIMIT", [10, True, 0.95]),
    ("UPPERLIMIT", [10, 1, 0.95, OMITTED, "hypergeometric"]),
    ("UPPERLIMIT", [10, 1, 0.95, 5, "hypergeometric"]),
    ("UPPERLIMIT", [10, [[0.5], [0.2]], 0.95, 100]),
    ("UPPERLIMIT", [10, [[0.5], [0.2]], 0.95, OMITTED, "hypergeometric"]),
    ("UPPERLIMIT", [2, [[0.5], [0.2], [1]], 0.95]),
    ("UPPERLIMIT", [10, [["half"]], 0.95]),
    ("UPPERLIMIT", [10, [[True], [0.2]], 0.95]),
    ("UPPERLIMIT", [10, [["#DIV/0!"], [0.2]], 0.95]),
    ("UPPERLIMIT", [10, 1, "1.5"]),
]


def test_mistakes_have_excels_words(tmp_path: Path) -> None:
    found = _same_as_excel(tmp_path, MISTAKES)
    for (name, _), got in zip(MISTAKES, found, strict=True):
        assert got["$error"].startswith(f"{name}: ") and "\n" not in got["$error"]


# ---------------------------------------------------------------- Hypothesis-drawn inputs

RATES = st.one_of(
    st.integers(1, 999).map(lambda i: i / 1000),
    st.integers(1, 99).map(lambda i: f"{i}%"),
    st.decimals(Decimal("0.001"), Decimal("0.5"), places=4).map(lambda d: f" {d} "),
)
CONFIDENCES = st.sampled_from([0.8, 0.85, 0.9, 0.95, 0.975, 0.99, "95%", "99.5%", 0.6])
PLANS = st.tuples(
    CONFIDENCES,
    st.integers(5, 400).map(lambda i: i / 1000),
    st.one_of(st.just(OMITTED), st.integers(0, 200).map(lambda i: i / 1000), RATES),
    st.one_of(st.just(OMITTED), st.integers(1, 5000)),
    st.sampled_from(["binomial", "poisson", "hypergeometric", OMITTED]),
).map(lambda t: ("SAMPLESIZE", list(t)))
COUNTS = (
    st.integers(1, 1500)
    .flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.integers(0, min(n, 60)),
            CONFIDENCES,
            st.one_of(st.just(OMITTED), st.integers(n, 10 * n + 5)),
            st.sampled_from(["binomial", "poisson", "hypergeometric", OMITTED]),
        )
    )
    .map(lambda t: ("UPPERLIMIT", list(t)))
)
TAINTS = st.tuples(
    st.integers(1, 400),
    st.lists(
        st.one_of(
            st.integers(-100, 150).map(lambda i: i / 100),
            st.integers(0, 100).map(lambda i: f"{i}%"),
            st.just(""),
        ),
        min_size=1,
        max_size=6,
    ).map(lambda cells: [[c] for c in cells]),
    CONFIDENCES,
    st.just(OMITTED),
    st.sampled_from(["poisson", "binomial", OMITTED]),
).map(lambda t: ("UPPERLIMIT", list(t)))


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(cases=st.lists(st.one_of(PLANS, COUNTS, TAINTS), min_size=40, max_size=40))
def test_drawn_inputs_give_excels_results(tmp_path_factory: Any, cases: list[Any]) -> None:
    _same_as_excel(tmp_path_factory.mktemp("audit"), cases)


# ---------------------------------------------------------------- the arithmetic, digit by digit


def _frac(f: Fraction | int) -> dict[str, list[int]]:
    f = Fraction(f)
    return {"$frac": [f.numerator, f.denominator]}


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    bounds=st.lists(
        st.tuples(st.integers(1, 2500), st.integers(0, 2500), st.sampled_from([80, 90, 95, 99])),
        min_size=12,
        max_size=12,
    ),
    gammas=st.lists(
        st.tuples(
            st.fractions(Fraction(1, 10), Fraction(400), max_denominator=1000),
            st.fractions(Fraction(1, 100), Fraction(500), max_denominator=1000),
        ),
        min_size=12,
        max_size=12,
    ),
)
def test_each_step_gives_pythons_decimal_digits(
    tmp_path_factory: Any, bounds: list[tuple[int, int, int]], gammas: list[Any]
) -> None:
    """The 30-digit Clopper-Pearson bounds and Poisson factors, the 50-digit gamma tail."""
    asked: list[list[Any]] = []
    want: list[Decimal] = []
    for n, k, c in bounds:
        k = min(k, n)
        asked.append(["sheets/tails.js", "binomialUpper", [k, n, _frac(Fraction(c, 100))]])
        want.append(tails.binomial_upper(k, n, Fraction(c, 100)))
        asked.append(["sheets/tails.js", "poissonFactor", [k % 300, _frac(Fraction(c, 100))]])
        want.append(tails.poisson_factor(k % 300, Fraction(c, 100)))
    for shape, z in gammas:
        asked.append(["sheets/tails.js", "gammaCdf", [_frac(shape), _frac(z)]])
        want.append(tails.gamma_cdf(shape, z))
    found = run(tmp_path_factory.mktemp("steps"), {"internals": asked})["internals"]
    for a, got, w in zip(asked, found, want, strict=True):
        assert Decimal(got["$dec"]) == w, a


def test_decimal_operations_are_pythons(tmp_path: Path) -> None:
    """ln and exp correctly rounded, libmpdec's integer power (not always correctly
    rounded: copied), division and square root, at 50 digits, and float()."""
    import random

    rng = random.Random(2026)
    asked: list[list[Any]] = []
    want: list[Any] = []
    with localcontext(tails.CONTEXT):
        for _ in range(400):
            digits = rng.randint(1, 50)
            a = Decimal(rng.randint(1, 10**digits - 1)).scaleb(rng.randint(-digits - 6, 4))
            b = Decimal(rng.randint(1, 10**digits - 1)).scaleb(rng.randint(-digits - 6, 4))
            small = a.scaleb(-a.adjusted() - 1)  # in (0, 1)
            n = rng.randint(0, 12_000)
            near = 1 + small.scaleb(-rng.randint(0, 45))
            x = Decimal(rng.randint(-200_000, 200_000)) / 7
            steps = [
                ("ln", [a], a.ln()),
                ("ln", [near], near.ln()),
                ("exp", [x], x.exp()),
                ("exp", [-small], (-small).exp()),
                ("powInt", [small, n], small**n),
                ("div", [a, b], a / b),
                ("sqrt", [a], a.sqrt()),
                ("toNumber", [a], float(a)),
            ]
            for name, args, result in steps:
                asked.append(
                    [
                        "sheets/decimals.js",
                        name,
                        [{"$dec": str(v)} if isinstance(v, Decimal) else v for v in args],
                    ]
                )
                want.append(result)
    found = run(tmp_path, {"internals": asked})["internals"]
    for a, got, w in zip(asked, found, want, strict=True):
        assert (Decimal(got["$dec"]) if isinstance(got, dict) else float(got)) == w, a


# ---------------------------------------------------------------- the 30-second limit


@pytest.mark.slow
def test_the_slowest_realistic_calls_are_far_below_30_seconds(tmp_path: Path) -> None:
    """Sheets stops a custom function at 30 seconds. The slowest calls an audit plans or
    evaluates, each timed under Node on one core (docs/sheets.md gives the figures)."""
    heavy: list[tuple[str, list[Any]]] = [
        ("SAMPLESIZE", [0.95, 0.05, 0.045]),  # binomial, 2,000+ sizes walked: A-1's last cell
        ("SAMPLESIZE", [0.95, 0.01, 0.008, OMITTED, "poisson"]),  # C-1 beyond: thousands
        ("SAMPLESIZE", [0.95, 0.02, 0.01, 1_000_000, "hypergeometric"]),
        ("UPPERLIMIT", [MAX_SAMPLE, 199, 0.95]),  # the largest exactly checked bound
        ("UPPERLIMIT", [MAX_SAMPLE, 2000, 0.95]),  # past the exact check: 50 digits alone
        ("UPPERLIMIT", [2000, [[0.5]] * 50, 0.95]),  # Stringer: 51 Poisson factors
        ("UPPERLIMIT", [2000, [[0.5]] * 20, 0.95, OMITTED, "binomial"]),
    ]

    def children() -> float:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    for case in heavy:
        start = children()
        (got,) = calls(tmp_path, case)
        seconds = children() - start
        print(case, f"{seconds:.2f} s")
        assert got == _excel(*case), case
        assert seconds < 20, (case, seconds)
