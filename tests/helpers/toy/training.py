"""How ``train.py`` trains High Card: its :class:`~agents.training.recipe.Recipe`, on its batch
engine (``vector.VectorToy``), with one flag of its own (``--teacher-explore``, shown under
``toy`` in ``train.py --game toy --help``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.players.base import Agent
from agents.registry.spec import GameSpec
from agents.training.imitation import ImitationData, imitation_data
from agents.training.recipe import (
    ENGINE_DEFAULTS,
    GameFlags,
    Recipe,
    engine_rollouts,
    record_charts,
    value_summary,
)


@dataclass
class ToyFlags(GameFlags):
    """High Card's own flag: how far the imitation warm start strays from its teacher."""

    teacher_explore: float = 0.05
    """High Card: chance that a seat of the imitation warm start plays a random card instead of the
    teacher's (the label stays the teacher's choice)."""

    def check(self) -> None:
        """Refuse a chance outside [0, 1].

        Raises:
            ValueError: naming the flag.
        """
        if not 0.0 <= self.teacher_explore <= 1.0:
            raise ValueError(f"--teacher-explore must be in [0, 1], got {self.teacher_explore}")


def round_info(finished: Any, table: int) -> dict[str, Any]:
    """``VectorToy``'s record of a table's last round as ``toy_v0``'s ``info["round"]`` keys
    that the arena's records read."""
    return {
        "value": finished.values[table].tolist(),
        "tricks_won": finished.tricks_won[table].tolist(),
    }


def imitation(args: Any, game: GameSpec, teacher: Agent | None) -> ImitationData:
    """The teacher's decisions on the batch engine, exploring as ``--teacher-explore`` says."""
    return imitation_data(
        game,
        args.num_players,
        args.bc_rounds,
        args.seed,
        explore=args.options.teacher_explore,
        teacher=teacher,
        progress=args.progress_bar,
    )


RECIPE = Recipe(
    defaults={
        **ENGINE_DEFAULTS,
        "exp_name": "toy_ppo",
        "num_players": 2,
        "total_timesteps": 50_000,
        "num_tables": 64,
        "net_arch": "32,32",
        "batch_size": 256,
        "bc_rounds": 400,
        "eval_deals": 50,
        "arena_deals": 100,
    },
    rollouts=engine_rollouts(round_info),
    imitation=imitation,
    round_charts=record_charts,
    flags=ToyFlags,
    summary=value_summary("tricks"),
)
