"""What the single-agent envs accept: one frozen, validated object, shared by the one-table env
(:class:`~agents.gym.single.SingleAgentEnv`) and the batched one
(:class:`~agents.gym.vector.SingleAgentVectorEnv`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.registry import game_spec
from agents.registry.spec import GameSpec
from boon_env.core.config import EPISODE_MODES

SEAT_MODES = ("random", "rotate")
ILLEGAL_ACTIONS = ("penalty", "raise")

Opponent = Any  # an agent spec string ("heuristic", "ppo:model.npz") or an Agent object


@dataclass(frozen=True)
class SeatConfig:
    """Everything a single-agent env of a game accepts (``gymnasium.make(id, **config)``).

    Attributes:
        game: the registered game's name (``None``: the registry's default game, the first
            registered).
        num_players: the table size, one of the game's player counts (``None``: the game's
            ``default_players``).
        opponents: who plays the other seats: an agent spec (``"heuristic"``, ``"ppo"``,
            ``"ppo:path.npz"``, ...: :func:`agents.specs.make_agent`), an agent object, or a
            pool of them, one drawn per seat and episode.
        opponent_weights: the pool's draw weights (``None``: equal), one per opponent.
        seat: the learner's seat: a fixed seat, ``"random"`` (drawn every episode) or
            ``"rotate"`` (one seat further left every episode).
        episode: ``"round"`` (one round) or ``"game"`` (rounds until the game ends).
        reward_scale: the learner's reward is its round value (in the game's unit) times this.
        illegal_action: ``"penalty"`` (an illegal action is replaced by a random legal one and
            ``illegal_penalty`` is added to the step's reward) or ``"raise"`` (``ValueError``).
        illegal_penalty: the reward added for an illegal action (``"penalty"`` mode), <= 0.
        render_mode: ``None``, ``"ansi"`` or ``"human"`` (the one-table env only).
        spec: the game's registry entry, derived from ``game``.
        pool: the opponents as a tuple, derived from ``opponents``.
        weights: the pool's weights, normalized, derived from ``opponent_weights``.
    """

    game: str | None = None
    num_players: int | None = None
    opponents: Opponent | Sequence[Opponent] = "random"
    opponent_weights: Sequence[float] | None = None
    seat: int | str = "random"
    episode: str = "round"
    reward_scale: float = 1.0
    illegal_action: str = "penalty"
    illegal_penalty: float = -1.0
    render_mode: str | None = None
    spec: GameSpec = field(init=False, repr=False, compare=False)
    pool: tuple[Opponent, ...] = field(init=False, repr=False, compare=False)
    weights: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        spec = game_spec(self.game)  # ValueError naming the known games
        object.__setattr__(self, "game", spec.name)
        if self.num_players is None:
            object.__setattr__(self, "num_players", spec.default_players)
        if self.num_players not in spec.player_counts:
            raise ValueError(
                f"num_players must be one of {spec.player_counts} for {spec.title}, "
                f"got {self.num_players!r}"
            )
        object.__setattr__(self, "spec", spec)
        self._check_seat()
        if self.episode not in EPISODE_MODES:
            raise ValueError(f"episode must be one of {EPISODE_MODES}, got {self.episode!r}")
        if self.illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {self.illegal_action!r}"
            )
        _check_number("reward_scale", self.reward_scale, positive=True)
        _check_number("illegal_penalty", self.illegal_penalty, positive=False)
        pool = _as_pool(self.opponents)
        object.__setattr__(self, "pool", pool)
        object.__setattr__(self, "weights", _normalized(self.opponent_weights, len(pool)))

    def _check_seat(self) -> None:
        seat, n = self.seat, self.num_players
        if isinstance(seat, str) and seat in SEAT_MODES:
            return
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat 0-{n - 1} or one of {SEAT_MODES}, got {seat!r}")


def _check_number(name: str, value: Any, positive: bool) -> None:
    # A real number: > 0 for a scale, <= 0 for a penalty.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if positive and not value > 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    if not positive and not value <= 0:
        raise ValueError(f"{name} must be <= 0, got {value!r}")


def _as_pool(opponents: Any) -> tuple[Opponent, ...]:
    # One opponent or a sequence of them; specs are strings, anything else must act.
    pool = (
        (opponents,)
        if isinstance(opponents, str) or not isinstance(opponents, Sequence)
        else tuple(opponents)
    )
    if not pool:
        raise ValueError("opponents must name at least one opponent, got an empty pool")
    for opponent in pool:
        if not isinstance(opponent, str) and not callable(getattr(opponent, "act", None)):
            raise ValueError(
                f"opponents must be agent specs or agents (with act), got {opponent!r}"
            )
    return pool


def _normalized(weights: Sequence[float] | None, count: int) -> tuple[float, ...]:
    # Equal weights by default; else one non-negative weight per opponent, some positive.
    if weights is None:
        return (1.0 / count,) * count
    values = tuple(weights) if isinstance(weights, Sequence) else ()
    if len(values) != count or not all(
        isinstance(w, (int, float)) and not isinstance(w, bool) and w >= 0 for w in values
    ):
        raise ValueError(
            f"opponent_weights must be {count} non-negative numbers (one per opponent), "
            f"got {weights!r}"
        )
    total = float(sum(values))
    if total <= 0:
        raise ValueError(f"opponent_weights must have a positive total, got {weights!r}")
    return tuple(w / total for w in values)
