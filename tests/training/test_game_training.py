"""Training B.O.N and BOYN players: the self-play VecEnv over their batch engines, game-aware
model files, the ``ppo`` spec of each game and ``train.py --game`` end to end at tiny sizes."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.eval.arena import run_arena
from agents.games.bon.training import round_info as bon_round_info
from agents.games.boyn.training import round_info as boyn_round_info
from agents.players.policy import ModelFileError, NumpyPolicy, load_policy, save_policy
from agents.players.trained import MODELS_DIR, PolicyAgent
from agents.registry import game_spec as training_game
from agents.specs import make_agent
from agents.training.imitation import imitation_data
from agents.training.selfplay import HEURISTIC, LEARNER, RANDOM, SelfPlayVecEnv
from tests.helpers.training import TINY

ROOT = Path(__file__).resolve().parents[2]
TABLE_GAMES = ("bon", "boyn")
ROUND_INFO = {"bon": bon_round_info, "boyn": boyn_round_info}


def _env(game: str, num_envs: int, pool: str, seed: int | None = None, **config: Any):
    return SelfPlayVecEnv(
        num_envs,
        4,
        pool,
        seed,
        game=training_game(game),
        round_info=ROUND_INFO[game],
        engine_config=config,
    )


def _round_over(table: Any) -> bool:
    # Whether the round of a raw env played with episode="round" has ended.
    agent = table.agent_selection
    return bool(table.terminations[agent] or table.truncations[agent])


def _random_policy(game: str, seed: int = 0) -> NumpyPolicy:
    g = training_game(game)
    rng = np.random.default_rng(seed)
    sizes = [g.obs_size, 16, g.num_actions]
    weights = [rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    return NumpyPolicy(weights, [np.zeros(b, np.float32) for b in sizes[1:]])


def _learner_actions(env: SelfPlayVecEnv, rng: np.random.Generator) -> np.ndarray:
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (env.num_envs, env.game.num_actions)
    assert masks.any(axis=1).all(), "every learner is asked only when it has a legal action"
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_the_learner_acts_at_its_seat_and_is_paid_its_arena_value(game: str) -> None:
    # The VecEnv contract: spaces, shapes, the learner's own view and mask, rewards only at
    # round ends, each the arena's value of the learner's seat times reward_scale.
    env = _env(game, 6, "self=0.3,heuristic=0.4,random=0.3", seed=2)
    env.set_snapshots([_random_policy(game)])
    spec = env.game
    assert env.observation_space.shape == (spec.obs_size,)
    assert env.action_space.n == spec.num_actions
    rng = np.random.default_rng(0)
    obs = env.reset()
    rounds = 0
    for _ in range(150):
        # The engine waits for the learner at every table, and shows it its seat's view.
        assert (env.engine.seat == env.seats).all()
        np.testing.assert_array_equal(obs, env.engine.observe())
        np.testing.assert_array_equal(env.action_masks(), env.engine.action_masks() != 0)
        assert obs.dtype == np.float32 and env.observation_space.contains(obs[0])
        seats = env.seats.copy()
        obs, rewards, dones, infos = env.step(_learner_actions(env, rng))
        assert rewards.shape == dones.shape == (6,) and len(infos) == 6
        assert not rewards[~dones].any(), "only finished rounds pay"
        assert all(not info for info, done in zip(infos, dones, strict=True) if not done)
        for row in np.flatnonzero(dones):
            rounds += 1
            report = infos[row]["round"]
            assert not infos[row]["TimeLimit.truncated"]
            info = ROUND_INFO[game](env.engine.finished, row)
            record = spec.seat_records(info, 4)[seats[row]]
            assert rewards[row] == pytest.approx(record.value * spec.reward_scale)
            assert report == {
                **{k: v for k, v in record._asdict().items() if k != "slot"},
                "opponents": report["opponents"],
            }
            assert len(report["opponents"]) == 3
    assert rounds > 0


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_round_info_gives_the_raw_envs_round_keys(game: str) -> None:
    # The engine's record, translated, has the keys (and types) of the raw env's info["round"]
    # that the arena's records read.
    env = _env(game, 4, "random=1", seed=1)
    rng = np.random.default_rng(1)
    env.reset()
    while True:
        _, _, dones, _ = env.step(_learner_actions(env, rng))
        if dones.any():
            break
    info = ROUND_INFO[game](env.engine.finished, int(np.flatnonzero(dones)[0]))
    table = training_game(game).arena.raw_env(num_players=4, episode="round")
    table.reset(seed=0)
    while not _round_over(table):
        mask = table.observe(table.agent_selection)["action_mask"]
        table.step(int(np.flatnonzero(mask)[0]))
    raw = table.infos["player_0"]["round"]
    assert set(info) <= set(raw)
    for key, value in info.items():
        assert type(value) is type(raw[key]), key


def test_the_bon_reward_is_the_learners_points_of_the_round() -> None:
    # The learner's record is its own seat's: points 0, 1 or 2 and goal/tricks agree.
    env = _env("bon", 8, "heuristic=1", seed=5)
    rng = np.random.default_rng(1)
    env.reset()
    seen = set()
    for _ in range(60):
        seats = env.seats.copy()
        _, rewards, dones, infos = env.step(_learner_actions(env, rng))
        for row in np.flatnonzero(dones):
            record = infos[row]["round"]
            expected = 1 if record["goal"] else 2 if record["tricks"] == 0 else 0
            assert rewards[row] == record["value"] == expected
            assert record["tricks"] == env.engine.finished.tricks_won[row, seats[row]]
            seen.add(expected)
    assert {0, 1} <= seen


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_opponents_of_every_kind_play(game: str) -> None:
    # The engine raises on an illegal action: heuristic, random and snapshot seats all play.
    env = _env(game, 6, "self=0.4,heuristic=0.3,random=0.3")
    env.set_snapshots([_random_policy(game, 1), _random_policy(game, 2)])
    env.seed(3)
    env.reset()
    kinds, opponents = set(), set()
    rng = np.random.default_rng(3)
    for _ in range(80):
        kinds.update(int(c) for c in np.unique(env.players))
        _, _, dones, infos = env.step(_learner_actions(env, rng))
        for row in np.flatnonzero(dones):
            opponents.update(infos[row]["round"]["opponents"])
    assert {LEARNER, HEURISTIC, RANDOM, 0, 1} <= kinds
    assert opponents == {"self", "heuristic", "random"}


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_the_heuristic_acts_in_batch_as_it_acts_alone(game: str) -> None:
    # The pool's heuristic seats play the arena's heuristic: act_batch makes act's choices.
    spec = training_game(game)
    engine = spec.env.vector_engine()(64, 4, seed=4)
    engine.reset()
    rng = np.random.default_rng(4)
    heuristic = spec.heuristic()
    for _ in range(40):
        obs, masks = engine.observe(), engine.action_masks()
        batch = heuristic.act_batch(obs, masks, np.arange(64))
        assert batch.tolist() == [heuristic.act(o, m) for o, m in zip(obs, masks, strict=True)]
        engine.step(engine.random_actions(rng))


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_seed_gives_the_same_tables(game: str) -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = _env(game, 4, "self=0.3,heuristic=0.4,random=0.3", seed=seed)
        env.set_snapshots([_random_policy(game)])
        rng = np.random.default_rng(0)
        out = [env.reset()]
        for _ in range(20):
            obs, rewards, _, _ = env.step(_learner_actions(env, rng))
            out += [obs, rewards, env.players.copy()]
        return out

    for a, b in zip(run(9), run(9), strict=True):
        assert np.array_equal(a, b)
    assert not all(np.array_equal(a, b) for a, b in zip(run(9), run(10), strict=True))


def test_a_boyn_round_cut_short_is_worth_nothing() -> None:
    # With a tiny turn limit some rounds end before the learner's first decision: they are
    # dealt again without a step; those it played in end worth 0.
    env = _env("boyn", 4, "random=1", seed=4, max_turns=6)
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
    spec = training_game(game)
    data = imitation_data(spec, 4, 10, seed=1, explore=0.0, tables=8)
    assert data.observations.shape == (len(data.actions), spec.obs_size)
    assert data.masks[np.arange(len(data.actions)), data.actions].all(), "only legal labels"
    # The labels are the heuristic's choices.
    heuristic = spec.heuristic()
    for row in range(0, len(data.actions), 37):
        assert heuristic.act(data.observations[row], data.masks[row]) == data.actions[row]
    if game == "bon":  # returns are the seats' points (0, 1 or 2), 28 decisions a round
        assert set(np.unique(data.returns)) <= {0.0, 1.0, 2.0}
        assert len(data.actions) % 28 == 0
    else:  # margins times reward_scale
        assert np.abs(data.returns).max() > 0


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_imitation_data_of_a_teacher_records_its_greedy_choices(game: str) -> None:
    spec, teacher = training_game(game), _random_policy(game)
    data = imitation_data(spec, 4, 10, seed=1, explore=0.0, tables=8, teacher=PolicyAgent(teacher))
    assert data.masks[np.arange(len(data.actions)), data.actions].all(), "only legal labels"
    for row in range(0, len(data.actions), 23):
        assert teacher.greedy(data.observations[row], data.masks[row]) == data.actions[row]


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
    for n in training_game(game).player_counts:
        shipped = MODELS_DIR / f"{game}_ppo_{n}p.npz"
        if shipped.exists():
            assert make_agent("ppo", num_players=n, game=game).name == "ppo"
            continue
        with pytest.raises(ModelFileError) as error:
            make_agent("ppo", num_players=n, game=game)
        assert str(shipped) in str(error.value) and "\n" not in str(error.value)


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


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_init_from_fine_tunes_a_model_of_the_game(tmp_path: Path, game: str) -> None:
    player = save_policy(tmp_path / "start", _random_policy(game), 4, {"note": "test"}, game)
    runs = tmp_path / "runs"
    argv = [sys.executable, str(ROOT / "train.py"), "--game", game, *TINY, "--net-arch", "16",
            "--runs-dir", str(runs), "--total-timesteps", "128", "--arena-deals", "0",
            "--init-from", str(player), "--learning-rate", "0"]  # fmt: skip
    result = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "critic fitted on" in result.stdout
    (model,) = runs.glob("*/model.npz")
    before, after = load_policy(player, 4, game)[0], load_policy(model, 4, game)[0]
    # With a zero learning rate PPO changes nothing: the saved actor is the one loaded.
    for a, b in zip(before.weights + before.biases, after.weights + after.biases, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "flags",
    [["--num-players", "6"], ["--max-turns", "9"], ["--shaping", "0.5"], ["--bc-teacher", "bad"]],
)
def test_train_refuses_a_table_size_or_flag_the_game_does_not_have(flags: list[str]) -> None:
    argv = [sys.executable, str(ROOT / "train.py"), "--game", "bon", *flags]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "train.py: error:" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_bc_teacher_warms_up_on_the_batch_engine(tmp_path: Path, game: str) -> None:
    argv = [sys.executable, str(ROOT / "train.py"), "--game", game, *TINY, "--runs-dir",
            str(tmp_path / "runs"), "--total-timesteps", "128", "--arena-deals", "0",
            "--bc-teacher", "random"]  # fmt: skip
    result = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "imitation warm start: 10 rounds of random" in result.stdout


def test_a_teacher_that_plays_one_table_teaches_on_the_batch_engine() -> None:
    # search acts at one table at a time: it plays one table, reset before every round from the
    # run's seed, so its data is reproducible; the labels are its choices.
    spec = training_game("boon")
    first, second = (
        imitation_data(spec, 3, 3, seed=2, teacher=make_agent("search:samples=3", num_players=3))
        for _ in range(2)
    )
    np.testing.assert_array_equal(first.actions, second.actions)
    np.testing.assert_array_equal(first.observations, second.observations)
    assert first.masks[np.arange(len(first.actions)), first.actions].all()


def test_each_game_has_its_own_defaults() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from train import Args, parse_args
    finally:
        sys.path.remove(str(ROOT))
    from agents.games.boyn.training import BoynFlags

    assert parse_args([]) == Args(), "Boon's defaults are unchanged"
    boyn = parse_args(["--game", "boyn", "--seed", "3"])
    assert boyn.game == "boyn" and boyn.seed == 3
    assert boyn.options == BoynFlags() and boyn.options.max_turns == 300
    assert parse_args(["--game", "boyn", "--max-turns", "9"]).options.max_turns == 9
    assert parse_args(["--game", "bon", "--num-tables", "8"]).num_tables == 8
