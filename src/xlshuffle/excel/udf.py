"""What every worksheet function shares: its category, the seed's description, and the
boundary that turns a mistake into the one line Excel shows (:func:`excel_function`).

Private to :mod:`xlshuffle.excel`; the functions themselves are in its ``__init__`` and its
modules, each a wrapper of its twin in :mod:`xlshuffle.functions`.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from types import FrameType
from typing import ParamSpec, TypeVar, cast

import xlwings as xw

from ..draw.errors import XlshuffleError
from ..functions import arguments

__all__ = ["CATEGORY", "PER_ROW", "SEED_DOC", "excel_function"]

#: The category the Windows add-in files the functions under in Excel's function wizard.
CATEGORY = "xlshuffle"

SEED_DOC = (
    "Optional. A number, text or date: the same seed gives the same result everywhere. "
    "Leave it empty to draw afresh whenever the inputs change."
)

#: How an argument with one value per row of ``data`` is shaped (``weights``, ``strata``).
PER_ROW = "one column the height of data (one row, for a single row of data)"

P = ParamSpec("P")
R = TypeVar("R")


# --------------------------------------------------------------------------- boundary


def excel_function(func: Callable[P, R]) -> Callable[P, R]:
    """The one translation point from xlshuffle's errors to what Excel shows.

    A mistake (an :class:`~xlshuffle.XlshuffleError`, whose message says what to change)
    becomes one line, ``"NAME: what to change"``: at most 300 characters, encodable as
    UTF-8. How it reaches the cell depends on the runtime:

    - xlwings Server and Lite (Office.js): raised as :class:`xlwings.XlwingsError`,
      which they keep (Excel shows ``#VALUE!`` with the message on hover) and do not
      retry.
    - The classic Windows add-in shows the *text* of any exception in the cell, and for
      an ordinary exception that text is a whole Python traceback (xlwings #1108). So
      there the message is returned, as the text ``"#VALUE! NAME: what to change"``.

    A missing package (``ImportError``, whose message names it) gets the same line.
    Anything else is a bug in xlshuffle; it gets the same one line, saying so, rather
    than a traceback or an HTTP 500 that Office.js retries. Its traceback stays
    attached (``__cause__``) for whoever calls the function from Python.
    """
    name = func.__name__

    @functools.wraps(func)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            mistake = isinstance(exc, XlshuffleError)
            text = arguments.report(name, exc)
            if _classic_add_in():
                return cast(R, f"#VALUE! {text}")
            raise xw.XlwingsError(text) from (None if mistake else exc)

    return call


#: The modules of xlwings' classic (COM) add-in that call a worksheet function.
_CLASSIC_CALLERS = frozenset({"xlwings.udfs", "xlwings.com_server"})


def _classic_add_in() -> bool:
    """Whether xlwings' classic Windows add-in made this call (its ``call_udf`` is on the
    stack). Only asked on the way out with an error, so it costs a call nothing."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") in _CLASSIC_CALLERS:
            return True
        frame = frame.f_back
    return False
