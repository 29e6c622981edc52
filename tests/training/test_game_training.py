"""Training B.O.N and BOYN players: the raw-env self-play VecEnv, game-aware model files, the
``ppo`` spec of each game and ``train.py --game`` end to end at tiny sizes."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.eval.arena import run_arena
from agents.games import GAMES
from agents.games import game_spec as training_game
from agents.players.policy import ModelFileError, NumpyPolicy, load_policy, save_policy
from agents.players.trained import MODELS_DIR
from agents.specs import make_agent
from agents.training.imitation import table_imitation_data
from agents.training.selfplay import HEURISTIC, LEARNER, RANDOM
from agents.training.table_selfplay import TableSelfPlayVecEnv, round_over
from tests.helpers.training import TINY

ROOT = Path(__file__).resolve().parents[2]
TABLE_GAMES = ("bon", "boyn")


def _random_policy(game: str, seed: int = 0) -> NumpyPolicy:
    g = training_game(game)
    rng = np.random.default_rng(seed)
    sizes = [g.obs_size, 16, g.num_actions]
    weights = [rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    return NumpyPolicy(weights, [np.zeros(b, np.float32) for b in sizes[1:]])


def _learner_actions(env: TableSelfPlayVecEnv, rng: np.random.Generator) -> np.ndarray:
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (env.num_envs, env.game.num_actions)
    assert masks.any(axis=1).all(), "every learner is asked only when it has a legal action"
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_the_learner_acts_at_its_seat_and_is_paid_its_round_value(game: str) -> None:
    env = TableSelfPlayVecEnv(training_game(game), 6, 4, "heuristic=0.5,random=0.5", seed=2)
    env.set_snapshots([])
    rng = np.random.default_rng(0)
    obs = env.reset()
    assert obs.shape == (6, env.game.obs_size)
    rounds = 0
    for _ in range(150):
        for row, table in enumerate(env.tables):
            # The table waits for the learner, and shows it what the learner's seat sees.
            assert table.possible_agents.index(table.agent_selection) == env.seats[row]
            seen = table.observe(table.agent_selection)
            assert np.array_equal(obs[row], seen["observation"])
            assert np.array_equal(env.action_masks()[row], seen["action_mask"] != 0)
        obs, rewards, dones, infos = env.step(_learner_actions(env, rng))
        assert not rewards[~dones].any(), "only finished rounds pay"
        assert all(not info for info, done in zip(infos, dones, strict=True) if not done)
        for row in np.flatnonzero(dones):
            rounds += 1
            record = infos[row]["round"]
            assert not infos[row]["TimeLimit.truncated"]
            assert rewards[row] == pytest.approx(record["value"] * env.game.reward_scale)
            assert len(record["opponents"]) == 3
    assert rounds > 0


def test_the_bon_reward_is_the_learners_points_of_the_round() -> None:
    # The learner's record is its own seat's: points 0, 1 or 2 and goal/tricks agree.
    env = TableSelfPlayVecEnv(GAMES["bon"], 8, 4, "random=1", seed=5)
    rng = np.random.default_rng(1)
    env.reset()
    seen = set()
    for _ in range(40):
        _, rewards, dones, infos = env.step(_learner_actions(env, rng))
        for row in np.flatnonzero(dones):
            record = infos[row]["round"]
            expected = 1 if record["goal"] else 2 if record["tricks"] == 0 else 0
            assert rewards[row] == record["value"] == expected
            seen.add(expected)
    assert {0, 1} <= seen


def test_round_ends_are_reported_whoever_plays_the_last_card() -> None:
    # The learner is rewarded for its own seat even when an opponent ends the round.
    game = GAMES["bon"]
    env = TableSelfPlayVecEnv(game, 16, 3, "heuristic=1", seed=7)
    rng = np.random.default_rng(2)
    env.reset()
    total = 0
    for _ in range(30):
        tables_before = [t.game.round for t in env.tables]
        seats = env.seats.copy()
        _, _, dones, infos = env.step(_learner_actions(env, rng))
        for row in np.flatnonzero(dones):
            points = tables_before[row].tricks_won  # the finished round's record, by seat
            assert infos[row]["round"]["tricks"] == points[seats[row]]
            total += 1
    assert total >= 16


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_opponents_play_legally_for_every_kind_of_player(game: str) -> None:
    # raw_env raises on an illegal action: heuristic, random and snapshot seats all play.
    env = TableSelfPlayVecEnv(training_game(game), 6, 4, "self=0.4,heuristic=0.3,random=0.3")
    env.set_snapshots([_random_policy(game, 1), _random_policy(game, 2)])
    env.seed(3)
    env.reset()
    kinds = set()
    rng = np.random.default_rng(3)
    for _ in range(80):
        kinds.update(int(c) for c in np.unique(env.players))
        env.step(_learner_actions(env, rng))
    assert {LEARNER, HEURISTIC, RANDOM, 0, 1} <= kinds


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_seed_gives_the_same_tables(game: str) -> None:
    def run() -> list[np.ndarray]:
        env = TableSelfPlayVecEnv(training_game(game), 4, 4, "heuristic=0.5,random=0.5", seed=9)
        rng = np.random.default_rng(0)
        out = [env.reset()]
        for _ in range(20):
            obs, rewards, _, _ = env.step(_learner_actions(env, rng))
            out += [obs, rewards]
        return out

    for a, b in zip(run(), run(), strict=True):
        assert np.array_equal(a, b)


def test_a_boyn_round_cut_short_is_worth_nothing() -> None:
    env = TableSelfPlayVecEnv(GAMES["boyn"], 4, 4, "random=1", seed=4, env_config={"max_turns": 6})
    rng = np.random.default_rng(0)
    env.reset()
    cut = 0
    for _ in range(30):
        _, rewards, dones, infos = env.step(_learner_actions(env, rng))
        for row in np.flatnonzero(dones):
            if infos[row]["round"]["truncated"]:
                cut += 1
                assert rewards[row] == 0.0
    assert cut > 0


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_imitation_data_records_the_heuristics_legal_choices(game: str) -> None:
    data = table_imitation_data(training_game(game), 4, 3, seed=1, explore=0.0)
    assert data.observations.shape == (len(data.actions), training_game(game).obs_size)
    assert data.masks[np.arange(len(data.actions)), data.actions].all(), "only legal labels"
    # Every round's returns sum like the game's values: B.O.N points are >= 0.
    if game == "bon":
        assert set(np.unique(data.returns)) <= {0.0, 1.0, 2.0}


def test_round_over_reads_the_raw_env() -> None:
    table = GAMES["bon"].arena.raw_env(num_players=3)
    table.reset(seed=0)
    assert not round_over(table)
    while not round_over(table):
        table.step(int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))
    assert table.infos["player_0"]["round"]


# ----------------------------------------------------------------------------- model files
@pytest.mark.parametrize("game", TABLE_GAMES)
def test_a_model_file_records_its_game_and_refuses_another(tmp_path: Path, game: str) -> None:
    path = save_policy(tmp_path / "m", _random_policy(game), 4, {"note": "test"}, game)
    _, meta = load_policy(path, 4, game)
    assert meta["game"] == game and meta["num_actions"] == training_game(game).num_actions
    for other in {"boon", "bon", "boyn"} - {game}:
        with pytest.raises(ModelFileError, match=f"is a {game} model, but the game is {other}"):
            load_policy(path, 4, other)
        with pytest.raises(ValueError, match=f"{game} model"):
            make_agent(f"ppo:{path}", num_players=4, game=other)


def test_a_boon_model_is_refused_by_the_other_games() -> None:
    with pytest.raises(ModelFileError, match="is a boon model, but the game is bon"):
        make_agent(f"ppo:{MODELS_DIR / 'boon_ppo_4p.npz'}", num_players=4, game="bon")


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_ppo_spec_plays_a_model_file_of_the_game(tmp_path: Path, game: str) -> None:
    path = save_policy(tmp_path / "m", _random_policy(game), 4, None, game)
    report = run_arena([f"ppo:{path}", "heuristic", "random", "heuristic"], 2, seed=1, game=game)
    assert report.results[0].agent == f"ppo:{path}"


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_bare_ppo_is_the_shipped_model_or_a_one_line_error_naming_it(game: str) -> None:
    shipped = MODELS_DIR / f"{game}_ppo_3p.npz"
    assert not shipped.exists()
    with pytest.raises(ModelFileError) as error:
        make_agent("ppo", num_players=3, game=game)
    assert str(shipped) in str(error.value) and "\n" not in str(error.value)
    if (MODELS_DIR / f"{game}_ppo_4p.npz").exists():
        assert make_agent("ppo", num_players=4, game=game).name == "ppo"


# ------------------------------------------------------------------------------- train.py
@pytest.mark.parametrize("game", TABLE_GAMES)
def test_train_game_runs_and_its_model_plays_in_the_arena(tmp_path: Path, game: str) -> None:
    runs = tmp_path / "runs"
    result = subprocess.run(
        [sys.executable, str(ROOT / "train.py"), "--game", game, *TINY, "--runs-dir", str(runs),
         "--total-timesteps", "256", "--arena-deals", "1", "--arena-opponents", "heuristic"]
        + (["--max-turns", "200"] if game == "boyn" else []),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    (run_dir,) = [p for p in runs.iterdir() if (p / "summary.json").exists()]
    assert run_dir.name.startswith(f"{game}_ppo_4p")
    assert "vs_heur=" in result.stdout, "the periodic evaluation line is printed"
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["learner_decisions"] == 256
    assert summary["command"].startswith(f"python train.py --game {game}")
    assert "heuristic" in summary["arena"]
    model = run_dir / "model.npz"
    assert json.loads(model.with_suffix(".json").read_text())["game"] == game
    pool = run_dir / "checkpoints" / "model_256_pool" / "snapshot_0.json"
    assert json.loads(pool.read_text())["game"] == game
    specs = [f"ppo:{model}", "heuristic", "heuristic", "random"]
    assert run_arena(specs, deals=1, game=game).results[0].agent == f"ppo:{model}"


@pytest.mark.parametrize(
    "flags", [["--num-players", "6"], ["--max-turns", "9"], ["--init-from", "boon.npz"]]
)
def test_train_refuses_a_table_size_or_flag_the_game_does_not_have(flags: list[str]) -> None:
    argv = [sys.executable, str(ROOT / "train.py"), "--game", "bon", *flags]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "train.py: error:" in result.stderr and "Traceback" not in result.stderr


def test_each_game_has_its_own_defaults() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from train import Args, parse_args
    finally:
        sys.path.remove(str(ROOT))
    from agents.training.recipes import BOYN

    assert parse_args([]) == Args(), "Boon's defaults are unchanged"
    boyn = parse_args(["--game", "boyn", "--seed", "3"])
    assert boyn.game == "boyn" and boyn.seed == 3
    assert boyn.max_turns == BOYN.defaults["max_turns"]
    assert parse_args(["--game", "bon", "--num-tables", "8"]).num_tables == 8
