"""BOYN in the arena, ``boon play``, ``boon bench`` and the benchmark script (``--game boyn``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.eval.arena import match, run_arena
from agents.games.boyn.heuristic import BoynHeuristicAgent
from agents.games.boyn.terminal import BoynTerminal
from agents.games.terminal import play_game
from agents.players.random_agent import RandomAgent
from agents.specs import make_agent
from boon_env.games.boyn.rules import Deal, GameConfig, replay

ROOT = Path(__file__).resolve().parents[2]
_SCRIPT = Path(sys.executable).with_name("boon")
BOON = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "agents.cli"]
FIELD = ["heuristic", "random", "random", "random"]


def run_boon(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [*BOON, *args], input=stdin, capture_output=True, text=True, timeout=300, check=False
    )


# ----------------------------------------------------------------------------- the arena


def test_the_heuristic_beats_random_in_the_boyn_arena() -> None:
    report = run_arena(FIELD, deals=60, seed=2, game="boyn")
    heuristic, random = report.results
    assert heuristic.ci95[0] > 0 > random.ci95[1]
    assert heuristic.mean_points < random.mean_points
    assert "margin" in report.table()


def test_boyn_arena_results_are_seeded_and_independent_of_the_worker_count() -> None:
    one = run_arena(FIELD, deals=6, seed=7, game="boyn")
    two = run_arena(FIELD, deals=6, seed=7, workers=2, game="boyn")
    assert one.results == two.results
    assert run_arena(FIELD, deals=6, seed=8, game="boyn").results != one.results


def test_identical_agents_have_a_zero_margin() -> None:
    (result,) = run_arena(["random"] * 3, deals=5, seed=1, game="boyn").results
    assert result.mean_margin == pytest.approx(0.0)


def test_saved_boyn_rounds_replay_exactly(tmp_path: Path) -> None:
    path = tmp_path / "rounds.jsonl"
    run_arena(["heuristic", "random", "random"], deals=3, seed=4, save=path, game="boyn")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 3 * 3
    config = GameConfig(num_players=3)
    for line in lines:
        deal = Deal.from_cards(config, line["deal"]["hands"], line["deal"]["stock"])
        state = replay(config, deal, line["actions"], line["dealer"], line["reset_seed"])
        assert state.points == line["round"]["points"]
        assert state.turns == line["round"]["turns"]


def test_match_plays_boyn_agent_objects() -> None:
    agents = [BoynHeuristicAgent(), RandomAgent(seed=1)]
    learner, _ = match(agents, ["learner", "random"], deals=4, seed=0, game="boyn")
    assert learner.agent == "learner"


def test_boyn_agent_specs_and_games_are_checked() -> None:
    assert isinstance(make_agent("heuristic:swap_margin=2", game="boyn"), BoynHeuristicAgent)
    with pytest.raises(ValueError, match="known kinds"):
        make_agent("cautious:1:ppo", game="boyn")
    with pytest.raises(ValueError, match="2, 3, 4, 5 or 6 agent specs"):
        run_arena(["random"] * 7, deals=1, game="boyn")
    with pytest.raises(ValueError, match="unknown game"):
        run_arena(["random"] * 3, deals=1, game="uno")


# ----------------------------------------------------------------------------- the command line


def test_boon_arena_game_boyn_prints_json() -> None:
    result = run_boon(
        "arena", "--game", "boyn", "--agents", "heuristic", "random", "--deals", "3", "--json"
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [r["agent"] for r in report["results"]] == ["heuristic", "random"]
    assert set(report["results"][0]) == {
        "agent", "mean_margin", "ci95", "mean_points", "out_rate", "truncated_rate"
    }  # fmt: skip


def test_boon_arena_game_boyn_rejects_a_boon_only_agent() -> None:
    result = run_boon("arena", "--game", "boyn", "--agents", "blind:ppo", "random", "--deals", "1")
    assert result.returncode == 2
    assert "known kinds" in result.stderr


def test_boon_play_game_boyn_takes_numbers_and_names(capsys: pytest.CaptureFixture[str]) -> None:
    moves = iter(["zebra", "99", *["1"] * 2000])
    agents = {seat: make_agent("heuristic", game="boyn") for seat in (1, 2)}
    status = play_game(BoynTerminal(), agents, 0, 3, 5, 2, input_line=lambda _: next(moves))
    out = capsys.readouterr().out
    assert status == 0
    assert "'zebra' is not a legal move now" in out and "'99' is not a legal move now" in out
    assert "Hand of player_0:" in out and "Your moves: 1)" in out
    assert "went out." in out and "(you)" in out
    assert "Stopped after 2 round(s)" in out or "Game over" in out


def test_boon_play_game_boyn_plays_a_whole_game_in_a_subprocess() -> None:
    result = run_boon(
        "play", "--game", "boyn", "--num-players", "2", "--seed", "1", stdin="1\n" * 20000
    )
    assert result.returncode == 0, result.stderr
    assert "Game over after" in result.stdout


def test_the_rlcard_benchmark_runs() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_boyn.py"), "--repeats", "1",
         "--rounds", "3", "--games", "3"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "boyn_v0.env() / rlcard uno" in result.stdout
