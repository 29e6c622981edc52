"""B.O.N's cards: Boast cards of three colours numbered 1-11, and the Pass cards.

A Boast card's id is ``colour * 11 + (number - 1)`` with red = 0, yellow = 1, blue = 2, so red
1-11 = 0-10, yellow 1-11 = 11-21, blue 1-11 = 22-32; every Pass card is :data:`PASS` (33). Within
a colour a higher id is a higher number. A set of Boast cards is an ``int`` bitmask (bit ``c``
set when card ``c`` is in it); Pass cards, all alike, are counted instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from boon_env.core.bits import bits_of

RED, YELLOW, BLUE = 0, 1, 2
COLOURS = (RED, YELLOW, BLUE)
COLOUR_NAMES = ("red", "yellow", "blue")
NUMBERS = 11  # Boast cards of each colour, numbered 1-11
NUM_BOAST_CARDS = len(COLOURS) * NUMBERS  # 33
PASS = NUM_BOAST_CARDS  # the id of a Pass card (the action "play a Pass card")
NUM_ACTIONS = PASS + 1

COLOUR_OF: tuple[int, ...] = tuple(card // NUMBERS for card in range(NUM_BOAST_CARDS))
NUMBER_OF: tuple[int, ...] = tuple(card % NUMBERS + 1 for card in range(NUM_BOAST_CARDS))
COLOUR_MASK: tuple[int, ...] = tuple(
    ((1 << NUMBERS) - 1) << (colour * NUMBERS) for colour in COLOURS
)
ALL_BOAST_CARDS = (1 << NUM_BOAST_CARDS) - 1


def card_id(colour: int, number: int) -> int:
    """The id of the Boast card of ``colour`` (0-2) and ``number`` (1-11)."""
    if colour not in COLOURS:
        raise ValueError(f"colour must be 0-2 ({', '.join(COLOUR_NAMES)}), got {colour!r}")
    if not 1 <= number <= NUMBERS:
        raise ValueError(f"number must be 1-{NUMBERS}, got {number!r}")
    return colour * NUMBERS + number - 1


def card_name(card: int) -> str:
    """A person's name for a card id: ``"blue 11"``, or ``"pass"`` for a Pass card."""
    if card == PASS:
        return "pass"
    if not 0 <= card < NUM_BOAST_CARDS:
        raise ValueError(f"card id must be 0-{PASS}, got {card!r}")
    return f"{COLOUR_NAMES[COLOUR_OF[card]]} {NUMBER_OF[card]}"


def parse_card(name: str) -> int:
    """The id of a card written ``"red 8"`` or ``"pass"`` (case and extra spaces ignored)."""
    parts = name.strip().lower().split()
    if parts == ["pass"]:
        return PASS
    if len(parts) != 2 or parts[0] not in COLOUR_NAMES or not parts[1].isdigit():
        raise ValueError(f"not a card name: {name!r} (expected e.g. 'red 8', 'blue 1' or 'pass')")
    return card_id(COLOUR_NAMES.index(parts[0]), int(parts[1]))


def parse_cards(names: str | Iterable[str]) -> list[int]:
    """Ids of several cards: a list of names, or one string with names separated by commas."""
    if isinstance(names, str):
        names = [part for part in names.split(",") if part.strip()]
    return [parse_card(name) for name in names]


def boast_cards_of(mask: int) -> tuple[int, ...]:
    """The Boast card ids in a bitmask, ascending."""
    return bits_of(mask & ALL_BOAST_CARDS)


def names_of(mask: int, passes: int = 0) -> list[str]:
    """Names of the Boast cards of a bitmask, ascending, then ``passes`` times ``"pass"``."""
    return [card_name(card) for card in boast_cards_of(mask)] + ["pass"] * passes
