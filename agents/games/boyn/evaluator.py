"""BOYN's evaluator of decisions (:class:`~agents.registry.spec.DecisionEvaluator`): rollouts.

Each legal action's value is its mean margin this round for the seat to act (the others' mean
points added minus its own: the arena's unit) over sampled deals: the cards that seat cannot
see (the other hands and the stock) dealt again at random
(:func:`~boon_env.games.boyn.rules.resample_from_infostate`: each hand keeping its size, the
discard pile reshuffled by a fresh generator), and every seat then played by the heuristic.
Every action is played out on the same deals (:func:`~agents.registry.spec.rollout_values`). A
playout still going after :data:`MAX_ROLLOUT_TURNS` turns is scored with the hands as they
stand.

**The budget** is :data:`PLAYOUTS` playouts a decision, shared by the legal actions: a
decision of ``k`` actions gets ``PLAYOUTS // k`` deals, at least :data:`MIN_SAMPLES` and at
most :data:`MAX_SAMPLES`. BOYN decisions range from 2 actions to 20 (Jacks naming a suit, Queens
swapping with any seat), so a fixed number of deals would make the wide ones many times as
slow; this keeps every decision near the same cost (benchmarks/bench_review.py).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from agents.games.boyn.arena import margins
from agents.games.boyn.heuristic import BoynHeuristicParams, choose
from agents.games.boyn.view import BoynView
from agents.registry.spec import rollout_values
from boon_env.games.boyn.rules import (
    Game,
    Round,
    action_name,
    points_of,
    resample_from_infostate,
)

PLAYOUTS = 96  # playouts per decision, shared by its legal actions (the module docstring)
MIN_SAMPLES, MAX_SAMPLES = 4, 32  # sampled deals per decision, however few or many actions
MAX_ROLLOUT_TURNS = 400  # a played-out round longer than this is scored as it stands


class BoynEvaluator:
    """Rollout values of BOYN decisions, ``playouts`` playouts a decision and
    ``min_samples``-``max_samples`` sampled deals (see the module docstring)."""

    def __init__(
        self,
        playouts: int = PLAYOUTS,
        min_samples: int = MIN_SAMPLES,
        max_samples: int = MAX_SAMPLES,
    ) -> None:
        self.playouts = playouts
        self.sample_range = (min_samples, max_samples)
        self.params = BoynHeuristicParams()
        self.note = (
            f"each move's mean margin this round (the others' mean points added minus yours), "
            f"over {min_samples}-{max_samples} sampled deals of the cards you cannot see "
            f"({playouts} playouts a decision), every seat then played by the heuristic"
        )

    def samples(self, actions: int) -> int:
        """The sampled deals of a decision with ``actions`` legal actions."""
        least, most = self.sample_range
        return min(most, max(least, self.playouts // actions))

    def values(self, game: Game, rng: np.random.Generator) -> dict[int, float]:
        """Each legal action's mean margin this round for the seat to act."""
        state = game.round
        seat = state.current

        def play_out(world: Round, action: int) -> float:
            world.apply(action)
            for _ in range(MAX_ROLLOUT_TURNS):
                if world.is_over:
                    return margins(world.points)[seat]
                view = BoynView.from_round(world, world.current)
                world.apply(choose(view, world.legal_mask(), self.params))
            held = [points_of(hand, world.config.points) for hand in world.hands]
            return margins(held)[seat]

        def world(rng: np.random.Generator) -> Round:
            return resample_from_infostate(state, seat, rng)

        actions = state.legal_actions()
        return rollout_values(world, actions, play_out, self.samples(len(actions)), rng)

    def kind(self, game: Game) -> str:
        """``"2-run"`` (facing a run of 2s: add to it or draw) or ``"play"``."""
        return "2-run" if game.round.run else "play"

    def action_name(self, action: int) -> str:
        """A card's name and how it is played (``"jack of clubs naming hearts"``)."""
        return action_name(action)


@cache
def boyn_evaluator(num_players: int) -> BoynEvaluator:
    """The evaluator of BOYN decisions (the same at every table size)."""
    return BoynEvaluator()
