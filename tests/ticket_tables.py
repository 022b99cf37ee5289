"""The table the ticket draws' SQL and DuckDB tests draw from, and the draws they ask for:
IDs as people type them, weights in tenths."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

HEAD = ["ID", "Name", "Region", "Weight"]
# IDs as people type them: padded with spaces (ASCII and not), decomposed accents
# (NFD), digits with zeros in front, a comma; weights in tenths
ROWS: list[list[object]] = [
    [f"A-{i:03d}", f"n{i}", ["North", "South", "East"][i % 3], ["1", "2.5", "0", "3", "0.5"][i % 5]]
    for i in range(40)
] + [
    [" B-1", "pad", "North", "2"],
    ["B-2  ", "pad", "South", "1"],
    ["\u00a0C-3", "nbsp", "East", "1.5"],
    ["\u3000D-4\u2003", "wide space", "North", "4"],
    ["Zoe\u0308", "nfd", "South", "1"],
    ["0042", "zeros", "East", "2"],
    ["x,y", "comma", "North", "1"],
]


# one row per purchase: an ID on several rows (of one region), weights in halves
PURCHASES: list[list[object]] = [
    [f"P-{i % 9}", f"buy{i}", ["North", "South", "East"][i % 9 % 3], ["1", "0.5", "2"][i % 3]]
    for i in range(40)
] + [[" P-1", "pad", "South", "1"], ["P-9\u00a0", "nbsp", "North", "1.5"]]


# The draws asked for, as `xlshuffle sample` options and as TicketSQL fields.
DRAWS: dict[str, tuple[tuple[object, ...], dict[str, Any]]] = {
    "k": (("-k", 5), {"k": 5}),
    "k and reserves": (("-k", 4, "--reserves", 3), {"k": 4, "reserves": 3}),
    "weights at scale 10": (
        ("-k", 6, "--weights", "Weight", "--weight-scale", 10),
        {"k": 6, "weights": "Weight", "scale": 10},
    ),
    "strata": (("-k", 3, "--strata", "Region"), {"k": 3, "strata": "Region"}),
    "strata, weights, reserves": (
        (
            "-k",
            2,
            "--reserves",
            1,
            "--strata",
            "Region",
            "--weights",
            "Weight",
            "--weight-scale",
            2,
        ),
        {"k": 2, "reserves": 1, "strata": "Region", "weights": "Weight", "scale": 2},
    ),
    "rate": (("--rate", "0.3"), {"rate": Fraction(3, 10)}),
    "rate, strata, reserves": (
        ("--rate", "0.25", "--reserves", 2, "--strata", "Region"),
        {"rate": Fraction(1, 4), "reserves": 2, "strata": "Region"},
    ),
    "rate 1, weights": (
        ("--rate", "1", "--weights", "Weight", "--weight-scale", 10),
        {"rate": Fraction(1), "weights": "Weight", "scale": 10},
    ),
}
