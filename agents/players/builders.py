"""Builders of the players every game offers (:data:`~agents.players.base.PlayerBuilder`):
``random``, ``ppo[:PATH]``, ``rllib:CHECKPOINT_DIR`` and, from a game's heuristic class,
``heuristic[:name=value,...]``. Each game's spec lists these beside its own
(:mod:`agents.registry`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.players.base import Agent, PlayerRequest
from agents.players.random_agent import RandomAgent
from agents.players.trained import PPOAgent


def random_player(request: PlayerRequest) -> Agent:
    """``random``: a uniformly random legal action."""
    request.no_arg()
    return RandomAgent(seed=request.seed, name=request.spec)


def ppo_player(request: PlayerRequest) -> Agent:
    """``ppo``: the game's shipped model for the table size; ``ppo:PATH`` a model file of the
    game (one of another game or table size is refused)."""
    path = request.arg or request.game.model_file(request.num_players)
    return PPOAgent(
        path, name=request.spec, num_players=request.num_players, game=request.game.name
    )


def rllib_player(request: PlayerRequest) -> Agent:
    """``rllib:CHECKPOINT_DIR``: a ``train_rllib.py`` checkpoint (needs the ``rllib`` extra)."""
    from agents.players.rllib_agent import RLlibAgent  # imports ray: only rllib specs pay for it

    return RLlibAgent(request.arg, name=request.spec, num_players=request.num_players)


@dataclass(frozen=True)
class heuristic_player:  # noqa: N801 - used like the builder functions beside it
    """The builder of ``heuristic[:name=value,...]`` for a game whose rule-based player is
    ``agent(params, name=...)`` with the dataclass ``params`` of named parameters (a class,
    not a closure, so that a game's spec pickles for worker processes)."""

    agent: Callable[..., Agent]
    params: type

    def __call__(self, request: PlayerRequest) -> Agent:
        """The heuristic with the spec's parameters."""
        return self.agent(request.params(self.params), name=request.spec)
