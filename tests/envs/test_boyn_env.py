"""``boyn_v0``: PettingZoo's conformance tests, the environment's contract and determinism."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pettingzoo
import pytest
from gymnasium import spaces
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from boon_env import boyn_v0
from boon_env.games.boyn.encoding import LAYOUT, OBS_SIZE, SIZE_SCALE
from boon_env.games.boyn.rules import NUM_ACTIONS, PLAYER_COUNTS, Deal, GameConfig, parse_action
from boon_env.games.boyn.rules.cards import NUM_KINDS, parse_cards
from tests.helpers.boyn import make_deal
from tests.helpers.determinism import trace

TABLES = [(n, episode) for n in PLAYER_COUNTS for episode in ("round", "game")]
# A short game: rounds end in a game limit after a round or two.
SHORT_GAME = {"episode": "game", "game_limit": 60}


def lowest_legal(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def deal_option(hands: tuple[str, ...], stock: str = "") -> dict[str, Any]:
    deal = make_deal(GameConfig(num_players=len(hands)), hands, stock)
    return {"hands": [list(hand) for hand in deal.hands], "stock": list(deal.stock)}


# Seat 0 sheds seven 7s, each skipping seat 1; seat 1 holds 85 points.
SEVENS_OUT = deal_option(
    (
        "7 of hearts, 7 of clubs, 7 of diamonds, 7 of spades, 7 of hearts, 7 of clubs, "
        "7 of diamonds",
        "2 of clubs, 3 of spades, 3 of diamonds, 10 of hearts, king of spades, jack of hearts, "
        "ace of spades",
    ),
    "5 of hearts",
)
SEVENS = (
    "7 of hearts, 7 of clubs, 7 of diamonds, 7 of spades, 7 of hearts, 7 of clubs, 7 of diamonds"
)


# ----------------------------------------------------------------------------- PettingZoo


@pytest.mark.usefixtures("boon_in_api_test_lists")
@pytest.mark.parametrize(("players", "episode"), TABLES)
def test_api_test(players: int, episode: str) -> None:
    for make in (boyn_v0.env, boyn_v0.raw_env):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            api_test(make(num_players=players, episode=episode), num_cycles=500)


@pytest.mark.parametrize(("players", "episode"), TABLES)
def test_seed_test(players: int, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seed_test(lambda: boyn_v0.env(num_players=players, episode=episode), num_cycles=300)


@pytest.mark.usefixtures("boon_in_api_test_lists")
@pytest.mark.parametrize(
    "config",
    [SHORT_GAME, {"max_turns": 5}, {"episode": "game", "max_turns": 30}, {"draw_rule": "one"}],
)
def test_api_test_through_game_ends_and_truncations(config: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(boyn_v0.env(**config), num_cycles=1000)


def test_importing_boon_env_registers_boyn() -> None:
    made = pettingzoo.make("aec", "boon/boyn-v0", num_players=3)
    assert made.possible_agents == ["player_0", "player_1", "player_2"]
    assert made.metadata["name"] == "boyn_v0"


# ----------------------------------------------------------------------------- spaces


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_agents_and_spaces(players: int) -> None:
    env = boyn_v0.env(num_players=players)
    env.reset(seed=0)
    names = [f"player_{seat}" for seat in range(players)]
    assert env.possible_agents == env.agents == names
    for agent in names:
        assert env.action_space(agent) == spaces.Discrete(NUM_ACTIONS)
        space = env.observation_space(agent)
        assert space["observation"] == spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        assert space["action_mask"] == spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        assert space.contains(env.observe(agent))


def test_the_docstring_states_the_spaces() -> None:
    assert f"`observation` ({OBS_SIZE},) float32, `action_mask` ({NUM_ACTIONS},) int8" in (
        boyn_v0.__doc__
    )


# ----------------------------------------------------------------------------- the contract


def test_an_injected_deal_and_dealer_are_played() -> None:
    env = boyn_v0.raw_env(num_players=2)
    env.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    assert env.agent_selection == "player_0"
    pieces = LAYOUT.decode(env.observe("player_0")["observation"])
    np.testing.assert_array_equal(pieces["hand"].sum(axis=0), _counts(SEVENS))
    assert pieces["dealer"][1] == 1  # the dealer is one seat to player_0's left
    assert np.rint(pieces["hand_sizes"] * SIZE_SCALE).tolist() == [7, 7, 0, 0, 0, 0]


def test_a_round_scores_minus_the_points_and_records_it_in_info() -> None:
    env = boyn_v0.env(num_players=2)
    env.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    for move in SEVENS.split(","):
        env.step(parse_action(move))
    expected = {"out": 0, "points": [0, 85], "totals": [0, 85], "turns": 13, "reshuffles": 0}
    for agent in env.agents:
        assert env.terminations[agent] and not env.truncations[agent]
        assert env.infos[agent]["round"] == {**expected, "dealer": 1}
    assert env._cumulative_rewards == {"player_0": 0.0, "player_1": -85.0}


def test_a_whole_game_reports_its_winners() -> None:
    env = boyn_v0.raw_env(num_players=2, episode="game", game_limit=85)
    env.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    for move in SEVENS.split(","):
        env.step(parse_action(move))
    assert env.infos["player_0"]["game"] == {"winners": [1, 0], "rounds": 1}
    assert all(env.terminations.values())


def test_a_game_goes_on_below_the_limit_and_the_deal_passes_left() -> None:
    env = boyn_v0.raw_env(num_players=2, episode="game", game_limit=86)
    env.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    for move in SEVENS.split(","):
        env.step(parse_action(move))
    assert not any(env.terminations.values())
    assert env.game.round.dealer == 0 and env.game.totals == [0, 85]
    assert env.infos["player_1"]["round"]["points"] == [0, 85]


@pytest.mark.parametrize("episode", ["round", "game"])
def test_a_truncated_round_ends_the_episode_as_a_truncation(episode: str) -> None:
    env = boyn_v0.env(episode=episode, max_turns=3)
    env.reset(seed=4)
    for _ in range(3):
        env.step(lowest_legal(env.observe(env.agent_selection)))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    info = env.infos["player_0"]
    assert info["round"]["out"] == -1 and info["round"]["points"] == [0] * 4
    assert info["round"]["turns"] == 3
    if episode == "game":
        assert info["game"] == {"winners": [1, 1, 1, 1], "rounds": 1}


# Neither hand holds a club, a Jack or a red 3, nor do the stock's first 13 cards: under the
# Jack of clubs, the one-card rule makes both players pass turn after turn.
PASSING = deal_option(
    (
        "4 of diamonds, 6 of diamonds, 8 of diamonds, 9 of spades, 10 of spades, 6 of hearts, "
        "8 of hearts",
        "4 of spades, 6 of spades, 8 of spades, 9 of diamonds, 10 of diamonds, 9 of hearts, "
        "10 of hearts",
    ),
    "jack of clubs, 2 of hearts, 2 of hearts, 2 of spades, 2 of spades, 4 of hearts, 4 of hearts, "
    "5 of hearts, 5 of hearts, 7 of hearts, 7 of hearts, king of hearts, king of hearts, "
    "king of spades",
)


def test_a_round_truncated_by_the_first_players_passes_ends_at_reset() -> None:
    env = boyn_v0.raw_env(num_players=2, episode="game", draw_rule="one", max_turns=1)
    env.reset(options={"deal": PASSING, "dealer": 1})
    assert all(env.truncations.values())
    assert env.infos["player_1"]["round"]["turns"] == 1
    assert env.infos["player_1"]["game"] == {"winners": [1, 1], "rounds": 1}
    for _agent in env.agent_iter():
        assert env.last()[3]
        env.step(None)
    assert env.agents == []


def test_a_next_round_truncated_before_its_first_decision_ends_the_game_on_top() -> None:
    env = boyn_v0.raw_env(num_players=2, episode="game", draw_rule="one", max_turns=13)
    env.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    # The second round (player_0 deals) is the passing deal: thirteen passes truncate it.
    env._random_deal = lambda: Deal.from_cards(env.config.rules, **PASSING)
    for move in SEVENS.split(","):
        env.step(parse_action(move))
    assert all(env.truncations.values())
    info = env.infos["player_0"]
    assert info["round"] == {
        "out": -1,
        "points": [0, 0],
        "totals": [0, 85],
        "turns": 13,
        "reshuffles": 0,
        "dealer": 0,
    }
    assert info["game"] == {"winners": [1, 0], "rounds": 2}
    assert env._cumulative_rewards == {"player_0": 0.0, "player_1": -85.0}  # the first round's


def test_raw_env_raises_on_an_illegal_action_and_env_ends_the_game_for_it() -> None:
    raw = boyn_v0.raw_env(num_players=2)
    raw.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    with pytest.raises(ValueError, match="illegal action"):
        raw.step(parse_action("2 of clubs"))
    with pytest.raises(ValueError, match="must be an integer"):
        raw.step("7 of hearts")
    wrapped = boyn_v0.env(num_players=2)
    wrapped.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about the illegal move
        wrapped.step(parse_action("2 of clubs"))
    assert wrapped.rewards["player_0"] == -1 and all(wrapped.terminations.values())


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 10**30])
def test_env_asserts_an_action_outside_the_space(action: int) -> None:
    env = boyn_v0.env(num_players=2)
    env.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    with pytest.raises(AssertionError, match="not in action space"):
        env.step(action)
    assert env.unwrapped.game.round.turns == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dealer": 2}, "dealer"),
        ({"dealer": True}, "dealer"),
        ({"deal": {"hands": SEVENS_OUT["hands"]}}, "exactly the keys"),
        ({"deal": {**SEVENS_OUT, "stock": SEVENS_OUT["stock"][:-1]}}, "stock must hold 90"),
        ({"deal": {**SEVENS_OUT, "stock": [0, *SEVENS_OUT["stock"][1:]]}}, "holds 3 of"),
    ],
)
def test_bad_reset_options_raise_and_leave_the_env_as_it_was(
    options: dict[str, Any], message: str
) -> None:
    env = boyn_v0.raw_env(num_players=2)
    env.reset(seed=5)
    before = env.observe(env.agent_selection)["observation"].copy()
    with pytest.raises(ValueError, match=message):
        env.reset(seed=6, options=options)
    np.testing.assert_array_equal(env.observe(env.agent_selection)["observation"], before)
    env.reset()  # the generator was not reseeded by the rejected reset
    follow = boyn_v0.raw_env(num_players=2)
    follow.reset(seed=5)
    follow.reset()
    assert env.game.round.deal == follow.game.round.deal


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"num_players": 7}, "num_players"),
        ({"episode": "match"}, "episode"),
        ({"draw_rule": 1}, "draw_rule"),
    ],
)
def test_bad_configuration_is_rejected(config: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        boyn_v0.env(**config)


def test_render_shows_the_table() -> None:
    env = boyn_v0.env(num_players=2, render_mode="ansi")
    env.reset(options={"deal": SEVENS_OUT, "dealer": 1})
    env.step(parse_action("7 of hearts"))
    text = env.render()
    assert "Active card: 7 of hearts" in text
    assert "player_0 plays 7 of hearts; player_1 is skipped" in text
    assert "Hand of player_0: 7 of clubs" in text


# ----------------------------------------------------------------------------- invariants


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_decision_shows_a_mask_and_the_true_hand_sizes(data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(PLAYER_COUNTS), label="players")
    env = boyn_v0.env(
        num_players=players,
        episode=data.draw(st.sampled_from(["round", "game"]), label="episode"),
        draw_rule=data.draw(st.sampled_from(["until_playable", "one"]), label="draw rule"),
        game_limit=100,
    )
    env.reset(seed=data.draw(st.integers(0, 2**32 - 1), label="seed"))
    for agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, "a decision without a legal action"
        seat = int(agent.split("_")[1])
        sizes = env.unwrapped.game.round.hand_sizes()
        seen = LAYOUT.decode(obs["observation"])["hand_sizes"][:players] * SIZE_SCALE
        assert np.rint(seen).tolist() == [sizes[(seat + r) % players] for r in range(players)]
        env.step(int(legal[data.draw(st.integers(0, len(legal) - 1))]))


# ----------------------------------------------------------------------------- determinism


def trajectory(players: int, episode: str, seed: int, disturb: int | None) -> list[Any]:
    """Everything an outside observer sees in one episode; moves from a fixed policy RNG."""
    return trace(boyn_v0.env(num_players=players, episode=episode, game_limit=60), seed, disturb)


@pytest.mark.parametrize(("players", "episode"), [(2, "game"), (4, "round"), (6, "game")])
def test_the_same_seed_plays_the_same_game_whatever_the_global_generators_do(
    players: int, episode: str
) -> None:
    quiet = trajectory(players, episode, seed=21, disturb=None)
    assert trajectory(players, episode, seed=21, disturb=1) == quiet
    assert trajectory(players, episode, seed=22, disturb=None) != quiet
    assert len(quiet) > players


def _counts(names: str) -> np.ndarray:
    counts = np.zeros(NUM_KINDS)
    for kind in parse_cards(names):
        counts[kind] += 1
    return counts
