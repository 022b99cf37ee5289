"""SAMPLEBY and AUDITSAMPLE: a sample from each stratum, and an audit's selection.

Both are worksheet functions as plain Python, like those of :mod:`xlshuffle.functions`
(which exports them): every argument positional, checked by
:mod:`xlshuffle.functions.arguments`, a mistake raised as an
:class:`~xlshuffle.XlshuffleError` that Excel and Calc each show as one line. They draw
through :func:`xlshuffle.functions.raffle.draw`, the command line's own table logic, so a
range saved as CSV draws the same rows with the same seed (``xlshuffle sample FILE.csv --no-header
--strata C -k 2``, ``--method systematic``, ``--method mus --amount C``, ``--method cell
--amount C --top-stratum interval``).

>>> rows = [["N", 1], ["S", 2], ["N", 3], ["N", 4], ["S", 5], ["N", 6]]
>>> SAMPLEBY(rows, 2, [r[0] for r in rows], "2026 raffle")
[['N', 4], ['N', 6], ['S', 2], ['S', 5]]
>>> AUDITSAMPLE([[n] for n in range(1, 101)], 4, "audit 2026")
[[1], [26], [51], [76]]
>>> ledger = [["inv 1", 500], ["inv 2", 20], ["inv 3", 0], ["inv 4", 130], ["inv 5", 350]]
>>> AUDITSAMPLE(ledger, 4, "audit 2026", "mus", [r[1] for r in ledger])
[['inv 1', 500, 2], ['inv 4', 130, 1], ['inv 5', 350, 1]]
>>> AUDITSAMPLE(ledger, 2, "audit 2026", "cell", [r[1] for r in ledger], "interval")
[['inv 1', 500, 0, 'yes'], ['inv 4', 130, 1, 'no'], ['inv 5', 350, 1, 'no']]
"""

from __future__ import annotations

from typing import Any, Literal

from ..draw.errors import EntryError, OptionError
from ..draw.values import parse_amounts
from . import arguments, raffle
from .shapes import items

__all__ = ["AUDITSAMPLE", "SAMPLEBY"]


def SAMPLEBY(
    data: Any, k: Any, strata: Any, seed: Any = None, weights: Any = None, reserves: Any = None
) -> list[Any]:
    """Draws k rows from each stratum on its own, the strata in order of first appearance."""
    rows = arguments.rows("data", data, values=True)
    n = arguments.count("k", k)
    count, noun = items(rows)
    labels = arguments.per_item("strata", strata, count, noun)
    columns = {"strata": arguments.labels("strata", labels, noun, blank=False)}
    if weights is not None:
        columns["weights"] = arguments.per_item("weights", weights, count, noun)
    extra = arguments.count("reserves", reserves, default=0, least=0)
    return raffle.draw(rows, n, arguments.seed(seed), reserves=extra, columns=columns)


def AUDITSAMPLE(
    data: Any,
    k: Any,
    seed: Any = None,
    method: Any = None,
    amounts: Any = None,
    top_stratum: Any = None,
) -> list[Any]:
    """Selects rows for an audit at a fixed interval from one random start, in the rows' order."""
    rows = arguments.rows("data", data, values=True)
    n = arguments.count("k", k, most=arguments.SHEET_ROWS, why=" (the rows of a sheet)")
    how = _audit_method(method, amounts is not None)
    count, noun = items(rows)
    columns = {}
    if how in ("mus", "cell"):
        columns["amount"] = arguments.per_item("amounts", amounts, count, noun)
    cutoff = _cutoff(top_stratum, how)
    return raffle.draw(
        rows, n, arguments.seed(seed), method=how, columns=columns, top_stratum=cutoff
    )


def _cutoff(value: Any, how: str) -> int | Literal["interval"] | None:
    """AUDITSAMPLE's top_stratum: empty, "interval", or an amount in cents more than 0."""
    cell = arguments.one_cell("top_stratum", value)
    if cell is None or (isinstance(cell, str) and not cell.strip()):
        return None
    if how == "systematic":
        raise OptionError('top_stratum is read by method "mus" or "cell": give amounts')
    if isinstance(cell, str) and cell.strip().lower() == "interval":
        return "interval"
    try:
        (cents,) = parse_amounts([cell])
    except EntryError as exc:
        raise OptionError(f'top_stratum: {exc.reason}, or "interval"') from None
    if cents < 1:
        raise OptionError('top_stratum must be an amount more than 0, or "interval"')
    return cents


def _audit_method(value: Any, amounts: bool) -> str:
    """AUDITSAMPLE's method, ``"systematic"`` or ``"mus"``; a combination that would
    leave an argument unread is refused."""
    text = arguments.option("method", value, "systematic, mus, cell")
    if text is None:
        return "mus" if amounts else "systematic"
    how = _METHODS.get("".join(text.lower().replace("-", " ").split()))
    if how is None:
        raise OptionError(
            f"unknown method {text!r}: use systematic, or mus or cell (monetary-unit "
            "sampling) with amounts"
        )
    if how != "systematic" and not amounts:
        raise OptionError(f'method "{how}" needs amounts: a column of money amounts, one per row')
    if how == "systematic" and amounts:
        raise OptionError(
            'amounts are read by method "mus" or "cell" only: leave amounts empty for a '
            'systematic selection, or use "mus"'
        )
    return how


_METHODS = {"systematic": "systematic", "mus": "mus", "monetaryunit": "mus", "cell": "cell"}
