"""High Card's observation: my hand, the trick's cards, and my seat's tricks won."""

from __future__ import annotations

import numpy as np

from boon_env.core.pieces import Layout, Piece
from tests.helpers.toy.rules import NUM_CARDS, Game

LAYOUT = Layout(
    (
        Piece("hand", (NUM_CARDS,), "my cards"),
        Piece("trick", (NUM_CARDS,), "the cards of the trick"),
        Piece("won", (1,), "my tricks won / 2"),
    )
)
OBS_SIZE = LAYOUT.size


def encode(game: Game, seat: int) -> np.ndarray:
    """The observation vector of ``seat``."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    state = game.round
    for card in range(NUM_CARDS):
        obs[card] = state.hands[seat] >> card & 1
    for _seat, card in state.trick:
        obs[NUM_CARDS + card] = 1.0
    obs[-1] = state.tricks_won[seat] / 2
    return obs
