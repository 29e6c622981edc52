"""The one protocol every player implements, so the arena, the CLI and training treat them alike."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """A Boon player.

    ``act`` receives what ``boon_v0`` gives the acting agent: the observation vector (see
    :mod:`boon_env.encoding`) and the int8 action mask, and returns a legal action id (0-33).
    ``reset`` is called before every round with a seed for any randomness of the agent's own.
    """

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Choose a legal action."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Prepare for a new round."""
        ...
