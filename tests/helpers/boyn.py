"""Helpers of the BOYN tests: deals and moves written in card names, and the card census."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boon_env.games.boyn.rules import Deal, GameConfig, Round, action_name, parse_action
from boon_env.games.boyn.rules.cards import COPIES, NUM_KINDS, count_of, hand_of, parse_cards

# Seat 0 holds both Queens of hearts, seat 2 the Queen of spades; on the 5 of hearts seat 0 may
# swap at once (scripted rules, leakage and agent tests share this deal).
QUEEN_HANDS = (
    "queen of hearts, queen of hearts, 9 of clubs, 10 of clubs, king of clubs, 4 of clubs, "
    "6 of clubs",
    "6 of hearts, 4 of diamonds, 6 of diamonds, 8 of diamonds, 9 of diamonds, 10 of diamonds, "
    "king of diamonds",
    "queen of spades, 4 of spades, 5 of spades, 6 of spades, 8 of spades, 9 of spades, "
    "10 of spades",
    "8 of hearts, 4 of diamonds, 6 of diamonds, 8 of diamonds, 9 of diamonds, 10 of diamonds, "
    "king of diamonds",
)


def cards(names: str) -> int:
    """The multiset (hand) of ``"4 of spades, jack of clubs"``."""
    return hand_of(parse_cards(names))


def make_deal(config: GameConfig, hands: Sequence[str], stock: str = "") -> Deal:
    """A deal with the given hands (seven card names each) and a stock that starts with the
    named cards, top first (the first is the starter), then every card left, ascending."""
    dealt = [parse_cards(hand) for hand in hands]
    top = parse_cards(stock)
    left = [COPIES] * NUM_KINDS
    for kind in [*top, *(kind for hand in dealt for kind in hand)]:
        left[kind] -= 1
    rest = [kind for kind in range(NUM_KINDS) for _ in range(left[kind])]
    return Deal.from_cards(config, dealt, top + rest)


def start(
    hands: Sequence[str], stock: str = "", dealer: int | None = None, seed: int = 0, **rules: Any
) -> Round:
    """A round of the deal in card names; the last seat deals unless ``dealer`` says, so that
    seat 0 plays first."""
    config = GameConfig(num_players=len(hands), **rules)
    seat = len(hands) - 1 if dealer is None else dealer
    return Round(config, make_deal(config, hands, stock), seat, np.random.default_rng(seed))


def play(state: Round, moves: str) -> Round:
    """Apply the comma-separated moves (``"4 of spades, jack of clubs naming hearts"``)."""
    for move in moves.split(","):
        if move.strip():
            state.apply(parse_action(move))
    return state


def legal_names(state: Round) -> list[str]:
    """The names of the legal actions, in id order."""
    return [action_name(action) for action in state.legal_actions()]


def assert_all_cards_present(state: Round) -> None:
    """Every kind is there exactly twice across the hands, the stock and the discard pile."""
    counts = [0] * NUM_KINDS
    for kind in state.stock:
        counts[kind] += 1
    for held in [*state.hands, state.discards]:
        for kind in range(NUM_KINDS):
            counts[kind] += count_of(held, kind)
    assert counts == [COPIES] * NUM_KINDS, f"card counts off: {counts} in {state!r}"
