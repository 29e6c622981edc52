"""The arena's game mode (duplicate whole games) and the holding-aware bidding wrappers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.eval.arena import PlayedRound, play_deals, run_arena
from agents.eval.game_arena import DEFAULT_MAX_ROUNDS, run_game_arena
from agents.games.boon.games import game_options, game_records, game_seed
from agents.games.boon.games import whole_games as boon_games
from agents.games.boon.holdings import HoldingBidder
from agents.players.random_agent import RandomAgent
from agents.specs import make_agent
from boon_env import boon_v0
from boon_env.games.boon.encoding import OFFSETS
from boon_env.games.boon.rules import PASS, PICK
from tests.helpers.cli import run_boon


def _played(victory_cards: list[int], rounds: int = 3) -> PlayedRound:
    winners = [int(held == max(victory_cards)) for held in victory_cards]
    info = {"victory_cards": victory_cards, "game": {"winners": winners, "rounds": rounds}}
    return PlayedRound(0, 1, [3, 0, 1, 2], {"dealer": 0}, [], info)


def test_the_most_victory_cards_win_and_ties_share() -> None:
    records = game_records(_played([0, 7, 7, 6]))
    assert [r.slot for r in records] == [3, 0, 1, 2]
    assert [r.value for r in records] == [0.0, 0.5, 0.5, 0.0]
    assert not any(r.truncated for r in records)
    capped = game_records(_played([3, 5, 6, 6], rounds=9))
    assert [r.value for r in capped] == [0.0, 0.0, 0.5, 0.5]
    assert all(r.truncated and r.rounds == 9 for r in capped)


def test_statistics_on_a_fixed_seed() -> None:
    report = run_game_arena(["heuristic", "random", "heuristic", "random"], 20, seed=3)
    heuristic, random = report.results
    assert (heuristic.agent, random.agent) == ("heuristic", "random")
    # Two seats each: the win shares of a game add up to 1.
    assert 2 * heuristic.win_rate + 2 * random.win_rate == pytest.approx(1.0)
    assert heuristic.win_rate > random.win_rate
    assert heuristic.bust_rate < random.bust_rate
    assert 2 * heuristic.mean_victory_cards + 2 * random.mean_victory_cards == pytest.approx(20)
    assert heuristic.ci95[0] < heuristic.win_rate < heuristic.ci95[1]
    assert report.mean_rounds >= 1 and report.truncated_rate == 0.0


def test_identical_agents_win_one_game_in_n_exactly() -> None:
    report = run_game_arena(["heuristic"] * 3, 6, seed=0)
    (only,) = report.results
    assert only.win_rate == pytest.approx(1 / 3) and only.ci95 == pytest.approx((1 / 3, 1 / 3))


def test_games_are_seeded() -> None:
    specs = ["random", "heuristic", "random", "random", "heuristic"]
    first = run_game_arena(specs, 5, seed=4).to_json()
    again = run_game_arena(specs, 5, seed=4).to_json()
    del first["games_per_second"], again["games_per_second"]
    assert first == again
    other = run_game_arena(specs, 5, seed=5).to_json()
    assert other["results"] != first["results"]


def test_every_rotation_of_a_game_is_dealt_the_same_rounds() -> None:
    # Differently seeded players make the games differ, but round r is the same deal in each.
    game = boon_games(DEFAULT_MAX_ROUNDS)
    deals = []
    for agent_seed in (1, 2):
        agents = [RandomAgent(seed=agent_seed * 10 + seat) for seat in range(4)]
        env = game.raw_env(num_players=4)
        env.reset(seed=game_seed(0, 3), options=game_options(4, 0, 3))
        dealt = [env.game.round.deal]
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            seat = int(env.agent_selection.split("_")[1])
            observed = env.observe(env.agent_selection)
            env.step(agents[seat].act(observed["observation"], observed["action_mask"]))
            if env.game.round.deal is not dealt[-1]:
                dealt.append(env.game.round.deal)
        deals.append(dealt)
    assert [len(d) for d in deals] == [1, 5]  # the games went differently ...
    assert deals[0] == deals[1][:1]  # ... over the same deals


def test_a_game_mode_round_info_reports_the_game() -> None:
    (rounds,) = play_deals(
        [make_agent("heuristic") for _ in range(4)], 0, 0, 1, boon_games(DEFAULT_MAX_ROUNDS)
    )
    for played in rounds:
        game = played.info["game"]
        assert game["rounds"] >= 1 and min(played.info["victory_cards"]) == 0
        assert sum(played.info["victory_cards"]) == 20  # payments are zero-sum


def test_the_round_cap_truncates() -> None:
    report = run_game_arena(["random"] * 4, 4, seed=1, max_rounds=1)
    assert report.mean_rounds == 1.0
    assert 0 < report.truncated_rate < 1  # a first round can end a game, not always
    with pytest.raises(ValueError, match="max_rounds must be an integer >= 1, got 0"):
        boon_games(0)


# ----------------------------------------------------------------------------------------- CLI
def test_game_mode_json_contract() -> None:
    result = run_boon(
        "arena", "--episode", "game", "--games", "4", "--agents", "heuristic", "random",
        "random", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["episode"] == "game" and out["games"] == 4 and out["num_players"] == 3
    assert set(out) == {
        "episode", "num_players", "games", "max_rounds", "mean_rounds", "truncated_rate",
        "games_per_second", "results",
    }  # fmt: skip
    assert [r["agent"] for r in out["results"]] == ["heuristic", "random"]
    assert set(out["results"][0]) == {
        "agent", "win_rate", "ci95", "mean_victory_cards", "bust_rate", "mean_rounds",
        "truncated_rate",
    }  # fmt: skip
    table = run_boon("arena", "--episode", "game", "--games", "2", "--agents", *["heuristic"] * 4)
    assert table.returncode == 0, table.stderr
    assert "4 players, 2 games x 4 rotations" in table.stdout and "win rate" in table.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--episode", "game", "--games", "0"], "--games: must be an integer 1-"),
        (["--episode", "game", "--max-rounds", "0"], "--max-rounds: must be an integer 1-"),
        (["--episode", "game", "--deals", "5"], "use --games, not --deals"),
        (["--episode", "game", "--save", "x.jsonl"], "--save records rounds"),
        (["--episode", "game", "--game", "bon"], "--episode game is available for boon, not bon"),
        (["--games", "5"], "--games and --max-rounds go with --episode game"),
        (["--max-rounds", "5"], "--games and --max-rounds go with --episode game"),
        (["--episode", "match"], "invalid choice: 'match'"),
    ],
)
def test_game_mode_cli_errors(args: list[str], message: str, tmp_path) -> None:
    result = run_boon("arena", "--agents", "heuristic", "random", "random", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "x.jsonl").exists()


# ------------------------------------------------------------------------------- the wrappers
def test_a_holding_bidder_reads_its_holding_and_bids_by_it() -> None:
    env = boon_v0.raw_env(num_players=4, episode="game")
    env.reset(seed=0, options={"dealer": 3})
    env.game.victory_cards = [1, 8, 5, 6]  # seat 0 (first to decide) is close to running out
    observed = env.observe("player_0")
    obs, mask = observed["observation"], observed["action_mask"]
    cautious = make_agent("cautious:1:bold:5:heuristic")
    assert isinstance(cautious, HoldingBidder) and cautious.holding(obs) == 1
    assert cautious.act(obs, mask) == PASS  # cautious decides before bold is asked
    assert make_agent("cautious:0:bold:1:heuristic").act(obs, mask) == PICK
    assert make_agent("bold:0:cautious:1:heuristic").act(obs, mask) == PASS


def test_blind_shows_the_holdings_of_a_fresh_game() -> None:
    seen = []

    class _Spy(RandomAgent):
        def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
            seen.append(observation[OFFSETS["victory_cards"] : OFFSETS["victory_cards"] + 5])
            return super().act(observation, action_mask)

    env = boon_v0.raw_env(num_players=4, episode="game")
    env.reset(seed=0, options={"dealer": 3})
    env.game.victory_cards = [1, 8, 5, 6]
    observed = env.observe("player_0")
    blind = HoldingBidder(_Spy(seed=0), "blind", 0, 4, name="blind:spy")
    blind.act(observed["observation"], observed["action_mask"])
    assert seen[0].tolist() == [0.25, 0.25, 0.25, 0.25, 0.0]
    assert observed["observation"][OFFSETS["victory_cards"]] == pytest.approx(1 / 20)


def test_cautious_at_five_never_picks_a_fresh_round() -> None:
    report = run_arena(["cautious:5:heuristic", "heuristic", "heuristic"], 10, seed=0)
    assert report.results[0].pick_rate == 0.0 and report.results[1].pick_rate > 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cautious:x:ppo", "expected cautious:K:SPEC with K an integer >= 0"),
        ("bold:2", "no player to wrap (e.g. bold:1:ppo)"),
        ("blind:", "no player to wrap (e.g. blind:ppo)"),
        ("blind:wizard", "unknown agent kind 'wizard'"),
    ],
)
def test_bad_holding_specs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec)
