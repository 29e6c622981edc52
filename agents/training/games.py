"""The games ``train.py`` trains on, and the little the training pipeline needs of each.

Boon trains on its batched engine (:class:`~agents.training.selfplay.SelfPlayVecEnv`); B.O.N
and BOYN train on their PettingZoo raw envs, many tables stepped in Python
(:class:`~agents.training.table_selfplay.TableSelfPlayVecEnv`). Everything else — the opponent
pool, snapshots, evaluations, checkpoints, the imitation warm start, the model files — is
shared, and reads the game from a :class:`TrainingGame`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.eval.arena import ArenaGame, PlayedRound, arena_game
from agents.games.bon.heuristic import BonHeuristicAgent
from agents.games.boon.heuristic import HeuristicAgent
from agents.games.boyn.heuristic import BoynHeuristicAgent


@dataclass(frozen=True)
class TrainingGame:
    """What training needs to know of a game.

    Attributes:
        name: ``"boon"``, ``"bon"`` or ``"boyn"`` (as agent specs and model files name it).
        heuristic: builds the game's rule-based agent (an opponent, the imitation teacher).
        value_name: the short name of the game's round value in logged keys
            (``eval/<value_name>_vs_heuristic``).
        value_of: the attribute of the game's arena result that holds that value per round.
        reward_scale: the learner's reward is the round's value (the arena's, per seat)
            times this: it keeps BOYN's margins, tens of points, near the scale PPO likes.
    """

    name: str
    heuristic: Callable[[], Any]
    value_name: str
    value_of: str
    reward_scale: float = 1.0

    @property
    def arena(self) -> ArenaGame:
        """How the arena deals, plays and records this game."""
        return arena_game(self.name)

    @property
    def obs_size(self) -> int:
        """Length of the game's observation vector."""
        return int(self.arena.raw_env.obs_size)

    @property
    def num_actions(self) -> int:
        """Number of the game's action ids."""
        return int(self.arena.raw_env.num_actions)

    def seat_records(self, round_info: dict[str, Any], num_players: int) -> list[Any]:
        """The arena's record of every seat of a round, from its ``info["round"]``; each has
        the seat's round ``value`` in the arena's unit."""
        played = PlayedRound(0, 0, list(range(num_players)), {}, [], round_info)
        return self.arena.records(played)


def round_over(table: Any) -> bool:
    """Whether the round of a ``raw_env`` played with ``episode="round"`` has ended."""
    agent = table.agent_selection
    return bool(table.terminations[agent] or table.truncations[agent])


GAMES: dict[str, TrainingGame] = {
    "boon": TrainingGame("boon", HeuristicAgent, "vc", "mean_victory_cards"),
    # Points a round: 1 for the exact trick goal, 2 for no trick.
    "bon": TrainingGame("bon", BonHeuristicAgent, "points", "mean_points"),
    # The margin: the others' mean points added minus mine (what the arena ranks by).
    "boyn": TrainingGame("boyn", BoynHeuristicAgent, "margin", "mean_margin", reward_scale=0.02),
}


def training_game(name: str) -> TrainingGame:
    """The :class:`TrainingGame` called ``name``.

    Raises:
        ValueError: an unknown game.
    """
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {tuple(GAMES)}")
    return GAMES[name]
