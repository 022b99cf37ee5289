"""Move cell formulas the way Excel does when it sorts rows, fast enough for a million cells.

When Excel sorts, each moved cell's formula is translated: relative references move with
the cell, absolute ones (``$``) stay. openpyxl's :class:`~openpyxl.formula.translate.Translator`
does exactly that, and is the reference here, but one call costs 10-27 us. A sheet of a
million formulas usually holds a handful of *shapes*: ``C2*2`` in row 2 and ``C3*2`` in
row 3 are the same formula in relative terms. :class:`FormulaMover` translates the first
formula of a shape with openpyxl, keeps the result as a template (literal pieces plus
reference slots) and renders every later formula of that shape from the template. A
simple formula (cells, ranges of two cells, numbers, operators, function calls) has its
template read from its text without openpyxl (:mod:`.simple`), the same template, as the
tests hold it to be.

Why the cache is sound
----------------------
The shape key comes from one linear regex pass (``_LEX``). It skips ``"..."`` strings,
``'...'`` sheet names, ``[...]`` groups and error literals (``#REF!``...), and finds the
*relative row parts* of references: the digits of a cell reference ``$?L{1,3}D{1,7}`` or
of a row range ``$?D{1,7}:$?D{1,7}`` that is a whole word (no word character, ``$``,
``.``, ``\\`` or ``?`` on either side) and not followed by ``(``. The key is the text with
those digits replaced by their offsets from the source row, plus the source column;
everything else (column letters, absolute parts) stays verbatim. Shapes are therefore
shared down a column, which is what a row shuffle moves. Two texts with one key differ
only in such digit runs, each 1-7 ASCII digits without a leading zero.

openpyxl's tokenizer and translator never look at such characters except through
decisions that every such run answers alike: digits are never delimiters; a token
holding one can never read as a number (``float``; letters or ``:`` always sit next to
it), a boolean or a scientific-notation prefix; the runs hold no ``:``, ``!``, quote or
bracket, so splitting and the anchored reference regexes see the same pieces; and none
can lie inside an error literal, which the key keeps verbatim. Hence every text of a
key tokenizes the same way, and the translated parts are in the same places.

What the cheap pass *guesses* is then checked once per shape against openpyxl itself
(for the shapes of formulas that openpyxl reads):
the template is built from openpyxl's tokens, and the shape is cached only if the
relative row parts openpyxl translates are exactly those of the key, at the same text
positions (relative columns are verbatim in the key and the source column is part of it,
so their offsets are the same for every text of the key). A function name such as
``LOG10(``, a name such as ``A1B`` or ``R1C1``, text inside ``"..."``, a sheet name
``'Q1 2024'`` are therefore either verbatim in the key or
make the shape uncacheable (every formula of it goes through openpyxl). The rendered
template is also compared with openpyxl's own output when the shape is built (for a
probe destination) and on the first move that uses it.

Differences from openpyxl (on purpose)
--------------------------------------
* openpyxl moves a reference past row 1,048,576 or column XFD without complaint (and
  reads ``XFE1`` or ``A2000000`` as cells although Excel reads them as names). Here every
  reference openpyxl would translate must lie inside the sheet before and after the move,
  else :class:`FormulaMoveError`; Excel itself turns such references into ``#REF!``.
* openpyxl drops the sheet of a sheet-scoped name (``Sheet2!Rate`` becomes ``Rate``);
  names do not move, so it stays ``Sheet2!Rate`` here.
* openpyxl moves only the second half of ``Sheet1!A1:Sheet1!B2`` (it splits at the last
  ``!``); Excel moves both. Such a range raises :class:`FormulaMoveError`.

Quirks kept from openpyxl: a run of spaces and newlines becomes its first character,
a newline inside an operand moves before it, relative column letters come out in upper
case (``a1`` becomes ``B2``), ``LOG10 (A1)`` (with a space) is an intersection of the cell
``LOG10`` with ``A1`` and both move.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from ..scan.refs import MAX_COL, MAX_ROW
from .lex import (
    COL_LETTERS,
    MAX_FORMULA_LENGTH,
    FormulaMoveError,
    ShapeKey,
    column_letter,
    shape_key,
)
from .simple import simple_shape

if TYPE_CHECKING:  # openpyxl is imported when a formula first needs it (.shapes)
    from openpyxl.formula.translate import Translator

    from .template import Shape

__all__ = [
    "CACHE_SIZE",
    "MAX_COL",
    "MAX_FORMULA_LENGTH",
    "MAX_ROW",
    "FormulaMoveError",
    "FormulaMover",
    "column_letter",
]

CACHE_SIZE: Final = 4_096
"""Shapes a :class:`FormulaMover` keeps; the cache is emptied when it is full."""

_SURROGATE = re.compile("[\udc80-\udcff]")


class FormulaMover:
    """Translate formula text from one cell to another, as Excel does when it sorts.

    Formula text is XML-unescaped and has no leading ``=``. The result is exactly what
    openpyxl's ``Translator("=" + text, origin).translate_formula(dest)`` gives, minus the
    ``=``, except that references must stay inside the sheet (see the module notes).
    One instance per sheet or run: it holds a cache of up to :data:`CACHE_SIZE` shapes.

    Attributes
    ----------
    hits : int
        Calls answered from the cache.
    misses : int
        Calls that went through openpyxl.

    Examples
    --------
    >>> mover = FormulaMover()
    >>> mover.move("C2*2+$A$1", 2, 4, 9, 4)
    'C9*2+$A$1'
    >>> mover.move("C3*2+$A$1", 3, 4, 10, 4), mover.hits, mover.misses
    ('C10*2+$A$1', 1, 1)
    >>> mover.move("SUM(B2:C2)", 2, 4, 2, 5)
    'SUM(C2:D2)'
    >>> mover.move("A1", 2, 2, 1, 2)
    Traceback (most recent call last):
    ...
    xlshuffle.workbook.formulas.translate.FormulaMoveError: reference A1 would move above row 1
    >>> mover.keeps_value_on_row_move("B7*C7", 7, 4), mover.keeps_value_on_row_move("B6", 7, 4)
    (True, False)
    """

    def __init__(self) -> None:
        self._cache: dict[ShapeKey, Shape | None] = {}
        self.hits = 0
        self.misses = 0

    def _shape(self, text: str, row: int, col: int) -> tuple[Shape, Translator | None, bool]:
        """The cached shape of `text` at (`row`, `col`), or a new one and its Translator."""
        if len(text) > MAX_FORMULA_LENGTH:
            raise FormulaMoveError(
                f"the formula is {len(text):,} characters long; Excel allows {MAX_FORMULA_LENGTH:,}"
            )
        if not (0 < row <= MAX_ROW and 0 < col <= MAX_COL):
            raise ValueError(f"cell (row {row}, column {col}) is not inside the sheet")
        if not text.isascii() and _SURROGATE.search(text):  # bytes kept by surrogateescape
            raise FormulaMoveError("its text is not UTF-8")
        cache = self._cache
        key = shape_key(text, row, col)
        shape = cache.get(key)
        if shape is not None:
            return shape, None, False
        self.misses += 1
        simple = simple_shape(text, row, col)
        if simple is not None:  # read without openpyxl
            (built, cacheable), translator = simple, None
        else:
            from .shapes import build_shape  # openpyxl: only for a formula it must read

            built, cacheable, translator = build_shape(text, row, col)
        if translator is not None:  # check the template against openpyxl, one row down or up
            probe = row + 1 if row < MAX_ROW else row - 1
            out = built.render(row, col, probe, col)
            expected = translator.translate_formula(COL_LETTERS[col] + str(probe))[1:]
            if out is not None and out != expected:  # pragma: no cover - a bug here
                cache[key] = None
                raise FormulaMoveError(f"internal check failed: {out!r}, not {expected!r}")
        if key not in cache:  # remember the shape, or that it cannot be cached
            if len(cache) >= CACHE_SIZE:
                cache.clear()
            cache[key] = built if cacheable else None
        return built, translator, True

    def move(self, text: str, src_row: int, src_col: int, dst_row: int, dst_col: int) -> str:
        """Return `text` as it reads after moving from the source cell to the destination.

        Parameters
        ----------
        text : str
            Formula text, XML-unescaped, without the leading ``=``.
        src_row, src_col : int
            The cell the formula is in (1-based; column 1 is ``A``).
        dst_row, dst_col : int
            The cell it moves to.

        Returns
        -------
        str
            The translated formula text, without ``=``; `text` itself when the cells are
            the same.

        Raises
        ------
        FormulaMoveError
            If a reference would leave the sheet or is not inside it, the text is longer
            than 8,192 characters, or openpyxl cannot tokenize it.
        ValueError
            If a cell is not inside the sheet.
        """
        if src_row == dst_row and src_col == dst_col:
            return text
        if len(text) <= MAX_FORMULA_LENGTH and (
            0 < src_row <= MAX_ROW and 0 < src_col <= MAX_COL
        ):  # the fast path: a cached shape that fits
            shape = self._cache.get(shape_key(text, src_row, src_col))
            if shape is not None:
                out = shape.render(src_row, src_col, dst_row, dst_col)
                if out is not None:
                    self.hits += 1
                    return out
        if not (0 < dst_row <= MAX_ROW and 0 < dst_col <= MAX_COL):
            raise ValueError(f"cell (row {dst_row}, column {dst_col}) is not inside the sheet")
        shape, translator, fresh = self._shape(text, src_row, src_col)
        out = shape.render(src_row, src_col, dst_row, dst_col)
        if out is None:
            if not fresh:  # cached: explain with this formula's own references
                from .shapes import build_shape

                shape = build_shape(text, src_row, src_col)[0]
            raise FormulaMoveError(shape.error or shape.explain(src_row, src_col, dst_row, dst_col))
        if translator is not None:  # a shape built just now: check it against openpyxl
            expected = translator.translate_formula(COL_LETTERS[dst_col] + str(dst_row))
            if out != expected[1:]:
                self._cache[shape_key(text, src_row, src_col)] = None
                raise FormulaMoveError(  # pragma: no cover - a bug in this module
                    f"internal check failed: {out!r} is not openpyxl's {expected[1:]!r}"
                )
        return out

    def move_row(self, text: str, src_row: int, col: int, dst_row: int) -> tuple[str, bool]:
        """``(move(text, src_row, col, dst_row, col), keeps_value_on_row_move(text, src_row,
        col))`` from one shape lookup: the quick path of whole-row moves."""
        if len(text) <= MAX_FORMULA_LENGTH and 0 < src_row <= MAX_ROW and 0 < col <= MAX_COL:
            shape = self._cache.get(shape_key(text, src_row, col))
            if shape is not None:
                # a shape that renders at all renders in place (its references are inside
                # the sheet where the formula is), so keeps_value_on_row_move is row_local
                out = shape.render(src_row, col, dst_row, col)
                if out is not None:
                    self.hits += 1
                    return out, shape.row_local
        return self.move(text, src_row, col, dst_row, col), self.keeps_value_on_row_move(
            text, src_row, col
        )

    def keeps_value_on_row_move(self, text: str, row: int, col: int) -> bool:
        """Whether the formula's cached value still holds after its whole row moves.

        True only when every reference is on the formula's own sheet and inside its own row
        (a cell or a range whose row parts are relative and equal `row`), there are no
        whole-row or whole-column references, no defined names or structured references
        other than this-row ones (``[@Col]``, ``[#This Row]``), and every function is a
        known one that depends only on its arguments (no ``ROW``, ``OFFSET``,
        ``INDIRECT``, ``RAND``, ``NOW``, ``SUBTOTAL``...). Constants-only formulas keep
        their value. Anything not understood is False.

        Parameters
        ----------
        text : str
            Formula text, XML-unescaped, without the leading ``=``.
        row, col : int
            The cell the formula is in.

        Returns
        -------
        bool
            Whether the value survives the row move unchanged.
        """
        try:
            shape = self._shape(text, row, col)[0]
        except FormulaMoveError:
            return False
        return shape.row_local and shape.render(row, col, row, col) is not None
