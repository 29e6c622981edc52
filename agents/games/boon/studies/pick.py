"""When should you take the Boon? What picking is worth against passing, deal by deal.

For each random deal, every seat in pick order is studied at the moment it decides (the seats
before it having passed): the round is played out twice with the same player in every seat,
once with the studied seat picking and once with it passing (the later seats then decide as
that player does). The player is any agent spec :func:`agents.specs.make_agent` knows
(``rollout="heuristic"``, ``"ppo"`` for the shipped model of the table size, ``"ppo:path.npz"``,
...); :mod:`agents.games.boon.studies.rollouts` plays it on the vector engine when it can act at
many tables at once (``ppo``), else one table at a time. The difference of the seat's
Victory-Card results is the value of picking on that deal. The same deal answers both questions,
so the comparison is paired and much less noisy than comparing different deals. Grouped by hand
strength (the heuristic's :func:`~agents.games.boon.heuristic.hand_strength`) and by
position in the pick order, it shows where picking starts to pay: the threshold the
heuristic's ``pick_threshold_*`` parameters should sit at. :func:`pick_choices` gives what any
agent itself decides on the same deals and seats, to compare its picks with the gains;
:mod:`agents.games.boon.studies.hands` fits the gain on the hand's features.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from agents.games.boon.heuristic import HeuristicParams, hand_strength
from agents.games.boon.studies.rollouts import Table, first_choices, play_tables
from agents.players.base import Agent
from agents.specs import make_agent
from boon_env.games.boon.rules import GOLD_MASK, PASS, PICK, Deal, GameConfig

_BRANCHES = (PICK, PASS)


@dataclass(frozen=True)
class PickSample:
    """One seat's pick decision on one deal."""

    order: int  # position in the pick order: 0 decides first, n - 1 is the dealer
    strength: float  # hand strength, scaled to a 7-card hand
    gold: int  # gold cards in the hand
    pick_value: float  # the seat's Victory Cards if it picks
    pass_value: float  # the seat's Victory Cards if it passes
    hand: int = 0  # the hand, a card bitmask


def deal_sample(num_players: int, deals: int, seed: int) -> list[tuple[Deal, int]]:
    """The studies' random deals and dealers, ``(deal, dealer)``, seeded."""
    config = GameConfig(num_players=num_players)
    rng = np.random.default_rng(seed)
    dealt = []
    for _ in range(deals):
        deal = Deal.random(config, rng)
        dealt.append((deal, int(rng.integers(num_players))))
    return dealt


def rollout_agent(rollout: str, num_players: int) -> Agent:
    """The agent a rollout spec names, for a table of ``num_players``.

    Raises:
        ValueError: the spec is unknown or its model cannot be loaded, naming the rollout.
    """
    try:
        return make_agent(rollout, seed=0, num_players=num_players)
    except ValueError as error:
        raise ValueError(f"rollout {rollout!r}: {error}") from None


def _round_seed(seed: int, index: int) -> int:
    """The agents' seed for every branch of deal ``index`` (the same: the branches pair)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def study(
    num_players: int = 4,
    deals: int = 1000,
    seed: int = 0,
    params: HeuristicParams | None = None,
    rollout: str = "heuristic",
    opponents: str | None = None,
) -> list[PickSample]:
    """Paired pick/pass results for every seat of ``deals`` random deals (seeded).

    Args:
        params: the heuristic's parameters behind the hand strength the samples are grouped by.
        rollout: the agent spec of the player in every seat (see :mod:`agents.specs`).
        opponents: when given, the spec of the players of the other seats, ``rollout`` playing
            only the studied seat (e.g. ``rollout="ppo", opponents="heuristic"``: what picking
            is worth to the trained policy among heuristics, as in the arena).

    Raises:
        ValueError: an unknown rollout spec, or a model that cannot be loaded for the table size.
    """
    params = params or HeuristicParams()
    config = GameConfig(num_players=num_players)
    agent = rollout_agent(rollout, num_players)
    others = None if opponents is None else rollout_agent(opponents, num_players)
    dealt = deal_sample(num_players, deals, seed)
    tables = [
        Table(
            deal,
            dealer,
            (PASS,) * order + (branch,),
            _round_seed(seed, index),
            hero=(dealer + 1 + order) % num_players,
        )
        for index, (deal, dealer) in enumerate(dealt)
        for order in range(num_players)
        for branch in _BRANCHES
    ]
    outcome = play_tables(agent, config, tables, others)
    # The studied seat decides after ``order`` passes: seat (dealer + 1 + order) mod n.
    samples = []
    for index, (deal, dealer) in enumerate(dealt):
        for order in range(num_players):
            seat = (dealer + 1 + order) % num_players
            row = 2 * (index * num_players + order)
            hand = deal.hands[seat]
            samples.append(
                PickSample(
                    order=order,
                    strength=hand_strength(hand, params) * 7 / config.hand_size,
                    gold=(hand & GOLD_MASK).bit_count(),
                    pick_value=float(outcome.values[row, seat]),
                    pass_value=float(outcome.values[row + 1, seat]),
                    hand=hand,
                )
            )
    return samples


def pick_choices(
    rollout: str, num_players: int = 4, deals: int = 1000, seed: int = 0
) -> np.ndarray:
    """Whether the agent ``rollout`` names picks, as (deals, n) booleans: row ``d``, column
    ``order`` is its decision at that position of deal ``d`` of :func:`study` (same seed), the
    seats before it having passed."""
    config = GameConfig(num_players=num_players)
    agent = rollout_agent(rollout, num_players)
    tables = [
        Table(deal, dealer, (PASS,) * order, _round_seed(seed, index))
        for index, (deal, dealer) in enumerate(deal_sample(num_players, deals, seed))
        for order in range(num_players)
    ]
    return (first_choices(agent, config, tables) == PICK).reshape(deals, num_players)


def rounds_picked(choices: np.ndarray) -> float:
    """The share of rounds with a picker when every seat decides as in ``choices`` (deals, n):
    a round has one when any seat would pick, the seats before it having passed."""
    return float(np.asarray(choices).any(axis=1).mean())


@dataclass(frozen=True)
class PickRow:
    """Mean results of the samples whose hand strength falls in ``[low, high)``."""

    low: float
    high: float
    count: int
    pick_value: float
    pass_value: float
    gain: float  # mean of pick_value - pass_value
    gain_ci95: float  # half-width of the 95% interval of the gain


def by_strength(
    samples: Sequence[PickSample], edges: Sequence[float], order: int | None = None
) -> list[PickRow]:
    """Group samples (of one pick-order position, or all) into strength bins."""
    chosen = [s for s in samples if order is None or s.order == order]
    rows = []
    for low, high in pairwise(edges):
        bin_ = [s for s in chosen if low <= s.strength < high]
        if len(bin_) < 2:
            continue
        gains = np.array([s.pick_value - s.pass_value for s in bin_])
        rows.append(
            PickRow(
                low=low,
                high=high,
                count=len(bin_),
                pick_value=float(np.mean([s.pick_value for s in bin_])),
                pass_value=float(np.mean([s.pass_value for s in bin_])),
                gain=float(gains.mean()),
                gain_ci95=float(1.96 * gains.std(ddof=1) / np.sqrt(len(bin_))),
            )
        )
    return rows


def break_even(rows: Sequence[PickRow]) -> float | None:
    """The lowest bin edge from which picking gains on average in every higher bin."""
    for i, row in enumerate(rows):
        if all(r.gain > 0 for r in rows[i:]):
            return row.low
    return None


def seat_pick_rates(hero: np.ndarray, others: np.ndarray) -> tuple[float, float]:
    """How often one seat picks when it decides as in ``hero`` and the other seats as in
    ``others`` ((deals, n) pick choices of :func:`pick_choices` on the same deals), the seat
    taking every position in turn as in the arena's rotations: ``(the seat's share of rounds,
    each other seat's share)``. The first seat in pick order that would pick takes the Boon."""
    n = hero.shape[1]
    mine = theirs = 0.0
    for position in range(n):
        decides = np.where(np.arange(n) == position, hero, others)
        picked = decides.any(axis=1)
        first = np.argmax(decides, axis=1)  # the picker's position where somebody picks
        mine += float((picked & (first == position)).mean())
        theirs += float((picked & (first != position)).mean()) / (n - 1)
    return mine / n, theirs / n
