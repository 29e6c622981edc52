"""B.O.N in the duplicate-deal arena (:mod:`agents.eval.arena`): deals, seat records and results.

A round counts at the points it scored (``info["round"]["round_points"]``: 1 for exactly the
trick goal, 2 for no trick, else 0), so an agent's mean is in points per round. The deal,
the tower and the first leader of deal ``d`` are drawn from ``(seed, d)``; the first lead
passes round the table from one deal to the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from agents.registry.spec import ArenaGame, PlayedRound, pooled, result_json
from boon_env import bon_v0
from boon_env.games.bon.rules import PLAYER_COUNTS, Deal, GameConfig, random_tower


class BonSeatRecord(NamedTuple):
    """One agent's part in one B.O.N round."""

    slot: int  # index of the agent in the arena's spec list
    value: int  # points scored in the round (0, 1 or 2)
    tricks: int  # tricks won
    goal: bool  # won exactly the trick goal


@dataclass(frozen=True)
class BonResult:
    """The arena's B.O.N figures for one agent spec (the JSON ``results`` entries)."""

    agent: str
    mean_points: float
    ci95: tuple[float, float]
    goal_rate: float  # rounds with exactly the trick goal (1 point)
    zero_rate: float  # rounds without a trick (2 points)
    mean_tricks: float

    @staticmethod
    def header() -> str:
        """The column titles of :meth:`cells`."""
        return f"{'points/round':>12} {'95% CI':>17} {'goal':>6} {'zero':>6} {'tricks':>7}"

    def cells(self) -> str:
        """The figures as one row of the arena table."""
        return (
            f"{self.mean_points:>12.3f} {f'[{self.ci95[0]:.3f}, {self.ci95[1]:.3f}]':>17} "
            f"{self.goal_rate:>6.1%} {self.zero_rate:>6.1%} {self.mean_tricks:>7.2f}"
        )

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` entry (see ``docs/bon.md``)."""
        return result_json(self)


def bon_deal_options(num_players: int, seed: int, index: int) -> dict[str, Any]:
    """The ``bon_v0`` reset options of deal ``index`` of a run seeded ``seed``."""
    rng = np.random.default_rng([seed, index])
    hands, leftovers = Deal.random(GameConfig(num_players=num_players), rng).card_lists()
    return {
        "deal": {"hands": hands, "leftovers": leftovers},
        "tower": list(random_tower(rng)),
        "leader": index % num_players,
    }


def bon_records(played: PlayedRound) -> list[BonSeatRecord]:
    """One :class:`BonSeatRecord` per seat of a played round."""
    info = played.info
    goal = GameConfig(num_players=len(played.slots)).trick_goal
    return [
        BonSeatRecord(
            slot=slot,
            value=info["round_points"][seat],
            tricks=info["tricks_won"][seat],
            goal=info["tricks_won"][seat] == goal,
        )
        for seat, slot in enumerate(played.slots)
    ]


def bon_summarize(
    specs: Sequence[str], per_deal: Sequence[Sequence[BonSeatRecord]]
) -> list[BonResult]:
    """Pool the records of each distinct spec (the interval as in :mod:`agents.eval.arena`)."""
    return [
        BonResult(
            agent=spec,
            mean_points=mean,
            ci95=(mean - half, mean + half),
            goal_rate=sum(r.goal for r in mine) / len(mine),
            zero_rate=sum(r.tricks == 0 for r in mine) / len(mine),
            mean_tricks=sum(r.tricks for r in mine) / len(mine),
        )
        for spec, mean, half, mine in pooled(specs, per_deal)
    ]


BON = ArenaGame(
    "bon",
    bon_v0.raw_env,
    bon_deal_options,
    bon_records,
    bon_summarize,
    player_counts=PLAYER_COUNTS,
)
