"""A rule-based BOYN player: shed points, keep the wilds, punish a neighbour about to go out.

The logic lives in :func:`choose`, which works on a :class:`BoynView`; the agent builds that
view from its observation (:meth:`BoynView.from_observation`), and tests build it straight from
the engine's round (:meth:`BoynView.from_round`), so there is one implementation of the play.

Every legal action gets a score; the best one is played (the lowest id on ties):

- **Shed points early**: a card scores the points it would count if it stayed in hand.
- **Save wilds**: Jacks and red 3s lose ``wild_cost``; they are kept for when nothing else
  plays, and a red 3 saved for last makes the next player draw 5 as this player goes out.
- **Aim 2s and red 3s** at the next player (in the direction of play) when it holds
  ``danger_size`` cards or fewer; 7s skip it and Aces turn play away from it, for less.
- **Swap with a Queen** when another hand is at least ``swap_margin`` cards smaller than the
  one left after the Queen: take the smallest.
- **Keep options**: each card left in hand that would follow the new active card adds
  ``follow_weight``; a Jack names the suit most held.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.games.boyn.view import BoynView
from agents.players.base import RuleBasedPlayer
from boon_env.games.boyn.rules import (
    ACTION_KIND,
    ACTION_NAMED_SUIT,
    ACTION_SWAP,
    actions_of,
)
from boon_env.games.boyn.rules.cards import (
    ACE,
    JACK,
    RANK_KINDS,
    RANK_OF,
    RED_THREES,
    SUIT_KINDS,
    SUIT_OF,
    WILDS,
    points_by_kind,
)

_POINTS = points_by_kind(25)


@dataclass(frozen=True)
class BoynHeuristicParams:
    """The heuristic's tunable weights (see the module docstring).

    Attributes:
        wild_cost: what playing a Jack or a red 3 costs, in points.
        danger_size: a next player holding this many cards or fewer is about to go out.
        attack_bonus: the value of a 2 or red 3 aimed at a next player about to go out
            (half of it for a 7 or an Ace).
        swap_margin: a Queen swaps when another hand is this many cards smaller than ours.
        swap_bonus: the value of each card a swap sheds.
        follow_weight: the value of each card left in hand that follows the new active card.
    """

    wild_cost: float = 30.0
    danger_size: int = 2
    attack_bonus: float = 40.0
    swap_margin: int = 3
    swap_bonus: float = 10.0
    follow_weight: float = 1.0


def choose(view: BoynView, legal: int, params: BoynHeuristicParams) -> int:
    """The heuristic's action for ``view`` given the legal-action bitmask ``legal``."""
    actions = actions_of(legal)
    held = _held(view)
    return max(actions, key=lambda action: (_score(view, held, action, params), -action))


def score(view: BoynView, action: int, params: BoynHeuristicParams) -> float:
    """How much the heuristic likes ``action`` (higher is better)."""
    return _score(view, _held(view), action, params)


def _held(view: BoynView) -> dict[int, int]:
    """The kinds in my hand with their counts (worked out once per decision, not per action:
    rollouts call the heuristic at every turn)."""
    return {k: count for k, count in enumerate(view.hand) if count}


def _score(view: BoynView, held: dict[int, int], action: int, params: BoynHeuristicParams) -> float:
    kind = ACTION_KIND[action]
    rank = RANK_OF[kind]
    wild = bool(WILDS >> kind & 1)
    red_three = bool(RED_THREES >> kind & 1)
    value = float(_POINTS[kind])
    if wild:
        value -= params.wild_cost
    # The next player is about to go out: make it draw, skip it or turn play away from it.
    n = view.num_players
    if view.hand_sizes[view.next_seat] <= params.danger_size:
        if rank == 2 or red_three:
            value += params.attack_bonus
        elif rank == 7 or (rank == ACE and n > 2):
            value += params.attack_bonus / 2
    # What is left after this card (the kinds held, with their counts), and what it will have
    # to follow.
    left = dict(held)
    left[kind] -= 1
    if ACTION_SWAP[action]:
        target = ACTION_SWAP[action]
        shed = sum(left.values()) - view.hand_sizes[target]
        if shed < params.swap_margin or view.hand_sizes[target] != min(view.hand_sizes[1:]):
            return value - params.swap_bonus * params.swap_margin  # never a pointless swap
        value += params.swap_bonus * shed
        return value
    if red_three:
        suit, follow_rank = view.active_suit, view.active_rank
    elif rank == JACK:
        suit, follow_rank = ACTION_NAMED_SUIT[action], JACK
        value += params.follow_weight * _suit_count(left, suit)  # name the suit most held
    else:
        suit, follow_rank = SUIT_OF[kind], rank
    followers = SUIT_KINDS[suit] | RANK_KINDS[follow_rank]
    value += params.follow_weight * sum(
        count for k, count in left.items() if followers >> k & 1 and not WILDS >> k & 1
    )
    return value


def _suit_count(hand: dict[int, int], suit: int) -> int:
    """Cards of ``suit`` in ``hand`` (counts by kind) that are not wild."""
    members = SUIT_KINDS[suit] & ~WILDS
    return sum(count for k, count in hand.items() if members >> k & 1)


class BoynHeuristicAgent(RuleBasedPlayer):
    """The rule-based BOYN player behind the ``heuristic`` spec of ``--game boyn``;
    deterministic."""

    view = BoynView
    params_type = BoynHeuristicParams
    decide = staticmethod(choose)
