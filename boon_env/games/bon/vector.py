"""# Many B.O.N tables at once: the batched rules engine

| | |
| --- | --- |
| Import | `from boon_env.games.bon.vector import VectorBon` |
| Tables | `num_tables` (B) independent tables of 3, 4 or 5 players, one decision each per step |
| Actions | `(B,)` integers, the action ids of `bon_v0` (0-32 Boast cards, 33 a Pass card) |
| Observations | `(B, OBS_SIZE)` float32, the acting seat's `bon_v0` observation (or none) |
| Masks | `(B, 34)` int8 legal-action masks of the acting seats |
| Rewards | `(B, n)` float32, every seat's points (0, 1 or 2) where a round just ended |

Every table plays rounds of B.O.N for ever, as in a `bon_v0` game without an end: when a round
ends, its points are reported and the table is dealt its next round at once, the tower carrying
over and the first lead passing left. Each step every table's acting seat plays one card, so a
step is B decisions.

```python
>>> import numpy as np
>>> from boon_env.games.bon.vector import VectorBon
>>> venv = VectorBon(num_tables=8, num_players=4, seed=0)
>>> obs, mask, seat = venv.reset()
>>> obs.shape, mask.shape, seat.shape
((8, 508), (8, 34), (8,))
>>> rng = np.random.default_rng(0)
>>> for _ in range(200):  # random legal play
...     actions = venv.random_actions(rng)  # or a policy's choice given obs and mask
...     obs, mask, seat, rewards, done = venv.step(actions)
>>> int(venv.finished.rounds.sum())  # rounds finished over all tables (28 decisions each)
56
>>> venv.finished.tricks_won.sum(axis=1).tolist()  # every round has 7 tricks
[7, 7, 7, 7, 7, 7, 7, 7]

```

## Same rules, second implementation

The rules are those of `boon_env.games.bon.rules` (`docs/bon.md`); this module implements them a
second time, over arrays of B tables, for speed. `tests/rules/test_bon_vector.py` drives this
engine, the scalar `boon_env.games.bon.rules.Round` and `bon_v0.raw_env` with the same deals and
actions and checks that legal masks, observations (bit for bit) and round points are identical.

## Observations

`observe(tables, seats)` is `boon_env.games.bon.encoding.encode(game, seat, leftovers_face_up)` for
each chosen table in a game whose scores are all 0: the engine keeps no scores, so the `scores`
piece is always 0, as in `bon_v0` with `episode="round"`. With `hidden_leftovers=True` the
leftovers lie face down, as in `bon_v0(hidden_leftovers=True)`. With `observations=False` the
engine builds no observations (`obs` is `None`), for rollouts that only need the masks.

## Rewards

`rewards[i, s]` is the points seat `s` scored in the round that table `i` just finished (1 for
exactly the table's trick goal, 2 for no trick, else 0: the arena's unit, points per round), and
0 on tables whose round goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import permutations
from typing import Any

import numpy as np

from boon_env.core.vector import (
    Outputs,
    VectorEngine,
    check_counts,
    check_seat,
    prefixed,
    rotate,
    unpack_bits,
)
from boon_env.games.bon.encoding import OBS_SIZE, OFFSETS, PIECES
from boon_env.games.bon.rules.cards import (
    ALL_BOAST_CARDS,
    COLOUR_MASK,
    COLOUR_OF,
    COLOURS,
    NUM_ACTIONS,
    NUMBER_OF,
    NUMBERS,
    PASS,
    card_name,
)
from boon_env.games.bon.rules.round import Deal, _deck_weights, _mask_and_passes
from boon_env.games.bon.rules.tricks import (
    HAND_SIZE,
    MAX_PASS_CARDS,
    NUM_TRICKS,
    PLAYER_COUNTS,
    GameConfig,
    check_tower,
    points_for_tricks,
    tower_after_trick,
)

__all__ = ["FinishedRounds", "VectorBon"]

# ------------------------------------------------------------------------- cards
# A "cards word" holds a hand (or the leftovers): the Boast cards as bits 0-32 and the number of
# Pass cards as a thermometer from bit PASS up (k Pass cards: bits PASS .. PASS + k - 1). Its
# bit PASS is then the Pass action's legality, and the word is the observation's `hand` and
# `hand_passes` pieces (`leftovers` and `leftover_passes`) as they lie, side by side.
_BIT = np.array([1 << a for a in range(NUM_ACTIONS)], dtype=np.int64)  # by action id
_BOAST_BIT = _BIT & ALL_BOAST_CARDS  # 0 for a Pass card
_PASS_BIT = 1 << PASS
_PASS_BITS = ((1 << MAX_PASS_CARDS) - 1) << PASS
_THERMOMETER = np.array([(1 << k) - 1 for k in range(MAX_PASS_CARDS + 1)], dtype=np.int64)

# ------------------------------------------------------------------------- colours
_COLOURS = len(COLOURS)
_NO_COLOUR = _COLOURS  # the prime colour of a trick before its first Boast card
_CARD_COLOUR = np.array([*COLOUR_OF, _NO_COLOUR], dtype=np.int64)  # by action id
_FOLLOWING = np.array([*COLOUR_MASK, 0], dtype=np.int64)  # by prime colour
# The cards that show no void when played under each prime colour: that colour and a Pass card
# (and anything before there is a prime colour).
_SHOWS_NO_VOID = np.array([*(m | _PASS_BIT for m in COLOUR_MASK), -1], dtype=np.int64)

# ------------------------------------------------------------------------- the tower
# A tower is held as its index in _TOWERS.
_TOWERS = tuple(permutations(COLOURS))
_TOWER_COLOURS = np.array(_TOWERS, dtype=np.int64)
_TOWER_INDEX = {tower: i for i, tower in enumerate(_TOWERS)}
# The tower after a trick, by the tower and the winning card's colour.
_TOWER_AFTER = np.array(
    [[_TOWER_INDEX[tower_after_trick(tower, colour)] for colour in COLOURS] for tower in _TOWERS],
    dtype=np.int64,
)


def _strength(tower: tuple[int, ...], card: int) -> int:
    # Within a trick the tower is fixed: the trick goes to the strongest card played, the
    # highest number of the colour highest in the tower. A Pass card (0) never wins.
    if card == PASS:
        return 0
    return (_COLOURS - 1 - tower.index(COLOUR_OF[card])) * NUMBERS + NUMBER_OF[card]


_STRENGTH = np.array(
    [[_strength(tower, card) for card in range(NUM_ACTIONS)] for tower in _TOWERS], dtype=np.int64
)

# ------------------------------------------------------------------------- observation layout
_SIZE = {piece.name: piece.size for piece in PIECES}
_ROW = {piece.name: piece.shape[-1] for piece in PIECES}  # a seat-indexed piece's row
# Pieces that lie side by side are written as one word: a cards word is `hand` + `hand_passes`;
# the leftovers' cards word and the face-up bit are `leftovers` + `leftover_passes` +
# `leftovers_face_up`; `prime` and `leader` are two one-hots (tests/rules/test_bon_vector.py checks
# the adjacency).
_HAND_WIDTH = _SIZE["hand"] + _SIZE["hand_passes"]
_LEFTOVERS_WIDTH = _SIZE["leftovers"] + _SIZE["leftover_passes"] + _SIZE["leftovers_face_up"]
_FACE_UP_BIT = 1 << (_LEFTOVERS_WIDTH - 1)
_PRIME_WIDTH = _SIZE["prime"] + _SIZE["leader"]
_PRIME_WORD = np.array([*(1 << c for c in COLOURS), 0], dtype=np.int64)  # by prime colour
_TOWER_WORD = np.array(  # the tower piece: bit 3 * place + colour
    [sum(1 << (_COLOURS * place + c) for place, c in enumerate(t)) for t in _TOWERS],
    dtype=np.int64,
)


@dataclass
class FinishedRounds:
    """The last finished round of every table, as :attr:`VectorEngine.finished
    <boon_env.core.vector.VectorEngine.finished>` returns it.

    Attributes:
        rounds: rounds finished per table since ``reset``, shape (B,).
        leader: the seat that led the round's first trick, (B,).
        tower: the tower at the round's end, colours top first, (B, 3).
        tricks_won: tricks won per seat, (B, n).
        values: points per seat (0, 1 or 2: the step's rewards), (B, n).
    """

    rounds: np.ndarray
    leader: np.ndarray
    tower: np.ndarray
    tricks_won: np.ndarray
    values: np.ndarray

    @classmethod
    def empty(cls, num_tables: int, num_players: int) -> FinishedRounds:
        """Records of ``num_tables`` tables that have finished no round."""
        return cls(
            rounds=np.zeros(num_tables, dtype=np.int64),
            leader=np.full(num_tables, -1, dtype=np.int64),
            tower=np.full((num_tables, _COLOURS), -1, dtype=np.int64),
            tricks_won=np.zeros((num_tables, num_players), dtype=np.int64),
            values=np.zeros((num_tables, num_players), dtype=np.int64),
        )


_DEAL_KEYS = ("hands", "leftovers", "tower", "leader")


class VectorBon(VectorEngine):
    """``num_tables`` B.O.N tables of ``num_players`` each, stepped together; see the module
    docstring and :class:`~boon_env.core.vector.VectorEngine` (``reset``, ``step``,
    ``observe``, ``action_masks``, ``random_actions``, ``seat``, ``legal``, ``finished``).

    Args:
        num_tables: B, the number of tables (>= 1).
        num_players: 3, 4 or 5 seats at every table.
        seed: seed of the engine's own ``numpy.random.Generator``, which draws every deal and
            every table's first tower and first leader (``None``: fresh entropy). The same seed
            and actions give the same deals and results.
        observations: build the acting seats' observations in ``reset`` and ``step``; with
            ``False`` they return ``None`` in place of ``obs`` (masks only, for rollouts).
        hidden_leftovers: the leftovers lie face down (``bon_v0``'s option of that name).

    A deal, as ``deal(i)`` returns it and ``reset(deals=...)`` takes one per table, is
    ``{"hands": [[ids], ...], "leftovers": [ids], "tower": [colours, top first], "leader":
    seat}`` (a Pass card is 33, repeated); later rounds are dealt from the generator, the tower
    carried over and the first lead passed left. ``legal`` is (B,) int64 bitmasks over the 34
    actions; ``finished`` is a :class:`FinishedRounds`; ``step``'s rewards are every seat's
    points (0, 1 or 2).

    The state is held in arrays of B rows, hands as int64 cards words (the Boast cards' bits,
    the Pass cards as a thermometer above them). Read it through the properties and methods,
    which return copies.
    """

    num_actions = NUM_ACTIONS
    action_name = staticmethod(card_name)
    hidden_leftovers: bool

    def __init__(
        self,
        num_tables: int,
        num_players: int = 4,
        seed: int | None = None,
        observations: bool = True,
        *,
        hidden_leftovers: bool = False,
    ) -> None:
        super().__init__(
            num_tables,
            partial(GameConfig, num_players=num_players),
            seed,
            observations,
            hidden_leftovers=hidden_leftovers,
        )
        self._deck = _deck_weights(self.config.deck, self.config.pass_cards)
        self._round_points = np.array(
            [points_for_tricks(t, self.config.trick_goal) for t in range(NUM_TRICKS + 1)],
            dtype=np.int64,
        )
        self._num_players_at = OFFSETS["num_players"] + PLAYER_COUNTS.index(self.num_players)

    def _deal_of(self, table: int) -> dict[str, Any]:
        places = [_mask_and_count(int(w)) for w in self._dealt_hands[table]]
        leftovers, leftover_passes = _mask_and_count(int(self._dealt_leftovers[table]))
        hands, leftover_cards = Deal(
            hands=tuple(mask for mask, _ in places),
            hand_passes=tuple(count for _, count in places),
            leftovers=leftovers,
            leftover_passes=leftover_passes,
        ).card_lists()
        return {
            "hands": hands,
            "leftovers": leftover_cards,
            "tower": list(_TOWERS[self._dealt_tower[table]]),
            "leader": int(self._first_leader[table]),
        }

    # ------------------------------------------------------------------------- reset
    def reset_deals(
        self, deals: Sequence[Deal], towers: Sequence[Sequence[int]], leaders: Sequence[int]
    ) -> Outputs:
        """:meth:`reset` from one :class:`~boon_env.games.bon.rules.Deal` (bitmasks and Pass
        counts), one tower (colours, top first) and one first leader per table: for callers that
        hold deals as :class:`~boon_env.games.bon.rules.Deal` already, with no card lists to build
        and read back.

        Raises:
            ValueError: not one deal, tower and leader per table, a deal that is not a partition
                of the deck into hands and leftovers of the right sizes, a tower that is not the
                three colours or a leader that is not a seat (naming the table); the engine is
                then left as it was.
        """
        b, n = self.num_tables, self.num_players
        check_counts(b, deals=deals, towers=towers, leaders=leaders)
        for table, deal in enumerate(deals):
            if not isinstance(deal, Deal):
                raise ValueError(f"deals[{table}] must be a Deal, got {deal!r}")
            prefixed(f"deals[{table}]", lambda deal=deal: deal.check(self.config))
        indices = [_tower_index(tower, f"towers[{t}]") for t, tower in enumerate(towers)]
        seats = [check_seat(f"leaders[{t}]", leader, n) for t, leader in enumerate(leaders)]
        hands, leftovers = _cards_words(deals)
        return self._deal_tables((hands, leftovers, np.array(indices), np.array(seats)))

    def _check_deal_dicts(
        self, deals: Sequence[dict[str, Any]]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        checked, towers, leaders = [], [], []
        for table, deal in self._deal_dicts(deals, _DEAL_KEYS):
            where = f"deals[{table}]"
            leaders.append(check_seat(f"{where}['leader']", deal["leader"], self.num_players))
            towers.append(_tower_index(deal["tower"], f"{where}['tower']"))
            checked.append(
                prefixed(
                    where,
                    lambda deal=deal: Deal.from_cards(
                        self.config, deal["hands"], deal["leftovers"]
                    ),
                )
            )
        hands, leftovers = _cards_words(checked)
        return hands, leftovers, np.array(towers), np.array(leaders)

    def _start_tables(
        self, given: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None
    ) -> None:
        """Start every table's first round from ``given`` ``(hands, leftovers, towers,
        leaders)``, or from the generator."""
        b, n = self.num_tables, self.num_players
        self._current = np.empty(b, dtype=np.int64)
        self._leader = np.empty(b, dtype=np.int64)  # of the current trick
        self._first_leader = np.empty(b, dtype=np.int64)  # of the round
        self._tower = np.empty(b, dtype=np.int64)  # index into _TOWERS
        self._prime = np.empty(b, dtype=np.int64)  # _NO_COLOUR while there is none
        self._best = np.empty(b, dtype=np.int64)  # the trick's strongest card so far (or PASS)
        self._winner = np.empty(b, dtype=np.int64)  # the seat that played it
        self._tricks = np.empty(b, dtype=np.int64)  # tricks completed in the round
        self._voids = np.empty(b, dtype=np.int64)  # bit 3 * s + colour: seat s has none of it
        self._leftovers = np.empty(b, dtype=np.int64)  # a cards word
        self._legal = np.zeros(b, dtype=np.int64)
        # Per seat, (B, n); the *_flat views index seat s of table i at i * n + s.
        self._hands = np.empty((b, n), dtype=np.int64)  # cards words
        self._played = np.empty((b, n), dtype=np.int64)  # Boast cards
        self._passes_played = np.empty((b, n), dtype=np.int64)
        self._trick_by_seat = np.empty((b, n), dtype=np.int64)  # the action bit each seat put in
        self._tricks_won = np.empty((b, n), dtype=np.int64)
        self._hands_flat, self._played_flat, self._passes_played_flat = (
            a.reshape(-1) for a in (self._hands, self._played, self._passes_played)
        )
        self._trick_by_seat_flat, self._tricks_won_flat = (
            a.reshape(-1) for a in (self._trick_by_seat, self._tricks_won)
        )
        self._dealt_hands = np.empty((b, n), dtype=np.int64)
        self._dealt_leftovers = np.empty(b, dtype=np.int64)
        self._dealt_tower = np.empty(b, dtype=np.int64)
        self._finished = FinishedRounds.empty(b, n)
        if given is None:
            towers = self._rng.integers(len(_TOWERS), size=b)
            leaders = self._rng.integers(n, size=b)
            hands, leftovers = self._random_deals(b)
        else:
            hands, leftovers, towers, leaders = given
        self._start_rounds(self._rows, hands, leftovers, towers, leaders)

    def _random_deals(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        # Shuffle the table's deck for each table (sorting random keys), then deal the hands in
        # seat order and the rest to the leftovers, as Deal.random does for one table, from the
        # same card weights.
        n = self.num_players
        order = np.argsort(self._rng.random((count, self._deck.size)), axis=1)
        weights = self._deck.take(order)
        hands = weights[:, : n * HAND_SIZE].reshape(count, n, HAND_SIZE).sum(axis=2)
        leftovers = weights[:, n * HAND_SIZE :].sum(axis=1)
        return _cards_word(*_mask_and_passes(hands)), _cards_word(*_mask_and_passes(leftovers))

    def _start_rounds(
        self,
        rows: np.ndarray,
        hands: np.ndarray,
        leftovers: np.ndarray,
        towers: np.ndarray,
        leaders: np.ndarray,
    ) -> None:
        self._current[rows] = leaders
        self._leader[rows] = leaders
        self._first_leader[rows] = leaders
        self._tower[rows] = towers
        self._prime[rows] = _NO_COLOUR
        self._best[rows] = PASS
        self._hands[rows] = hands
        self._leftovers[rows] = leftovers
        self._dealt_hands[rows] = hands
        self._dealt_leftovers[rows] = leftovers
        self._dealt_tower[rows] = towers
        for per_table in (
            self._tricks,
            self._voids,
            self._played,
            self._passes_played,
            self._trick_by_seat,
            self._tricks_won,
        ):
            per_table[rows] = 0

    # ------------------------------------------------------------------------- the rules
    def _apply(self, rows: np.ndarray, cards: np.ndarray) -> None:
        # Every action is a card played (a Boast card or a Pass card).
        seat = self._current[rows]
        flat = self._row_base[rows] + seat
        hand = self._hands_flat[flat]
        bit = _BIT[cards]
        passing = cards == PASS
        # A Pass card leaves the hand as the top bit of its thermometer.
        top_pass = hand & ~(hand >> 1) & _PASS_BITS
        self._hands_flat[flat] = hand ^ np.where(passing, top_pass, bit)
        self._played_flat[flat] |= _BOAST_BIT[cards]
        self._passes_played_flat[flat] += passing
        self._trick_by_seat_flat[flat] = bit
        # Playing another colour's Boast card under a prime colour proves holding none of it.
        prime = self._prime[rows]
        shows_void = (bit & _SHOWS_NO_VOID[prime]) == 0
        self._voids[rows] |= shows_void << (_COLOURS * seat + prime)
        # The first Boast card of the trick sets the prime colour.
        self._prime[rows] = np.where(prime == _NO_COLOUR, _CARD_COLOUR[cards], prime)
        tower, best = self._tower[rows], self._best[rows]
        stronger = _STRENGTH[tower, cards] > _STRENGTH[tower, best]
        self._best[rows] = np.where(stronger, cards, best)
        self._winner[rows] = np.where(stronger, seat, self._winner[rows])
        self._next_in_trick(rows, seat)

    def _finish_tricks(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        winner = self._winner[rows]
        self._tricks_won_flat[self._row_base[rows] + winner] += 1
        # The winning colour moves to the bottom of the tower.
        self._tower[rows] = _TOWER_AFTER[self._tower[rows], _CARD_COLOUR[self._best[rows]]]
        self._trick_by_seat[rows] = 0
        self._prime[rows] = _NO_COLOUR
        self._best[rows] = PASS
        # The winner of a trick leads the next one.
        self._leader[rows] = winner
        self._current[rows] = winner
        tricks = self._tricks[rows] + 1
        self._tricks[rows] = tricks
        self._finish_rounds(rows[tricks == NUM_TRICKS])

    def _finish_rounds(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        tricks_won = self._tricks_won.take(rows, axis=0)
        values = self._round_points[tricks_won]
        towers = self._tower[rows]
        self._record_rounds(
            rows,
            values,
            leader=self._first_leader[rows],
            tower=_TOWER_COLOURS[towers],
            tricks_won=tricks_won,
        )
        # The tower carries over; the first lead passes left.
        hands, leftovers = self._random_deals(rows.size)
        leaders = self._left_of[self._first_leader[rows]]
        self._start_rounds(rows, hands, leftovers, towers, leaders)

    def _update_legal(self, rows: np.ndarray) -> None:
        at = self._selection(rows)
        hand = self._hands_flat[self._row_base[at] + self._current[at]]
        # Follow the prime colour if you can; else play any card. A Pass card is always legal.
        boast = hand & ALL_BOAST_CARDS
        following = hand & _FOLLOWING[self._prime[at]]
        legal = np.where(following != 0, following, boast) | (hand & _PASS_BIT)
        self._store_legal(rows, legal)

    # ------------------------------------------------------------------------- observations
    def _encode(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        n = self.num_players
        base = self._row_base[rows]
        # Relative seats: row r of a seat-indexed piece is absolute seat (seat + r) % n.
        relative = base[:, None] + self._rotation.take(seat, axis=0)
        leader_at = self._relative[self._leader[rows] - seat + n]
        obs = np.zeros((rows.size, OBS_SIZE), dtype=np.float32)  # rows past the table's size: 0
        _put(obs, "hand", self._hands_flat[base + seat], _HAND_WIDTH)
        if not self.hidden_leftovers:
            _put(obs, "leftovers", self._leftovers[rows] | _FACE_UP_BIT, _LEFTOVERS_WIDTH)
        _put(obs, "tower", _TOWER_WORD[self._tower[rows]], _SIZE["tower"])
        _put(obs, "trick", self._trick_by_seat_flat[relative], _ROW["trick"])
        prime_and_leader = _PRIME_WORD[self._prime[rows]] | 1 << (_SIZE["prime"] + leader_at)
        _put(obs, "prime", prime_and_leader, _PRIME_WIDTH)
        _put(obs, "played", self._played_flat[relative], _ROW["played"])
        passes = _THERMOMETER[self._passes_played_flat[relative]]
        _put(obs, "passes_played", passes, _ROW["passes_played"])
        voids = rotate(self._voids[rows], _COLOURS * seat, _COLOURS * n)
        _put(obs, "voids", voids, _COLOURS * n)
        _put(obs, "tricks_won", 1 << self._tricks_won_flat[relative], _ROW["tricks_won"])
        obs[:, self._num_players_at] = 1
        return obs


def _tower_index(tower: object, where: str) -> int:
    """The index in _TOWERS of a tower given as colours, top first; else ``ValueError`` naming
    ``where`` it was given."""
    try:
        return _TOWER_INDEX[check_tower(tower)]
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _cards_word(boast: Any, passes: Any) -> Any:
    """The cards words of Boast-card bitmasks and Pass-card counts."""
    return boast | _THERMOMETER[passes] << PASS


def _cards_words(deals: Sequence[Deal]) -> tuple[np.ndarray, np.ndarray]:
    """The hands (k, n) and leftovers (k,) of checked deals as cards words."""
    hands = _cards_word(
        np.array([d.hands for d in deals], dtype=np.int64),
        np.array([d.hand_passes for d in deals], dtype=np.int64),
    )
    leftovers = _cards_word(
        np.array([d.leftovers for d in deals], dtype=np.int64),
        np.array([d.leftover_passes for d in deals], dtype=np.int64),
    )
    return hands, leftovers


def _mask_and_count(word: int) -> tuple[int, int]:
    """The Boast-card bitmask and the number of Pass cards of a cards word."""
    return word & ALL_BOAST_CARDS, (word >> PASS).bit_count()


def _put(obs: np.ndarray, piece: str, words: np.ndarray, width: int) -> None:
    # Write ``width`` bits of each word, from piece's offset on; a (k, n) array of words fills
    # the piece's first n rows of ``width`` entries.
    span = width * (words.shape[1] if words.ndim == 2 else 1)
    start = OFFSETS[piece]
    obs[:, start : start + span] = unpack_bits(words, width).reshape(len(obs), span)
