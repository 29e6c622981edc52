"""The learner's environment, opponent pool, numpy snapshots and batched vector env."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agents.arena import match, run_arena
from agents.heuristic import HeuristicAgent
from agents.policy import NumpyPolicy
from agents.random_agent import RandomAgent
from agents.trained import PolicyAgent
from agents.training.selfplay import (
    BatchedSubprocVecEnv,
    OpponentPool,
    PolicyOpponent,
    SelfPlayEnv,
    parse_pool_weights,
)
from boon_env import boon_v0
from boon_env.encoding import OBS_SIZE
from boon_env.rules import PICK, GameConfig, round_value


def _play_random_round(env: SelfPlayEnv, rng: np.random.Generator, **options: object):
    obs, _ = env.reset(options=options)
    assert obs.shape == (OBS_SIZE,)
    while True:
        mask = env.action_masks()
        assert mask.any(), "the learner is only asked when it has a legal action"
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            return reward, info
        assert reward == 0.0


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_learner_gets_its_own_reward_whoever_plays_the_last_card(num_players: int) -> None:
    # Every (learner seat, seat that plays the round's last card) pair must come up, and the
    # reward must be the learner's share of the round's value, not the last mover's.
    env = SelfPlayEnv(num_players, "heuristic=0.5,random=0.5", seed=3)
    rng = np.random.default_rng(0)
    covered: set[tuple[int, int]] = set()
    differs = 0
    for _ in range(3000):
        seat = len(covered) % num_players  # spread the learner over every seat
        reward, info = _play_random_round(env, rng, seat=seat)
        state = env.state
        last_trick = state.tricks[-1]
        last_seat = (last_trick.leader + num_players - 1) % num_players
        value = round_value(state)
        assert reward == value[seat]
        assert info["round"]["value"] == value[seat]
        differs += value[seat] != value[last_seat]
        covered.add((seat, last_seat))
        if len(covered) == num_players**2 and differs:
            break
    assert len(covered) == num_players**2
    assert differs > 0, "the check needs rounds where the last mover's value differs"


def test_round_info_and_shaping_off_by_default() -> None:
    env = SelfPlayEnv(4, "random=1", seed=1)
    rng = np.random.default_rng(1)
    for _ in range(50):
        reward, info = _play_random_round(env, rng)
        assert reward == int(reward), "no shaping unless asked for"
        r = info["round"]
        assert r["leaster"] != r["picked"]
        assert r["opponents"] == ["random"] * 3


def test_shaping_adds_the_point_share_term() -> None:
    env = SelfPlayEnv(4, "random=1", seed=2, shaping=1.0)
    rng = np.random.default_rng(2)
    for _ in range(50):
        reward, info = _play_random_round(env, rng)
        state = env.state
        if state.picker is None:
            assert reward == info["round"]["value"]
            continue
        side = (
            state.points[env.seat] if state.picker == env.seat else 120 - state.points[state.picker]
        )
        assert reward == pytest.approx(info["round"]["value"] + side / 120 - 0.5)


def test_pick_assist_takes_the_learners_pick_decision() -> None:
    env = SelfPlayEnv(4, "random=1", seed=4, pick_assist=1.0)
    rng = np.random.default_rng(4)
    for _ in range(30):
        env.reset()
        assert not env.action_masks()[PICK], "assisted rounds never ask the learner to pick"
        _, info = _play_random_round(env, rng)
        assert info["round"]["assisted"]
        assert info["round"]["learner_pick_decisions"] == 0


def test_env_uses_only_its_own_generator() -> None:
    # RLCard-style: touching the global generators between steps must change nothing.
    def trajectory(disturb: bool) -> list[float]:
        env = SelfPlayEnv(4, "random=0.5,heuristic=0.5", seed=11)
        rng = np.random.default_rng(5)
        out = []
        for _ in range(20):
            obs, _ = env.reset()
            out.append(float(obs.sum()))
            done = False
            while not done:
                if disturb:
                    np.random.seed(123)
                    np.random.random()
                action = int(rng.choice(np.flatnonzero(env.action_masks())))
                obs, reward, done, _, _ = env.step(action)
                out.append(float(obs.sum()) + reward)
        return out

    assert trajectory(False) == trajectory(True)


def test_parse_pool_weights() -> None:
    assert parse_pool_weights("self=2,heuristic=1,random=1") == {
        "self": 0.5,
        "heuristic": 0.25,
        "random": 0.25,
    }
    assert parse_pool_weights("random=1,self=0") == {"random": 1.0}
    for bad in ("monkey=1", "self=x", "self=-1", "self=0", ""):
        with pytest.raises(ValueError):
            parse_pool_weights(bad)


def _tiny_policy(seed: int) -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    sizes = [OBS_SIZE, 16, 16, 34]
    weights = [rng.normal(size=(a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    biases = [rng.normal(size=b).astype(np.float32) for b in sizes[1:]]
    return NumpyPolicy(weights, biases)


def test_pool_draws_snapshots_heuristic_and_random() -> None:
    pool = OpponentPool({"self": 0.5, "heuristic": 0.25, "random": 0.25}, seed=0)
    rng = np.random.default_rng(0)
    before = {pool.sample(rng).name for _ in range(200)}
    assert before == {"heuristic", "random"}, "no snapshot yet: self seats play randomly"
    pool.set_snapshots([_tiny_policy(0), _tiny_policy(1)])
    drawn = [pool.sample(rng) for _ in range(400)]
    names = [o.name for o in drawn]
    assert 150 < names.count("self") < 250
    assert {id(o) for o in drawn if o.name == "self"} == {id(s) for s in pool.snapshots}


def test_numpy_policy_matches_the_torch_policy() -> None:
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    env = SelfPlayEnv(4, "random=1", seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, policy_kwargs={"net_arch": {"pi": [32, 32], "vf": [32]}}, seed=0
    )
    policy = NumpyPolicy.from_sb3(model.policy)
    for _ in range(20):
        obs, _ = env.reset()
        mask = env.action_masks()
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask)
            expected = dist.distribution.logits.numpy()[0][mask]
        logits = policy.logits(obs)[mask]
        got = logits - np.log(np.exp(logits - logits.max()).sum()) - logits.max()
        np.testing.assert_allclose(got, expected, atol=1e-4)
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        legal = sum(1 << int(i) for i in np.flatnonzero(mask))
        assert policy.act(obs, legal, deterministic=True) == int(action)


def test_policy_samples_are_legal() -> None:
    policy = _tiny_policy(3)
    env = SelfPlayEnv(5, "random=1", seed=3)
    env.pool.set_snapshots([policy])
    rng = np.random.default_rng(0)
    opponent = PolicyOpponent(policy)
    for _ in range(30):
        env.reset()
        state = env.state
        while not state.is_over:
            action = opponent.act(state, state.current, [5] * 5, rng)
            assert state.legal_mask() >> action & 1
            state.apply(action)


def test_batched_vec_env_matches_in_process_envs() -> None:
    def fns(n: int):
        return [
            lambda i=i: SelfPlayEnv(4, "random=0.5,heuristic=0.5", seed=100 + i) for i in range(n)
        ]

    def run(workers: int) -> list[np.ndarray]:
        vec = BatchedSubprocVecEnv(fns(5), num_workers=workers)
        vec.seed(7)
        obs = vec.reset()
        rng = np.random.default_rng(0)
        out = [obs]
        try:
            for _ in range(60):
                masks = np.stack(vec.env_method("action_masks"))
                actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
                obs, rewards, dones, infos = vec.step(actions)
                out += [obs, rewards, dones.astype(float)]
                for done, info in zip(dones, infos, strict=True):
                    assert ("round" in info) == done
                    if done:
                        assert info["terminal_observation"].shape == (OBS_SIZE,)
            assert vec.get_attr("shaping") == [0.0] * 5
            vec.set_attr("pick_assist", 0.5, indices=[1, 3])
            assert vec.get_attr("pick_assist") == [0.0, 0.5, 0.0, 0.5, 0.0]
            assert vec.has_attr("action_masks")
        finally:
            vec.close()
        return out

    local, remote = run(0), run(2)
    for a, b in zip(local, remote, strict=True):
        np.testing.assert_array_equal(a, b)


def test_in_training_evaluation_is_the_arena() -> None:
    # The callback's evaluation plays agent objects through agents.arena.match: the same deals,
    # rotations and statistics as run_arena with the equivalent specs.
    specs = ["heuristic", "random", "random", "random"]
    agents = [HeuristicAgent(), RandomAgent(), RandomAgent(), RandomAgent()]
    assert match(agents, specs, 15, seed=1) == run_arena(specs, deals=15, seed=1).results
    identical = match([HeuristicAgent() for _ in range(4)], ["h"] * 4, 10, seed=0)[0]
    assert identical.mean_victory_cards == 0.0, "pooled identical players net exactly zero"


def test_policy_agent_plays_the_snapshot_legally() -> None:
    policy = _tiny_policy(5)
    greedy, sampled = PolicyAgent(policy), PolicyAgent(policy, deterministic=False)
    env = boon_v0.raw_env(num_players=5)
    for seed in range(5):
        env.reset(seed=seed)
        sampled.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            observed = env.observe(env.agent_selection)
            obs, mask = observed["observation"], observed["action_mask"]
            assert greedy.act(obs, mask) == policy.greedy(obs, mask)
            action = sampled.act(obs, mask)
            assert mask[action] == 1
            env.step(action)


def test_game_config_of_env() -> None:
    assert SelfPlayEnv(3, "random=1").config == GameConfig(num_players=3)
