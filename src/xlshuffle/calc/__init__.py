"""The worksheet functions in LibreOffice Calc: a Python UNO add-in, packed as an extension.

``xlshuffle extension calc -o xlshuffle.oxt`` (:func:`xlshuffle.calc.build.build_calc`)
writes the extension: the add-in component (:mod:`xlshuffle.calc.component`), registered
as a ``com.sun.star.sheet.AddIn``, its interface compiled from ``data/XFunctions.idl``, the
function wizard's texts (``data/CalcAddIns.xcu``, the Excel functions' own), the menu
*xlshuffle* of draw-and-lock commands (:mod:`xlshuffle.calc.menu`, run by the protocol
handler :mod:`xlshuffle.calc.dispatch` on the document as :mod:`xlshuffle.calc.unobook`
adapts it), and the pure part of xlshuffle it runs (the core, the table draws,
:mod:`xlshuffle.functions` and :mod:`xlshuffle.lock`), with a table of grapheme
properties in place of the compiled ``regex`` package.

Each function is :mod:`xlshuffle.functions`' own, so the same arguments give the same
result as in Excel and on the command line. :func:`call` is the one place where Calc's
values meet them: a range arrives as a tuple of rows whose empty cells are empty texts,
and a number is a float (TRUE is 1); a result goes back as rows of floats and texts,
padded with blanks to the size of the largest range argument, so that an array formula
over a larger block shows blanks rather than ``#N/A`` (Calc has no spilling). A mistake
is the one line the Windows add-in shows, ``"#VALUE! NAME: what to change"``, as the
result's first cell.

>>> call("SHUFFLE", tuple((float(n),) for n in range(1, 6)), 42.0, None, None)
((4.0, ''), (1.0, ''), (3.0, ''), (5.0, ''), (2.0, ''))
>>> call("SAMPLE", (("Ann",), ("Bo",), ("Cy",), ("Di",)), 2.0, "raffle", *[None] * 5)
(('Ann', ''), ('Cy', ''), ('', ''), ('', ''))
>>> call("SHUFFLESTR", "ABCDEFGHIJ", "2026 raffle", None)
'DJFECGAIHB'
>>> call("SHUFFLE", (("a",), ("b",)), 1.0, "diagonal", None)[0][0]
"#VALUE! SHUFFLE: unknown mode 'diagonal': use one of rows, columns, cells, within-rows, ..."
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

from .. import functions
from ..functions import arguments

__all__ = ["IMPLEMENTATION", "NAMES", "SCALAR", "calc_value", "call"]

#: The add-in's implementation name: its node in CalcAddIns.xcu.
IMPLEMENTATION = "org.xlshuffle.calc.Functions"
#: The functions Calc gets, in the documented order.
NAMES = tuple(f.__name__ for f in functions.FUNCTIONS)
#: The functions that give one value; the others give rows (TICKET: for one ID, one row).
SCALAR = frozenset({"SHUFFLESTR", "SAMPLESIZE", "UPPERLIMIT"})

_BY_NAME: dict[str, Callable[..., Any]] = {f.__name__: f for f in functions.FUNCTIONS}

Cells = tuple[tuple[Any, ...], ...]


def call(name: str, *args: Any) -> Any:
    """Run the function ``name`` on the arguments as Calc hands them over, and give the
    result as Calc takes it back (rows, or one value for :data:`SCALAR`)."""
    try:
        result = _BY_NAME[name](*(_argument(a) for a in args))
    except Exception as exc:  # a mistake, or a bug: one line in the cell either way
        text = f"#VALUE! {arguments.report(name, exc)}"
        return text if name in SCALAR else ((text,),)
    if name in SCALAR:
        return calc_value(result)
    rows = result if isinstance(result, list) else [[result]]
    return _padded(rows, [a for a in args if isinstance(a, tuple)])


def _argument(value: Any) -> Any:
    """A range as a list of rows with its empty cells None (as xlwings gives them);
    anything else as it is (an omitted argument is None)."""
    if isinstance(value, tuple):
        return [[None if cell == "" else cell for cell in row] for row in value]
    return value


def calc_value(value: Any) -> Any:
    """One cell as Calc takes it (a function's result, ``setDataArray``): a float, a text,
    or an empty text for a blank (None)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, numbers.Real):
        return float(value)
    return value if isinstance(value, str) else str(value)


def _padded(rows: list[list[Any]], ranges: list[Cells]) -> Cells:
    """The result's rows, blank cells added up to the rows and columns of the largest range
    argument (and at least 2 by 2: Calc repeats a lone row or column over a larger block)."""
    height = max([len(rows), 2, *(len(r) for r in ranges)])
    width = max([max(len(row) for row in rows), 2, *(len(r[0]) for r in ranges if r)])
    blank = ("",) * width
    out = [(*(calc_value(v) for v in row), *blank[len(row) :]) for row in rows]
    return (*out, *[blank] * (height - len(out)))
