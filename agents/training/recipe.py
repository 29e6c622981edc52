"""How ``train.py`` trains each game: a :class:`Recipe` per game, named by the game's spec in the
registry (:attr:`agents.games.base.GameSpec.training`, a ``"module:attribute"`` reference).

The trainer, the opponent pool, snapshots, evaluations, checkpoints and model files are the same
for every game; a recipe holds what differs: the defaults of the flags, the tables the learner
plays at (the rollout VecEnv and its settings), the imitation warm start, the round statistics
logged per update, the flags only this game takes, and what the run's summary adds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.games.base import GameSpec
from agents.players.base import Agent
from agents.training.boon_selfplay import BoonSelfPlayVecEnv
from agents.training.imitation import ImitationData, engine_imitation_data, imitation_data
from agents.training.selfplay import SelfPlayVecEnv
from boon_env.games import load


@dataclass(frozen=True)
class Recipe:
    """What training needs of one game besides its :class:`~agents.games.base.GameSpec`.

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
        options: the flags only this game takes (any other game refuses a non-default value).
        pick_assist: whether the heuristic's pick-assist schedule applies (the share is set on
            the rollout env as ``pick_assist``).
        self_table: whether the evaluations also play a table of sampled policy copies (Boon:
            its Leaster rate is the all-pass collapse alarm).
        summary: the last update's row -> what the run's summary adds (``final_...`` keys).
        batched_imitation: whether the warm start plays on the batch engine, so that its
            teacher must act at many tables at once (``batched``).
    """

    defaults: Mapping[str, object]
    rollouts: Callable[[Any, GameSpec], tuple[type, dict[str, Any]]]
    imitation: Callable[[Any, GameSpec, Agent | None], ImitationData]
    round_charts: Callable[[list[dict[str, Any]], GameSpec], dict[str, float]]
    options: frozenset[str] = frozenset()
    pick_assist: bool = False
    self_table: bool = False
    summary: Callable[[dict[str, float]], dict[str, Any]] = lambda row: {}
    batched_imitation: bool = False


# ----------------------------------------------------------------------------------------- Boon
def _boon_rollouts(args: Any, game: GameSpec) -> tuple[type, dict[str, Any]]:
    return BoonSelfPlayVecEnv, {"shaping": args.shaping, "pick_assist": args.pick_assist_start}


def _boon_imitation(args: Any, game: GameSpec, teacher: Agent | None) -> ImitationData:
    return imitation_data(
        args.num_players, args.bc_rounds, args.seed, teacher=teacher, progress=args.progress_bar
    )


def boon_charts(rounds: list[dict[str, Any]], game: GameSpec) -> dict[str, float]:
    """Mean Victory Cards, pick and Leaster rates, the learner's own pick rate, its share of
    picker rounds and their success, from :class:`BoonSelfPlayVecEnv`'s round records."""
    value = np.array([r["value"] for r in rounds])
    pick_decisions = sum(r["learner_pick_decisions"] for r in rounds)
    as_picker = [r for r in rounds if r["learner_picker"]]
    return {
        "charts/victory_cards_per_round": float(value.mean()),
        "charts/pick_rate": float(np.mean([r["picked"] for r in rounds])),
        "charts/leaster_rate": float(np.mean([r["leaster"] for r in rounds])),
        # Of the learner's own pick-or-pass decisions, the share it picked.
        "charts/learner_pick_rate": (
            sum(r["learner_picked"] for r in rounds) / pick_decisions if pick_decisions else 0.0
        ),
        "charts/learner_picker_share": len(as_picker) / len(rounds),
        "charts/picker_success": (
            float(np.mean([r["picker_won"] for r in as_picker])) if as_picker else 0.0
        ),
        "charts/rounds": float(len(rounds)),
    }


def _boon_summary(row: dict[str, float]) -> dict[str, Any]:
    return {
        "final_pick_rate": row.get("charts/pick_rate"),
        "final_leaster_rate": row.get("charts/leaster_rate"),
        "final_learner_pick_rate": row.get("charts/learner_pick_rate"),
    }


BOON = Recipe(
    defaults={},
    rollouts=_boon_rollouts,
    imitation=_boon_imitation,
    round_charts=boon_charts,
    options=frozenset({"shaping", "pick_assist_start", "pick_assist_end", "pick_assist_decay"}),
    pick_assist=True,
    self_table=True,
    summary=_boon_summary,
)


# ------------------------------------------------------------------------ B.O.N and BOYN
def _env_config(args: Any) -> dict[str, Any]:
    # BOYN's turn limit, when set; every other game's env takes its defaults.
    return {"max_turns": args.max_turns} if args.max_turns else {}


def bon_round_info(finished: Any, table: int) -> dict[str, Any]:
    """``VectorBon``'s record of a table's last round as ``bon_v0``'s ``info["round"]`` keys
    that the arena's records read."""
    return {
        "round_points": finished.values[table].tolist(),
        "tricks_won": finished.tricks_won[table].tolist(),
    }


def boyn_round_info(finished: Any, table: int) -> dict[str, Any]:
    """``VectorBoyn``'s record of a table's last round as ``boyn_v0``'s ``info["round"]`` keys
    that the arena's records read."""
    return {"points": finished.points[table].tolist(), "out": int(finished.out[table])}


def _engine_rollouts(
    round_info: Callable[[Any, int], dict[str, Any]],
) -> Callable[[Any, GameSpec], tuple[type, dict[str, Any]]]:
    def rollouts(args: Any, game: GameSpec) -> tuple[type, dict[str, Any]]:
        settings = {"game": game, "round_info": round_info, "engine_config": _env_config(args)}
        return SelfPlayVecEnv, settings

    return rollouts


def _engine_imitation(args: Any, game: GameSpec, teacher: Agent | None) -> ImitationData:
    return engine_imitation_data(
        game,
        args.num_players,
        args.bc_rounds,
        args.seed,
        engine_config=_env_config(args),
        teacher=teacher,
    )


def record_charts(rounds: list[dict[str, Any]], game: GameSpec) -> dict[str, float]:
    """The mean of every number of the learner's round records (booleans as rates); the round
    value as ``charts/<value_name>_per_round``."""
    keys = [k for k, v in rounds[0].items() if isinstance(v, int | float)]
    means = {k: float(np.mean([r[k] for r in rounds])) for k in keys}
    row = {f"charts/{k}": v for k, v in means.items() if k != "value"}
    row[f"charts/{game.value_name}_per_round"] = means["value"]
    row["charts/rounds"] = float(len(rounds))
    return row


def _value_summary(value_name: str) -> Callable[[dict[str, float]], dict[str, Any]]:
    key = f"{value_name}_per_round"
    return lambda row: {f"final_{key}": row.get(f"charts/{key}")}


# B.O.N and BOYN train on their batch engines as Boon does (1,024 tables, 16 decisions each per
# update); the rest of their defaults are their own.
_ENGINE_GAMES: dict[str, object] = {
    "ent_coef": 0.005,
    "pool_weights": "self=0.3,heuristic=0.6,random=0.1",
    "bc_epochs": 2,
}

BON = Recipe(
    defaults={
        **_ENGINE_GAMES,
        "exp_name": "bon_ppo",
        "total_timesteps": 1_000_000,
        # A close imitation (93% of the heuristic's choices, against 70% with 2,000 rounds and
        # 2 epochs) is what let PPO overtake the heuristic (docs/bon.md, "Training").
        "bc_rounds": 12000,
        "bc_epochs": 4,
        "eval_deals": 100,
    },
    rollouts=_engine_rollouts(bon_round_info),
    imitation=_engine_imitation,
    round_charts=record_charts,
    summary=_value_summary("points"),
    batched_imitation=True,
)

# BOYN rounds are long (tens of learner decisions), so it gets a shorter turn limit. Its returns
# are noisy (the critic explains little of them), so PPO cannot make up what the imitation
# misses: a close imitation (99% of the heuristic's choices), then a gentle fine-tune (a low
# learning rate, longer rollouts, a tight clip, little entropy, mostly heuristic opponents). This
# is the run that made the shipped 2-player model (docs/boyn.md, "Training").
BOYN = Recipe(
    defaults={
        **_ENGINE_GAMES,
        "exp_name": "boyn_ppo",
        "max_turns": 300,
        "total_timesteps": 4_000_000,
        "net_arch": "256,256",
        "bc_rounds": 15000,
        "bc_epochs": 8,
        "learning_rate": 5e-5,
        "n_steps": 32,
        "n_epochs": 2,
        "clip_range": 0.1,
        "ent_coef": 0.001,
        "pool_weights": "self=0.2,heuristic=0.8,random=0",
        "eval_deals": 100,
    },
    rollouts=_engine_rollouts(boyn_round_info),
    imitation=_engine_imitation,
    round_charts=record_charts,
    options=frozenset({"max_turns"}),
    summary=_value_summary("margin"),
    batched_imitation=True,
)


def recipe_of(game: GameSpec) -> Recipe:
    """The recipe the game's spec names.

    Raises:
        ValueError: the game has none (``train.py`` does not train it).
    """
    if game.training is None:
        raise ValueError(f"train.py has no recipe for {game.name}")
    return load(game.training)
