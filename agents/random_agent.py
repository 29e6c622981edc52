"""The ``random`` baseline: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    """Plays uniformly at random among the legal actions."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A uniformly random action among those the mask allows."""
        legal = np.flatnonzero(action_mask)
        return int(legal[self._rng.integers(len(legal))])

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
