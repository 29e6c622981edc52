"""How ``train.py`` trains BOYN: its :class:`~agents.training.recipe.Recipe` (the spec's
``training`` part), on its batch engine with a shorter turn limit (its own flag,
``--max-turns``, 300), and how that engine's round records read as ``boyn_v0``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.training.recipe import (
    ENGINE_DEFAULTS,
    GameFlags,
    Recipe,
    engine_imitation,
    engine_rollouts,
    record_charts,
    value_summary,
)


def round_info(finished: Any, table: int) -> dict[str, Any]:
    """``VectorBoyn``'s record of a table's last round as ``boyn_v0``'s ``info["round"]`` keys
    that the arena's records read."""
    return {"points": finished.points[table].tolist(), "out": int(finished.out[table])}


@dataclass
class BoynFlags(GameFlags):
    """BOYN's own flag: the turn limit of a training round."""

    max_turns: int = 300
    """BOYN: turns after which a training round is cut short, worth 0 to every seat (0: the
    env's default, 1,000)."""

    def check(self) -> None:
        """Refuse a negative turn limit.

        Raises:
            ValueError: naming ``--max-turns``.
        """
        if self.max_turns < 0:
            raise ValueError(f"--max-turns is a turn limit >= 1 (or 0), got {self.max_turns}")


def engine_config(args: Any) -> dict[str, Any]:
    """The turn limit of the training rounds, when set (else the engine's 1,000)."""
    max_turns = args.options.max_turns
    return {"max_turns": max_turns} if max_turns else {}


# BOYN rounds are long (tens of learner decisions), so it gets a shorter turn limit. Its returns
# are noisy (the critic explains little of them), so PPO cannot make up what the imitation
# misses: a close imitation (99% of the heuristic's choices), then a gentle fine-tune (a low
# learning rate, longer rollouts, a tight clip, little entropy, mostly heuristic opponents). This
# is the run that made the shipped 2-player model (docs/boyn.md, "Training").
RECIPE = Recipe(
    defaults={
        **ENGINE_DEFAULTS,
        "exp_name": "boyn_ppo",
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
        "screen_every": 250_000,
    },
    rollouts=engine_rollouts(round_info, engine_config),
    imitation=engine_imitation(engine_config),
    round_charts=record_charts,
    flags=BoynFlags,
    summary=value_summary("margin"),
)
