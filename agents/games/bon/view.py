"""What one B.O.N seat knows, decoded from a ``bon_v0`` observation into Python ints, or read
straight from the rules engine's round (the same view, without encoding: rollouts).

Seats are relative (``me == 0``), as in the observation. Everything here is public play, the
seat's own cards and, when they lie face up, the leftovers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boon_env.games.bon.encoding import NUM_COLOURS, OBS_SIZE, OFFSETS, PIECES
from boon_env.games.bon.rules import NUM_BOAST_CARDS, NUM_TRICKS, PLAYER_COUNTS, GameConfig, Round
from boon_env.games.bon.rules.tricks import MAX_PASS_CARDS, NUM_LEFTOVERS

_BITS = OFFSETS["scores"]  # every piece before "scores" is 0/1
_CARDS = (1 << NUM_BOAST_CARDS) - 1
_TRICK_ROW = NUM_BOAST_CARDS + 1  # a trick row also has the Pass card's column
_CONFIGS = {n: GameConfig(num_players=n) for n in PLAYER_COUNTS}


@dataclass(slots=True)
class BonView:
    """What seat 0 (me) knows.

    Attributes:
        config: the table's :class:`~boon_env.games.bon.rules.GameConfig` (target score at its
        default). hand, passes: my Boast cards (bitmask) and my Pass cards.
        leftovers, leftover_passes: the leftovers when face up (else 0, 0).
        leftovers_seen: whether the leftovers lie face up.
        tower: the colours, strongest first.
        leader: the relative seat that leads the current trick.
        trick: the current trick's cards in play order (33 for a Pass card).
        played, passes_played: per relative seat, the Boast cards (bitmask) and Pass cards
            it has played this round.
        voids: per relative seat, bitmask of the colours it has shown it lacks.
        tricks_won: per relative seat.
    """

    config: GameConfig
    hand: int
    passes: int
    leftovers: int
    leftover_passes: int
    leftovers_seen: bool
    tower: tuple[int, ...]
    leader: int
    trick: list[int]
    played: list[int]
    passes_played: list[int]
    voids: list[int]
    tricks_won: list[int]

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self.config.num_players

    def unseen(self) -> int:
        """Boast cards I cannot place: in other hands, or in face-down leftovers."""
        known = self.hand | self.leftovers
        for cards in self.played:
            known |= cards
        return self.config.deck & ~known

    @classmethod
    def from_round(cls, state: Round, seat: int, leftovers_seen: bool = True) -> BonView:
        """The view of ``seat`` in a live round: what its observation
        (``encode(game, seat, leftovers_seen)``) shows, without encoding."""
        n = state.config.num_players
        order = [(seat + r) % n for r in range(n)]
        deal = state.deal
        return cls(
            config=_CONFIGS[n],
            hand=state.hands[seat],
            passes=state.passes[seat],
            leftovers=deal.leftovers if leftovers_seen else 0,
            leftover_passes=deal.leftover_passes if leftovers_seen else 0,
            leftovers_seen=leftovers_seen,
            tower=tuple(state.tower),
            leader=(state.leader - seat) % n,
            trick=list(state.trick),
            played=[state.played[s] for s in order],
            passes_played=[state.passes_played[s] for s in order],
            voids=[state.voids[s] for s in order],
            tricks_won=[state.tricks_won[s] for s in order],
        )

    @classmethod
    def from_observation(cls, observation: np.ndarray) -> BonView:
        """Decode a ``bon_v0`` observation vector."""
        obs = np.asarray(observation)
        if obs.shape != (OBS_SIZE,):
            raise ValueError(f"observation must have shape ({OBS_SIZE},), got {obs.shape}")
        bits = int.from_bytes(np.packbits(obs[:_BITS] > 0.5, bitorder="little").tobytes(), "little")
        n = PLAYER_COUNTS[_index(bits >> OFFSETS["num_players"] & 0b111)]
        tower_bits = bits >> OFFSETS["tower"]
        leader = _index(bits >> OFFSETS["leader"] & 0b11111)
        trick = []
        for i in range(n):
            row = bits >> (OFFSETS["trick"] + _TRICK_ROW * ((leader + i) % n)) & (
                (1 << _TRICK_ROW) - 1
            )
            if not row:
                break  # the trick's cards are the first seats in play order from the leader
            trick.append(_index(row))
        return cls(
            config=_CONFIGS[n],
            hand=bits & _CARDS,
            passes=_count(bits >> OFFSETS["hand_passes"] & ((1 << MAX_PASS_CARDS) - 1)),
            leftovers=bits >> OFFSETS["leftovers"] & _CARDS,
            leftover_passes=_count(bits >> OFFSETS["leftover_passes"] & ((1 << NUM_LEFTOVERS) - 1)),
            leftovers_seen=bool(bits >> OFFSETS["leftovers_face_up"] & 1),
            tower=tuple(
                _index(tower_bits >> (NUM_COLOURS * p) & 0b111) for p in range(NUM_COLOURS)
            ),
            leader=leader,
            trick=trick,
            played=[bits >> (OFFSETS["played"] + NUM_BOAST_CARDS * r) & _CARDS for r in range(n)],
            passes_played=[
                _count(bits >> (OFFSETS["passes_played"] + MAX_PASS_CARDS * r) & 0b1111)
                for r in range(n)
            ],
            voids=[bits >> (OFFSETS["voids"] + NUM_COLOURS * r) & 0b111 for r in range(n)],
            tricks_won=[
                _index(bits >> (OFFSETS["tricks_won"] + (NUM_TRICKS + 1) * r) & 0xFF)
                for r in range(n)
            ],
        )

    @classmethod
    def from_observations(cls, observations: np.ndarray) -> list[BonView]:
        """:meth:`from_observation` of every row of ``observations`` ``(k, OBS_SIZE)``, the same
        views, each piece decoded for all rows with one numpy operation (several times faster
        per row on hundreds of rows: the trainer's heuristic opponents)."""
        obs = np.asarray(observations)
        if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
            raise ValueError(f"observations must have shape (k, {OBS_SIZE}), got {obs.shape}")
        bits = (obs[:, :_BITS] > 0.5).astype(np.int64)
        n = np.array(PLAYER_COUNTS)[_highest(_piece(bits, "num_players"))].tolist()
        hand = _words(bits, "hand").tolist()
        passes = np.bitwise_count(_words(bits, "hand_passes")).tolist()
        leftovers = _words(bits, "leftovers").tolist()
        leftover_passes = np.bitwise_count(_words(bits, "leftover_passes")).tolist()
        face_up = _words(bits, "leftovers_face_up").astype(bool).tolist()
        tower = _highest(_piece(bits, "tower")).tolist()
        leader = _highest(_piece(bits, "leader")).tolist()
        trick = _highest(_piece(bits, "trick")).tolist()  # per seat, -1: no card yet
        played = _words(bits, "played").tolist()
        passes_played = np.bitwise_count(_words(bits, "passes_played")).tolist()
        voids = _words(bits, "voids").tolist()
        tricks_won = _highest(_piece(bits, "tricks_won")).tolist()
        views = []
        for i, players in enumerate(n):
            cards = [trick[i][(leader[i] + j) % players] for j in range(players)]
            # the trick's cards are the first seats in play order from the leader
            cards = cards[: cards.index(-1)] if -1 in cards else cards
            views.append(
                cls(
                    config=_CONFIGS[players],
                    hand=hand[i],
                    passes=passes[i],
                    leftovers=leftovers[i],
                    leftover_passes=leftover_passes[i],
                    leftovers_seen=face_up[i],
                    tower=tuple(tower[i]),
                    leader=leader[i],
                    trick=cards,
                    played=played[i][:players],
                    passes_played=passes_played[i][:players],
                    voids=voids[i][:players],
                    tricks_won=tricks_won[i][:players],
                )
            )
        return views


_PIECES = {piece.name: piece for piece in PIECES}
_POWERS = 1 << np.arange(63, dtype=np.int64)


def _piece(bits: np.ndarray, name: str) -> np.ndarray:
    # One piece of every row, in its own shape: (k, *shape).
    piece = _PIECES[name]
    start = OFFSETS[name]
    return bits[:, start : start + piece.size].reshape(len(bits), *piece.shape)


def _words(bits: np.ndarray, name: str) -> np.ndarray:
    # Each row of a piece as an integer, bit j = its entry j: (k,) or (k, rows).
    block = _piece(bits, name)
    return block @ _POWERS[: block.shape[-1]]


def _highest(block: np.ndarray) -> np.ndarray:
    # The index of the last 1 along the last axis (the one of a one-hot), -1 where none.
    width = block.shape[-1]
    last = width - 1 - np.argmax(block[..., ::-1], axis=-1)
    return np.where(block.any(axis=-1), last, -1)


def _index(one_hot: int) -> int:
    return one_hot.bit_length() - 1


def _count(thermometer: int) -> int:
    return thermometer.bit_count()
