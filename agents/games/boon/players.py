"""Builders of Boon's own players (:data:`~agents.players.base.PlayerBuilder`): the holdings
bidders ``blind``, ``cautious`` and ``bold`` (``search`` and ``expert`` are every game's, on
:data:`~agents.games.boon.search.BOON_SEARCH`)."""

from __future__ import annotations

from agents.games.boon.holdings import HoldingBidder, parse_holding_spec
from agents.players.base import Agent, PlayerRequest


def holding_player(request: PlayerRequest) -> Agent:
    """``blind:SPEC``, ``cautious:K:SPEC``, ``bold:K:SPEC``: SPEC bidding by its holdings."""
    low, base = parse_holding_spec(request.kind, request.arg, request.spec)
    inner = request.make(base)
    return HoldingBidder(inner, request.kind, low, request.num_players, name=request.spec)
