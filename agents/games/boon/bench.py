"""Boon's scalar engine under random play, for ``boon bench`` (:mod:`agents.eval.bench`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boon_env.games.boon.rules import PASS, PICK, Deal, GameConfig, Phase, Round, cards_of, settle

_PICK_OR_PASS = (PICK, PASS)


def random_rounds(
    num_players: int, rounds: int, rng: np.random.Generator, uniforms: Sequence[float]
) -> int:
    """Play ``rounds`` rounds of random legal moves (move ``k`` the legal action at
    ``uniforms[k % 2**20]`` of the way through the list) on the bare rules engine, dealing
    from ``rng``; returns the decisions made. ``boon bench`` times it as the ``scalar``
    engine."""
    config = GameConfig(num_players=num_players)
    k = decisions = 0
    holdings = [config.starting_victory_cards] * num_players
    for i in range(rounds):
        state = Round(config, Deal.random(config, rng), i % num_players)
        while state.phase is not Phase.DONE:
            legal = state.legal_mask()
            actions = cards_of(legal) or _PICK_OR_PASS
            state.apply(actions[int(uniforms[k] * len(actions))])
            k = (k + 1) & 0xFFFFF
            decisions += 1
        settle(state, holdings)
    return decisions
