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
from boon_env.games.boyn.rules.cards import (
    NUM_KINDS,
)


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
        hand = state.hands[seat]
        sizes = state.hand_sizes()
        return cls(
            hand=tuple((hand >> k & 1) + (hand >> (k + NUM_KINDS) & 1) for k in range(NUM_KINDS)),
            active_suit=state.active_suit,
            active_rank=state.active_rank,
            run=state.run,
            direction=state.direction,
            hand_sizes=tuple(sizes[(seat + r) % n] for r in range(n)),
        )

    @classmethod
    def from_observation(cls, observation: np.ndarray) -> BoynView:
        """The view of the observing seat, decoded from its ``boyn_v0`` observation vector."""
        pieces = LAYOUT.decode(observation)
        n = PLAYER_COUNTS[int(np.argmax(pieces["num_players"]))]
        return cls(
            hand=tuple(pieces["hand"].sum(axis=0).astype(int).tolist()),
            active_suit=int(np.argmax(pieces["active_suit"])),
            active_rank=int(np.argmax(pieces["active_rank"])) + 1,
            run=round(float(pieces["run"][0]) * RUN_SCALE),
            direction=1 if pieces["clockwise"][0] else -1,
            hand_sizes=tuple(np.rint(pieces["hand_sizes"][:n] * SIZE_SCALE).astype(int).tolist()),
        )

    @property
    def num_players(self) -> int:
        """Players at the table."""
        return len(self.hand_sizes)

    @property
    def next_seat(self) -> int:
        """The relative seat that plays after me."""
        return 1 if self.direction > 0 else self.num_players - 1
