"""High Card as a PettingZoo AEC env: :class:`boon_env.core.env.CardGameEnv`'s hooks only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from boon_env.core.env import (
    CardGameEnv,
    card_game_metadata,
    deal_option,
    env_function,
    seat_option,
)
from tests.helpers.toy.config import EnvConfig
from tests.helpers.toy.encoding import OBS_SIZE, encode
from tests.helpers.toy.rules import NUM_CARDS, Game, check_hands, new_game, random_hands


class raw_env(CardGameEnv):  # noqa: N801 - PettingZoo's naming convention
    """Reset options: ``{"deal": {"hands": [[card, card], ...]}, "leader": seat}``."""

    metadata: ClassVar[dict[str, Any]] = card_game_metadata("toy_v0")
    config_type = EnvConfig
    obs_size = OBS_SIZE
    num_actions = NUM_CARDS
    action_meaning = "a card 0-5"

    def _read_options(self, options: Mapping[str, Any]) -> Any:
        n = self.config.num_players
        hands = deal_option(options, ("hands",), lambda hands: check_hands(n, hands))
        return hands, seat_option(options, "leader", n)

    def _new_game(self, chosen: Any) -> Game:
        hands, leader = chosen
        leader, hands = self._seat_and_deal(leader, hands)
        return new_game(self.config.game, hands, leader)

    def _random_deal(self) -> list[list[int]]:
        return random_hands(self.config.num_players, self._rng)

    def _encode(self, seat: int) -> np.ndarray:
        return encode(self.game, seat)

    def _round_rewards(self, result: list[float]) -> list[float]:
        return result

    def _round_info(self, result: list[float]) -> dict[str, Any]:
        return {"value": list(result), "tricks_won": list(self.game.round.tricks_won)}

    def _render_text(self) -> str:
        return f"tricks won: {self.game.round.tricks_won}"


env = env_function(raw_env)
