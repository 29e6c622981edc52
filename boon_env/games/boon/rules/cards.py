"""Cards, suits, points and card sets as bitmasks.

A card is its canonical id (``RULES.md``): green 1-6 = 0-5, red 1-6 = 6-11, blue 1-6 = 12-17,
gold 1-14 = 18-31. Within a suit a higher id is a higher rank, and every gold id is above every
plain id, so "the strongest card of a set" is simply its highest id. A set of cards is an ``int``
whose bit ``c`` is set when card ``c`` is in the set.
"""

from __future__ import annotations

from collections.abc import Iterable

from boon_env.core.bits import bits_of
from boon_env.core.bits import mask_of as mask_of  # part of this module's API

NUM_CARDS = 32

GREEN, RED, BLUE, GOLD = 0, 1, 2, 3
SUIT_NAMES = ("green", "red", "blue", "gold")
NUM_SUITS = 4
_SUIT_FIRST = (0, 6, 12, 18)
_SUIT_SIZE = (6, 6, 6, 14)

# Printed point values by rank (index 0 = rank 1). Plain suits use the first six entries.
_POINTS_BY_RANK = (0, 0, 0, 4, 10, 11, 2, 2, 2, 2, 3, 3, 3, 3)

SUIT_OF: tuple[int, ...] = tuple(suit for suit in range(NUM_SUITS) for _ in range(_SUIT_SIZE[suit]))
RANK_OF: tuple[int, ...] = tuple(
    rank for suit in range(NUM_SUITS) for rank in range(1, _SUIT_SIZE[suit] + 1)
)
POINTS: tuple[int, ...] = tuple(_POINTS_BY_RANK[rank - 1] for rank in RANK_OF)

SUIT_MASK: tuple[int, ...] = tuple(
    ((1 << _SUIT_SIZE[suit]) - 1) << _SUIT_FIRST[suit] for suit in range(NUM_SUITS)
)
GOLD_MASK = SUIT_MASK[GOLD]
FULL_DECK = (1 << NUM_CARDS) - 1
TOTAL_POINTS = 120


def card_id(suit: int, rank: int) -> int:
    """The canonical id of the card of ``suit`` (0-3) and ``rank`` (1-6, or 1-14 for gold)."""
    if not 0 <= suit < NUM_SUITS:
        raise ValueError(f"suit must be 0-3 ({', '.join(SUIT_NAMES)}), got {suit!r}")
    if not 1 <= rank <= _SUIT_SIZE[suit]:
        raise ValueError(
            f"rank of a {SUIT_NAMES[suit]} card must be 1-{_SUIT_SIZE[suit]}, got {rank!r}"
        )
    return _SUIT_FIRST[suit] + rank - 1


def card_name(card: int) -> str:
    """A person's name for a card id, e.g. ``card_name(31) == "gold 14"``."""
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id must be 0-{NUM_CARDS - 1}, got {card!r}")
    return f"{SUIT_NAMES[SUIT_OF[card]]} {RANK_OF[card]}"


def parse_card(name: str) -> int:
    """The id of a card written as ``"gold 14"`` (case and extra spaces ignored)."""
    parts = name.strip().lower().split()
    if len(parts) != 2 or parts[0] not in SUIT_NAMES or not parts[1].isdigit():
        raise ValueError(f"not a card name: {name!r} (expected e.g. 'gold 14' or 'red 5')")
    return card_id(SUIT_NAMES.index(parts[0]), int(parts[1]))


def parse_cards(names: str | Iterable[str]) -> list[int]:
    """Ids of several cards: a list of names, or one string with names separated by commas."""
    if isinstance(names, str):
        names = [part for part in names.split(",") if part.strip()]
    return [parse_card(name) for name in names]


def cards_of(mask: int) -> tuple[int, ...]:
    """The card ids in a bitmask, ascending (bits above 31 are ignored)."""
    return bits_of(mask & FULL_DECK)


def points_of(mask: int) -> int:
    """The total point value of the cards in a bitmask."""
    return sum(POINTS[card] for card in cards_of(mask))


def names_of(mask: int) -> list[str]:
    """Card names of a bitmask, ascending by id."""
    return [card_name(card) for card in cards_of(mask)]
