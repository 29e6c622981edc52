"""When should you take the Boon? What picking is worth against passing, deal by deal.

For each random deal, every seat in pick order is studied at the moment it decides (the seats
before it having passed): the round is played out twice with the same player in every seat,
once with the studied seat picking and once with it passing (the later seats then decide as
that player does). The player is the heuristic (``rollout="heuristic"``, played out on the
rules engine) or a trained policy (``rollout="ppo"``, greedy, every pick and pass branch of
every deal a table of the vector engine, :class:`boon_env.vector.VectorBoon`). The difference
of the seat's Victory-Card results is the value of picking on that deal. The same deal answers
both questions, so the comparison is paired and much less noisy than comparing different deals.
Grouped by hand strength (the heuristic's :func:`~agents.heuristic.hand_strength`) and by
position in the pick order, it shows where picking starts to pay: the threshold the
heuristic's ``pick_threshold_*`` parameters should sit at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from agents.arena import deal_options
from agents.heuristic import HeuristicParams, hand_strength
from agents.policy import NumpyPolicy
from agents.search import play_out
from agents.trained import PPOAgent, default_model
from boon_env.rules import GOLD_MASK, PASS, PICK, Deal, GameConfig, Round, round_value
from boon_env.vector import VectorBoon

ROLLOUTS = ("heuristic", "ppo")
_BRANCHES = (PICK, PASS)
_CHUNK_DEALS = 128  # deals per vector engine: 768-1280 tables


@dataclass(frozen=True)
class PickSample:
    """One seat's pick decision on one deal."""

    order: int  # position in the pick order: 0 decides first, n - 1 is the dealer
    strength: float  # hand strength, scaled to a 7-card hand
    gold: int  # gold cards in the hand
    pick_value: float  # the seat's Victory Cards if it picks
    pass_value: float  # the seat's Victory Cards if it passes


def _result_after(
    config: GameConfig, deal: Deal, dealer: int, order: int, action: int, params: HeuristicParams
) -> float:
    state = Round(config, deal, dealer)
    for _ in range(order):
        state.apply(PASS)
    seat = state.current
    state.apply(action)
    play_out(state, params)
    return float(round_value(state)[seat])


def _heuristic_values(
    config: GameConfig, dealt: list[tuple[Deal, int]], params: HeuristicParams
) -> np.ndarray:
    """values[k, order, branch]: the studied seat's result, the heuristic in every seat."""
    return np.array(
        [
            [
                [_result_after(config, deal, dealer, order, action, params) for action in _BRANCHES]
                for order in range(config.num_players)
            ]
            for deal, dealer in dealt
        ]
    )


def _policy_values(
    config: GameConfig, dealt: list[tuple[Deal, int]], policy: NumpyPolicy
) -> np.ndarray:
    """values[k, order, branch] with the policy's greedy play in every seat, every branch of
    every deal a table of the vector engine (same results as one table at a time)."""
    n = config.num_players
    tables = [
        (deal, dealer, order) for deal, dealer in dealt for order in range(n) for _ in _BRANCHES
    ]
    order = np.array([order for _deal, _dealer, order in tables])
    branch = np.tile(_BRANCHES, len(tables) // 2)
    venv = VectorBoon(len(tables), n, observations=False)
    options = [deal_options(deal, dealer) for deal, dealer, _order in tables]
    venv.reset(deals=[{**option["deal"], "dealer": option["dealer"]} for option in options])
    studied = venv.seat + order  # the seat deciding after `order` passes, mod n
    studied %= n
    values = np.zeros(len(tables))
    playing = np.ones(len(tables), dtype=bool)
    decision = 0
    mask = venv.action_masks()
    while playing.any():
        actions = np.argmax(mask, axis=1)  # filler for finished tables
        free = playing & (decision > order)
        rows = np.flatnonzero(free)
        if rows.size:
            actions[rows] = policy.greedy_batch(venv.observe(rows), mask[rows])
        actions[decision < order] = PASS  # the seats before the studied one pass
        actions[decision == order] = branch[decision == order]
        _obs, mask, _seat, rewards, done = venv.step(actions)
        ended = np.flatnonzero(done & playing)
        values[ended] = rewards[ended, studied[ended]]
        playing[ended] = False
        decision += 1
    return values.reshape(len(dealt), n, len(_BRANCHES))


def study(
    num_players: int = 4,
    deals: int = 1000,
    seed: int = 0,
    params: HeuristicParams | None = None,
    rollout: str = "heuristic",
    model: str | Path | None = None,
) -> list[PickSample]:
    """Paired pick/pass results for every seat of ``deals`` random deals (seeded).

    Args:
        params: the heuristic's parameters: its play when ``rollout="heuristic"``, and the
            hand strength the samples are grouped by.
        rollout: ``"heuristic"`` or ``"ppo"``, the player in every seat.
        model: the policy file for ``"ppo"`` (default: the shipped model for the table size).

    Raises:
        ValueError: an unknown rollout, or a model that cannot be loaded for the table size.
    """
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {ROLLOUTS}, got {rollout!r}")
    params = params or HeuristicParams()
    config = GameConfig(num_players=num_players)
    rng = np.random.default_rng(seed)
    dealt = []
    for _ in range(deals):
        deal = Deal.random(config, rng)
        dealt.append((deal, int(rng.integers(num_players))))
    if rollout == "heuristic":
        values = _heuristic_values(config, dealt, params)
    else:
        policy = PPOAgent(model or default_model(num_players), num_players=num_players).policy
        values = np.concatenate(
            [
                _policy_values(config, dealt[first : first + _CHUNK_DEALS], policy)
                for first in range(0, deals, _CHUNK_DEALS)
            ]
        )
    samples = []
    for (deal, dealer), value in zip(dealt, values, strict=True):
        for order in range(num_players):
            hand = deal.hands[(dealer + 1 + order) % num_players]
            samples.append(
                PickSample(
                    order=order,
                    strength=hand_strength(hand, params) * 7 / config.hand_size,
                    gold=(hand & GOLD_MASK).bit_count(),
                    pick_value=float(value[order, 0]),
                    pass_value=float(value[order, 1]),
                )
            )
    return samples


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
