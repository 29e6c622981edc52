"""Boon's self-play tables over the batched engine, the opponent pool, numpy snapshots."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agents.eval.arena import match, run_arena
from agents.games.boon.heuristic import HeuristicAgent
from agents.games.boon.selfplay import BoonSelfPlayVecEnv
from agents.players.policy import NumpyPolicy
from agents.players.random_agent import RandomAgent
from agents.players.trained import PolicyAgent
from agents.training.selfplay import HEURISTIC, LEARNER, RANDOM, parse_pool_weights
from boon_env import boon_v0
from boon_env.games.boon.encoding import OBS_SIZE
from boon_env.games.boon.rules import NUM_ACTIONS, PASS, PICK, TOTAL_POINTS


def _random_learners(env: BoonSelfPlayVecEnv, rng: np.random.Generator) -> np.ndarray:
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (env.num_envs, NUM_ACTIONS)
    assert masks.any(axis=1).all(), "every learner is asked only when it has a legal action"
    return env.engine.random_actions(rng)


def _play(env: BoonSelfPlayVecEnv, steps: int, seed: int):
    """Random learner moves; yields (table, learner seat, reward, info) of every finished round."""
    rng = np.random.default_rng(seed)
    obs = env.reset()
    assert obs.shape == (env.num_envs, OBS_SIZE)
    for _ in range(steps):
        seats = env.seats.copy()  # a table's learner seat changes only when its round ends
        obs, rewards, dones, infos = env.step(_random_learners(env, rng))
        assert not rewards[~dones].any(), "only finished rounds pay"
        for table in np.flatnonzero(dones):
            assert not infos[table]["TimeLimit.truncated"]
            yield table, int(seats[table]), float(rewards[table]), infos[table]["round"]
        assert all(not info for info, done in zip(infos, dones, strict=True) if not done)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_learner_gets_its_own_reward_whoever_plays_the_last_card(num_players: int) -> None:
    # Every (learner seat, seat that plays the round's last card) pair must come up, and the
    # reward must be the learner's share of the round's value, not the last mover's.
    env = BoonSelfPlayVecEnv(32, num_players, "heuristic=0.5,random=0.5", seed=3)
    last_mover = np.full(env.num_envs, -1)
    step = env.engine.step

    def recording_step(actions: np.ndarray, tables: np.ndarray | None = None):
        seat = env.engine.seat  # who acts now, learner or not
        out = step(actions, tables)
        done = out[4]
        last_mover[done] = seat[done]
        return out

    env.engine.step = recording_step
    covered: set[tuple[int, int]] = set()
    differs = 0
    for table, seat, reward, info in _play(env, 3000, seed=0):
        value = env.engine.finished.values[table]  # the round that just ended
        last = int(last_mover[table])
        assert reward == value[seat] == info["value"]
        differs += value[seat] != value[last]
        covered.add((seat, last))
        if len(covered) == num_players**2 and differs:
            break
    assert len(covered) == num_players**2
    assert differs > 0, "the check needs rounds where the last mover's value differs"


def test_round_info_and_shaping_off_by_default() -> None:
    env = BoonSelfPlayVecEnv(16, 4, "random=1", seed=1)
    rounds = list(_play(env, 60, seed=1))
    assert len(rounds) > 50
    for _, _, reward, r in rounds:
        assert reward == int(reward) == r["value"], "no shaping unless asked for"
        assert r["leaster"] != r["picked"]
        assert r["opponents"] == ["random"] * 3
        assert r["learner_pick_decisions"] in (0, 1)


def test_shaping_adds_the_point_share_term() -> None:
    env = BoonSelfPlayVecEnv(16, 4, "random=1", seed=2, shaping=1.0)
    shaped = 0
    for table, seat, reward, r in _play(env, 60, seed=2):
        record = env.engine.finished
        picker, points = record.picker[table], record.points[table]
        if picker < 0:
            assert reward == r["value"]
            continue
        side = points[seat] if picker == seat else TOTAL_POINTS - points[picker]
        assert reward == pytest.approx(r["value"] + side / TOTAL_POINTS - 0.5, abs=1e-6)
        shaped += 1
    assert shaped > 20


def test_pick_assist_takes_the_learners_pick_decision() -> None:
    env = BoonSelfPlayVecEnv(16, 4, "random=1", seed=4, pick_assist=1.0)
    rng = np.random.default_rng(4)
    env.reset()
    finished = 0
    for _ in range(60):
        masks = np.stack(env.env_method("action_masks"))
        assert not masks[:, PICK].any(), "assisted rounds never ask the learner to pick"
        _, _, dones, infos = env.step(_random_learners(env, rng))
        for table in np.flatnonzero(dones):
            assert infos[table]["round"]["assisted"]
            assert infos[table]["round"]["learner_pick_decisions"] == 0
            finished += 1
    assert finished > 20


def test_env_uses_only_its_own_generator() -> None:
    # RLCard-style: touching the global generators between steps must change nothing.
    def trajectory(disturb: bool) -> list[float]:
        env = BoonSelfPlayVecEnv(8, 4, "random=0.5,heuristic=0.5", seed=11)
        env.set_snapshots([_tiny_policy(0)])
        rng = np.random.default_rng(5)
        out = [float(env.reset().sum())]
        for _ in range(40):
            if disturb:
                np.random.seed(123)
                np.random.random()
            obs, rewards, _, _ = env.step(_random_learners(env, rng))
            out += [float(obs.sum()), float(rewards.sum())]
        return out

    assert trajectory(False) == trajectory(True)


def test_seed_gives_the_same_tables() -> None:
    def first(seed: int) -> np.ndarray:
        env = BoonSelfPlayVecEnv(8, 4, "random=1")
        env.seed(seed)
        return env.reset()

    np.testing.assert_array_equal(first(3), first(3))
    assert not np.array_equal(first(3), first(4))


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
    env = BoonSelfPlayVecEnv(400, 4, {"self": 0.5, "heuristic": 0.25, "random": 0.25}, seed=0)
    env.reset()
    assert (env.players[np.arange(400), env.seats] == LEARNER).all()
    assert (env.players == LEARNER).sum() == 400, "one learner per table"
    others = env.players[env.players != LEARNER]
    assert set(others.tolist()) == {HEURISTIC, RANDOM}, "no snapshot yet: self seats are random"
    env.set_snapshots([_tiny_policy(0), _tiny_policy(1)])
    env.reset()
    others = env.players[env.players != LEARNER]
    assert 0.45 < np.mean(others >= 0) < 0.55
    assert 0.2 < np.mean(others == HEURISTIC) < 0.3
    assert set(others[others >= 0].tolist()) == {0, 1}


def test_snapshot_opponents_play_their_policy() -> None:
    # A snapshot that always passes: with the learner passing too, every round is a Leaster.
    policy = _tiny_policy(2)
    policy.weights[-1][:] = 0
    policy.biases[-1][:] = 0
    policy.biases[-1][PASS] = 50.0
    env = BoonSelfPlayVecEnv(16, 4, "self=1", seed=5)
    env.set_snapshots([policy])
    env.reset()
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(80):
        masks = np.stack(env.env_method("action_masks"))
        actions = np.where(masks[:, PASS], PASS, env.engine.random_actions(rng))
        _, _, dones, infos = env.step(actions)
        for table in np.flatnonzero(dones):
            assert infos[table]["round"]["leaster"]
            assert infos[table]["round"]["opponents"] == ["self"] * 3
            finished += 1
    assert finished > 20


def test_numpy_policy_matches_the_torch_policy() -> None:
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    env = BoonSelfPlayVecEnv(20, 4, "random=1", seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, policy_kwargs={"net_arch": {"pi": [32, 32], "vf": [32]}}, seed=0
    )
    policy = NumpyPolicy.from_sb3(model.policy)
    obs = env.reset()
    masks = np.stack(env.env_method("action_masks"))
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks)
        expected = dist.distribution.logits.numpy()
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    for row, mask in enumerate(masks):
        logits = policy.logits(obs[row])[mask]
        got = logits - np.log(np.exp(logits - logits.max()).sum()) - logits.max()
        np.testing.assert_allclose(got, expected[row][mask], atol=1e-4)
        legal = sum(1 << int(i) for i in np.flatnonzero(mask))
        assert policy.act(obs[row], legal, deterministic=True) == int(actions[row])


def test_policy_samples_are_legal_and_follow_the_softmax() -> None:
    policy = _tiny_policy(3)
    env = BoonSelfPlayVecEnv(64, 5, "random=1", seed=3)
    obs = env.reset()
    masks = np.stack(env.env_method("action_masks"))
    rng = np.random.default_rng(0)
    counts = np.zeros_like(masks, dtype=np.int64)
    for _ in range(300):
        choice = policy.sample(obs, masks, rng)
        assert masks[np.arange(64), choice].all()
        counts[np.arange(64), choice] += 1
    expected = policy.probabilities(obs, masks) * 300
    assert np.abs(counts - expected).max() < 40
    # One row through act() draws exactly what a batch of one draws.
    legal = sum(1 << int(i) for i in np.flatnonzero(masks[0]))
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    assert policy.act(obs[0], legal, a) == policy.sample(obs[:1], masks[:1], b)[0]


def test_vec_env_attributes_are_shared_by_every_table() -> None:
    env = BoonSelfPlayVecEnv(5, 4, "random=0.5,heuristic=0.5", seed=7)
    env.reset()
    assert env.has_attr("action_masks")
    assert env.get_attr("shaping") == [0.0] * 5
    env.set_attr("pick_assist", 0.5)
    assert env.get_attr("pick_assist", indices=[1, 3]) == [0.5, 0.5]
    with pytest.raises(ValueError, match="pick_assist is shared by every table"):
        env.set_attr("pick_assist", 0.1, indices=[1, 3])
    assert env.env_method("set_snapshots", [_tiny_policy(0)]) == [None] * 5
    assert len(env.snapshots) == 1
    assert env.env_is_wrapped(object) == [False] * 5
    with pytest.raises(RuntimeError, match="step_async"):
        BoonSelfPlayVecEnv(2, 4).step_wait()


def test_in_training_evaluation_is_the_arena() -> None:
    # The callback's evaluation plays agent objects through agents.eval.arena.match: the same deals,
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
