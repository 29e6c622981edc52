"""The game registry: every game is a GameSpec; a new game is a package and one entry.

High Card (``tests/helpers/toy``), a game that exists only here, is registered for the tests
of this module and unregistered after: the arena, the tournament, compare and the bench run it
without a line of them knowing it.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import replace

import pytest

from agents.eval import bench
from agents.eval.arena import run_arena
from agents.eval.compare import compare_runs
from agents.eval.tournament import run_tournament
from agents.registry import GAMES, game_names, game_spec, game_with, register, unregister
from agents.specs import make_agent
from boon_env.games import ENVS, env_spec
from tests.helpers.toy.spec import TOY


@pytest.fixture
def toy() -> Iterator[str]:
    register(TOY)
    yield TOY.name
    unregister(TOY.name)


def test_the_registry_holds_the_three_games_the_first_the_default() -> None:
    assert game_names()[:3] == ("boon", "bon", "boyn")
    assert game_spec() is game_spec("boon")
    for name, spec in GAMES.items():
        assert spec.name == name and env_spec(name) is spec.env
        assert spec.player_counts == spec.env.player_counts
        assert spec.obs_size == sum(piece.size for piece in spec.env.layout.pieces)


def test_unknown_games_and_missing_features_are_named() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; known games: boon, bon, boyn"):
        game_spec("chess")
    with pytest.raises(ValueError, match="advice is available for boon, not bon"):
        game_with("bon", "bidding", "advice")


def test_a_different_game_of_the_same_name_is_refused(toy: str) -> None:
    register(TOY)  # the same spec again: nothing changes
    other = type(TOY)(**{**TOY.__dict__, "unit": "points"})
    with pytest.raises(ValueError, match="a different game named 'toy'"):
        register(other)


def test_a_game_registered_in_a_test_plays_in_the_arena(toy: str) -> None:
    report = run_arena(["heuristic", "random"], deals=40, seed=3, game=toy)
    heuristic, random = report.results
    # Two seats, each in every rotation: the values are zero-sum deal by deal.
    assert heuristic.mean_value == pytest.approx(-random.mean_value)
    assert heuristic.ci95[0] < heuristic.mean_value < heuristic.ci95[1]
    assert "tricks" in report.table()
    again = run_arena(["heuristic", "random"], deals=40, seed=3, game=toy)
    assert again.results == report.results


def test_a_game_registered_in_a_test_plays_a_tournament(toy: str) -> None:
    report = run_tournament(["heuristic", "random"], 3, deals=10, seed=1, game=toy)
    assert [r.agent for r in report.agents] == ["heuristic", "random"]
    assert (report.game, report.unit) == ("toy", "tricks")


def test_a_game_registered_in_a_test_compares_saved_runs(toy: str, tmp_path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_arena(["heuristic", "random"], deals=10, seed=5, game=toy, save=first)
    run_arena(["random", "random"], deals=10, seed=5, game=toy, save=second)
    lines = [json.loads(line) for line in first.read_text().splitlines()]
    assert {line["seats"][0] for line in lines} == {"heuristic", "random"}
    comparison = compare_runs(first, second, "heuristic", "random", game=toy)
    assert comparison.deals == 10 and comparison.unit == "tricks"


def test_a_game_registered_in_a_test_is_benchmarked(toy: str) -> None:
    args = argparse.Namespace(
        game=toy, engines=None, players=[2], repeats=1, rounds=20, env_rounds=5, seed=0,
        tables=8, steps=2, obs_steps=2,
    )  # fmt: skip
    rows = bench.measure(args)
    engines = [(row["players"], row["engine"]) for row in rows]
    assert engines == [(2, "scalar"), (2, "env()"), (2, "vector+obs"), (2, "vector")]
    assert all(row["decisions_per_second"] > 0 for row in rows)
    unbatched = replace(TOY, env=replace(TOY.env, name="plain", vector=None))
    register(unbatched)
    try:
        with pytest.raises(ValueError, match="High Card has no batch engine"):
            bench.measure(
                argparse.Namespace(**{**vars(args), "game": "plain", "engines": ["vector"]})
            )
    finally:
        unregister("plain")


def test_a_game_registered_in_a_test_builds_its_players(toy: str) -> None:
    assert make_agent("heuristic", game=toy, num_players=2).name == "heuristic"
    with pytest.raises(ValueError, match=r"known kinds for toy: \('random', 'heuristic', 'ppo'\)"):
        make_agent("search", game=toy, num_players=2)


def test_commands_refuse_what_a_registered_game_lacks(toy: str, capsys) -> None:
    from agents.cli.commands import main

    assert main(["serve", "--game", toy]) == 2
    assert "the browser table is available for boon, bon, boyn, not toy" in capsys.readouterr().err
    assert main(["play", "--game", toy]) == 2
    assert "playing at the terminal is available for" in capsys.readouterr().err


def test_unregistering_removes_the_library_part_too(toy: str) -> None:
    assert "toy" in ENVS
    unregister(toy)
    assert "toy" not in ENVS and "toy" not in GAMES
    register(TOY)  # the fixture unregisters it again


def test_a_game_registered_after_import_reaches_pettingzoo_and_gymnasium(toy: str) -> None:
    import gymnasium
    import pettingzoo

    spec = env_spec(toy)
    env = pettingzoo.make("aec", spec.pettingzoo_id)  # registered after boon_env's import
    env.reset(seed=0)
    assert env.unwrapped.metadata["name"] == "toy_v0" and len(env.agents) == 2
    single = gymnasium.make(spec.gymnasium_id, num_players=2)
    observation, _ = single.reset(seed=0)
    assert observation["observation"].shape == (TOY.obs_size,)
    unregister(toy)
    assert spec.pettingzoo_id not in pettingzoo.aec_registry
    assert spec.gymnasium_id not in gymnasium.registry
    register(TOY)  # the fixture unregisters it again
