"""Boon's evaluator of decisions (:class:`~agents.registry.spec.DecisionEvaluator`): the ``expert``
search's own values of every legal action.

For the seat to act it runs the search ``expert`` runs at that table size
(:data:`~agents.games.boon.search.EXPERT`: 200 deals of the unseen cards weighted by how
likely the shipped policy for the table size makes the play so far, 32 resampled and played
out by the policy) and reports each
action's mean outcome, with two differences from the player:

- the points tiebreak is off (``points_weight=0``), so a value is the seat's expected round
  value in Victory Cards, the arena's unit, and two moves that land in the same scoring band
  are worth the same;
- it searches every decision, the discards at 4 players too (where ``expert`` plays the
  policy's own discards without searching).

It reads the round from the rules engine, where every completed trick is known
(:meth:`~agents.games.boon.history.PlayLog.of_round`), so it reads the play at every decision,
also one it was not asked about before.

Where no model ships for the table size (the ``expert`` search reads the play with it), it
falls back on :data:`MODEL_FREE`, a search that needs none, so the coach and ``boon advise``
still estimate every move.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np

from agents.games.boon.heuristic import HeuristicParams
from agents.games.boon.history import PlayLog
from agents.games.boon.search import (
    EXPERT,
    SearchParams,
    decision_outcomes,
    decision_params,
    search_policy,
)
from agents.games.boon.view import View
from agents.players.policy import ModelFileError
from agents.players.trained import default_model
from boon_env.games.boon.rules import Game, Phase, action_name

_KINDS = {Phase.PICK: "pick", Phase.DISCARD: "bury", Phase.PLAY: "play"}
# The search of the evaluator at a table with no shipped model: uniform deals, heuristic
# playouts (the 5-player ``expert`` before it read the play; within the coach's budget).
MODEL_FREE = SearchParams(samples=64)


class BoonEvaluator:
    """The ``expert`` search's values of a decision at a table of ``num_players`` (or of the
    search ``params``, the points tiebreak off either way; :data:`MODEL_FREE` for ``expert``
    when no model ships for the table size).

    Raises:
        ValueError: no ``expert`` for that table size, or its model cannot be loaded.
    """

    def __init__(self, num_players: int, params: SearchParams | None = None) -> None:
        if params is None:
            params = expert_params(num_players)
        self.params = replace(params, points_weight=0.0)
        self.policy = search_policy(self.params, num_players)
        self.rollout = HeuristicParams()
        self.note = _note(self.params, num_players)

    def values(self, game: Game, rng: np.random.Generator) -> dict[int, float]:
        """Each legal action's mean round value (Victory Cards) for the seat to act, over the
        search's sampled deals (the same deals for every action)."""
        state = game.round
        view = View.from_round(state, state.current)
        params = decision_params(self.params, view.phase)
        log = PlayLog.of_round(state)
        outcomes = decision_outcomes(
            view, state.legal_mask(), log, params, self.policy, self.rollout, rng, state
        )
        return dict(zip(outcomes.actions, outcomes.means().tolist(), strict=True))

    def kind(self, game: Game) -> str:
        """``"pick"`` (pick or pass), ``"bury"`` or ``"play"``."""
        return _KINDS[game.round.phase]

    def action_name(self, action: int) -> str:
        """A card's name, ``"pick"`` or ``"pass"``."""
        return action_name(action)


def expert_params(num_players: int) -> SearchParams:
    """The ``expert`` search for the table size, or :data:`MODEL_FREE` when the model it reads
    the play with does not ship (a shipped model that cannot be loaded is still an error).

    Raises:
        ValueError: no ``expert`` for that table size.
    """
    if num_players not in EXPERT:
        raise ValueError(f"'expert' plays {tuple(EXPERT)} players, not {num_players}")
    params = EXPERT[num_players]
    if params.uses_policy and not params.model:
        try:
            default_model(num_players)
        except ModelFileError:
            return MODEL_FREE
    return params


def _note(params: SearchParams, num_players: int) -> str:
    """How the search estimates, in the coach's words."""
    if params.inference == "ppo":
        dealt = (
            f"{params.candidates} deals of the cards you cannot see, weighted by how likely the "
            f"{num_players}-player model makes the play so far, {params.samples} of them kept"
        )
    else:
        dealt = f"{params.samples} sampled deals of the cards you cannot see"
    who = "the model" if params.rollout == "ppo" else "the heuristic"
    return (
        f"the expert search's estimate of the Victory Cards you win (or lose) this round: "
        f"{dealt}, each move played out by {who}"
    )


@cache
def boon_evaluator(num_players: int) -> BoonEvaluator:
    """The evaluator of Boon decisions at a table of ``num_players`` (built once: it loads the
    table's model)."""
    return BoonEvaluator(num_players)
