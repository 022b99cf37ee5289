"""SAMPLESIZE and UPPERLIMIT: an audit sample's size before it is drawn, its upper limit after.

Excel's side, through xlwings: the argument descriptions Excel's function wizard shows,
and the one-line error boundary (:func:`~xlshuffle.excel.udf.excel_function`) around
:mod:`xlshuffle.functions.auditing`, which draws.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from .. import functions
from .udf import CATEGORY, excel_function

__all__ = ["SAMPLESIZE", "UPPERLIMIT"]


@xw.func(category=CATEGORY)
@xw.arg("confidence", err_to_str=True, doc="The confidence: a rate such as 95% or 0.95.")
@xw.arg(
    "tolerable",
    err_to_str=True,
    doc="The tolerable rate: deviations, or for monetary units the tolerable misstatement "
    "over the book value (T/B).",
)
@xw.arg(
    "expected",
    err_to_str=True,
    doc="Optional. The expected rate, below the tolerable one (0 by default); for monetary "
    "units the expected misstatement over the book value.",
)
@xw.arg(
    "population",
    err_to_str=True,
    doc="Optional. The items in the population: the hypergeometric model needs it.",
)
@xw.arg(
    "model",
    err_to_str=True,
    doc='Optional. "binomial" (the default, as the AICPA attribute tables), "poisson" (as '
    'the AICPA monetary-unit tables) or "hypergeometric".',
)
@excel_function
def SAMPLESIZE(
    confidence: Any,
    tolerable: Any,
    expected: Any = None,
    population: Any = None,
    model: Any = None,
) -> int:
    """Returns the smallest sample whose upper limit stays below the tolerable rate."""
    return functions.SAMPLESIZE(confidence, tolerable, expected, population, model)


@xw.func(category=CATEGORY)
@xw.arg("sample_size", err_to_str=True, doc="The items tested, or the hits of a MUS sample.")
@xw.arg(
    "errors",
    ndim=2,
    err_to_str=True,
    doc="The deviations found (a whole number), or for monetary units a range of the hits' "
    "taintings, (book - audited) / book each; empty cells count as 0.",
)
@xw.arg("confidence", err_to_str=True, doc="The confidence: a rate such as 95% or 0.95.")
@xw.arg(
    "population",
    err_to_str=True,
    doc="Optional. The items in the population: the hypergeometric model needs it.",
)
@xw.arg(
    "model",
    err_to_str=True,
    doc='Optional. "binomial" (the default for a count), "poisson" (the default for '
    'taintings: the Stringer bound with the AICPA factors) or "hypergeometric".',
)
@excel_function
def UPPERLIMIT(
    sample_size: Any,
    errors: Any,
    confidence: Any,
    population: Any = None,
    model: Any = None,
) -> float:
    """Returns the upper limit on the population's error rate at the confidence given."""
    return functions.UPPERLIMIT(sample_size, errors, confidence, population, model)
