"""The fairness lab's report as docs/fairness.md documents it (schema xlshuffle/fairness/v1),
checked the same way for the lab's Python API and for ``xlshuffle fairness --json``."""

from __future__ import annotations

from fractions import Fraction

from xlshuffle.lab.classic import ALGORITHMS
from xlshuffle.lab.fairness import SCHEMA


def check_schema(report: dict[str, object]) -> None:
    """The documented schema xlshuffle/fairness/v1 (docs/fairness.md)."""
    assert report["schema"] == SCHEMA == "xlshuffle/fairness/v1"
    top = {"schema": str, "n": int, "trials": int, "seed": str, "alpha": float, "exact_n": int}
    for key, kind in top.items():
        assert isinstance(report[key], kind), key
    rows = report["algorithms"]
    assert isinstance(rows, list)
    assert rows
    for row in rows:
        assert set(row) == {
            "name",
            "title",
            "fair",
            "why",
            "complexity",
            "exact",
            "sampled",
            "cost",
        }
        assert row["name"] in ALGORITHMS
        assert isinstance(row["fair"], bool)
        exact = row["exact"]
        assert set(exact) == {
            "n",
            "orders",
            "reached",
            "min_p",
            "max_p",
            "ratio",
            "tvd",
            "tvd_float",
        }
        assert Fraction(exact["tvd"]) >= 0
        assert isinstance(exact["tvd_float"], float)
        assert exact["ratio"] is None or isinstance(exact["ratio"], float)
        sampled = row["sampled"]
        assert set(sampled) == {
            "test",
            "statistic",
            "df",
            "p_value",
            "repeat_pairs",
            "repeat_p_value",
            "biased",
        }
        assert sampled["test"] in ("orders", "positions")
        assert 0 <= sampled["p_value"] <= 1
        assert isinstance(sampled["biased"], bool)
        cost = row["cost"]
        assert set(cost) == {"n", "seconds_per_shuffle", "draws_per_item"}
