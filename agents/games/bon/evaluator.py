"""B.O.N's evaluator of decisions (:class:`~agents.registry.spec.DecisionEvaluator`): rollouts.

Each legal action's value is its mean points this round for the seat to act over
:data:`ROLLOUTS` sampled deals: the cards that seat cannot see (the other hands; the leftovers
lie face up, as ``bon_v0`` deals them by default) dealt again uniformly among the deals that
fit what it has seen (:func:`~boon_env.games.bon.rules.resample_from_infostate`: no hand gets
a colour it has shown it lacks), and every seat then played by the heuristic. Every action is
played out on the same deals (:func:`~agents.registry.spec.rollout_values`), so that their
differences are not luck.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from agents.games.bon.heuristic import BonHeuristicParams, choose
from agents.games.bon.view import BonView
from agents.registry.spec import rollout_values
from boon_env.games.bon.rules import (
    Game,
    Round,
    card_name,
    resample_from_infostate,
    round_points,
)

ROLLOUTS = 40  # sampled deals per decision: the budget (see docs/agents.md, "Points lost")


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
            return resample_from_infostate(state, seat, rng)

        return rollout_values(world, state.legal_actions(), play_out, self.samples, rng)

    def kind(self, game: Game) -> str:
        """``"lead"`` (the first card of a trick) or ``"follow"``."""
        return "follow" if game.round.trick else "lead"

    def action_name(self, action: int) -> str:
        """A card's name (``"red 7"``, ``"pass"``)."""
        return card_name(action)


@cache
def bon_evaluator(num_players: int) -> BonEvaluator:
    """The evaluator of B.O.N decisions (the same at every table size)."""
    return BonEvaluator()
