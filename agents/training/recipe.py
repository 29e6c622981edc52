"""How ``train.py`` trains a game: the :class:`Recipe` each game's package declares (its
``training`` module), named by the game's spec in the registry
(:attr:`agents.registry.spec.GameSpec.training`, a ``"module:attribute"`` reference), and the parts
that games played on their batch engine share (:func:`engine_rollouts`, :func:`engine_imitation`,
:func:`record_charts`, :func:`value_summary`).

The trainer, the opponent pool, snapshots, evaluations, checkpoints and model files are the same
for every game; a recipe holds what differs: the defaults of the flags, the tables the learner
plays at (the rollout VecEnv and its settings), the imitation warm start, the round statistics
logged per update, the flags only this game takes (a :class:`GameFlags` dataclass, shown under
the game's name in ``train.py --help``), and what the run's summary adds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.players.base import Agent
from agents.registry.spec import GameSpec
from agents.training.imitation import ImitationData, imitation_data
from agents.training.selfplay import SelfPlayVecEnv
from boon_env.games import load


@dataclass
class GameFlags:
    """The flags only one game takes: a recipe's ``flags`` subclasses this with a field per
    flag, each with a default and a docstring (its ``--help`` text), as ``train.py``'s own."""

    def check(self) -> None:
        """Refuse values that cannot work (nothing, unless a game's flags say otherwise).

        Raises:
            ValueError: naming the flag and what is wrong with it.
        """


@dataclass(frozen=True)
class Recipe:
    """What training needs of one game besides its :class:`~agents.registry.spec.GameSpec`.

    Attributes:
        defaults: the ``train.py`` flags whose default differs from the first game's
            (``{"total_timesteps": 1_000_000, ...}``).
        rollouts: ``(args, game)`` -> the rollout VecEnv class and its game-specific keyword
            arguments (the tables, players, pool and seed are passed by the trainer).
        imitation: ``(args, game, teacher)`` -> the decisions of the warm start (the heuristic's,
            or the ``teacher`` player's: ``--bc-teacher``, or the player fine-tuned with
            ``--init-from``).
        round_charts: the learner's finished rounds (their ``info["round"]``) -> the
            ``charts/...`` scalars of an update.
        flags: the game's own flags (a :class:`GameFlags` subclass; ``args.options`` holds
            them), or ``None``: it has none. Every other game refuses them.
        schedule: ``(options, timesteps done, total timesteps)`` -> settings of the rollout
            tables, set at the start and before every update and logged as ``charts/<name>``
            (Boon: the pick-assist share), or ``None``.
        self_table: ``(arena result of a table of sampled policy copies, players)`` -> the
            ``eval/...`` figures of that table, played at every evaluation (Boon: its Leaster
            rate is the all-pass collapse alarm), or ``None``: no such table.
        summary: the last update's row -> what the run's summary adds (``final_...`` keys).
    """

    defaults: Mapping[str, object]
    rollouts: Callable[[Any, GameSpec], tuple[type, dict[str, Any]]]
    imitation: Callable[[Any, GameSpec, Agent | None], ImitationData]
    round_charts: Callable[[list[dict[str, Any]], GameSpec], dict[str, float]]
    flags: type[GameFlags] | None = None
    schedule: Callable[[Any, int, int], dict[str, float]] | None = None
    self_table: Callable[[Any, int], dict[str, float]] | None = None
    summary: Callable[[dict[str, float]], dict[str, Any]] = lambda row: {}


EngineConfig = Callable[[Any], dict[str, Any]]
"""The flags -> the keyword settings of a game's batch engine (BOYN: its ``max_turns``)."""


def no_engine_config(args: Any) -> dict[str, Any]:
    """The engine's defaults (no settings)."""
    return {}


def engine_rollouts(
    round_info: Callable[[Any, int], dict[str, Any]],
    engine_config: EngineConfig = no_engine_config,
) -> Callable[[Any, GameSpec], tuple[type, dict[str, Any]]]:
    """A recipe's ``rollouts`` for a game played on its batch engine by
    :class:`~agents.training.selfplay.SelfPlayVecEnv`, its round records read by
    ``round_info``, its engine set up by ``engine_config``."""

    def rollouts(args: Any, game: GameSpec) -> tuple[type, dict[str, Any]]:
        settings = {"game": game, "round_info": round_info, "engine_config": engine_config(args)}
        return SelfPlayVecEnv, settings

    return rollouts


def engine_imitation(
    engine_config: EngineConfig = no_engine_config,
) -> Callable[[Any, GameSpec, Agent | None], ImitationData]:
    """A recipe's ``imitation``: the teacher's decisions on the game's batch engine, set up by
    ``engine_config``."""

    def imitation(args: Any, game: GameSpec, teacher: Agent | None) -> ImitationData:
        return imitation_data(
            game,
            args.num_players,
            args.bc_rounds,
            args.seed,
            engine_config=engine_config(args),
            teacher=teacher,
            progress=args.progress_bar,
        )

    return imitation


def record_charts(rounds: list[dict[str, Any]], game: GameSpec) -> dict[str, float]:
    """The mean of every number of the learner's round records (booleans as rates); the round
    value as ``charts/<value_name>_per_round``."""
    keys = [k for k, v in rounds[0].items() if isinstance(v, int | float)]
    means = {k: float(np.mean([r[k] for r in rounds])) for k in keys}
    row = {f"charts/{k}": v for k, v in means.items() if k != "value"}
    row[f"charts/{game.value_name}_per_round"] = means["value"]
    row["charts/rounds"] = float(len(rounds))
    return row


def value_summary(value_name: str) -> Callable[[dict[str, float]], dict[str, Any]]:
    """A recipe's ``summary``: the last update's mean round value, as
    ``final_<value_name>_per_round``."""
    key = f"{value_name}_per_round"
    return lambda row: {f"final_{key}": row.get(f"charts/{key}")}


# The settings every game that trains on its batch engine shares unless its recipe says
# otherwise (1,024 tables, 16 decisions each per update, as Boon; these three differ).
ENGINE_DEFAULTS: dict[str, object] = {
    "ent_coef": 0.005,
    "pool_weights": "self=0.3,heuristic=0.6,random=0.1",
    "bc_epochs": 2,
}


def recipe_of(game: GameSpec) -> Recipe:
    """The recipe the game's spec names.

    Raises:
        ValueError: the game has none (``train.py`` does not train it).
    """
    if game.training is None:
        raise ValueError(f"train.py has no recipe for {game.name}")
    return load(game.training)
