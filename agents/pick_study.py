"""When should you take the Boon? What picking is worth against passing, deal by deal.

For each random deal, every seat in pick order is studied at the moment it decides (the seats
before it having passed): the round is played out twice on the engine with the heuristic in
every seat, once with the studied seat picking and once with it passing (the later seats then
decide as the heuristic does). The difference of the seat's Victory-Card results is the value
of picking on that deal. The same deal answers both questions, so the comparison is paired and
much less noisy than comparing different deals. Grouped by hand strength (the heuristic's
:func:`~agents.heuristic.hand_strength`) and by position in the pick order, it shows where
picking starts to pay: the threshold the heuristic's ``pick_threshold_*`` parameters should sit
at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from agents.heuristic import HeuristicParams, hand_strength
from agents.search import play_out
from boon_env.rules import GOLD_MASK, PASS, PICK, Deal, GameConfig, Round, round_value


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


def study(
    num_players: int = 4,
    deals: int = 1000,
    seed: int = 0,
    params: HeuristicParams | None = None,
) -> list[PickSample]:
    """Paired pick/pass results for every seat of ``deals`` random deals (seeded)."""
    params = params or HeuristicParams()
    config = GameConfig(num_players=num_players)
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(deals):
        deal = Deal.random(config, rng)
        dealer = int(rng.integers(num_players))
        for order in range(num_players):
            hand = deal.hands[(dealer + 1 + order) % num_players]
            samples.append(
                PickSample(
                    order=order,
                    strength=hand_strength(hand, params) * 7 / config.hand_size,
                    gold=(hand & GOLD_MASK).bit_count(),
                    pick_value=_result_after(config, deal, dealer, order, PICK, params),
                    pass_value=_result_after(config, deal, dealer, order, PASS, params),
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
