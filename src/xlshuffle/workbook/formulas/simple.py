"""Shapes of simple formulas, read from their text without openpyxl.

Most formulas in the rows people shuffle are arithmetic on cells: ``A2*2``,
``SUM(B2:D2)/C2``, ``IF(B2>0,B2,0)``. Their tokens are plain: cell references and ranges
of two cells, numbers, operators, parentheses, commas, and calls of functions by name.
For a text made only of such tokens, :func:`simple_shape` builds the
:class:`~.shapes.Shape` (and says whether it may be cached) exactly as
:func:`~.shapes.build_shape` builds it from openpyxl's tokens, without importing openpyxl
(a twentieth of a second, most of a small run). Any other text gives None, and openpyxl
reads it.

Why the two agree on these texts: openpyxl's tokenizer splits a formula at operators,
parentheses, commas and whitespace, and at nothing else that this grammar allows. Here
there is no whitespace, quote, bracket, brace, ``!``, ``#``, ``;``, lower-case letter or
``:`` outside a range of two cell references, and no number with an exponent; every
operand is then either a number (``float`` reads it: openpyxl's ``NUMBER``, kept as it
is) or a cell reference or a range of two (``float`` does not: its ``RANGE``, whose row
and column parts its ``CELL_REF_RE`` finds as the groups below do), and a name followed
by ``(`` is a function call. The parentheses must balance, as openpyxl requires.
``tests/test_wb_formulas.py`` holds every shape built here to the one built from
openpyxl's tokens, over generated formulas.

The shapes built here are not compared with openpyxl's output when first used, as those
from openpyxl's tokens are: that check needs openpyxl, and the tests make it instead.
"""

from __future__ import annotations

import re
from typing import Final

from ..scan.refs import col_index
from .lex import cheap_parts
from .template import FUNCS_POSITIONAL, FUNCS_PURE, Pieces, Shape

__all__ = ["simple_shape"]

# One token at a time: a function's name and its "(" first ("LOG10(" is not a cell), then
# a cell or a range of two, a number (neither glued to a name, a range, a sheet or a
# call), an operator or a bracket. Upper case only: openpyxl writes relative column
# letters in upper case, which would change a lower-case text.
_GLUED: Final = r"(?![A-Za-z0-9_.(!:$\\?])"
_TOKEN: Final = re.compile(
    r"(?P<func>[A-Z][A-Z0-9.]*\()"
    r"|(?P<ref>(?P<c1>\$?[A-Z]{1,3})(?P<r1>\$?[1-9][0-9]{0,6})"
    rf"(?::(?P<c2>\$?[A-Z]{{1,3}})(?P<r2>\$?[1-9][0-9]{{0,6}}))?){_GLUED}"
    rf"|(?P<num>[0-9]+(?:\.[0-9]+)?){_GLUED}"
    r"|(?P<op><=|>=|<>|[-+*/^&=<>%,()])"
)


def simple_shape(text: str, src_row: int, src_col: int) -> tuple[Shape, bool] | None:
    """The shape of formula ``text`` at (``src_row``, ``src_col``) and whether it may be
    cached, as :func:`~.shapes.build_shape` gives them, when ``text`` is simple; else None.

    Examples
    --------
    >>> shape, cacheable = simple_shape("A2*2", 2, 5)
    >>> shape.render(2, 5, 9, 5), shape.row_local, cacheable
    ('A9*2', True, True)
    >>> simple_shape("SUM(A2:B2)/$C$1", 2, 4)[0].render(2, 4, 3, 4)
    'SUM(A3:B3)/$C$1'
    >>> simple_shape('A2&"x"', 2, 5) is None  # a string: openpyxl reads it
    True
    """
    reader = _Reader(src_row, src_col)
    depth = pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        if m.lastgroup == "ref":
            reader.ref(m)
        else:
            token = m[0]
            if token[-1] == "(":
                depth += 1
                if len(token) > 1:
                    reader.function(token[:-1])
            elif token == ")":
                depth -= 1
                if depth < 0:
                    return None
            reader.buf += token
        pos = m.end()
    if depth or not text:
        return None
    return reader.shape(), reader.ours == cheap_parts(text)


class _Reader(Pieces):
    """The pieces of a :class:`~.template.Shape` as :func:`simple_shape` reads them,
    in the order openpyxl's tokens give them to :func:`~.shapes.build_shape`."""

    def function(self, name: str) -> None:
        if name not in FUNCS_PURE or name in FUNCS_POSITIONAL:
            self.row_local = False

    def ref(self, m: re.Match[str]) -> None:
        """A cell or a range of two: each column and row part kept (absolute) or a slot."""
        value = m["ref"]
        for col, row in (("c1", "r1"), ("c2", "r2")) if m["c2"] else (("c1", "r1"),):
            if col == "c2":
                self.buf += ":"
            col_text, row_text = m[col], m[row]
            self.part(value, value, col_text, True, col_index(col_text.lstrip("$")), None)
            at = (m.start(row), m.end(row))
            self.part(value, value, row_text, False, int(row_text.lstrip("$")), at)
