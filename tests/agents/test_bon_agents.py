"""B.O.N players (the view, the heuristic), the arena with ``--game bon``, and the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.eval.arena import run_arena
from agents.games.bon.arena import BON, bon_deal_options
from agents.games.bon.heuristic import BonHeuristicAgent, BonHeuristicParams, choose, hold_chance
from agents.games.bon.view import BonView
from agents.players.base import legal_bits
from agents.players.random_agent import RandomAgent
from agents.specs import make_agent
from boon_env import bon_v0
from boon_env.games.bon.rules import PASS, Deal, GameConfig, card_name, replay
from tests.helpers.bon import SEED_HANDS, SEED_LEFTOVERS, cards, deal_option
from tests.helpers.cli import run_boon

SEED_OPTIONS = {
    "deal": {"hands": [cards(h) for h in SEED_HANDS], "leftovers": cards(SEED_LEFTOVERS)},
    "tower": [2, 0, 1],  # blue, red, yellow
    "leader": 0,
}


def view_of(env: bon_v0.raw_env, agent: str) -> BonView:
    return BonView.from_observation(env.observe(agent)["observation"])


# ------------------------------------------------------------------------------------ view
@settings(max_examples=40, deadline=None)
@given(st.sampled_from([3, 4, 5]), st.integers(0, 2**32 - 1), st.booleans())
def test_the_view_decodes_what_the_seat_knows(n: int, seed: int, hidden: bool) -> None:
    env = bon_v0.raw_env(num_players=n, hidden_leftovers=hidden)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not all(env.terminations.values()):
        state = env.game.round
        seat = int(rng.integers(n))
        view = view_of(env, f"player_{seat}")
        relative = [(seat + r) % n for r in range(n)]
        assert view.num_players == n
        assert (view.hand, view.passes) == (state.hands[seat], state.passes[seat])
        assert view.tower == state.tower
        assert view.trick == state.trick
        assert (view.leader + seat) % n == state.leader
        assert view.played == [state.played[s] for s in relative]
        assert view.passes_played == [state.passes_played[s] for s in relative]
        assert view.voids == [state.voids[s] for s in relative]
        assert view.tricks_won == [state.tricks_won[s] for s in relative]
        assert view.leftovers_seen is not hidden
        expected = (0, 0) if hidden else (state.deal.leftovers, state.deal.leftover_passes)
        assert (view.leftovers, view.leftover_passes) == expected
        # Read straight from the round (rollouts), the view is the same.
        assert BonView.from_round(state, seat, leftovers_seen=not hidden) == view
        legal = state.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])


# ------------------------------------------------------------------------------- heuristic
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_heuristic_always_plays_a_legal_card(players: int) -> None:
    agent = BonHeuristicAgent()
    env = bon_v0.raw_env(num_players=players, episode="game", max_rounds=4)
    env.reset(seed=players)
    while not (all(env.terminations.values()) or all(env.truncations.values())):
        observed = env.observe(env.agent_selection)
        action = agent.act(observed["observation"], observed["action_mask"])
        assert observed["action_mask"][action] == 1
        env.step(action)


def test_dodging_it_sheds_its_strongest_losing_card() -> None:
    # Seed deal, tower blue, red, yellow: Bill leads red 8; Sue (red 2-5, yellow 3, blue 2,
    # a Pass card) plays for zero tricks and must follow red: every red loses to red 8, so she
    # throws her highest, red 5.
    env = bon_v0.raw_env()
    env.reset(options=SEED_OPTIONS)
    env.step(cards("red 8")[0])
    view = view_of(env, "player_1")
    legal = legal_bits(env.observe("player_1")["action_mask"])
    assert card_name(choose(view, legal, BonHeuristicParams())) == "red 5"


def test_dodging_it_plays_a_pass_card_rather_than_win_for_sure() -> None:
    # Tower yellow, blue, red: red 1, red 2, then Julie's blue 1 leads the trick. Greg, last to
    # play and dodging, beats blue 1 with every card he holds but his Pass card.
    env = bon_v0.raw_env()
    env.reset(options={**SEED_OPTIONS, "tower": [1, 2, 0]})
    for card in cards("red 1, red 2, blue 1"):
        env.step(card)
    view = view_of(env, "player_3")
    legal = legal_bits(env.observe("player_3")["action_mask"])
    assert choose(view, legal, BonHeuristicParams(zero_slack=7.0)) == PASS
    # Playing for tricks instead, he takes it with his cheapest sure winner.
    assert card_name(choose(view, legal, BonHeuristicParams(zero_slack=-7.0))) == "blue 6"


def test_taking_it_plays_the_cheapest_sure_winner() -> None:
    # Greg (seat 3) needs tricks (zero_slack -7: never play for zero). After red 8, red 3 and
    # blue 1 with blue on top, only a higher blue wins; every blue above 1 that is still out
    # could beat it, but Greg plays last: his lowest winning blue, blue 6, is sure.
    env = bon_v0.raw_env()
    env.reset(options=SEED_OPTIONS)
    for card in cards("red 8, red 3, blue 1"):
        env.step(card)
    view = view_of(env, "player_3")
    legal = legal_bits(env.observe("player_3")["action_mask"])
    choice = choose(view, legal, BonHeuristicParams(zero_slack=-7.0))
    assert card_name(choice) == "blue 6"
    assert hold_chance(view, choice) == 1.0


def test_hold_chance_counts_the_unseen_cards_that_beat_a_card() -> None:
    env = bon_v0.raw_env()
    env.reset(options=SEED_OPTIONS)
    view = view_of(env, "player_0")  # leads, three players after
    # Blue is on top: blue 9 is the highest card in play, nothing unseen beats it.
    assert hold_chance(view, cards("blue 9")[0]) == 1.0
    # Yellow is at the bottom: every unseen red, blue and higher yellow beats yellow 1.
    assert hold_chance(view, cards("yellow 1")[0]) < 0.01


# --------------------------------------------------------------------------------- arena
def test_specs_for_bon() -> None:
    assert isinstance(make_agent("heuristic:zero_slack=1", game="bon"), BonHeuristicAgent)
    assert isinstance(make_agent("random", game="bon"), RandomAgent)
    known = r"known kinds for bon: \('random', 'heuristic', 'search', 'expert', 'ppo'\)"
    with pytest.raises(ValueError, match=known):
        make_agent("blind:ppo", game="bon")
    with pytest.raises(ValueError, match="unknown game 'hearts'"):
        make_agent("random", game="hearts")


def test_the_arena_replays_each_deal_in_every_rotation(tmp_path) -> None:
    path = tmp_path / "rounds.jsonl"
    specs = ["heuristic", "random", "random"]
    report = run_arena(specs, deals=4, seed=2, save=path, game=BON)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 4 * 3
    assert set(lines[0]) == {
        "deal_index", "rotation", "deal", "tower", "leader", "seats", "actions", "round"
    }  # fmt: skip
    config = GameConfig(num_players=3)
    for line in lines:
        assert line["deal"] == bon_deal_options(3, 2, line["deal_index"])["deal"]
        deal = Deal.from_cards(config, line["deal"]["hands"], line["deal"]["leftovers"])
        state = replay(config, deal, line["tower"], line["leader"], line["actions"])
        assert state.is_over and state.tricks_won == line["round"]["tricks_won"]
    totals = {spec: 0 for spec in specs}
    for line in lines:
        for spec, points in zip(line["seats"], line["round"]["round_points"], strict=True):
            totals[spec] += points
    heuristic = report.results[0]
    assert heuristic.agent == "heuristic"
    assert heuristic.mean_points == pytest.approx(totals["heuristic"] / 12)
    assert report.to_json()["results"][0]["ci95"] == list(heuristic.ci95)


def test_the_heuristic_beats_random_players() -> None:
    report = run_arena(["heuristic", "random", "random", "random"], deals=150, seed=1, game=BON)
    heuristic, random = report.results
    assert heuristic.ci95[0] > random.ci95[1]
    assert heuristic.zero_rate > random.zero_rate


def test_the_arena_deals_a_bon_deal_the_env_accepts() -> None:
    options = bon_deal_options(5, 0, 7)
    env = bon_v0.raw_env(num_players=5)
    env.reset(options=options)
    assert env.agent_selection == "player_2"  # deal 7 at 5 seats: seat 7 % 5 leads
    assert deal_option(env.game.round.deal) == options["deal"]


# ----------------------------------------------------------------------------------- CLI
def test_cli_arena_for_bon_prints_points_per_round() -> None:
    result = run_boon("arena", "--game", "bon", "--agents", "heuristic", "random", "random",
                   "--deals", "3", "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [r["agent"] for r in report["results"]] == ["heuristic", "random"]
    assert set(report["results"][0]) == {
        "agent", "mean_points", "ci95", "goal_rate", "zero_rate", "mean_tricks"
    }  # fmt: skip
    table = run_boon("arena", "--game", "bon", "--agents", "heuristic", "random", "random",
                  "--deals", "2")  # fmt: skip
    assert "points/round" in table.stdout
    bad = run_boon(
        "arena", "--game", "bon", "--agents", "bold:1:ppo", "random", "random", "--deals", "1"
    )
    assert bad.returncode == 2 and "known kinds for bon" in bad.stderr


def test_cli_play_bon_by_number_and_by_card_name() -> None:
    script = "\n".join(["zebra", "green 3", "pass", *["1"] * 30]) + "\n"
    result = run_boon("play", "--game", "bon", "--num-players", "3", "--seed", "5", "--rounds", "1",
                   stdin=script)  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Take exactly 3 tricks (1 point) or none (2 points)" in out
    assert "tower (strongest first):" in out and "Hand of player_0:" in out
    assert "'zebra' is not a legal move now" in out
    assert "'green 3' is not a legal move now" in out
    assert "wins the trick with" in out and "Round over. Tower:" in out
    assert "Stopped after 1 round, as asked." in out or "Game over after 1 round." in out


def test_cli_bench_for_bon() -> None:
    result = run_boon("bench", "--game", "bon", "--rounds", "20", "--env-rounds", "5",
                   "--players", "3")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "engine" in result.stdout and "env()" in result.stdout
