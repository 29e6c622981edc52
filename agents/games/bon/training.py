"""How ``train.py`` trains B.O.N: its :class:`~agents.training.recipe.Recipe` (the spec's
``training`` part), on its batch engine, and how that engine's round records read as
``bon_v0``'s."""

from __future__ import annotations

from typing import Any

from agents.training.recipe import (
    ENGINE_DEFAULTS,
    Recipe,
    engine_imitation,
    engine_rollouts,
    record_charts,
    value_summary,
)


def round_info(finished: Any, table: int) -> dict[str, Any]:
    """``VectorBon``'s record of a table's last round as ``bon_v0``'s ``info["round"]`` keys
    that the arena's records read."""
    return {
        "round_points": finished.values[table].tolist(),
        "tricks_won": finished.tricks_won[table].tolist(),
    }


RECIPE = Recipe(
    defaults={
        **ENGINE_DEFAULTS,
        "exp_name": "bon_ppo",
        "total_timesteps": 1_000_000,
        # A close imitation (93% of the heuristic's choices, against 70% with 2,000 rounds and
        # 2 epochs) is what let PPO overtake the heuristic (docs/bon.md, "Training").
        "bc_rounds": 12000,
        "bc_epochs": 4,
        "eval_deals": 100,
        "screen_every": 100_000,  # ten screens over the run
    },
    rollouts=engine_rollouts(round_info),
    imitation=engine_imitation(),
    round_charts=record_charts,
    summary=value_summary("points"),
)
