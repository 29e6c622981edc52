"""Configuration of the ``boyn_v0`` environment: one frozen, validated object."""

from __future__ import annotations

from dataclasses import dataclass, field

from boon_env.core.config import check_episode_and_render_mode
from boon_env.games.boyn.rules import GameConfig


@dataclass(frozen=True)
class EnvConfig:
    """Everything ``boyn_v0.env(**config)`` accepts.

    Attributes:
        num_players: 2 to 6.
        episode: ``"round"`` (one round per episode) or ``"game"`` (rounds until a total
            reaches ``game_limit``, or a round is truncated).
        draw_rule: ``"until_playable"`` or ``"one"``.
        red_three_points: what a red 3 left in hand counts.
        game_limit: the total that ends the game.
        max_turns: turns after which a round is truncated.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints).
        rules: the rules part (:class:`~boon_env.games.boyn.rules.GameConfig`), derived from the
        above.
    """

    num_players: int = 4
    episode: str = "round"
    draw_rule: str = "until_playable"
    red_three_points: int = 25
    game_limit: int = 250
    max_turns: int = 1000
    render_mode: str | None = None
    rules: GameConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_episode_and_render_mode(self.episode, self.render_mode)
        rules = GameConfig(
            num_players=self.num_players,
            draw_rule=self.draw_rule,
            red_three_points=self.red_three_points,
            game_limit=self.game_limit,
            max_turns=self.max_turns,
        )
        object.__setattr__(self, "rules", rules)


BoynEnvConfig = EnvConfig  # the name before the games shared one naming pattern
