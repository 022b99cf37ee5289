"""xlshuffle: fair, reproducible shuffles, deals and draws for people who live in spreadsheets.

Every seeded function runs the Fisher-Yates / Durstenfeld shuffle on the published draw
protocol v1 (``docs/draw-protocol.md``): the same seed gives the same result in the
Excel functions, the batch mode and the command line, on any platform and Python.

>>> import xlshuffle
>>> xlshuffle.shuffled(range(1, 11), seed=42)
[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
>>> xlshuffle.deal(range(52), 5, seed="xlshuffle")
[1, 41, 36, 20, 5]
"""

from .draw import (
    GRID_MODES,
    PROTOCOL,
    RANKS,
    SUITS,
    TEXT_UNITS,
    DrawStream,
    ListError,
    OptionError,
    SeedError,
    ShapeError,
    SizeError,
    SystemSource,
    WorkbookError,
    XlshuffleError,
    deal,
    deal_hands,
    excel_serial,
    graphemes,
    groups,
    new_seed,
    normalise_seed,
    parse_mode,
    permutation,
    shuffle,
    shuffle_grid,
    shuffle_text,
    shuffled,
    standard_deck,
)

__version__ = "0.1.0"

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
    "ShapeError",
    "SizeError",
    "SystemSource",
    "WorkbookError",
    "XlshuffleError",
    "__version__",
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
