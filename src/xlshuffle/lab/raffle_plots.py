"""The figure of weighted draws: xlshuffle beside the ways by hand (needs matplotlib).

The shuffles' figures are :mod:`xlshuffle.lab.plots` (``xlshuffle fairness --plot``); this
is ``xlshuffle fairness --draws --plot``'s. It takes the lab's colours and its PNG writer
(:func:`~xlshuffle.lab.plots.save_png`) from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # after use(): the backend must be chosen first

from .plots import BIASED, FAIR, save_png
from .raffles import METHODS, WeightedComparison, compare_weighted

__all__ = ["WEIGHTED_FIGURE", "weighted_figure"]

#: File name of the figure in ``docs/img`` and in ``xlshuffle fairness --draws --plot DIR``.
WEIGHTED_FIGURE = "fairness-weighted.png"

_COLOURS = {
    "xlshuffle": FAIR,
    "monetary-unit": "#2166ac",
    "running-totals": "#f1a340",
    "rand-times-weight": BIASED,
}


def _bars(ax: Any, groups: dict[str, list[Fraction]], n: int) -> None:
    width = 0.8 / len(groups)
    for g, (name, ps) in enumerate(groups.items()):
        xs = [i - 0.4 + width * (g + 0.5) for i in range(n)]
        ax.bar(xs, [float(p) for p in ps], width, color=_COLOURS[name], label=METHODS[name][0])
        for x, p in zip(xs, ps, strict=True):
            ax.text(x, float(p) + 0.01, str(p), ha="center", va="bottom", fontsize=6, rotation=90)


def _target(ax: Any, ps: list[Fraction], label: str) -> None:
    for i, p in enumerate(ps):
        ax.hlines(
            float(p),
            i - 0.45,
            i + 0.45,
            colors="black",
            linestyles="--",
            linewidth=1.2,
            label=label if i == 0 else None,
        )


def weighted_figure(weights: Sequence[int], k: int, path: Path) -> Path:
    """Two panels of exact chances for ``weights``: first place, and being among ``k`` winners.

    The first panel sets xlshuffle, running totals and ``RAND()*weight`` against the share
    ``weight / total``; the second the raffle, the monetary-unit selection, running totals
    (at least once) and ``RAND()*weight`` against ``min(1, k * weight / total)``.
    """
    c: WeightedComparison = compare_weighted(weights, k)
    n = len(c.weights)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    _bars(left, c.first, n)
    _target(left, c.share, "weight / total")
    left.set_title("Chance of first place", fontsize=10)
    _bars(right, c.included, n)
    _target(right, c.proportional, f"min(1, {k} x weight / total)")
    right.set_title(
        f"Chance of being among the {k} winners (running totals: at least once;\n"
        f"it draws someone twice with chance {c.duplicate} = {float(c.duplicate):.3g})",
        fontsize=10,
    )
    labels = [f"entrant {i + 1}\nweight {w}" for i, w in enumerate(c.weights)]
    for ax in (left, right):
        ax.set_xticks(range(n))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_ylim(0, 1.18)
        ax.legend(fontsize=7, loc="upper right")
    left.set_ylabel("probability (exact)", fontsize=9)
    weights_text = ", ".join(map(str, c.weights))
    fig.suptitle(
        f"Weights {weights_text}: exact chances, every sequence of random answers enumerated "
        "(RAND()*weight integrated)",
        fontsize=11,
    )
    fig.tight_layout()
    return save_png(fig, path)
