"""The rules of B.O.N, one function per rule, in the order of ``RULES_BON.md``.

Pure functions of cards (:mod:`boon_env.games.bon.rules.cards`), seats and the colour tower (a tuple
of the three colours, strongest first). :mod:`boon_env.games.bon.rules.round` keeps the state of a
round and a game and calls these for every decision the rules make.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from boon_env.games.bon.rules.cards import (
    COLOUR_MASK,
    COLOUR_NAMES,
    COLOUR_OF,
    COLOURS,
    NUMBERS,
    PASS,
)

# ------------------------------------------------------------------------ players and the deck
# players -> (numbers used, Pass cards, trick goal)
_TABLE: dict[int, tuple[int, int, int]] = {3: (7, 2, 3), 4: (9, 3, 2), 5: (11, 4, 1)}
PLAYER_COUNTS = tuple(_TABLE)
MAX_PLAYERS = max(PLAYER_COUNTS)
HAND_SIZE = 7  # every player is dealt 7 cards
NUM_LEFTOVERS = 2  # the other two are the leftovers, out of play for the round
NUM_TRICKS = 7  # a round has exactly 7 tricks
MAX_PASS_CARDS = max(passes for _, passes, _ in _TABLE.values())


@dataclass(frozen=True)
class GameConfig:
    """The table and the game's parameters.

    Attributes:
        num_players: 3, 4 or 5 seats.
        target_score: the game ends after a round at whose end a score is at or above it.
        max_rounds: cap on the rounds of a game (a truncation, not a rules ending); ``None``
            plays until the target is reached.
        numbers: Boast cards numbered 1 to this are used (7, 9 or 11).
        pass_cards: Pass cards in the deck (2, 3 or 4: one fewer than players).
        trick_goal: the exact number of tricks that scores 1 point (3, 2 or 1).
        deck: bitmask of the Boast cards in the deck.
    """

    num_players: int = 4
    target_score: int = 5
    max_rounds: int | None = None
    numbers: int = field(init=False)
    pass_cards: int = field(init=False)
    trick_goal: int = field(init=False)
    deck: int = field(init=False)

    def __post_init__(self) -> None:
        if type(self.num_players) is not int or self.num_players not in _TABLE:
            raise ValueError(
                f"num_players must be one of {PLAYER_COUNTS}, got {self.num_players!r}"
            )
        if type(self.target_score) is not int or self.target_score < 1:
            raise ValueError(f"target_score must be an integer >= 1, got {self.target_score!r}")
        if self.max_rounds is not None and (
            type(self.max_rounds) is not int or self.max_rounds < 1
        ):
            raise ValueError(f"max_rounds must be None or an integer >= 1, got {self.max_rounds!r}")
        numbers, pass_cards, trick_goal = _TABLE[self.num_players]
        deck = 0
        for colour in COLOURS:  # numbers 1 .. `numbers` of each colour
            deck |= ((1 << numbers) - 1) << (colour * NUMBERS)
        object.__setattr__(self, "numbers", numbers)
        object.__setattr__(self, "pass_cards", pass_cards)
        object.__setattr__(self, "trick_goal", trick_goal)
        object.__setattr__(self, "deck", deck)


# ----------------------------------------------------------------------------- the colour tower
def random_tower(rng: np.random.Generator) -> tuple[int, ...]:
    """At the start of a game the tower is arranged at random."""
    return tuple(rng.permutation(len(COLOURS)).tolist())


def check_tower(tower: object) -> tuple[int, ...]:
    """The tower as a tuple; ``ValueError`` unless it lists each colour once, top first."""
    if (
        not isinstance(tower, (list, tuple))
        or len(tower) != len(COLOURS)
        or any(type(colour) is not int for colour in tower)
        or sorted(tower) != list(COLOURS)
    ):
        names = ", ".join(f"{c} ({name})" for c, name in zip(COLOURS, COLOUR_NAMES, strict=True))
        raise ValueError(f"the tower must list the colours {names} once each, got {tower!r}")
    return tuple(tower)


def tower_after_trick(tower: tuple[int, ...], winning_colour: int) -> tuple[int, ...]:
    """After every trick the winning card's colour moves to the bottom of the tower; the other
    two keep their order."""
    return (*[colour for colour in tower if colour != winning_colour], winning_colour)


# ------------------------------------------------------------------------ leading and following
def first_leader_of_next_round(first_leader: int, num_players: int) -> int:
    """In each later round the first leader is the seat left of the previous first leader."""
    return (first_leader + 1) % num_players


def prime_colour(trick: Sequence[int]) -> int | None:
    """The colour of the first Boast card played in the trick (a Pass lead leaves it to the
    next Boast card); ``None`` while there is none."""
    for card in trick:
        if card != PASS:
            return COLOUR_OF[card]
    return None


def legal_plays(hand: int, passes: int, prime: int | None) -> int:
    """Bitmask of the action ids a player holding ``hand`` and ``passes`` Pass cards may play.

    Once the trick has a prime colour, a player holding that colour must play it (or a Pass
    card); a player holding none of it, or any player before there is a prime colour, may play
    any card. A Pass card may be played at any time.
    """
    following = hand & COLOUR_MASK[prime] if prime is not None else 0
    allowed = following or hand
    return allowed | (1 << PASS) if passes else allowed


# -------------------------------------------------------------------------- who wins a trick
def trick_winner(trick: Sequence[int], tower: Sequence[int]) -> int:
    """Index, in play order, of the card that wins a complete trick.

    Pass cards never win. Among the Boast cards, the highest number of the colour that stands
    highest in the tower wins; the prime colour itself gives no priority.
    """
    boast = 0  # the Boast cards played, as a bitmask: ids order the numbers within a colour
    for card in trick:
        if card != PASS:
            boast |= 1 << card
    for colour in tower:  # strongest first
        of_colour = boast & COLOUR_MASK[colour]
        if of_colour:
            return trick.index(of_colour.bit_length() - 1)
    raise ValueError(f"a trick holds at least one Boast card, got {list(trick)}")


# --------------------------------------------------------------------------- scoring a round
def points_for_tricks(tricks: int, trick_goal: int) -> int:
    """Exactly the trick goal scores 1 point, zero tricks score 2, any other number 0."""
    if tricks == trick_goal:
        return 1
    if tricks == 0:
        return 2
    return 0


def round_points(tricks_won: Sequence[int], trick_goal: int) -> tuple[int, ...]:
    """Each seat's points for a round from the tricks it won."""
    return tuple(points_for_tricks(tricks, trick_goal) for tricks in tricks_won)


# ---------------------------------------------------------------------------- end of the game
def game_over(scores: Sequence[int], target_score: int) -> bool:
    """The game ends after the first round at whose end a score is at or above the target."""
    return max(scores) >= target_score


def game_winners(
    scores: Sequence[int], target_score: int, tower: Sequence[int], taken: Sequence[int]
) -> list[int]:
    """The winners of a finished game (several only when they share the win).

    All seats at or above the target are contenders, whatever their exact scores. Between
    several, the one who took (in the tricks it won in the last round; ``taken`` is a Boast-card
    bitmask per seat) the most cards of the colour on top of the tower at the end of the last
    round wins; still tied, the most cards of the second colour; still tied, they share the win.
    """
    contenders = [seat for seat, score in enumerate(scores) if score >= target_score]
    for colour in tower[:2]:
        if len(contenders) <= 1:
            break
        counts = {seat: (taken[seat] & COLOUR_MASK[colour]).bit_count() for seat in contenders}
        most = max(counts.values())
        contenders = [seat for seat in contenders if counts[seat] == most]
    return contenders
