"""SAMPLESIZE and UPPERLIMIT: an audit sample's size before it is drawn, its upper limit after.

Worksheet functions as plain Python, like those of :mod:`xlshuffle.functions` (which
exports them): every argument positional, read by :mod:`xlshuffle.functions.arguments`, a
mistake raised as an :class:`~xlshuffle.XlshuffleError`. The figures are the core's
(:mod:`xlshuffle.draw.auditplan`, :mod:`xlshuffle.draw.auditeval`), so
``=SAMPLESIZE(95%, 5%)`` is ``xlshuffle plan attribute --confidence 95% --tolerable-rate
5%``. A rate is a number (a cell formatted as 95% holds 0.95) or a text such as ``"95%"``.

A monetary-unit sample is planned on rates of the book value, ``=SAMPLESIZE(95%, T/B, E/B,
, "poisson")``, and evaluated from its taintings, one ``(book - audited) / book`` per hit:
``=UPPERLIMIT(n, taintings, 95%) * B`` is the Stringer bound ``xlshuffle evaluate mus``
gives (an item hit twice has its tainting twice).

>>> SAMPLESIZE(0.95, 0.05), SAMPLESIZE("95%", "5%", None, None, "poisson")
(59, 60)
>>> round(UPPERLIMIT(59, 0, 0.95), 6), round(UPPERLIMIT(100, [[1], [0.5], [None]], 0.95), 6)
(0.049508, 0.055198)
"""

from __future__ import annotations

import numbers
from typing import Any

from ..draw.auditeval import attribute_upper_limit, stringer_bound
from ..draw.auditplan import MAX_SAMPLE, MODELS, Model, attribute_sample_size, model_of
from ..draw.errors import OptionError
from . import arguments

__all__ = ["SAMPLESIZE", "UPPERLIMIT"]

_RATE = "a rate such as 95% or 0.95"
_MODELS = ", ".join(MODELS)


def _rate(name: str, value: Any, *, optional: bool = False) -> Any:
    """One cell's rate, as the core reads it (a number, or a text such as ``"5%"``); an
    error cell or a range is refused by :func:`arguments.one_cell`."""
    value = arguments.one_cell(name, value, optional=optional)
    if value is None or value == "":
        if optional:
            return 0
        raise OptionError(f"{name} is empty: give {_RATE}")
    if isinstance(value, bool) or not isinstance(value, numbers.Real | str):
        raise OptionError(f"{name} must be {_RATE}, not {arguments.show(value)}")
    return value


def _model(value: Any, default: Model) -> Model:
    text = arguments.option("model", value, _MODELS)
    return default if text is None else model_of(text)


def _population(value: Any) -> int | None:
    value = arguments.one_cell("population", value)
    if value is None or value == "":
        return None
    return arguments.count("population", value)


def SAMPLESIZE(
    confidence: Any,
    tolerable: Any,
    expected: Any = None,
    population: Any = None,
    model: Any = None,
) -> int:
    """Returns the smallest sample whose upper limit stays below the tolerable rate."""
    how = _model(model, "binomial")
    plan = attribute_sample_size(
        confidence=_rate("confidence", confidence),
        tolerable_rate=_rate("tolerable", tolerable),
        expected_rate=_rate("expected", expected, optional=True),
        population=_population(population),
        model=how,
    )
    return plan.sample_size


def UPPERLIMIT(
    sample_size: Any,
    errors: Any,
    confidence: Any,
    population: Any = None,
    model: Any = None,
) -> float:
    """Returns the upper limit on the population's error rate at the confidence given."""
    n = arguments.count("sample_size", sample_size, most=MAX_SAMPLE)
    c = _rate("confidence", confidence)
    count = _count(errors)
    if count is not None:
        return float(
            attribute_upper_limit(
                sample_size=n,
                deviations=count,
                confidence=c,
                population=_population(population),
                model=_model(model, "binomial"),
            ).upper_limit
        )
    taints = _taintings(errors)
    how = _model(model, "poisson")
    if how == "hypergeometric" or _population(population) is not None:
        raise OptionError(
            'taintings take model "poisson" or "binomial" and no population: leave it empty'
        )
    bound, _ = stringer_bound(taints, sample_size=n, confidence=c, model=how)
    return float(bound)


def _count(errors: Any) -> int | None:
    """The deviations, when ``errors`` is one cell holding a whole number."""
    grid = arguments.rows("errors", errors)
    if len(grid) == 1 and len(grid[0]) == 1:
        cell = grid[0][0]
        if isinstance(cell, numbers.Integral) or (
            isinstance(cell, float) and cell.is_integer() and cell >= 0
        ):
            return arguments.count("errors", cell, least=0)
    return None


def _taintings(errors: Any) -> list[Any]:
    """Every non-empty cell of ``errors``, row by row, as a tainting."""
    cells = arguments.listed("errors", errors)
    out = []
    for i, cell in enumerate(cells, 1):
        if cell is None or cell == "":
            continue
        if isinstance(cell, bool) or not isinstance(cell, numbers.Real | str):
            raise OptionError(f"errors, cell {i}: {arguments.show(cell)} is not a tainting")
        out.append(cell)
    return out
