"""B.O.N's rules engine as ``boon bench`` plays it: the ``scalar`` engine."""

from __future__ import annotations

import numpy as np

from boon_env.games.bon.rules import Deal, GameConfig, Round, random_tower, round_points


def new_round(num_players: int, index: int, rng: np.random.Generator) -> Round:
    """Round ``index`` of a benchmark: a random tower and deal, the first lead passing left."""
    config = GameConfig(num_players=num_players)
    tower = random_tower(rng)
    return Round(config, Deal.random(config, rng), tower, index % num_players)


def score(state: Round) -> object:
    """The round's points."""
    return round_points(state.tricks_won, state.config.trick_goal)
