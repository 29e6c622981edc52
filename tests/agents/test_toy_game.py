"""High Card (``tests/helpers/toy``), a game that lives only in the tests, is trained by
``train.py``, stepped by ``gymnasium.make_vec`` and played in the arena with nothing but its
package and one ``register`` call: what a new game needs (``docs/architecture.md``, "How to add
a game"). Its batch engine's bit-identity test is ``tests/rules/test_toy_vector.py``."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import gymnasium
import numpy as np
import pytest

from agents.eval.arena import run_arena
from agents.gym.vector import SingleAgentVectorEnv
from agents.players.policy import ModelFileError
from agents.registry import register, unregister
from agents.specs import make_agent
from agents.training.imitation import imitation_data
from agents.training.recipe import recipe_of
from agents.training.trainer import check_args, parse_args
from boon_env.games import env_spec
from tests.helpers.toy.spec import TOY
from tests.helpers.toy.vector import VectorToy

ROOT = Path(__file__).resolve().parents[2]
# A training run of seconds: 512 learner decisions after a warm start of 100 rounds.
TINY_RUN = [
    "--game", "toy", "--total-timesteps", "512", "--num-tables", "32", "--n-steps", "8",
    "--bc-rounds", "100", "--eval-every", "0", "--checkpoint-every", "0", "--arena-deals", "10",
    "--no-progress-bar",
]  # fmt: skip


@pytest.fixture
def toy() -> Iterator[str]:
    register(TOY)
    yield TOY.name
    unregister(TOY.name)


# ----------------------------------------------------------------------------- train.py
def test_train_py_shows_the_toys_own_flag_under_its_name(toy: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_args(["--game", toy, "--help"])
    assert exit_.value.code == 0
    help_text = capsys.readouterr().out
    group = help_text[help_text.index("toy options") :]
    assert "High Card's own flag" in group and "--teacher-explore FLOAT" in group
    assert re.search(r"--num-players INT\s.*\(default: 2\)", help_text, re.DOTALL)


def test_the_toys_flag_is_checked_and_refused_for_other_games(toy: str) -> None:
    assert parse_args(["--game", toy]).options.teacher_explore == 0.05
    args = parse_args(["--game", toy, "--teacher-explore", "0.5"])
    assert args.options.teacher_explore == 0.5
    with pytest.raises(ValueError, match=r"--teacher-explore must be in \[0, 1\], got 1.5"):
        check_args(parse_args(["--game", toy, "--teacher-explore", "1.5"]))
    with pytest.raises(ValueError, match="--teacher-explore is a flag of toy, not of bon"):
        parse_args(["--game", "bon", "--teacher-explore", "0.5"])


def test_the_toys_flag_sets_how_far_its_warm_start_strays(toy: str) -> None:
    # The recipe's warm start is the teacher's play on the batch engine, straying as the flag
    # says (its labels always the teacher's choices).
    recipe = recipe_of(TOY)
    for chance in (0.0, 1.0):
        flags = ["--game", toy, "--bc-rounds", "64", "--no-progress-bar"]
        args = parse_args([*flags, "--teacher-explore", str(chance)])
        data = recipe.imitation(args, TOY, None)
        expected = imitation_data(TOY, 2, 64, args.seed, explore=chance)
        assert np.array_equal(data.observations, expected.observations)
        assert np.array_equal(data.actions, expected.actions)
        rows = np.arange(len(data.masks))
        assert (TOY.heuristic().act_batch(None, data.masks, rows) == data.actions).all()
    assert not np.array_equal(
        imitation_data(TOY, 2, 64, 1, explore=0.0).observations,
        imitation_data(TOY, 2, 64, 1, explore=1.0).observations,
    )


# ----------------------------------------------------------------------------- make_vec
def _replay(env: gymnasium.Env, options: dict) -> tuple[list[tuple[bytes, bytes]], float]:
    # One episode of the one-table env, the learner playing its lowest card: what it saw, and
    # its reward.
    obs, _ = env.reset(seed=0, options=options)
    seen = [(obs["observation"].tobytes(), obs["action_mask"].tobytes())]
    while True:
        obs, reward, terminated, truncated, _ = env.step(int(obs["action_mask"].argmax()))
        if terminated or truncated:
            return seen, float(reward)
        seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))


def test_make_vec_steps_thousands_of_tables_as_the_one_table_env_plays_them(toy: str) -> None:
    spec = env_spec(toy)
    tables = 2048
    vec = gymnasium.make_vec(
        spec.gymnasium_id, num_envs=tables, num_players=3, opponents="heuristic"
    )
    assert isinstance(vec, SingleAgentVectorEnv) and isinstance(vec.engine, VectorToy)
    obs, info = vec.reset(seed=7)
    deals = [vec.engine.deal(t) for t in range(tables)]
    seats = info["seat"].tolist()
    assert set(seats) == {0, 1, 2}
    seen = [
        [(obs["observation"][t].tobytes(), obs["action_mask"][t].tobytes())] for t in range(tables)
    ]
    # A learner holds 2 cards: every table's episode ends at its second step.
    obs, reward, terminated, truncated, info = vec.step(obs["action_mask"].argmax(axis=1))
    assert not (terminated | truncated).any() and not reward.any()
    for t in range(tables):
        seen[t].append((obs["observation"][t].tobytes(), obs["action_mask"][t].tobytes()))
    obs, reward, terminated, truncated, info = vec.step(obs["action_mask"].argmax(axis=1))
    assert terminated.all() and not truncated.any()
    final = info["final_info"]
    assert np.allclose(final["round"]["values"].sum(axis=1), 0)  # High Card is zero-sum
    assert (final["seat"] == seats).all() and (reward == final["value"]).all()
    env = gymnasium.make(spec.gymnasium_id, num_players=3, opponents="heuristic")
    for t in range(tables):
        options = {"deal": {"hands": deals[t]["hands"]}, "leader": deals[t]["leader"]}
        replay, result = _replay(env, {**options, "seat": seats[t]})
        assert replay == seen[t], f"table {t}"
        assert result == reward[t], f"table {t}"
    for _ in range(20):  # and plays on, every table dealt again at once
        obs, reward, terminated, truncated, info = vec.step(obs["action_mask"].argmax(axis=1))
    assert vec.engine.finished.rounds.sum() >= 10 * tables


def test_the_toy_is_made_with_its_defaults(toy: str) -> None:
    spec = env_spec(toy)
    env = gymnasium.make(spec.gymnasium_id)  # the game's default table size: 2
    obs, info = env.reset(seed=0)
    assert obs["observation"].shape == (TOY.obs_size,) and info["opponents"] == ["random"]
    vec = gymnasium.make_vec(spec.gymnasium_id, num_envs=4)
    assert vec.engine.num_players == 2


# ----------------------------------------------------------------------------- nothing else
_SCRIPT = """
import json, runpy, sys
from pathlib import Path

import gymnasium, pettingzoo
from agents.registry import register
from tests.helpers.toy.spec import TOY

register(TOY)  # the game's one registry entry: everything below only asks the registry

out = Path(sys.argv[1])
sys.argv = ["train.py", *sys.argv[2:]]
runpy.run_path("train.py", run_name="__main__")

from agents.cli.commands import main
player = f"ppo:{out / 'toy.npz'}"
arena = ["arena", "--game", "toy", "--agents", player, "heuristic", "--deals", "20",
         "--workers", "2", "--json"]
assert main(arena) == 0

vec = gymnasium.make_vec("boon_env/HighCard-v0", num_envs=256, opponents=player)
obs, _ = vec.reset(seed=0)
ended = 0
for _ in range(6):
    obs, reward, terminated, truncated, _ = vec.step(obs["action_mask"].argmax(axis=1))
    ended += int(terminated.sum())
env = pettingzoo.make("aec", "boon/toy-v0")
env.reset(seed=0)
print(json.dumps({"ended": ended, "agents": env.agents}))
"""


@pytest.fixture(scope="module")
def fresh_process(tmp_path_factory) -> tuple[Path, list[str]]:
    """The script above in a fresh process: one register() call, then train.py (its rollouts
    in two processes, the worker's opponent built by name), boon arena (in two worker
    processes), make_vec and PettingZoo, untouched. The run's directory and its output lines.
    """
    out = tmp_path_factory.mktemp("toy_run")
    train_flags = [
        *TINY_RUN, "--runs-dir", str(out), "--model-path", str(out / "toy"),
        "--rollout-workers", "2", "--arena-workers", "1", "--teacher-explore", "0.1",
        "--pool-weights", "opponent=0.5,random=0.5", "--opponent", "heuristic",
    ]  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(out), *train_flags],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return out, result.stdout.strip().splitlines()


def test_registering_the_toy_is_all_a_new_game_needs(fresh_process) -> None:
    out, lines = fresh_process
    arena = json.loads(next(line for line in lines if line.startswith('{"num_players"')))
    assert (arena["num_players"], arena["deals"]) == (2, 20)
    assert [r["agent"] for r in arena["results"]] == [f"ppo:{out / 'toy.npz'}", "heuristic"]
    # make_vec: 3 rounds of 2 learner steps at each of 256 tables; PettingZoo: 2 seats.
    assert json.loads(lines[-1]) == {"ended": 3 * 256, "agents": ["player_0", "player_1"]}


def test_train_py_trains_the_toy_and_its_model_loads_and_plays(toy: str, fresh_process) -> None:
    out, _ = fresh_process
    player = out / "toy.npz"
    assert player.is_file() and (out / "toy.zip").is_file()
    (run,) = out.glob("toy_ppo_2p_s1_*")
    summary = json.loads((run / "summary.json").read_text())
    assert summary["learner_decisions"] == 512
    assert summary["command"].startswith("python train.py --game toy ")
    assert "--teacher-explore 0.1" in summary["command"]
    assert summary["final_tricks_per_round"] is not None
    assert set(summary["arena"]) == {"random", "heuristic"}
    assert json.loads((run / "args.json").read_text())["options"] == {"teacher_explore": 0.1}
    # The model is a player of the toy at 2 seats, and only there; it plays legal cards.
    assert make_agent(f"ppo:{player}", num_players=2, game=toy).name == f"ppo:{player}"
    with pytest.raises(ModelFileError, match="a 2-player model, but the table has 3 players"):
        make_agent(f"ppo:{player}", num_players=3, game=toy)
    report = run_arena([f"ppo:{player}", "random"], deals=30, seed=2, game=toy)
    trained, random = report.results
    assert trained.mean_value == pytest.approx(-random.mean_value)  # zero-sum, deal by deal


def _tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files"], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.split()
    return [ROOT / name for name in listed]


def test_nothing_outside_the_toys_package_and_the_tests_names_it() -> None:
    # The project (library, application, scripts, notebooks, configuration) never names the
    # toy: adding it took its package and a register() call in the tests that use it. Only
    # the docs point at it, as the worked example of a new game.
    naming = re.compile(r"\btoy\b|High ?Card|VectorToy|tests\.helpers")
    named = []
    for path in _tracked_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(("tests/", "docs/")) or relative == "CHANGELOG.md":
            continue
        if not path.is_file() or path.suffix in {".npz", ".png", ".zip"}:
            continue
        text = path.read_text(errors="replace")
        named += [f"{relative}: {m.group()}" for m in naming.finditer(text)]
    assert named == []


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_the_toy_imports_only_the_generic_code_and_its_library_part_no_agents() -> None:
    # Like every game's packages: no other game, and its rules, encoding, config, env and
    # batch engine (the library part) nothing of the application above them.
    other_games = re.compile(r"^(boon_env\.games\.|agents\.games\.)(boon|bon|boyn)\b|_v0$")
    library_part = {"rules", "encoding", "config", "env", "vector"}
    package = ROOT / "tests" / "helpers" / "toy"
    files = sorted(package.rglob("*.py"))
    assert {p.relative_to(package).parts[0].removesuffix(".py") for p in files} >= library_part
    for path in files:
        module = path.relative_to(package).parts[0].removesuffix(".py")
        for imported in _imports(path):
            assert not other_games.search(imported), f"{path} imports {imported}"
            if module in library_part:
                assert imported.split(".")[0] not in ("agents", "train", "torch"), (
                    f"{path} imports {imported}"
                )
