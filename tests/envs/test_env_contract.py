"""The ``boon_v0`` contract that code outside the package relies on (agents, training, CLI)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.utils.env_logger import EnvLogger

from boon_env import boon_v0
from boon_env.games.boon.encoding import OBS_SIZE, decode
from boon_env.games.boon.rules import PASS, PICK, card_name, parse_card
from tests.helpers.boon import cards

# Seat 0 keeps gold 1-7 and buries the Boon's 30 points; seat 1 (gold 8-14) takes every trick.
BURY_30 = {
    "hands": [
        cards("gold 1, gold 2, gold 3, gold 4, gold 5, gold 6, gold 7"),
        cards("gold 8, gold 9, gold 10, gold 11, gold 12, gold 13, gold 14"),
        cards("green 1, green 2, green 3, green 5, red 1, red 2, red 3"),
        cards("red 5, blue 1, blue 2, blue 3, blue 4, blue 5, blue 6"),
    ],
    "boon": cards("green 6, red 6, green 4, red 4"),
}


def lowest_legal(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def run_episode(env: Any, policy: Callable[[dict[str, np.ndarray]], int] = lowest_legal) -> Any:
    """Play until every agent is done; returns the env."""
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        env.step(None if termination or truncation else policy(obs))
    return env


def play_bury_30(env: Any) -> None:
    """Seat 3 deals; seat 0 picks and buries the Boon; everyone plays its lowest legal card."""
    env.reset(options={"deal": BURY_30, "dealer": 3})
    env.step(PICK)
    for card in BURY_30["boon"]:
        env.step(card)
    while not all(env.terminations.values()):
        env.step(lowest_legal(env.observe(env.agent_selection)))


# ----------------------------------------------------------------------------- spaces and agents


@pytest.mark.parametrize("players", [3, 4, 5])
def test_agents_and_spaces(players: int) -> None:
    env = boon_v0.env(num_players=players)
    env.reset(seed=0)
    names = [f"player_{seat}" for seat in range(players)]
    assert env.possible_agents == names
    assert env.agents == names
    for agent in names:
        assert env.action_space(agent) == spaces.Discrete(34)
        space = env.observation_space(agent)
        assert isinstance(space, spaces.Dict)
        assert set(space.spaces) == {"observation", "action_mask"}
        assert space["observation"] == spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        assert space["action_mask"] == spaces.Box(0, 1, (34,), np.int8)
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        assert space.contains(obs)


@pytest.mark.parametrize(("dealer", "first"), [(0, 1), (2, 3), (3, 0)])
def test_a_chosen_first_dealer_deals_and_the_seat_on_its_left_decides(
    dealer: int, first: int
) -> None:
    env = boon_v0.raw_env()
    env.reset(seed=1, options={"dealer": dealer})
    assert env.game.round.dealer == dealer
    assert env.agent_selection == f"player_{first}"  # left of the dealer decides first
    assert decode(env.observe("player_0")["observation"])["dealer"][dealer] == 1


@pytest.mark.parametrize("episode", ["round", "game"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_without_a_dealer_option_the_first_dealer_is_drawn_from_the_seed(
    episode: str, n: int
) -> None:
    env = boon_v0.raw_env(num_players=n, episode=episode)
    dealers = []
    for seed in range(40):
        env.reset(seed=seed)
        dealers.append(env.game.round.dealer)
        assert env.agent_selection == f"player_{(dealers[-1] + 1) % n}"
    assert set(dealers) == set(range(n)), "every seat deals first for some seed"
    again = boon_v0.raw_env(num_players=n, episode=episode)
    assert [again.reset(seed=s) or again.game.round.dealer for s in range(40)] == dealers


def test_only_the_acting_agent_has_a_non_zero_mask() -> None:
    env = boon_v0.raw_env(num_players=5)
    env.reset(seed=2)
    while not all(env.terminations.values()):
        acting = env.agent_selection
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            if agent == acting:
                assert mask.any()
                assert set(np.flatnonzero(mask)) == set(env.game.round.legal_actions())
            else:
                assert not mask.any(), f"{agent} is not acting but has legal actions"
        env.step(lowest_legal(env.observe(acting)))
    for agent in env.agents:
        assert not env.observe(agent)["action_mask"].any()


# ----------------------------------------------------------------------------- bad input


def seat_3_first_card(card: Any) -> dict[str, Any]:
    """BURY_30 with seat 3's first card replaced by ``card``."""
    return {
        "hands": [*BURY_30["hands"][:3], [card, *BURY_30["hands"][3][1:]]],
        "boon": BURY_30["boon"],
    }


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({**BURY_30, "boon": BURY_30["boon"][:3]}, "boon has 3 cards, expected 4"),
        ({**BURY_30, "hands": [*BURY_30["hands"][:3], BURY_30["hands"][3][:6]]}, "hand 3 has 6"),
        ({**BURY_30, "hands": BURY_30["hands"][:3]}, "3 hands, expected 4"),
        (seat_3_first_card(parse_card("gold 1")), "repeats card 18"),
        (seat_3_first_card("red 5"), "not a card id"),
        (seat_3_first_card(32), "not a card id"),
        (seat_3_first_card(-1), "not a card id"),
        (seat_3_first_card(9.0), "not a card id"),
        (seat_3_first_card(True), "not a card id"),
        ({"hands": BURY_30["hands"]}, "hands.*boon"),
        ([1, 2, 3], "hands.*boon"),
    ],
)
def test_a_bad_deal_is_refused_naming_the_problem(deal: Any, message: str) -> None:
    env = boon_v0.env()
    with pytest.raises(ValueError, match=message):
        env.reset(options={"deal": deal})


def test_a_three_player_deal_may_not_hold_green_1_or_red_1() -> None:
    rest = [c for c in range(32) if card_name(c) not in ("green 1", "red 1")]
    hands = [rest[0:9], rest[9:18], rest[18:27]]
    boon = rest[27:30]
    env = boon_v0.env(num_players=3)
    env.reset(options={"deal": {"hands": hands, "boon": boon}})  # the reduced deck is fine
    for removed in ("green 1", "red 1"):
        bad = [[parse_card(removed), *hands[0][1:]], hands[1], hands[2]]
        with pytest.raises(ValueError, match="not in the 3-player deck"):
            env.reset(options={"deal": {"hands": bad, "boon": boon}})


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"num_players": 2}, "num_players"),
        ({"num_players": 6}, "num_players"),
        ({"episode": "x"}, "episode"),
        ({"render_mode": "y"}, "render_mode"),
        ({"starting_victory_cards": 0}, "starting_victory_cards"),
        ({"max_rounds": 0}, "max_rounds"),
    ],
)
def test_a_bad_config_is_refused_naming_the_field(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        boon_v0.env(**kwargs)
    with pytest.raises(ValueError, match=field):
        boon_v0.raw_env(**kwargs)


def test_an_unknown_config_key_is_refused() -> None:
    with pytest.raises(TypeError):
        boon_v0.env(players=4)


@pytest.mark.parametrize("dealer", [4, -1, "0", True])
def test_a_bad_dealer_option_is_refused(dealer: Any) -> None:
    with pytest.raises(ValueError, match="dealer"):
        boon_v0.env().reset(options={"dealer": dealer})


# ----------------------------------------------------------------------------- illegal actions


def everything_observable(env: Any) -> dict[str, Any]:
    return {
        "selection": env.agent_selection,
        "obs": {a: {k: v.tolist() for k, v in env.observe(a).items()} for a in env.agents},
        "rewards": dict(env.rewards),
        "cumulative": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "history": list(env.game.round.history),
        "victory_cards": list(env.game.victory_cards),
    }


@pytest.mark.parametrize("moves", [0, 1, 5, 12])
def test_raw_env_refuses_an_illegal_action_and_changes_nothing(moves: int) -> None:
    env = boon_v0.raw_env()
    env.reset(options={"deal": BURY_30, "dealer": 3})
    for _ in range(moves):
        env.step(lowest_legal(env.observe(env.agent_selection)))
    before = everything_observable(env)
    legal = set(env.game.round.legal_actions())
    for bad in [a for a in range(34) if a not in legal]:
        with pytest.raises(ValueError, match=r"illegal action .*legal actions: ") as error:
            env.step(bad)
        name = "pick" if bad == PICK else "pass" if bad == PASS else card_name(bad)
        assert f"illegal action {bad} ({name})" in str(error.value)
        for good in legal:
            good_name = "pick" if good == PICK else "pass" if good == PASS else card_name(good)
            assert good_name in str(error.value).split("legal actions: ")[1]
        assert everything_observable(env) == before
    for bad in (34, -1, "pick", 1.5):
        with pytest.raises(ValueError):
            env.step(bad)
        assert everything_observable(env) == before


@pytest.mark.parametrize(("episode", "moves"), [("round", 0), ("game", 0), ("game", 9)])
def test_wrapped_env_ends_the_game_with_minus_one_for_an_illegal_move(
    episode: str, moves: int
) -> None:
    env = boon_v0.env(episode=episode)
    env.reset(seed=3)
    for _ in range(moves):
        env.step(lowest_legal(env.observe(env.agent_selection)))
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    EnvLogger.flush()
    env.step(illegal)
    # PettingZoo logs (it does not warnings.warn) its illegal-move message.
    assert any("Illegal move" in str(message) for message in EnvLogger.mqueue)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1
    assert all(r == 0 for a, r in env.rewards.items() if a != offender)
    rewards = {}
    for agent in env.agent_iter():
        _obs, reward, termination, _truncation, _info = env.last()
        assert termination
        rewards[agent] = reward
        env.step(None)
    assert rewards == {a: (-1 if a == offender else 0) for a in env.possible_agents}


# ----------------------------------------------------------------------------- scoring and infos

ROUND_KEYS = {
    "picker",
    "leaster",
    "leaster_winner",
    "points",
    "tricks_won",
    "payout",
    "value",
    "victory_cards",
    "discards",
    "tricks",
}


def test_a_scored_round_is_reported_to_every_agent() -> None:
    env = boon_v0.raw_env()
    play_bury_30(env)
    assert env.rewards == {"player_0": -3.0, "player_1": 1.0, "player_2": 1.0, "player_3": 1.0}
    for agent in env.possible_agents:
        info = env.infos[agent]
        assert set(info) == {"round"}  # no "game" in round mode
        record = info["round"]
        assert set(record) == ROUND_KEYS
        assert record["picker"] == 0
        assert record["leaster"] is False
        assert record["points"] == [30, 90, 0, 0]
        assert record["tricks_won"] == [0, 7, 0, 0]
        assert record["payout"] == [-3, 1, 1, 1]
        assert record["value"] == [-3, 1, 1, 1]
        assert record["leaster_winner"] == -1
        assert record["victory_cards"] == [2, 6, 6, 6]
        assert record["discards"] == sorted(BURY_30["boon"])
        assert len(record["tricks"]) == 7
        first = record["tricks"][0]
        assert first == {"leader": 0, "cards": cards("gold 1, gold 8, green 1, red 5"), "winner": 1}
        assert all(t["winner"] == 1 for t in record["tricks"])
        assert record["tricks"][1]["leader"] == 1


def test_round_episode_terminates_every_agent_with_its_reward() -> None:
    env = boon_v0.env()
    play_bury_30(env)
    assert all(env.terminations.values())
    assert not any(env.truncations.values())
    seen = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        assert termination and not truncation
        assert not obs["action_mask"].any()
        assert "round" in info
        seen[agent] = reward
        env.step(None)
    assert seen == {"player_0": -3, "player_1": 1, "player_2": 1, "player_3": 1}
    assert env.agents == []


def test_a_leaster_round_reports_no_picker_and_no_discards_as_minus_one() -> None:
    env = boon_v0.raw_env()
    env.reset(options={"deal": BURY_30, "dealer": 3})
    for _ in range(4):
        env.step(PASS)
    while not all(env.terminations.values()):
        env.step(lowest_legal(env.observe(env.agent_selection)))
    record = env.infos["player_2"]["round"]
    assert record["picker"] == -1
    assert record["leaster"] is True
    assert record["discards"] == [-1, -1, -1, -1]  # padded to the Boon's size
    assert sum(record["points"]) == 120 - 30
    # Seat 1 took every trick: it is the only qualified player and wins the Leaster.
    assert record["leaster_winner"] == 1
    assert record["payout"] == record["value"] == [-1, 3, -1, -1]


def collect_game(env: Any, seed: int) -> dict[str, Any]:
    """Play a whole game, checking rewards step by step; returns what was seen."""
    env.reset(seed=seed)
    raw = env.unwrapped
    start = list(raw.game.victory_cards)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    dealers = [raw.game.round.dealer]
    rounds = 0
    records = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(lowest_legal(obs) if rounds % 2 else int(np.flatnonzero(obs["action_mask"])[-1]))
        if raw.game.rounds_played > rounds:
            rounds = raw.game.rounds_played
            record = raw.infos[env.possible_agents[0]]["round"]
            records.append(record)
            assert [raw.rewards[a] for a in env.possible_agents] == record["payout"]
            assert sum(raw.rewards.values()) == 0
            if raw.game.round.dealer != dealers[-1]:
                dealers.append(raw.game.round.dealer)
        else:
            assert all(r == 0 for r in raw.rewards.values())
    final = list(raw.game.victory_cards)
    return {
        "start": start,
        "final": final,
        "totals": totals,
        "dealers": dealers,
        "records": records,
        "last_info": info,
        "termination": termination,
        "truncation": truncation,
        "rounds": rounds,
    }


def test_game_episode_plays_rounds_until_someone_has_no_victory_cards() -> None:
    env = boon_v0.env(num_players=3, episode="game", starting_victory_cards=2)
    seen = collect_game(env, seed=5)
    assert seen["rounds"] >= 2
    assert min(seen["final"]) == 0
    assert all(min(r["victory_cards"]) > 0 for r in seen["records"][:-1])
    assert seen["termination"] and not seen["truncation"]
    # Rewards are each agent's change in Victory Cards, summed over the game.
    assert [seen["totals"][f"player_{s}"] for s in range(3)] == [
        f - s for f, s in zip(seen["final"], seen["start"], strict=True)
    ]
    # The deal passes left every round, from the first dealer the seed drew.
    first = seen["dealers"][0]
    assert seen["dealers"] == [(first + k) % 3 for k in range(seen["rounds"])]
    most = max(seen["final"])
    assert seen["last_info"]["game"] == {
        "winners": [int(vc == most) for vc in seen["final"]],
        "rounds": seen["rounds"],
    }


def test_game_episode_truncates_at_max_rounds() -> None:
    env = boon_v0.env(num_players=4, episode="game", starting_victory_cards=30, max_rounds=3)
    seen = collect_game(env, seed=6)
    assert seen["rounds"] == 3
    assert min(seen["final"]) > 0
    assert seen["truncation"] and not seen["termination"]
    assert seen["last_info"]["game"]["rounds"] == 3
    first = seen["dealers"][0]
    assert seen["dealers"] == [first, (first + 1) % 4, (first + 2) % 4]
    assert [seen["totals"][f"player_{s}"] for s in range(4)] == [f - 30 for f in seen["final"]]


def test_game_episode_reports_round_infos_between_rounds_without_ending() -> None:
    env = boon_v0.raw_env(episode="game", starting_victory_cards=30)
    env.reset(options={"deal": BURY_30, "dealer": 3})
    env.step(PICK)
    for card in BURY_30["boon"]:
        env.step(card)
    while env.game.rounds_played == 0:
        env.step(lowest_legal(env.observe(env.agent_selection)))
    assert not any(env.terminations.values())
    assert not any(env.truncations.values())
    assert all(set(env.infos[a]) == {"round"} for a in env.agents)
    assert env.game.victory_cards == [27, 31, 31, 31]
    # The next round is dealt by seat 0 (left of seat 3) and seat 1 decides first.
    assert env.game.round.dealer == 0
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"].tolist() == [0] * 32 + [1, 1]


# ----------------------------------------------------------------------------- rendering


def test_render_ansi_shows_phase_hand_points_and_victory_cards() -> None:
    env = boon_v0.env(render_mode="ansi")
    env.reset(options={"deal": BURY_30, "dealer": 3})
    text = env.render()
    assert isinstance(text, str)
    assert "pick" in text.lower()
    for card in BURY_30["hands"][0]:  # the acting hand (seat 0)
        assert card_name(card) in text
    assert "points" in text and "victory cards" in text
    env.step(PICK)
    for card in BURY_30["boon"]:
        env.step(card)
    env.step(parse_card("gold 1"))
    env.step(parse_card("gold 8"))
    text = env.render()
    assert "play" in text.lower()
    assert "gold 1" in text and "gold 8" in text  # the trick so far
    assert "red 1" in text  # seat 2, to act, holds it


def test_render_human_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = boon_v0.env(render_mode="human")
    env.reset(options={"deal": BURY_30, "dealer": 3})
    assert env.render() is None
    out = capsys.readouterr().out
    assert "gold 7" in out and "victory cards" in out
    env.step(PICK)  # human mode renders after every step
    assert "discard" in capsys.readouterr().out.lower()
