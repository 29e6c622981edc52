"""Builders of the players every game offers (:data:`~agents.players.base.PlayerBuilder`):
``random``, ``ppo[:PATH]``, ``rllib:CHECKPOINT_DIR`` and, from a game's heuristic class,
``heuristic[:name=value,...]``. Each game's spec lists these beside its own
(:mod:`agents.games`)."""

from __future__ import annotations

from collections.abc import Callable

from agents.players.base import Agent, PlayerBuilder, PlayerRequest
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


def heuristic_player(agent: Callable[..., Agent], params: type) -> PlayerBuilder:
    """The builder of ``heuristic[:name=value,...]`` for a game whose rule-based player is
    ``agent(params, name=...)`` with the dataclass ``params`` of named parameters."""

    def build(request: PlayerRequest) -> Agent:
        return agent(request.params(params), name=request.spec)

    build.__doc__ = f"``heuristic[:name=value,...]``: {agent.__name__} with named parameters."
    return build
