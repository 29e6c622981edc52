"""Builders of Boon's own players (:data:`~agents.players.base.PlayerBuilder`): ``search``,
``expert`` and the holdings bidders ``blind``, ``cautious`` and ``bold``."""

from __future__ import annotations

from agents.games.boon.holdings import HoldingBidder, parse_holding_spec
from agents.games.boon.search import EXPERT, SearchAgent, SearchParams
from agents.players.base import Agent, PlayerRequest


def search_player(request: PlayerRequest) -> Agent:
    """``search[:name=value,...]``: :class:`SearchAgent` with named parameters."""
    params = request.params(SearchParams)
    return SearchAgent(
        params, seed=request.seed, name=request.spec, num_players=request.num_players
    )


def expert_player(request: PlayerRequest) -> Agent:
    """``expert``: the :data:`EXPERT` search settings of the table size."""
    request.no_arg()
    if request.num_players not in EXPERT:
        raise ValueError(f"'expert' plays {tuple(EXPERT)} players, not {request.num_players}")
    params = EXPERT[request.num_players]
    return SearchAgent(
        params, seed=request.seed, name=request.spec, num_players=request.num_players
    )


def holding_player(request: PlayerRequest) -> Agent:
    """``blind:SPEC``, ``cautious:K:SPEC``, ``bold:K:SPEC``: SPEC bidding by its holdings."""
    low, base = parse_holding_spec(request.kind, request.arg, request.spec)
    inner = request.make(base)
    return HoldingBidder(inner, request.kind, low, request.num_players, name=request.spec)
