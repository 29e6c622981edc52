"""What a seated B.O.N player may see, as a flat vector built from named pieces.

Seats are *relative*: 0 = the observer, 1 = the seat on its left, and so on, so one policy
serves every seat. Seat-indexed pieces always have :data:`MAX_PLAYERS` (5) rows; rows past the
table's size stay 0. :data:`PIECES` is the single source of the layout: the observation space,
the table in ``docs/bon.md`` (:func:`layout_table`) and the decoder (:func:`decode`) all derive
from it. A player sees its own hand, the tower, the current trick, every card played and by
whom, the colours each seat has shown it lacks, the tricks won, the scores and, when they lie
face up, the leftovers; nothing of the other hands.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from boon_env.core.pieces import Layout, Piece, bits_then_fractions
from boon_env.games.bon.rules.cards import COLOURS, NUM_ACTIONS, NUM_BOAST_CARDS
from boon_env.games.bon.rules.round import Game
from boon_env.games.bon.rules.tricks import (
    MAX_PASS_CARDS,
    MAX_PLAYERS,
    NUM_LEFTOVERS,
    NUM_TRICKS,
    PLAYER_COUNTS,
)

NUM_COLOURS = len(COLOURS)

PIECES: tuple[Piece, ...] = (
    Piece("hand", (NUM_BOAST_CARDS,), "1 for each Boast card id in my hand"),
    Piece("hand_passes", (MAX_PASS_CARDS,), "entry k: I hold more than k Pass cards"),
    Piece("leftovers", (NUM_BOAST_CARDS,), "the leftovers' Boast cards, when face up"),
    Piece("leftover_passes", (NUM_LEFTOVERS,), "entry k: more than k leftovers are Pass cards"),
    Piece("leftovers_face_up", (1,), "1 when the leftovers lie face up"),
    Piece("tower", (NUM_COLOURS, NUM_COLOURS), "row i: one-hot colour at place i, 0 = top"),
    Piece("trick", (MAX_PLAYERS, NUM_ACTIONS), "current trick: row r = card seat r played"),
    Piece("prime", (NUM_COLOURS,), "one-hot prime colour of the current trick (0 if none)"),
    Piece("leader", (MAX_PLAYERS,), "one-hot relative seat that leads the current trick"),
    Piece("played", (MAX_PLAYERS, NUM_BOAST_CARDS), "row r: Boast cards seat r has played"),
    Piece("passes_played", (MAX_PLAYERS, MAX_PASS_CARDS), "row r, k: seat r played > k Passes"),
    Piece("voids", (MAX_PLAYERS, NUM_COLOURS), "row r, colour c: seat r showed it has no c"),
    Piece("tricks_won", (MAX_PLAYERS, NUM_TRICKS + 1), "row r: one-hot tricks seat r won"),
    Piece("num_players", (len(PLAYER_COUNTS),), "one-hot: 3, 4, 5 players"),
    Piece("scores", (MAX_PLAYERS,), "score per seat / (target score + 1)"),
)

LAYOUT = Layout(PIECES)
OFFSETS: dict[str, int] = LAYOUT.offsets
OBS_SIZE = LAYOUT.size

# Every piece before "scores" is 0/1: encode() sets its bits in one Python int and unpacks them
# with a single numpy call.
_BITS = OFFSETS["scores"]
_PLAYER_COUNT_BIT = {n: OFFSETS["num_players"] + i for i, n in enumerate(PLAYER_COUNTS)}
_TOWER_BITS = {
    tower: sum(1 << (OFFSETS["tower"] + NUM_COLOURS * place + c) for place, c in enumerate(tower))
    for tower in permutations(COLOURS)
}
# Per table size n and observer seat: _ORDER[n][seat][r] is the absolute seat at relative seat
# r; _SEAT_ROWS[n][seat][s] is absolute seat s's relative row: the offset of its row of the
# played piece and its _ROW_BITS; _TRICK_SHIFTS[n][r] the trick rows in play order when seat r
# leads.
_ORDER = {
    n: tuple(tuple((seat + r) % n for r in range(n)) for seat in range(n)) for n in PLAYER_COUNTS
}


def _row_bits(r: int, passes: int, voids: int, tricks: int) -> int:
    """The bits of relative seat ``r``'s rows of the Pass, voids and tricks pieces."""
    return (
        ((1 << passes) - 1) << (OFFSETS["passes_played"] + MAX_PASS_CARDS * r)
        | voids << (OFFSETS["voids"] + NUM_COLOURS * r)
        | 1 << (OFFSETS["tricks_won"] + (NUM_TRICKS + 1) * r + tricks)
    )


# Those three rows change seldom and take few values: _ROW_BITS[r][passes][voids][tricks] holds
# them all, looked up rather than shifted into place at every observation.
_ROW_BITS = tuple(
    tuple(
        tuple(
            tuple(_row_bits(r, passes, voids, tricks) for tricks in range(NUM_TRICKS + 1))
            for voids in range(1 << NUM_COLOURS)
        )
        for passes in range(MAX_PASS_CARDS + 1)
    )
    for r in range(MAX_PLAYERS)
)
_SEAT_ROWS = {
    n: tuple(
        tuple(
            (OFFSETS["played"] + NUM_BOAST_CARDS * r, _ROW_BITS[r])
            for s in range(n)
            for r in [(s - seat) % n]
        )
        for seat in range(n)
    )
    for n in PLAYER_COUNTS
}
_TRICK_SHIFTS = {
    n: tuple(
        tuple(OFFSETS["trick"] + NUM_ACTIONS * ((r + i) % n) for i in range(n)) for r in range(n)
    )
    for n in PLAYER_COUNTS
}
_PAD = {n: [0.0] * (MAX_PLAYERS - n) for n in PLAYER_COUNTS}
_HAND_PASSES, _LEFTOVERS, _LEFTOVER_PASSES, _FACE_UP, _PRIME, _LEADER = (
    OFFSETS[k]
    for k in ("hand_passes", "leftovers", "leftover_passes", "leftovers_face_up", "prime", "leader")
)


def encode(game: Game, seat: int, leftovers_face_up: bool) -> np.ndarray:
    """The observation vector (float32, shape ``(OBS_SIZE,)``) of ``seat`` in ``game``."""
    state = game.round
    n = state.config.num_players
    bits = state.hands[seat] | ((1 << state.passes[seat]) - 1) << _HAND_PASSES
    if leftovers_face_up:
        deal = state.deal
        bits |= (
            deal.leftovers << _LEFTOVERS
            | ((1 << deal.leftover_passes) - 1) << _LEFTOVER_PASSES
            | 1 << _FACE_UP
        )
    leader = state.leader
    trick = state.trick
    for card, shift in zip(trick, _TRICK_SHIFTS[n][(leader - seat) % n]):  # noqa: B905
        bits |= 1 << (shift + card)
    prime = state.prime
    if prime is not None:
        bits |= 1 << (_PRIME + prime)
    played, passes, voids, tricks = (
        state.played,
        state.passes_played,
        state.voids,
        state.tricks_won,
    )
    for s, (played_at, row_bits) in enumerate(_SEAT_ROWS[n][seat]):
        bits |= played[s] << played_at | row_bits[passes[s]][voids[s]][tricks[s]]
    bits |= (
        _TOWER_BITS[state.tower] | 1 << (_LEADER + (leader - seat) % n) | 1 << _PLAYER_COUNT_BIT[n]
    )
    scale = game.config.target_score + 1
    scores = game.scores
    fractions = [scores[s] / scale for s in _ORDER[n][seat]] + _PAD[n]
    return bits_then_fractions(bits, _BITS, fractions, OBS_SIZE)


decode = LAYOUT.decode  # splits a vector back into its named pieces, each in its shape
layout_table = LAYOUT.table  # the layout as a Markdown table (index range, shape, meaning)
