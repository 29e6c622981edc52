"""High Card's env config."""

from __future__ import annotations

from dataclasses import dataclass, field

from boon_env.core.config import check_episode_and_render_mode
from tests.helpers.toy.rules import GameConfig


@dataclass(frozen=True)
class EnvConfig:
    """``num_players`` (2 or 3), ``episode`` and ``render_mode``."""

    num_players: int = 2
    episode: str = "round"
    max_rounds: int | None = None
    render_mode: str | None = None
    game: GameConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_episode_and_render_mode(self.episode, self.render_mode)
        object.__setattr__(self, "game", GameConfig(self.num_players, self.max_rounds))
