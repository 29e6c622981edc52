"""The one configuration object of a Boon game, validated on construction."""

from __future__ import annotations

from dataclasses import dataclass, field

from boon_env.games.boon.rules.cards import FULL_DECK, GREEN, RED, card_id

# players -> (hand size, Boon size, cards removed from the deck); RULES.md "Players, deal".
_TABLE: dict[int, tuple[int, int, tuple[int, ...]]] = {
    3: (9, 3, (card_id(GREEN, 1), card_id(RED, 1))),
    4: (7, 4, ()),
    5: (6, 2, ()),
}
PLAYER_COUNTS = tuple(_TABLE)
MAX_PLAYERS = max(PLAYER_COUNTS)


@dataclass(frozen=True)
class GameConfig:
    """Rules parameters of one game.

    Attributes:
        num_players: 3, 4 or 5 seats.
        starting_victory_cards: Victory Cards each player holds when the game starts (>= 1).
        max_rounds: cap on the rounds of a game (a truncation, not a rules ending); ``None``
            plays until a player runs out of Victory Cards.
    """

    num_players: int = 4
    starting_victory_cards: int = 5
    max_rounds: int | None = None
    hand_size: int = field(init=False)
    boon_size: int = field(init=False)
    deck: int = field(init=False)

    def __post_init__(self) -> None:
        if type(self.num_players) is not int or self.num_players not in _TABLE:
            raise ValueError(
                f"num_players must be one of {PLAYER_COUNTS}, got {self.num_players!r}"
            )
        if type(self.starting_victory_cards) is not int or self.starting_victory_cards < 1:
            raise ValueError(
                "starting_victory_cards must be an integer >= 1, "
                f"got {self.starting_victory_cards!r}"
            )
        if self.max_rounds is not None and (
            type(self.max_rounds) is not int or self.max_rounds < 1
        ):
            raise ValueError(f"max_rounds must be None or an integer >= 1, got {self.max_rounds!r}")
        hand_size, boon_size, removed = _TABLE[self.num_players]
        deck = FULL_DECK
        for card in removed:
            deck &= ~(1 << card)
        object.__setattr__(self, "hand_size", hand_size)
        object.__setattr__(self, "boon_size", boon_size)
        object.__setattr__(self, "deck", deck)

    @property
    def num_tricks(self) -> int:
        """Tricks in a round (= hand size)."""
        return self.hand_size
