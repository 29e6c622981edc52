"""Bidding by the score: players that take their Victory Cards into account when they bid.

A whole game ends when a player runs out of Victory Cards, and the player holding the most wins
(``RULES.md``), so near the end a round is no longer worth its Victory Cards alone. These
wrappers change one thing in how a player (any agent spec) bids, for the game-mode arena
(:mod:`agents.eval.game_arena`) to measure:

| spec | player |
| --- | --- |
| ``blind:SPEC`` | SPEC, shown every seat's holding as at the start of a game (``1 / n`` of all Victory Cards each): the per-round view a player trained on rounds has seen |
| ``cautious:K:SPEC`` | SPEC, but it passes every pick decision while it holds ``K`` Victory Cards or fewer |
| ``bold:K:SPEC`` | SPEC, but it picks at every pick decision while it holds ``K`` or fewer |

A player's holding is read from its observation's ``victory_cards`` piece (its share of all
Victory Cards in play, which stay ``n * 5`` over a game with the default 5 each).
"""  # noqa: E501 - a table row per kind reads better than wrapped rows

from __future__ import annotations

import numpy as np

from agents.players.base import Agent
from boon_env.games.boon.encoding import OFFSETS
from boon_env.games.boon.rules import MAX_PLAYERS, PASS, PICK, GameConfig

KINDS = ("blind", "cautious", "bold")
_VICTORY = OFFSETS["victory_cards"]  # the observer's share first (seats are relative)
_STARTING = GameConfig().starting_victory_cards


class HoldingBidder:
    """A player ``base`` whose bids depend on its Victory Cards (see the module docstring).

    Args:
        base: the wrapped player.
        kind: ``"blind"``, ``"cautious"`` or ``"bold"``.
        low: for ``cautious`` and ``bold``, the holding at or below which the rule applies.
        num_players: the table size (the holdings' total is ``num_players * 5``).
    """

    def __init__(self, base: Agent, kind: str, low: int, num_players: int, name: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        self.base, self.kind, self.low, self.name = base, kind, low, name
        self._total = num_players * _STARTING
        self._start = np.zeros(MAX_PLAYERS, dtype=np.float32)
        self._start[:num_players] = 1 / num_players

    def holding(self, observation: np.ndarray) -> int:
        """The Victory Cards the observing seat holds."""
        return round(float(observation[_VICTORY]) * self._total)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The base player's action, but for the bid the kind decides."""
        if self.kind == "blind":
            observation = observation.copy()
            observation[_VICTORY : _VICTORY + MAX_PLAYERS] = self._start
        elif action_mask[PICK] and self.holding(observation) <= self.low:
            return PASS if self.kind == "cautious" else PICK
        return self.base.act(observation, action_mask)

    def reset(self, seed: int | None = None) -> None:
        """Reset the base player."""
        self.base.reset(seed)


def parse_holding_spec(kind: str, arg: str, spec: str) -> tuple[int, str]:
    """``(low, base spec)`` of a ``cautious:K:SPEC`` or ``bold:K:SPEC`` argument ``arg``
    (``(0, arg)`` for ``blind``).

    Raises:
        ValueError: naming the spec, when ``K`` is not an integer >= 0 or the base is missing.
    """
    if kind == "blind":
        low, base = "0", arg
    else:
        low, _, base = arg.partition(":")
        if not low.isdigit():
            raise ValueError(
                f"agent spec {spec!r}: expected {kind}:K:SPEC with K an integer >= 0 "
                f"(e.g. {kind}:1:ppo)"
            )
    if not base:
        example = "blind:ppo" if kind == "blind" else f"{kind}:1:ppo"
        raise ValueError(f"agent spec {spec!r}: no player to wrap (e.g. {example})")
    return int(low), base
