"""The same seed gives the same game, whatever happens to the global random generators
(RLCard's ``determism_util`` check): the env draws only from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from boon_env import boon_v0

CASES = [(n, episode) for n in (3, 4, 5) for episode in ("round", "game")]


def disturb_global_random(seed: int) -> None:
    """Reseed and draw from ``random`` and ``np.random`` (as other code in a process might)."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    for _ in range(seed % 7 + 1):
        random.random()
        np.random.rand(3)
        np.random.default_rng()  # fresh OS entropy, too


def trajectory(players: int, episode: str, seed: int, disturb: int | None) -> list[Any]:
    """Everything an outside observer sees in one episode; moves from a fixed policy RNG."""
    env = boon_v0.env(num_players=players, episode=episode, starting_victory_cards=2, max_rounds=8)
    return trace(env, seed, disturb)


def trace(env: Any, seed: int, disturb: int | None) -> list[Any]:
    """What an outside observer sees in an episode of ``env`` reset with ``seed``; moves from a
    fixed policy RNG; ``disturb`` (if not ``None``) seeds draws from the global generators."""
    policy = np.random.default_rng(1234)
    if disturb is not None:
        disturb_global_random(disturb)
    env.reset(seed=seed)
    seen: list[Any] = []
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, termination, truncation, info = env.last()
        seen.append(
            (
                agent,
                obs["observation"].tobytes(),
                obs["action_mask"].tobytes(),
                reward,
                termination,
                truncation,
                repr(info),
            )
        )
        if termination or truncation:
            move = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            move = int(legal[policy.integers(len(legal))])
        if disturb is not None:
            disturb_global_random(disturb + step)
        env.step(move)
    return seen


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
