"""The fairness lab's figures: the shuffles' (``xlshuffle fairness --plot``) and the weighted
draws' beside the ways by hand (``xlshuffle fairness --draws --plot``); the lab's only
module that imports matplotlib.

Every figure colours fair methods green and biased ones red, and says which in each
panel title, so a reader can tell them apart without a legend. Figures are drawn with
the Agg backend (no display needed) and saved as small PNGs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # after use(): the backend must be chosen first
from matplotlib.colors import TwoSlopeNorm

from .classic import Algorithm
from .fairness import (
    Cost,
    SampleResult,
    exact_distribution,
    measure_cost,
    sample,
    summarise,
)
from .raffles import METHODS, WeightedComparison, compare_weighted

__all__ = [
    "BIASED",
    "COST_SIZES",
    "FAIR",
    "HEADLINE",
    "WEIGHTED_FIGURE",
    "cost_figure",
    "figure_steps",
    "headline_figure",
    "orders_figure",
    "positions_figure",
    "save_png",
    "weighted_figure",
    "write_figures",
]

FAIR = "#1b7837"
BIASED = "#c51b7d"
DPI = 90
#: Sizes of the cost plot: half-decades from 10 to 100,000.
COST_SIZES = (10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000)
#: Algorithms of the README's headline figure.
HEADLINE = ("forward", "naive-swap", "random-swaps", "random-sort")

Tick = Callable[[], None]


def _colour(a: Algorithm) -> str:
    return FAIR if a.fair else BIASED


def _label(a: Algorithm) -> str:
    return "fair" if a.fair else "BIASED"


def _grid(count: int, cols: int) -> tuple[int, int]:
    return max(1, math.ceil(count / cols)), min(cols, count)


def _order_names(n: int) -> list[tuple[int, ...]]:
    return list(permutations(range(n)))


def save_png(fig: Any, path: Path, dpi: int = DPI) -> Path:
    """Save `fig` to `path` as a 256-colour PNG and close it: flat plot colours survive,
    files shrink 2-3 times. Every figure of the lab is saved this way."""
    import io

    from PIL import Image  # Pillow is a dependency of matplotlib itself

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    plt.close(fig)
    buf.seek(0)
    with Image.open(buf) as im:
        im.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE).save(
            path, format="PNG", optimize=True
        )
    return path


def _ratio(r: Fraction) -> str:
    excess = float(r - 1)
    return f"1 + {excess:.1e}" if 0 < excess < 1e-3 else f"{float(r):.4g}"


def _p(p: float) -> str:
    return "p<1e-300" if p < 1e-300 else f"p={p:.2g}"


def _legend_handles(expected: str) -> list[Any]:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    return [
        Line2D([], [], color="black", linestyle="--", label=expected),
        Patch(color=FAIR, label="fair method"),
        Patch(color=BIASED, label="biased method"),
    ]


def orders_figure(algs: Sequence[Algorithm], n: int, path: Path) -> Path:
    """Bars of the exact probability of every order of ``n`` items, one panel per method."""
    orders = _order_names(n)
    fair_p = 1 / math.factorial(n)
    data = []
    for a in algs:
        dist = exact_distribution(a, n)
        s = summarise(dist, n)
        data.append((a, [float(dist.get(p, Fraction(0))) for p in orders], s))
    top = max(max(ps) for _, ps, _ in data) * 1.15
    rows, cols = _grid(len(algs), 4 if len(algs) > 4 else len(algs))
    fig, axes = plt.subplots(
        rows, cols, figsize=(3.6 * cols, 2.9 * rows + 0.6), squeeze=False, sharey=True
    )
    labels = ["".join(str(i + 1) for i in p) for p in orders]
    for ax, (a, ps, s) in zip(axes.flat, data, strict=False):
        ax.bar(range(len(orders)), ps, color=_colour(a), width=0.8)
        ax.axhline(fair_p, color="black", linestyle="--", linewidth=1)
        ratio = "inf" if s.ratio is None else _ratio(s.ratio)
        note = "\n(bias too small to see here)" if 0 < s.tvd < Fraction(1, 1000) else ""
        ax.set_title(
            f"{a.title}\n{_label(a)}: max/min {ratio}, TVD {float(s.tvd):.2g}{note}",
            fontsize=9,
            color=_colour(a),
        )
        ax.set_xticks(range(len(orders)))
        ax.set_xticklabels(labels, rotation=90 if n > 3 else 0, fontsize=6 if n > 3 else 8)
        ax.set_ylim(0, top)
        ax.tick_params(axis="y", labelsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel("probability (exact)", fontsize=9)
    for ax in axes[-1, :]:
        ax.set_xlabel(f"order of items 1..{n}", fontsize=9)
    for ax in list(axes.flat)[len(data) :]:
        ax.axis("off")
        ax.legend(
            handles=_legend_handles(f"fair: 1/{math.factorial(n)}"),
            loc="center",
            fontsize=10,
            frameon=False,
        )
    fig.suptitle(
        f"Exact probability of each order of {n} items (every choice sequence enumerated)",
        fontsize=12,
    )
    fig.tight_layout()
    return save_png(fig, path)


def headline_figure(algs: Sequence[Algorithm], path: Path) -> Path:
    """One row of exact n = 3 bars: the README's figure."""
    orders = _order_names(3)
    labels = ["".join(str(i + 1) for i in p) for p in orders]
    fig, axes = plt.subplots(1, len(algs), figsize=(3.1 * len(algs), 3.2), sharey=True)
    axes_list = [axes] if len(algs) == 1 else list(axes)
    for ax, a in zip(axes_list, algs, strict=True):
        dist = exact_distribution(a, 3)
        ps = [float(dist.get(p, Fraction(0))) for p in orders]
        ax.bar(range(6), ps, color=_colour(a))
        ax.axhline(1 / 6, color="black", linestyle="--", linewidth=1, label="fair: 1/6")
        words = [str(dist.get(p, Fraction(0))) for p in orders]
        for x, (p, w) in enumerate(zip(ps, words, strict=True)):
            ax.text(x, p + 0.004, w, ha="center", fontsize=7)
        ax.set_title(f"{a.title}\n{_label(a)}", fontsize=9, color=_colour(a))
        ax.set_xticks(range(6))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_xlabel("order", fontsize=9)
        ax.set_ylim(0, 0.3)
    axes_list[0].set_ylabel("probability (exact)", fontsize=9)
    axes_list[0].legend(loc="upper left", fontsize=8)
    fig.suptitle("Shuffling 3 items: exact chance of each order", fontsize=11)
    fig.tight_layout()
    return save_png(fig, path)


def positions_figure(results: Sequence[tuple[Algorithm, SampleResult]], path: Path) -> Path:
    """Heatmaps of the sampled chance that item ``i`` lands in slot ``j``, times ``n``."""
    n = results[0][1].n
    trials = results[0][1].trials
    rows, cols = _grid(len(results), 4)
    fig, axes = plt.subplots(rows, cols, figsize=(3.0 * cols, 3.0 * rows + 0.8), squeeze=False)
    norm = TwoSlopeNorm(vmin=0.5, vcenter=1.0, vmax=1.5)
    image: Any = None
    for ax, (a, r) in zip(axes.flat, results, strict=False):
        scaled = [[c * n / r.trials for c in row] for row in r.positions]
        image = ax.imshow(scaled, cmap="RdBu_r", norm=norm, origin="upper")
        p = r.p_value if r.repeat_p_value is None else min(r.p_value, r.repeat_p_value)
        verdict = "bias detected" if r.biased else "no bias seen"
        if r.biased and r.p_value >= r.alpha:  # only the repeated-deal test saw it
            verdict = f"{r.repeat_pairs} repeated deals"
        ax.set_title(
            f"{a.title}\n{_label(a)}; sampled: {verdict} ({_p(p)})",
            fontsize=8,
            color=_colour(a),
        )
        ax.set_xlabel("slot j", fontsize=8)
        ax.set_ylabel("item i", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(results) :]:
        ax.axis("off")
    fig.suptitle(
        f"Where each item lands: P(item i in slot j) x {n}, from {trials:,} shuffles of {n}"
        " (white = fair; red = too often, blue = too rarely)",
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0, 0.92, 1))
    cax = fig.add_axes((0.93, 0.15, 0.015, 0.7))
    fig.colorbar(image, cax=cax, label=f"P(item i in slot j) x {n}  (1 = fair)")
    return save_png(fig, path)


def cost_figure(costs: dict[str, tuple[Algorithm, list[Cost]]], path: Path) -> Path:
    """Time per shuffle (log-log) and random draws per item against ``n``."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 6.6))
    markers = "osD^vP*Xh<>"
    palette: Any = plt.get_cmap("tab20").colors  # type: ignore[attr-defined]
    for k, (a, cs) in enumerate(costs.values()):
        ns = [c.n for c in cs]
        kw: dict[str, Any] = {
            "marker": markers[k % len(markers)],
            "markersize": 4,
            "linestyle": "-" if a.fair else "--",
            "color": palette[(2 * k) % 20 if k < 10 else 1],
        }
        label = f"{a.title} [{a.complexity}]" + ("" if a.fair else " (biased)")
        left.plot(ns, [c.seconds for c in cs], label=label, **kw)
        right.plot(ns, [c.draws_per_item for c in cs], label=label, **kw)
    all_n = sorted({c.n for _, cs in costs.values() for c in cs})
    if len(all_n) > 1:
        n0 = all_n[0]
        base = min(c.seconds for _, cs in costs.values() for c in cs if c.n == n0)
        ceiling = 2 * max(c.seconds for _, cs in costs.values() for c in cs)
        lin = [(m, base * m / n0) for m in all_n]
        quad = [(m, base * (m / n0) ** 2) for m in all_n if base * (m / n0) ** 2 <= ceiling]
        grey: dict[str, Any] = {"color": "grey", "linewidth": 4, "alpha": 0.3}
        left.plot(*zip(*lin, strict=True), label="reference slope 1: O(n)", **grey)
        left.plot(
            *zip(*quad, strict=True), linestyle=":", label="reference slope 2: O(n^2)", **grey
        )
        h = [sum(1 / k for k in range(1, m + 1)) for m in all_n]
        right.plot(all_n, h, label="H(n): expected draws/item of retry", **grey)
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("items n (log scale)")
    left.set_ylabel("seconds per shuffle (log scale)")
    left.set_title("Time per shuffle (solid = fair, dashed = biased)")
    left.grid(True, which="major", alpha=0.3)
    refs = [h for h in left.get_lines() if str(h.get_label()).startswith("reference")]
    left.legend(handles=refs, fontsize=8, loc="upper left")
    right.set_xscale("log")
    right.set_xlabel("items n (log scale)")
    right.set_ylabel("random draws per item")
    right.set_title("Randomness used per item")
    right.grid(True, alpha=0.3)
    href = [h for h in right.get_lines() if str(h.get_label()).startswith("H(n)")]
    right.legend(handles=href, fontsize=8, loc="upper left")
    methods = [h for h in left.get_lines() if not str(h.get_label()).startswith("reference")]
    fig.legend(handles=methods, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle("Cost of each method in CPython, fed by the seeded draw-protocol stream")
    fig.tight_layout(rect=(0, 0.17, 1, 1))
    return save_png(fig, path)


def write_figures(
    directory: Path,
    algs: Sequence[Algorithm],
    *,
    trials: int,
    seed: object,
    samples: dict[int, list[SampleResult]] | None = None,
    sizes: Sequence[int] = COST_SIZES,
    tick: Tick | None = None,
) -> list[Path]:
    """Write every figure of the lab into ``directory`` and return their paths.

    ``samples`` may hold already-computed :func:`~xlshuffle.lab.fairness.sample` results by
    ``n`` (the command line passes its own run) so they are not sampled twice.
    ``tick`` is called ``figure_steps(len(algs), sizes)`` times.
    """
    directory.mkdir(parents=True, exist_ok=True)
    done = tick or (lambda: None)
    out = [
        headline_figure(
            [a for a in algs if a.name in HEADLINE] or algs[:4], directory / "fairness-headline.png"
        )
    ]
    for n in (3, 4):
        out.append(orders_figure(algs, n, directory / f"fairness-orders-n{n}.png"))
        done()
    have = samples or {}
    for n in (10, 52):
        got = {r.name: r for r in have.get(n, []) if r.trials == trials}
        results = []
        for a in algs:
            r = got.get(a.name)
            if r is None:
                r = sample(a, n, trials, seed=seed)
            results.append((a, r))
            done()
        out.append(positions_figure(results, directory / f"fairness-positions-n{n}.png"))
    costs: dict[str, tuple[Algorithm, list[Cost]]] = {}
    for a in algs:
        cs = []
        for n in sizes:
            cs.append(measure_cost(a, n, seed=f"{seed}:cost"))
            done()
        costs[a.name] = (a, cs)
    out.append(cost_figure(costs, directory / "fairness-cost.png"))
    return out


def figure_steps(algorithms: int, sizes: Sequence[int] = COST_SIZES) -> int:
    """How many times :func:`write_figures` calls ``tick``."""
    return 2 + 2 * algorithms + algorithms * len(sizes)


# ------------------------------------------------------------------ weighted draws

#: File name of the figure in ``docs/img`` and in ``xlshuffle fairness --draws --plot DIR``.
WEIGHTED_FIGURE = "fairness-weighted.png"

_WEIGHTED_COLOURS = {
    "xlshuffle": FAIR,
    "monetary-unit": "#2166ac",
    "running-totals": "#f1a340",
    "rand-times-weight": BIASED,
}


def _bars(ax: Any, groups: dict[str, list[Fraction]], n: int) -> None:
    width = 0.8 / len(groups)
    for g, (name, ps) in enumerate(groups.items()):
        xs = [i - 0.4 + width * (g + 0.5) for i in range(n)]
        ax.bar(
            xs, [float(p) for p in ps], width, color=_WEIGHTED_COLOURS[name], label=METHODS[name][0]
        )
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
