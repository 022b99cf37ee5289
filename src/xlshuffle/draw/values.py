"""Ticket counts and money amounts from cells: texts or numbers to exact integers.

Spreadsheets hand over numbers as floats and texts as typed. Both become exact
:class:`~fractions.Fraction` values first (a float by its shortest ``repr``, so ``0.1`` is
one tenth, never ``0.1000000000000000055...``), and then whole numbers by scaling by a power
of ten. No floating-point arithmetic touches a value. A value that cannot be used raises
:class:`~xlshuffle.draw.errors.EntryError` with its 0-based index, which a front end
turns into a cell address.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from .errors import EntryError, SizeError

__all__ = ["DecimalMark", "decimal_mark", "parse_amounts", "parse_weights", "whole_tickets"]

#: How a text amount writes its decimals: ``1,234.56`` (``"point"``) or ``1.234,56``
#: (``"comma"``, the semicolon CSVs of most of Europe).
DecimalMark = Literal["point", "comma"]

_PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
# 1,234,567.89 - and the same with a space, a no-break space, a narrow no-break space or an
# apostrophe between the groups of three (the grouping Excel's formats write).
_GROUPED = re.compile(r"([+-]?)(\d{1,3}(?:([, \u00a0\u202f'])\d{3})(?:\3\d{3})*)(\.\d*)?")
# 1.234.567,89 - the decimal-comma form: '.', a space, a no-break space, a narrow no-break
# space or an apostrophe between the groups of three, ',' before the decimals.
_GROUPED_COMMA = re.compile(r"([+-]?)(\d{1,3}(?:([. \u00a0\u202f'])\d{3})(?:\3\d{3})*)(,\d*)?")
_PLAIN_COMMA = re.compile(r"[+-]?(?:\d+(?:,\d*)?|,\d+)")


def _places(value: Fraction) -> int:
    """How many decimal places ``value`` needs (``2.50`` -> 1), or -1 if it has no end."""
    den = value.denominator
    twos = (den & -den).bit_length() - 1
    fives = 0
    while den % 5 == 0:
        den //= 5
        fives += 1
    return max(twos, fives) if den >> twos == 1 else -1


def _exact(
    index: int,
    value: object,
    what: str,
    example: str,
    money: bool,
    *,
    signed: bool = False,
    mark: DecimalMark = "point",
) -> Fraction:
    """``value`` (a number or a text) as an exact Fraction (>= 0 unless ``signed``), or
    EntryError; a text's decimals are written with ``mark``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise EntryError(index, f"the {what} is blank: write {example}, or 0")
    if isinstance(value, bool):
        raise EntryError(index, f"the {what} cannot be {str(value).upper()}: write {example}")
    if isinstance(value, int):
        number = Fraction(value)
    elif isinstance(value, float | Decimal):
        if not math.isfinite(value):
            raise EntryError(index, f"the {what} cannot be {value}: write {example}")
        number = Fraction(Decimal(repr(value)) if isinstance(value, float) else value)
    elif isinstance(value, str):
        number = _text(index, value, what, example, money, mark)
    else:
        raise EntryError(
            index, f"the {what} must be a number or a text, not {type(value).__name__}"
        )
    if number < 0 and not signed:
        raise EntryError(
            index,
            f"the {what} cannot be negative ({value}): use 0 to leave the entry out",
        )
    return number


def _text(
    index: int, text: str, what: str, example: str, money: bool, mark: DecimalMark = "point"
) -> Fraction:
    body = text.strip()
    if money:
        body = unicodedata.normalize("NFKC", body)  # full-width digits and the like
        sign = ""
        if len(body) > 1 and body[0] == "(" and body[-1] == ")":  # accounting style
            sign, body = "-", body[1:-1].strip()
        if body[:1] in ("+", "-"):
            sign, body = sign or body[0], body[1:].strip()
        # one currency symbol (Unicode category Sc) before or after the number
        if body and unicodedata.category(body[0]) == "Sc":
            body = body[1:].strip()
        elif body and unicodedata.category(body[-1]) == "Sc":
            body = body[:-1].strip()
        body = sign + body
        if mark == "comma":
            return _comma_text(index, text, body, what, example)
        grouped = _GROUPED.fullmatch(body)
        if grouped:
            sign, digits, sep, fraction = grouped.groups()
            body = sign + digits.replace(sep, "") + (fraction or "")
    if not _PLAIN.fullmatch(body):
        hint = ""
        if money and re.fullmatch(r"[+-]?\d+,\d{1,2}", body):
            hint = f" (write the decimal point as '.': {body.replace(',', '.')})"
        raise EntryError(index, f"the {what} {text!r} is not a number{hint}: write {example}")
    return Fraction(Decimal(body))


def _comma_text(index: int, text: str, body: str, what: str, example: str) -> Fraction:
    """A money text's ``body`` (sign and currency symbol taken off) in the decimal-comma form."""
    grouped = _GROUPED_COMMA.fullmatch(body)
    if grouped:
        sign, digits, sep, fraction = grouped.groups()
        body = sign + digits.replace(sep, "") + (fraction or "")
    if not _PLAIN_COMMA.fullmatch(body):
        raise EntryError(
            index,
            f"the {what} {text!r} is not a number written with a decimal comma (the "
            f"column is read as 1.234,56): write {example.replace('1234.56', '1234,56')}",
        )
    return Fraction(Decimal(body.replace(",", ".")))


_HAS_COMMA = re.compile(r".*\d,\d{1,2}\D*")  # a decimal comma: 12,5 / 1.234,56 / 3,40 €
_HAS_POINT = re.compile(r".*\d\.\d{1,2}\D*")  # a decimal point: 12.5 / 1,234.56
_THREE = re.compile(r"\D*\d{1,3}[.,]\d{3}\D*")  # 1,234 or 1.234: thousands, or 3 decimals?


def decimal_mark(values: Iterable[object]) -> DecimalMark:
    """Which decimal mark a column of money texts uses, from its cells (numbers say nothing).

    A cell whose last separator is followed by one or two digits decides: ``12,50`` and
    ``1.234,56`` have a decimal comma, ``12.50`` and ``1,234.56`` a decimal point. A column
    whose cells decide both ways is refused, and so is one that no cell decides while a
    cell such as ``1,234`` (one separator and three digits: a thousand, or three decimals?)
    could be read either way. A column of whole numbers is ``"point"`` (either reads it
    alike).

    Raises
    ------
    EntryError
        Naming the cell (0-based ``index``) that contradicts an earlier one, or the first
        ambiguous one.

    Examples
    --------
    >>> decimal_mark(["1.234,56", "12", 7.5]), decimal_mark(["12.50", "1,000"])
    ('comma', 'point')
    >>> decimal_mark(["1,234"])
    Traceback (most recent call last):
    ...
    xlshuffle.draw.errors.EntryError: item 0 (0-based): the amount '1,234' could be \
1234 or 1.234: write its decimals (1.234,00 or 1,234.00), or say which mark the column \
uses (--decimal-comma or --decimal-point)
    """
    first: dict[DecimalMark, tuple[int, str]] = {}
    ambiguous: tuple[int, str] | None = None
    for i, value in enumerate(values):
        if not isinstance(value, str):
            continue
        text = value.strip()
        marks: list[DecimalMark] = []
        if _HAS_COMMA.fullmatch(text):
            marks.append("comma")
        elif _HAS_POINT.fullmatch(text):
            marks.append("point")
        elif ambiguous is None and _THREE.fullmatch(text):
            ambiguous = (i, text)
        for mark in marks:
            first.setdefault(mark, (i, text))
            other = "point" if mark == "comma" else "comma"
            if other in first:
                j, seen = first[other]
                raise EntryError(
                    i,
                    f"the amount {text!r} has a decimal {mark} but item {j} ({seen!r}) a "
                    f"decimal {other}: write the column one way (or say which with "
                    "--decimal-comma or --decimal-point, and fix the cells it refuses)",
                )
    if first:
        return next(iter(first))
    if ambiguous is not None:
        i, text = ambiguous
        raise EntryError(
            i,
            f"the amount {text!r} could be {text.replace(',', '').replace('.', '')} or "
            f"{text.replace(',', '.')}: write its decimals "
            f"({text.replace(',', '.')},00 or {text.replace('.', ',')}.00), or say which "
            "mark the column uses (--decimal-comma or --decimal-point)",
        )
    return "point"


def parse_weights(values: Iterable[object], *, max_places: int = 6) -> list[int]:
    """Turn ticket counts (numbers or texts, decimals allowed) into exact whole numbers.

    Every value is read exactly (a float by its shortest ``repr``), and all are scaled by
    ``10**p``, ``p`` the most decimal places any of them needs, so ``["1.5", 2]`` gives
    ``[15, 20]``. :func:`~xlshuffle.draw.weighted.weighted_sample` divides weights by their
    common divisor, so the scale never changes a draw: ``[1.5, 2]``, ``[3, 4]`` and
    ``[15, 20]`` draw alike.

    Parameters
    ----------
    values : iterable of int, float, Decimal or str
        Texts are plain decimals (``"3"``, ``" 2.5 "``, ``"+4"``); surrounding white
        space is ignored, trailing zeros do not count as places (``"2.50"`` has one).
    max_places : int, optional
        The most decimal places a value may need (default 6).

    Returns
    -------
    list of int

    Raises
    ------
    EntryError
        Naming the first value (0-based ``index``) that is blank, not a number, NaN or
        infinite, negative, or needs more than ``max_places`` places.

    Examples
    --------
    >>> parse_weights([3, "2.5", 0.25, " 1 "])
    [300, 250, 25, 100]
    >>> parse_weights(["abc"])
    Traceback (most recent call last):
    ...
    xlshuffle.draw.errors.EntryError: item 0 (0-based): the weight 'abc' is not a number: \
write a number of tickets such as 3 or 2.5
    """
    if max_places < 0:
        raise SizeError(f"max_places must be 0 or more, not {max_places}")
    example = "a number of tickets such as 3 or 2.5"
    values = list(values)
    texts = [v for v in values if type(v) is str and v.isascii() and v.isdigit()]
    if len(texts) == len(values):
        return [int(v) for v in texts]  # whole tickets as a CSV holds them: no places
    # each weight as (digits, places): value == digits / 10**places, places the fewest
    decimals = [_quick(v) or _decimal(i, v, example) for i, v in enumerate(values)]
    most = 0
    for i, (digits, places) in enumerate(decimals):
        if places > max_places:
            number = Fraction(digits, 10**places)
            raise EntryError(
                i,
                f"the weight {_decimal_text(number)} has {places} decimal places, more than "
                f"{max_places}: round it",
            )
        most = max(most, places)
    return [digits * 10 ** (most - places) for digits, places in decimals]


def whole_tickets(values: Iterable[object], *, scale: int = 1) -> list[int]:
    """Ticket counts at a stated ``scale``: each value read exactly and multiplied by
    ``scale``, which must make it whole (protocol section 18; no common divisor taken).

    A ticket draw states its scale so that an entrant added later, whatever its number,
    never changes the tickets of the others (:func:`parse_weights` picks the scale from the
    values, which a new value can change).

    Parameters
    ----------
    values : iterable of int, float, Decimal or str
        Read as :func:`parse_weights` reads them.
    scale : int, optional
        Tickets per unit (default 1: whole numbers only; 10 lets ``2.5`` be 25 tickets).

    Raises
    ------
    EntryError
        Naming the first value (0-based ``index``) that is not a number of tickets, or
        that ``scale`` does not make whole.

    Examples
    --------
    >>> whole_tickets([3, "2.5", 0], scale=10)
    [30, 25, 0]
    >>> whole_tickets(["2.5"])
    Traceback (most recent call last):
    ...
    xlshuffle.draw.errors.EntryError: item 0 (0-based): 2.5 tickets is not a whole number \
of tickets at scale 1: a ticket draw counts whole tickets, so give the weights 10 times over \
(--weight-scale 10 on the command line)
    """
    if scale < 1:
        raise SizeError(f"a scale is a whole number 1 or more, not {scale}")
    example = "a number of tickets such as 3"
    out = []
    for index, value in enumerate(values):
        number = _exact(index, value, "weight", example, money=False) * scale
        if number.denominator != 1:
            places = max(_places(number / scale), 0)
            times = 10**places if places > 0 else "N"
            raise EntryError(
                index,
                f"{_decimal_text(number / scale)} tickets is not a whole number of tickets at "
                f"scale {scale}: a ticket draw counts whole tickets, so give the weights "
                f"{times} times over (--weight-scale {times} on the command line)",
            )
        out.append(int(number))
    return out


_QUICK = re.compile(r"\+?([0-9]+)(?:\.([0-9]*?)0*)?")


def _quick(value: object) -> tuple[int, int] | None:
    """A whole number or a plain decimal text as ``(digits, places)``, or None for anything
    else (read by :func:`_decimal`, which gives the same answer for these)."""
    if type(value) is int:
        return (value, 0) if value >= 0 else None
    if type(value) is str:
        m = _QUICK.fullmatch(value.strip())
        if m is not None:
            whole, fraction = m.groups()
            return (int(whole + fraction), len(fraction)) if fraction else (int(whole), 0)
    return None


def _decimal(index: int, value: object, example: str) -> tuple[int, int]:
    number = _exact(index, value, "weight", example, False)
    places = _places(number)  # never -1: every value here is a finite decimal
    return int(number * 10**places), places


def parse_amounts(
    values: Iterable[object],
    *,
    places: int = 2,
    signed: bool = False,
    decimal: DecimalMark = "point",
) -> list[int]:
    """Turn money amounts (numbers or currency texts) into exact integer cents.

    Parameters
    ----------
    values : iterable of int, float, Decimal or str
        Numbers, or texts such as ``"1234.56"``, ``"$1,234.56"``, ``"1 234.56 €"`` or
        ``"(12.00)"``: one currency symbol before or after the number is dropped, and
        ``,``, a space, a no-break space or ``'`` may group the digits in threes before a
        ``.`` decimal point (``"1,234"`` is one thousand two hundred and thirty-four).
    places : int, optional
        Decimal places of the unit counted in (default 2: cents).
    signed : bool, optional
        Read negative amounts (``-5``, ``(5.00)``) instead of refusing them (default
        False): a monetary-unit sample sets them aside as their own population.
    decimal : {"point", "comma"}, optional
        How texts write decimals: ``"point"`` (default), or ``"comma"`` for ``1.234,56``
        (``.``, a space, a no-break space or ``'`` between the groups of three; see
        :func:`decimal_mark`). Numbers are numbers either way.

    Returns
    -------
    list of int
        Each amount times ``10**places``.

    Raises
    ------
    EntryError
        Naming the first value (0-based ``index``) that is blank, not a number, NaN or
        infinite, negative (``-5`` and ``(5.00)``), or has more than ``places`` places
        (round it in the sheet, ``=ROUND(A2, 2)``).

    Examples
    --------
    >>> parse_amounts([12.5, "$1,234.56", "7", "0.10 €"])
    [1250, 123456, 700, 10]
    >>> parse_amounts(["1.234,56", "-12,5", "(3,00 €)"], signed=True, decimal="comma")
    [123456, -1250, -300]
    """
    if places < 0:
        raise SizeError(f"places must be 0 or more, not {places}")
    example = "an amount such as 1234.56"
    out = []
    scale = 10**places
    for i, value in enumerate(values):
        number = _exact(i, value, "amount", example, True, signed=signed, mark=decimal)
        if not (number * scale).denominator == 1:
            raise EntryError(
                i,
                f"the amount {_decimal_text(number)} has more than {places} decimal places: "
                f"round it (in Excel, =ROUND(A2, {places}))",
            )
        out.append(int(number * scale))
    return out


def _decimal_text(number: Fraction) -> str:
    """A finite decimal written out exactly, for messages (``Fraction(5, 2)`` -> ``2.5``)."""
    places = max(_places(number), 0)
    if places == 0:
        return str(number)
    digits = str(abs(int(number * 10**places))).rjust(places + 1, "0")
    return f"{'-' if number < 0 else ''}{digits[:-places]}.{digits[-places:]}"
