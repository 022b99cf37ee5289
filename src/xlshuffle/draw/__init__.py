"""The pure core of xlshuffle: draw protocol v1 and the shuffles built on it.

Standard library only (``regex`` is imported lazily, to split text into graphemes).
Every other layer (the Excel functions, the fairness lab, the command line, batch mode)
builds on this package, and this package imports none of them.

Modules
-------
protocol
    Seed normalisation and the seeded random stream (:class:`DrawStream`).
knuth
    The forward Durstenfeld shuffle and what is drawn with it: shuffles, deals, groups.
grid
    Grids (lists of rows): shuffle whole rows, columns or cells.
text
    Text shuffled by grapheme, word or character.
cards
    Playing cards: a canonical deck, and hands dealt from it.
errors
    The exception tree.

Examples
--------
>>> from xlshuffle.draw import shuffled
>>> shuffled(range(1, 11), seed=42)
[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
"""

from .cards import RANKS, SUITS, deal_hands, standard_deck
from .errors import (
    ListError,
    OptionError,
    SeedError,
    ShapeError,
    SizeError,
    WorkbookError,
    XlshuffleError,
)
from .grid import GRID_MODES, parse_mode, shuffle_grid
from .knuth import deal, groups, permutation, shuffle, shuffled
from .protocol import (
    PROTOCOL,
    DrawStream,
    SeedLike,
    Source,
    SystemSource,
    as_stream,
    excel_serial,
    new_seed,
    normalise_seed,
)
from .text import TEXT_UNITS, graphemes, shuffle_text

__all__ = [
    "GRID_MODES",
    "PROTOCOL",
    "RANKS",
    "SUITS",
    "TEXT_UNITS",
    "DrawStream",
    "ListError",
    "OptionError",
    "SeedError",
    "SeedLike",
    "ShapeError",
    "SizeError",
    "Source",
    "SystemSource",
    "WorkbookError",
    "XlshuffleError",
    "as_stream",
    "deal",
    "deal_hands",
    "excel_serial",
    "graphemes",
    "groups",
    "new_seed",
    "normalise_seed",
    "parse_mode",
    "permutation",
    "shuffle",
    "shuffle_grid",
    "shuffle_text",
    "shuffled",
    "standard_deck",
]
