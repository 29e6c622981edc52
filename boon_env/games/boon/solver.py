"""Double-dummy solver for Boon's card play: the exact value of a round with every hand shown.

Once the pick and the discards are made, a Boon round is a two-sided game of perfect
information when every hand is known: the picker alone against one defending team, 120 points
to share. :func:`solve` returns the card points the picker's side ends the round with (tricks
taken plus buried cards, 0-120) when both sides play perfectly from any round in its play
phase, at 3, 4 and 5 players; :func:`solve_stake` the exact band outcome (what each defender
pays the picker, :func:`boon_env.games.boon.rules.picker_stake`) by zero-window searches, which
prove a bound and are much cheaper than the exact points; :func:`solve_value` that outcome as
the round's value per seat (:func:`boon_env.games.boon.rules.round_value`). Leasters are not a
two-sided game (every player plays for itself) and are refused.

====================  =====================================================================
search                alpha-beta, fail-soft, over single card plays, a loop over an explicit
                      stack of frames (compiled without reference counting of its arrays)
bounds                at each trick boundary (and the root) before searching: a gold card
                      above every other gold card left wins whatever trick it falls in, so
                      its points are its side's, and the cheapest card each player of the
                      other side can give to it; a trick nobody still to play can take is
                      its winner's side's; the last card of a trick: the bounds after each
                      of its moves settle it when one move or none can pass the window
move ordering         the transposition table's best lead first; then winning cheaply, giving
                      points to a partner who wins, throwing the least points when losing
transposition table   at every trick boundary, keyed by the leader, the picker and who holds
                      the cards left of each suit in rank order, not which cards they are
                      (a stored bound holds whatever the search window); positions of one
                      key are played alike card for card, so a bound stored for one holds
                      for another moved by the points of the cards paired by rank
                      (quasi-symmetry, Kupferschmid and Helmert's Skat solver); each key may
                      take one of two rows, one kept for the most cards left
exact points          bisection over zero-window searches, the table kept between them
band outcome          zero-window searches at the band floors, 61 first; the fail-soft bound
                      a search proves may settle the band without the second
equivalent cards      cards of one hand, one suit, adjacent among the cards still in play and
                      worth the same points are one move
compiled with         numba (the ``solver`` extra: ``pip install boon-env[solver]``)
====================  =====================================================================

Searching many sampled worlds (perfect-information Monte Carlo) is a loop over
:func:`solve` or :func:`move_values`; the transposition table is reset for each call, so one
world's bounds never leak into another's. The compiled core re-states two rules for speed
(which cards may follow, which card wins a trick) from the rules package's own card tables;
``tests/rules/test_solver.py`` checks them against :func:`~boon_env.games.boon.rules.trick_winner`
and :meth:`~boon_env.games.boon.rules.Round.legal_mask` on many positions.

>>> from boon_env.games.boon.rules import Deal, GameConfig, PASS, PICK, Round
>>> import numpy as np
>>> config = GameConfig(num_players=4)
>>> state = Round(config, Deal.random(config, np.random.default_rng(0)))
>>> state.apply(PICK)
>>> for card in sorted(state.legal_actions())[:4]:
...     state.apply(card)
>>> 0 <= solve(state) <= 120
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

try:
    from llvmlite import ir
    from llvmlite.ir import IRBuilder
    from numba import njit, types
    from numba.core.typing.templates import Signature
    from numba.extending import intrinsic
except ImportError as error:  # pragma: no cover - the extra is installed in the tests
    raise ImportError(
        "boon_env.games.boon.solver needs numba, which the 'solver' extra installs: "
        "pip install 'boon-env[solver]'"
    ) from error

from boon_env.games.boon.rules import (
    GOLD_MASK,
    NUM_CARDS,
    POINTS,
    SUIT_MASK,
    SUIT_OF,
    TOTAL_POINTS,
    Phase,
    Round,
    picker_stake,
    points_of,
)

__all__ = [
    "move_values",
    "nodes_searched",
    "reaches",
    "solve",
    "solve_many",
    "solve_stake",
    "solve_value",
]

# Compiled without numba's runtime (NRT): nothing here allocates, and counting references to
# the work arrays at every call (atomic operations) took 40% of the search's time.
_compiled = partial(njit, cache=True, _nrt=False)

# ------------------------------------------------------------------------- the card tables
# From the rules package, so the compiled core knows no card fact of its own.
_POINTS = np.array(POINTS, dtype=np.int64)
_SUIT_MASK_OF = np.array([SUIT_MASK[SUIT_OF[card]] for card in range(NUM_CARDS)], dtype=np.int64)
_GOLD = np.int64(GOLD_MASK)
_SUIT_MASKS = np.array(SUIT_MASK, dtype=np.int64)
# The lowest picker points of each band above the lowest (30, 61, 91), ascending.
_BAND_FLOORS = tuple(
    points
    for points in range(1, TOTAL_POINTS + 1)
    if picker_stake(points) != picker_stake(points - 1)
)

_TABLE_BITS = 20  # transposition table of 2^20 rows of 5 words (40 MB)
# A row: the key's three words, then one packing the search's generation (bits 32 up), the
# number of cards left (24-29), the lower and upper bounds (16-23, 8-15) and the best move + 1
# (0-7), then the cards left (the key names them by rank only).
_ROW = 5
_BUCKET = 2  # rows a position may take
_GENERATION_SHIFT = 32
_MAX_SEATS = 5
_MAX_DEPTH = 48  # card plays from any root: at most 3 x 9 + 1 trick in progress
# The work array: the hands (seats 0-4, unused seats empty), a node counter, the number of
# seats, the picker, the search's generation, then per search depth a row of moves and,
# _SCORES words further, their ordering scores, then per search depth a frame of the search
# (the search is a loop over an explicit stack: a recursive compiled function pays reference
# counting on its arrays at every call, which cost 40% of its time).
_NODES, _SEATS, _PICKER, _GENERATION = 5, 6, 7, 8
_WIDTH = 16  # more than the 14 gold cards a hand can hold
_MOVES = 9
_SCORES = _MAX_DEPTH * _WIDTH
_FRAMES = _MOVES + 2 * _MAX_DEPTH * _WIDTH
# A frame: the position (hands ... trick points), the window it was searched with after the
# table narrowed it (alpha, beta), the window so far (low, high), the best value and move so
# far, the move being searched (k of count) and the points its trick gave the picker (gain),
# the table's bucket and key, and the seat to play, the winning card, the cards played to
# the trick and whether the picker plays.
(_HANDS, _LEADER, _TRICK, _LED, _WINNER, _TRICK_POINTS, _ALPHA, _BETA, _LOW, _HIGH, _BEST,
 _BEST_MOVE, _K, _COUNT, _GAIN, _BUCKET, _KEY, _SEAT, _WINNING_CARD, _PLAYED,
 _MAXIMIZING) = (*range(16), 16, 19, 20, 21, 22)  # fmt: skip
_FRAME = 23
_WORK = _FRAMES + (_MAX_DEPTH + 1) * _FRAME


# --------------------------------------------------------------------- the restated rules
@_compiled(inline="always")
def _legal(hand: int, led_card: int) -> int:
    """The cards of ``hand`` that may be played on a trick led by ``led_card`` (-1: leading).
    RULES.md: follow the led suit if you can (gold is a suit like the others), else anything."""
    if led_card < 0:
        return hand
    follow = hand & _SUIT_MASK_OF[led_card]
    return follow if follow else hand


@_compiled(inline="always")
def _beats(card: int, winning: int) -> bool:
    """Whether ``card`` takes the trick from ``winning``, the card winning it so far (which is
    gold or of the led suit). RULES.md: the highest gold wins, else the highest of the led
    suit; ids rank the cards within a suit."""
    card_gold = (_GOLD >> card) & 1
    winning_gold = (_GOLD >> winning) & 1
    if card_gold and not winning_gold:
        return True
    return _SUIT_MASK_OF[card] == _SUIT_MASK_OF[winning] and card > winning


@_compiled()
def _trick_winner(cards: np.ndarray) -> int:
    """The position in play order of the card that wins ``cards`` (the tests compare it with
    the rules package's ``trick_winner``)."""
    best = 0
    for position in range(1, len(cards)):
        if _beats(cards[position], cards[best]):
            best = position
    return best


# The points of any set of cards: four lookups, one per byte of its mask.
_BYTE_POINTS = np.array(
    [
        [sum(POINTS[8 * byte + i] for i in range(8) if value >> i & 1) for value in range(256)]
        for byte in range(NUM_CARDS // 8)
    ],
    dtype=np.int64,
)


@_compiled(inline="always")
def _points(mask: int) -> int:
    return (
        _BYTE_POINTS[0, mask & 0xFF]
        + _BYTE_POINTS[1, (mask >> 8) & 0xFF]
        + _BYTE_POINTS[2, (mask >> 16) & 0xFF]
        + _BYTE_POINTS[3, (mask >> 24) & 0xFF]
    )


# The processor's bit-counting instructions, through LLVM's intrinsics (numba exposes none; a
# loop over the bits took a third of the bounds' time).
def _llvm_bits(emit: Callable[[IRBuilder, ir.Value], ir.Value]) -> Callable[[int], int]:
    """A compiled ``int64 -> int64`` function that is the instruction ``emit`` builds."""

    def typer(typing_context: object, mask: types.Integer) -> tuple[Signature, Callable]:
        def codegen(
            context: object, builder: IRBuilder, signature: Signature, args: list
        ) -> ir.Value:
            return emit(builder, args[0])

        return types.int64(types.int64), codegen

    return intrinsic(typer)


_DEFINED_AT_ZERO = ir.Constant(ir.IntType(1), 0)
_llvm_ctpop = _llvm_bits(lambda builder, mask: builder.ctpop(mask))
_llvm_cttz = _llvm_bits(lambda builder, mask: builder.cttz(mask, _DEFINED_AT_ZERO))
_llvm_ctlz = _llvm_bits(lambda builder, mask: builder.ctlz(mask, _DEFINED_AT_ZERO))


@_compiled(inline="always")
def _bit_index(bit: int) -> int:
    """The index of the lowest set bit of ``bit``."""
    return _llvm_cttz(np.int64(bit))


@_compiled(inline="always")
def _above(mask: int) -> int:
    """The cards above the highest card of ``mask`` (ids rank the gold cards)."""
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    return ~mask


@_compiled(inline="always")
def _highest(mask: int) -> int:
    """The highest card of ``mask`` (not empty)."""
    return 63 - _llvm_ctlz(np.int64(mask))


@_compiled(inline="always")
def _popcount(mask: int) -> int:
    return _llvm_ctpop(np.int64(mask))


@_compiled(inline="always")
def _winning(trick: int, led: int) -> int:
    """The card winning the ``trick`` in progress, led by ``led`` (-1: no card played).
    RULES.md: the highest gold, else the highest of the led suit."""
    if trick == 0:
        return -1
    gold = trick & _GOLD
    return _highest(gold if gold else trick & _SUIT_MASK_OF[led])


# The cards of each point value, by ascending points (for the least points a hand can give).
_POINT_VALUES = np.array(sorted(set(POINTS)), dtype=np.int64)
_CARDS_WORTH = np.array(
    [sum(1 << c for c in range(NUM_CARDS) if POINTS[c] == value) for value in _POINT_VALUES],
    dtype=np.int64,
)


@_compiled(inline="always")
def _least_points(hand: int, cards: int) -> int:
    """The fewest points ``cards`` cards of ``hand`` can be worth."""
    total = 0
    for k in range(_POINT_VALUES.shape[0]):
        if cards <= 0:
            break
        take = min(_popcount(hand & _CARDS_WORTH[k]), cards)
        total += take * _POINT_VALUES[k]
        cards -= take
    return total


@_compiled(inline="always")
def _sure_gain(
    work: np.ndarray, side_gold: int, other_gold: int, per_trick: int, givers: int, deep: bool
) -> int:
    """The fewest points the gold cards ``side_gold`` of one side surely win for it at a trick
    boundary, with the cards the seats ``givers`` (a mask) of the other side must give to
    those tricks.

    The other side's ``j`` top gold cards each fall in one trick, with at most ``per_trick``
    of this side's cards (the picker plays one card a trick, the defence ``n - 1``): of this
    side's cards above the other side's ``j + 1``-th, all but ``j * per_trick`` win their
    tricks, at least one trick per ``per_trick`` of them, and each giver gives each such trick
    a card, at least its cheapest. ``deep``: the best over every ``j``, else ``j = 0`` only
    (the cards above all of the other side's)."""
    n = work[_SEATS]
    best, most_wins, rest, j = 0, 0, other_gold, 0
    total = _popcount(side_gold)
    # A larger j gives a superset of cards; only more winners can give more points.
    while total - per_trick * j > most_wins:
        cards = side_gold & _above(rest)
        wins = _popcount(cards) - per_trick * j
        if wins > most_wins:
            most_wins = wins
            tricks = (wins + per_trick - 1) // per_trick
            points = _least_points(cards, wins)
            for seat in range(n):
                if givers >> seat & 1:
                    points += _least_points(work[seat], tricks)
            best = max(best, points)
        if rest == 0 or not deep:
            break
        rest ^= np.int64(1) << _highest(rest)
        j += 1
    return best


@_compiled(inline="always")
def _sure_points(work: np.ndarray, hands: int, trick: int, deep: bool) -> tuple[int, int]:
    """Bounds on the picker's points from the cards still in ``hands`` (``work[:n]``) and the
    ``trick`` in progress, before any search: ``(lower, upper)``.

    A gold card in a hand above every other gold card left (in the trick too) wins whatever
    trick it falls in, so its points are its side's for sure; the trick's cards may go either
    way. At a trick boundary, :func:`_sure_gain` of each side (``deep``: over every number of
    the other side's top cards, else above all of them)."""
    n, picker = work[_SEATS], work[_PICKER]
    picker_hand = work[picker]
    picker_gold = picker_hand & _GOLD
    defence_gold = hands & ~picker_hand & _GOLD
    if trick:
        lower = _points(picker_gold & _above(defence_gold | trick & _GOLD))
        sure_defence = _points(defence_gold & _above(picker_gold | trick & _GOLD))
        return lower, _points(hands | trick) - sure_defence
    defence = ((1 << n) - 1) ^ (1 << picker)
    lower = _sure_gain(work, picker_gold, defence_gold, 1, defence, deep)
    sure_defence = _sure_gain(work, defence_gold, picker_gold, n - 1, 1 << picker, deep)
    return lower, _points(hands) - sure_defence


# --------------------------------------------------------------------------- the search
@_compiled()
def _moves(hand: int, live: int, led_card: int, work: np.ndarray, at: int) -> int:
    """Write one card per class of equivalent legal cards into ``work[at:]``; return their
    number.

    A card is dropped when the next card above it in its suit among ``live`` (every card in a
    hand or in the trick) is in the same hand and worth the same: the two win and lose the
    same tricks and score the same, so only one needs searching."""
    legal = _legal(hand, led_card)
    count = 0
    rest = legal
    while rest:
        low = rest & -rest
        rest ^= low
        card = _bit_index(low)
        above = live & _SUIT_MASK_OF[card] & ~((low << 1) - 1)
        if above:
            next_card = _bit_index(above & -above)
            if (hand >> next_card) & 1 and _POINTS[next_card] == _POINTS[card]:
                continue
        work[at + count] = card
        count += 1
    return count


@_compiled()
def _order(
    work: np.ndarray,
    at: int,
    count: int,
    live: int,
    lead: bool,
    partner_wins: bool,
    winning: int,
    hint: int,
) -> None:
    """Sort the moves ``work[at:at + count]`` best-first by cheap guesses (``hint``: the
    table's best move); their scores go to ``work[at + _SCORES:]``."""
    scores = at + _SCORES
    for k in range(count):
        card = work[at + k]
        points = _POINTS[card]
        if card == hint:
            score = 1000
        elif lead:
            above = live & _SUIT_MASK_OF[card] & ~((np.int64(2) << card) - 1)
            # A card no live card of its suit beats wins unless trumped: cash it; else lead low.
            score = 200 + points if above == 0 else 100 - points
        elif partner_wins:
            score = 100 + points - (20 if (_GOLD >> card) & 1 else 0)
        elif _beats(card, winning):
            score = 200 + points - card
        else:
            score = 100 - points
        work[scores + k] = score
    for k in range(1, count):  # insertion sort: at most 14 moves
        card, score = work[at + k], work[scores + k]
        j = k - 1
        while j >= 0 and work[scores + j] < score:
            work[at + j + 1], work[scores + j + 1] = work[at + j], work[scores + j]
            j -= 1
        work[at + j + 1], work[scores + j + 1] = card, score


def _compress(live: int, held: int) -> int:
    """The bits of ``held`` at the set bits of ``live``, packed to the lowest bits in order
    (the bit-compress "pext")."""
    live_bits = [bit for bit in range(8) if live >> bit & 1]
    return sum(1 << k for k, bit in enumerate(live_bits) if held >> bit & 1)


_PEXT8 = np.array([[_compress(live, held) for held in range(256)] for live in range(256)], np.uint8)


@_compiled(inline="always")
def _by_rank(hand: int, remaining: int, below: tuple[int, int, int]) -> int:
    """``hand`` (a set of the ``remaining`` cards) with the k-th lowest card left renamed k:
    a compress byte by byte, ``below`` counting the cards left under the 2nd, 3rd, 4th byte."""
    renamed = np.int64(_PEXT8[remaining & 0xFF, hand & 0xFF])
    for byte in range(1, NUM_CARDS // 8):
        shift = 8 * byte
        packed = _PEXT8[(remaining >> shift) & 0xFF, (hand >> shift) & 0xFF]
        renamed |= np.int64(packed) << below[byte - 1]
    return renamed


@_compiled()
def _key(work: np.ndarray, remaining: int, leader: int) -> tuple[int, int, int]:
    """The transposition table's key of a trick boundary: each hand renamed by rank among the
    cards left (:func:`_by_rank`), how many cards of each suit are left, the leader and the
    picker: who holds the cards left of each suit in rank order, not which cards they are.
    Positions with one key are played alike, card for card of the same rank; their values
    differ by at most what :func:`_shift` gives."""
    n = work[_SEATS]
    low = _popcount(remaining & 0xFF)
    middle = low + _popcount(remaining & 0xFF00)
    below = (low, middle, middle + _popcount(remaining & 0xFF0000))
    first = _by_rank(work[0], remaining, below) | _by_rank(work[1], remaining, below) << 32
    second = _by_rank(work[2], remaining, below)
    third = np.int64(leader) << 32 | work[_PICKER] << 36
    for suit in range(_SUIT_MASKS.shape[0]):
        third |= np.int64(_popcount(remaining & _SUIT_MASKS[suit])) << 40 + 4 * suit
    if n > 3:
        second |= _by_rank(work[3], remaining, below) << 32
    if n > 4:
        third |= _by_rank(work[4], remaining, below)
    return first, second, third


@_compiled()
def _shift(stored: int, remaining: int) -> tuple[int, int]:
    """How far the picker's points may move from a position whose cards left are ``stored``
    to one of the same key whose cards left are ``remaining``: ``(down, up)``, the sums of
    the negative and of the positive point changes of the cards paired by rank (the k-th
    lowest of each; the key's suit counts make them cards of one suit), as quasi-symmetry
    has it: either position's play is the other's, card for card, and the picker's points
    differ only by the changes of the cards it takes."""
    down, up = 0, 0
    old, new = stored, remaining
    while old:
        change = _POINTS[_bit_index(new & -new)] - _POINTS[_bit_index(old & -old)]
        if change < 0:
            down += change
        else:
            up += change
        old &= old - 1
        new &= new - 1
    return down, up


@_compiled(inline="always")
def _same_rank(card: int, stored: int, remaining: int) -> int:
    """The card of ``remaining`` of ``card``'s rank among the cards left, ``card`` being one
    of ``stored`` (a move of one position in another of the same key: the same suit)."""
    new = remaining
    for _ in range(_popcount(stored & ((np.int64(1) << card) - 1))):
        new &= new - 1
    return _bit_index(new & -new)


@_compiled()
def _bucket(key: tuple[int, int, int]) -> int:
    """The first row of ``key``'s bucket (two rows: :data:`_BUCKET`)."""
    # Each product's high bits depend on all of its word; a final mix spreads them down.
    mixed = key[0] * np.int64(-7046029254386353131) ^ key[1] * np.int64(-4658895280553007687)
    mixed ^= key[2] * np.int64(0x27D4EB2F165667C5)
    mixed = (mixed ^ (mixed >> 31)) * np.int64(-7723592293110705685)
    return ((mixed >> 32) & ((1 << _TABLE_BITS) - 1)) & ~(_BUCKET - 1)


@_compiled()
def _find(table: np.ndarray, bucket: int, key: tuple[int, int, int], generation: int) -> int:
    """The row of ``bucket`` holding this search's bounds of position ``key``, or -1."""
    for slot in range(bucket, bucket + _BUCKET):
        row = slot * _ROW
        if (
            table[row + 3] >> _GENERATION_SHIFT == generation
            and table[row] == key[0]
            and table[row + 1] == key[1]
            and table[row + 2] == key[2]
        ):
            return slot
    return -1


@_compiled()
def _last_trick(work: np.ndarray, leader: int) -> int:
    """The picker's points from the last trick, every hand holding one card (forced)."""
    led = _bit_index(work[leader])
    winning, winner, points = led, leader, 0
    for seat in range(work[_SEATS]):
        card = _bit_index(work[seat])
        points += _POINTS[card]
        if _beats(card, winning):
            winning, winner = card, seat
    return points if winner == work[_PICKER] else 0


@_compiled()
def _boundary(
    work: np.ndarray, table: np.ndarray, leader: int, hands: int, alpha: int, beta: int
) -> tuple[int, int, int, int, int, tuple[int, int, int]]:
    """What the table knows at a trick boundary before searching it: ``(value, alpha, beta,
    hint, bucket, key)``. A ``value`` of 0 or more ends the search there (the table's bounds
    settle it); else the window narrowed by the table, its best move and the position's
    bucket and key."""
    key = _key(work, hands, leader)
    bucket = _bucket(key)
    slot = _find(table, bucket, key, work[_GENERATION])
    if slot < 0:
        return -1, alpha, beta, -1, bucket, key
    row = slot * _ROW
    packed, stored = table[row + 3], table[row + 4]
    lower, upper, hint = (packed >> 16) & 0xFF, (packed >> 8) & 0xFF, (packed & 0xFF) - 1
    if stored != hands:  # the same play with other cards: bounds moved by their points
        down, up = _shift(stored, hands)
        lower, upper = max(lower + down, 0), min(upper + up, _points(hands))
        if hint >= 0:
            hint = _same_rank(hint, stored, hands)
    if lower >= beta or lower == upper:
        return lower, alpha, beta, -1, bucket, key
    if upper <= alpha:
        return upper, alpha, beta, -1, bucket, key
    return -1, max(alpha, lower), min(beta, upper), hint, bucket, key


@_compiled()
def _decided(work: np.ndarray, leader: int, played: int, led: int, winning: int) -> bool:
    """Whether no seat still to play to the trick in progress holds a card that may follow
    ``led`` and beats ``winning``."""
    n = work[_SEATS]
    above = _GOLD & ~((np.int64(2) << winning) - 1)
    if not (_GOLD >> winning) & 1:
        above = _GOLD | _SUIT_MASK_OF[winning] & ~((np.int64(2) << winning) - 1)
    for k in range(played, n):  # noqa: SIM110 (numba compiles a loop, not all())
        if _legal(work[(leader + k) % n], led) & above:
            return False
    return True


@_compiled()
def _bounds(
    work: np.ndarray, hands: int, leader: int, trick: int, led: int, winner: int, trick_points: int
) -> tuple[int, int]:
    """Bounds ``(lower, upper)`` on what :func:`_search` returns for this position, known
    without searching: :func:`_sure_points`, and the trick in progress's points when nobody
    still to play can take it from its winner."""
    picker = work[_PICKER]
    least, most = _sure_points(work, hands, trick, True)
    played = _popcount(trick)
    if played and _decided(work, leader, played, led, _winning(trick, led)):
        if winner == picker:
            least += trick_points
        else:
            most -= trick_points
    return least, most


@_compiled()
def _search(
    work: np.ndarray,
    table: np.ndarray,
    hands: int,
    leader: int,
    trick: int,
    led: int,
    winner: int,
    trick_points: int,
    alpha: int,
    beta: int,
) -> int:
    """The picker's points from the cards still to play (the trick in progress included),
    fail-soft within ``(alpha, beta)``. ``work[:n]`` are the hands, ``hands`` all their
    cards; the trick in progress is ``trick`` (a mask of its cards, led by ``leader``),
    ``led`` its first card, ``winner`` the seat of the card winning it (-1: no card played
    yet) and ``trick_points`` its points.

    Alpha-beta over an explicit stack of frames: :func:`_enter` a position (settled at once,
    or its moves laid out), :func:`_descend` into its next move, :func:`_ascend` with the
    move's value (settled, or on to the next move)."""
    root = _FRAMES
    work[root + _HANDS], work[root + _LEADER], work[root + _TRICK] = hands, leader, trick
    work[root + _LED], work[root + _WINNER], work[root + _TRICK_POINTS] = led, winner, trick_points
    work[root + _ALPHA], work[root + _BETA] = alpha, beta
    work[root + _PLAYED], work[root + _WINNING_CARD] = _popcount(trick), _winning(trick, led)
    depth = 0
    value = _enter(work, table, 0)
    while True:
        if value < 0:
            _descend(work, depth)
            depth += 1
            value = _enter(work, table, depth)
        elif depth == 0:
            return value
        else:
            depth -= 1
            value = _ascend(work, table, depth, value)


@_compiled(inline="always")
def _enter(work: np.ndarray, table: np.ndarray, depth: int) -> int:
    """Settle the position of frame ``depth`` without searching it (its value, 0 or more:
    no cards left, the last trick, the bounds or the table), or lay out its moves best first
    and return -1."""
    f = _FRAMES + depth * _FRAME
    work[_NODES] += 1
    n, picker = work[_SEATS], work[_PICKER]
    hands, leader, trick = work[f + _HANDS], work[f + _LEADER], work[f + _TRICK]
    led, winner, alpha, beta = work[f + _LED], work[f + _WINNER], work[f + _ALPHA], work[f + _BETA]
    played, winning = work[f + _PLAYED], work[f + _WINNING_CARD]
    hint, bucket, key = -1, -1, (np.int64(0), np.int64(0), np.int64(0))
    if played == 0 or depth == 0:
        # The bounds, and the table, at trick boundaries only: within a trick they cut too
        # little to pay for themselves.
        if played == 0 and work[leader] & (work[leader] - 1) == 0:  # the last trick, or none
            return _last_trick(work, leader) if hands else 0
        least, most = _bounds(work, hands, leader, trick, led, winner, work[f + _TRICK_POINTS])
        if most <= alpha:
            return most
        if least >= beta:
            return least
        if played == 0:
            known, alpha, beta, hint, bucket, key = _boundary(
                work, table, leader, hands, alpha, beta
            )
            if known >= 0:
                return known
    seat = (leader + played) % n
    at = _MOVES + depth * _WIDTH
    count = _moves(work[seat], hands | trick, led, work, at)
    maximizing = seat == picker
    # (With two cards left in the hand, each move leads to the last trick: settled at once.)
    if played == n - 1 and count > 1 and _popcount(work[seat]) > 2:
        settled = _last_card_bound(work, f, at, count, seat, maximizing, alpha, beta)
        if settled >= 0:
            return settled
    if count > 1:
        partner_wins = played > 0 and ((winner == picker) == maximizing)
        _order(work, at, count, hands | trick, played == 0, partner_wins, winning, hint)
    work[f + _ALPHA], work[f + _BETA], work[f + _LOW], work[f + _HIGH] = alpha, beta, alpha, beta
    work[f + _BEST] = -1 if maximizing else TOTAL_POINTS + 1
    work[f + _BEST_MOVE], work[f + _K], work[f + _COUNT] = -1, 0, count
    work[f + _BUCKET] = bucket
    work[f + _KEY], work[f + _KEY + 1], work[f + _KEY + 2] = key
    work[f + _SEAT], work[f + _MAXIMIZING] = seat, maximizing
    return -1


@_compiled(inline="always")
def _last_card_bound(
    work: np.ndarray,
    f: int,
    at: int,
    count: int,
    seat: int,
    maximizing: bool,
    alpha: int,
    beta: int,
) -> int:
    """The last card of a trick: a value that settles frame ``f`` from its moves' bounds
    (:func:`_sure_points` after each card, the trick's points scored), or -1. The picker
    settles it if one card is sure to reach ``beta`` or no card can pass ``alpha``; the
    defence if one card keeps the picker to ``alpha`` or none lets it below ``beta``."""
    picker, hands = work[_PICKER], work[f + _HANDS]
    winning, winner = work[f + _WINNING_CARD], work[f + _WINNER]
    reach = -1 if maximizing else TOTAL_POINTS + 1  # best bound over the cards
    for k in range(count):
        card = work[at + k]
        bit = np.int64(1) << card
        gain = 0
        if (seat if _beats(card, winning) else winner) == picker:
            gain = work[f + _TRICK_POINTS] + _POINTS[card]
        work[seat] ^= bit
        least, most = _sure_points(work, hands ^ bit, 0, False)
        work[seat] ^= bit
        if maximizing:
            if gain + least >= beta:
                return gain + least
            reach = max(reach, gain + most)
        else:
            if gain + most <= alpha:
                return gain + most
            reach = min(reach, gain + least)
    if (maximizing and reach <= alpha) or (not maximizing and reach >= beta):
        return reach
    return -1


@_compiled(inline="always")
def _descend(work: np.ndarray, depth: int) -> None:
    """Play frame ``depth``'s next move: the position after it becomes frame ``depth + 1``.
    The last card of a trick: its points are scored (the frame's gain, when the picker wins
    it) and its winner leads the next."""
    f = _FRAMES + depth * _FRAME
    child = f + _FRAME
    card = work[_MOVES + depth * _WIDTH + work[f + _K]]
    bit = np.int64(1) << card
    seat, played = work[f + _SEAT], work[f + _PLAYED]
    work[seat] ^= bit
    beats = played == 0 or _beats(card, work[f + _WINNING_CARD])
    winner = seat if beats else work[f + _WINNER]
    points = work[f + _TRICK_POINTS] + _POINTS[card]
    over = played + 1 == work[_SEATS]
    gain = points if over and winner == work[_PICKER] else 0
    work[f + _GAIN] = gain
    work[child + _HANDS] = work[f + _HANDS] ^ bit
    if over:
        work[child + _LEADER], work[child + _TRICK], work[child + _LED] = winner, 0, -1
        work[child + _WINNER], work[child + _TRICK_POINTS] = -1, 0
        work[child + _PLAYED], work[child + _WINNING_CARD] = 0, -1
    else:
        work[child + _LEADER], work[child + _TRICK] = work[f + _LEADER], work[f + _TRICK] | bit
        work[child + _LED] = card if played == 0 else work[f + _LED]
        work[child + _WINNER], work[child + _TRICK_POINTS] = winner, points
        work[child + _PLAYED] = played + 1
        work[child + _WINNING_CARD] = card if beats else work[f + _WINNING_CARD]
    work[child + _ALPHA], work[child + _BETA] = work[f + _LOW] - gain, work[f + _HIGH] - gain


@_compiled(inline="always")
def _ascend(work: np.ndarray, table: np.ndarray, depth: int, value: int) -> int:
    """Take back frame ``depth``'s move, worth ``value`` after it: the frame's value when it
    is settled (a cutoff, or its last move; kept in the table at a trick boundary), else -1
    with the next move to search."""
    f = _FRAMES + depth * _FRAME
    k = work[f + _K]
    card = work[_MOVES + depth * _WIDTH + k]
    work[work[f + _SEAT]] ^= np.int64(1) << card
    value += work[f + _GAIN]
    if work[f + _MAXIMIZING]:
        if value > work[f + _BEST]:
            work[f + _BEST], work[f + _BEST_MOVE] = value, card
            work[f + _LOW] = max(work[f + _LOW], value)
    elif value < work[f + _BEST]:
        work[f + _BEST], work[f + _BEST_MOVE] = value, card
        work[f + _HIGH] = min(work[f + _HIGH], value)
    if work[f + _LOW] < work[f + _HIGH] and k + 1 < work[f + _COUNT]:
        work[f + _K] = k + 1
        return -1
    best = work[f + _BEST]
    if work[f + _BUCKET] >= 0:
        key = (work[f + _KEY], work[f + _KEY + 1], work[f + _KEY + 2])
        _store(
            work, table, work[f + _BUCKET], key, best, work[f + _ALPHA], work[f + _BETA],
            work[f + _BEST_MOVE], work[f + _HANDS],
        )  # fmt: skip
    return best


@_compiled()
def _store(
    work: np.ndarray,
    table: np.ndarray,
    bucket: int,
    key: tuple[int, int, int],
    value: int,
    alpha: int,
    beta: int,
    best_move: int,
    hands: int,
) -> None:
    """Keep what a search of ``(alpha, beta)`` returning ``value`` proved of position ``key``
    with the cards ``hands`` left: an upper bound (it failed low), a lower bound (high), or the
    exact value (a row of the same key with other cards is replaced). The bucket's first row
    keeps the position with the most cards left (the costliest to search again), the second
    whatever came last."""
    generation = work[_GENERATION]
    slot = _find(table, bucket, key, generation)
    same = slot >= 0 and table[slot * _ROW + 4] == hands
    cards = _popcount(hands)
    if slot < 0:
        first = table[bucket * _ROW + 3]
        stale = first >> _GENERATION_SHIFT != generation
        slot = bucket if stale or (first >> 24) & 0x3F <= cards else bucket + 1
    row = slot * _ROW
    lower = (table[row + 3] >> 16) & 0xFF if same else 0
    upper = (table[row + 3] >> 8) & 0xFF if same else TOTAL_POINTS
    if value <= alpha:
        upper = min(upper, value)
    elif value >= beta:
        lower = max(lower, value)
    else:
        lower = upper = value
    table[row], table[row + 1], table[row + 2] = key
    table[row + 3] = (
        generation << _GENERATION_SHIFT | cards << 24 | lower << 16 | upper << 8 | (best_move + 1)
    )
    table[row + 4] = hands


# ------------------------------------------------------------------------------ the API
class _Workspace:
    """The transposition table and the work array, allocated once per process on first use.
    A new search takes a new generation: rows of older ones read as empty."""

    table = np.zeros(0, dtype=np.int64)
    work = np.zeros(_WORK, dtype=np.int64)
    generation = 0

    @classmethod
    def begin(cls, fresh: bool) -> None:
        if not len(cls.table):
            cls.table = np.zeros(_ROW << _TABLE_BITS, dtype=np.int64)
        cls.generation += fresh
        cls.work[_GENERATION] = cls.generation


def nodes_searched() -> int:
    """Positions the solver has visited in this process (for benchmarks)."""
    return int(_Workspace.work[_NODES])


def _checked(state: Round) -> None:
    if not isinstance(state, Round):
        raise TypeError(f"solve needs a Boon Round, got {type(state).__name__}")
    if state.leaster:
        raise ValueError("a Leaster is no two-sided game: the solver values picker rounds only")
    if state.phase is not Phase.PLAY and state.phase is not Phase.DONE:
        raise ValueError(
            f"the solver needs a round in its play phase (after the discards), got phase "
            f"{state.phase.name}"
        )


def _known(state: Round) -> int:
    """The picker's points already decided: its tricks and its buried cards."""
    if state.phase is Phase.DONE:
        return state.points[state.picker]  # the discards are counted at the end of the round
    return state.points[state.picker] + points_of(state.discards)


def _future(state: Round, alpha: int, beta: int, fresh: bool = True) -> int:
    """The picker's points still to come, fail-soft within ``(alpha, beta)`` (``fresh``: a new
    search, which does not trust the table's bounds from earlier ones)."""
    if state.phase is Phase.DONE:
        return 0
    _Workspace.begin(fresh)
    position = _load(state, _Workspace.work)
    return int(_search(_Workspace.work, _Workspace.table, *position, alpha, beta))


def _load(state: Round, work: np.ndarray) -> tuple[int, int, int, int, int, int]:
    """Write ``state``'s hands, number of seats and picker into ``work``; return the rest of
    the position as :func:`_search` takes it: ``(hands, leader, trick, led, winner,
    trick_points)``."""
    n = state.config.num_players
    work[:_MAX_SEATS] = 0
    work[:n] = state.hands
    work[_SEATS], work[_PICKER] = n, state.picker
    trick, leader = state.trick, state.leader
    winner, mask = -1, 0
    if trick:
        winner = (leader + _trick_winner(np.array(trick, dtype=np.int64))) % n
        for card in trick:
            mask |= 1 << card
    led = trick[0] if trick else -1
    hands = int(np.bitwise_or.reduce(work[:n]))
    return hands, leader, mask, led, winner, sum(POINTS[card] for card in trick)


def _narrow(state: Round, floors: Sequence[int]) -> tuple[int, int]:
    """Bounds ``(lower, upper)`` on the picker's points still to come such that no point of
    ``floors`` (ascending) lies in ``(lower, upper]``, by zero-window searches at the middle
    open floor: each proves a bound (fail-soft, often beyond the one asked); the bounds the
    table keeps from one search speed up the next. With every point a floor, this is
    bisection to the exact value; with the band floors, the band outcome."""
    lower, upper = 0, TOTAL_POINTS
    fresh = True
    while True:
        open_floors = [floor for floor in floors if lower < floor <= upper]
        if not open_floors:
            return lower, upper
        beta = open_floors[len(open_floors) // 2]
        value = _future(state, beta - 1, beta, fresh)
        fresh = False
        if value >= beta:
            lower = value
        else:
            upper = value


def solve(state: Round) -> int:
    """The card points (0-120: tricks taken plus buried cards) the picker ends ``state``'s
    round with when both sides play perfectly from here, every hand known.

    Raises:
        ValueError: ``state`` is a Leaster or not yet in its play phase (still picking or
            burying); a finished round returns its picker's points.
    """
    _checked(state)
    lower, _upper = _narrow(state, range(1, TOTAL_POINTS + 1))
    return _known(state) + lower


def reaches(state: Round, points: int) -> bool:
    """Whether the picker's side ends with at least ``points`` under perfect play (one
    zero-window search: much cheaper than :func:`solve`).

    Raises:
        ValueError: as :func:`solve`.
    """
    _checked(state)
    needed = int(points) - _known(state)
    if needed <= 0:
        return True
    return _future(state, needed - 1, needed) >= needed


def solve_stake(state: Round) -> int:
    """The exact band outcome under perfect play: Victory Cards each defender pays the picker
    (-2, -1, 1 or 2; negative: the picker pays each), from one or two zero-window searches
    (first at 61 points; the bound it proves may settle the band).

    Raises:
        ValueError: as :func:`solve`.
    """
    _checked(state)
    known = _known(state)
    lower, _upper = _narrow(state, [floor - known for floor in _BAND_FLOORS])
    return picker_stake(known + lower)


def solve_value(state: Round) -> tuple[int, ...]:
    """The round's value per seat (as :func:`~boon_env.games.boon.rules.round_value`) under
    perfect play from ``state``: the picker wins ``(n - 1) * stake``, each defender loses the
    stake.

    Raises:
        ValueError: as :func:`solve`.
    """
    stake = solve_stake(state)
    n = state.config.num_players
    return tuple(stake * (n - 1) if seat == state.picker else -stake for seat in range(n))


def move_values(state: Round) -> dict[int, int]:
    """The picker's final points under perfect play after each legal card of the seat to act
    (one :func:`solve` per card): what a search over sampled worlds averages per move.

    Raises:
        ValueError: as :func:`solve`, or the round is over.
    """
    _checked(state)
    if state.phase is Phase.DONE:
        raise ValueError("the round is over: no card is left to play")
    values = {}
    for card in state.legal_actions():
        after = state.clone()
        after.apply(card)
        values[card] = solve(after)
    return values


def solve_many(states: Sequence[Round]) -> np.ndarray:
    """:func:`solve` of each round, as an int array (e.g. a batch of sampled worlds).

    Raises:
        ValueError: as :func:`solve`, naming the first bad round's index.
    """
    values = np.empty(len(states), dtype=np.int64)
    for index, state in enumerate(states):
        try:
            values[index] = solve(state)
        except ValueError as error:
            raise ValueError(f"round {index}: {error}") from None
    return values
