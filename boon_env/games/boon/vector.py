"""# Many Boon tables at once: the batched rules engine

| | |
| --- | --- |
| Import | `from boon_env.games.boon.vector import VectorBoon` |
| Tables | `num_tables` (B) independent tables of 3, 4 or 5 players, one decision each per step |
| Actions | `(B,)` integers, the action ids of `boon_v0` (0-31 cards, 32 pick, 33 pass) |
| Observations | `(B, OBS_SIZE)` float32, the acting seat's `boon_v0` observation (or none) |
| Masks | `(B, 34)` int8 legal-action masks of the acting seats |
| Rewards | `(B, n)` float32, every seat's uncapped round value where a round just ended |

Every table plays rounds of Boon forever: when a round ends, its values are reported and the
table is dealt its next round at once, the deal passing left. Each step every table's acting
seat takes one action, so a step is B decisions.

```python
>>> import numpy as np
>>> from boon_env.games.boon.vector import VectorBoon
>>> venv = VectorBoon(num_tables=8, num_players=4, seed=0)
>>> obs, mask, seat = venv.reset()
>>> obs.shape, mask.shape, seat.shape
((8, 482), (8, 34), (8,))
>>> rng = np.random.default_rng(0)
>>> for _ in range(200):  # random legal play
...     actions = venv.random_actions(rng)  # or a policy's choice given obs and mask
...     obs, mask, seat, rewards, done = venv.step(actions)
>>> int(venv.finished.rounds.sum())  # rounds finished over all tables
43
>>> bool((venv.finished.values.sum(axis=1) == 0).all())  # round values are zero-sum
True

```

## Same rules, second implementation

The rules are those of `boon_env.games.boon.rules` (`docs/rules.md`); this module implements them a
second time, over arrays of B tables, for speed. `tests/rules/test_vector.py` drives this engine,
the scalar `boon_env.games.boon.rules.Round` and `boon_v0.raw_env` with the same deals and actions
and checks that legal masks, observations (bit for bit) and round values are identical.

## Observations

`observe(tables, seats)` is `boon_env.games.boon.encoding.encode(round, seat, victory_cards)` for
each chosen table, with every player holding its starting 5 Victory Cards: the engine plays rounds
one after another with uncapped values and keeps no Victory-Card holdings, so the
`victory_cards` piece is always `1 / n` for each seat (as in `boon_v0` with
`episode="round"`). With `observations=False` the engine builds no observations (`obs` is
`None`), for rollouts that only need the masks.

## Rewards

`rewards[i, s]` is seat `s`'s uncapped Victory-Card value of the round that table `i` just
finished, and 0 on tables whose round goes on. A picker with stake `k` (from its points band:
-2, -1, +1, +2) gets `k * (n - 1)` and every defender `-k`; a Leaster's sole winner gets
`n - 1` and every other seat `-1`; a tied Leaster gives 0 to all: what
`boon_env.games.boon.rules.round_value` gives for the round (`settle` caps it by the players'
holdings).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boon_env.games.boon.encoding import (
    OBS_SIZE,
    OFFSETS,
    ROLE_DEFENDER,
    ROLE_LEASTER,
    ROLE_PICKER,
    ROLE_UNDECIDED,
)
from boon_env.games.boon.rules import (
    GOLD_MASK,
    NUM_ACTIONS,
    NUM_CARDS,
    PASS,
    PICK,
    PLAYER_COUNTS,
    POINTS,
    SUIT_MASK,
    SUIT_OF,
    TOTAL_POINTS,
    Deal,
    GameConfig,
    Phase,
    action_name,
    cards_of,
    picker_stake,
)

__all__ = ["FinishedRounds", "VectorBoon"]

# ------------------------------------------------------------------------- lookup tables
# Indexed by action id (0-33); the pick and pass rows are zero so that card tables can be looked
# up with any legal action.
_BIT = np.array([1 << a for a in range(NUM_ACTIONS)], dtype=np.int64)
_CARD_POINTS = np.array([*POINTS, 0, 0], dtype=np.int64)
_CARD_SUIT = np.array([*SUIT_OF, 0, 0], dtype=np.int64)
# Suit masks by suit index; the extra index _NO_SUIT (no card led yet) follows no suit.
_SUITS = len(SUIT_MASK)
_NO_SUIT = _SUITS
_SUIT_MASKS = np.array([*SUIT_MASK, 0], dtype=np.int64)
_PICK_OR_PASS = (1 << PICK) | (1 << PASS)
# What each defender pays the picker, by the picker's points (negative: the picker pays).
_STAKE = np.array([picker_stake(p) for p in range(TOTAL_POINTS + 1)], dtype=np.int64)
# Bit counting and selection by 12-bit chunks (three cover the 34 actions): the number of set
# bits of each chunk value, and the position of its k-th lowest set bit.
_CHUNK = 12
_CHUNK_MASK = (1 << _CHUNK) - 1
_CHUNK_COUNT = np.array([v.bit_count() for v in range(1 << _CHUNK)], dtype=np.int64)
_CHUNK_SELECT = np.array(  # flat: [value * _CHUNK + k]
    [
        [b for b in range(_CHUNK) if v >> b & 1] + [0] * (_CHUNK - v.bit_count())
        for v in range(1 << _CHUNK)
    ],
    dtype=np.int64,
).ravel()
_PHASE_PICK, _PHASE_DISCARD, _PHASE_PLAY = int(Phase.PICK), int(Phase.DISCARD), int(Phase.PLAY)
_NO_PHASE = -1  # routes a table that does not move in a step to no rule

# ------------------------------------------------------------------------- observation layout
# The 0/1 part of the observation (everything before "points") is built as 32-bit words and
# unpacked in one numpy call: every card piece starts on a multiple of 32
# (tests/rules/test_vector.py checks it), so a card bitmask is one word, and the one-hot and flag
# pieces from "phase" up to "points" fit in one 64-bit flags word.
_BITS = OFFSETS["points"]
_WORDS = -(-_BITS // 32)
_HAND_W, _BOON_W, _DISCARDS_W, _TRICK_W, _PLAYED_W, _FLAGS_W = (
    OFFSETS[p] // 32 for p in ("hand", "boon", "discards", "trick", "played", "phase")
)
# Bit positions inside the flags word.
_ROLE_F, _NUM_PLAYERS_F, _DEALER_F, _PICKER_F, _LEADER_F, _PASSED_F, _VOIDS_F = (
    OFFSETS[p] - OFFSETS["phase"]
    for p in ("role", "num_players", "dealer", "picker", "leader", "passed", "voids")
)
_POINTS_AT, _TRICKS_AT, _VICTORY_AT = (
    OFFSETS[p] for p in ("points", "tricks_won", "victory_cards")
)


@dataclass
class FinishedRounds:
    """The last finished round of every table (rows of tables that never finished one hold
    their initial values: ``rounds == 0``). Rows where ``step`` returned ``done`` describe the
    round that just ended.

    Attributes:
        rounds: rounds finished per table since ``reset``, shape (B,).
        dealer: the round's dealer, (B,).
        picker: the picker's seat, -1 in a Leaster, (B,).
        leaster: whether every player passed, (B,) bool.
        leaster_winner: the Leaster's winner, -1 when none (tie, or a picker round), (B,).
        discards: bitmask of the picker's buried cards (0 in a Leaster), (B,).
        points: points per seat, the picker's including its discards, (B, n).
        tricks_won: tricks won per seat, (B, n).
        values: uncapped Victory-Card value per seat (the step's rewards), (B, n).
    """

    rounds: np.ndarray
    dealer: np.ndarray
    picker: np.ndarray
    leaster: np.ndarray
    leaster_winner: np.ndarray
    discards: np.ndarray
    points: np.ndarray
    tricks_won: np.ndarray
    values: np.ndarray

    @classmethod
    def empty(cls, num_tables: int, num_players: int) -> FinishedRounds:
        """Records of ``num_tables`` tables that have finished no round."""
        per_table = np.full(num_tables, -1, dtype=np.int64)
        per_seat = np.zeros((num_tables, num_players), dtype=np.int64)
        return cls(
            rounds=np.zeros(num_tables, dtype=np.int64),
            dealer=per_table.copy(),
            picker=per_table.copy(),
            leaster=np.zeros(num_tables, dtype=bool),
            leaster_winner=per_table.copy(),
            discards=np.zeros(num_tables, dtype=np.int64),
            points=per_seat.copy(),
            tricks_won=per_seat.copy(),
            values=per_seat.copy(),
        )


_RECORD_FIELDS = tuple(FinishedRounds.__dataclass_fields__)


class VectorBoon:
    """``num_tables`` Boon tables of ``num_players`` each, stepped together; see the module
    docstring.

    Args:
        num_tables: B, the number of tables (>= 1).
        num_players: 3, 4 or 5 seats at every table.
        seed: seed of the engine's own ``numpy.random.Generator``, which draws every deal and
            first dealer (``None``: fresh entropy). The same seed and actions give the same
            deals and results.
        observations: build the acting seats' observations in ``reset`` and ``step``; with
            ``False`` they return ``None`` in place of ``obs`` (masks only, for rollouts).

    The state is held in arrays of B rows, card sets as int64 bitmasks (bit ``c`` = card id
    ``c``). Read it through the properties and methods, which return copies.
    """

    def __init__(
        self,
        num_tables: int,
        num_players: int = 4,
        seed: int | None = None,
        observations: bool = True,
    ) -> None:
        if isinstance(num_tables, bool) or not isinstance(num_tables, (int, np.integer)):
            raise ValueError(f"num_tables must be an integer >= 1, got {num_tables!r}")
        if num_tables < 1:
            raise ValueError(f"num_tables must be an integer >= 1, got {num_tables!r}")
        if type(observations) is not bool:
            raise ValueError(f"observations must be True or False, got {observations!r}")
        self.config = GameConfig(num_players=num_players)  # validates num_players
        self.num_tables = num_tables = int(num_tables)
        self.num_players = n = num_players
        self.observations = observations
        self._rng = np.random.default_rng(seed)
        self._deck = np.array(cards_of(self.config.deck), dtype=np.int64)
        self._rows = np.arange(num_tables, dtype=np.int64)
        # Seat arithmetic by table lookup (integer % is several times slower in numpy):
        # the seat to the left, a seat relative to an observer, every seat in relative order.
        seats = np.arange(n, dtype=np.int64)
        self._left_of = (seats + 1) % n
        self._relative = np.arange(-n, n, dtype=np.int64) % n  # [a - b + n] = (a - b) % n
        self._rotation = (seats[:, None] + seats) % n  # [seat, r] = absolute seat of row r
        # Flat index of (table, seat) into the (B, n) arrays, for one-seat-per-table access.
        self._row_base = self._rows * n
        # The observation's fractions, computed in float64 and rounded once, as encode() does.
        self._point_fractions = (np.arange(TOTAL_POINTS + 1) / TOTAL_POINTS).astype(np.float32)
        tricks = self.config.num_tricks
        self._trick_fractions = (np.arange(tricks + 1) / tricks).astype(np.float32)
        held = self.config.starting_victory_cards
        self._victory_fraction = np.float32(held / (held * n))
        self._num_players_flag = 1 << (_NUM_PLAYERS_F + PLAYER_COUNTS.index(n))
        self._ready = False

    # ------------------------------------------------------------------------- public state
    @property
    def seat(self) -> np.ndarray:
        """The acting seat of every table, (B,) int64."""
        self._check_ready()
        return self._current.copy()

    @property
    def phase(self) -> np.ndarray:
        """The :class:`~boon_env.games.boon.rules.Phase` of every table's round, (B,) int8."""
        self._check_ready()
        return self._phase.copy()

    @property
    def legal(self) -> np.ndarray:
        """The acting seats' legal actions as bitmasks over the 34 actions, (B,) int64."""
        self._check_ready()
        return self._legal.copy()

    @property
    def finished(self) -> FinishedRounds:
        """The last finished round of every table (picker, Leaster, points, values, ...)."""
        self._check_ready()
        record = self._finished
        return FinishedRounds(**{name: getattr(record, name).copy() for name in _RECORD_FIELDS})

    def action_masks(self) -> np.ndarray:
        """The acting seats' legal-action masks, (B, 34) int8."""
        self._check_ready()
        return _unpack_masks(self._legal)

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action of every acting seat, (B,) int64, drawn from
        ``rng`` (random players, rollouts)."""
        self._check_ready()
        return _random_bits(self._legal, rng.random(self.num_tables))

    def deal(self, table: int) -> dict[str, Any]:
        """The current round of ``table`` as dealt: ``{"hands": [[ids], ...], "boon": [ids],
        "dealer": d}``, the form :meth:`reset` takes in ``deals``."""
        self._check_ready()
        if isinstance(table, bool) or not isinstance(table, (int, np.integer)):
            raise ValueError(f"table must be an integer 0-{self.num_tables - 1}, got {table!r}")
        if not 0 <= table < self.num_tables:
            raise ValueError(f"table must be an integer 0-{self.num_tables - 1}, got {table!r}")
        return {
            "hands": [list(cards_of(int(hand))) for hand in self._dealt_hands[table]],
            "boon": list(cards_of(int(self._dealt_boon[table]))),
            "dealer": int(self._dealer[table]),
        }

    # ------------------------------------------------------------------------- reset
    def reset(
        self, seed: int | None = None, deals: Sequence[dict[str, Any]] | None = None
    ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """Deal every table a new first round; returns ``(obs, mask, seat)``.

        Args:
            seed: reseed the engine's generator first (``None``: keep drawing from it).
            deals: one ``{"hands": [[ids], ...], "boon": [ids], "dealer": d}`` per table to
                start from (the form :meth:`deal` returns); without it, every first deal and
                first dealer is drawn from the generator. Later rounds are always drawn.

        Raises:
            ValueError: ``deals`` is not one deal per table, or a deal is not a partition of
                the deck into hands and a Boon of the right sizes, or its dealer is not a seat
                (naming the table); the engine is then left as it was.
        """
        given = self._check_deals(deals) if deals is not None else None
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        return self._deal_tables(given)

    def reset_deals(
        self, deals: Sequence[Deal], dealers: Sequence[int]
    ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """:meth:`reset` from one :class:`~boon_env.games.boon.rules.Deal` (bitmasks) and one dealer
        per table: for callers that hold deals as bitmasks already (a search replaying many sampled
        deals), with no card lists to build and read back.

        Raises:
            ValueError: not one deal and one dealer per table, a deal that is not a partition of
                the deck into hands and a Boon of the right sizes, or a dealer that is not a
                seat (naming the table); the engine is then left as it was.
        """
        b, n = self.num_tables, self.num_players
        if len(deals) != b or len(dealers) != b:
            raise ValueError(
                f"got {len(deals)} deals and {len(dealers)} dealers, expected {b} of each "
                "(one per table)"
            )
        for table, (deal, dealer) in enumerate(zip(deals, dealers, strict=True)):
            if not isinstance(deal, Deal):
                raise ValueError(f"deals[{table}] must be a Deal, got {deal!r}")
            try:
                deal.check(self.config)
            except ValueError as error:
                raise ValueError(f"deals[{table}]: {error}") from None
            seat = isinstance(dealer, (int, np.integer)) and not isinstance(dealer, bool)
            if not seat or not 0 <= dealer < n:
                raise ValueError(f"dealers[{table}] must be a seat 0-{n - 1}, got {dealer!r}")
        hands = np.array([deal.hands for deal in deals], dtype=np.int64).reshape(b, n)
        boon = np.array([deal.boon for deal in deals], dtype=np.int64)
        return self._deal_tables((hands, boon, np.asarray(dealers, dtype=np.int64)))

    def _deal_tables(
        self, given: tuple[np.ndarray, np.ndarray, np.ndarray] | None
    ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """Start every table's first round from ``given`` ``(hands, boon, dealers)``, or from
        the generator."""
        b, n = self.num_tables, self.num_players
        self._phase = np.empty(b, dtype=np.int8)
        self._current = np.empty(b, dtype=np.int64)
        self._dealer = np.empty(b, dtype=np.int64)
        self._picker = np.empty(b, dtype=np.int64)  # -1: nobody (yet, or a Leaster)
        self._leaster = np.empty(b, dtype=bool)
        self._passed = np.empty(b, dtype=np.int64)  # bit s: seat s passed
        self._boon = np.empty(b, dtype=np.int64)
        self._discards = np.empty(b, dtype=np.int64)
        self._discard_count = np.empty(b, dtype=np.int64)
        self._discard_points = np.empty(b, dtype=np.int64)
        self._leader = np.empty(b, dtype=np.int64)
        self._led_suit = np.empty(b, dtype=np.int64)  # _NO_SUIT while the trick is empty
        self._trick_cards = np.empty(b, dtype=np.int64)
        self._trick_points = np.empty(b, dtype=np.int64)
        self._voids = np.empty(b, dtype=np.int64)  # bit 4 * s + suit: seat s failed to follow
        self._owner = np.zeros(b * NUM_CARDS, dtype=np.int64)  # [i * 32 + c]: who played c
        self._legal = np.zeros(b, dtype=np.int64)
        # Per seat, (B, n); the *_flat views index seat s of table i at i * n + s.
        self._hands = np.empty((b, n), dtype=np.int64)
        self._played = np.empty((b, n), dtype=np.int64)
        self._trick_by_seat = np.empty((b, n), dtype=np.int64)  # the card bit each seat put in
        self._points = np.empty((b, n), dtype=np.int64)
        self._tricks_won = np.empty((b, n), dtype=np.int64)
        self._hands_flat, self._played_flat, self._trick_by_seat_flat = (
            a.reshape(-1) for a in (self._hands, self._played, self._trick_by_seat)
        )
        self._points_flat, self._tricks_won_flat = (
            a.reshape(-1) for a in (self._points, self._tricks_won)
        )
        self._dealt_hands = np.empty((b, n), dtype=np.int64)
        self._dealt_boon = np.empty(b, dtype=np.int64)
        self._finished = FinishedRounds.empty(b, n)
        if given is None:
            dealers = self._rng.integers(n, size=b)
            hands, boon = self._random_deals(b)
        else:
            hands, boon, dealers = given
        self._start_rounds(self._rows, hands, boon, dealers)
        self._ready = True
        self._update_legal()
        return self._outputs()

    def _check_deals(
        self, deals: Sequence[dict[str, Any]]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if isinstance(deals, (str, bytes, dict)) or not isinstance(deals, Sequence):
            raise ValueError(
                f"deals must be a sequence of {self.num_tables} deal dicts, got {deals!r}"
            )
        if len(deals) != self.num_tables:
            raise ValueError(
                f"deals has {len(deals)} entries, expected {self.num_tables} (one per table)"
            )
        n = self.num_players
        hands = np.empty((self.num_tables, n), dtype=np.int64)
        boon = np.empty(self.num_tables, dtype=np.int64)
        dealers = np.empty(self.num_tables, dtype=np.int64)
        checked = None
        for table, deal in enumerate(deals):
            if not isinstance(deal, dict) or set(deal) != {"hands", "boon", "dealer"}:
                raise ValueError(
                    f"deals[{table}] must be a dict with exactly the keys 'hands', 'boon' and "
                    f"'dealer', got {deal!r}"
                )
            dealer = deal["dealer"]
            if (
                isinstance(dealer, bool)
                or not isinstance(dealer, (int, np.integer))
                or not 0 <= dealer < n
            ):
                raise ValueError(
                    f"deals[{table}]['dealer'] must be a seat 0-{n - 1}, got {dealer!r}"
                )
            # A duplicate arena gives every rotation of a deal the very same card lists: check
            # them once (the same objects within one call cannot have changed).
            if checked is None or not (
                deal["hands"] is deals[table - 1]["hands"]
                and deal["boon"] is deals[table - 1]["boon"]
            ):
                try:
                    checked = Deal.from_cards(self.config, deal["hands"], deal["boon"])
                except (TypeError, ValueError) as error:
                    raise ValueError(f"deals[{table}]: {error}") from None
            hands[table] = checked.hands
            boon[table] = checked.boon
            dealers[table] = dealer
        return hands, boon, dealers

    def _random_deals(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        # Shuffle the (reduced) deck for each table (sorting random keys), then deal the hands
        # in seat order and the rest to the Boon, as Deal.random does for one table.
        n, size = self.num_players, self.config.hand_size
        order = np.argsort(self._rng.random((count, self._deck.size)), axis=1)
        bits = _BIT.take(self._deck.take(order))
        hands = bits[:, : n * size].reshape(count, n, size).sum(axis=2)  # distinct bits: OR
        return hands, bits[:, n * size :].sum(axis=1)

    def _start_rounds(
        self, rows: np.ndarray, hands: np.ndarray, boon: np.ndarray, dealers: np.ndarray
    ) -> None:
        first = self._left_of[dealers]  # the player left of the dealer decides first and leads
        self._phase[rows] = _PHASE_PICK
        self._current[rows] = first
        self._dealer[rows] = dealers
        self._picker[rows] = -1
        self._leaster[rows] = False
        self._boon[rows] = boon
        self._leader[rows] = first
        self._led_suit[rows] = _NO_SUIT
        self._hands[rows] = hands
        self._dealt_hands[rows] = hands
        self._dealt_boon[rows] = boon
        for per_table in (
            self._passed,
            self._discards,
            self._discard_count,
            self._discard_points,
            self._trick_cards,
            self._trick_points,
            self._voids,
            self._played,
            self._trick_by_seat,
            self._points,
            self._tricks_won,
        ):
            per_table[rows] = 0

    # ------------------------------------------------------------------------- step
    def step(
        self, actions: np.ndarray, tables: np.ndarray | None = None
    ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply every table's action; returns ``(obs, mask, seat, rewards, done)``.

        ``rewards`` (B, n) float32 holds every seat's round value on tables whose round just
        ended (``done``), else 0. Those tables are dealt their next round (the dealer moves
        left), and ``obs``, ``mask`` and ``seat`` are that round's first decision.

        ``tables``, a (B,) bool array, steps only the tables where it is true: the others keep
        their state (their entries of ``actions`` are ignored, ``done`` is false). A trainer
        uses it to let the other seats act until every table is back at its learner's turn.

        Raises:
            ValueError: ``actions`` is not a (B,) integer array, ``tables`` not a (B,) bool
                array, or an action is illegal on some stepped table (naming the table, the
                action and the legal ones); no table changes.
        """
        self._check_ready()
        active = None if tables is None else self._check_tables(tables)
        actions = self._check_actions(actions, active)
        phase = self._phase if active is None else np.where(active, self._phase, _NO_PHASE)
        # Route every table to its phase's rule; the sets are taken before any table moves on.
        picking = np.flatnonzero(phase == _PHASE_PICK)
        discarding = np.flatnonzero(phase == _PHASE_DISCARD)
        playing = np.flatnonzero(phase == _PHASE_PLAY)
        self._rewards = np.zeros((self.num_tables, self.num_players), dtype=np.float32)
        self._done = np.zeros(self.num_tables, dtype=bool)
        if picking.size:
            self._pick_or_pass(picking, actions[picking])
        if discarding.size:
            self._discard(discarding, actions[discarding])
        if playing.size:
            self._play(playing, actions[playing])
        self._update_legal()
        obs, mask, seat = self._outputs()
        return obs, mask, seat, self._rewards, self._done

    def _check_tables(self, tables: Any) -> np.ndarray:
        mask = np.asarray(tables)
        if mask.shape != (self.num_tables,) or mask.dtype != bool:
            raise ValueError(
                f"tables must be a ({self.num_tables},) bool array, one entry per table, got "
                f"shape {mask.shape} and dtype {mask.dtype}"
            )
        return mask

    def _check_actions(self, actions: Any, active: np.ndarray | None = None) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_tables,):
            raise ValueError(
                f"actions must have shape ({self.num_tables},), one per table, got {array.shape}"
            )
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {array.dtype}")
        array = array.astype(np.int64, copy=False)
        # numpy shifts by a negative or too large amount give 0: such actions are illegal too.
        legal = (self._legal >> array) & 1
        if active is not None:
            legal |= ~active  # the tables that do not move may hold anything
        if not legal.all():
            raise ValueError(self._illegal_message(array, np.flatnonzero(legal == 0)))
        return array

    def _illegal_message(self, actions: np.ndarray, bad: np.ndarray) -> str:
        table = int(bad[0])
        action = int(actions[table])
        known = 0 <= action < NUM_ACTIONS
        legal = ", ".join(
            f"{a} ({action_name(a)})" for a in range(NUM_ACTIONS) if self._legal[table] >> a & 1
        )
        others = f"; {bad.size - 1} more table(s) got an illegal action" if bad.size > 1 else ""
        return (
            f"illegal action {action} "
            f"({action_name(action) if known else f'not an action id 0-{NUM_ACTIONS - 1}'}) "
            f"at table {table} for seat {int(self._current[table])} in phase "
            f"{Phase(int(self._phase[table])).name}; legal actions: {legal}{others}. "
            "No table was changed."
        )

    # ------------------------------------------------------------------------- the rules
    def _pick_or_pass(self, rows: np.ndarray, actions: np.ndarray) -> None:
        seat = self._current[rows]
        picks = actions == PICK
        # The first player to pick takes the Boon into its hand and must bury as many cards.
        pickers, picker_seat = rows[picks], seat[picks]
        self._picker[pickers] = picker_seat
        self._hands_flat[self._row_base[pickers] + picker_seat] |= self._boon[pickers]
        self._phase[pickers] = _PHASE_DISCARD
        passers, passer_seat = rows[~picks], seat[~picks]
        self._passed[passers] |= 1 << passer_seat
        # The dealer decides last: when it passes, everyone has, and the round is a Leaster.
        last = passer_seat == self._dealer[passers]
        self._leaster[passers[last]] = True
        self._start_play(passers[last])
        self._current[passers[~last]] = self._left_of[passer_seat[~last]]

    def _discard(self, rows: np.ndarray, cards: np.ndarray) -> None:
        # Any card of the enlarged hand may be buried; its points count for the picker at the end.
        bit = _BIT[cards]
        self._hands_flat[self._row_base[rows] + self._current[rows]] ^= bit
        self._discards[rows] |= bit
        self._discard_points[rows] += _CARD_POINTS[cards]
        count = self._discard_count[rows] + 1
        self._discard_count[rows] = count
        self._start_play(rows[count == self.config.boon_size])

    def _start_play(self, rows: np.ndarray) -> None:
        # The player left of the dealer leads the first trick, whoever picked.
        first = self._left_of[self._dealer[rows]]
        self._phase[rows] = _PHASE_PLAY
        self._current[rows] = first
        self._leader[rows] = first

    def _play(self, rows: np.ndarray, cards: np.ndarray) -> None:
        seat = self._current[rows]
        flat = self._row_base[rows] + seat
        bit = _BIT[cards]
        self._hands_flat[flat] ^= bit
        self._played_flat[flat] |= bit
        self._trick_by_seat_flat[flat] = bit
        self._owner[rows * NUM_CARDS + cards] = seat
        # The first card of a trick sets the led suit.
        led = self._led_suit[rows]
        led = np.where(led == _NO_SUIT, _CARD_SUIT[cards], led)
        self._led_suit[rows] = led
        # Not following proves the player holds none of the led suit.
        self._voids[rows] |= ((bit & _SUIT_MASKS[led]) == 0) << (_SUITS * seat + led)
        self._trick_cards[rows] |= bit
        self._trick_points[rows] += _CARD_POINTS[cards]
        after = self._left_of[seat]
        self._current[rows] = after
        # The trick is complete when play has come round to its leader again.
        self._finish_tricks(rows[after == self._leader[rows]])

    def _finish_tricks(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        # Highest gold wins; without gold, the highest card of the led suit. Ids are ordered so
        # that this is the highest id among the trick's gold and led-suit cards.
        contenders = self._trick_cards[rows] & (_SUIT_MASKS[self._led_suit[rows]] | GOLD_MASK)
        winner = self._owner[rows * NUM_CARDS + _highest_card(contenders)]
        won = self._row_base[rows] + winner
        self._points_flat[won] += self._trick_points[rows]
        self._tricks_won_flat[won] += 1
        # The winner takes the trick and leads the next one.
        self._trick_by_seat[rows] = 0
        self._trick_cards[rows] = 0
        self._trick_points[rows] = 0
        self._led_suit[rows] = _NO_SUIT
        self._leader[rows] = winner
        self._current[rows] = winner
        # The round ends when the hands are empty (all the same size after a trick).
        self._finish_rounds(rows[self._hands_flat[won] == 0])

    def _finish_rounds(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        picker = self._picker[rows]
        leaster = picker < 0
        # Buried cards count for the picker at the end of the round.
        picked = rows[~leaster]
        self._points_flat[self._row_base[picked] + picker[~leaster]] += self._discard_points[picked]
        points, tricks_won = self._points.take(rows, axis=0), self._tricks_won.take(rows, axis=0)
        values, leaster_winner = _round_values(picker, points, tricks_won)
        record = self._finished
        record.rounds[rows] += 1
        record.dealer[rows] = self._dealer[rows]
        record.picker[rows] = picker
        record.leaster[rows] = leaster
        record.leaster_winner[rows] = leaster_winner
        record.discards[rows] = self._discards[rows]
        record.points[rows] = points
        record.tricks_won[rows] = tricks_won
        record.values[rows] = values
        self._rewards[rows] = values
        self._done[rows] = True
        # The deal passes left after every round.
        hands, boon = self._random_deals(rows.size)
        self._start_rounds(rows, hands, boon, self._left_of[self._dealer[rows]])

    def _update_legal(self) -> None:
        phase = self._phase
        hand = self._hands_flat[self._row_base + self._current]
        # Follow the led suit if you can (gold is a suit like the others); else play anything.
        follow = hand & _SUIT_MASKS[self._led_suit]
        playable = np.where(follow != 0, follow, hand)
        # In the discard phase the acting seat is the picker: any card of its hand may go.
        self._legal = np.where(
            phase == _PHASE_PICK, _PICK_OR_PASS, np.where(phase == _PHASE_PLAY, playable, hand)
        )

    # ------------------------------------------------------------------------- observations
    def _outputs(self) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        obs = self._encode(self._rows, self._current) if self.observations else None
        return obs, _unpack_masks(self._legal), self._current.copy()

    def observe(self, tables: Any = None, seats: Any = None) -> np.ndarray:
        """The observations of ``seats`` (default: the acting seats) at ``tables`` (default:
        every table), shape (len(tables), OBS_SIZE) float32: bit for bit
        ``boon_env.games.boon.encoding.encode(round, seat, victory_cards)`` with every seat holding
        its starting Victory Cards. Use it to observe only the tables where a policy acts.

        Raises:
            ValueError: ``tables`` or ``seats`` is not a 1-D integer array in range, or they
                differ in length.
        """
        self._check_ready()
        rows = self._rows if tables is None else _index_array("tables", tables, self.num_tables)
        if seats is None:
            return self._encode(rows, self._current[rows])
        who = _index_array("seats", seats, self.num_players)
        if who.shape != rows.shape:
            raise ValueError(f"seats must have one entry per table ({rows.size}), got {who.size}")
        return self._encode(rows, who)

    def _encode(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        n = self.num_players
        base = self._row_base[rows]
        # Relative seats: row r of a seat-indexed piece is absolute seat (seat + r) % n.
        relative = base[:, None] + self._rotation.take(seat, axis=0)
        is_picker = self._picker[rows] == seat  # only the picker saw the Boon and its discards
        words = np.zeros((rows.size, _WORDS), dtype="<u4")
        words[:, _HAND_W] = self._hands_flat[base + seat]
        words[:, _BOON_W] = self._boon[rows] * is_picker
        words[:, _DISCARDS_W] = self._discards[rows] * is_picker
        words[:, _TRICK_W : _TRICK_W + n] = self._trick_by_seat_flat[relative]
        words[:, _PLAYED_W : _PLAYED_W + n] = self._played_flat[relative]
        flags = self._flags(rows, seat)
        words[:, _FLAGS_W] = flags & 0xFFFFFFFF
        words[:, _FLAGS_W + 1] = flags >> 32
        obs = np.empty((rows.size, OBS_SIZE), dtype=np.float32)
        obs[:, :_BITS] = np.unpackbits(words.view(np.uint8), axis=1, count=_BITS, bitorder="little")
        obs[:, _BITS:] = 0  # rows past the table's size
        obs[:, _POINTS_AT : _POINTS_AT + n] = self._point_fractions[self._points_flat[relative]]
        obs[:, _TRICKS_AT : _TRICKS_AT + n] = self._trick_fractions[self._tricks_won_flat[relative]]
        obs[:, _VICTORY_AT : _VICTORY_AT + n] = self._victory_fraction
        return obs

    def _flags(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        # The pieces from "phase" to "voids" as the bits of one int64 per observation.
        n = self.num_players
        phase = self._phase[rows].astype(np.int64)
        picker = self._picker[rows]
        picker_at = self._relative[picker - seat + n]
        role = np.where(
            self._leaster[rows],
            ROLE_LEASTER,
            np.where(
                picker < 0, ROLE_UNDECIDED, np.where(picker_at == 0, ROLE_PICKER, ROLE_DEFENDER)
            ),
        )
        return (
            (1 << phase)
            | (1 << (_ROLE_F + role))
            | self._num_players_flag
            | (1 << (_DEALER_F + self._relative[self._dealer[rows] - seat + n]))
            | ((picker >= 0) << (_PICKER_F + picker_at))
            | (
                (phase == _PHASE_PLAY)
                << (_LEADER_F + self._relative[self._leader[rows] - seat + n])
            )
            | (_rotate(self._passed[rows], seat, n) << _PASSED_F)
            | (_rotate(self._voids[rows], _SUITS * seat, _SUITS * n) << _VOIDS_F)
        )

    def _check_ready(self) -> None:
        if not self._ready:
            raise RuntimeError("call reset() before using the tables")


def _round_values(
    picker: np.ndarray, points: np.ndarray, tricks_won: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Uncapped Victory-Card values per seat of finished rounds, and their Leaster winners.

    Picker rounds: every defender pays the picker its stake (negative: the picker pays each).
    Leasters: among the seats that won a trick, the sole one with the fewest points is paid 1
    by every other seat; a tie for the fewest pays nobody.
    """
    count, n = points.shape
    is_picker = np.arange(n) == picker[:, None]
    stake = _STAKE[(points * is_picker).sum(axis=1)][:, None]
    values = np.where(is_picker, stake * (n - 1), -stake)
    winner = np.full(count, -1, dtype=np.int64)
    leasters = np.flatnonzero(picker < 0)
    if leasters.size:
        qualified = np.where(tricks_won[leasters] > 0, points[leasters], TOTAL_POINTS + 1)
        fewest = qualified == qualified.min(axis=1, keepdims=True)
        sole = fewest.sum(axis=1) == 1
        winner[leasters] = np.where(sole, np.argmax(fewest, axis=1), -1)
        values[leasters] = np.where(sole[:, None], np.where(fewest, n - 1, -1), 0)
    return values, winner


def _highest_card(masks: np.ndarray) -> np.ndarray:
    # float64 holds these 32-bit masks exactly, and frexp's exponent is their bit length.
    return np.frexp(masks.astype(np.float64))[1] - 1


def _random_bits(masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    # A set bit of each (34-bit) mask, chosen by a uniform in [0, 1): count the set bits of its
    # three 12-bit chunks, find the chunk that holds the chosen one, select it within the chunk.
    low, mid, high = masks & _CHUNK_MASK, masks >> _CHUNK & _CHUNK_MASK, masks >> 2 * _CHUNK
    below_mid = _CHUNK_COUNT[low]
    below_high = below_mid + _CHUNK_COUNT[mid]
    nth = (uniforms * (below_high + _CHUNK_COUNT[high])).astype(np.int64)
    in_low, in_mid = nth < below_mid, nth < below_high
    chunk = np.where(in_low, low, np.where(in_mid, mid, high))
    before = np.where(in_low, 0, np.where(in_mid, below_mid, below_high))
    shift = np.where(in_low, 0, np.where(in_mid, _CHUNK, 2 * _CHUNK))
    return shift + _CHUNK_SELECT[chunk * _CHUNK + nth - before]


def _rotate(bits: np.ndarray, shift: np.ndarray, width: int) -> np.ndarray:
    # Rotate ``width``-bit fields right by ``shift``: seat-indexed bits become observer-first.
    return ((bits >> shift) | (bits << (width - shift))) & ((1 << width) - 1)


def _unpack_masks(legal: np.ndarray) -> np.ndarray:
    # Each int64 bitmask is 8 little-endian bytes; their first 34 bits are the actions.
    return np.unpackbits(
        legal.astype("<i8", copy=False).view(np.uint8).reshape(-1, 8),
        axis=1,
        count=NUM_ACTIONS,
        bitorder="little",
    ).view(np.int8)


def _index_array(name: str, values: Any, size: int) -> np.ndarray:
    array = np.asarray(values)
    if array.shape == (0,):
        return np.zeros(0, dtype=np.int64)  # an empty list is float64 to numpy
    if array.ndim != 1 or array.dtype.kind not in "iu":
        raise ValueError(f"{name} must be a 1-D integer array, got {array!r}")
    array = array.astype(np.int64, copy=False)
    if array.size and (array.min() < 0 or array.max() >= size):
        raise ValueError(f"{name} must lie in 0-{size - 1}, got {array.tolist()}")
    return array
