"""The ``boon`` console script, run in a subprocess as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.cli import BOON, run_boon

ROOT = Path(__file__).resolve().parents[2]


# The installed console script when it is there (as a user runs it), else the module.
@pytest.mark.parametrize("command", [[], ["arena"], ["compare"], ["play"], ["bench"], ["advise"]])
def test_help_everywhere(command: list[str]) -> None:
    result = run_boon(*command, "--help")
    assert result.returncode == 0
    assert "usage: boon" in result.stdout


def test_play_rejects_bad_input_and_completes_a_round() -> None:
    # Bad entries first, then always the first legal move: enough lines for any round.
    script = "\n".join(["zebra", "0", "99", "gold 99", *["1"] * 40]) + "\n"
    result = run_boon("play", "--seed", "4", "--seat", "1", "--rounds", "1", stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'zebra' is not a legal move now" in out
    assert "'0' is not a legal move now" in out
    assert "'99' is not a legal move now" in out
    assert "Hand of player_1:" in out and "Your moves: 1)" in out
    assert "Round over." in out and "(you)" in out


@pytest.mark.parametrize("n", [3, 5])
def test_play_by_card_names_for_other_table_sizes(n: int) -> None:
    script = "\n".join(["pass", "pick", *["1"] * 40]) + "\n"
    result = run_boon(
        "play", "--num-players", str(n), "--seed", "2", "--opponents", "random", "--rounds", "1",
        stdin=script,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Round over." in result.stdout
    # One round: the game either goes on (stopped, as asked) or that round already ended it.
    assert "Stopped after 1 round, as asked." in result.stdout or (
        "Game over after 1 round." in result.stdout
    )


def test_play_plays_a_whole_game_by_default() -> None:
    script = "1\n" * 3000  # always the first legal move, for as many rounds as the game lasts
    result = run_boon("play", "--seed", "3", "--opponents", "heuristic", stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    rounds = out.count("Round over.")
    assert rounds >= 2
    assert f"Game over after {rounds} rounds. Most Victory Cards:" in out


def test_play_stops_cleanly_when_input_ends() -> None:
    result = run_boon("play", "--seed", "1", stdin="")
    assert result.returncode == 1
    assert "No more input" in result.stdout


def test_play_names_a_missing_model() -> None:
    result = run_boon("play", "--opponents", "ppo:/nowhere/model.zip", stdin="")
    assert result.returncode == 2
    assert "/nowhere/model.zip" in result.stderr


def test_arena_json_contract() -> None:
    result = run_boon(
        "arena",
        "--agents",
        "heuristic",
        "random",
        "random",
        "--deals",
        "4",
        "--seed",
        "3",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["num_players"] == 3 and report["deals"] == 4
    assert report["rounds_per_second"] > 0
    keys = {
        "agent",
        "mean_victory_cards",
        "ci95",
        "mean_points",
        "pick_rate",
        "picker_success_rate",
        "leaster_rate",
        "leaster_win_rate",
    }
    assert [r["agent"] for r in report["results"]] == ["heuristic", "random"]
    for entry in report["results"]:
        assert set(entry) == keys
        low, high = entry["ci95"]
        assert low <= entry["mean_victory_cards"] <= high


def test_arena_table_and_bad_spec() -> None:
    table = run_boon("arena", "--agents", "heuristic", "search:samples=2", "random", "--deals", "1")
    assert table.returncode == 0, table.stderr
    assert "search:samples=2" in table.stdout and "95% CI" in table.stdout
    bad = run_boon("arena", "--agents", "heuristic", "wizard", "random", "--deals", "1")
    assert bad.returncode == 2
    assert "known kinds" in bad.stderr


def test_bench_runs_with_a_tiny_budget() -> None:
    budget = "--rounds 50 --env-rounds 10 --tables 8 --steps 3 --obs-steps 3 --repeats 1"
    result = run_boon("bench", *budget.split(), "--players", "3")
    assert result.returncode == 0, result.stderr
    assert "rounds/s" in result.stdout
    engines = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("   ")]
    assert engines == ["scalar", "env()", "vector+obs", "vector"]


def test_a_closed_output_pipe_ends_quietly() -> None:
    # As in `boon arena ... | head -1`: the reader is gone before the table is printed.
    process = subprocess.Popen(
        [*BOON, "arena", "--agents", "random", "random", "random", "--deals", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    process.stdout.close()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0
    assert "Traceback" not in stderr


def test_arena_save_writes_a_line_per_round(tmp_path: Path) -> None:
    path = tmp_path / "rounds.jsonl"
    result = run_boon("arena", "--agents", "heuristic", "random", "random", "--deals", "3",
                   "--save", str(path))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len(path.read_text().splitlines()) == 9
    bad = run_boon("arena", "--agents", "heuristic", "random", "random", "--deals", "1",
                "--save", str(tmp_path / "no" / "such" / "dir.jsonl"))  # fmt: skip
    assert bad.returncode == 2
    assert "--save: cannot write" in bad.stderr and "Traceback" not in bad.stderr


def test_an_agent_choosing_an_illegal_action_is_a_bug_with_a_traceback(monkeypatch) -> None:
    # A user's mistake is one line; a player breaking the rules is a bug and must not be hidden.
    import agents.cli.common
    from agents.cli import main
    from agents.players.random_agent import RandomAgent

    class Cheater(RandomAgent):
        def act(self, observation, action_mask):
            return int(np.flatnonzero(np.asarray(action_mask) == 0)[0])

    monkeypatch.setattr(agents.cli.common, "make_agent", lambda spec, **kw: Cheater(name=spec))
    monkeypatch.setattr("builtins.input", lambda prompt: "1")  # the person plays on
    with pytest.raises(ValueError, match="illegal action"):
        main(["play", "--seat", "0", "--rounds", "1", "--seed", "1"])


def test_the_command_runs_its_blas_on_one_thread_unless_told_otherwise() -> None:
    """numpy (and its BLAS) loads with the ``agents`` package, before the command can set the
    thread variables; the command then limits the running BLAS, unless the user chose."""
    code = (
        "import threadpoolctl\n"
        "from agents.cli.commands import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted({i['num_threads'] for i in threadpoolctl.threadpool_info()"
        " if i['user_api'] == 'blas'}))\n"
    )
    quiet = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    cases = [({}, "[1]")]
    if (os.cpu_count() or 1) > 1:  # BLAS runs no more threads than cores
        cases.append(({"OPENBLAS_NUM_THREADS": "2"}, "[2]"))
    for extra, expected in cases:
        result = subprocess.run(
            [sys.executable, "-c", code], env={**quiet, **extra}, capture_output=True,
            text=True, timeout=300, check=False, cwd=ROOT,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == expected
