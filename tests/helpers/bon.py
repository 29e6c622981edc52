"""Helpers for the B.O.N tests: deals, towers and moves written in readable card names."""

from __future__ import annotations

from collections.abc import Sequence

from boon_env.games.bon.rules import (
    COLOUR_NAMES,
    Deal,
    Game,
    GameConfig,
    Round,
    parse_cards,
)


def cards(names: str) -> list[int]:
    """Card ids of ``"red 8, blue 1, pass"``."""
    return parse_cards(names)


def tower(names: str) -> tuple[int, ...]:
    """The tower ``"blue, red, yellow"`` (top first) as colour ids."""
    return tuple(COLOUR_NAMES.index(name.strip()) for name in names.split(","))


def make_deal(config: GameConfig, hands: Sequence[str], leftovers: str) -> Deal:
    """A deal from one string of card names per seat and one for the leftovers."""
    return Deal.from_cards(config, [cards(hand) for hand in hands], cards(leftovers))


def make_round(
    hands: Sequence[str], leftovers: str, top_first: str, leader: int = 0, target: int = 5
) -> Round:
    """A fresh round of the deal written in card names, at the table its hand count implies."""
    config = GameConfig(num_players=len(hands), target_score=target)
    return Round(config, make_deal(config, hands, leftovers), tower(top_first), leader)


def play(state: Round, moves: str) -> Round:
    """Play the comma-separated cards (``"red 8, pass, blue 1"``) in order; returns ``state``."""
    for card in cards(moves):
        state.apply(card)
    return state


def deal_option(deal: Deal) -> dict[str, list]:
    """The ``bon_v0`` reset option that deals ``deal``."""
    hands, leftovers = deal.card_lists()
    return {"hands": hands, "leftovers": leftovers}


# The seed's example deal at 4 players (numbers 1-9, 3 Pass cards): Bill (seat 0) leads red 8,
# Sue (1) follows red 3, Julie (2, no red) plays blue 1, Greg (3, no red) yellow 9.
SEED_HANDS = (
    "red 8, red 9, red 1, yellow 1, yellow 2, blue 9, pass",
    "red 3, red 2, red 4, red 5, yellow 3, blue 2, pass",
    "blue 1, blue 3, blue 4, blue 5, yellow 4, yellow 5, yellow 6",
    "yellow 9, yellow 7, yellow 8, blue 6, blue 7, blue 8, pass",
)
SEED_LEFTOVERS = "red 6, red 7"

# Full rounds, every card named: (hands, leftovers, tower, first leader, tricks, tricks won,
# round points). At 3 players the goal is 3 tricks, at 4 two, at 5 one; zero tricks score 2.
SCRIPTED_ROUNDS = {
    3: (
        (
            "red 3, red 5, red 6, yellow 3, yellow 6, blue 3, blue 5",
            "red 4, red 7, yellow 4, yellow 5, yellow 7, blue 2, blue 4",
            "pass, pass, red 1, red 2, yellow 1, yellow 2, blue 1",
        ),
        "blue 6, blue 7",
        "red, yellow, blue",
        0,
        (
            "blue 3, blue 4, pass",  # won by 1
            "red 7, red 1, red 3",  # 1
            "red 4, red 2, red 5",  # 0
            "blue 5, blue 2, pass",  # 0
            "yellow 6, yellow 5, yellow 2",  # 0
            "yellow 3, yellow 7, yellow 1",  # 1
            "yellow 4, blue 1, red 6",  # 0: red 6, off-colour, with red on top
        ),
        [4, 3, 0],
        [0, 1, 2],
    ),
    4: (
        SEED_HANDS,
        SEED_LEFTOVERS,
        "blue, red, yellow",
        0,
        (
            "pass, red 5, blue 1, pass",  # 2: a Pass lead, then blue (on top) beats red
            "blue 3, blue 6, blue 9, blue 2",  # 0
            "yellow 2, yellow 3, yellow 6, yellow 8",  # 3
            "yellow 9, yellow 1, pass, yellow 5",  # 3
            "blue 7, red 8, red 4, blue 5",  # 0
            "red 1, red 3, blue 4, yellow 7",  # 2
            "yellow 4, blue 8, red 9, red 2",  # 2
        ),
        [2, 0, 3, 2],
        [1, 2, 0, 1],
    ),
    5: (
        (
            "red 1, red 2, red 3, yellow 1, yellow 2, blue 1, pass",
            "red 4, red 5, red 6, yellow 3, yellow 4, blue 2, pass",
            "red 7, red 8, yellow 5, yellow 6, blue 3, blue 4, pass",
            "red 9, red 10, yellow 7, yellow 8, blue 5, blue 6, pass",
            "red 11, yellow 9, yellow 10, yellow 11, blue 7, blue 8, blue 9",
        ),
        "blue 10, blue 11",
        "yellow, blue, red",
        4,
        (
            "blue 8, pass, blue 2, pass, blue 6",  # 4
            "yellow 10, yellow 2, yellow 4, yellow 5, yellow 7",  # 4
            "blue 7, blue 1, red 6, blue 4, blue 5",  # 1: red on top now
            "pass, red 8, red 9, red 11, red 3",  # 4
            "yellow 9, yellow 1, yellow 3, yellow 6, yellow 8",  # 4
            "blue 9, red 2, red 4, blue 3, red 10",  # 4
            "yellow 11, red 1, red 5, red 7, pass",  # 2
        ),
        [0, 1, 1, 0, 5],
        [2, 1, 1, 2, 0],
    ),
}


def scripted_game(players: int, play: bool = True, **config: int) -> Game:
    """A game whose first round is ``SCRIPTED_ROUNDS[players]``, played out unless ``play`` is
    false; ``config`` sets other :class:`GameConfig` fields (``target_score``, ...)."""
    hands, leftovers, top_first, leader, tricks, _, _ = SCRIPTED_ROUNDS[players]
    game_config = GameConfig(num_players=players, **config)
    deal = make_deal(game_config, hands, leftovers)
    game = Game(game_config, deal, tower(top_first), leader)
    if play:
        for card in cards(", ".join(tricks)):
            game.apply(card)
    return game
