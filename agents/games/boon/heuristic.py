"""A rule-based Boon player written from how good Sheepshead players play.

The logic lives in :func:`choose`, which works on a :class:`~agents.games.boon.view.View`; the agent
builds that view from its observation, and search rollouts build it straight from the engine's
round, so there is one implementation of the play whichever way it is called.

- **Pick** when the hand is strong enough: gold counts most, high gold (ranks 7-14) and plain
  aces add to it, and later seats pick more freely because a Leaster looms once everyone passes.
- **Bury** points from short plain suits (they are safe points and each emptied suit lets the
  picker trump in later); keep gold.
- **Lead**: the picker draws trump with gold; defenders lead plain suits, aces that should hold
  first, else cheap cards of their shortest suit.
- **Follow**: give points ("schmear") to a trick a teammate is safely winning; take a trick that
  carries points with the cheapest card that wins it; duck with the cheapest card otherwise.
- **Leaster**: avoid points, dump high cards on other players' tricks, but take one cheap trick
  to qualify.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.games.boon.view import View
from agents.players.base import legal_bits
from boon_env.games.boon.rules import (
    GOLD,
    GOLD_MASK,
    NUM_ACTIONS,
    PASS,
    PICK,
    POINTS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    Phase,
    cards_of,
    seats_to_play,
    trick_winner,
)

_ACE = 6  # rank of the highest plain card (11 points)


@dataclass(frozen=True)
class HeuristicParams:
    """The heuristic's tunable thresholds.

    Attributes:
        pick_threshold_3p, pick_threshold_4p, pick_threshold_5p: hand strength (per 7 cards)
            at which the first seat picks at a table of 3, 4 or 5 (see :func:`hand_strength`);
            alone against four defenders with a two-card Boon a picker needs a much better hand.
        late_seat_discount: how much lower the threshold is for the dealer, who decides last;
            seats in between get a proportional share.
        top_gold_bonus: strength added per gold card of rank 11-14 on top of 1 per gold card.
        high_gold_bonus: strength added per gold card of rank 7-10.
        ace_bonus: strength added per plain ace.
        void_bonus: when burying, how many points an emptied plain suit is worth.
        win_points: a trick carrying at least this many points is worth taking.
        leaster_take_points: in a Leaster, the most points a seat without a trick accepts to
            take one and qualify.
    """

    pick_threshold_3p: float = 5.5
    pick_threshold_4p: float = 5.5
    pick_threshold_5p: float = 8.5
    late_seat_discount: float = 1.0
    top_gold_bonus: float = 1.0
    high_gold_bonus: float = 0.5
    ace_bonus: float = 0.5
    void_bonus: float = 6.0
    win_points: int = 4
    leaster_take_points: int = 4


# ------------------------------------------------------------------------------- entry point
def choose(view: View, legal: int, params: HeuristicParams) -> int:
    """The heuristic's action for ``view`` given the legal-action bitmask ``legal``."""
    if legal >> PICK & 1:
        return PICK if wants_to_pick(view, params) else PASS
    cards = cards_of(legal)
    if len(cards) == 1:
        return cards[0]
    if view.phase is Phase.DISCARD:
        return _bury(view.hand, params)
    if not view.trick:
        return _lead(view, cards)
    return _follow(view, cards, params)


# ------------------------------------------------------------------------------------ picking
def hand_strength(hand: int, params: HeuristicParams) -> float:
    """Gold counts 1 each plus bonuses for high gold; plain aces add ``ace_bonus``."""
    strength = 0.0
    for card in cards_of(hand & GOLD_MASK):
        rank = RANK_OF[card]
        strength += 1.0
        if rank >= 11:
            strength += params.top_gold_bonus
        elif rank >= 7:
            strength += params.high_gold_bonus
    aces = sum(1 for card in cards_of(hand & ~GOLD_MASK) if RANK_OF[card] == _ACE)
    return strength + params.ace_bonus * aces


def wants_to_pick(view: View, params: HeuristicParams) -> bool:
    """Whether the hand clears the pick threshold for this seat's place in the order."""
    n = view.num_players
    order = (view.me - view.dealer - 1) % n  # 0 decides first, n - 1 is the dealer
    base = (params.pick_threshold_3p, params.pick_threshold_4p, params.pick_threshold_5p)[n - 3]
    threshold = base - params.late_seat_discount * order / (n - 1)
    # Thresholds are written for a 7-card hand; scale to the table's hand size.
    return hand_strength(view.hand, params) * 7 / view.hand_size >= threshold


# ------------------------------------------------------------------------------------ burying
def _bury(hand: int, params: HeuristicParams) -> int:
    plain = cards_of(hand & ~GOLD_MASK)
    if not plain:
        # Only gold left: bury the weakest trump.
        return cards_of(hand)[0]
    counts = [(hand & SUIT_MASK[suit]).bit_count() for suit in range(4)]

    def value(card: int) -> tuple[float, int]:
        empties_suit = counts[SUIT_OF[card]] == 1
        return POINTS[card] + (params.void_bonus if empties_suit else 0.0), -card

    return max(plain, key=value)


# ------------------------------------------------------------------------------------ leading
def _lead(view: View, cards: tuple[int, ...]) -> int:
    if view.leaster:
        return _leaster_lead(view, cards)
    unseen = view.unseen()
    if view.picker == view.me:
        return _picker_lead(cards, unseen)
    return _defender_lead(view, cards, unseen)


def _picker_lead(cards: tuple[int, ...], unseen: int) -> int:
    gold = [card for card in cards if SUIT_OF[card] == GOLD]
    if gold and unseen & GOLD_MASK:
        # Draw trump: the top gold if nobody can beat it, else a cheap one to pull theirs.
        if _is_boss(gold[-1], unseen):
            return gold[-1]
        return min(gold, key=lambda card: (POINTS[card], card))
    plain = [card for card in cards if SUIT_OF[card] != GOLD]
    if not plain:
        return gold[-1]
    bosses = [card for card in plain if _is_boss(card, unseen)]
    if bosses and not unseen & GOLD_MASK:
        return max(bosses, key=lambda card: POINTS[card])
    return min(plain, key=lambda card: (POINTS[card], card))


def _defender_lead(view: View, cards: tuple[int, ...], unseen: int) -> int:
    picker_voids = view.voids[view.picker]
    plain = [card for card in cards if SUIT_OF[card] != GOLD]
    # The picker trumps a suit it lacks; lead other suits when there is a choice.
    open_plain = [card for card in plain if not picker_voids >> SUIT_OF[card] & 1] or plain
    if not open_plain:
        gold = list(cards)
        return gold[-1] if _is_boss(gold[-1], unseen) else min(gold, key=_cost)
    bosses = [card for card in open_plain if _is_boss(card, unseen) and POINTS[card] > 0]
    if bosses:
        return max(bosses, key=lambda card: POINTS[card])
    hand = view.hand
    return min(
        open_plain,
        key=lambda card: (POINTS[card], (hand & SUIT_MASK[SUIT_OF[card]]).bit_count(), card),
    )


def _leaster_lead(view: View, cards: tuple[int, ...]) -> int:
    tricks_left = view.hand_size - view.tricks_done
    if not view.tricks_won[view.me] and tricks_left <= 2:
        # Still without a trick near the end: lead the strongest cheap card to qualify.
        return max(cards, key=lambda card: (SUIT_OF[card] == GOLD, RANK_OF[card], -POINTS[card]))
    return min(cards, key=lambda card: (POINTS[card], RANK_OF[card], card))


# ---------------------------------------------------------------------------------- following
def _follow(view: View, cards: tuple[int, ...], params: HeuristicParams) -> int:
    n = view.num_players
    trick = view.trick
    position = trick_winner(trick)
    best = trick[position]
    winner = (view.leader + position) % n
    trick_points = sum(POINTS[card] for card in trick)
    winners = [card for card in cards if _beats(card, best)]
    if view.leaster:
        return _leaster_follow(view, cards, winners, trick_points, params)
    me, picker = view.me, view.picker
    after = seats_to_play(view.leader, len(trick) + 1, n)  # the seats after me
    opponents_after = [s for s in after if (s == picker) != (me == picker)]
    unseen = view.unseen()
    teammate_winning = winner != me and (winner == picker) == (me == picker)
    if teammate_winning and _holds(best, opponents_after, view, unseen):
        return _schmear(cards)
    safe = [card for card in winners if _holds(card, opponents_after, view, unseen)]
    partners_after = len(after) > len(opponents_after)
    if safe and not teammate_winning and (trick_points >= params.win_points or partners_after):
        # A sure trick: put points on it (they are ours), keeping high trump if we can.
        return max(safe, key=lambda card: (POINTS[card], -card))
    if winners and not teammate_winning and trick_points >= params.win_points:
        cheap = [card for card in winners if POINTS[card] <= 4]
        return max(cheap) if cheap else min(winners, key=_cost)
    return _duck(cards)


def _leaster_follow(
    view: View,
    cards: tuple[int, ...],
    winners: list[int],
    trick_points: int,
    params: HeuristicParams,
) -> int:
    losers = [card for card in cards if card not in winners]
    if losers:
        qualify = not view.tricks_won[view.me] and trick_points <= params.leaster_take_points
        if winners and qualify:
            return min(winners, key=lambda card: (POINTS[card], -card))
        # Dump points and dangerous high cards on someone else's trick.
        return max(losers, key=lambda card: (POINTS[card], RANK_OF[card]))
    return min(winners, key=lambda card: (POINTS[card], -card))


def _schmear(cards: tuple[int, ...]) -> int:
    # Most points; plain before gold so trump stays in hand; the lowest card on ties.
    return max(cards, key=lambda card: (POINTS[card], SUIT_OF[card] != GOLD, -card))


def _duck(cards: tuple[int, ...]) -> int:
    return min(cards, key=_cost)


def _cost(card: int) -> tuple[int, bool, int]:
    # What playing a card gives away: its points, then a trump, then its rank.
    return POINTS[card], SUIT_OF[card] == GOLD, RANK_OF[card]


# ------------------------------------------------------------------------------ trick reading
def _beats(card: int, best: int) -> bool:
    return card > best and SUIT_OF[card] in (GOLD, SUIT_OF[best])


def _is_boss(card: int, unseen: int) -> bool:
    """No unseen card of the same suit ranks above ``card``."""
    suit_mask = SUIT_MASK[SUIT_OF[card]]
    return not unseen & suit_mask & ~((2 << card) - 1)


def _holds(card: int, opponents_after: list[int], view: View, unseen: int) -> bool:
    """Whether ``card``, winning now, cannot be beaten by an opponent still to play."""
    if not opponents_after:
        return True
    if SUIT_OF[card] == GOLD:
        return _is_boss(card, unseen)
    # A plain winner also falls to any trump held by an opponent who may lack the led suit.
    can_trump = unseen & GOLD_MASK and not all(view.voids[s] >> GOLD & 1 for s in opponents_after)
    return _is_boss(card, unseen) and not can_trump


# -------------------------------------------------------------------------------------- agent
_ACTION_BITS = 1 << np.arange(NUM_ACTIONS, dtype=np.int64)


class HeuristicAgent:
    """The rule-based player behind the ``heuristic`` spec; deterministic."""

    def __init__(self, params: HeuristicParams | None = None, name: str = "heuristic") -> None:
        self.params = params or HeuristicParams()
        self.name = name

    batched = True  # acts on many tables at once (act_batch)
    observes = True

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Decode the observation into a view and apply :func:`choose`."""
        legal = legal_bits(action_mask)
        return choose(View.from_observation(observation), legal, self.params)

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """:meth:`act` for every row (the same choices), the observations decoded in one
        batch (:meth:`View.from_observations`); ``tables`` is not needed: no state."""
        legal = (np.asarray(masks) != 0) @ _ACTION_BITS  # each row's legal_bits
        views = View.from_observations(observations)
        return np.array(
            [
                choose(view, bits, self.params)
                for view, bits in zip(views, legal.tolist(), strict=True)
            ],
            dtype=np.int64,
        )

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the heuristic has no state and no randomness."""

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Nothing to reset (see :meth:`reset`)."""
