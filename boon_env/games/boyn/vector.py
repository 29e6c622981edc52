"""# Many BOYN tables at once: the batched rules engine

| | |
| --- | --- |
| Import | `from boon_env.games.boyn.vector import VectorBoyn` |
| Tables | `num_tables` (B) independent tables of 2 to 6 players, one decision each per step |
| Actions | `(B,)` integers, the action ids of `boyn_v0` (0-51 cards, 52-67 Jacks, 68-87 swaps) |
| Observations | `(B, OBS_SIZE)` float32, the acting seat's `boyn_v0` observation (or none) |
| Masks | `(B, 88)` int8 legal-action masks of the acting seats |
| Rewards | `(B, n)` float32, every seat's round margin where a round just ended |

Every table plays rounds of BOYN for ever: when a round ends (a player goes out, or
`max_turns` truncates it), its values are reported and the table is dealt its next round at
once, the deal passing left. Each step every table's acting seat takes one action, so a step is
B decisions; the forced draws, lost and skipped turns and passes run inside the step, as in
`boyn_v0`.

```python
>>> import numpy as np
>>> from boon_env.games.boyn.vector import VectorBoyn
>>> venv = VectorBoyn(num_tables=8, num_players=4, seed=0)
>>> obs, mask, seat = venv.reset()
>>> obs.shape, mask.shape, seat.shape
((8, 251), (8, 88), (8,))
>>> rng = np.random.default_rng(0)
>>> for _ in range(300):  # random legal play
...     actions = venv.random_actions(rng)  # or a policy's choice given obs and mask
...     obs, mask, seat, rewards, done = venv.step(actions)
>>> int(venv.finished.rounds.sum())  # rounds finished over all tables
24
>>> bool(np.allclose(venv.finished.values.sum(axis=1), 0))  # margins are zero-sum
True

```

## Same rules, second implementation

The rules are those of `boon_env.games.boyn.rules` (`RULES_BOYN.md`); this module implements them a
second time, over arrays of B tables, for speed. `tests/rules/test_boyn_vector.py` drives this
engine, the scalar `boon_env.games.boyn.rules.Round` and `boyn_v0.raw_env` with the same deals,
seeds and actions and checks that legal masks, observations (bit for bit) and round results are
identical.

## Reshuffles

Every round carries a **seed**, part of its deal (`deal(i)["seed"]`). The discard pile is
reshuffled exactly as the scalar round does it: the first time the round needs one, the table
makes `numpy.random.default_rng(seed)` and shuffles the pile's kinds, in ascending order, with
`Generator.shuffle`. So a round of this engine and `boyn_v0.raw_env().reset(seed=seed,
options={"deal": ..., "dealer": ...})` (or `rules.replay(config, deal, actions, dealer, seed)`)
draw the same cards after every reshuffle. The seeds of drawn deals come from the engine's own
generator; nothing reads global random state.

## Observations

`observe(tables, seats)` is `boon_env.games.boyn.encoding.encode(round, seat, totals)` for each
chosen table with every total 0: the engine plays rounds one after another and keeps no game totals,
as `boyn_v0` with `episode="round"` (which is why it takes no `game_limit`). With
`observations=False` the engine builds no observations (`obs` is `None`), for rollouts that only
need the masks.

## Rewards

`rewards[i, s]` is seat `s`'s **margin** in the round that table `i` just finished, the unit of
BOYN's arena (`agents/games/boyn/arena.py`): the mean of the points the other seats added minus the
points `s` added. A truncated round is worth 0 to every seat. Tables whose round goes on get 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from boon_env.core.vector import (
    MASK_WORD,
    Outputs,
    VectorEngine,
    check_counts,
    check_seat,
    is_integer,
    prefixed,
)
from boon_env.games.boyn.encoding import LAYOUT, OBS_SIZE, RUN_SCALE, SIZE_SCALE
from boon_env.games.boyn.rules import (
    ACTION_KIND,
    ACTION_NAMED_SUIT,
    ACTION_SWAP,
    HAND_SIZE,
    NUM_ACTIONS,
    PLAYER_COUNTS,
    RED_THREE_DRAW,
    TWO_DRAW,
    Deal,
    GameConfig,
    action_name,
    jack_action,
    swap_action,
)
from boon_env.games.boyn.rules.cards import (
    ACE,
    COPIES,
    JACK,
    JACKS,
    NUM_CARDS,
    NUM_KINDS,
    NUM_RANKS,
    NUM_SUITS,
    QUEEN,
    RANK_KINDS,
    RANK_OF,
    RED_THREES,
    SUIT_KINDS,
    SUIT_OF,
    WILDS,
    kind_of,
)

__all__ = ["FinishedRounds", "VectorBoyn"]

# ------------------------------------------------------------------------- lookup tables
# Per action id: the kind played, the swap distance (0: none), and the active card it leaves
# (a Jack's named suit, else the card's own).
_ACTION_KIND = np.array(ACTION_KIND, dtype=np.int64)
_ACTION_SWAP = np.array(ACTION_SWAP, dtype=np.int64)
_ACTION_SUIT = np.array(
    [s if s >= 0 else SUIT_OF[k] for k, s in zip(ACTION_KIND, ACTION_NAMED_SUIT, strict=True)],
    dtype=np.int64,
)
_ACTION_RANK = np.array([RANK_OF[k] for k in ACTION_KIND], dtype=np.int64)
_SUIT_OF = np.array(SUIT_OF, dtype=np.int64)
_RANK_OF = np.array(RANK_OF, dtype=np.int64)
# What a card does to the next player.
_PLAIN, _DRAW_FIVE, _DRAW_RUN, _SKIP = range(4)
_EFFECT = np.array(
    [
        _DRAW_FIVE if RED_THREES >> k & 1 else {2: _DRAW_RUN, 7: _SKIP}.get(RANK_OF[k], _PLAIN)
        for k in range(NUM_KINDS)
    ],
    dtype=np.int64,
)
_IS_RED_THREE = _EFFECT == _DRAW_FIVE
# The kinds that may be played on an active card, by suit * _RANK_SLOTS + rank.
_RANK_SLOTS = NUM_RANKS + 1
_PLAYABLE = np.array(
    [
        SUIT_KINDS[suit] | RANK_KINDS[rank] | WILDS if rank else 0
        for suit in range(NUM_SUITS)
        for rank in range(_RANK_SLOTS)
    ],
    dtype=np.int64,
)
# A stock position past the end holds this kind, which is never playable.
_NO_KIND = NUM_KINDS
# Stock positions searched at once for a playable card before searching the whole stock.
_WINDOW = 16
_POSITIONS = np.arange(NUM_CARDS)
_TWO_DECKS = np.repeat(np.arange(NUM_KINDS, dtype=np.int64), COPIES)
# The bit of copy c of kind k in a multiset's two words (kinds held, kinds held twice), in
# _TWO_DECKS order.
_COPY_BITS = np.array([c * 64 + k for k in range(NUM_KINDS) for c in range(COPIES)])
_CARD_BIT = np.array([1 << k for k in range(NUM_KINDS + 1)], dtype=np.int64)

# The four cards of a rank sit NUM_RANKS bits apart (kind = suit * 13 + rank - 1). Multiplying
# those four bits by _GATHER moves the bit of suit s to _GATHERED_AT + s (no two partial
# products overlap, so nothing carries; what overflows 64 bits is not needed): their 4-bit
# subset index, for the Jack and Queen action tables.
_SUIT_BITS = sum(1 << (NUM_RANKS * s) for s in range(NUM_SUITS))
_GATHER = sum(1 << ((NUM_RANKS - 1) * s) for s in range(NUM_SUITS))
_GATHERED_AT = (NUM_RANKS - 1) * (NUM_SUITS - 1)
_SUBSETS = 1 << NUM_SUITS
_JACK_AT, _QUEEN_AT = kind_of(0, JACK), kind_of(0, QUEEN)

# Legal actions are two int64 words: action a is bit a % 64 of word a // 64.
_WORD = MASK_WORD
_MASK_WORDS = -(-NUM_ACTIONS // _WORD)


def _action_words(actions: list[int]) -> tuple[int, int]:
    """The two legal-mask words of a set of actions, as signed int64 values."""
    bits = sum(1 << a for a in actions)
    low = bits & ((1 << _WORD) - 1)
    return low - (1 << _WORD) * (low >> (_WORD - 1)), bits >> _WORD


def _subset_table(actions_of_suit: Callable[[int], list[int]]) -> np.ndarray:
    """For every subset of the four suits (index bit s = suit s), the mask words of the union
    of ``actions_of_suit(s)``, shape (16, 2)."""
    return np.array(
        [
            _action_words(
                [a for s in range(NUM_SUITS) if subset >> s & 1 for a in actions_of_suit(s)]
            )
            for subset in range(_SUBSETS)
        ],
        dtype=np.int64,
    )


# A playable Jack is played naming any suit.
_JACK_LOW, _JACK_HIGH = _subset_table(lambda j: [jack_action(j, s) for s in range(NUM_SUITS)]).T

# ------------------------------------------------------------------------- observation layout
# The 0/1 part of the observation (everything before "run") is built as 64-bit words and
# unpacked in one numpy call; the multisets are their two bit planes (see
# boon_env.games.boyn.rules.cards) and the one-hot pieces from "active_rank" to "dealer" one flags
# field.
_OFFSET = LAYOUT.offsets
_BITS = _OFFSET["run"]
_OBS_WORDS = -(-_BITS // _WORD)
_HAND_AT, _DISCARDS_AT, _FLAGS_AT = _OFFSET["hand"], _OFFSET["discards"], _OFFSET["active_rank"]
_SUIT_F, _CLOCKWISE_F, _PLAYERS_F, _DEALER_F = (
    _OFFSET[p] - _FLAGS_AT for p in ("active_suit", "clockwise", "num_players", "dealer")
)
_RUN_AT, _STOCK_AT, _SIZES_AT = _OFFSET["run"], _OFFSET["stock"], _OFFSET["hand_sizes"]
# The fractions, computed in float64 and rounded once, as encode() does.
_RUN_FRACTIONS = (np.arange(RUN_SCALE + 1) / RUN_SCALE).astype(np.float32)
_SIZE_FRACTIONS = (np.arange(NUM_CARDS + 1) / SIZE_SCALE).astype(np.float32)


@dataclass
class FinishedRounds:
    """The last finished round of every table, as :attr:`VectorEngine.finished
    <boon_env.core.vector.VectorEngine.finished>` returns it.

    Attributes:
        rounds: rounds finished per table since ``reset``, shape (B,).
        dealer: the round's dealer, (B,).
        out: the seat that went out, -1 if ``max_turns`` truncated the round, (B,).
        turns: the turn count that ``max_turns`` bounds, (B,).
        reshuffles: reshuffles of the discard pile, (B,).
        points: points added per seat (all 0 in a truncated round), (B, n).
        values: margin per seat (the step's rewards, in float64), (B, n).
    """

    rounds: np.ndarray
    dealer: np.ndarray
    out: np.ndarray
    turns: np.ndarray
    reshuffles: np.ndarray
    points: np.ndarray
    values: np.ndarray

    @classmethod
    def empty(cls, num_tables: int, num_players: int) -> FinishedRounds:
        """Records of ``num_tables`` tables that have finished no round."""
        per_table = np.full(num_tables, -1, dtype=np.int64)
        return cls(
            rounds=np.zeros(num_tables, dtype=np.int64),
            dealer=per_table.copy(),
            out=per_table.copy(),
            turns=np.zeros(num_tables, dtype=np.int64),
            reshuffles=np.zeros(num_tables, dtype=np.int64),
            points=np.zeros((num_tables, num_players), dtype=np.int64),
            values=np.zeros((num_tables, num_players), dtype=np.float64),
        )


_DEAL_KEYS = ("hands", "stock", "dealer", "seed")
_SEED_LIMIT = 1 << 63  # seeds are stored as int64


class VectorBoyn(VectorEngine):
    """``num_tables`` BOYN tables of ``num_players`` each, stepped together; see the module
    docstring and :class:`~boon_env.core.vector.VectorEngine` (``reset``, ``step``,
    ``observe``, ``action_masks``, ``random_actions``, ``seat``, ``legal``, ``finished``).

    Args:
        num_tables: B, the number of tables (>= 1).
        num_players: 2 to 6 seats at every table.
        seed: seed of the engine's own ``numpy.random.Generator``, which draws every deal, its
            reshuffle seed and the first dealers (``None``: fresh entropy). The same seed and
            actions give the same deals and results.
        observations: build the acting seats' observations in ``reset`` and ``step``; with
            ``False`` they return ``None`` in place of ``obs`` (masks only, for rollouts).
        draw_rule, red_three_points, max_turns: the rules options of ``boyn_v0`` (its
            defaults), checked by :class:`~boon_env.games.boyn.rules.GameConfig`.

    A deal, as ``deal(i)`` returns it and ``reset(deals=...)`` takes one per table, is
    ``{"hands": [[kinds], ...], "stock": [kinds, top first], "dealer": d, "seed": s}`` (``s``
    seeds its reshuffles, an integer 0 .. 2**63 - 1). ``legal`` is (B, 2) int64 words, action
    ``a`` at bit ``a % 64`` of word ``a // 64``; ``finished`` is a :class:`FinishedRounds`;
    ``step``'s rewards are every seat's margin.

    The state is held in arrays of B rows (``(B, n)`` for seats). A multiset of cards is two
    int64 bitmasks, the kinds held at least once and the kinds held twice; the stock is an
    array of kinds in drawing order with its prefix multisets, so that any run of draws moves
    into a hand in a few operations. Read the state through the properties and methods, which
    return copies.
    """

    num_actions = NUM_ACTIONS
    action_name = staticmethod(action_name)

    def __init__(
        self,
        num_tables: int,
        num_players: int = 4,
        seed: int | None = None,
        observations: bool = True,
        *,
        draw_rule: str = "until_playable",
        red_three_points: int = 25,
        max_turns: int = 1000,
    ) -> None:
        config = partial(
            GameConfig,
            num_players=num_players,
            draw_rule=draw_rule,
            red_three_points=red_three_points,
            max_turns=max_turns,
        )
        super().__init__(num_tables, config, seed, observations)
        n = self.num_players
        self._dealt_size = HAND_SIZE * n
        # Room for any stock (a reshuffled one included) and a search window past its end.
        self._stock_width = NUM_CARDS + _WINDOW
        # The next seat by direction: [clockwise * n + seat]; the seat r places to the left
        # of seat s: [s * n + r].
        seats = np.arange(n, dtype=np.int64)
        self._next_seat = np.concatenate([(seats - 1) % n, (seats + 1) % n])
        self._rotation_flat = self._rotation.ravel()
        # A Queen swaps with any of the n - 1 other seats.
        self._queen_swaps = _subset_table(lambda q: [swap_action(q, r) for r in range(1, n)])[:, 1]
        # Points of the cards left in hand, by bit of a hand's two words (see _end_rounds).
        self._points_by_bit = np.zeros(_WORD * 2, dtype=np.int64)
        self._points_by_bit[:NUM_KINDS] = self._points_by_bit[_WORD : _WORD + NUM_KINDS] = (
            self.config.points
        )
        self._players_flag = 1 << (_PLAYERS_F + PLAYER_COUNTS.index(n))

    @property
    def truncated(self) -> np.ndarray:
        """Which tables' last finished round ``max_turns`` cut short (``out == -1``), (B,)."""
        self._check_ready()
        return (self._finished.out < 0) & (self._finished.rounds > 0)

    def _deal_of(self, table: int) -> dict[str, Any]:
        cards = self._dealt[table].tolist()
        size = self._dealt_size
        return {
            "hands": [cards[i : i + HAND_SIZE] for i in range(0, size, HAND_SIZE)],
            "stock": cards[size:],
            "dealer": int(self._dealer[table]),
            "seed": int(self._seed[table]),
        }

    # ------------------------------------------------------------------------- reset
    def reset_deals(
        self, deals: Sequence[Deal], dealers: Sequence[int], seeds: Sequence[int] | None = None
    ) -> Outputs:
        """:meth:`reset` from one :class:`~boon_env.games.boyn.rules.Deal`, one dealer and one
        reshuffle seed per table (``seeds=None``: drawn from the generator), for callers that
        hold ``Deal`` objects (an arena replaying the deals of ``boyn_v0``).

        Raises:
            ValueError: not one deal, dealer (and seed) per table, a deal that does not fit the
                configuration, a dealer that is not a seat or a bad seed (naming the table);
                the engine is then left as it was.
        """
        b = self.num_tables
        check_counts(b, deals=deals, dealers=dealers, **({} if seeds is None else {"seeds": seeds}))
        cards = np.empty((b, NUM_CARDS), dtype=np.int64)
        for table, (deal, dealer) in enumerate(zip(deals, dealers, strict=True)):
            if not isinstance(deal, Deal):
                raise ValueError(f"deals[{table}] must be a Deal, got {deal!r}")
            cards[table] = self._deal_cards(f"deals[{table}]", deal.hands, deal.stock)
            check_seat(f"dealers[{table}]", dealer, self.num_players)
            if seeds is not None:
                _check_seed(f"seeds[{table}]", seeds[table])
        given_seeds = None if seeds is None else np.asarray(seeds, dtype=np.int64)
        return self._deal_tables((cards, np.asarray(dealers, dtype=np.int64), given_seeds))

    def _deal_cards(self, where: str, hands: Any, stock: Any) -> list[int]:
        """A deal's cards, hands then stock, after :meth:`Deal.from_cards`'s checks."""
        deal = prefixed(where, lambda: Deal.from_cards(self.config, hands, stock))
        return [card for hand in deal.hands for card in hand] + list(deal.stock)

    def _check_deal_dicts(
        self, deals: Sequence[dict[str, Any]]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        b = self.num_tables
        cards = np.empty((b, NUM_CARDS), dtype=np.int64)
        dealers = np.empty(b, dtype=np.int64)
        seeds = np.empty(b, dtype=np.int64)
        for table, deal in self._deal_dicts(deals, _DEAL_KEYS):
            check_seat(f"deals[{table}]['dealer']", deal["dealer"], self.num_players)
            _check_seed(f"deals[{table}]['seed']", deal["seed"])
            cards[table] = self._deal_cards(f"deals[{table}]", deal["hands"], deal["stock"])
            dealers[table] = deal["dealer"]
            seeds[table] = deal["seed"]
        return cards, dealers, seeds

    def _start_tables(self, given: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None) -> None:
        """Start every table's first round from ``given`` ``(cards, dealers, seeds)``, or from
        the generator."""
        b, n, width = self.num_tables, self.num_players, self._stock_width
        per_table = {
            "_current": -1,  # the seat with a decision
            "_dealer": 0,
            "_seed": 0,  # seeds the round's reshuffles
            "_top": 0,  # the kind on top of the discard pile
            "_pile": 0,  # the discard pile: kinds held at least once
            "_pile2": 0,  # ... and kinds held twice
            "_suit": 0,  # the active card
            "_rank": 0,
            "_playable": 0,  # the kinds that may be played on it
            "_run": 0,
            "_clockwise": 1,  # 0 after an odd number of Aces
            "_turns": 0,
            "_reshuffles": 0,
            "_drawn": 0,  # stock positions drawn so far
            "_stock_end": 0,  # stock positions filled
        }
        for name, value in per_table.items():
            setattr(self, name, np.full(b, value, dtype=np.int64))
        # Per seat, (B, n); the *_flat views index seat s of table i at i * n + s.
        self._hand = np.zeros((b, n), dtype=np.int64)
        self._hand2 = np.zeros((b, n), dtype=np.int64)
        self._size = np.zeros((b, n), dtype=np.int64)
        self._hand_flat, self._hand2_flat, self._size_flat = (
            a.reshape(-1) for a in (self._hand, self._hand2, self._size)
        )
        # The stock in drawing order, and the multisets of its first p cards (p = 0 .. width).
        self._stock = np.full((b, width), _NO_KIND, dtype=np.int64)
        self._prefix = np.zeros((b, width + 1), dtype=np.int64)
        self._prefix2 = np.zeros((b, width + 1), dtype=np.int64)
        self._stock_flat, self._prefix_flat, self._prefix2_flat = (
            a.reshape(-1) for a in (self._stock, self._prefix, self._prefix2)
        )
        self._dealt = np.zeros((b, NUM_CARDS), dtype=np.int64)
        self._generators: dict[int, np.random.Generator] = {}  # made at a round's 1st reshuffle
        self._legal = np.zeros((b, _MASK_WORDS), dtype=np.int64)
        self._finished = FinishedRounds.empty(b, n)
        if given is None:
            dealers = self._rng.integers(n, size=b)
            cards, seeds = self._random_deals(b)
        else:
            cards, dealers, seeds = given
            if seeds is None:
                seeds = self._random_seeds(b)
        self._start_rounds(self._rows, cards, dealers, seeds)

    def _random_seeds(self, count: int) -> np.ndarray:
        return self._rng.integers(_SEED_LIMIT, size=count, dtype=np.int64)

    def _random_deals(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        # Shuffle the two decks for each table (sorting random keys), as Deal.random does for
        # one table: hands in seat order, then the stock top first; then a reshuffle seed each.
        order = np.argsort(self._rng.random((count, NUM_CARDS)), axis=1)
        return _TWO_DECKS[order], self._random_seeds(count)

    def _start_rounds(
        self, rows: np.ndarray, cards: np.ndarray, dealers: np.ndarray, seeds: np.ndarray
    ) -> None:
        n, size = self.num_players, self._dealt_size
        self._dealt[rows] = cards
        self._dealer[rows] = dealers
        self._seed[rows] = seeds
        for row in rows.tolist():
            self._generators.pop(row, None)
        # Seat s holds cards 7s .. 7s + 6: a segment of the hands' prefix multisets.
        prefix, prefix2 = _prefix_multisets(cards[:, :size])
        starts = np.arange(0, size, HAND_SIZE)
        self._hand[rows], self._hand2[rows] = _segment(
            prefix[:, starts],
            prefix2[:, starts],
            prefix[:, starts + HAND_SIZE],
            prefix2[:, starts + HAND_SIZE],
        )
        self._size[rows] = HAND_SIZE
        # The starter is turned up; it has no effect but to be the first active card.
        starter = cards[:, size]
        self._fill_stock(rows, cards[:, size + 1 :])
        self._top[rows] = starter
        self._pile[rows] = _CARD_BIT[starter]
        self._pile2[rows] = 0
        self._set_active(rows, _SUIT_OF[starter], _RANK_OF[starter])
        for per_table in (self._run, self._turns, self._reshuffles):
            per_table[rows] = 0
        self._clockwise[rows] = 1
        # The player left of the dealer plays first.
        self._take_turns(rows, self._next_seat[n + dealers])

    def _fill_stock(self, rows: np.ndarray, kinds: np.ndarray) -> None:
        """Make ``kinds`` (one row per table, in drawing order) the stock of ``rows``."""
        count = kinds.shape[1]
        self._stock[rows, :count] = kinds
        self._stock[rows, count:] = _NO_KIND
        self._prefix[rows], self._prefix2[rows] = _prefix_multisets(self._stock[rows])
        self._drawn[rows] = 0
        self._stock_end[rows] = count

    # ------------------------------------------------------------------------- the rules
    def _apply(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """The acting seats play their cards (``Round.apply``), then everything forced."""
        seat = self._current[rows]
        flat = self._row_base[rows] + seat
        kind = _ACTION_KIND[actions]
        bit = _CARD_BIT[kind]
        # The card leaves the hand (its second copy first) for the discard pile.
        held2 = self._hand2_flat[flat]
        self._hand_flat[flat] ^= bit & ~held2
        self._hand2_flat[flat] = held2 & ~bit
        self._size_flat[flat] -= 1
        pile = self._pile[rows]
        self._pile2[rows] |= pile & bit
        self._pile[rows] = pile | bit
        self._top[rows] = kind
        self._turns[rows] += 1
        swap = _ACTION_SWAP[actions]
        swapping = np.flatnonzero(swap)
        if swapping.size:
            other = (
                self._row_base[rows[swapping]]
                + self._rotation_flat[seat[swapping] * self.num_players + swap[swapping]]
            )
            self._swap_hands(flat[swapping], other)
        self._follow(rows, actions, kind)
        self._after_card(rows, seat, kind)

    def _swap_hands(self, flat: np.ndarray, other: np.ndarray) -> None:
        # The Queen's player swaps its whole remaining hand with the other's.
        for per_seat in (self._hand_flat, self._hand2_flat, self._size_flat):
            per_seat[flat], per_seat[other] = per_seat[other], per_seat[flat]

    def _follow(self, rows: np.ndarray, actions: np.ndarray, kind: np.ndarray) -> None:
        """The card becomes the active card; 2s build the run, Aces reverse the direction."""
        # A red 3 leaves the active card and the run as they were.
        moved = rows[~_IS_RED_THREE[kind]]
        actions = actions[~_IS_RED_THREE[kind]]
        rank = _ACTION_RANK[actions]
        # A 2 on a 2 extends the run; any other 2 starts one; any other card ends it.
        run = np.where(self._rank[moved] == 2, self._run[moved] + 1, 1)
        self._run[moved] = np.where(rank == 2, run, 0)
        # A Jack becomes "a Jack of the named suit" (its action's suit).
        self._set_active(moved, _ACTION_SUIT[actions], rank)
        self._clockwise[moved] ^= rank == ACE

    def _set_active(self, rows: np.ndarray, suit: np.ndarray, rank: np.ndarray) -> None:
        self._suit[rows] = suit
        self._rank[rows] = rank
        self._playable[rows] = _PLAYABLE[suit * _RANK_SLOTS + rank]

    def _after_card(self, rows: np.ndarray, seat: np.ndarray, kind: np.ndarray) -> None:
        """Going out, truncation, or what the card does to the next player and whose turn
        comes (``Round._next_player_after``)."""
        out = self._size_flat[self._row_base[rows] + seat] == 0
        truncated = ~out & (self._turns[rows] >= self.config.max_turns)
        effect = _EFFECT[kind]
        victim = self._next_seat[self._clockwise[rows] * self.num_players + seat]
        # A red 3's victim draws 5, a 2's 2 per 2 of the run, even after its player went out.
        penalty = np.flatnonzero(((effect == _DRAW_FIVE) | (effect == _DRAW_RUN)) & ~truncated)
        if penalty.size:
            counts = np.where(
                effect[penalty] == _DRAW_FIVE, RED_THREE_DRAW, TWO_DRAW * self._run[rows[penalty]]
            )
            self._draw(rows[penalty], victim[penalty], counts)
        if out.any():
            self._end_rounds(rows[out], seat[out])
        if truncated.any():
            self._end_rounds(rows[truncated], -1)
        going = ~(out | truncated)
        rows, victim, effect = rows[going], victim[going], effect[going]
        # A 2's victim loses its turn and a 7's is skipped: the turn counts, the next plays.
        losing = (effect == _DRAW_RUN) | (effect == _SKIP)
        if losing.any():
            lost_rows, after = self._lose_turns(rows[losing], victim[losing])
            rows = np.concatenate([rows[~losing], lost_rows])
            victim = np.concatenate([victim[~losing], after])
        self._take_turns(rows, victim)

    def _take_turns(self, rows: np.ndarray, seat: np.ndarray) -> None:
        """``seat``'s turn at each of ``rows``: a decision if it holds or draws a playable card,
        else a pass and the next player's turn, and so on (``Round._take_turn``)."""
        while rows.size:
            hand = self._hand_flat[self._row_base[rows] + seat]
            ready = (hand & self._playable[rows]) != 0
            drawing = np.flatnonzero(~ready)
            if drawing.size:
                ready[drawing] = self._draw_to_play(rows[drawing], seat[drawing])
            self._current[rows[ready]] = seat[ready]
            rows, seat = self._lose_turns(rows[~ready], seat[~ready])

    def _lose_turns(self, rows: np.ndarray, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Count a turn lost, skipped or passed by ``seat``, truncating the rounds that reach
        ``max_turns``; the other rows and the seats that play next there."""
        self._turns[rows] += 1
        truncated = self._turns[rows] >= self.config.max_turns
        if truncated.any():
            self._end_rounds(rows[truncated], -1)
            rows, seat = rows[~truncated], seat[~truncated]
        return rows, self._next_seat[self._clockwise[rows] * self.num_players + seat]

    # ------------------------------------------------------------------------- drawing
    def _draw(self, rows: np.ndarray, seat: np.ndarray, counts: np.ndarray) -> None:
        """A penalty draw of ``counts`` cards (fewer if nothing is left to draw)."""
        drawn, end = self._drawn[rows], self._stock_end[rows]
        self._take(rows, seat, np.minimum(drawn + counts, end))
        # The stock ran out: reshuffle, and draw the rest from the new stock.
        short = np.flatnonzero(counts > end - drawn)
        if short.size:
            rows, seat = rows[short], seat[short]
            self._reshuffle(rows)
            rest = counts[short] - (end[short] - drawn[short])
            self._take(rows, seat, np.minimum(self._drawn[rows] + rest, self._stock_end[rows]))

    def _draw_to_play(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """Draw for want of a playable card (``draw_rule``); whether a playable card came."""
        if self.config.draw_rule == "one":
            return self._draw_one(rows, seat)
        found, stop = self._first_playable(rows)
        self._take(rows, seat, stop)
        # The stock ran out first: reshuffle, and go on drawing from the new stock.
        missing = np.flatnonzero(~found)
        if missing.size:
            rows, seat = rows[missing], seat[missing]
            self._reshuffle(rows)
            found[missing], stop = self._first_playable(rows)
            self._take(rows, seat, stop)
        return found

    def _draw_one(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """``draw_rule="one"``: one card (after a reshuffle if the stock is empty); whether it
        is playable."""
        self._reshuffle(rows[self._drawn[rows] == self._stock_end[rows]])
        drawn = self._drawn[rows]
        can = drawn < self._stock_end[rows]
        kind = self._stock_flat[rows * self._stock_width + np.where(can, drawn, 0)]
        self._take(rows, seat, drawn + can)
        return can & ((self._playable[rows] >> kind) & 1).astype(bool)

    def _first_playable(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Whether the stock holds a playable card after its drawn ones, and the position just
        after the first one (the stock's end when there is none)."""
        drawn, end = self._drawn[rows], self._stock_end[rows]
        # A playable card nearly always comes within a few draws: look at those first.
        found, stop = self._search(rows, drawn, _WINDOW)
        rest = np.flatnonzero(~found & (drawn + _WINDOW < end))
        if rest.size:
            found[rest], stop[rest] = self._search(rows[rest], drawn[rest] + _WINDOW, NUM_CARDS)
        return found, np.where(found, stop, end)

    def _search(
        self, rows: np.ndarray, start: np.ndarray, width: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Whether stock positions ``start`` .. ``start + width - 1`` hold a playable card, and
        the position after the first one."""
        # Positions past the end hold _NO_KIND, which is never playable (the last one always).
        positions = np.minimum(start[:, None] + _POSITIONS[:width], self._stock_width - 1)
        kinds = self._stock_flat[(rows * self._stock_width)[:, None] + positions]
        hits = ((self._playable[rows, None] >> kinds) & 1).astype(bool)
        first = hits.argmax(axis=1)
        return hits[np.arange(rows.size), first], start + first + 1

    def _take(self, rows: np.ndarray, seat: np.ndarray, stop: np.ndarray) -> None:
        """``seat`` draws the stock's cards up to position ``stop`` into its hand."""
        width = self._stock_width + 1
        start = rows * width + self._drawn[rows]
        end = rows * width + stop
        cards, cards2 = _segment(
            self._prefix_flat[start],
            self._prefix2_flat[start],
            self._prefix_flat[end],
            self._prefix2_flat[end],
        )
        flat = self._row_base[rows] + seat
        hand = self._hand_flat[flat]
        self._hand2_flat[flat] |= cards2 | (hand & cards)
        self._hand_flat[flat] = hand | cards
        self._size_flat[flat] += stop - self._drawn[rows]
        self._drawn[rows] = stop

    def _reshuffle(self, rows: np.ndarray) -> None:
        """Every card of the discard pile but its top card, shuffled into a new stock with the
        round's generator, exactly as ``Round._reshuffle`` shuffles it."""
        top = _CARD_BIT[self._top[rows]]
        pile2 = self._pile2[rows]
        rest, rest2 = self._pile[rows] ^ (top & ~pile2), pile2 & ~top
        rows, rest, rest2 = rows[rest != 0], rest[rest != 0], rest2[rest != 0]
        if not rows.size:
            return  # nothing but the top card: the drawing stops
        # The pile's cards in _TWO_DECKS order (every kind's copies, ascending): the list
        # that Round._reshuffle shuffles.
        words = np.stack([rest, rest2], axis=1).astype("<i8")
        bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little").astype(bool)
        present = bits[:, _COPY_BITS]
        count = present.sum(axis=1)
        kinds = np.full((rows.size, self._stock_width), _NO_KIND, dtype=np.int64)
        for i, row in enumerate(rows.tolist()):
            order = _TWO_DECKS[present[i]]
            self._generator(row).shuffle(order)
            kinds[i, : order.size] = order[::-1]  # the scalar round draws from the list's end
        self._stock[rows] = kinds
        self._prefix[rows], self._prefix2[rows] = _prefix_multisets(kinds)
        self._drawn[rows] = 0
        self._stock_end[rows] = count
        self._pile[rows] = _CARD_BIT[self._top[rows]]
        self._pile2[rows] = 0
        self._reshuffles[rows] += 1

    def _generator(self, row: int) -> np.random.Generator:
        # Made at the round's first reshuffle: most rounds never need one.
        generator = self._generators.get(row)
        if generator is None:
            generator = self._generators[row] = np.random.default_rng(int(self._seed[row]))
        return generator

    # ------------------------------------------------------------------------- round ends
    def _end_rounds(self, rows: np.ndarray, out: np.ndarray | int) -> None:
        """Score the rounds of ``rows`` (``out``: the seat that went out, -1 if truncated),
        record them and deal each table its next round, the deal passing left."""
        n = self.num_players
        out = np.broadcast_to(np.asarray(out, dtype=np.int64), rows.shape)
        points = np.zeros((rows.size, n), dtype=np.int64)
        scored = out >= 0  # a truncated round adds no points
        if scored.any():
            # Every seat's two hand words, unpacked to bits and weighed by the kinds' points.
            scoring = rows[scored]
            words = np.stack([self._hand[scoring], self._hand2[scoring]], axis=-1)
            bits = np.unpackbits(words.astype("<i8").view(np.uint8), axis=-1, bitorder="little")
            points[scored] = bits @ self._points_by_bit
        values = _margins(points)
        # A round that ends while it is dealt (truncated: worth 0) adds to the one before.
        earlier = self._rewards[rows]
        self._record_rounds(
            rows,
            values,
            dealer=self._dealer[rows],
            out=out,
            turns=self._turns[rows],
            reshuffles=self._reshuffles[rows],
            points=points,
        )
        self._rewards[rows] += earlier
        cards, seeds = self._random_deals(rows.size)
        self._start_rounds(rows, cards, self._next_seat[n + self._dealer[rows]], seeds)

    def _update_legal(self, rows: np.ndarray) -> None:
        at = self._selection(rows)
        flat = self._row_base[at] + self._current[at]
        playable = self._hand_flat[flat] & self._playable[at]
        # A Jack always names a suit; a swap needs cards left after the Queen.
        jacks = _suit_subset(playable >> _JACK_AT)
        queens = self._queen_swaps[_suit_subset(playable >> _QUEEN_AT)]
        self._legal[at, 0] = (playable & ~JACKS) | _JACK_LOW[jacks]
        self._legal[at, 1] = _JACK_HIGH[jacks] | np.where(self._size_flat[flat] > 1, queens, 0)

    # ------------------------------------------------------------------------- observations
    def _encode(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        n = self.num_players
        base = self._row_base[rows]
        flat = base + seat
        words = np.zeros((rows.size, _OBS_WORDS), dtype="<i8")
        _place(words, self._hand_flat[flat], _HAND_AT)
        _place(words, self._hand2_flat[flat], _HAND_AT + NUM_KINDS)
        _place(words, self._pile[rows], _DISCARDS_AT)
        _place(words, self._pile2[rows], _DISCARDS_AT + NUM_KINDS)
        flags = (
            (1 << (self._rank[rows] - 1))
            | (1 << (_SUIT_F + self._suit[rows]))
            | (self._clockwise[rows] << _CLOCKWISE_F)
            | self._players_flag
            | (1 << (_DEALER_F + self._relative[self._dealer[rows] - seat + n]))
        )
        _place(words, flags, _FLAGS_AT)
        obs = np.empty((rows.size, OBS_SIZE), dtype=np.float32)
        obs[:, :_BITS] = np.unpackbits(words.view(np.uint8), axis=1, count=_BITS, bitorder="little")
        obs[:, _BITS:] = 0  # rows past the table's size, and the totals
        obs[:, _RUN_AT] = _RUN_FRACTIONS[self._run[rows]]
        obs[:, _STOCK_AT] = _SIZE_FRACTIONS[self._stock_end[rows] - self._drawn[rows]]
        relative = base[:, None] + self._rotation.take(seat, axis=0)
        obs[:, _SIZES_AT : _SIZES_AT + n] = _SIZE_FRACTIONS[self._size_flat[relative]]
        return obs


# ----------------------------------------------------------------------------- helpers
def _prefix_multisets(kinds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of kinds, the multisets of its first p cards, p = 0 .. width: the kinds seen
    at least once and the kinds seen twice, each (rows, width + 1)."""
    rows, width = kinds.shape
    bits = _CARD_BIT[kinds]
    prefix = np.zeros((rows, width + 1), dtype=np.int64)
    prefix2 = np.zeros((rows, width + 1), dtype=np.int64)
    np.bitwise_or.accumulate(bits, axis=1, out=prefix[:, 1:])
    # A card is a second copy when its kind was seen before it.
    np.bitwise_or.accumulate(bits & prefix[:, :-1], axis=1, out=prefix2[:, 1:])
    return prefix, prefix2


def _segment(
    before: np.ndarray, before2: np.ndarray, after: np.ndarray, after2: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The multiset ``after - before`` of two prefix multisets (``before`` is part of
    ``after``; a kind is there at most twice): its kinds held at least once and held twice."""
    return (after & ~before) | (after2 & ~before2), after2 & ~before


def _suit_subset(shifted: np.ndarray) -> np.ndarray:
    # The bits at 0, 13, 26 and 39 (one rank's four suits) as a 4-bit index (see _GATHER).
    return ((shifted & _SUIT_BITS) * _GATHER >> _GATHERED_AT) & (_SUBSETS - 1)


def _margins(points: np.ndarray) -> np.ndarray:
    """Each seat's margin: the mean of the points the others added minus its own (the unit of
    ``agents/games/boyn/arena.py``), float64."""
    n = points.shape[1]
    return (points.sum(axis=1, keepdims=True) - points) / (n - 1) - points


def _place(words: np.ndarray, bits: np.ndarray, offset: int) -> None:
    """OR ``bits`` (non-negative, below 2**63) into the 64-bit ``words`` at bit ``offset``."""
    word, shift = divmod(offset, _WORD)
    words[:, word] |= bits << shift
    if shift and word + 1 < words.shape[1]:
        words[:, word + 1] |= bits >> (_WORD - shift)


def _check_seed(name: str, seed: Any) -> None:
    if not is_integer(seed) or not 0 <= seed < _SEED_LIMIT:
        raise ValueError(f"{name} must be an integer 0-{_SEED_LIMIT - 1}, got {seed!r}")
