"""The one protocol every player implements, so the arena, the CLI and training treat them alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """A Boon player.

    ``act`` receives what ``boon_v0`` gives the acting agent: the observation vector (see
    :mod:`boon_env.games.boon.encoding`) and the int8 action mask, and returns a legal action id
    (0-33). ``reset`` is called before every round with a seed for any randomness of the agent's
    own.
    """

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Choose a legal action."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Prepare for a new round."""
        ...


@runtime_checkable
class BatchAgent(Agent, Protocol):
    """A player that can also act at many tables at once (the batched arena, the pick study).

    ``batched`` says whether it can (a sampling policy cannot); ``observes`` whether
    ``act_batch`` looks at the observations (else it may be given ``None``). ``reset_batch``
    starts one round per table with that table's seed, and ``act_batch`` chooses, for rows
    ``j`` at tables ``tables[j]`` (distinct), what ``act`` would choose after ``reset(seed)``
    with that table's seed and the same earlier decisions: the two paths agree exactly.
    """

    batched: bool
    observes: bool

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Prepare one round per table, seeded."""
        ...

    def act_batch(
        self, observations: np.ndarray | None, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """One legal action per row of ``masks`` (k, 34) int8; returns (k,) integers."""
        ...
