"""The worksheet functions as plain Python, for any spreadsheet: SHUFFLE, SHUFFLESTR, DEAL,
SAMPLE, SAMPLEBY, AUDITSAMPLE, GROUPS, ORDERS, ALLOCATE, TICKET, SAMPLESIZE, UPPERLIMIT.

What Excel (:mod:`xlshuffle.excel`, through xlwings) and LibreOffice Calc
(:mod:`xlshuffle.calc`, a UNO add-in) both call: each argument is read and checked by
:mod:`xlshuffle.functions.arguments` (an error cell, a broken character, a count too large
for a sheet are refused there, by name, before anything is allocated), the core draws (draw
protocol v1, so the same seed gives the same result as the Python API and the command
line), and the result is a list of rows. ``SAMPLE``'s tickets, reserves and exclusions,
``SAMPLEBY`` and ``AUDITSAMPLE`` (:mod:`xlshuffle.functions.samples`) draw through the
command line's own table logic (:mod:`xlshuffle.tabledraw.raffles`), so the range saved as
CSV draws the same rows there. A mistake is raised as an :class:`~xlshuffle.XlshuffleError`
whose message says what to change; each spreadsheet shows it as one line its own way.

A range is a list of rows (a tuple of tuples too):

>>> column = [[n] for n in range(1, 11)]
>>> [row[0] for row in SHUFFLE(column, 42)]
[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
>>> SAMPLE(column, 3, 42)
[[9], [10], [4]]
>>> SHUFFLE(column, 42, "diagonal")
Traceback (most recent call last):
...
xlshuffle.draw.errors.OptionError: unknown mode 'diagonal': use one of rows, columns, cells, ...
"""

from __future__ import annotations

from typing import Any

from ..draw.cards import deal_hands
from ..draw.errors import OptionError, SizeError
from ..draw.grid import parse_mode, shuffle_grid
from ..draw.knuth import deal, groups
from ..draw.text import shuffle_text
from . import arguments, raffle, teams
from .allocate import ALLOCATE
from .auditing import SAMPLESIZE, UPPERLIMIT
from .orders import ORDERS
from .samples import AUDITSAMPLE, SAMPLEBY
from .shapes import first_column, is_row, items
from .tickets import TICKET

__all__ = [
    "ALLOCATE",
    "AUDITSAMPLE",
    "DEAL",
    "FUNCTIONS",
    "GROUPS",
    "ORDERS",
    "SAMPLE",
    "SAMPLEBY",
    "SAMPLESIZE",
    "SHUFFLE",
    "SHUFFLESTR",
    "TICKET",
    "UPPERLIMIT",
]


# --------------------------------------------------------------------------- functions


def SHUFFLE(data: Any, seed: Any = None, by: Any = None, header: Any = False) -> list[Any]:
    """Returns the cells in a fair random order, same shape; whole rows move by default."""
    rows = arguments.rows("data", data)
    by = arguments.option("by", by, "rows, columns, cells, within rows, within columns")
    default = "columns" if is_row(rows) else "rows"  # a row's cells are its columns
    mode = default if by is None else parse_mode(by)
    header = arguments.flag("header", header)
    return shuffle_grid(rows, by=mode, header=header, seed=arguments.seed(seed))


def SHUFFLESTR(text: Any, seed: Any = None, unit: Any = None) -> str:
    """Returns the text with its letters, or its words, in a fair random order."""
    unit = arguments.option("unit", unit, "letters, words")
    return shuffle_text(
        arguments.text("text", text),
        seed=arguments.seed(seed),
        unit="grapheme" if unit is None else unit,
    )


def DEAL(cards: Any, hands: Any = 1, seed: Any = None, deck: Any = None) -> list[Any]:
    """Deals cards as at a table: one column per hand, one row per round."""
    n_cards = arguments.count(
        "cards", cards, most=arguments.SHEET_ROWS, why=" (the rows of a sheet)"
    )
    n_hands = arguments.count(
        "hands", hands, default=1, most=arguments.SHEET_COLUMNS, why=" (the columns of a sheet)"
    )
    if n_cards * n_hands > arguments.MAX_DEALT:
        raise SizeError(
            f"cannot deal {n_cards:,} cards to {n_hands:,} hands: that is "
            f"{n_cards * n_hands:,} cards and DEAL deals at most {arguments.MAX_DEALT:,}; "
            "deal fewer cards or hands"
        )
    dealt = deal_hands(n_cards, n_hands, seed=arguments.seed(seed), deck=arguments.deck(deck))
    return [list(round_) for round_ in zip(*dealt, strict=True)]


def SAMPLE(
    data: Any,
    k: Any,
    seed: Any = None,
    weights: Any = None,
    reserves: Any = None,
    exclude: Any = None,
    ids: Any = None,
    method: Any = None,
) -> list[Any]:
    """Draws k rows without replacement, in draw order: the first k rows of SHUFFLE."""
    rows = arguments.rows("data", data, values=True)
    n = arguments.count("k", k)
    extra = arguments.count("reserves", reserves, default=0, least=0)
    how = _sample_method(method)
    if exclude is None and ids is not None and how == "random":
        raise OptionError(
            'ids is read with exclude or with method "ticket": give one, or leave ids empty'
        )
    if how == "rivest" and weights is not None:
        raise OptionError(
            'method "rivest" gives one ticket per row: leave weights empty, or use method "ticket"'
        )
    if how == "random" and weights is None and extra == 0 and exclude is None:
        if is_row(rows):  # the draw SAMPLE always made
            return [deal(rows[0], n, seed=arguments.seed(seed))]
        return deal(rows, n, seed=arguments.seed(seed))
    count, noun = items(rows)
    columns = {}
    if weights is not None:
        columns["weights"] = arguments.per_item("weights", weights, count, noun)
    excluded = None if exclude is None else arguments.listed("exclude", exclude)
    if exclude is not None or how != "random":
        given = ids is not None
        found = arguments.per_item("ids", ids, count, noun) if given else first_column(rows)
        columns["id"] = arguments.labels("ids", found, noun, blank=how == "random")
    seed = arguments.seed(seed)
    return raffle.draw(
        rows, n, seed, method=how, reserves=extra, columns=columns, excluded=excluded
    )


def _sample_method(value: Any) -> str:
    """SAMPLE's method: ``random`` (the default), ``ticket`` or ``rivest``."""
    text = arguments.option("method", value, "random, ticket, rivest")
    how = "random" if text is None else text.strip().lower()
    if how not in ("random", "ticket", "rivest"):
        raise OptionError(f"unknown method {text!r}: use random, ticket or rivest")
    return how


def GROUPS(data: Any, k: Any, seed: Any = None, balance: Any = None) -> list[Any]:
    """Returns a group number 1 to k for each row, in the rows' order; sizes differ by 1 at most."""
    rows = arguments.rows("data", data, values=True)
    n = arguments.count("k", k)
    if balance is not None:
        return _balanced(rows, n, seed, balance)
    if is_row(rows):
        return [groups(len(rows[0]), n, seed=arguments.seed(seed))]
    return [[g] for g in groups(len(rows), n, seed=arguments.seed(seed))]


def _balanced(rows: arguments.Rows, k: int, seed: Any, balance: Any) -> list[Any]:
    """GROUPS with ``balance``: each row is a person (a header row first when a column is
    named by its header text), as ``xlshuffle groups --balance`` reads a list."""
    given = teams.names("balance", balance)
    header = any(isinstance(g, str) for g in given)
    heads = [teams.head(v) for v in rows[0]]
    cols = teams.balance_columns("balance", given, heads if header else None, len(rows[0]))
    people = rows[1:] if header else rows
    if not people:
        raise SizeError("data holds only its header row: select the header and the rows below it")
    numbers = teams.teams(people, k, arguments.seed(seed), cols, first=2 if header else 1)
    return [["Group"]] * header + [[g] for g in numbers]


#: The worksheet functions, in the order the documentation lists them.
FUNCTIONS = (
    SHUFFLE,
    SHUFFLESTR,
    DEAL,
    SAMPLE,
    SAMPLEBY,
    AUDITSAMPLE,
    GROUPS,
    ORDERS,
    ALLOCATE,
    TICKET,
    SAMPLESIZE,
    UPPERLIMIT,
)
