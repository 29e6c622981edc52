"""A whole game: rounds follow each other, the deal passing left, until someone runs out of
Victory Cards (or the configured round cap truncates the game)."""

from __future__ import annotations

from collections.abc import Sequence

from boon_env.core.game import RoundsGame
from boon_env.games.boon.rules.config import GameConfig
from boon_env.games.boon.rules.round import Deal, Round
from boon_env.games.boon.rules.scoring import Settlement, game_over, game_winners, settle


class Game(RoundsGame):
    """Victory Cards, the dealer and the round in play.

    ``apply`` advances the current round; when it ends, :meth:`apply` settles it and returns
    the :class:`Settlement`. The caller then either stops (``is_over``/``is_truncated``) or
    starts the next round with :meth:`next_round` and a new deal.
    """

    __slots__ = ("config", "dealer", "round", "rounds_played", "settlements", "victory_cards")

    def __init__(self, config: GameConfig, deal: Deal, dealer: int = 0) -> None:
        self.config = config
        self.victory_cards = [config.starting_victory_cards] * config.num_players
        self.dealer = dealer
        self.rounds_played = 0
        self.round = Round(config, deal, dealer)
        self.settlements: list[Settlement] = []

    def apply(self, action: int) -> Settlement | None:
        """Apply an action to the current round; settle and return the result if it ended."""
        self.round.apply(action)
        if not self.round.is_over:
            return None
        result = settle(self.round, self.victory_cards)
        self.victory_cards = list(result.victory_cards)
        self.rounds_played += 1
        self.settlements.append(result)
        return result

    @property
    def is_over(self) -> bool:
        """Whether the game ended under the rules (a player holds no Victory Cards)."""
        return game_over(self.victory_cards)

    @property
    def winners(self) -> list[int]:
        """Seats holding the most Victory Cards."""
        return game_winners(self.victory_cards)

    def next_dealer(self) -> int:
        """The deal passes left (clockwise) after every round."""
        return (self.dealer + 1) % self.config.num_players

    def next_round(self, deal: Deal) -> Round:
        """Start the next round with ``deal``, the next dealer dealing."""
        self._check_next_round_may_start()
        self.dealer = self.next_dealer()
        self.round = Round(self.config, deal, self.dealer)
        return self.round


def play_out(
    config: GameConfig, deals: Sequence[Deal], actions: Sequence[int], dealer: int = 0
) -> Game:
    """Replay a game from its deals (one per round) and the actions of all its rounds."""
    if not deals:
        raise ValueError("a game needs at least one deal")
    game = Game(config, deals[0], dealer)
    next_deal = 1
    for action in actions:
        if game.round.is_over:
            if next_deal >= len(deals):
                raise ValueError(f"actions go on past the {len(deals)} deals given")
            game.next_round(deals[next_deal])
            next_deal += 1
        game.apply(action)
    return game
