"""Text shuffles by grapheme (what a reader sees as one character) or by word.

Graphemes are extended grapheme clusters of Unicode UAX #29, found with the ``regex``
package's ``\\X``: "é" written as e + U+0301, flag emoji, ZWJ families and Hangul
syllables built from jamo stay whole. ``regex`` is the one library outside the standard
library that the core uses, imported only here and only when text is shuffled; it is a
well-kept package that Pyodide (xlwings Lite) ships as well. Where it cannot be installed
(LibreOffice's own Python, which runs the Calc extension), the extension carries the module
:data:`TABLE_MODULE`, a table of grapheme properties built from ``regex`` when the extension
was built, and :class:`~xlshuffle.draw.graphemes.Segmenter` splits by it the same way.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from .errors import OptionError
from .graphemes import Segmenter
from .knuth import shuffled

__all__ = ["TABLE_MODULE", "TEXT_UNITS", "graphemes", "shuffle_text"]

#: The units :func:`shuffle_text` can shuffle.
TEXT_UNITS = ("grapheme", "word")

#: The module of grapheme properties an extension carries in place of ``regex``.
TABLE_MODULE = "xlshuffle.draw.graphemetable"

_WORDS = re.compile(r"(\s+)")
_grapheme_pattern: Any = None


def graphemes(text: str) -> list[str]:
    """Split ``text`` into extended grapheme clusters (UAX #29).

    Examples
    --------
    >>> [len(g) for g in graphemes("Zoe\\u0308! \\U0001F1EB\\U0001F1F7")]
    [1, 1, 2, 1, 1, 2]
    """
    global _grapheme_pattern
    if _grapheme_pattern is None:
        try:
            import regex
        except ImportError:
            _grapheme_pattern = _without_regex()
        else:
            _grapheme_pattern = regex.compile(r"\X").findall
    return list(_grapheme_pattern(text))


def _without_regex() -> Any:
    """The pure-Python split, by the table an extension carries; without one, the
    ImportError that says how to install ``regex``."""
    try:
        table = importlib.import_module(TABLE_MODULE).RANGES
    except ImportError:
        raise ImportError(
            "shuffling text by grapheme needs the 'regex' package: pip install regex "
            "(in xlwings Lite, list regex in requirements.txt)"
        ) from None
    return Segmenter(table).split


def _parse_unit(unit: object) -> str:
    key = unit.strip().lower() if isinstance(unit, str) else unit
    if key in ("grapheme", "graphemes", "char", "chars", "character", "characters", "letters"):
        return "grapheme"
    if key in ("word", "words"):
        return "word"
    raise OptionError(f"unknown unit {unit!r}: use 'grapheme' or 'word'")


def shuffle_text(text: str, *, seed: object = None, unit: str = "grapheme") -> str:
    """Return ``text`` with its graphemes or its words in a random order.

    Parameters
    ----------
    text : str
        The text to jumble.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol.
    unit : {"grapheme", "word"}, optional
        ``"grapheme"`` (default) shuffles user-perceived characters, keeping accents,
        emoji and flags whole. ``"word"`` shuffles the runs of non-space characters and
        leaves every run of white space where it was.

    Returns
    -------
    str

    Raises
    ------
    OptionError
        For an unknown ``unit``.

    Examples
    --------
    >>> shuffle_text("ABCDEFGHIJ", seed="2026 raffle")
    'DJFECGAIHB'
    >>> shuffle_text("the quick brown fox", seed=42, unit="word")
    'the fox quick brown'
    """
    if not isinstance(text, str):
        raise OptionError(f"shuffle_text needs a str, not {type(text).__name__}")
    if _parse_unit(unit) == "grapheme":
        return "".join(shuffled(graphemes(text), seed=seed))
    parts = _WORDS.split(text)  # words at even indices, the white space between at odd
    words = [p for p in parts[0::2] if p]
    it = iter(shuffled(words, seed=seed))
    return "".join(p if (k % 2 or not p) else next(it) for k, p in enumerate(parts))
