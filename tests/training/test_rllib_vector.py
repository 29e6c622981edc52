"""The RLlib env runners' path over the batch engine: :class:`LeagueVectorEnv` shows the engine's
observations and masks, pays the round values the engine records (what the arena scores),
resets the next step as RLlib expects, and its league seats act; the masked module and its
numpy export choose alike; building the module logs no deprecation."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from agents.players.policy import NumpyPolicy
from agents.registry import game_spec
from agents.training.rllib.module import MaskedPPOTorchRLModule, numpy_policy
from agents.training.rllib.vector import LeagueVectorEnv


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


class _Counting:
    """A snapshot policy that plays the first legal action and counts the rows it is asked."""

    def __init__(self) -> None:
        self.rows = 0

    def sample(self, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        assert obs.shape[0] == masks.shape[0] > 0
        self.rows += len(obs)
        return np.argmax(masks != 0, axis=1)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_observations_masks_and_rewards_are_the_engines(num_players):
    env = LeagueVectorEnv({"num_envs": 16, "num_players": num_players, "pool_size": 2})
    rng = np.random.default_rng(num_players)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    pending = np.zeros(16, dtype=bool)
    ended_rounds = 0
    for _ in range(150):
        engine = env.engine
        # Every table is at its learner's decision: the observation is the engine's.
        assert (engine.seat == env.seats).all()
        live = ~pending
        np.testing.assert_array_equal(obs["observations"][live], engine.observe()[live])
        np.testing.assert_array_equal(obs["action_mask"][live], engine.action_masks()[live])
        assert obs["action_mask"].dtype == np.float32
        seats = env.seats.copy()
        actions = _legal(obs["action_mask"], rng)
        actions[pending] = 33  # any value: the step after a round's end ignores it
        before = obs
        obs, rewards, terminated, truncated, infos = env.step(actions)
        # The step after an end starts the next round: no reward, no end.
        assert not (terminated | truncated | (rewards != 0))[pending].any()
        if terminated.any():
            record = engine.finished
            rows = np.flatnonzero(terminated)
            values = record.values[rows, seats[rows]]
            np.testing.assert_array_equal(rewards[rows], values)
            np.testing.assert_array_equal(infos["round_value"][rows], values)
            np.testing.assert_array_equal(
                infos["learner_pick"][rows], record.picker[rows] == seats[rows]
            )
            # An ended round shows its last decision again.
            np.testing.assert_array_equal(obs["observations"][rows], before["observations"][rows])
            ended_rounds += rows.size
        assert (rewards[~terminated] == 0).all() and not truncated.any()
        pending = terminated
    assert ended_rounds > 16


@pytest.mark.parametrize(("game", "num_players"), [("bon", 4), ("boyn", 2), ("boyn", 6)])
def test_every_game_with_a_batch_engine_has_a_league(game, num_players):
    # The league env is the batch engine's: B.O.N and BOYN pay their engines' round values
    # (the arena's unit, times the game's reward scale) and report the value alone.
    env = LeagueVectorEnv({"num_envs": 8, "game": game, "num_players": num_players})
    scale = game_spec(game).reward_scale
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=2)
    ended = 0
    for _ in range(400):
        seats = env.seats.copy()
        obs, rewards, terminated, _, infos = env.step(_legal(obs["action_mask"], rng))
        if terminated.any():
            rows = np.flatnonzero(terminated)
            values = env.engine.finished.values[rows, seats[rows]]
            np.testing.assert_allclose(infos["round_value"][rows], values)
            np.testing.assert_allclose(rewards[rows], values * scale, rtol=1e-6)
            assert set(infos) == {"round_value", "_round_value"}
            ended += rows.size
    assert ended > 8


def test_league_seats_act_and_an_empty_slot_plays_the_heuristic():
    env = LeagueVectorEnv({"num_envs": 8, "num_players": 4, "pool_size": 2, "heuristic_share": 0})
    obs, _ = env.reset(seed=1)
    counting = [_Counting(), _Counting()]
    for slot, policy in enumerate(counting):
        env.set_snapshot(slot, policy)  # type: ignore[arg-type]  # duck-typed policy
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs, *_ = env.step(_legal(obs["action_mask"], rng))
    assert all(policy.rows > 0 for policy in counting)
    # Only the heuristic (and empty slots, which play it): no snapshot is asked.
    env = LeagueVectorEnv({"num_envs": 8, "num_players": 4, "pool_size": 1, "heuristic_share": 1})
    idle = _Counting()
    env.set_snapshot(0, idle)  # type: ignore[arg-type]
    obs, _ = env.reset(seed=1)
    for _ in range(20):
        obs, *_ = env.step(_legal(obs["action_mask"], rng))
    assert idle.rows == 0


def test_an_illegal_action_raises_naming_the_env():
    env = LeagueVectorEnv({"num_envs": 4, "num_players": 4})
    obs, _ = env.reset(seed=0)
    actions = np.argmax(obs["action_mask"], axis=1)
    actions[2] = np.flatnonzero(obs["action_mask"][2] == 0)[0]
    with pytest.raises(ValueError, match="in env 2"):
        env.step(actions)


@pytest.mark.parametrize("bad", [{"pool_size": -1}, {"heuristic_share": 2.0}, {"seats": 1}])
def test_bad_config_values_are_named(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        LeagueVectorEnv({"num_envs": 2, **bad})


def _module(hidden: list[int]) -> MaskedPPOTorchRLModule:
    env = LeagueVectorEnv({"num_envs": 1, "pool_size": 0, "heuristic_share": 1.0})
    spec = RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=env.single_observation_space,
        action_space=env.single_action_space,
        model_config={"fcnet_hiddens": hidden, "vf_share_layers": False},
    )
    return spec.build()


def test_the_masked_module_and_its_numpy_export_choose_alike():
    module = _module([32, 16])
    policy = numpy_policy(module)
    assert isinstance(policy, NumpyPolicy) and policy.layers == [482, 32, 16, 34]
    env = LeagueVectorEnv(
        {"num_envs": 64, "num_players": 4, "pool_size": 0, "heuristic_share": 1.0}
    )
    obs, _ = env.reset(seed=2)
    batch = {Columns.OBS: {key: torch.as_tensor(value) for key, value in obs.items()}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()
    legal = obs["action_mask"] != 0
    assert (logits[~legal] < -1e30).all()  # illegal actions are out of reach
    np.testing.assert_allclose(
        logits[legal], policy.batch_logits(obs["observations"])[legal], atol=1e-5
    )
    assert (np.argmax(logits, axis=1) == policy.greedy_batch(obs["observations"], legal)).all()
    # The caller's batch is left as it was (RLlib reuses it).
    assert set(batch[Columns.OBS]) == {"observations", "action_mask"}


def test_building_the_module_logs_no_deprecation(caplog):
    with caplog.at_level(logging.WARNING):
        _module([8])
    assert not [r for r in caplog.records if "eprecat" in r.getMessage()]
