"""Every ``boon`` command for every game of the registry, or a one-line refusal naming the
games it serves; ``boon --version``; ``train.py`` and ``train_rllib.py`` ``--game``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.cli.commands import main
from agents.registry import game_names, game_spec

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_names()


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _lineup(game: str) -> list[str]:
    n = game_spec(game).player_counts[0]
    return ["heuristic", *["random"] * (n - 1)]


def test_version_prints_the_installed_version(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out.split()
    assert out[0] == "boon" and out[1][0].isdigit()


@pytest.mark.parametrize("game", GAMES)
def test_arena_and_compare(game: str, capsys, tmp_path: Path) -> None:
    saved = []
    for name, first in (("a", "heuristic"), ("b", "random")):
        path = tmp_path / f"{name}.jsonl"
        lineup = [first, *_lineup(game)[1:]]
        status, out, err = _run(
            capsys, "arena", "--game", game, "--agents", *lineup, "--deals", "4", "--json",
            "--save", str(path),
        )  # fmt: skip
        assert status == 0, err
        assert json.loads(out)["deals"] == 4
        saved.append(str(path))
    names = ["--agent-a", "heuristic", "--agent-b", "random"]
    status, out, err = _run(capsys, "compare", *saved, *names, "--game", game, "--json")
    assert status == 0, err
    comparison = json.loads(out)
    assert (comparison["a"], comparison["b"], comparison["unit"]) == (
        "heuristic",
        "random",
        game_spec(game).unit,
    )


@pytest.mark.parametrize("game", GAMES)
def test_tournament_prints_json_to_stdout(game: str, capsys, tmp_path: Path) -> None:
    players = str(game_spec(game).player_counts[0])
    argv = ["tournament", "--game", game, "--agents", "heuristic", "random", "--players", players]
    status, out, err = _run(capsys, *argv, "--deals", "2", "--json")
    assert status == 0, err
    report = json.loads(out)  # nothing but the JSON object on stdout
    assert report["game"] == game and {r["agent"] for r in report["agents"]} == {
        "heuristic",
        "random",
    }
    path = tmp_path / "board.json"
    status, out, err = _run(capsys, *argv, "--deals", "2", "--json", str(path))
    assert status == 0 and "rank" in out  # the table, and the JSON in the file
    assert json.loads(path.read_text())["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_bench_measures_every_engine(game: str, capsys) -> None:
    n = str(game_spec(game).player_counts[-1])
    budget = ["--rounds", "5", "--env-rounds", "2", "--tables", "8", "--steps", "2"]
    status, out, err = _run(
        capsys, "bench", "--game", game, "--players", n, "--repeats", "1", "--obs-steps", "2",
        *budget, "--json",
    )  # fmt: skip
    assert status == 0, err
    report = json.loads(out)
    assert report["game"] == game
    assert [row["engine"] for row in report["results"]] == [
        "scalar",
        "env()",
        "vector+obs",
        "vector",
    ]


@pytest.mark.parametrize("game", GAMES)
def test_play_a_round_at_the_terminal(game: str, capsys, monkeypatch) -> None:
    # The person always types the first legal move's number.
    monkeypatch.setattr("builtins.input", lambda prompt: "1")
    n = str(game_spec(game).player_counts[0])
    status, out, _err = _run(
        capsys, "play", "--game", game, "--num-players", n, "--rounds", "1", "--seed", "2",
        "--opponents", "random",
    )  # fmt: skip
    assert status == 0
    assert "You are player_0" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["advise", "--game", "bon", "--hand", "red 1", "--position", "0"], "boon, not bon"),
        (["serve", "--game", "boyn", "--players", "7"], "a BOYN table has 2-6 players"),
        (["arena", "--game", "bon", "--agents", "random"] * 1 + ["random", "random", "--episode",
          "game"], "--episode game is available for boon, not bon"),
        (["play", "--game", "boyn", "--num-players", "7"], "a BOYN table has 2-6 players"),
        (["bench", "--game", "bon", "--players", "6"], "a B.O.N table has 3-5 players"),
        (["tournament", "--game", "chess", "--agents", "a", "b"], "invalid choice: 'chess'"),
    ],
)  # fmt: skip
def test_a_command_refuses_what_a_game_lacks_in_one_line(argv, message, capsys) -> None:
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own refusals
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2 and message in err
    assert "Traceback" not in err and err.strip().count("\n") <= 1 + ("usage" in err) * 3


@pytest.mark.parametrize(
    ("script", "argv", "message"),
    [
        ("train.py", ["--game", "chess"], "invalid choice: 'chess'"),
        ("train.py", ["--game", "bon", "--max-turns", "9"], "--max-turns is a flag of boyn"),
        ("train.py", ["--game", "boyn", "--shaping", "0.1"], "--shaping is a flag of boon"),
        ("train_rllib.py", ["--game", "chess"], "invalid choice: 'chess'"),
        ("train_rllib.py", ["--game", "bon", "--num-players", "6"],
         "--num-players of bon must be one of (3, 4, 5), got 6"),
    ],
)  # fmt: skip
def test_the_training_scripts_take_a_game(script: str, argv: list[str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / script), *argv],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode != 0 and message in result.stderr
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------------------- advise: review
@pytest.mark.parametrize("game", GAMES)
def test_advise_reviews_an_agents_decisions_played_and_recorded(
    game: str, capsys, tmp_path: Path
) -> None:
    n = str(game_spec(game).player_counts[0])
    status, out, err = _run(
        capsys, "advise", "--game", game, "--agent", "heuristic", "--opponents", "random",
        "--players", n, "--deals", "2", "--seed", "1", "--json",
    )  # fmt: skip
    assert status == 0, err
    review = json.loads(out)
    assert review["game"] == game and review["unit"] == game_spec(game).unit
    assert review["rounds"] == 2 and review["players"] == int(n)
    (agent,) = review["agents"]
    assert agent["agent"] == "heuristic" and agent["decisions"] == len(review["decisions"])
    for decision in review["decisions"]:
        assert decision["chosen"] in decision["values"] and decision["loss"] >= 0
        best = max(decision["values"].values())
        assert decision["loss"] == pytest.approx(best - decision["values"][decision["chosen"]])
    status, out, err = _run(
        capsys, "advise", "--game", game, "--players", n, "--deals", "1", "--seat", "0",
        "--opponents", "random",
    )  # fmt: skip
    assert status == 0, err
    assert "points lost per decision" in out and "heuristic" in out and "CPU s" in out
    saved = tmp_path / "run.jsonl"
    _run(capsys, "arena", "--game", game, "--agents", *_lineup(game), "--deals", "1",
         "--save", str(saved))  # fmt: skip
    status, out, err = _run(
        capsys, "advise", "--game", game, "--replay", str(saved), "--agent", "heuristic", "--json"
    )
    assert status == 0, err
    recorded = json.loads(out)
    assert [a["agent"] for a in recorded["agents"]] == ["heuristic"]
    assert recorded["rounds"] == int(n)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agent", "wizard"], "unknown agent kind 'wizard'"),
        (["--opponents", "random", "random"], "--opponents takes 1 spec or 3"),
        (["--seat", "4"], "--seat must be a seat 0-3, got 4"),
        (["--deals", "0"], "--deals: must be an integer 1-1000000000000, got '0'"),
        (["--players", "6"], "a Boon table has 3-5 players"),
        (["--hand", "gold 14"], "hand advice needs both --hand and --position"),
        (["--position", "0", "--hand", "gold 14", "--seat", "1"], "does not go with --hand"),
        (["--replay", "none.jsonl", "--deals", "3"], "--deals plays rounds"),
        (["--replay", "/nonexistent/run.jsonl"], "cannot read /nonexistent/run.jsonl"),
    ],
)
def test_advise_refuses_a_bad_review_in_one_line(argv, message, capsys) -> None:
    status, out, err = _run(capsys, "advise", *argv)
    lines = err.strip().splitlines()
    assert status == 2 and out == "" and len(lines) == 1
    assert lines[0].startswith("boon advise: error: ") and message in lines[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json\n", "run.jsonl, line 1: not JSON"),
        ('{"deal_index": 0}\n', "line 1: not a recorded round of Boon: 'rotation' must be"),
        (None, "line 1: not a recorded round of Boon: a Boon table has 3-5 players, got 2"),
    ],
)
def test_advise_refuses_a_bad_replay_in_one_line(content, message, capsys, tmp_path) -> None:
    saved = tmp_path / "run.jsonl"
    if content is None:  # a BOYN file read as Boon's
        _run(capsys, "arena", "--game", "boyn", "--agents", "random", "random", "--deals", "1",
             "--save", str(saved))  # fmt: skip
    else:
        saved.write_text(content)
    status, out, err = _run(capsys, "advise", "--replay", str(saved))
    lines = err.strip().splitlines()
    assert status == 2 and out == "" and len(lines) == 1 and message in lines[0]
