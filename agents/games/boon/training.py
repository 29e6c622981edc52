"""How ``train.py`` trains Boon: its :class:`~agents.training.recipe.Recipe` (the spec's
``training`` part): the self-play tables with the pick assist and shaping
(:class:`~agents.games.boon.selfplay.BoonSelfPlayVecEnv`), the imitation warm start, and its round
charts (pick and Leaster rates)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.games.boon.selfplay import BoonSelfPlayVecEnv
from agents.registry.spec import GameSpec
from agents.training.recipe import GameFlags, Recipe, engine_imitation


@dataclass
class BoonFlags(GameFlags):
    """Boon's own flags: the optional shaping and the pick assist."""

    shaping: float = 0.0
    """Boon: optional shaping, reward += shaping * (my side's point share - 1/2) in picker
    rounds."""

    pick_assist_start: float = 0.0
    """Boon: share of rounds whose learner pick decision the heuristic makes at the start (anti-
    collapse: the policy learns picker play before its own pick decisions are trained;
    assisted decisions are not training samples)
    """

    pick_assist_end: float = 0.0
    """Boon: share of assisted pick decisions after the decay."""

    pick_assist_decay: float = 0.4
    """Boon: fraction of total_timesteps over which the assist share falls linearly."""


def _boon_rollouts(args: Any, game: GameSpec) -> tuple[type, dict[str, Any]]:
    flags = args.options
    return BoonSelfPlayVecEnv, {"shaping": flags.shaping, "pick_assist": flags.pick_assist_start}


def pick_assist(flags: BoonFlags, timesteps: int, total: int) -> dict[str, float]:
    """The share of assisted pick decisions: linear from start to end over the first
    ``pick_assist_decay`` of the run, then constant."""
    decay = int(flags.pick_assist_decay * total)
    progress = min(timesteps / decay, 1.0) if decay > 0 else 1.0
    start, end = flags.pick_assist_start, flags.pick_assist_end
    return {"pick_assist": start + (end - start) * progress}


def self_table(result: Any, num_players: int) -> dict[str, float]:
    """A table of sampled copies of the policy: its pick and Leaster rates (pooled over the
    seats: one seat in n picks in a picker round), the all-pass collapse alarm."""
    return {
        "eval/selfplay_pick_rate": result.pick_rate * num_players,
        "eval/selfplay_leaster_rate": result.leaster_rate,
    }


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


RECIPE = Recipe(
    defaults={},
    rollouts=_boon_rollouts,
    # Any player teaches: a batched one on the batch engine, another one table at a time.
    imitation=engine_imitation(),
    round_charts=boon_charts,
    flags=BoonFlags,
    schedule=pick_assist,
    self_table=self_table,
    summary=_boon_summary,
)
