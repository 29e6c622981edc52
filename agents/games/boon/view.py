"""A small typed view of what one seat knows, built from an observation vector or a live round.

Agents decide from :class:`View`, never from raw vectors: :meth:`View.from_observation` decodes
what ``boon_v0`` shows an agent, and :meth:`View.from_round` reads the same information straight
from a :class:`~boon_env.games.boon.rules.Round`, so search rollouts can call the same decision code
without encoding an observation at every step. Both carry only what the seat may see (its own hand,
the Boon and discards only when it is the picker, public play).

Seats in a view are whatever frame it was built in: relative (``me == 0``) from an observation,
absolute from a round. Decision code only uses seat arithmetic modulo ``num_players``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boon_env.games.boon.encoding import OBS_SIZE, OFFSETS, ROLE_LEASTER
from boon_env.games.boon.rules import (
    MAX_PLAYERS,
    NUM_CARDS,
    PLAYER_COUNTS,
    TOTAL_POINTS,
    GameConfig,
    Phase,
    Round,
)

_CARD_BITS = (1 << NUM_CARDS) - 1
_FLAG_BITS = (1 << MAX_PLAYERS) - 1
_BITS = OFFSETS["points"]  # every piece before "points" is 0/1
_PHASES = tuple(Phase)
# A batch decodes the packed 0/1 part as 32-bit words: each card piece (and each seat's row of
# the trick and played pieces) is one word, and the pieces from "phase" on fit in two.
_WORD = {
    name: OFFSETS[name] // NUM_CARDS for name in ("hand", "boon", "discards", "trick", "played")
}
_FLAGS_WORD, _FLAGS_SHIFT = divmod(OFFSETS["phase"], NUM_CARDS)
_PACKED_WORDS = -(-_BITS // NUM_CARDS)
if any(OFFSETS[name] % NUM_CARDS for name in _WORD) or _BITS - OFFSETS["phase"] > 64:
    raise ImportError("View.from_observations needs the card pieces on 32-bit word boundaries")
# _HIGHEST[v]: the index of the highest set bit of v (-1 for 0), for the one-hot seat pieces.
_HIGHEST = np.array([v.bit_length() - 1 for v in range(1 << MAX_PLAYERS)])
CONFIGS: dict[int, GameConfig] = {n: GameConfig(num_players=n) for n in PLAYER_COUNTS}


@dataclass(slots=True)
class View:
    """What seat ``me`` knows, as Python ints and bitmasks.

    Attributes:
        num_players, hand_size, boon_size: the table.
        me: the seat this view belongs to.
        phase: the round's :class:`~boon_env.games.boon.rules.Phase`.
        hand: bitmask of my cards.
        boon, discards: the Boon's and the buried cards' bitmasks, known only to the picker
            (0 for everyone else).
        dealer, leader: seats of the dealer and of the player who leads the current trick.
        picker: the picker's seat, or ``None`` (before a pick and in a Leaster).
        leaster: whether everyone passed.
        passed: bitmask of seats that passed.
        trick: cards of the current trick in play order (the leader's first).
        played: per seat, bitmask of the cards it has played this round.
        voids: per seat, bitmask of the suits (bit = suit index) it has shown it lacks.
        points, tricks_won: per seat, points and tricks taken so far.
    """

    num_players: int
    hand_size: int
    boon_size: int
    me: int
    phase: Phase
    hand: int
    boon: int
    discards: int
    dealer: int
    leader: int
    picker: int | None
    leaster: bool
    passed: int
    trick: list[int]
    played: list[int]
    voids: list[int]
    points: list[int]
    tricks_won: list[int]

    @property
    def deck(self) -> int:
        """Bitmask of the cards in play at this table size."""
        return CONFIGS[self.num_players].deck

    def unseen(self) -> int:
        """Cards I cannot place: in another hand, or buried / set aside out of my sight."""
        known = self.hand | self.boon | self.discards
        for cards in self.played:
            known |= cards
        return self.deck & ~known

    @property
    def tricks_done(self) -> int:
        """Tricks completed so far."""
        return sum(self.tricks_won)

    @classmethod
    def from_round(cls, state: Round, seat: int) -> View:
        """The view of ``seat`` in ``state`` (absolute seats; lists are shared, not copied)."""
        config = state.config
        is_picker = state.picker == seat
        return cls(
            num_players=config.num_players,
            hand_size=config.hand_size,
            boon_size=config.boon_size,
            me=seat,
            phase=state.phase,
            hand=state.hands[seat],
            boon=state.boon if is_picker else 0,
            discards=state.discards if is_picker else 0,
            dealer=state.dealer,
            leader=state.leader,
            picker=state.picker,
            leaster=state.leaster,
            passed=state.passed,
            trick=state.trick,
            played=state.played,
            voids=state.voids,
            points=state.points,
            tricks_won=state.tricks_won,
        )

    @classmethod
    def from_observation(cls, observation: np.ndarray) -> View:
        """Decode a ``boon_v0`` observation vector (relative seats: ``me == 0``)."""
        obs = np.asarray(observation)
        if obs.shape != (OBS_SIZE,):
            raise ValueError(f"observation must have shape ({OBS_SIZE},), got {obs.shape}")
        # One packbits call turns the 0/1 part into a single int we slice with shifts.
        bits = int.from_bytes(np.packbits(obs[:_BITS] > 0.5, bitorder="little").tobytes(), "little")
        n = PLAYER_COUNTS[_index(bits >> OFFSETS["num_players"] & 0b111)]
        config = CONFIGS[n]
        dealer = _index(bits >> OFFSETS["dealer"] & _FLAG_BITS)
        leader_bits = bits >> OFFSETS["leader"] & _FLAG_BITS
        # Outside trick play the leader is not shown; the seat left of the dealer leads first.
        leader = _index(leader_bits) if leader_bits else (dealer + 1) % n
        trick_rows = bits >> OFFSETS["trick"]
        trick = []
        for i in range(n):
            row = trick_rows >> (NUM_CARDS * ((leader + i) % n)) & _CARD_BITS
            if not row:
                break  # the trick's cards are the first seats in play order from the leader
            trick.append(row.bit_length() - 1)
        played_rows = bits >> OFFSETS["played"]
        void_rows = bits >> OFFSETS["voids"]
        picker_bits = bits >> OFFSETS["picker"] & _FLAG_BITS
        counts = obs[_BITS:].tolist()
        tricks = config.num_tricks
        return cls(
            num_players=n,
            hand_size=config.hand_size,
            boon_size=config.boon_size,
            me=0,
            phase=_PHASES[_index(bits >> OFFSETS["phase"] & 0b1111)],
            hand=bits & _CARD_BITS,
            boon=bits >> OFFSETS["boon"] & _CARD_BITS,
            discards=bits >> OFFSETS["discards"] & _CARD_BITS,
            dealer=dealer,
            leader=leader,
            picker=_index(picker_bits) if picker_bits else None,
            leaster=bool(bits >> (OFFSETS["role"] + ROLE_LEASTER) & 1),
            passed=bits >> OFFSETS["passed"] & _FLAG_BITS,
            trick=trick,
            played=[played_rows >> (NUM_CARDS * r) & _CARD_BITS for r in range(n)],
            voids=[void_rows >> (4 * r) & 0xF for r in range(n)],
            points=[round(x * TOTAL_POINTS) for x in counts[:n]],
            tricks_won=[round(x * tricks) for x in counts[MAX_PLAYERS : MAX_PLAYERS + n]],
        )

    @classmethod
    def from_observations(cls, observations: np.ndarray) -> list[View]:
        """:meth:`from_observation` of every row of ``observations`` ``(k, OBS_SIZE)``, the same
        views, decoded with whole-batch numpy operations (several times faster per row on
        hundreds of rows: the trainer's heuristic opponents)."""
        obs = np.asarray(observations)
        if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
            raise ValueError(f"observations must have shape (k, {OBS_SIZE}), got {obs.shape}")
        at = OFFSETS["num_players"]
        sizes = np.argmax(obs[:, at : at + len(PLAYER_COUNTS)], axis=1)
        views: list[View] = [None] * len(obs)  # type: ignore[list-item] - all filled below
        for index, n in enumerate(PLAYER_COUNTS):
            rows = np.flatnonzero(sizes == index)
            for row, view in zip(rows.tolist(), _decode_batch(obs[rows], n), strict=True):
                views[row] = view
        return views


def _decode_batch(obs: np.ndarray, n: int) -> list[View]:
    # View.from_observation's decoding, column by column for rows of an n-player table.
    config = CONFIGS[n]
    # Positional, in field order: three times faster than keywords on a slots dataclass.
    return [
        View(
            n,
            config.hand_size,
            config.boon_size,
            0,
            _PHASES[phase],
            hand,
            boon,
            discards,
            dealer,
            leader,
            None if picker < 0 else picker,
            leaster == 1,
            passed,
            cards[:length],
            *rest,
        )
        for (
            phase,
            hand,
            boon,
            discards,
            dealer,
            leader,
            picker,
            leaster,
            passed,
            cards,
            length,
            *rest,  # played, voids, points, tricks won
        ) in zip(*(column.tolist() for column in _columns(obs, n)), strict=True)
    ]


def _columns(obs: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    # The View fields (trick cards and trick length for the trick) of every row, in order.
    packed = np.zeros((len(obs), 4 * _PACKED_WORDS), dtype=np.uint8)
    packed[:, : -(-_BITS // 8)] = np.packbits(obs[:, :_BITS] > 0.5, axis=1, bitorder="little")
    words = packed.view("<u4")
    flags = words[:, _FLAGS_WORD].astype(np.uint64) | (
        words[:, _FLAGS_WORD + 1].astype(np.uint64) << np.uint64(32)
    )

    def field(name: str, width: int) -> np.ndarray:
        shift = np.uint64(OFFSETS[name] - OFFSETS["phase"] + _FLAGS_SHIFT)
        return ((flags >> shift) & np.uint64((1 << width) - 1)).astype(np.int64)

    dealer = _HIGHEST[field("dealer", MAX_PLAYERS)]
    leader_bits = field("leader", MAX_PLAYERS)
    # Outside trick play the leader is not shown; the seat left of the dealer leads first.
    leader = np.where(leader_bits > 0, _HIGHEST[leader_bits], (dealer + 1) % n)
    order = (leader[:, None] + np.arange(n)) % n  # the trick's seats in play order
    trick_rows = np.take_along_axis(words[:, _WORD["trick"] : _WORD["trick"] + n], order, axis=1)
    trick_cards = np.frexp(trick_rows.astype(np.float64))[1] - 1  # the one set bit's index
    held = trick_rows != 0
    # the trick's cards are the first seats in play order from the leader
    trick_length = np.where(held.all(axis=1), n, np.argmin(held, axis=1))
    voids = field("voids", 4 * MAX_PLAYERS)
    counts = obs[:, _BITS:].astype(np.float64)
    return (
        _HIGHEST[field("phase", len(_PHASES))],
        words[:, _WORD["hand"]],
        words[:, _WORD["boon"]],
        words[:, _WORD["discards"]],
        dealer,
        leader,
        _HIGHEST[field("picker", MAX_PLAYERS)],
        field("role", 4) >> ROLE_LEASTER & 1,
        field("passed", MAX_PLAYERS),
        trick_cards,
        trick_length,
        words[:, _WORD["played"] : _WORD["played"] + n],
        (voids[:, None] >> (4 * np.arange(n))) & 0xF,
        np.rint(counts[:, :n] * TOTAL_POINTS).astype(np.int64),
        np.rint(counts[:, MAX_PLAYERS : MAX_PLAYERS + n] * CONFIGS[n].num_tricks).astype(np.int64),
    )


def _index(one_hot: int) -> int:
    return one_hot.bit_length() - 1
