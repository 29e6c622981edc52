"""Perfect-Information Monte Carlo (determinized) search.

At each decision with more than one legal action the player samples ``samples`` deals of the
cards it cannot see, each consistent with what it has seen (its hand, all play so far, the
suits other seats revealed they lack, and the Boon and discards when it is the picker). Every
legal action is tried on every sample (the same samples for all actions, so their comparison is
not blurred by sampling noise), the round is played out by the heuristic on the engine
(:meth:`~boon_env.rules.Round.from_hidden_state`, :meth:`~boon_env.rules.Round.apply`), and the
action with the best mean outcome is played. Ties go to the heuristic's own choice.

The outcome of a playout is the searcher's share of the round's value
(:func:`~boon_env.rules.round_value`: Victory Cards with no cap from holdings) plus
``points_weight`` times its side's share of the points (fewer points in a Leaster), which breaks
ties between actions that land in the same scoring band.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.heuristic import HeuristicParams, choose
from agents.view import CONFIGS, View, legal_bits
from boon_env.rules import (
    SUIT_OF,
    TOTAL_POINTS,
    Phase,
    Round,
    actions_of,
    cards_of,
    round_value,
    seats_to_play,
)

_MAX_SAMPLE_TRIES = 50


@dataclass(frozen=True)
class SearchParams:
    """Settings of the search player.

    Attributes:
        samples: determinized deals per decision (the budget).
        points_weight: weight of the points share added to the Victory-Card outcome.
    """

    samples: int = 20
    points_weight: float = 0.1

    def __post_init__(self) -> None:
        if type(self.samples) is not int or self.samples < 1:
            raise ValueError(f"samples must be an integer >= 1, got {self.samples!r}")


def search_action(
    view: View,
    legal: int,
    params: SearchParams,
    rollout: HeuristicParams,
    rng: np.random.Generator,
) -> int:
    """The action with the best mean playout outcome over ``params.samples`` sampled deals."""
    actions = actions_of(legal)
    if len(actions) == 1:
        return actions[0]
    default = choose(view, legal, rollout)
    values = action_values(view, legal, params, rollout, rng)
    best = max(values.values())
    if values[default] >= best - 1e-9:
        return default
    return next(action for action in actions if values[action] == best)


def action_values(
    view: View,
    legal: int,
    params: SearchParams,
    rollout: HeuristicParams,
    rng: np.random.Generator,
) -> dict[int, float]:
    """The mean playout outcome (:func:`outcome`) of every legal action, over the same
    ``params.samples`` sampled deals for all actions."""
    actions = actions_of(legal)
    totals = [0.0] * len(actions)
    for _ in range(params.samples):
        state = sample_round(view, rng)
        for i, action in enumerate(actions):
            playout = state.clone()
            playout.apply(action)
            play_out(playout, rollout)
            totals[i] += outcome(playout, view.me, params.points_weight)
    return {action: total / params.samples for action, total in zip(actions, totals, strict=True)}


def play_out(state: Round, params: HeuristicParams) -> None:
    """Finish ``state`` with every seat playing the heuristic (on the engine, no encoding)."""
    while state.phase is not Phase.DONE:
        legal = state.legal_mask()
        if legal & (legal - 1):
            state.apply(choose(View.from_round(state, state.current), legal, params))
        else:  # a forced move (e.g. the last card of the led suit): no view needed
            state.apply(legal.bit_length() - 1)


def outcome(state: Round, seat: int, points_weight: float) -> float:
    """Victory Cards won by ``seat`` in the finished ``state``, plus the points tiebreak."""
    payout = round_value(state)[seat]
    if state.leaster:
        share = -state.points[seat]
    elif state.picker == seat:
        share = state.points[seat]
    else:
        share = TOTAL_POINTS - state.points[state.picker]
    return payout + points_weight * share / TOTAL_POINTS


# ------------------------------------------------------------------------------ determinizing
def sample_round(view: View, rng: np.random.Generator) -> Round:
    """A full round consistent with ``view``: the unseen cards dealt at random to the other
    hands and to whatever pile ``view.me`` cannot see (the Boon, or the picker's discards)."""
    n, me = view.num_players, view.me
    config = CONFIGS[n]
    capacity = _hidden_sizes(view)
    unseen = cards_of(view.unseen())
    # Seats that revealed a void cannot hold that suit; the pile (index n) takes anything.
    eligible = {
        card: [s for s in range(n + 1) if s == n or not view.voids[s] >> SUIT_OF[card] & 1]
        for card in unseen
    }
    hidden = _deal_hidden(unseen, eligible, capacity, rng)
    hands = list(hidden[:n])
    hands[me] = view.hand
    pile = hidden[n]
    picker = view.picker
    in_pile_boon = picker is None  # before a pick and in a Leaster the pile is the Boon
    return Round.from_hidden_state(
        config,
        dealer=view.dealer,
        hands=hands,
        boon=pile if in_pile_boon else view.boon,
        picker=picker,
        passed=view.passed,
        discards=view.discards if picker == me else (0 if in_pile_boon else pile),
        trick=view.trick,
        leader=view.leader,
        points=view.points,
        tricks_won=view.tricks_won,
        played=view.played,
        voids=view.voids,
    )


def _hidden_sizes(view: View) -> list[int]:
    """Cards each other seat still holds, then the size of the pile ``view.me`` cannot see."""
    n = view.num_players
    to_play = seats_to_play(view.leader, len(view.trick), n)
    held = view.hand_size - view.tricks_done
    sizes = [0 if s == view.me else held - (s not in to_play) for s in range(n)]
    pile = 0 if view.picker == view.me else view.boon_size
    return [*sizes, pile]


def _deal_hidden(
    cards: tuple[int, ...],
    eligible: dict[int, list[int]],
    capacity: list[int],
    rng: np.random.Generator,
) -> list[int]:
    """Bitmask per holder; each card to a holder allowed to take it, chosen in proportion to
    the room it has left. The most constrained cards go first; a dead end starts over."""
    ties = rng.random(len(cards)).tolist()
    ranked = sorted((len(eligible[card]), tie, card) for card, tie in zip(cards, ties, strict=True))
    order = [card for _, _, card in ranked]
    for _ in range(_MAX_SAMPLE_TRIES):
        room = list(capacity)
        masks = [0] * len(capacity)
        # One uniform per card, drawn up front: a generator call per card costs more than a deal.
        for card, u in zip(order, rng.random(len(order)).tolist(), strict=True):
            holders = [h for h in eligible[card] if room[h]]
            if not holders:
                break
            # Walk the holders' room until it covers u of the total room.
            target = u * sum(room[h] for h in holders)
            for holder in holders:
                target -= room[holder]
                if target < 0:
                    break
            room[holder] -= 1
            masks[holder] |= 1 << card
        else:
            return masks
    raise RuntimeError("could not deal the unseen cards consistently with the revealed voids")


# -------------------------------------------------------------------------------------- agent
class SearchAgent:
    """The ``search`` player: PIMC with heuristic playouts (see the module docstring)."""

    def __init__(
        self,
        params: SearchParams | None = None,
        rollout: HeuristicParams | None = None,
        seed: int | None = None,
        name: str = "search",
    ) -> None:
        self.params = params or SearchParams()
        self.rollout = rollout or HeuristicParams()
        self.name = name
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Search from what the observation shows."""
        legal = legal_bits(action_mask)
        view = View.from_observation(observation)
        return search_action(view, legal, self.params, self.rollout, self._rng)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling generator (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
