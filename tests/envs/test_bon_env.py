"""``bon_v0``: PettingZoo's conformance tests, the env contract, leakage and determinism."""

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
from pettingzoo.utils.env_logger import EnvLogger

from boon_env import bon_v0
from boon_env.core.bits import mask_of
from boon_env.games.bon.encoding import OBS_SIZE, decode
from boon_env.games.bon.rules import PASS, Deal, GameConfig, card_name, game_winners
from tests.helpers.bon import SCRIPTED_ROUNDS, SEED_HANDS, SEED_LEFTOVERS, cards, deal_option, tower
from tests.helpers.determinism import disturb_global_random

TABLES = [(n, episode) for n in (3, 4, 5) for episode in ("round", "game")]
SEED_DEAL = {"hands": [cards(h) for h in SEED_HANDS], "leftovers": cards(SEED_LEFTOVERS)}


def lowest_legal(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


# ------------------------------------------------------------------------ PettingZoo's tests
@pytest.mark.usefixtures("boon_in_api_test_lists")
@pytest.mark.parametrize(("players", "episode"), TABLES)
@pytest.mark.parametrize("make", [bon_v0.env, bon_v0.raw_env])
def test_api_test(make: Any, players: int, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(make(num_players=players, episode=episode), num_cycles=1000)


@pytest.mark.parametrize(("players", "episode"), TABLES)
def test_seed_test(players: int, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seed_test(lambda: bon_v0.env(num_players=players, episode=episode), num_cycles=500)


@pytest.mark.usefixtures("boon_in_api_test_lists")
def test_api_test_with_hidden_leftovers_a_round_cap_and_a_low_target() -> None:
    for config in ({"hidden_leftovers": True}, {"max_rounds": 2}, {"target_score": 1}):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            api_test(bon_v0.env(episode="game", **config), num_cycles=1000)


def test_registered_in_pettingzoos_registry() -> None:
    env = pettingzoo.make("aec", "boon/bon-v0", num_players=3)
    assert env.unwrapped.metadata["name"] == "bon_v0"
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


# ------------------------------------------------------------------------------ the contract
@pytest.mark.parametrize("players", [3, 4, 5])
def test_agents_and_spaces(players: int) -> None:
    env = bon_v0.env(num_players=players)
    env.reset(seed=0)
    names = [f"player_{seat}" for seat in range(players)]
    assert env.possible_agents == env.agents == names
    for agent in names:
        assert env.action_space(agent) == spaces.Discrete(34)
        space = env.observation_space(agent)
        assert space["observation"] == spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        assert space["action_mask"] == spaces.Box(0, 1, (34,), np.int8)
        assert space.contains(env.observe(agent))


def test_reset_options_set_the_deal_the_tower_and_the_leader() -> None:
    env = bon_v0.raw_env()
    env.reset(seed=3, options={"deal": SEED_DEAL, "tower": [2, 0, 1], "leader": 1})
    state = env.game.round
    assert state.tower == tower("blue, red, yellow")
    assert env.agent_selection == "player_1"
    assert state.deal.card_lists() == (
        [sorted(h) for h in SEED_DEAL["hands"]],
        sorted(SEED_DEAL["leftovers"]),
    )
    # Sue (seat 1) leads red 3: Julie holds no red and may play any card.
    env.step(cards("red 3")[0])
    assert lowest_legal(env.observe("player_2")) == cards("yellow 4")[0]


def test_without_options_the_tower_and_leader_come_from_the_seed() -> None:
    seen = set()
    for seed in range(30):
        env = bon_v0.raw_env()
        env.reset(seed=seed)
        again = bon_v0.raw_env()
        again.reset(seed=seed)
        assert (env.game.round.tower, env.agent_selection) == (
            again.game.round.tower,
            again.agent_selection,
        )
        seen.add((env.game.round.tower, env.agent_selection))
    assert len({tower for tower, _ in seen}) > 3 and len({agent for _, agent in seen}) == 4


def hand_with(seat: int, card: Any) -> dict[str, Any]:
    """SEED_DEAL with ``seat``'s first card replaced by ``card``."""
    hands = [list(h) for h in SEED_DEAL["hands"]]
    hands[seat][0] = card
    return {"hands": hands, "leftovers": SEED_DEAL["leftovers"]}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deal": {"hands": SEED_DEAL["hands"]}}, "exactly the keys 'hands' and 'leftovers'"),
        ({"deal": hand_with(3, 10)}, "holds 10, not a card of the 4-player deck"),  # red 11
        ({"deal": hand_with(3, cards("red 8")[0])}, "repeats red 8"),
        ({"deal": hand_with(2, PASS)}, "4 Pass cards, the 4-player deck has 3"),
        ({"deal": hand_with(3, "red 5")}, "not a card id"),
        ({"tower": [0, 1, 1]}, r"options\['tower'\]: the tower must list"),
        ({"tower": ["red", "yellow", "blue"]}, r"options\['tower'\]"),
        ({"leader": 4}, r"options\['leader'\] must be a seat 0-3, got 4"),
        ({"leader": "0"}, r"options\['leader'\] must be a seat"),
    ],
)
def test_bad_options_raise_and_leave_the_env_as_it_was(options: dict, message: str) -> None:
    env = bon_v0.raw_env()
    env.reset(seed=5)
    before = (env.game, env.agent_selection, env._rng.bit_generator.state)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=9, options=options)
    assert (env.game, env.agent_selection, env._rng.bit_generator.state) == before


def test_an_illegal_action_raises_naming_it_and_the_legal_ones() -> None:
    env = bon_v0.raw_env()
    env.reset(options={"deal": SEED_DEAL, "tower": [2, 0, 1], "leader": 0})
    env.step(cards("red 8")[0])
    history = list(env.game.round.history)
    legal = "legal actions: red 2, red 3, red 4, red 5, pass"
    with pytest.raises(ValueError, match=rf"illegal action 11 \(yellow 1\).*{legal}"):
        env.step(cards("yellow 1")[0])
    with pytest.raises(ValueError, match=r"action must be an integer 0-33"):
        env.step("red 2")
    assert env.game.round.history == history


def test_the_wrapped_env_ends_the_episode_on_an_illegal_action() -> None:
    env = bon_v0.env()
    env.reset(options={"deal": SEED_DEAL, "tower": [2, 0, 1], "leader": 0})
    env.step(cards("red 8")[0])
    EnvLogger.flush()
    env.step(cards("yellow 1")[0])
    assert any("Illegal move" in line for line in EnvLogger.mqueue)
    assert all(env.terminations.values())
    assert env.rewards["player_1"] == -1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_round_info_and_rewards_of_a_scripted_round(players: int) -> None:
    hands, leftovers, top_first, leader, tricks, won, points = SCRIPTED_ROUNDS[players]
    env = bon_v0.env(num_players=players)
    env.reset(
        options={
            "deal": {"hands": [cards(h) for h in hands], "leftovers": cards(leftovers)},
            "tower": list(tower(top_first)),
            "leader": leader,
        }
    )
    for trick in tricks:
        for card in cards(trick):
            env.step(card)
    info = env.infos["player_0"]["round"]
    assert info["tricks_won"] == won
    assert info["round_points"] == info["scores"] == points
    assert info["tower"] == list(env.unwrapped.game.round.tower)
    assert [t["cards"] for t in info["tricks"]] == [cards(t) for t in tricks]
    assert info["tricks"][0]["leader"] == leader
    assert all(info == env.infos[a]["round"] for a in env.agents)
    assert {a: env.rewards[a] for a in env.agents} == {
        f"player_{s}": float(p) for s, p in enumerate(points)
    }
    assert all(env.terminations.values())
    assert "game" not in env.infos["player_0"]


ROUND_INFO_TYPES = {
    "tricks_won": list,
    "round_points": list,
    "scores": list,
    "tower": list,
    "tricks": list,
}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_reports_every_round_the_same_way_and_its_winners(players: int) -> None:
    env = bon_v0.env(num_players=players, episode="game", target_score=3)
    env.reset(seed=players)
    rounds, scores, rewards = [], [0] * players, dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        rewards[agent] += reward
        if "round" in info and agent == "player_0":
            rounds.append(info)
        env.step(None if termination or truncation else lowest_legal(obs))
    assert len(rounds) >= 2
    for info in rounds:
        record = info["round"]
        assert {k: type(v) for k, v in record.items()} == ROUND_INFO_TYPES
        assert len(record["tricks"]) == 7
        assert all(set(t) == {"leader", "cards", "winner"} for t in record["tricks"])
        scores = [s + p for s, p in zip(scores, record["round_points"], strict=True)]
        assert record["scores"] == scores
    assert rewards == {f"player_{s}": float(score) for s, score in enumerate(scores)}
    final = rounds[-1]
    assert final["game"]["rounds"] == len(rounds)
    assert max(scores) >= 3
    taken = [0] * players
    for trick in final["round"]["tricks"]:
        taken[trick["winner"]] |= mask_of(c for c in trick["cards"] if c != PASS)
    winners = game_winners(scores, 3, final["round"]["tower"], taken)
    assert final["game"]["winners"] == [int(seat in winners) for seat in range(players)]


def test_a_capped_game_truncates() -> None:
    env = bon_v0.raw_env(episode="game", target_score=50, max_rounds=2)
    env.reset(seed=0)
    while not all(env.truncations.values()):
        assert not any(env.terminations.values())
        env.step(lowest_legal(env.observe(env.agent_selection)))
    assert env.infos["player_0"]["game"]["rounds"] == 2


def test_the_first_lead_passes_left_and_the_tower_carries_over_in_a_game() -> None:
    env = bon_v0.raw_env(episode="game")
    env.reset(seed=1, options={"leader": 3})
    for _ in range(28):
        env.step(lowest_legal(env.observe(env.agent_selection)))
    tower_at_end = env.infos["player_0"]["round"]["tower"]
    assert list(env.game.round.tower) == tower_at_end
    assert env.game.round.first_leader == 0 and env.agent_selection == "player_0"


def test_render_shows_the_tower_and_the_leftovers_only_when_face_up() -> None:
    options = {"deal": SEED_DEAL, "tower": [2, 0, 1], "leader": 0}
    shown = bon_v0.env(render_mode="ansi")
    shown.reset(options=options)
    text = shown.render()
    assert "tower (strongest first): blue > red > yellow" in text
    assert "Leftovers: red 6, red 7" in text
    hidden = bon_v0.env(render_mode="ansi", hidden_leftovers=True)
    hidden.reset(options=options)
    assert "red 6" not in hidden.render()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"num_players": 2}, "num_players must be one of"),
        ({"episode": "match"}, "episode must be one of"),
        ({"target_score": 0}, "target_score must be an integer >= 1"),
        ({"hidden_leftovers": "yes"}, "hidden_leftovers must be True or False"),
        ({"render_mode": "rgb_array"}, "render_mode must be one of"),
    ],
)
def test_a_bad_config_names_the_field(config: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bon_v0.env(**config)


# -------------------------------------------------------------------------------- encoding
def test_the_observation_decodes_to_what_the_player_may_know() -> None:
    env = bon_v0.raw_env()
    env.reset(options={"deal": SEED_DEAL, "tower": [2, 0, 1], "leader": 0})
    for card in cards("red 8, red 3"):
        env.step(card)
    pieces = decode(env.observe("player_2")["observation"])
    hand = np.flatnonzero(pieces["hand"]).tolist()
    assert [card_name(c) for c in hand] == [
        "yellow 4", "yellow 5", "yellow 6", "blue 1", "blue 3", "blue 4", "blue 5"
    ]  # fmt: skip
    assert pieces["hand_passes"].tolist() == [0, 0, 0, 0]
    assert [card_name(c) for c in np.flatnonzero(pieces["leftovers"])] == ["red 6", "red 7"]
    assert pieces["leftovers_face_up"].tolist() == [1]
    assert pieces["tower"].tolist() == [[0, 0, 1], [1, 0, 0], [0, 1, 0]]  # blue, red, yellow
    assert pieces["prime"].tolist() == [1, 0, 0]
    # Relative seats: player_0 (who led red 8) is 2 seats to player_2's left.
    assert pieces["leader"].tolist() == [0, 0, 1, 0, 0]
    assert np.flatnonzero(pieces["trick"][2]).tolist() == cards("red 8")
    assert np.flatnonzero(pieces["trick"][3]).tolist() == cards("red 3")
    assert np.flatnonzero(pieces["played"][3]).tolist() == cards("red 3")
    assert pieces["tricks_won"][:4, 0].tolist() == [1, 1, 1, 1]
    assert not pieces["tricks_won"][4].any()
    assert pieces["num_players"].tolist() == [0, 1, 0]
    env.step(cards("blue 1")[0])  # off-colour: player_2 shows it has no red
    env.step(cards("pass")[0])  # player_3 passes: shows nothing
    pieces = decode(env.observe("player_0")["observation"])
    assert pieces["voids"][2].tolist() == [1, 0, 0]
    assert not pieces["voids"][3].any()
    assert pieces["passes_played"][3].tolist() == [1, 0, 0, 0]
    assert pieces["tricks_won"][2].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]
    assert pieces["tower"].tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  # red, yellow, blue
    assert not pieces["trick"].any() and not pieces["prime"].any()


def test_scores_are_observed_relative_and_scaled() -> None:
    env = bon_v0.raw_env(num_players=3, episode="game", target_score=4)
    env.reset(seed=0)
    env.game.scores = [1, 2, 5]
    pieces = decode(env.observe("player_1")["observation"])
    assert pieces["scores"].tolist() == pytest.approx([2 / 5, 5 / 5, 1 / 5, 0, 0])


# -------------------------------------------------------------------------------- leakage
def other_cards_changed(config: GameConfig, deal: Deal, keep: int, seed: int) -> Deal:
    """Everyone's cards but seat ``keep``'s (and the face-up leftovers') dealt anew."""
    hands, leftovers = deal.card_lists()
    rng = np.random.default_rng(seed)
    others = [s for s in range(config.num_players) if s != keep]
    pool = rng.permutation([c for s in others for c in hands[s]]).tolist()
    for s in others:
        hands[s], pool = pool[:7], pool[7:]
    return Deal.from_cards(config, hands, leftovers)


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_a_player_sees_the_same_until_a_card_it_can_see_differs(data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([3, 4, 5]), label="players")
    hidden = data.draw(st.booleans(), label="hidden leftovers")
    config = GameConfig(num_players=n)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    me = data.draw(st.integers(0, n - 1), label="observer")
    first = Deal.random(config, np.random.default_rng(seed))
    second = other_cards_changed(config, first, me, seed + 1)
    if hidden:  # face-down leftovers may change too: swap one with another player's card
        hands, leftovers = second.card_lists()
        other = (me + 1) % n
        hands[other][0], leftovers[0] = leftovers[0], hands[other][0]
        second = Deal.from_cards(config, hands, leftovers)
    options = {"tower": [0, 1, 2], "leader": data.draw(st.integers(0, n - 1), label="leader")}
    envs = []
    for deal in (first, second):
        env = bon_v0.raw_env(num_players=n, hidden_leftovers=hidden)
        env.reset(options={**options, "deal": deal_option(deal)})
        envs.append(env)
    one, two = envs
    observer = f"player_{me}"
    while not all(one.terminations.values()):
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(one.observe(observer)[key], two.observe(observer)[key])
        legal = sorted(set(one.game.round.legal_actions()) & set(two.game.round.legal_actions()))
        if not legal:
            return  # the hands differ: the same card can no longer be played at both tables
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        one.step(move)
        two.step(move)


def test_hidden_leftovers_are_in_no_observation() -> None:
    env = bon_v0.raw_env(hidden_leftovers=True)
    env.reset(options={"deal": SEED_DEAL, "tower": [2, 0, 1], "leader": 0})
    while not all(env.terminations.values()):
        for agent in env.agents:
            pieces = decode(env.observe(agent)["observation"])
            assert not pieces["leftovers"].any() and not pieces["leftover_passes"].any()
            assert not pieces["leftovers_face_up"].any()
            for name in ("hand", "played"):
                seen = np.flatnonzero(pieces[name].reshape(-1, 33).any(axis=0)).tolist()
                assert not set(seen) & set(cards("red 6, red 7")), name
        env.step(lowest_legal(env.observe(env.agent_selection)))


# ---------------------------------------------------------------------------- determinism
def trajectory(players: int, episode: str, seed: int, disturb: int | None) -> list[Any]:
    """Everything an outside observer sees in one episode; moves from a fixed policy RNG."""
    env = bon_v0.env(num_players=players, episode=episode, target_score=3, max_rounds=6)
    policy = np.random.default_rng(99)
    env.reset(seed=seed)
    seen: list[Any] = []
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, termination, truncation, info = env.last()
        seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
        seen.append(repr((termination, truncation, info)))
        if disturb is not None:
            disturb_global_random(disturb + step)
        if termination or truncation:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[policy.integers(len(legal))]))
    return seen


@pytest.mark.parametrize(("players", "episode"), TABLES)
def test_same_seed_same_game_despite_global_random_use(players: int, episode: str) -> None:
    quiet = trajectory(players, episode, seed=7, disturb=None)
    assert trajectory(players, episode, seed=7, disturb=3) == quiet
    assert trajectory(players, episode, seed=8, disturb=None) != quiet
    assert len(quiet) > 2 * 7 * players
