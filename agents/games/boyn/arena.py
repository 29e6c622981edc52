"""BOYN in the duplicate-deal arena (:mod:`agents.eval.arena`): deals, seat records and results.

A round's **margin** for a seat is the mean of the points the other seats added minus the
points it added: positive when it did better than the table. BOYN is not zero-sum, so the
margin, not the points alone, says who plays better than whom; an agent's mean is its margin
per round. Deal ``d`` of a run seeded ``seed`` is drawn from ``(seed, d)``, its dealer is
``d % n`` (as at Boon), and every rotation of it resets the env with the same seed
(:func:`boyn_reset_seed`), so that the stock's reshuffles bring all rotations the same luck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from agents.registry.spec import ArenaGame, PlayedRound, pooled, result_json
from boon_env import boyn_v0
from boon_env.games.boyn import rules as boyn_rules


class BoynSeatRecord(NamedTuple):
    """One agent's part in one BOYN round."""

    slot: int  # index of the agent in the arena's spec list
    value: float  # the round's margin for the seat
    points: int  # points added to its total
    out: bool  # it went out
    truncated: bool  # the round was cut short at max_turns


@dataclass(frozen=True)
class BoynAgentResult:
    """The arena's BOYN figures for one agent spec (the JSON ``results`` entries)."""

    agent: str
    mean_margin: float
    ci95: tuple[float, float]
    mean_points: float  # points added to its total per round
    out_rate: float  # share of its rounds in which it went out
    truncated_rate: float  # share of its rounds cut short at max_turns

    @staticmethod
    def header() -> str:
        """The column titles of :meth:`cells`."""
        return f"{'margin':>9} {'95% CI':>17} {'points':>7} {'out':>6} {'trunc.':>7}"

    def cells(self) -> str:
        """The figures as one row of the arena table."""
        return (
            f"{self.mean_margin:>+9.2f} {f'[{self.ci95[0]:+.2f}, {self.ci95[1]:+.2f}]':>17} "
            f"{self.mean_points:>7.1f} {self.out_rate:>6.1%} {self.truncated_rate:>7.1%}"
        )

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` entry (see ``docs/cli.md``)."""
        return result_json(self)


def boyn_deal_options(num_players: int, seed: int, index: int) -> dict[str, Any]:
    """The ``boyn_v0`` reset options of deal ``index`` of a run seeded ``seed`` (its dealer is
    ``index % n``, as at Boon)."""
    rules = boyn_rules.GameConfig(num_players=num_players)
    deal = boyn_rules.Deal.random(rules, np.random.default_rng([seed, index]))
    hands = [list(hand) for hand in deal.hands]
    return {"deal": {"hands": hands, "stock": list(deal.stock)}, "dealer": index % num_players}


def boyn_reset_seed(seed: int, index: int) -> int:
    """The ``env.reset`` seed of deal ``index``: every rotation of a BOYN deal reshuffles with
    the same generator, the same luck for all."""
    return int(np.random.SeedSequence([seed, index, 1 << 20]).generate_state(1)[0])


def margins(points: Sequence[int]) -> list[float]:
    """Each seat's margin (the arena's unit) from the points every seat added: the others'
    mean points added minus its own."""
    n = len(points)
    return [(sum(points) - own) / (n - 1) - own for own in points]


def boyn_records(played: PlayedRound) -> list[BoynSeatRecord]:
    """One :class:`BoynSeatRecord` per seat of a played round."""
    added, out = played.info["points"], played.info["out"]
    margin = margins(added)
    return [
        BoynSeatRecord(
            slot=slot,
            value=margin[seat],
            points=added[seat],
            out=out == seat,
            truncated=out < 0,
        )
        for seat, slot in enumerate(played.slots)
    ]


def boyn_summarize(
    specs: Sequence[str], per_deal: Sequence[Sequence[BoynSeatRecord]]
) -> list[BoynAgentResult]:
    """Pool the records of each distinct spec (the interval as in :mod:`agents.eval.arena`)."""
    return [
        BoynAgentResult(
            agent=spec,
            mean_margin=mean,
            ci95=(mean - half, mean + half),
            mean_points=sum(r.points for r in mine) / len(mine),
            out_rate=sum(r.out for r in mine) / len(mine),
            truncated_rate=sum(r.truncated for r in mine) / len(mine),
        )
        for spec, mean, half, mine in pooled(specs, per_deal)
    ]


BOYN = ArenaGame(
    "boyn",
    boyn_v0.raw_env,
    boyn_deal_options,
    boyn_records,
    boyn_summarize,
    player_counts=boyn_rules.PLAYER_COUNTS,
    reset_seed=boyn_reset_seed,
)
