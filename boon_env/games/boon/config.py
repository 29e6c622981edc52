"""Configuration of the ``boon_v0`` environment: one frozen, validated object."""

from __future__ import annotations

from dataclasses import dataclass, field

from boon_env.core.config import check_episode_and_render_mode
from boon_env.games.boon.rules import GameConfig


@dataclass(frozen=True)
class EnvConfig:
    """Everything ``boon_v0.env(**config)`` accepts.

    Attributes:
        num_players: 3, 4 or 5.
        episode: ``"round"`` (one round per episode) or ``"game"`` (rounds until a player holds
            no Victory Cards, or ``max_rounds``).
        starting_victory_cards: Victory Cards per player at the start of a game.
        max_rounds: in game mode, truncate after this many rounds (``None``: no cap).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints).
        game: the rules part (:class:`~boon_env.games.boon.rules.GameConfig`), derived from the
        above.
    """

    num_players: int = 4
    episode: str = "round"
    starting_victory_cards: int = 5
    max_rounds: int | None = None
    render_mode: str | None = None
    game: GameConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_episode_and_render_mode(self.episode, self.render_mode)
        # The rules part; GameConfig validates its own fields.
        game = GameConfig(
            num_players=self.num_players,
            starting_victory_cards=self.starting_victory_cards,
            max_rounds=self.max_rounds,
        )
        object.__setattr__(self, "game", game)
