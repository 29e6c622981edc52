"""The opponents of the single-agent envs: a pool of players, one drawn per seat and episode.

A pool entry is an agent built from its spec by :func:`agents.specs.make_agent` (or given as an
object), except the spec ``"random"``: random seats take a uniformly random legal action drawn
from the env's own generator (the batched env draws them for every table in one call). A forced
move (one legal action) is played without asking anyone, so a player is asked only where it has
a choice, in the one-table env and the batched one alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents.gym.config import SeatConfig
from agents.players.base import Agent
from agents.specs import make_agent

LEARNER = -1  # the code of the learner's seat in a table's players


class OpponentPool:
    """The opponents of a :class:`~agents.gym.config.SeatConfig`, built once.

    Attributes:
        names: each entry's name (its spec, or the agent's ``name``).
        agents: each entry's agent, ``None`` for the env's own random play.
    """

    def __init__(self, config: SeatConfig) -> None:
        self.num_players = config.num_players
        self.agents: list[Agent | None] = [
            _build(entry, config.num_players, config.spec.name) for entry in config.pool
        ]
        self.names = [
            entry if isinstance(entry, str) else str(getattr(entry, "name", type(entry).__name__))
            for entry in config.pool
        ]
        self._cumulative = np.cumsum(config.weights)
        self.random = np.array([agent is None for agent in self.agents])

    def draw(self, rng: np.random.Generator, seats: np.ndarray) -> np.ndarray:
        """The players of ``len(seats)`` tables, (k, n): a pool index per seat drawn by the
        weights, :data:`LEARNER` at each table's learner seat ``seats``."""
        count = len(seats)
        uniforms = rng.random((count, self.num_players)) * self._cumulative[-1]
        players = np.searchsorted(self._cumulative, uniforms, side="right")
        players = np.minimum(players, len(self.agents) - 1)  # a uniform rounding onto the top
        players[np.arange(count), seats] = LEARNER
        return players

    def reset(self, rng: np.random.Generator, tables: int | None = None) -> None:
        """Seed every agent for a new episode from ``rng`` (``tables``: a seed per table for a
        batched agent's ``reset_batch``, as the batched env starts its tables)."""
        for agent in self.agents:
            if agent is None:
                continue
            if tables is not None and getattr(agent, "batched", False):
                agent.reset_batch([int(s) for s in rng.integers(2**63, size=tables)])
            else:
                agent.reset(seed=int(rng.integers(2**63)))

    def act(
        self,
        index: int,
        observe: Callable[[], np.ndarray],
        mask: np.ndarray,
        rng: np.random.Generator,
    ) -> int:
        """Pool entry ``index``'s action given the legal ``mask``; ``observe()`` gives the
        observation when the player needs it."""
        legal = np.flatnonzero(mask)
        agent = self.agents[index]
        if agent is None or legal.size == 1:
            return int(legal[rng.integers(legal.size)])
        return int(agent.act(observe(), mask))

    def act_rows(
        self,
        index: int,
        rows: np.ndarray,
        observe: Callable[[np.ndarray], np.ndarray],
        masks: np.ndarray,
    ) -> np.ndarray:
        """Pool entry ``index``'s actions at tables ``rows`` (legal ``masks``, one row each;
        ``observe(rows)`` gives their observations): one ``act_batch`` call for a batched
        agent, else ``act`` table by table."""
        agent = self.agents[index]
        if agent is None:
            raise ValueError("random seats are played by the env, not the pool")
        if getattr(agent, "batched", False):
            obs = observe(rows) if getattr(agent, "observes", True) else None
            return np.asarray(agent.act_batch(obs, masks, rows), dtype=np.int64)
        obs = observe(rows)
        return np.array([agent.act(o, m) for o, m in zip(obs, masks, strict=True)], dtype=np.int64)


def _build(entry: Any, num_players: int, game: str) -> Agent | None:
    # A spec through the game's registry ("random": the env's own draw), an agent as given.
    if not isinstance(entry, str):
        return entry
    if entry.strip() == "random":
        return None
    try:
        return make_agent(entry, None, num_players, game)
    except ValueError as error:
        raise ValueError(f"opponents: {error}") from None
