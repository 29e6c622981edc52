"""The same seed gives the same game, whatever happens to the global random generators
(RLCard's ``determism_util`` check): the env draws only from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from boon_env import boon_v0
from tests.helpers.determinism import trace

CASES = [(n, episode) for n in (3, 4, 5) for episode in ("round", "game")]


def trajectory(players: int, episode: str, seed: int, disturb: int | None) -> list[Any]:
    """Everything an outside observer sees in one episode; moves from a fixed policy RNG."""
    env = boon_v0.env(num_players=players, episode=episode, starting_victory_cards=2, max_rounds=8)
    return trace(env, seed, disturb)


@pytest.mark.parametrize(("players", "episode"), CASES)
def test_same_seed_same_game_despite_global_random_use(players: int, episode: str) -> None:
    quiet = trajectory(players, episode, seed=21, disturb=None)
    assert trajectory(players, episode, seed=21, disturb=1) == quiet
    assert trajectory(players, episode, seed=21, disturb=987) == quiet
    assert len(quiet) > players  # a real episode was compared


@pytest.mark.parametrize(("players", "episode"), CASES)
def test_different_seeds_deal_differently(players: int, episode: str) -> None:
    first = trajectory(players, episode, seed=1, disturb=None)
    assert trajectory(players, episode, seed=2, disturb=None) != first


def test_the_env_leaves_the_global_generators_alone() -> None:
    random.seed(5)
    np.random.seed(5)
    python_state, numpy_state = random.getstate(), np.random.get_state()
    trajectory(4, "game", seed=3, disturb=None)
    assert random.getstate() == python_state
    after = np.random.get_state()
    assert after[0] == numpy_state[0]
    assert np.array_equal(after[1], numpy_state[1])
    assert after[2:] == numpy_state[2:]


def test_reseeding_an_used_env_restarts_its_sequence() -> None:
    env = boon_v0.raw_env(episode="game")
    env.reset(seed=8)
    first = env.game.round.deal
    env.reset()  # no seed: the env's generator moves on
    second = env.game.round.deal
    assert second != first
    env.reset(seed=8)
    assert env.game.round.deal == first
    env.reset()
    assert env.game.round.deal == second
    fresh = boon_v0.raw_env(episode="game")
    fresh.reset(seed=8)
    assert fresh.game.round.deal == first
