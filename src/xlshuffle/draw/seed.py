"""A seed, normalised once: :class:`Seed`, the value every front end hands the engines.

A seed arrives as command-line text, an Excel cell (number, date, text) or a Python
argument; it leaves as the text a record keeps and the stream the draw reads. This module
is the one place that turns the first into the other two (the protocol's step 1 is
:func:`~xlshuffle.draw.protocol.normalise_seed`, which :class:`Seed` calls): the edges
take ``Seed.stream()`` and never build a :class:`~xlshuffle.draw.protocol.DrawStream`
from a seed of their own.

Protocol v1 hashes a text seed exactly as it is, white space included, so ``"2026 "`` and
``"2026"`` are two different draws. A seed copied from a web page or a spreadsheet cell
easily carries such a space; :meth:`Seed.typed` (the command line's reader) refuses one
at either end, and a control character anywhere, unless the caller says the seed is
meant exactly so (``exact=True``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .errors import SeedError
from .protocol import DrawStream, new_seed, normalise_seed

__all__ = ["Seed"]


@dataclass(frozen=True)
class Seed:
    """A seed of draw protocol v1, as the text that replays it.

    Parameters
    ----------
    text : str
        The seed's text as a record keeps it: a text seed as given, a number or a date as
        the text the protocol hashes (``42.0`` -> ``"42"``). Never empty.
    fresh : bool, optional
        True when no seed was given and this one was drawn from the operating system's
        random source (:func:`~xlshuffle.draw.protocol.new_seed`), so that the front end
        can say which seed to replay.

    Examples
    --------
    >>> Seed.given(42.0)
    Seed(text='42', fresh=False)
    >>> Seed.given("Spring fair").stream().randbelow(10) == Seed.given("Spring fair").stream(
    ... ).randbelow(10)
    True
    >>> Seed.given(None).fresh
    True
    """

    text: str
    fresh: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or self.text == "":
            raise SeedError("a Seed holds the seed's text: build one with Seed.given(value)")
        normalise_seed(self.text)  # refuses half a character, as the stream would

    @classmethod
    def given(cls, value: object) -> Seed:
        """The seed of ``value``: a text, a number, a date, a stream (its seed: the stream
        is drawn again from its start), or None/``""`` for a fresh one.

        Raises
        ------
        SeedError
            For a value the protocol refuses (booleans, NaN, infinities, other types).
        """
        if isinstance(value, Seed):
            return value
        if isinstance(value, DrawStream):
            return cls(value.seed_text)
        if value is None or value == "":
            return cls(new_seed(), fresh=True)
        if isinstance(value, str):
            return cls(value)  # checked by __post_init__
        return cls(normalise_seed(value).decode("utf-8"))

    @classmethod
    def typed(cls, text: str | None, *, option: str = "--seed", exact: bool = False) -> Seed:
        """The seed a person typed (``text``; None for a fresh one), refused when it
        starts or ends with white space or holds a control character, which a copied
        seed carries by accident and which gives another draw than the seed without it.

        Parameters
        ----------
        text : str or None
            What was typed after ``option``.
        option : str, optional
            The option's name, for the message.
        exact : bool, optional
            Take ``text`` as it is, spaces and all (the seed is meant so).

        Examples
        --------
        >>> Seed.typed("2026").text
        '2026'
        >>> Seed.typed("2026 ")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        xlshuffle.draw.errors.SeedError: --seed '2026 ' ends with a space, which makes it ...
        >>> Seed.typed("2026 ", exact=True).text
        '2026 '
        """
        if text is None:
            return cls(new_seed(), fresh=True)
        if text == "":
            raise SeedError(
                f"{option} is empty: give a seed text, or leave {option} out to draw a fresh one"
            )
        if not exact:
            problem = _accident(text)
            if problem:
                raise SeedError(
                    f"{option} {text!r} {problem}, which makes it another seed than "
                    f"{_cleaned(text)!r}: remove it, or add --exact-seed if the "
                    f"{'space' if 'space' in problem else 'character'} is part of the seed"
                )
        return cls.given(text)

    def needs_exact(self) -> bool:
        """Whether the command line takes this seed only with ``--exact-seed`` (it
        starts or ends with white space, or holds a control character)."""
        return bool(_accident(self.text))

    def stream(self) -> DrawStream:
        """A new stream of this seed, at its first word."""
        return DrawStream(self.text)

    def __str__(self) -> str:
        return self.text


def _accident(text: str) -> str:
    """What in ``text`` looks copied by accident, or ``""``."""
    for where, char in (("starts", text[0]), ("ends", text[-1])):
        if char.isspace():
            name = "a space" if char == " " else f"white space ({_name(char)})"
            return f"{where} with {name}"
    for char in text:
        if unicodedata.category(char) == "Cc":
            return f"holds a control character ({_name(char)})"
    return ""


def _cleaned(text: str) -> str:
    return "".join(c for c in text.strip() if unicodedata.category(c) != "Cc")


def _name(char: str) -> str:
    return unicodedata.name(char, f"U+{ord(char):04X}")
