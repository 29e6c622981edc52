"""# Many High Card tables at once: the batched rules engine

| | |
| --- | --- |
| Import | `from tests.helpers.toy.vector import VectorToy` |
| Tables | `num_tables` (B) independent tables of 2 or 3 players, one decision each per step |
| Actions | `(B,)` integers, the cards 0-5 of `toy_v0` |
| Observations | `(B, 13)` float32, the acting seat's `toy_v0` observation (or none) |
| Masks | `(B, 6)` int8 legal-action masks of the acting seats |
| Rewards | `(B, n)` float32, every seat's value where a round just ended |

Every table plays rounds for ever: when a round ends, its values are reported and the table is
dealt its next round at once, the lead passing left. The rules are those of
``tests.helpers.toy.rules``, implemented a second time over arrays of B tables;
``tests/rules/test_toy_vector.py`` holds the two to the same masks, observations (bit for bit) and
values over thousands of random rounds.

```python
>>> import numpy as np
>>> from tests.helpers.toy.vector import VectorToy
>>> venv = VectorToy(num_tables=8, num_players=3, seed=0)
>>> obs, mask, seat = venv.reset()
>>> obs.shape, mask.shape, seat.shape
((8, 13), (8, 6), (8,))
>>> rng = np.random.default_rng(0)
>>> for _ in range(60):  # random legal play: 6 decisions a round
...     obs, mask, seat, rewards, done = venv.step(venv.random_actions(rng))
>>> venv.finished.rounds.tolist()
[10, 10, 10, 10, 10, 10, 10, 10]
>>> venv.finished.tricks_won.sum(axis=1).tolist()  # every round has 2 tricks
[2, 2, 2, 2, 2, 2, 2, 2]

```
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from boon_env.core.vector import VectorEngine, check_seat, prefixed, unpack_bits
from tests.helpers.toy.encoding import LAYOUT, OBS_SIZE
from tests.helpers.toy.rules import (
    HAND_SIZE,
    NUM_CARDS,
    GameConfig,
    bits_of,
    card_name,
    check_hands,
)

__all__ = ["FinishedRounds", "VectorToy"]

_HAND_AT, _TRICK_AT, _WON_AT = (LAYOUT.offsets[p] for p in ("hand", "trick", "won"))
_NO_CARD = -1  # the best card of a trick before its first card


@dataclass
class FinishedRounds:
    """The last finished round of every table, as :attr:`VectorEngine.finished
    <boon_env.core.vector.VectorEngine.finished>` returns it.

    Attributes:
        rounds: rounds finished per table since ``reset``, shape (B,).
        leader: the seat that led the round's first trick, (B,).
        tricks_won: tricks won per seat, (B, n).
        values: each seat's value (the step's rewards, in float64), (B, n).
    """

    rounds: np.ndarray
    leader: np.ndarray
    tricks_won: np.ndarray
    values: np.ndarray

    @classmethod
    def empty(cls, num_tables: int, num_players: int) -> FinishedRounds:
        """Records of ``num_tables`` tables that have finished no round."""
        return cls(
            rounds=np.zeros(num_tables, dtype=np.int64),
            leader=np.full(num_tables, -1, dtype=np.int64),
            tricks_won=np.zeros((num_tables, num_players), dtype=np.int64),
            values=np.zeros((num_tables, num_players), dtype=np.float64),
        )


_DEAL_KEYS = ("hands", "leader")


class VectorToy(VectorEngine):
    """``num_tables`` High Card tables of ``num_players`` each, stepped together; see the
    module docstring and :class:`~boon_env.core.vector.VectorEngine`.

    A deal, as ``deal(i)`` returns it and ``reset(deals=...)`` takes one per table, is
    ``{"hands": [[card, card], ...], "leader": seat}`` (``toy_v0``'s reset options, flat).
    Hands are bitmasks of cards; ``legal`` is the acting seat's hand.
    """

    num_actions = NUM_CARDS
    action_name = staticmethod(card_name)

    def __init__(
        self,
        num_tables: int,
        num_players: int = 2,
        seed: int | None = None,
        observations: bool = True,
    ) -> None:
        super().__init__(
            num_tables, partial(GameConfig, num_players=num_players), seed, observations
        )

    def _check_deal_dicts(self, deals: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
        n = self.num_players
        hands, leaders = [], []
        for table, deal in self._deal_dicts(deals, _DEAL_KEYS):
            where = f"deals[{table}]"
            leaders.append(check_seat(f"{where}['leader']", deal["leader"], n))
            hands.append(prefixed(where, lambda deal=deal: check_hands(n, deal["hands"])))
        masks = [[sum(1 << card for card in hand) for hand in deal] for deal in hands]
        return np.array(masks, dtype=np.int64), np.array(leaders, dtype=np.int64)

    def _deal_of(self, table: int) -> dict[str, Any]:
        return {
            "hands": [list(bits_of(int(hand))) for hand in self._dealt[table]],
            "leader": int(self._first_leader[table]),
        }

    # ------------------------------------------------------------------------- dealing
    def _start_tables(self, given: tuple[np.ndarray, np.ndarray] | None) -> None:
        b, n = self.num_tables, self.num_players
        self._current = np.empty(b, dtype=np.int64)
        self._leader = np.empty(b, dtype=np.int64)  # of the current trick
        self._first_leader = np.empty(b, dtype=np.int64)  # of the round
        self._best = np.empty(b, dtype=np.int64)  # the trick's highest card so far
        self._winner = np.empty(b, dtype=np.int64)  # the seat that played it
        self._trick = np.empty(b, dtype=np.int64)  # the trick's cards, a bitmask
        self._tricks = np.empty(b, dtype=np.int64)  # tricks completed in the round
        self._legal = np.zeros(b, dtype=np.int64)
        # Per seat, (B, n); the *_flat views index seat s of table i at i * n + s.
        self._hands = np.empty((b, n), dtype=np.int64)
        self._tricks_won = np.empty((b, n), dtype=np.int64)
        self._hands_flat, self._tricks_won_flat = (
            a.reshape(-1) for a in (self._hands, self._tricks_won)
        )
        self._dealt = np.empty((b, n), dtype=np.int64)
        self._finished = FinishedRounds.empty(b, n)
        if given is None:
            hands, leaders = self._random_deals(b), self._rng.integers(n, size=b)
        else:
            hands, leaders = given
        self._start_rounds(self._rows, hands, leaders)

    def _random_deals(self, count: int) -> np.ndarray:
        # Shuffle the cards for each table (sorting random keys); each seat takes the next
        # HAND_SIZE of them, as random_hands does for one table.
        n = self.num_players
        order = np.argsort(self._rng.random((count, NUM_CARDS)), axis=1)[:, : n * HAND_SIZE]
        return (np.int64(1) << order).reshape(count, n, HAND_SIZE).sum(axis=2)

    def _start_rounds(self, rows: np.ndarray, hands: np.ndarray, leaders: np.ndarray) -> None:
        self._hands[rows] = hands
        self._dealt[rows] = hands
        self._current[rows] = leaders
        self._leader[rows] = leaders
        self._first_leader[rows] = leaders
        self._best[rows] = _NO_CARD
        for per_table in (self._trick, self._tricks, self._tricks_won):
            per_table[rows] = 0

    # ------------------------------------------------------------------------- the rules
    def _apply(self, rows: np.ndarray, cards: np.ndarray) -> None:
        # Every action is a card played; the highest card of a trick takes it.
        seat = self._current[rows]
        bit = np.int64(1) << cards
        self._hands_flat[self._row_base[rows] + seat] &= ~bit
        self._trick[rows] |= bit
        higher = cards > self._best[rows]
        self._best[rows] = np.where(higher, cards, self._best[rows])
        self._winner[rows] = np.where(higher, seat, self._winner[rows])
        self._next_in_trick(rows, seat)

    def _finish_tricks(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        winner = self._winner[rows]
        self._tricks_won_flat[self._row_base[rows] + winner] += 1
        self._trick[rows] = 0
        self._best[rows] = _NO_CARD
        # The winner of a trick leads the next one.
        self._leader[rows] = winner
        self._current[rows] = winner
        tricks = self._tricks[rows] + 1
        self._tricks[rows] = tricks
        self._finish_rounds(rows[tricks == HAND_SIZE])

    def _finish_rounds(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        won = self._tricks_won.take(rows, axis=0)
        # Round.values: tricks won less the mean of the others' (every round has HAND_SIZE).
        values = won - (HAND_SIZE - won) / (self.num_players - 1)
        first = self._first_leader[rows]
        self._record_rounds(rows, values, leader=first, tricks_won=won)
        self._start_rounds(rows, self._random_deals(rows.size), self._left_of[first])

    def _update_legal(self, rows: np.ndarray) -> None:
        # Any card in the hand of the seat to act.
        at = self._selection(rows)
        self._store_legal(rows, self._hands_flat[self._row_base[at] + self._current[at]])

    # ------------------------------------------------------------------------- observations
    def _encode(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        flat = self._row_base[rows] + seat
        obs = np.empty((rows.size, OBS_SIZE), dtype=np.float32)
        obs[:, _HAND_AT : _HAND_AT + NUM_CARDS] = unpack_bits(self._hands_flat[flat], NUM_CARDS)
        obs[:, _TRICK_AT : _TRICK_AT + NUM_CARDS] = unpack_bits(self._trick[rows], NUM_CARDS)
        obs[:, _WON_AT] = self._tricks_won_flat[flat] / HAND_SIZE
        return obs
