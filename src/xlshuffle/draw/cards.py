"""Playing cards: a canonical deck and round-robin deals to several hands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .errors import OptionError, SizeError
from .knuth import check_count, deal

__all__ = ["RANKS", "SUITS", "deal_hands", "standard_deck"]

T = TypeVar("T")

#: Suits in canonical deck order.
SUITS = ("\u2663", "\u2666", "\u2665", "\u2660")  # ♣ ♦ ♥ ♠
#: Ranks in canonical order within each suit.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "Joker"
#: The most cards :func:`standard_deck` stacks (20,164 plain decks), so a typo in
#: ``decks`` is an error, not gigabytes of memory.
MAX_STACK = 1 << 20
#: The largest numbered deck: every card 1..N is an exact number in Excel too.
MAX_NUMBERED = 1 << 53


def standard_deck(*, jokers: int = 0, decks: int = 1) -> list[str]:
    """Return a deck of cards in canonical order.

    The order is fixed, because a seeded deal is a permutation *of this order*: suits
    ♣ ♦ ♥ ♠, ranks A 2 3 4 5 6 7 8 9 10 J Q K within each suit, then the jokers; with
    several decks, whole decks follow one another.

    Parameters
    ----------
    jokers : int, optional
        Jokers added to each deck (labelled ``"Joker"``), 0 by default.
    decks : int, optional
        How many decks to stack (a six-deck blackjack shoe: ``decks=6``).

    Examples
    --------
    >>> deck = standard_deck()
    >>> len(deck), deck[:3], deck[-1]
    (52, ['A♣', '2♣', '3♣'], 'K♠')
    """
    jokers = check_count("jokers", jokers)
    decks = check_count("decks", decks)
    if (52 + jokers) * decks > MAX_STACK:
        raise SizeError(
            f"{decks} deck{'s' if decks != 1 else ''} of {52 + jokers} cards "
            f"make{'s' if decks == 1 else ''} more than {MAX_STACK:,} cards: use fewer decks "
            "or jokers (or a numbered deck: --deck N, deck=N)"
        )
    one = [rank + suit for suit in SUITS for rank in RANKS] + [JOKER] * jokers
    return one * decks


def deal_hands(
    cards: int,
    hands: int = 1,
    *,
    seed: object = None,
    deck: int | Sequence[T] | None = None,
    jokers: int = 0,
    decks: int = 1,
) -> list[list[T]] | list[list[str]] | list[list[int]]:
    """Deal ``cards`` cards to each of ``hands`` players, round robin.

    The deck is shuffled by the draw protocol and dealt as at a table: hand ``h`` gets
    the shuffled deck's positions ``h, h + hands, h + 2*hands, ...``. Only the prefix
    that is dealt is drawn, so the deal equals the first ``cards * hands`` cards of the
    full shuffle with the same seed.

    Parameters
    ----------
    cards : int
        Cards per hand.
    hands : int, optional
        Number of hands (players), 1 by default.
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol.
    deck : int or sequence, optional
        ``None`` (default): :func:`standard_deck` with ``jokers`` and ``decks``. An int
        ``N``: the numbers ``1 .. N`` (bingo balls, raffle tickets). A sequence: its
        items, in the given order.
    jokers, decks : int, optional
        Passed to :func:`standard_deck` when ``deck`` is None.

    Returns
    -------
    list of lists
        One list per hand, each in the order its cards were dealt.

    Raises
    ------
    SizeError
        If ``cards * hands`` is more than the deck holds.

    Examples
    --------
    >>> deal_hands(2, 3, seed="xlshuffle")
    [['2♣', '8♦'], ['3♠', '6♣'], ['J♥', '4♦']]
    """
    cards = check_count("cards", cards)
    hands = check_count("hands", hands)
    if hands < 1:
        raise SizeError("hands must be at least 1")
    pool: Sequence[object]
    if deck is None:
        pool = standard_deck(jokers=jokers, decks=decks)
    elif isinstance(deck, int):
        if isinstance(deck, bool):
            raise OptionError("deck must be a number of cards or a list, not TRUE/FALSE")
        size = check_count("deck", deck)
        if size > MAX_NUMBERED:
            raise SizeError(f"deck must be at most 2**53 = {MAX_NUMBERED:,} cards, not {size:,}")
        pool = range(1, size + 1)
    else:
        pool = deck
    need = cards * hands
    if need > len(pool):
        raise SizeError(
            f"cannot deal {cards} card{'s' if cards != 1 else ''} to {hands} "
            f"hand{'s' if hands != 1 else ''}: that needs {need} cards and the deck has "
            f"{len(pool)}; deal fewer cards or hands, or use more decks"
        )
    dealt = deal(pool, need, seed=seed)
    return [dealt[h::hands] for h in range(hands)]  # type: ignore[return-value]
