"""``search:solver=dd``: the search whose playouts are solved exactly from the card play on."""

from __future__ import annotations

import numpy as np
import pytest

from agents.games.boon.arena import boon_deal_options
from agents.games.boon.heuristic import HeuristicParams
from agents.games.boon.search import SearchParams, playout_outcomes
from agents.specs import make_agent
from boon_env import boon_v0
from boon_env.games.boon import solver
from boon_env.games.boon.rules import PICK, TOTAL_POINTS, Deal, GameConfig, Phase, Round


def _in_play(n: int, seed: int, tricks: int) -> Round:
    """A picker round of ``n`` players after ``tricks`` random tricks."""
    rng = np.random.default_rng(seed)
    config = GameConfig(num_players=n)
    state = Round(config, Deal.random(config, rng))
    state.apply(PICK)
    for card in rng.choice(state.legal_actions(), config.boon_size, replace=False):
        state.apply(int(card))
    for _ in range(tricks * n):
        state.apply(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("n", [3, 4, 5])
def test_each_outcome_is_the_solved_value_of_the_world(n: int) -> None:
    """In the card play, an action's outcome on a world is that world solved after it: the
    searcher's share of the solved round value plus the points tiebreak."""
    state = _in_play(n, seed=n, tricks=2)
    me, weight = state.current, 0.1
    params = SearchParams(samples=1, solver="dd", points_weight=weight)
    actions = state.legal_actions()
    outcomes = playout_outcomes([state], np.ones(1), actions, HeuristicParams(), params)
    for j, action in enumerate(actions):
        after = state.clone()
        after.apply(action)
        points = solver.solve(after)
        share = points if me == state.picker else TOTAL_POINTS - points
        expected = solver.solve_value(after)[me] + weight * share / TOTAL_POINTS
        assert outcomes.values[j, 0] == pytest.approx(expected)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_solver_backed_search_plays_legal_rounds(n: int) -> None:
    agent = make_agent("search:samples=2,solver=dd", seed=1, num_players=n)
    for index in range(2):
        env = boon_v0.raw_env(num_players=n)
        agent.reset(seed=index)
        env.reset(options=boon_deal_options(n, 7, index))
        name = env.agent_selection
        while not env.terminations[name]:
            observed = env.observe(name)
            action = agent.act(observed["observation"], observed["action_mask"])
            assert observed["action_mask"][action] == 1
            env.step(action)
            name = env.agent_selection
        assert env.game.round.phase is Phase.DONE


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:solver=exact", "solver must be one of"),
        ("search:solver=dd,rollout=ppo", "rollout must be heuristic"),
    ],
)
def test_bad_solver_specs_raise_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        make_agent(spec, num_players=4)
    assert "\n" not in str(error.value)
