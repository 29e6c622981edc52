"""BOYN's rules engine as ``boon bench`` plays it: the ``scalar`` engine."""

from __future__ import annotations

import numpy as np

from boon_env.games.boyn.rules import Deal, GameConfig, Round


def new_round(num_players: int, index: int, rng: np.random.Generator) -> Round:
    """Round ``index`` of a benchmark: dealt from ``rng`` (which also reshuffles), the deal
    passing left."""
    config = GameConfig(num_players=num_players)
    return Round(config, Deal.random(config, rng), index % num_players, rng)


def score(state: Round) -> object:
    """Nothing to add: a BOYN round scores itself as it ends."""
    return state.is_over
