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
from functools import partial
from typing import Any

import numpy as np

from boon_env.core.vector import (
    Outputs,
    VectorEngine,
    check_counts,
    check_seat,
    prefixed,
    rotate,
)
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
    """The last finished round of every table, as :attr:`VectorEngine.finished
    <boon_env.core.vector.VectorEngine.finished>` returns it.

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


_DEAL_KEYS = ("hands", "boon", "dealer")


class VectorBoon(VectorEngine):
    """``num_tables`` Boon tables of ``num_players`` each, stepped together; see the module
    docstring and :class:`~boon_env.core.vector.VectorEngine` (``reset``, ``step``,
    ``observe``, ``action_masks``, ``random_actions``, ``seat``, ``legal``, ``finished``).

    Args:
        num_tables: B, the number of tables (>= 1).
        num_players: 3, 4 or 5 seats at every table.
        seed: seed of the engine's own ``numpy.random.Generator``, which draws every deal and
            first dealer (``None``: fresh entropy). The same seed and actions give the same
            deals and results.
        observations: build the acting seats' observations in ``reset`` and ``step``; with
            ``False`` they return ``None`` in place of ``obs`` (masks only, for rollouts).

    A deal, as ``deal(i)`` returns it and ``reset(deals=...)`` takes one per table, is
    ``{"hands": [[ids], ...], "boon": [ids], "dealer": d}``. ``legal`` is (B,) int64 bitmasks
    over the 34 actions; ``finished`` is a :class:`FinishedRounds`; ``step``'s rewards are
    every seat's uncapped round value.

    The state is held in arrays of B rows, card sets as int64 bitmasks (bit ``c`` = card id
    ``c``). Read it through the properties and methods, which return copies.
    """

    num_actions = NUM_ACTIONS
    action_name = staticmethod(action_name)

    def __init__(
        self,
        num_tables: int,
        num_players: int = 4,
        seed: int | None = None,
        observations: bool = True,
    ) -> None:
        super().__init__(
            num_tables, partial(GameConfig, num_players=num_players), seed, observations
        )
        n = self.num_players
        self._deck = np.array(cards_of(self.config.deck), dtype=np.int64)
        # The observation's fractions, computed in float64 and rounded once, as encode() does.
        self._point_fractions = (np.arange(TOTAL_POINTS + 1) / TOTAL_POINTS).astype(np.float32)
        tricks = self.config.num_tricks
        self._trick_fractions = (np.arange(tricks + 1) / tricks).astype(np.float32)
        held = self.config.starting_victory_cards
        self._victory_fraction = np.float32(held / (held * n))
        self._num_players_flag = 1 << (_NUM_PLAYERS_F + PLAYER_COUNTS.index(n))

    # ------------------------------------------------------------------------- public state
    @property
    def phase(self) -> np.ndarray:
        """The :class:`~boon_env.games.boon.rules.Phase` of every table's round, (B,) int8."""
        self._check_ready()
        return self._phase.copy()

    def _deal_of(self, table: int) -> dict[str, Any]:
        return {
            "hands": [list(cards_of(int(hand))) for hand in self._dealt_hands[table]],
            "boon": list(cards_of(int(self._dealt_boon[table]))),
            "dealer": int(self._dealer[table]),
        }

    # ------------------------------------------------------------------------- reset
    def reset_deals(self, deals: Sequence[Deal], dealers: Sequence[int]) -> Outputs:
        """:meth:`reset` from one :class:`~boon_env.games.boon.rules.Deal` (bitmasks) and one dealer
        per table: for callers that hold deals as bitmasks already (a search replaying many sampled
        deals), with no card lists to build and read back.

        Raises:
            ValueError: not one deal and one dealer per table, a deal that is not a partition of
                the deck into hands and a Boon of the right sizes, or a dealer that is not a
                seat (naming the table); the engine is then left as it was.
        """
        b, n = self.num_tables, self.num_players
        check_counts(b, deals=deals, dealers=dealers)
        for table, (deal, dealer) in enumerate(zip(deals, dealers, strict=True)):
            if not isinstance(deal, Deal):
                raise ValueError(f"deals[{table}] must be a Deal, got {deal!r}")
            prefixed(f"deals[{table}]", lambda deal=deal: deal.check(self.config))
            check_seat(f"dealers[{table}]", dealer, n)
        hands = np.array([deal.hands for deal in deals], dtype=np.int64).reshape(b, n)
        boon = np.array([deal.boon for deal in deals], dtype=np.int64)
        return self._deal_tables((hands, boon, np.asarray(dealers, dtype=np.int64)))

    def _start_tables(self, given: tuple[np.ndarray, np.ndarray, np.ndarray] | None) -> None:
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

    def _check_deal_dicts(
        self, deals: Sequence[dict[str, Any]]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = self.num_players
        hands = np.empty((self.num_tables, n), dtype=np.int64)
        boon = np.empty(self.num_tables, dtype=np.int64)
        dealers = np.empty(self.num_tables, dtype=np.int64)
        checked = None
        for table, deal in self._deal_dicts(deals, _DEAL_KEYS):
            dealer = check_seat(f"deals[{table}]['dealer']", deal["dealer"], n)
            # A duplicate arena gives every rotation of a deal the very same card lists: check
            # them once (the same objects within one call cannot have changed).
            if checked is None or not (
                deal["hands"] is deals[table - 1]["hands"]
                and deal["boon"] is deals[table - 1]["boon"]
            ):
                checked = prefixed(
                    f"deals[{table}]",
                    lambda deal=deal: Deal.from_cards(self.config, deal["hands"], deal["boon"]),
                )
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
    def _apply(self, rows: np.ndarray, actions: np.ndarray) -> None:
        # Route every table to its phase's rule; the sets are taken before any table moves on.
        every = rows is self._rows
        phase = self._phase if every else self._phase[rows]
        picking = np.flatnonzero(phase == _PHASE_PICK)
        discarding = np.flatnonzero(phase == _PHASE_DISCARD)
        playing = np.flatnonzero(phase == _PHASE_PLAY)
        for rule, at in (
            (self._pick_or_pass, picking),
            (self._discard, discarding),
            (self._play, playing),
        ):
            if at.size:
                rule(at if every else rows[at], actions[at])

    def _decision_note(self, table: int) -> str:
        return f" in phase {Phase(int(self._phase[table])).name}"

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
        self._next_in_trick(rows, seat)

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
        self._record_rounds(
            rows,
            values,
            dealer=self._dealer[rows],
            picker=picker,
            leaster=leaster,
            leaster_winner=leaster_winner,
            discards=self._discards[rows],
            points=points,
            tricks_won=tricks_won,
        )
        # The deal passes left after every round.
        hands, boon = self._random_deals(rows.size)
        self._start_rounds(rows, hands, boon, self._left_of[self._dealer[rows]])

    def _update_legal(self, rows: np.ndarray) -> None:
        at = self._selection(rows)
        phase = self._phase[at]
        hand = self._hands_flat[self._row_base[at] + self._current[at]]
        # Follow the led suit if you can (gold is a suit like the others); else play anything.
        follow = hand & _SUIT_MASKS[self._led_suit[at]]
        playable = np.where(follow != 0, follow, hand)
        # In the discard phase the acting seat is the picker: any card of its hand may go.
        legal = np.where(
            phase == _PHASE_PICK, _PICK_OR_PASS, np.where(phase == _PHASE_PLAY, playable, hand)
        )
        self._store_legal(rows, legal)

    # ------------------------------------------------------------------------- observations
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
            | (rotate(self._passed[rows], seat, n) << _PASSED_F)
            | (rotate(self._voids[rows], _SUITS * seat, _SUITS * n) << _VOIDS_F)
        )


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
