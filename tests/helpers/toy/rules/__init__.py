"""High Card's rules (numpy only): a round as a value plus :meth:`Round.apply`."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from boon_env.core.bits import bits_of

PLAYER_COUNTS = (2, 3)
NUM_CARDS = 6
HAND_SIZE = 2


@dataclass(frozen=True)
class GameConfig:
    """The table size (2 or 3) and a round cap for the env's game mode."""

    num_players: int = 2
    max_rounds: int | None = None

    def __post_init__(self) -> None:
        if self.num_players not in PLAYER_COUNTS:
            raise ValueError(f"num_players must be one of {PLAYER_COUNTS}, got {self.num_players}")


@dataclass
class Round:
    """Hands (bitmasks), the trick, tricks won and whose turn it is (-1 when over)."""

    hands: list[int]
    current: int
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card)
    tricks_won: list[int] = field(default_factory=list)
    history: list[int] = field(default_factory=list)  # every action, in order (replays it)

    def __post_init__(self) -> None:
        self.tricks_won = self.tricks_won or [0] * len(self.hands)

    @property
    def is_over(self) -> bool:
        """Whether every card has been played."""
        return self.current < 0

    def legal_mask(self) -> int:
        """Any card in the hand of the seat to act."""
        return 0 if self.is_over else self.hands[self.current]

    def apply(self, card: int) -> None:
        """Play ``card`` for the seat to act.

        Raises:
            ValueError: the card is not in its hand.
        """
        if self.is_over or not self.hands[self.current] >> card & 1:
            raise ValueError(f"illegal action {card} for seat {self.current}")
        self.hands[self.current] &= ~(1 << card)
        self.history.append(card)
        self.trick.append((self.current, card))
        n = len(self.hands)
        if len(self.trick) < n:
            self.current = (self.current + 1) % n
            return
        winner = max(self.trick, key=lambda played: played[1])[0]
        self.tricks_won[winner] += 1
        self.trick = []
        self.current = winner if any(self.hands) else -1

    def values(self) -> list[float]:
        """Each seat's tricks won less the mean of the others' (zero-sum)."""
        n, total = len(self.hands), sum(self.tricks_won)
        return [w - (total - w) / (n - 1) for w in self.tricks_won]


def card_name(card: int) -> str:
    """``"card 4"``: an action as people read it."""
    return f"card {card}"


def check_hands(num_players: int, hands: object) -> list[list[int]]:
    """``hands`` as card lists if they are a deal: ``num_players`` hands of ``HAND_SIZE``
    distinct cards 0-5, no card in two hands.

    Raises:
        ValueError: naming what is wrong.
    """
    if not isinstance(hands, (list, tuple)) or len(hands) != num_players:
        raise ValueError(f"hands must be {num_players} lists of {HAND_SIZE} cards, got {hands!r}")
    checked = []
    for seat, hand in enumerate(hands):
        if (
            not isinstance(hand, (list, tuple))
            or len(hand) != HAND_SIZE
            or not all(type(card) is int and 0 <= card < NUM_CARDS for card in hand)
        ):
            raise ValueError(
                f"hands[{seat}] must be {HAND_SIZE} cards 0-{NUM_CARDS - 1}, got {hand!r}"
            )
        checked.append(sorted(hand))
    cards = [card for hand in checked for card in hand]
    if len(set(cards)) != len(cards):
        raise ValueError(f"a card is dealt twice in {hands!r}")
    return checked


def random_hands(num_players: int, rng: np.random.Generator) -> list[list[int]]:
    """A deal: ``HAND_SIZE`` distinct cards per seat."""
    cards = rng.permutation(NUM_CARDS)[: num_players * HAND_SIZE].tolist()
    return [sorted(cards[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(num_players)]


@dataclass
class Game:
    """One round is the whole game (the protocol :class:`boon_env.core.env.CardGameEnv` drives)."""

    config: GameConfig
    round: Round
    rounds_played: int = 0

    def legal_actions(self) -> list[int]:
        """The cards the seat to act may play."""
        return [card for card in range(NUM_CARDS) if self.round.legal_mask() >> card & 1]

    def apply(self, card: int) -> list[float] | None:
        """Play a card; the round's values once it is over."""
        self.round.apply(card)
        if not self.round.is_over:
            return None
        self.rounds_played = 1
        return self.round.values()

    @property
    def is_over(self) -> bool:
        """Whether the round has been played."""
        return self.round.is_over

    is_truncated = False

    @property
    def winners(self) -> list[int]:
        """The seats with the most tricks."""
        best = max(self.round.tricks_won)
        return [s for s, w in enumerate(self.round.tricks_won) if w == best]


def new_game(config: GameConfig, hands: list[list[int]], leader: int) -> Game:
    """A game dealt ``hands`` (card lists), ``leader`` to play first."""
    return Game(config, Round([sum(1 << c for c in hand) for hand in hands], leader))


__all__ = [
    "HAND_SIZE",
    "NUM_CARDS",
    "PLAYER_COUNTS",
    "Game",
    "GameConfig",
    "Round",
    "bits_of",
    "card_name",
    "check_hands",
    "new_game",
    "random_hands",
]
