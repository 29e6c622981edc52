"""Smoke tests of ``train.py``: it runs end to end in a subprocess with tiny budgets, its model
loads in the arena, it resumes from a checkpoint, and it serves 3 and 5 players."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from agents.eval.arena import run_arena
from agents.players.policy import NumpyPolicy, load_policy
from agents.specs import make_agent
from boon_env.games.boon.encoding import OBS_SIZE
from boon_env.games.boon.rules import PASS
from tests.helpers.training import TINY

ROOT = Path(__file__).resolve().parents[2]


def _train(tmp_path: Path, *flags: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    runs = tmp_path / "runs"
    tmp_path.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        [sys.executable, str(ROOT / "train.py"), *TINY, "--runs-dir", str(runs), *flags],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (run_dir,) = [p for p in runs.iterdir() if p.is_dir() and (p / "summary.json").exists()]
    return result, run_dir


def _refused(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    # A tiny run expected to stop before training: its output, for the error checks.
    return subprocess.run(
        [sys.executable, str(ROOT / "train.py"), *TINY, "--runs-dir", str(tmp_path / "runs"),
         *flags],
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip


def test_train_runs_and_its_model_plays_in_the_arena(tmp_path: Path) -> None:
    result, run_dir = _train(
        tmp_path, "--total-timesteps", "512", "--arena-deals", "2", "--arena-opponents", "random"
    )
    model = run_dir / "model.npz"
    assert model.is_file() and model.with_suffix(".json").is_file()
    assert (run_dir / "model.zip").is_file(), "the whole learner is kept to resume from"
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["learner_decisions"] == 512
    assert "vs_heur=" in result.stdout, "the periodic evaluation line is printed"
    assert "ppo:" in result.stdout and "random" in result.stdout, "the arena table is printed"
    assert list((run_dir / "checkpoints").glob("model_*.zip"))
    assert list(run_dir.rglob("events.out.tfevents.*")), "TensorBoard scalars are written"
    report = run_arena([f"ppo:{model}", "heuristic", "heuristic", "heuristic"], deals=2)
    assert report.results[0].agent == f"ppo:{model}"


def test_resume_continues_from_a_checkpoint(tmp_path: Path) -> None:
    # The resumed run plays its tables in two processes, its PPO update on two threads.
    _, first = _train(tmp_path / "a", "--total-timesteps", "256", "--arena-deals", "0")
    checkpoint = first / "checkpoints" / "model_256.zip"
    assert checkpoint.is_file()
    pool = first / "checkpoints" / "model_256_pool"
    assert sorted(p.name for p in pool.iterdir())[:2] == ["snapshot_0.json", "snapshot_0.npz"]
    assert not list(first.rglob("*.pkl")), "nothing is pickled but SB3's own checkpoint"
    _, second = _train(
        tmp_path / "b",
        "--total-timesteps",
        "512",
        "--arena-deals",
        "0",
        "--resume",
        str(checkpoint),
        "--rollout-workers",
        "2",
        "--update-threads",
        "2",
    )
    summary = json.loads((second / "summary.json").read_text())
    assert summary["learner_decisions"] == 512
    assert summary["trained_decisions_this_run"] == 256
    # The screens go on against the first run's start policy, from its best screen.
    start = [np.load(run / "checkpoints" / "screen_start.npz") for run in (first, second)]
    assert all(np.array_equal(start[0][k], start[1][k]) for k in start[0].files)
    first_best = json.loads((first / "summary.json").read_text())["screen"]["score"]
    assert summary["screen"]["score"] >= first_best


def test_the_model_is_the_best_screened_policy(tmp_path: Path) -> None:
    result, run_dir = _train(
        tmp_path, "--total-timesteps", "1024", "--arena-deals", "0", "--lr-schedule", "linear"
    )
    summary = json.loads((run_dir / "summary.json").read_text())
    screens = summary["screens"]
    # every 256 decisions, and the policy after the last update
    assert [s["timesteps"] for s in screens] == [256, 512, 768, 1024, 1024]
    assert result.stdout.count("screen at ") == 5, "every screen is a line of the log"
    best = max(screens, key=lambda s: s["score"])
    assert summary["screen"] == best
    model = np.load(run_dir / "model.npz")
    kept = np.load(run_dir / "checkpoints" / "screen_best.npz")
    assert all(np.array_equal(model[k], kept[k]) for k in model.files)
    meta = json.loads((run_dir / "model.json").read_text())
    assert meta["provenance"]["screen"] == best, "the model's JSON has its screen"
    from sb3_contrib import MaskablePPO

    learner = MaskablePPO.load(run_dir / "model.zip", device="cpu")
    assert learner.lr_schedule(1.0) == pytest.approx(2e-4)  # the default --learning-rate
    assert learner.lr_schedule(0.0) == pytest.approx(2e-5)  # --lr-final 0.1 of it


def test_a_run_learns_from_its_search_teacher(tmp_path: Path) -> None:
    result, run_dir = _train(
        tmp_path,
        *("--game", "bon", "--num-players", "3", "--total-timesteps", "512"),
        *("--arena-deals", "0", "--teacher", "expert", "--teacher-rounds", "2"),
        *("--teacher-every", "256"),
    )
    iterations = json.loads((run_dir / "summary.json").read_text())["teacher"]["iterations"]
    # when learn starts, then every 256 decisions: each on the policy of its moment
    assert [i["timesteps"] for i in iterations] == [0, 256, 512]
    assert result.stdout.count("teacher at ") == 3
    for row in iterations:
        assert row["teacher/positions"] >= 2 * 21  # two whole rounds of 7 tricks at 3 seats
        assert row["teacher/cpu_seconds_per_position"] > 0
        assert 0 <= row["teacher/agreement"] <= 1
    searched = sorted(p.name for p in (run_dir / "teacher").glob("policy_*.npz"))
    assert searched == ["policy_0.npz", "policy_256.npz", "policy_512.npz"]


@pytest.mark.parametrize("num_players", [3, 5])
def test_train_other_table_sizes(tmp_path: Path, num_players: int) -> None:
    _, run_dir = _train(
        tmp_path,
        "--num-players",
        str(num_players),
        "--total-timesteps",
        "256",
        "--arena-deals",
        "1",
        "--arena-opponents",
        "heuristic",
    )
    model = run_dir / "model.npz"
    specs = [f"ppo:{model}"] + ["random"] * (num_players - 1)
    assert run_arena(specs, deals=1).num_players == num_players
    other = 4 if num_players != 4 else 3
    with pytest.raises(ValueError, match=f"{num_players}-player model.*{other} players"):
        run_arena([f"ppo:{model}"] + ["random"] * (other - 1), deals=1)


def test_init_from_starts_the_actor_as_the_given_player(tmp_path: Path) -> None:
    _, first = _train(tmp_path / "a", "--total-timesteps", "128", "--arena-deals", "0")
    player = first / "model.npz"
    # With a zero learning rate PPO changes nothing: the saved actor is the one loaded.
    result, second = _train(
        tmp_path / "b",
        "--total-timesteps", "128",
        "--arena-deals", "0",
        "--init-from", str(player),
        "--learning-rate", "0",
    )  # fmt: skip
    assert "critic fitted on" in result.stdout
    before, after = load_policy(player)[0], load_policy(second / "model.npz")[0]
    for a, b in zip(before.weights + before.biases, after.weights + after.biases, strict=True):
        np.testing.assert_array_equal(a, b)
    mismatch = _refused(tmp_path, "--init-from", str(player), "--net-arch", "16,16")
    assert mismatch.returncode != 0 and "Traceback" not in mismatch.stderr
    assert "hidden layers [32, 32], --net-arch is 16,16" in mismatch.stderr


def test_copy_to_sb3_is_the_inverse_of_from_sb3() -> None:
    from sb3_contrib import MaskablePPO

    from agents.training.selfplay import SelfPlayVecEnv

    envs = SelfPlayVecEnv(num_envs=2, num_players=4, pool_weights="random=1", seed=0)
    model = MaskablePPO("MlpPolicy", envs, policy_kwargs={"net_arch": [8]}, device="cpu")
    rng = np.random.default_rng(0)
    weights = [rng.normal(size=s).astype(np.float32) for s in ((OBS_SIZE, 8), (8, 34))]
    biases = [rng.normal(size=s).astype(np.float32) for s in (8, 34)]
    policy = NumpyPolicy(weights, biases, "tanh")
    policy.copy_to_sb3(model.policy)
    copied = NumpyPolicy.from_sb3(model.policy)
    for a, b in zip(policy.weights + policy.biases, copied.weights + copied.biases, strict=True):
        np.testing.assert_array_equal(a, b)
    deeper = NumpyPolicy(
        [weights[0], np.zeros((8, 8), np.float32), weights[1]],
        [biases[0], np.zeros(8, np.float32), biases[1]],
    )
    with pytest.raises(ValueError, match=r"layers \[482, 8, 8, 34\].*has \[482, 8, 34\]"):
        deeper.copy_to_sb3(model.policy)
    envs.close()


def test_help_lists_every_flag_with_help() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "train.py"), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0
    # tyro takes each flag's help from the docstring under its field: every field has one,
    # train.py's own, the PPO settings it shares with train_rllib.py, and each game's flags.
    from agents.registry import GAMES
    from agents.training.ppo import PPOSettings
    from agents.training.recipe import recipe_of
    from agents.training.trainer import Args

    own = [recipe_of(spec).flags for spec in GAMES.values() if spec.training]
    fields = []
    for cls in (Args, PPOSettings, *filter(None, own)):
        (tree,) = ast.parse(textwrap.dedent(inspect.getsource(cls))).body
        body = tree.body
        fields += [
            (body, i, stmt.target.id)
            for i, stmt in enumerate(body)
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
        ]
    assert len(fields) > 30
    for body, i, name in fields:
        if name == "options":  # the game's flags, not a flag
            continue
        assert "--" + name.replace("_", "-") in result.stdout
        doc = body[i + 1] if i + 1 < len(body) else None
        assert isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant), name
        assert doc.value.value.strip(), f"{name} has no help text"
    assert "boon options" in result.stdout and "boyn options" in result.stdout


def test_a_bad_flag_value_is_one_line() -> None:
    for flags in (
        ["--num-players", "6"],
        ["--pool-weights", "self=x"],
        ["--net-arch", "a,b"],
        ["--rollout-workers", "0"],
        ["--update-threads", "0"],
        ["--torch-threads", "-1"],
        ["--screen-deals", "1"],
        ["--patience", "-1"],
        ["--lr-final", "2"],
        ["--learning-rate", "-1"],
        ["--teacher", "heuristic"],
        ["--teacher", "expert:model=x.npz"],
        ["--teacher", "expert", "--teacher-rounds", "0"],
    ):
        result = subprocess.run(
            [sys.executable, str(ROOT / "train.py"), *flags],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode != 0, flags
        assert "Traceback" not in result.stderr, flags


def test_missing_or_corrupt_model_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.zip"
    with pytest.raises(ValueError, match=r"nope\.zip"):
        make_agent(f"ppo:{missing}")
    corrupt = tmp_path / "corrupt.zip"
    corrupt.write_bytes(b"this is not a model")
    with pytest.raises(ValueError, match=r"corrupt\.zip"):
        make_agent(f"ppo:{corrupt}")


@pytest.mark.parametrize("content", [None, b"not a zip file"])
def test_resume_from_a_missing_or_corrupt_file_is_a_clear_error(
    tmp_path: Path, content: bytes | None
) -> None:
    checkpoint = tmp_path / "broken.zip"
    if content is not None:
        checkpoint.write_bytes(content)
    result = _refused(tmp_path, "--resume", str(checkpoint), "--arena-deals", "0")
    assert result.returncode != 0
    assert "train.py: error:" in result.stderr and "broken.zip" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_the_shipped_model_loads_and_plays(num_players: int) -> None:
    from agents.players.trained import default_model

    model = default_model(num_players)
    assert model.name == f"boon_ppo_{num_players}p.npz", "a model ships for each table size"
    assert model.stat().st_size < 5_000_000, "a few MB at most"
    assert load_policy(model, num_players)[1]["provenance"]["arena"]["vs_heuristic"]
    report = run_arena(["ppo"] + ["heuristic"] * (num_players - 1), deals=3, seed=1)
    assert report.results[0].agent == "ppo" and report.num_players == num_players


def test_imitation_data_of_a_teacher_records_its_choices() -> None:
    # Any player teaches Boon's warm start: a heuristic that picks every hand labels every
    # decision with its own choice (so its data differs from the default heuristic's).
    from agents.registry import game_spec
    from agents.training.imitation import imitation_data

    teacher = make_agent("heuristic:pick_threshold_3p=-99", num_players=3)
    data = imitation_data(game_spec("boon"), 3, 6, seed=5, explore=0.0, teacher=teacher)
    assert data.masks[np.arange(len(data.actions)), data.actions].all(), "only legal labels"
    for row in range(len(data.actions)):
        mask = data.masks[row].astype(np.int8)
        assert teacher.act(data.observations[row], mask) == data.actions[row]
    default = imitation_data(game_spec("boon"), 3, 6, seed=5, explore=0.0)
    assert not (data.actions == PASS).any() and (default.actions == PASS).any()


def test_bc_teacher_warms_up_on_the_teachers_decisions(tmp_path: Path) -> None:
    result, _ = _train(
        tmp_path,
        "--total-timesteps", "128",
        "--arena-deals", "0",
        "--bc-teacher", "search:samples=2",
    )  # fmt: skip
    assert "imitation warm start on" in result.stdout
    for flags, message in (
        (["--bc-teacher", "nobody"], "unknown agent kind 'nobody'"),
        (["--bc-teacher", "search", "--bc-rounds", "0"], "--bc-rounds >= 1"),
        (["--bc-teacher", "search", "--init-from", "x.npz"], "cannot be combined with --init-from"),
    ):
        refused = _refused(tmp_path, *flags)
        assert refused.returncode != 0 and "Traceback" not in refused.stderr, refused.stderr
        assert message in refused.stderr
