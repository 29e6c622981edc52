"""Proving an env uses only its own generator: disturb the global ones, trace what an observer
sees."""

from __future__ import annotations

import random
from typing import Any

import numpy as np


def disturb_global_random(seed: int) -> None:
    """Reseed and draw from ``random`` and ``np.random`` (as other code in a process might)."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    for _ in range(seed % 7 + 1):
        random.random()
        np.random.rand(3)
        np.random.default_rng()  # fresh OS entropy, too


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
