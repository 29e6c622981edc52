"""Ray RLlib (the ``rllib`` extra): the multi-agent adapter's contract with RLlib, rewards
reaching the seat that earned them, the league's seat mapping, ``train_rllib.py`` end to end for
every table size (on the batch engine's vector env, ``tests/training/test_rllib_vector.py``),
and the ``rllib:`` agent spec with its errors."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import ray
import tyro
from gymnasium import spaces
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from agents.eval.arena import run_arena
from agents.games.boon.heuristic import HeuristicAgent
from agents.games.boon.rllib import BoonRLlibEnv
from agents.players.policy import ModelFileError
from agents.players.rllib_agent import META_FILE
from agents.specs import make_agent
from agents.training.rllib.league import HeuristicRLModule, LeagueMapping, round_metrics
from boon_env import boon_v0

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = (3, 4, 5)

# One PPO update on a few hundred learner decisions at 16 tables, sampled in this process.
TINY = [
    "--iterations", "1",
    "--num-env-runners", "0",
    "--num-envs-per-env-runner", "16",
    "--train-batch-size", "384",
    "--minibatch-size", "64",
    "--num-epochs", "1",
    "--net-arch", "32,32",
    "--bc-rounds", "20",
    "--bc-epochs", "1",
    "--pool-size", "2",
    "--eval-every", "0",
    "--arena-deals", "0",
]  # fmt: skip


# ------------------------------------------------------------------------------ the adapter
def _play(env: BoonRLlibEnv, seed: int, rng: np.random.Generator) -> list[tuple]:
    """One episode of random legal play: every step's (actor, action, step results)."""
    observations, _ = env.reset(seed=seed)
    steps = []
    while True:
        ((actor, seen),) = observations.items()
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        results = env.step({actor: action})
        steps.append((actor, action, results))
        observations, _, terminateds, truncateds, _ = results
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps


@pytest.mark.parametrize("num_players", PLAYERS)
def test_every_seat_gets_its_round_value_whoever_plays_the_last_card(num_players):
    env = BoonRLlibEnv({"num_players": num_players})
    agents = env.possible_agents
    rng = np.random.default_rng(num_players)
    last_card_seats = set()
    for seed in range(200):
        steps = _play(env, seed, rng)
        last_actor, _, (observations, rewards, terminateds, _, infos) = steps[-1]
        assert set(observations) == set(rewards) == set(infos) == set(agents)
        assert all(terminateds[a] for a in agents)
        value = infos[agents[0]]["round"]["value"]
        # Before the end only the actor observes, and nobody is paid.
        for _, _, (obs, paid, *_) in steps[:-1]:
            assert len(obs) == 1 and set(paid) == set(obs) and not any(paid.values())
        for seat, agent in enumerate(agents):
            assert rewards[agent] == value[seat], (seat, last_actor)
        last_card_seats.add(agents.index(last_actor))
        if len(last_card_seats) == num_players:
            break
    assert last_card_seats == set(range(num_players)), "every seat played some round's last card"


@pytest.mark.parametrize("num_players", PLAYERS)
def test_game_episodes_pay_each_seat_what_boon_v0_pays_it(num_players):
    # The same seed and actions in boon_v0 itself (PettingZoo's reward accumulation) and in the
    # adapter with reward="payout": every seat's total must agree over a whole game.
    config = {"num_players": num_players, "episode": "game", "max_rounds": 6}
    adapter = BoonRLlibEnv({**config, "reward": "payout"})
    steps = _play(adapter, 7, np.random.default_rng(1))
    totals = dict.fromkeys(adapter.possible_agents, 0.0)
    for _, _, (_, paid, *_) in steps:
        for agent, amount in paid.items():
            totals[agent] += amount
    reference = boon_v0.raw_env(**config)
    reference.reset(seed=7)
    expected = dict.fromkeys(adapter.possible_agents, 0.0)
    actions = iter(action for _, action, _ in steps)
    for agent in reference.agent_iter():
        _, reward, terminated, truncated, _ = reference.last()
        expected[agent] += reward
        reference.step(None if terminated or truncated else next(actions))
    assert totals == expected
    assert len([s for s in steps if "round" in next(iter(s[2][4].values()), {})]) >= 1


def test_observations_are_renamed_and_the_mask_is_float():
    env = BoonRLlibEnv({"num_players": 4})
    observations, _ = env.reset(seed=3)
    ((agent, seen),) = observations.items()
    assert set(seen) == {"observations", "action_mask"}
    assert seen["action_mask"].dtype == np.float32
    assert np.flatnonzero(seen["action_mask"]).tolist() == [32, 33]  # pick or pass
    assert env.observation_spaces[agent].contains(seen)
    assert isinstance(env.action_spaces[agent], spaces.Discrete)


def test_bad_actions_raise_and_leave_the_episode_unchanged():
    env = BoonRLlibEnv({"num_players": 4})
    observations, _ = env.reset(seed=3)
    ((agent, _),) = observations.items()
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match=agent):
        env.step({other: 33})
    with pytest.raises(ValueError):
        env.step({agent: 0})  # a card, but the first decision is pick or pass
    _, rewards, *_ = env.step({agent: 33})  # the legal pass still works
    assert set(rewards) != {agent}
    with pytest.raises(ValueError, match="reward"):
        BoonRLlibEnv({"reward": "points"})


class _MaskedSampling(BoonRLlibEnv):
    """RLlib's check steps with ``action_space.sample()``; here the sample obeys the mask."""

    def get_action_space(self, agent_id):
        mask = self.env.observe(agent_id)["action_mask"]
        space = spaces.Discrete(int(mask.shape[0]))
        space.sample = lambda mask=mask: int(np.flatnonzero(mask)[0])
        return space


@pytest.mark.parametrize("num_players", PLAYERS)
def test_the_adapter_passes_rllibs_env_checks_where_they_apply(num_players):
    check_multiagent_environments(_MaskedSampling({"num_players": num_players}))
    # Unmasked, the check samples illegal actions, which the rules refuse: why training turns
    # it off (disable_env_checking=True).
    unmasked = BoonRLlibEnv({"num_players": num_players})
    unmasked.action_spaces = {a: spaces.Discrete(34, start=0) for a in unmasked.possible_agents}
    for space in unmasked.action_spaces.values():
        space.seed(0)
        space.sample = lambda: 0  # a card: illegal for the pick-or-pass first decision
    with pytest.raises(ValueError, match="step"):
        check_multiagent_environments(unmasked)


# ------------------------------------------------------------------------------ the league
class _Episode:
    def __init__(self, id_: str) -> None:
        self.id_ = id_


@pytest.mark.parametrize("policies", ["shared", "per-seat"])
def test_the_league_puts_the_learner_in_exactly_one_seat(policies):
    learners = ("learner",) if policies == "shared" else tuple(f"learner_{s}" for s in range(4))
    mapping = LeagueMapping(learners, ("snapshot_0", "snapshot_1"), 4, heuristic_share=0.5)
    learner_seats, opponents = [], []
    for k in range(400):
        episode = _Episode(f"episode-{k}")
        modules = [mapping(f"player_{seat}", episode) for seat in range(4)]
        assert modules == [mapping(f"player_{seat}", episode) for seat in range(4)]
        (seat,) = [s for s, m in enumerate(modules) if m.startswith("learner")]
        assert modules[seat] == learners[seat % len(learners)]
        learner_seats.append(seat)
        opponents += [m for m in modules if not m.startswith("learner")]
    assert set(learner_seats) == {0, 1, 2, 3}
    assert set(opponents) == {"heuristic", "snapshot_0", "snapshot_1"}
    assert 0.4 < opponents.count("heuristic") / len(opponents) < 0.6


def test_the_heuristic_module_plays_the_heuristic_agent():
    env = BoonRLlibEnv({"num_players": 4})
    module = HeuristicRLModule(
        observation_space=env.observation_spaces["player_0"],
        action_space=env.action_spaces["player_0"],
    )
    player, rng = HeuristicAgent(), np.random.default_rng(0)
    observations, _ = env.reset(seed=5)
    for _ in range(30):
        ((agent, seen),) = observations.items()
        batch = {"obs": {key: value[None] for key, value in seen.items()}}
        (action,) = module.forward_inference(batch)["actions"]
        assert action == player.act(seen["observations"], seen["action_mask"].astype(np.int8))
        observations, *_ = env.step({agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))})


def test_round_metrics_turn_sums_into_rates():
    # The round value per round, and every figure the game counts as a rate (Boon's here).
    counts = {
        "rounds": 10.0,
        "learner_value": 5.0,
        "pick": 8.0,
        "learner_pick": 3.0,
        "leaster": 2.0,
    }
    figures = round_metrics({"env_runners": {"league": counts}}, "vc")
    assert figures == {
        "rounds": 10.0,
        "learner_vc_per_round": 0.5,
        "pick_rate": 0.8,
        "learner_pick_rate": 0.3,
        "leaster_rate": 0.2,
    }
    assert round_metrics({"env_runners": {}}) == {}


def test_only_the_rllib_modules_import_ray():
    # agents/training/rllib/, a game's RLlib part (agents/games/<game>/rllib.py) and the rllib:
    # player (agents/players/rllib_agent.py)
    for path in [*sorted((ROOT / "agents").rglob("*.py")), ROOT / "train.py"]:
        if "rllib" in path.relative_to(ROOT).parts or path.stem in ("rllib_agent", "rllib"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n == "ray" or n.startswith("ray.") for n in names), path


# ------------------------------------------------------------------------- train_rllib.py
def _run(*command: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python COMMAND...`` in a subprocess, its output captured."""
    return subprocess.run(
        [sys.executable, *command], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def _arena(*specs: str, deals: int) -> subprocess.CompletedProcess[str]:
    """``boon arena --agents SPECS --deals DEALS`` in a subprocess."""
    return _run("-m", "agents.cli", "arena", "--agents", *specs, "--deals", str(deals))


@pytest.fixture(scope="module")
def ray_session() -> Iterator[None]:
    """One local Ray for the in-process runs of this module (starting Ray takes seconds)."""
    ray.init(include_dashboard=False, logging_level="ERROR", num_cpus=1)
    yield
    ray.shutdown()


def _train_here(tmp_path: Path, *flags: str) -> Path:
    """``train_rllib.py`` with the TINY flags, in this process (sharing ``ray_session``)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = _script()
    command = [*TINY, "--runs-dir", str(tmp_path), "--out", str(tmp_path / "checkpoint"), *flags]
    args = tyro.cli(script.Args, args=command)
    script.check_args(args)
    return script.main(args)


def _script() -> ModuleType:
    """``train_rllib.py`` as a module (it is a top-level script, not part of the package)."""
    if "train_rllib" not in sys.modules:
        spec = importlib.util.spec_from_file_location("train_rllib", ROOT / "train_rllib.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["train_rllib"] = module  # dataclasses look their module up here
        spec.loader.exec_module(module)
    return sys.modules["train_rllib"]


# Building a second algorithm re-registers RLlib's env wrapper with gymnasium.
RE_REGISTER = "ignore:.*Overriding environment rllib-single-agent-env:UserWarning"


@pytest.mark.filterwarnings(RE_REGISTER)
@pytest.mark.parametrize("num_players", PLAYERS)
def test_a_tiny_run_writes_a_checkpoint_and_a_player_file_that_play_legally(
    ray_session, tmp_path, num_players
):
    model = tmp_path / "model"
    out = _train_here(tmp_path, "--num-players", str(num_players), "--model-path", str(model))
    meta = json.loads((out / META_FILE).read_text())
    assert meta["num_players"] == num_players and meta["iteration"] == 1
    (summary,) = tmp_path.glob("*/summary.json")
    last = json.loads(summary.read_text())["last_iteration"]
    assert last["rounds"] > 0 and -20 < last["learner_vc_per_round"] < 20
    # The arena raises on any illegal action, so finishing is legal play; the exported file
    # is the checkpoint's actor, so it makes the same choices.
    checkpoint = run_arena([f"rllib:{out}"] + ["random"] * (num_players - 1), 5, seed=1)
    exported = run_arena([f"ppo:{model}.npz"] + ["random"] * (num_players - 1), 5, seed=1)
    assert checkpoint.deals == 5
    assert checkpoint.to_json()["results"][0]["mean_victory_cards"] == pytest.approx(
        exported.to_json()["results"][0]["mean_victory_cards"]
    )


@pytest.mark.filterwarnings(RE_REGISTER)
def test_resume_continues_from_the_checkpoint_and_its_league(ray_session, tmp_path):
    every = ("--snapshot-every", "1")  # every iteration refreshes a snapshot
    # (RLlib takes a learning-rate schedule as points: LearningRate.points)
    first = _train_here(tmp_path / "a", *every, "--lr-schedule", "linear")
    assert json.loads((first / META_FILE).read_text())["snapshots_taken"] == 1
    assert (first / "league" / "snapshot_0.npz").is_file()
    resumed = _train_here(tmp_path / "b", *every, "--resume", str(first), "--iterations", "2")
    meta = json.loads((resumed / META_FILE).read_text())
    assert meta["iteration"] == 2 and meta["snapshots_taken"] == 2
    # A checkpoint rewritten in place (as training does) is played anew, not from a cache.
    before = make_agent(f"rllib:{first}").module
    _train_here(tmp_path / "a", *every, "--resume", str(first), "--iterations", "2")
    assert make_agent(f"rllib:{first}").module is not before
    with pytest.raises(ValueError, match="num_players=4, not 3"):
        _train_here(tmp_path / "c", "--resume", str(first), "--num-players", "3")


def test_the_command_line_run_plays_in_boon_arena_and_boon_play(tmp_path):
    out = tmp_path / "checkpoint"
    # One remote env runner: the path a cluster takes; no deprecation warning on the way.
    command = [str(ROOT / "train_rllib.py"), "--num-players", "4", *TINY]
    command += ["--num-env-runners", "1", "--runs-dir", str(tmp_path), "--out", str(out)]
    result = _run("-W", "error::DeprecationWarning", *command, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Deprecat" not in result.stdout + result.stderr
    result = _arena(f"rllib:{out}", "random", "random", "random", deals=20)
    assert result.returncode == 0, result.stderr
    assert f"rllib:{out}" in result.stdout
    # A person plays a round against it (always the first legal move).
    play = ["-m", "agents.cli", "play", "--opponents", f"rllib:{out}", "--rounds", "1"]
    result = subprocess.run(
        [sys.executable, *play], input="1\n" * 40, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "Round over." in result.stdout


# ---------------------------------------------------------------------------- the rllib: spec
def test_a_missing_checkpoint_is_a_one_line_error_naming_it(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(ModelFileError, match="nowhere"):
        make_agent(f"rllib:{missing}")
    result = _arena(f"rllib:{missing}", "random", "random", "random", deals=2)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and str(missing) in result.stderr
    result = _run(str(ROOT / "train_rllib.py"), "--resume", str(missing))
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1 and str(missing) in result.stderr


@pytest.mark.parametrize(
    "meta", ["{not json", json.dumps({"num_players": 4}), json.dumps({"learners": []})]
)
def test_a_corrupt_checkpoint_is_an_error_naming_it(tmp_path, meta):
    (tmp_path / META_FILE).write_text(meta)
    with pytest.raises(ModelFileError, match=str(tmp_path)) as error:
        make_agent(f"rllib:{tmp_path}")
    assert "\n" not in str(error.value)


def test_a_checkpoint_without_module_files_is_an_error_naming_it(tmp_path):
    meta = {"num_players": 4, "learners": ["learner"]}
    (tmp_path / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(ModelFileError, match=str(tmp_path)) as error:
        make_agent(f"rllib:{tmp_path}")
    assert "\n" not in str(error.value)
    with pytest.raises(ModelFileError, match="trained for 4 players"):
        make_agent(f"rllib:{tmp_path}", num_players=3)
