"""What a BOYN seat knows, as the heuristic reads it: :class:`BoynView`, decoded from the
observation or read straight from the rules engine's round."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boon_env.games.boyn.encoding import LAYOUT, RUN_SCALE, SIZE_SCALE
from boon_env.games.boyn.rules import (
    PLAYER_COUNTS,
    Round,
)
from boon_env.games.boyn.rules.cards import NUM_KINDS, kinds_of


@dataclass(frozen=True, slots=True)
class BoynView:
    """What the seat to act knows and the heuristic uses, seats relative (0 = me).

    Attributes:
        hand: how many cards of each kind I hold (52 counts).
        active_suit, active_rank: the active card (after a Jack, the named suit and rank 11).
        run: the length of the 2-run.
        direction: +1 while play goes to my left (relative seat 1), -1 after an odd number of
            Aces.
        hand_sizes: cards held per relative seat, one entry per player.
    """

    hand: tuple[int, ...]
    active_suit: int
    active_rank: int
    run: int
    direction: int
    hand_sizes: tuple[int, ...]

    @classmethod
    def from_round(cls, state: Round, seat: int) -> BoynView:
        """The view of ``seat`` in a live round."""
        n = state.config.num_players
        counts = [0] * NUM_KINDS
        for kind in kinds_of(state.hands[seat]):  # a hand's few cards, not all 52 kinds
            counts[kind] += 1
        sizes = state.hand_sizes()
        return cls(
            hand=tuple(counts),
            active_suit=state.active_suit,
            active_rank=state.active_rank,
            run=state.run,
            direction=state.direction,
            hand_sizes=tuple(sizes[(seat + r) % n] for r in range(n)),
        )

    @classmethod
    def from_observation(cls, observation: np.ndarray) -> BoynView:
        """The view of the observing seat, decoded from its ``boyn_v0`` observation vector."""
        obs = np.asarray(observation)
        if obs.shape != (LAYOUT.size,):
            raise ValueError(f"observation must have shape ({LAYOUT.size},), got {obs.shape}")
        return cls.from_observations(obs[None])[0]

    @classmethod
    def from_observations(cls, observations: np.ndarray) -> list[BoynView]:
        """:meth:`from_observation` of every row of ``observations`` ``(k, size)``, decoded
        with whole-batch numpy operations (the trainer's heuristic opponents)."""
        obs = np.asarray(observations)
        if obs.ndim != 2 or obs.shape[1] != LAYOUT.size:
            raise ValueError(f"observations must have shape (k, {LAYOUT.size}), got {obs.shape}")
        pieces = {
            p.name: obs[:, LAYOUT.offsets[p.name] : LAYOUT.offsets[p.name] + p.size].reshape(
                len(obs), *p.shape
            )
            for p in LAYOUT.pieces
        }
        hands = pieces["hand"].sum(axis=1).astype(int).tolist()
        players = np.array(PLAYER_COUNTS)[np.argmax(pieces["num_players"], axis=1)].tolist()
        suits = np.argmax(pieces["active_suit"], axis=1).tolist()
        ranks = (np.argmax(pieces["active_rank"], axis=1) + 1).tolist()
        runs = np.rint(pieces["run"][:, 0] * RUN_SCALE).astype(int).tolist()
        directions = np.where(pieces["clockwise"][:, 0] > 0, 1, -1).tolist()
        sizes = np.rint(pieces["hand_sizes"] * SIZE_SCALE).astype(int).tolist()
        return [
            cls(
                hand=tuple(hands[i]),
                active_suit=suits[i],
                active_rank=ranks[i],
                run=runs[i],
                direction=directions[i],
                hand_sizes=tuple(sizes[i][: players[i]]),
            )
            for i in range(len(obs))
        ]

    @property
    def num_players(self) -> int:
        """Players at the table."""
        return len(self.hand_sizes)

    @property
    def next_seat(self) -> int:
        """The relative seat that plays after me."""
        return 1 if self.direction > 0 else self.num_players - 1
