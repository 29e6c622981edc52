"""What a player sees in a hand before deciding: the interpretable features the studies fit on.

| feature | meaning |
| --- | --- |
| ``gold`` | gold (trump) cards held |
| ``top_gold`` | gold cards of rank 11-14, the four strongest cards of the deck |
| ``gold_14`` .. ``gold_11`` | 1 if that top gold card is held |
| ``aces`` | plain aces (rank 6, 11 points) |
| ``tens`` | plain rank-5 cards (10 points, Sheepshead's tens) |
| ``voids`` | plain suits the hand holds no card of |
| ``points`` | card points in the hand |
| ``order`` | position in the pick order: 0 decides first, n - 1 is the dealer |
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boon_env.games.boon.rules import (
    GOLD,
    GOLD_MASK,
    RANK_OF,
    SUIT_MASK,
    card_id,
    cards_of,
    points_of,
)

FEATURES = (
    "gold",
    "top_gold",
    "gold_14",
    "gold_13",
    "gold_12",
    "gold_11",
    "aces",
    "tens",
    "voids",
    "points",
    "order",
)
PLAIN_SUITS = tuple(suit for suit in range(4) if suit != GOLD)
_ACE, _TEN = 6, 5  # plain ranks worth 11 and 10 points
_TOP_GOLD = tuple(card_id(GOLD, rank) for rank in (14, 13, 12, 11))


def hand_features(hand: int, order: int) -> dict[str, int]:
    """The :data:`FEATURES` of a hand (a card bitmask) at pick position ``order``."""
    plain = cards_of(hand & ~GOLD_MASK)
    held = [hand >> card & 1 for card in _TOP_GOLD]
    return {
        "gold": (hand & GOLD_MASK).bit_count(),
        "top_gold": sum(held),
        "gold_14": held[0],
        "gold_13": held[1],
        "gold_12": held[2],
        "gold_11": held[3],
        "aces": sum(1 for card in plain if RANK_OF[card] == _ACE),
        "tens": sum(1 for card in plain if RANK_OF[card] == _TEN),
        "voids": sum(1 for suit in PLAIN_SUITS if not hand & SUIT_MASK[suit]),
        "points": points_of(hand),
        "order": order,
    }


def feature_matrix(hands: Sequence[int], orders: Sequence[int]) -> np.ndarray:
    """(len(hands), len(FEATURES)) integer matrix of :func:`hand_features`, columns in the
    order of :data:`FEATURES`."""
    rows = [hand_features(hand, order) for hand, order in zip(hands, orders, strict=True)]
    return np.array([[row[name] for name in FEATURES] for row in rows], dtype=np.int64).reshape(
        -1, len(FEATURES)
    )


def half_the_trump(gold: np.ndarray, hand_size: int) -> np.ndarray:
    """The common advice: pick with half or more of the hand in trump (``2 * gold >= size``)."""
    return 2 * np.asarray(gold) >= hand_size
