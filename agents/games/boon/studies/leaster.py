"""The Leaster: what a hand is worth when everybody passes.

A Leaster is what the dealer's last pass decides: nobody picks, every player plays for itself,
and among the players who won a trick the one with the fewest points wins one Victory Card
from every other player. For each sample deal every seat passes and the round is played out
with one agent in every seat; each seat's result is one sample, told apart by its hand and its
place in the pick order (0 is left of the dealer and leads the first trick).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.games.boon.studies.features import FEATURES, feature_matrix
from agents.games.boon.studies.pick import deal_sample, rollout_agent
from agents.games.boon.studies.rollouts import Table, play_tables
from boon_env.games.boon.rules import PASS, GameConfig


@dataclass(frozen=True)
class LeasterSample:
    """One seat's Leaster on one deal."""

    deal: int  # index of the deal in the study
    order: int  # position in the pick order: 0 leads the first trick, n - 1 is the dealer
    hand: int  # the seat's hand (bitmask)
    value: float  # its Victory Cards: n - 1 for the winner, -1 for the others, 0 in a tie
    points: int  # the points it took


def leaster_study(
    num_players: int = 4, deals: int = 100, seed: int = 0, rollout: str = "heuristic"
) -> list[LeasterSample]:
    """Every seat's Leaster result on the deals of the pick study (same seed), every seat
    having passed.

    Raises:
        ValueError: an unknown rollout spec.
    """
    config = GameConfig(num_players=num_players)
    agent = rollout_agent(rollout, num_players)
    dealt = deal_sample(num_players, deals, seed)
    tables = [Table(deal, dealer, (PASS,) * num_players, seed) for deal, dealer in dealt]
    outcome = play_tables(agent, config, tables)
    samples = []
    for k, (deal, dealer) in enumerate(dealt):
        for order in range(num_players):
            seat = (dealer + 1 + order) % num_players
            samples.append(
                LeasterSample(
                    k,
                    order,
                    deal.hands[seat],
                    float(outcome.values[k, seat]),
                    int(outcome.points[k, seat]),
                )
            )
    return samples


def leaster_arrays(samples: list[LeasterSample]) -> tuple[np.ndarray, np.ndarray]:
    """The samples' :data:`~agents.games.boon.studies.features.FEATURES` matrix and their values."""
    x = feature_matrix([s.hand for s in samples], [s.order for s in samples])
    return x, np.array([s.value for s in samples])


def leaster_rows(
    samples: list[LeasterSample], feature: str, num_players: int, step: int = 1
) -> list[tuple[int, int, float, float]]:
    """The Leaster by one hand feature, its values grouped by ``step`` (e.g. points by 5):
    ``(low end of the group, hands, win rate, mean Victory Cards)`` rows."""
    x, value = leaster_arrays(samples)
    keys = x[:, FEATURES.index(feature)] // step * step
    rows = []
    for key in sorted(set(keys.tolist())):
        chosen = keys == key
        wins = float((value[chosen] == num_players - 1).mean())
        rows.append((int(key), int(chosen.sum()), wins, float(value[chosen].mean())))
    return rows


def leaster_table(
    samples: list[LeasterSample], feature: str, num_players: int, step: int = 1
) -> str:
    """:func:`leaster_rows` as a Markdown table."""
    lines = [f"| {feature} | hands | wins | VC per Leaster |", "| --- | --- | --- | --- |"]
    for key, count, wins, mean in leaster_rows(samples, feature, num_players, step):
        group = str(key) if step == 1 else f"{key}-{key + step - 1}"
        lines.append(f"| {group} | {count} | {wins:.0%} | {mean:+.2f} |")
    return "\n".join(lines)
