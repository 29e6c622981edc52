"""B.O.N's evaluator of decisions (:class:`~agents.games.base.DecisionEvaluator`): rollouts.

Each legal action's value is its mean points this round for the seat to act over
:data:`ROLLOUTS` sampled deals: the cards that seat cannot see (the other hands; the leftovers
lie face up, as ``bon_v0`` deals them by default) dealt again at random, no hand getting a
colour it has shown it lacks, and every seat then played by the heuristic. Every action is
played out on the same deals (:func:`~agents.games.base.rollout_values`), so that their
differences are not luck.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from agents.games.base import rollout_values
from agents.games.bon.heuristic import BonHeuristicParams, choose
from agents.games.bon.view import BonView
from boon_env.games.bon.rules import (
    COLOUR_OF,
    PASS,
    Game,
    Round,
    boast_cards_of,
    card_name,
    round_points,
)

ROLLOUTS = 40  # sampled deals per decision: the budget (see docs/agents.md, "Points lost")
_DEAL_ATTEMPTS = 20  # redeals tried for one that respects every shown void


class BonEvaluator:
    """Rollout values of B.O.N decisions over ``samples`` sampled deals."""

    def __init__(self, samples: int = ROLLOUTS) -> None:
        self.samples = samples
        self.params = BonHeuristicParams()
        self.note = (
            f"each move's mean points this round, over {samples} sampled deals of the cards you "
            "cannot see, every seat then played by the heuristic"
        )

    def values(self, game: Game, rng: np.random.Generator) -> dict[int, float]:
        """Each legal action's mean points this round for the seat to act."""
        state = game.round
        seat = state.current

        def play_out(world: Round, action: int) -> float:
            world.apply(action)
            while not world.is_over:
                view = BonView.from_round(world, world.current)
                world.apply(choose(view, world.legal_mask(), self.params))
            return float(round_points(world.tricks_won, world.config.trick_goal)[seat])

        def world(rng: np.random.Generator) -> Round:
            return sampled(state, seat, rng)

        return rollout_values(world, state.legal_actions(), play_out, self.samples, rng)

    def kind(self, game: Game) -> str:
        """``"lead"`` (the first card of a trick) or ``"follow"``."""
        return "follow" if game.round.trick else "lead"

    def action_name(self, action: int) -> str:
        """A card's name (``"red 7"``, ``"pass"``)."""
        return card_name(action)


def sampled(state: Round, seat: int, rng: np.random.Generator) -> Round:
    """A copy of ``state`` in which the cards ``seat`` cannot see are dealt again at random to
    the other hands, each its size, no hand getting a colour it has shown it lacks (when such
    a deal is found in a few tries)."""
    world = state.clone()
    config = world.config
    known = world.hands[seat] | world.deal.leftovers
    for cards in world.played:
        known |= cards
    unseen_passes = (
        config.pass_cards
        - world.passes[seat]
        - sum(world.passes_played)
        - world.deal.leftover_passes
    )
    pool = [*boast_cards_of(config.deck & ~known), *[PASS] * unseen_passes]
    others = [s for s in range(config.num_players) if s != seat]
    sizes = {s: world.hands[s].bit_count() + world.passes[s] for s in others}
    for _ in range(_DEAL_ATTEMPTS):
        order = rng.permutation(pool).tolist()
        hands, start = {}, 0
        for s in others:
            hands[s] = order[start : start + sizes[s]]
            start += sizes[s]
        if all(
            card == PASS or not world.voids[s] >> COLOUR_OF[card] & 1
            for s in others
            for card in hands[s]
        ):
            break
    for s in others:
        world.hands[s] = sum(1 << card for card in hands[s] if card != PASS)
        world.passes[s] = hands[s].count(PASS)
    return world


@cache
def bon_evaluator(num_players: int) -> BonEvaluator:
    """The evaluator of B.O.N decisions (the same at every table size)."""
    return BonEvaluator()
