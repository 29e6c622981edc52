"""What a BOYN player may see, as a flat float32 vector built from named pieces.

Seats are *relative*: 0 = the observer, 1 = the seat on its left (clockwise), and so on, so one
policy serves every seat. Seat-indexed pieces have :data:`~boon_env.games.boyn.rules.MAX_PLAYERS`
(6) rows; rows past the table's size stay 0. Every entry lies in [0, 1]: counts are divided by the
``*_SCALE`` constants below, and a multiset of cards (my hand, the discard pile) is
two rows of 0/1, row ``c`` marking the kinds held more than ``c`` times, so that a kind's count
is the sum of its column. :data:`LAYOUT` is the single source of the layout: the observation
space, the table in ``docs/boyn.md`` and the decoder (``LAYOUT.decode``) all derive from it.

A player sees its own hand, the discard pile and the public state of the table, nothing else
of the others' cards: after a Queen swap the received hand is simply the new owner's hand.
"""

from __future__ import annotations

import numpy as np

from boon_env.core.pieces import Layout, Piece, bits_then_fractions
from boon_env.games.boyn.rules import MAX_PLAYERS, PLAYER_COUNTS, Round
from boon_env.games.boyn.rules.cards import COPIES, NUM_CARDS, NUM_KINDS, NUM_RANKS, NUM_SUITS

SIZE_SCALE = NUM_CARDS  # hand and stock sizes
RUN_SCALE = 8  # 2s in the two decks: the longest possible run

LAYOUT = Layout(
    (
        Piece("hand", (COPIES, NUM_KINDS), "my cards: row c, kind k = 1 if I hold over c copies"),
        Piece("discards", (COPIES, NUM_KINDS), "the discard pile, like `hand`"),
        Piece("active_rank", (NUM_RANKS,), "one-hot rank of the active card (ace .. king)"),
        Piece("active_suit", (NUM_SUITS,), "one-hot suit of the active card (a Jack's named suit)"),
        Piece("clockwise", (1,), "1 while play goes to my left, 0 after an odd number of Aces"),
        Piece("num_players", (len(PLAYER_COUNTS),), "one-hot: 2, 3, 4, 5, 6 players"),
        Piece("dealer", (MAX_PLAYERS,), "one-hot relative seat of the dealer"),
        Piece("run", (1,), "length of the 2-run / 8 (the next 2 makes it one longer)"),
        Piece("stock", (1,), "cards in the stock / 104"),
        Piece("hand_sizes", (MAX_PLAYERS,), "cards held per relative seat / 104"),
        Piece("totals", (MAX_PLAYERS,), "game totals per relative seat / game_limit, at most 1"),
    )
)
OBS_SIZE = LAYOUT.size

_OFFSET = LAYOUT.offsets
# Everything before "run" is 0/1 (a multiset's two rows are its two bit planes, see
# :mod:`boon_env.games.boyn.rules.cards`), so encode() sets it in one Python int and unpacks it with
# a single numpy call; the pieces from "run" on are fractions, written in one slice assignment.
_BITS = _OFFSET["run"]
_DISCARDS, _RANK, _SUIT, _CLOCKWISE, _PLAYERS, _DEALER = (
    _OFFSET[name]
    for name in ("discards", "active_rank", "active_suit", "clockwise", "num_players", "dealer")
)
_PLAYER_BIT = {n: 1 << (_PLAYERS + i) for i, n in enumerate(PLAYER_COUNTS)}
# _ORDER[n][seat][r]: the absolute seat at relative seat r of the observer ``seat``.
_ORDER = {n: [[(seat + r) % n for r in range(n)] for seat in range(n)] for n in PLAYER_COUNTS}
_PAD = {n: [0.0] * (MAX_PLAYERS - n) for n in PLAYER_COUNTS}


def encode(state: Round, seat: int, totals: list[int]) -> np.ndarray:
    """The observation vector (float32, shape ``(OBS_SIZE,)``) of ``seat`` in ``state``."""
    config = state.config
    n = config.num_players
    bits = (
        state.hands[seat]
        | state.discards << _DISCARDS
        | 1 << (_RANK + state.active_rank - 1)
        | 1 << (_SUIT + state.active_suit)
        | (state.direction > 0) << _CLOCKWISE
        | _PLAYER_BIT[n]
        | 1 << (_DEALER + (state.dealer - seat) % n)
    )
    order = _ORDER[n][seat]
    hands, limit, pad = state.hands, config.game_limit, _PAD[n]
    fractions = (
        [state.run / RUN_SCALE, len(state.stock) / SIZE_SCALE]
        + [hands[s].bit_count() / SIZE_SCALE for s in order]
        + pad
        + [totals[s] / limit if totals[s] < limit else 1.0 for s in order]  # at most 1
        + pad
    )
    return bits_then_fractions(bits, _BITS, fractions, OBS_SIZE)
