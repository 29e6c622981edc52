"""No hidden information reaches an observation: what a player sees depends only on its own
cards and on what has been played in front of it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env import boon_v0
from boon_env.games.boon.encoding import decode
from boon_env.games.boon.rules import PASS, PICK, Deal, GameConfig, cards_of
from tests.helpers.boon import cards


def other_cards_changed(config: GameConfig, deal: Deal, keep: int, seed: int, swaps: int) -> Deal:
    """The same hand for seat ``keep``; everyone else's cards and the Boon changed: dealt anew
    (``swaps == 0``) or changed by ``swaps`` exchanges of two cards between other places."""
    rng = np.random.default_rng(seed)
    places = [list(cards_of(h)) for h in deal.hands] + [list(cards_of(deal.boon))]
    others = [i for i in range(len(places)) if i != keep]
    if swaps == 0:
        pool = rng.permutation([c for i in others for c in places[i]]).tolist()
        for i in others:
            places[i], pool = pool[: len(places[i])], pool[len(places[i]) :]
    for _ in range(swaps):
        a, b = rng.choice(others, size=2, replace=False)
        i, j = rng.integers(len(places[a])), rng.integers(len(places[b]))
        places[a][i], places[b][j] = places[b][j], places[a][i]
    return Deal.from_cards(config, places[:-1], places[-1])


def as_option(config: GameConfig, deal: Deal) -> dict[str, list[list[int]] | list[int]]:
    return {"hands": [list(cards_of(h)) for h in deal.hands], "boon": list(cards_of(deal.boon))}


def assert_same_view(first: dict[str, np.ndarray], second: dict[str, np.ndarray]) -> None:
    for key in ("observation", "action_mask"):
        np.testing.assert_array_equal(first[key], second[key], err_msg=key)


@settings(max_examples=250, deadline=None)
@given(st.data())
def test_a_player_sees_the_same_until_a_card_it_can_see_differs(data: st.DataObject) -> None:
    config = GameConfig(num_players=data.draw(st.sampled_from([3, 4, 5]), label="players"))
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    me = data.draw(st.integers(0, config.num_players - 1), label="observer")
    dealer = data.draw(st.integers(0, config.num_players - 1), label="dealer")
    first = Deal.random(config, np.random.default_rng(seed))
    swaps = data.draw(st.integers(0, 3), label="swaps (0: all dealt anew)")
    second = other_cards_changed(config, first, me, seed + 1, swaps)
    observer = f"player_{me}"
    envs = []
    for deal in (first, second):
        env = boon_v0.raw_env(num_players=config.num_players)
        env.reset(options={"deal": as_option(config, deal), "dealer": dealer})
        envs.append(env)
    one, two = envs
    steps = 0
    while not all(one.terminations.values()):
        # Both tables have seen the same actions, so the observer's view must not differ.
        assert_same_view(one.observe(observer), two.observe(observer))
        assert one.agent_selection == two.agent_selection
        legal = sorted(set(one.game.round.legal_actions()) & set(two.game.round.legal_actions()))
        if not legal:
            break  # the players' cards differ: the same move is no longer possible in both
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        if move == PICK and one.agent_selection == observer and first.boon != second.boon:
            break  # picking up a different Boon is the first thing the observer learns
        one.step(move)
        two.step(move)
        steps += 1
    else:
        assert_same_view(one.observe(observer), two.observe(observer))
        assert one.rewards == two.rewards
    assert steps >= 1 or first.boon != second.boon


def test_swapping_two_opponents_cards_changes_nothing_the_observer_sees() -> None:
    # Seats 1 and 2 swap red 5 and blue 6: seat 0 must not notice until one is played.
    hands = [
        cards("gold 1, gold 2, gold 3, gold 4, gold 5, gold 6, gold 7"),
        cards("gold 8, gold 9, gold 10, gold 11, gold 12, gold 13, gold 14"),
        cards("green 1, green 2, green 3, green 5, red 1, red 2, red 5"),
        cards("red 3, blue 1, blue 2, blue 3, blue 4, blue 5, blue 6"),
    ]
    boon = cards("green 6, red 6, green 4, red 4")
    swapped = [list(h) for h in hands]
    swapped[2][-1], swapped[3][-1] = hands[3][-1], hands[2][-1]
    one, two = boon_v0.raw_env(), boon_v0.raw_env()
    one.reset(options={"deal": {"hands": hands, "boon": boon}, "dealer": 3})
    two.reset(options={"deal": {"hands": swapped, "boon": boon}, "dealer": 3})
    for _ in range(4):  # everyone passes: a Leaster
        for agent in ("player_0", "player_1"):
            assert_same_view(one.observe(agent), two.observe(agent))
        one.step(PASS)
        two.step(PASS)
    # Seat 0 leads gold 1; seat 1 follows gold 8; seat 2 plays green 1, seat 3 blue 1.
    for card in cards("gold 1, gold 8, green 1, blue 1"):
        for agent in ("player_0", "player_1"):
            assert_same_view(one.observe(agent), two.observe(agent))
        one.step(card)
        two.step(card)
    for agent in ("player_0", "player_1"):
        assert_same_view(one.observe(agent), two.observe(agent))
    # The swapped players do see the difference in their own hands.
    assert not np.array_equal(
        one.observe("player_2")["observation"], two.observe("player_2")["observation"]
    )


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_only_the_picker_ever_sees_the_boon_and_the_discards(data: st.DataObject) -> None:
    players = data.draw(st.sampled_from([3, 4, 5]), label="players")
    env = boon_v0.raw_env(num_players=players, episode="game", max_rounds=3)
    env.reset(seed=data.draw(st.integers(0, 2**32 - 1), label="seed"))
    while not (all(env.terminations.values()) or all(env.truncations.values())):
        state = env.game.round
        for seat, agent in enumerate(env.possible_agents):
            pieces = decode(env.observe(agent)["observation"])
            if state.picker == seat:
                assert pieces["boon"].tolist() == [float(state.boon >> c & 1) for c in range(32)]
                assert pieces["discards"].tolist() == [
                    float(state.discards >> c & 1) for c in range(32)
                ]
            else:
                assert not pieces["boon"].any(), f"{agent} sees the Boon"
                assert not pieces["discards"].any(), f"{agent} sees the discards"
                # Nor does any other piece hold a card of the Boon before it is played.
                hidden = state.boon & ~(state.hands[seat] | sum(state.played))
                for name in ("hand", "trick", "played"):
                    seen = np.flatnonzero(pieces[name].reshape(-1, 32).any(axis=0))
                    assert not set(seen.tolist()) & set(cards_of(hidden)), name
        legal = state.legal_actions()
        env.step(legal[data.draw(st.integers(0, len(legal) - 1))])
