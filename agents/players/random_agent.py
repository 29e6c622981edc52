"""The ``random`` baseline: a uniformly random legal action, seeded, one table or many.

Every round the agent plays has its own stream of uniforms, counter-based: the ``k``-th
decision of a round seeded ``s`` uses the SplitMix64 output for ``(s, k)``. One table
(:meth:`RandomAgent.act`) and many at once (:meth:`RandomAgent.act_batch`, one seed per table)
draw from the same streams, so the batched arena makes exactly the choices of the one-table one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# SplitMix64 (Steele, Lea and Flood, 2014): the golden-ratio increment and the two mixers.
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def _uniforms(seeds: np.ndarray, counters: np.ndarray) -> np.ndarray:
    """Uniforms in [0, 1) for decision ``counters`` of the streams ``seeds`` (uint64 arrays;
    uint64 array arithmetic wraps modulo 2**64, as SplitMix64 needs)."""
    z = seeds + (counters + np.uint64(1)) * np.uint64(_GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    z ^= z >> np.uint64(31)
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


def _choose(masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """The ``floor(u * legal count)``-th legal action of each mask row (uniform over them)."""
    legal = masks != 0
    nth = (uniforms * legal.sum(axis=1)).astype(np.int64)
    return np.argmax(np.cumsum(legal, axis=1) > nth[:, None], axis=1)


def _stream_seed(seed: int | None) -> np.uint64:
    if seed is None:  # fresh entropy
        return np.uint64(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    return np.uint64(seed % 2**64)


class RandomAgent:
    """Plays uniformly at random among the legal actions.

    ``reset(seed)`` starts the round's stream; ``reset_batch(seeds)`` starts one per table for
    :meth:`act_batch`. The same seed gives the same choices on either path.
    """

    batched = True  # acts on many tables at once (act_batch)
    observes = False  # the observations are not looked at: the arena may pass None

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._seed = np.array([_stream_seed(seed)])
        self._count = np.zeros(1, dtype=np.uint64)
        self._seeds = self._seed
        self._counts = self._count

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A uniformly random action among those the mask allows."""
        choice = _choose(np.asarray(action_mask)[None], _uniforms(self._seed, self._count))
        self._count += np.uint64(1)
        return int(choice[0])

    def reset(self, seed: int | None = None) -> None:
        """Start the round's stream from ``seed`` (``None`` keeps the current stream)."""
        if seed is not None:
            self._seed = np.array([_stream_seed(seed)])
            self._count = np.zeros(1, dtype=np.uint64)

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Start one round per table, table ``i`` with stream ``seeds[i]``."""
        self._seeds = np.array([_stream_seed(seed) for seed in seeds], dtype=np.uint64)
        self._counts = np.zeros(len(self._seeds), dtype=np.uint64)

    def act_batch(
        self, observations: np.ndarray | None, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """A uniformly random legal action for each row of ``masks`` (k, 34), row ``j`` at
        table ``tables[j]`` of :meth:`reset_batch` (distinct tables); returns (k,) int64."""
        choices = _choose(masks, _uniforms(self._seeds[tables], self._counts[tables]))
        self._counts[tables] += np.uint64(1)
        return choices
