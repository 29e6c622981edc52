"""Boon's rules engine as ``boon bench`` plays it: the ``scalar`` engine."""

from __future__ import annotations

import numpy as np

from boon_env.games.boon.rules import Deal, GameConfig, Round, settle


def new_round(num_players: int, index: int, rng: np.random.Generator) -> Round:
    """Round ``index`` of a benchmark: dealt from ``rng``, the deal passing left."""
    config = GameConfig(num_players=num_players)
    return Round(config, Deal.random(config, rng), index % num_players)


def score(state: Round) -> object:
    """The round's payments from fresh holdings."""
    return settle(state, [state.config.starting_victory_cards] * state.config.num_players)
