"""No hidden card reaches a BOYN observation: a player sees its own hand, the discard pile and
the public table; a Queen swap shows the received hand to its new owner only."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env import boyn_v0
from boon_env.games.boyn.rules import PLAYER_COUNTS, Deal, GameConfig, parse_action
from tests.helpers.boyn import QUEEN_HANDS, make_deal


def as_option(deal: Deal) -> dict[str, list]:
    return {"hands": [list(hand) for hand in deal.hands], "stock": list(deal.stock)}


def tables(first: Deal, second: Deal, dealer: int, seed: int = 0) -> list[boyn_v0.raw_env]:
    """One raw env per deal, reset alike (the same dealer, the same reshuffle generator)."""
    envs = []
    for deal in (first, second):
        env = boyn_v0.raw_env(num_players=len(deal.hands))
        env.reset(seed=seed, options={"deal": as_option(deal), "dealer": dealer})
        envs.append(env)
    return envs


def same_view(one: boyn_v0.raw_env, two: boyn_v0.raw_env, agent: str) -> bool:
    first, second = one.observe(agent), two.observe(agent)
    return all(np.array_equal(first[key], second[key]) for key in first)


def test_a_queen_swap_shows_the_received_hand_to_its_new_owner_only() -> None:
    config = GameConfig(num_players=4)
    # Seats 2 and 3 trade a 4: the 4 of spades is seat 2's in one deal, seat 3's in the other.
    other = list(QUEEN_HANDS)
    other[2] = QUEEN_HANDS[2].replace("4 of spades", "4 of diamonds")
    other[3] = QUEEN_HANDS[3].replace("4 of diamonds", "4 of spades")
    one, two = tables(
        make_deal(config, QUEEN_HANDS, "5 of hearts"), make_deal(config, other, "5 of hearts"), 3
    )
    for agent in ("player_0", "player_1"):
        assert same_view(one, two, agent)
    for env in (one, two):
        env.step(parse_action("queen of hearts swap 2"))
    assert not same_view(one, two, "player_0")  # it now holds seat 2's hand, which differs
    assert same_view(one, two, "player_1")  # it saw the swap, not the hands
    assert same_view(one, two, "player_2")  # it holds seat 0's old hand, the same in both


def exchanged_among_others(deal: Deal, keep: int, seed: int, swaps: int) -> Deal:
    """``deal`` with ``swaps`` exchanges of two cards between hands other than ``keep``'s."""
    rng = np.random.default_rng(seed)
    hands = [list(hand) for hand in deal.hands]
    others = [seat for seat in range(len(hands)) if seat != keep]
    for _ in range(swaps):
        a, b = rng.choice(others, size=2, replace=False)
        i, j = rng.integers(len(hands[a])), rng.integers(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return Deal(tuple(tuple(hand) for hand in hands), deal.stock)


def what_i_may_know(env: boyn_v0.raw_env, me: int) -> tuple:
    """My hand and the public table: everything my observation may depend on (the totals
    show the points of the hands left once a round is over)."""
    state = env.game.round
    return (
        env.game.totals,
        state.hands[me],
        state.discards,
        state.active_suit,
        state.active_rank,
        state.run,
        state.direction,
        state.hand_sizes(),
        len(state.stock),
        state.current,
        state.dealer,
    )


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_player_sees_the_same_while_its_hand_and_the_public_table_agree(
    data: st.DataObject,
) -> None:
    players = data.draw(st.sampled_from([p for p in PLAYER_COUNTS if p > 2]), label="players")
    config = GameConfig(num_players=players)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    me = data.draw(st.integers(0, players - 1), label="observer")
    first = Deal.random(config, np.random.default_rng(seed))
    second = exchanged_among_others(first, me, seed + 1, data.draw(st.integers(1, 4)))
    one, two = tables(first, second, dealer=data.draw(st.integers(0, players - 1)), seed=seed)
    observer = f"player_{me}"
    while what_i_may_know(one, me) == what_i_may_know(two, me):
        assert same_view(one, two, observer)
        if all(one.terminations.values()):
            break
        a, b = one.game.round, two.game.round
        legal = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        if not legal:
            break  # the hands differ: the same move is no longer possible at both tables
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        one.step(move)
        two.step(move)
