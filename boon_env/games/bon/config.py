"""Configuration of the ``bon_v0`` environment: one frozen, validated object."""

from __future__ import annotations

from dataclasses import dataclass, field

from boon_env.core.config import check_episode_and_render_mode
from boon_env.games.bon.rules.tricks import GameConfig


@dataclass(frozen=True)
class EnvConfig:
    """Everything ``bon_v0.env(**config)`` accepts.

    Attributes:
        num_players: 3, 4 or 5.
        episode: ``"round"`` (one round per episode) or ``"game"`` (rounds until a score reaches
            ``target_score``, or ``max_rounds``).
        target_score: the score that ends a game.
        hidden_leftovers: the leftovers lie face down (the seed's advanced rule): nobody sees
            them. By default they lie face up, in every observation.
        max_rounds: in game mode, truncate after this many rounds (``None``: no cap).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints).
        game: the rules part (:class:`~boon_env.games.bon.rules.GameConfig`), derived from the
        above.
    """

    num_players: int = 4
    episode: str = "round"
    target_score: int = 5
    hidden_leftovers: bool = False
    max_rounds: int | None = None
    render_mode: str | None = None
    game: GameConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_episode_and_render_mode(self.episode, self.render_mode)
        if type(self.hidden_leftovers) is not bool:
            raise ValueError(
                f"hidden_leftovers must be True or False, got {self.hidden_leftovers!r}"
            )
        # The rules part; GameConfig validates its own fields.
        game = GameConfig(
            num_players=self.num_players,
            target_score=self.target_score,
            max_rounds=self.max_rounds,
        )
        object.__setattr__(self, "game", game)
