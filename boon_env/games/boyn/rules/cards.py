"""BOYN's cards: two standard decks, card kinds, names, points, and multisets of cards.

A card's **kind** is ``suit * 13 + (rank - 1)``, 0-51 (``RULES_BOYN.md``, "Cards"); the two
copies of a kind share the id. Suits: clubs 0, diamonds 1, hearts 2, spades 3. Ranks: Ace 1,
2-10, Jack 11, Queen 12, King 13.

A collection of cards (a hand) is an ``int``: bit ``k`` is set when it holds at least one card
of kind ``k``, and bit ``52 + k`` when it holds both copies. So ``hand & KINDS`` is the set of
kinds held, ``hand.bit_count()`` the number of cards, and a whole hand moves in one assignment.
"""

from __future__ import annotations

from collections.abc import Iterable

from boon_env.core.bits import bits_of

NUM_KINDS = 52
COPIES = 2
NUM_CARDS = NUM_KINDS * COPIES  # 104
KINDS = (1 << NUM_KINDS) - 1  # every kind, as a set of kinds

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
NUM_SUITS = 4
NUM_RANKS = 13
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")

SUIT_OF: tuple[int, ...] = tuple(kind // NUM_RANKS for kind in range(NUM_KINDS))
RANK_OF: tuple[int, ...] = tuple(kind % NUM_RANKS + 1 for kind in range(NUM_KINDS))


def kind_of(suit: int, rank: int) -> int:
    """The kind id of the card of ``suit`` (0-3) and ``rank`` (1-13)."""
    if type(suit) is not int or not 0 <= suit < NUM_SUITS:
        raise ValueError(f"suit must be 0-3 ({', '.join(SUIT_NAMES)}), got {suit!r}")
    if type(rank) is not int or not 1 <= rank <= NUM_RANKS:
        raise ValueError(f"rank must be 1-13 (ace 1, jack 11, queen 12, king 13), got {rank!r}")
    return suit * NUM_RANKS + rank - 1


# Sets of kinds (bit k = kind k) used by the play rules.
SUIT_KINDS: tuple[int, ...] = tuple(
    sum(1 << kind_of(suit, rank) for rank in range(1, NUM_RANKS + 1)) for suit in range(NUM_SUITS)
)
RANK_KINDS: tuple[int, ...] = (  # index 0 unused: ranks start at 1
    0,
    *(
        sum(1 << kind_of(suit, rank) for suit in range(NUM_SUITS))
        for rank in range(1, NUM_RANKS + 1)
    ),
)
RED_THREES = (1 << kind_of(DIAMONDS, 3)) | (1 << kind_of(HEARTS, 3))
JACKS = RANK_KINDS[JACK]
QUEENS = RANK_KINDS[QUEEN]
WILDS = JACKS | RED_THREES  # "may be played at any time, on anything"


def points_by_kind(red_three_points: int) -> tuple[int, ...]:
    """The points each kind counts against the hand holding it at the end of a round."""

    def points(kind: int) -> int:
        rank = RANK_OF[kind]
        if RED_THREES >> kind & 1:
            return red_three_points
        if rank in (10, KING):
            return 10
        if rank in (7, JACK, QUEEN, ACE):
            return 15
        return 5  # 2, black 3, 4, 5, 6, 8, 9

    return tuple(points(kind) for kind in range(NUM_KINDS))


# ----------------------------------------------------------------------------- names


def card_name(kind: int) -> str:
    """A person's name for a kind, e.g. ``card_name(15) == "3 of diamonds"``."""
    if type(kind) is not int or not 0 <= kind < NUM_KINDS:
        raise ValueError(f"card kind must be an integer 0-{NUM_KINDS - 1}, got {kind!r}")
    return f"{RANK_NAMES[RANK_OF[kind] - 1]} of {SUIT_NAMES[SUIT_OF[kind]]}"


def parse_suit(name: str) -> int:
    """The suit id of ``"clubs"``, ``"diamonds"``, ``"hearts"`` or ``"spades"``."""
    suit = name.strip().lower()
    if suit not in SUIT_NAMES:
        raise ValueError(f"not a suit: {name!r} (expected one of {', '.join(SUIT_NAMES)})")
    return SUIT_NAMES.index(suit)


def parse_card(name: str) -> int:
    """The kind id of a card written as ``"4 of spades"`` or ``"queen of hearts"``."""
    words = name.strip().lower().split()
    if len(words) != 3 or words[1] != "of" or words[0] not in RANK_NAMES:
        raise ValueError(
            f"not a card name: {name!r} (expected e.g. '4 of spades', 'ace of hearts')"
        )
    return kind_of(parse_suit(words[2]), RANK_NAMES.index(words[0]) + 1)


def parse_cards(names: str | Iterable[str]) -> list[int]:
    """Kind ids of several cards: a list of names, or one string of names separated by commas."""
    if isinstance(names, str):
        names = [part for part in names.split(",") if part.strip()]
    return [parse_card(name) for name in names]


# ----------------------------------------------------------------------------- multisets


def add_card(hand: int, kind: int) -> int:
    """``hand`` with one more card of ``kind`` (a hand never holds more than two of a kind)."""
    bit = 1 << kind
    return hand | (bit << NUM_KINDS if hand & bit else bit)


def remove_card(hand: int, kind: int) -> int:
    """``hand`` with one card of ``kind`` fewer (the caller checks that it holds one)."""
    second = 1 << (kind + NUM_KINDS)
    return hand ^ second if hand & second else hand ^ (1 << kind)


def hand_of(kinds: Iterable[int]) -> int:
    """The multiset of a collection of kind ids."""
    hand = 0
    for kind in kinds:
        hand = add_card(hand, kind)
    return hand


def count_of(hand: int, kind: int) -> int:
    """How many cards of ``kind`` (0, 1 or 2) ``hand`` holds."""
    return (hand >> kind & 1) + (hand >> (kind + NUM_KINDS) & 1)


def kinds_of(hand: int) -> list[int]:
    """The kind ids of a hand, ascending, each as often as it is held."""
    return sorted(bits_of(hand & KINDS) + bits_of(hand >> NUM_KINDS))


def names_of(hand: int) -> list[str]:
    """Card names of a hand, ascending by kind, each as often as it is held."""
    return [card_name(kind) for kind in kinds_of(hand)]


def points_of(hand: int, points: tuple[int, ...]) -> int:
    """The points of a hand, given the points of each kind (:func:`points_by_kind`)."""
    return sum(points[kind] for kind in kinds_of(hand))
