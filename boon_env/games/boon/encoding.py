"""What a seated player may see, as a flat vector built from named pieces.

Seats are *relative*: 0 = the observer, 1 = the seat on its left, and so on, so one policy
serves every seat. Seat-indexed pieces always have :data:`MAX_PLAYERS` (5) rows; rows past the
table's size stay 0. :data:`PIECES` is the single source of the layout: the observation space,
the table in the docs (:func:`layout_table`) and the decoder (:func:`decode`) all derive from it.
"""

from __future__ import annotations

import numpy as np

from boon_env.core.pieces import Layout, Piece, bits_then_fractions
from boon_env.core.pieces import action_mask as _action_mask
from boon_env.games.boon.rules import (
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    PLAYER_COUNTS,
    TOTAL_POINTS,
    Phase,
    Round,
)

NUM_ROLES = 4
ROLE_UNDECIDED, ROLE_PICKER, ROLE_DEFENDER, ROLE_LEASTER = range(NUM_ROLES)
ROLE_NAMES = ("undecided", "picker", "defender", "leaster")


PIECES: tuple[Piece, ...] = (
    Piece("hand", (NUM_CARDS,), "1 for each card id in my hand"),
    Piece("boon", (NUM_CARDS,), "the Boon's cards; only the picker sees them, after picking"),
    Piece("discards", (NUM_CARDS,), "the cards I buried; only the picker sees them"),
    Piece("trick", (MAX_PLAYERS, NUM_CARDS), "current trick: row r = card played by seat r"),
    Piece("played", (MAX_PLAYERS, NUM_CARDS), "row r = every card seat r has played this round"),
    Piece("phase", (len(Phase),), "one-hot: pick, discard, play, done"),
    Piece("role", (NUM_ROLES,), "one-hot: undecided, picker, defender, leaster"),
    Piece("num_players", (len(PLAYER_COUNTS),), "one-hot: 3, 4, 5 players"),
    Piece("dealer", (MAX_PLAYERS,), "one-hot relative seat of the dealer"),
    Piece("picker", (MAX_PLAYERS,), "one-hot relative seat of the picker (all 0 if none)"),
    Piece("leader", (MAX_PLAYERS,), "one-hot relative seat that leads the current trick"),
    Piece("passed", (MAX_PLAYERS,), "1 for each relative seat that passed"),
    Piece("voids", (MAX_PLAYERS, 4), "row r, suit s: seat r failed to follow suit s"),
    Piece("points", (MAX_PLAYERS,), "points won in tricks per seat / 120"),
    Piece("tricks_won", (MAX_PLAYERS,), "tricks won per seat / tricks in a round"),
    Piece("victory_cards", (MAX_PLAYERS,), "Victory Cards per seat / all Victory Cards in play"),
)

LAYOUT = Layout(PIECES)
OFFSETS: dict[str, int] = LAYOUT.offsets
OBS_SIZE = LAYOUT.size

# Every piece before "points" is 0/1, so encode() sets its bits in one Python int and unpacks
# them with a single numpy call; the three count pieces after it are fractions.
_BITS = OFFSETS["points"]
_BOON, _DISCARDS, _TRICK, _PLAYED = (OFFSETS[k] for k in ("boon", "discards", "trick", "played"))
_PHASE, _ROLE, _NUM_PLAYERS, _DEALER = (
    OFFSETS[k] for k in ("phase", "role", "num_players", "dealer")
)
_PICKER, _LEADER, _PASSED, _VOIDS = (OFFSETS[k] for k in ("picker", "leader", "passed", "voids"))
_PLAYER_COUNT_INDEX = {n: i for i, n in enumerate(PLAYER_COUNTS)}
# Per table size n and observer seat: _ORDER[n][seat][r] is the absolute seat at relative seat r;
# _SEAT_SHIFTS[n][seat][s] the bit offsets of absolute seat s's played row and voids row;
# _TRICK_SHIFTS[n][r] the offsets of the trick rows in play order when relative seat r leads.
_ORDER = {
    n: tuple(tuple((seat + r) % n for r in range(n)) for seat in range(n)) for n in PLAYER_COUNTS
}
_SEAT_SHIFTS = {
    n: tuple(
        tuple(
            (_PLAYED + NUM_CARDS * ((s - seat) % n), _VOIDS + 4 * ((s - seat) % n))
            for s in range(n)
        )
        for seat in range(n)
    )
    for n in PLAYER_COUNTS
}
_TRICK_SHIFTS = {
    n: tuple(tuple(_TRICK + NUM_CARDS * ((r + i) % n) for i in range(n)) for r in range(n))
    for n in PLAYER_COUNTS
}
_PAD = {n: [0.0] * (MAX_PLAYERS - n) for n in PLAYER_COUNTS}
_PLAY = Phase.PLAY  # a global is cheaper to look up than an enum member


def encode(state: Round, seat: int, victory_cards: list[int]) -> np.ndarray:
    """The observation vector (float32, shape ``(OBS_SIZE,)``) of ``seat`` in ``state``."""
    n = state.config.num_players
    order = _ORDER[n][seat]
    picker, leader, phase = state.picker, state.leader, state.phase
    bits = state.hands[seat]
    if picker == seat:  # only the picker has seen the Boon and knows its discards
        bits |= state.boon << _BOON | state.discards << _DISCARDS
    for card, shift in zip(state.trick, _TRICK_SHIFTS[n][(leader - seat) % n]):  # noqa: B905
        bits |= 1 << (shift + card)
    for played, voids, (played_shift, voids_shift) in zip(  # noqa: B905 - all n long
        state.played, state.voids, _SEAT_SHIFTS[n][seat]
    ):
        bits |= played << played_shift | voids << voids_shift
    passed = state.passed  # rotate the absolute-seat bitmask so that bit 0 is the observer
    bits |= ((passed >> seat | passed << (n - seat)) & ((1 << n) - 1)) << _PASSED
    if state.leaster:
        role = ROLE_LEASTER
    elif picker is None:
        role = ROLE_UNDECIDED
    else:
        role = ROLE_PICKER if picker == seat else ROLE_DEFENDER
    bits |= (
        1 << (_PHASE + phase)
        | 1 << (_ROLE + role)
        | 1 << (_NUM_PLAYERS + _PLAYER_COUNT_INDEX[n])
        | 1 << (_DEALER + (state.dealer - seat) % n)
    )
    if picker is not None:
        bits |= 1 << (_PICKER + (picker - seat) % n)
    if phase is _PLAY:
        bits |= 1 << (_LEADER + (leader - seat) % n)

    pad = _PAD[n]
    points, tricks_won, tricks = state.points, state.tricks_won, state.config.num_tricks
    total_vc = sum(victory_cards)
    fractions = (
        [points[s] / TOTAL_POINTS for s in order]
        + pad
        + [tricks_won[s] / tricks for s in order]
        + pad
        + [victory_cards[s] / total_vc for s in order]
        + pad
    )
    return bits_then_fractions(bits, _BITS, fractions, OBS_SIZE)


def action_mask(legal: int) -> np.ndarray:
    """The int8 mask of shape ``(NUM_ACTIONS,)`` of a legal-action bitmask."""
    return _action_mask(legal, NUM_ACTIONS)


def decode(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Split an observation vector back into its named pieces, each in its own shape."""
    return LAYOUT.decode(obs)


def layout_table() -> str:
    """The observation layout as a Markdown table (index range, shape, meaning)."""
    return LAYOUT.table()
