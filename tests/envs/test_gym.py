"""The single-agent Gymnasium envs (agents.gym): registration, spaces, seeding, opponents,
seats, episodes, illegal actions, the batched vector env and the SB3 example."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import boon_env
from agents.gym.single import SingleAgentEnv
from agents.gym.vector import SingleAgentVectorEnv
from agents.players.random_agent import RandomAgent
from agents.registry import game_spec

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("boon", "bon", "boyn")
IDS = {"boon": "boon_env/Boon-v0", "bon": "boon_env/BON-v0", "boyn": "boon_env/BOYN-v0"}


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def _episode(env: gymnasium.Env, rng: np.random.Generator, **reset: object) -> list:
    # One episode with random legal actions: every step's (obs, reward, done flags, info).
    obs, info = env.reset(**reset)
    trajectory = [(obs["observation"].tobytes(), info)]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(_random_legal(obs["action_mask"], rng))
        random.random()  # the env must not read global random state
        np.random.random()
        done = terminated or truncated
        trajectory.append((obs["observation"].tobytes(), reward, terminated, truncated, info))
    return trajectory


# ---------------------------------------------------------------------------- registration
@pytest.mark.parametrize("game", GAMES)
def test_make_builds_the_registered_env_with_the_pettingzoo_spaces(game):
    env = gymnasium.make(IDS[game])
    assert game_spec(game).env.gymnasium_id == IDS[game]
    assert isinstance(env.unwrapped, SingleAgentEnv)
    table = game_spec(game).env.raw_env()
    assert env.observation_space == table.observation_space("player_0")
    assert env.action_space == table.action_space("player_0")
    assert env.observation_space["action_mask"].dtype == np.int8


@pytest.mark.parametrize("game", GAMES)
def test_check_env_passes(game):
    check_env(SingleAgentEnv(game=game, opponents=["heuristic", "random"]), skip_render_check=True)


def test_importing_the_library_does_not_import_the_envs():
    code = (
        "import sys, boon_env, gymnasium; gymnasium.spec('boon_env/Boon-v0')\n"
        "print('agents' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
    assert boon_env.GYMNASIUM_ENTRY_POINT.startswith("agents.gym.")


# ---------------------------------------------------------------------------- seeding
@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_trajectories(game):
    runs = []
    for _ in range(2):
        env = SingleAgentEnv(game=game, opponents=["heuristic", "random"])
        rng = np.random.default_rng(5)
        runs.append([_episode(env, rng, seed=3), _episode(env, rng)])
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[0][1]


def test_vector_env_same_seed_same_trajectories():
    def run() -> list:
        env = SingleAgentVectorEnv(16, game="boon", opponents=["heuristic", "random"])
        obs, _ = env.reset(seed=9)
        rng = np.random.default_rng(0)
        out = []
        for _ in range(40):
            actions = np.argmax(rng.random(obs["action_mask"].shape) * obs["action_mask"], axis=1)
            obs, reward, terminated, _, _ = env.step(actions)
            out.append((obs["observation"].tobytes(), reward.tolist(), terminated.tolist()))
        return out

    assert run() == run()


# ---------------------------------------------------------------------------- opponents
def test_opponents_by_spec_pool_weights_and_objects():
    env = SingleAgentEnv(game="boon", opponents=["heuristic", "ppo"], opponent_weights=[1, 0])
    _, info = env.reset(seed=0)
    assert info["opponents"] == ["heuristic"] * 3
    env = SingleAgentEnv(game="boon", opponents=["heuristic", "random"])
    seen = {name for seed in range(20) for name in env.reset(seed=seed)[1]["opponents"]}
    assert seen == {"heuristic", "random"}
    agent = RandomAgent(seed=1, name="mine")
    env = SingleAgentEnv(game="bon", opponents=agent)
    _episode(env, np.random.default_rng(0), seed=0)
    assert env.reset()[1]["opponents"] == ["mine"] * 3


@pytest.mark.parametrize("game", ["boon"])  # the game that ships models
def test_the_shipped_model_plays_as_an_opponent(game):
    env = SingleAgentEnv(game=game, opponents="ppo")
    trajectory = _episode(env, np.random.default_rng(0), seed=0)
    assert trajectory[-1][2] or trajectory[-1][3]
    vec = SingleAgentVectorEnv(8, game=game, opponents=["ppo", "heuristic"])
    obs, _ = vec.reset(seed=0)
    for _ in range(20):
        obs, *_ = vec.step(obs["action_mask"].argmax(axis=1))


# ---------------------------------------------------------------------------- seats
def test_seat_fixed_rotated_random_and_chosen():
    env = SingleAgentEnv(game="boon", seat="rotate")
    assert [env.reset(seed=0 if k == 0 else None)[1]["seat"] for k in range(6)] == [
        0,
        1,
        2,
        3,
        0,
        1,
    ]
    env = SingleAgentEnv(game="boon", seat=2)
    assert {env.reset()[1]["seat"] for _ in range(5)} == {2}
    env = SingleAgentEnv(game="boon", num_players=5)
    assert {env.reset(seed=s)[1]["seat"] for s in range(40)} == set(range(5))
    assert env.reset(options={"seat": 4})[1]["seat"] == 4
    vec = SingleAgentVectorEnv(4, game="boon", seat="rotate")
    obs, info = vec.reset(seed=0)
    assert info["seat"].tolist() == [0, 0, 0, 0]
    seats = set()
    for _ in range(60):
        obs, *_, info = vec.step(obs["action_mask"].argmax(axis=1))
        seats.update(info["seat"].tolist())
    assert seats == {0, 1, 2, 3}


def test_the_learner_acts_at_its_seat():
    env = SingleAgentEnv(game="boyn", seat=1)
    obs, _ = env.reset(seed=0)
    table = env.unwrapped.table
    for _ in range(10):
        assert table.agent_selection == "player_1"
        obs, _, terminated, truncated, _ = env.step(int(obs["action_mask"].argmax()))
        if terminated or truncated:
            break


# ---------------------------------------------------------------------------- episodes
@pytest.mark.parametrize("game", GAMES)
def test_a_round_episode_pays_the_learners_round_value_in_the_games_unit(game):
    env = SingleAgentEnv(game=game, opponents="heuristic", reward_scale=0.5)
    for seed in range(3):
        trajectory = _episode(env, np.random.default_rng(seed), seed=seed)
        *steps, last = trajectory[1:]
        assert all(reward == 0 and not info.get("round") for _, reward, *_, info in steps)
        info = last[-1]
        record = game_spec(game).seat_records(info["round"], 4)[info["seat"]]
        assert info["value"] == record.value
        assert last[1] == pytest.approx(0.5 * record.value)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_episode_plays_rounds_until_the_game_ends(game):
    env = SingleAgentEnv(game=game, episode="game", opponents="heuristic")
    trajectory = _episode(env, np.random.default_rng(0), seed=1)
    infos = [step[-1] for step in trajectory[1:]]
    rounds = [info for info in infos if "round" in info]
    assert len(rounds) > 1
    assert "game" in infos[-1] and infos[-1]["game"]["rounds"] == len(rounds)
    assert sum(step[1] for step in trajectory[1:]) == pytest.approx(
        sum(info["value"] for info in rounds)
    )


# ---------------------------------------------------------------------------- illegal actions
def test_illegal_actions_raise_or_cost_the_penalty():
    env = SingleAgentEnv(game="boon", illegal_action="raise", seat=0)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    with pytest.raises(ValueError, match="action must be"):
        env.step(99)
    env = SingleAgentEnv(game="boon", illegal_penalty=-2.0, seat=0)
    obs, _ = env.reset(seed=0)
    _, reward, terminated, _, info = env.step(illegal)
    assert info["illegal_action"] and reward == -2.0 and not terminated  # a pick decision
    vec = SingleAgentVectorEnv(4, game="boon", illegal_action="raise")
    obs, _ = vec.reset(seed=0)
    bad = np.argmin(obs["action_mask"], axis=1)
    with pytest.raises(ValueError, match="illegal action"):
        vec.step(bad)
    vec = SingleAgentVectorEnv(4, game="boon", illegal_penalty=-3.0)
    obs, _ = vec.reset(seed=0)
    _, reward, terminated, _, info = vec.step(np.argmin(obs["action_mask"], axis=1))
    assert info["illegal_action"].all()
    assert np.all(reward[~terminated] == -3.0)


# ---------------------------------------------------------------------------- bad arguments
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("game", "chess"),
        ("num_players", 7),
        ("opponents", "wizard"),
        ("opponents", []),
        ("opponents", [3]),
        ("opponent_weights", [1, 2]),
        ("opponent_weights", [0]),
        ("seat", 4),
        ("seat", "left"),
        ("episode", "match"),
        ("reward_scale", 0),
        ("illegal_action", "ignore"),
        ("illegal_penalty", 1.0),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_field(field, value):
    message = "unknown game" if field == "game" else field
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv(**{field: value})
    with pytest.raises(ValueError, match=message):
        SingleAgentVectorEnv(2, **{field: value})


def test_the_vector_env_refuses_whole_games_and_bad_sizes():
    with pytest.raises(ValueError, match="episode"):
        gymnasium.make_vec(IDS["boon"], num_envs=2, episode="game")
    with pytest.raises(ValueError, match="num_envs"):
        SingleAgentVectorEnv(0)
    sync = gymnasium.make_vec(IDS["boon"], num_envs=2, episode="game", vectorization_mode="sync")
    sync.reset(seed=0)


# ---------------------------------------------------------------------------- vector env
@pytest.mark.parametrize("game", GAMES)
def test_make_vec_steps_every_table_with_same_step_autoreset(game):
    vec = gymnasium.make_vec(IDS[game], num_envs=64, opponents=["random", "heuristic"])
    assert isinstance(vec, SingleAgentVectorEnv)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = vec.reset(seed=1)
    assert obs in vec.observation_space
    engine = vec.engine
    ended = 0
    for _ in range(60):
        assert (engine.seat == vec.seats).all()  # every table at its learner's decision
        seats_before = vec.seats.copy()
        obs, reward, terminated, truncated, info = vec.step(obs["action_mask"].argmax(axis=1))
        assert obs in vec.observation_space
        assert (obs["action_mask"].sum(axis=1) > 0).all()
        done = terminated | truncated
        assert (reward[~done] == 0).all()
        if done.any():
            final = info["final_info"]
            assert (info["_final_obs"] == done).all() and (final["_value"] == done).all()
            assert np.allclose(reward[done], final["value"][done])
            assert (final["seat"][done] == seats_before[done]).all()
            assert (
                final["round"]["values"][done, final["seat"][done]] == final["value"][done]
            ).all()
            row = int(np.flatnonzero(done)[0])
            assert not info["final_obs"][row]["action_mask"].any()
            ended += int(done.sum())
    assert ended > 0


def _table_options(game: str, deal: dict) -> dict:
    # A deal of the batch engine as the PettingZoo env's reset options.
    if game == "boon":
        return {"deal": {"hands": deal["hands"], "boon": deal["boon"]}, "dealer": deal["dealer"]}
    return {
        "deal": {"hands": deal["hands"], "leftovers": deal["leftovers"]},
        "tower": deal["tower"],
        "leader": deal["leader"],
    }


@pytest.mark.parametrize("game", ["boon", "bon"])
def test_the_vector_env_plays_each_table_as_the_single_env_would(game):
    # Deterministic opponents and learner: each table's episode, replayed on the one-table env
    # from the same deal, gives the same observations, masks and reward.
    vec = SingleAgentVectorEnv(6, game=game, opponents="heuristic", seat=0)
    obs, _ = vec.reset(seed=4)
    deals = [vec.engine.deal(t) for t in range(6)]
    seen: list[list] = [
        [(obs["observation"][t].tobytes(), obs["action_mask"][t].tobytes())] for t in range(6)
    ]
    results: dict[int, float] = {}
    while len(results) < 6:
        obs, reward, terminated, _, _ = vec.step(obs["action_mask"].argmax(axis=1))
        for t in range(6):
            if t in results:
                continue
            if terminated[t]:
                results[t] = float(reward[t])
            else:
                seen[t].append((obs["observation"][t].tobytes(), obs["action_mask"][t].tobytes()))
    env = SingleAgentEnv(game=game, opponents="heuristic", seat=0)
    for t in range(6):
        obs, _ = env.reset(seed=0, options=_table_options(game, deals[t]))
        replay = [(obs["observation"].tobytes(), obs["action_mask"].tobytes())]
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(int(obs["action_mask"].argmax()))
            done = terminated or truncated
            if not done:
                replay.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        assert replay == seen[t]
        assert reward == results[t]


# ---------------------------------------------------------------------------- the example
def test_the_sb3_example_trains_ppo_and_maskable_ppo():
    result = subprocess.run(
        [sys.executable, "-m", "agents.gym.sb3_example", "--steps", "512", "--episodes", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("PPO: mean return") and lines[1].startswith("MaskablePPO:")
    assert lines[1].endswith("illegal 0.0%")


def test_the_cleanrl_loop_of_the_docs_runs():
    page = (ROOT / "docs" / "gym.md").read_text()
    loop = page.split("## A CleanRL-style loop")[1].split("```python\n")[1].split("```")[0]
    result = subprocess.run(
        [sys.executable, "-c", loop],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("iteration") == 3


def test_the_package_docstring_example_runs():
    import doctest

    import agents.gym

    result = doctest.testmod(agents.gym)
    assert result.attempted > 0 and result.failed == 0
