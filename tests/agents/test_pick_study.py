"""The pick study plays each studied decision both ways on the same deal."""

import numpy as np
import pytest

from agents.games.boon.arena import deal_options
from agents.games.boon.studies.pick import PickRow, PickSample, break_even, by_strength, study
from agents.players.policy import NumpyPolicy, save_policy
from agents.players.trained import PPOAgent, default_model
from boon_env import boon_v0
from boon_env.games.boon.encoding import OBS_SIZE
from boon_env.games.boon.rules import PASS, PICK, Deal, GameConfig


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_every_seat_is_studied_with_a_picker_payout_when_it_picks(num_players):
    samples = study(num_players, deals=10, seed=1)
    assert len(samples) == 10 * num_players
    assert sorted({s.order for s in samples}) == list(range(num_players))
    opponents = num_players - 1
    # A picker wins or loses 1 or 2 Victory Cards from each opponent, never anything else.
    allowed = {k * opponents for k in (-2, -1, 1, 2)}
    assert {s.pick_value for s in samples} <= allowed
    assert all(abs(s.pass_value) <= 2 * opponents for s in samples)


def test_study_is_reproducible():
    assert study(4, deals=5, seed=3) == study(4, deals=5, seed=3)


def test_rows_group_by_strength_and_order():
    samples = [
        PickSample(order=0, strength=1.0, gold=1, pick_value=-3.0, pass_value=0.0),
        PickSample(order=0, strength=1.5, gold=1, pick_value=-6.0, pass_value=1.0),
        PickSample(order=0, strength=8.0, gold=6, pick_value=3.0, pass_value=-1.0),
        PickSample(order=0, strength=9.0, gold=7, pick_value=6.0, pass_value=0.0),
        PickSample(order=1, strength=9.0, gold=7, pick_value=-6.0, pass_value=0.0),
    ]
    rows = by_strength(samples, edges=[0, 5, 10], order=0)
    assert [(r.low, r.count) for r in rows] == [(0, 2), (5, 2)]
    assert rows[0].gain == pytest.approx(-5.0) and rows[1].gain == pytest.approx(5.0)
    assert break_even(rows) == 5


def test_break_even_needs_every_higher_bin_to_gain():
    def row(low, gain):
        return PickRow(low, low + 1, 10, 0.0, 0.0, gain, 0.1)

    assert break_even([row(0, -1), row(1, 1), row(2, -0.5), row(3, 2)]) == 3
    assert break_even([row(0, -1), row(1, -2)]) is None


def _policy_result(num_players, deal, dealer, order, action, agent):
    """The studied seat's result with the policy in every seat, one table on boon_v0."""
    env = boon_v0.raw_env(num_players=num_players)
    env.reset(options=deal_options(deal, dealer))
    scripted = [PASS] * order + [action]
    seat = None
    while not env.terminations[env.agent_selection]:
        name = env.agent_selection
        if scripted:
            seat = env.possible_agents.index(name) if len(scripted) == 1 else seat
            env.step(scripted.pop(0))
            continue
        observed = env.observe(name)
        env.step(agent.act(observed["observation"], observed["action_mask"]))
    return env.infos[env.agent_selection]["round"]["value"][seat]


def test_ppo_rollouts_match_one_table_play_and_keep_the_pairing():
    agent = PPOAgent(default_model(4), num_players=4)
    samples = study(4, deals=6, seed=2, rollout="ppo")
    heuristic = study(4, deals=6, seed=2)
    # The same deals and seats are studied, whatever plays them out.
    assert [(s.order, s.strength, s.gold) for s in samples] == [
        (s.order, s.strength, s.gold) for s in heuristic
    ]
    config = GameConfig(num_players=4)
    rng = np.random.default_rng(2)
    for k in range(6):
        deal = Deal.random(config, rng)
        dealer = int(rng.integers(4))
        for order in range(4):
            sample = samples[4 * k + order]
            assert sample.pick_value == _policy_result(4, deal, dealer, order, PICK, agent)
            assert sample.pass_value == _policy_result(4, deal, dealer, order, PASS, agent)
    assert samples != heuristic  # the rollout player matters


def test_ppo_rollouts_take_a_model_file_and_reject_bad_choices(tmp_path):
    policy = NumpyPolicy([np.zeros((OBS_SIZE, 34), np.float32)], [np.zeros(34, np.float32)])
    path = save_policy(tmp_path / "flat_3p", policy, 3)
    samples = study(3, deals=4, seed=1, rollout=f"ppo:{path}")
    assert len(samples) == 12 and {s.order for s in samples} == {0, 1, 2}
    with pytest.raises(ValueError, match="rollout 'minimax'"):
        study(3, deals=1, rollout="minimax")
    with pytest.raises(ValueError, match="3-player model"):
        study(4, deals=1, rollout=f"ppo:{path}")
