"""Boon helpers: build rounds from readable card names, play them, check invariants; scripted
deals the tests share."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from boon_env.games.boon.rules import (
    PASS,
    PICK,
    Deal,
    GameConfig,
    Round,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
)

# ----------------------------------------------------------------------------- card names


def cards(names: str) -> list[int]:
    """Card ids of ``"gold 14, red 5"``."""
    return parse_cards(names)


def mask(names: str) -> int:
    """The bitmask of ``"gold 14, red 5"``."""
    return mask_of(parse_cards(names))


def action(name: str) -> int:
    """The action id of ``"pick"``, ``"pass"`` or a card name."""
    name = name.strip().lower()
    if name == "pick":
        return PICK
    if name == "pass":
        return PASS
    return parse_card(name)


def actions(moves: str) -> list[int]:
    """Action ids of ``"pass, pick, gold 14"`` (comma separated)."""
    return [action(move) for move in moves.split(",") if move.strip()]


def make_deal(config: GameConfig, hands: Sequence[str], boon: str) -> Deal:
    """A deal from one string of card names per seat and one for the Boon."""
    return Deal.from_cards(config, [cards(hand) for hand in hands], cards(boon))


def make_round(config: GameConfig, hands: Sequence[str], boon: str, dealer: int = 0) -> Round:
    """A fresh round of the deal written in card names."""
    return Round(config, make_deal(config, hands, boon), dealer)


def play(state: Round, moves: str) -> Round:
    """Apply the comma-separated moves (``"pass, pick, gold 14"``) in order; returns ``state``."""
    for move in actions(moves):
        state.apply(move)
    return state


def play_lowest(state: Round) -> Round:
    """Finish the round, every player choosing its lowest legal action id."""
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    return state


# ----------------------------------------------------------------------------- invariants


def card_places(state: Round) -> list[int]:
    """Every place a card can be, as bitmasks: hands, the Boon while it is a place of its own
    (before anyone picks, and in a Leaster), the discards, the current trick, won tricks."""
    boon = state.boon if state.picker is None else 0
    won = [mask_of(trick.cards) for trick in state.tricks]
    return [*state.hands, boon, state.discards, mask_of(state.trick), *won]


def assert_cards_partition_deck(state: Round) -> None:
    """Each card of the deck is in exactly one place."""
    seen = 0
    for place in card_places(state):
        assert not seen & place, f"cards {cards_of(seen & place)} are in two places: {state!r}"
        seen |= place
    assert seen == state.config.deck, f"cards {cards_of(state.config.deck ^ seen)} are missing"


def random_walk(state: Round, rng: np.random.Generator) -> Iterator[Round]:
    """Yield the state before every action, then the finished state; moves drawn from ``rng``."""
    while not state.is_over:
        yield state
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    yield state


def snapshot(state: Round) -> dict[str, object]:
    """Every slot of a round as plain, comparable values."""
    return {
        name: list(value) if isinstance(value, list) else value
        for name in Round.__slots__
        for value in [getattr(state, name)]
    }


# Seat 3 holds the five top golds; seat 0 the low greens and golds; a Leaster on this deal
# lets two players take one pointless trick each.
LEASTER_HANDS = (
    "green 1, green 3, green 4, green 5, gold 1, gold 2, gold 3",
    "green 2, red 1, red 3, red 4, blue 4, gold 4, gold 5",
    "blue 1, red 2, red 5, red 6, blue 5, blue 6, gold 6",
    "blue 2, blue 3, gold 10, gold 11, gold 12, gold 13, gold 14",
)
LEASTER_BOON = "green 6, gold 7, gold 8, gold 9"  # 17 points


# Seat 0 holds gold 8-14 and wins every trick it leads.
SWEEP_HANDS = (
    "gold 8, gold 9, gold 10, gold 11, gold 12, gold 13, gold 14",
    "gold 1, gold 2, gold 3, green 1, green 2, green 3, green 4",
    "gold 4, gold 5, red 1, red 2, red 3, red 4, red 5",
    "gold 6, gold 7, blue 1, blue 2, blue 3, blue 4, blue 5",
)
SWEEP_BOON = "green 5, green 6, red 6, blue 6"  # 43 points


# Seat 0 keeps gold 1-7 and seat 1 holds gold 8-14: the picker takes no trick at all and
# scores only what it buried.
def _buried_only_deal(boon: str, seat3: str) -> tuple[tuple[str, ...], str]:
    hands = (
        "gold 1, gold 2, gold 3, gold 4, gold 5, gold 6, gold 7",
        "gold 8, gold 9, gold 10, gold 11, gold 12, gold 13, gold 14",
        "green 1, green 2, green 3, green 5, red 1, red 2, red 3",
        seat3,
    )
    return hands, boon


BURY_29 = _buried_only_deal(
    "green 6, red 5, green 4, red 4", "red 6, blue 1, blue 2, blue 3, blue 4, blue 5, blue 6"
)
BURY_30 = _buried_only_deal(
    "green 6, red 6, green 4, red 4", "red 5, blue 1, blue 2, blue 3, blue 4, blue 5, blue 6"
)
