"""Hypothesis checks of every invariant in RULES_BOYN.md, over tables, seeds, rules and moves.

Hypothesis draws the table, the deal's seed, the dealer, the rules options and, at every
decision, the index of the legal move, so a failure shrinks to a short round.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env.games.boyn.rules import (
    DRAW_RULES,
    HAND_SIZE,
    PLAYER_COUNTS,
    Deal,
    Game,
    GameConfig,
    Round,
    jack_action,
    replay,
    swap_action,
)
from boon_env.games.boyn.rules.cards import JACK, QUEEN, RANK_OF, RED_THREES, SUIT_OF, count_of
from tests.helpers.boyn import assert_all_cards_present


def new_round(data: st.DataObject) -> Round:
    config = GameConfig(
        num_players=data.draw(st.sampled_from(PLAYER_COUNTS), label="players"),
        draw_rule=data.draw(st.sampled_from(DRAW_RULES), label="draw rule"),
        max_turns=data.draw(st.sampled_from([1, 5, 40, 1000]), label="max turns"),
    )
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    dealer = data.draw(st.integers(0, config.num_players - 1), label="dealer")
    rng = np.random.default_rng(seed)
    return Round(config, Deal.random(config, rng), dealer, rng)


def choose(data: st.DataObject, state: Round) -> int:
    legal = state.legal_actions()
    assert legal, f"a decision without a legal action: {state!r}"
    return legal[data.draw(st.integers(0, len(legal) - 1))]


def expected_legal(state: Round) -> list[int]:
    """The rule book's legal actions, computed card by card, independently of the masks."""
    hand = state.hands[state.current]
    legal = []
    for kind in range(52):
        if not count_of(hand, kind):
            continue
        rank, suit = RANK_OF[kind], SUIT_OF[kind]
        wild = rank == JACK or bool(RED_THREES >> kind & 1)
        if not (wild or suit == state.active_suit or rank == state.active_rank):
            continue
        if rank == JACK:
            legal += [jack_action(suit, named) for named in range(4)]
            continue
        legal.append(kind)
        if rank == QUEEN and hand.bit_count() > 1:
            legal += [swap_action(suit, r) for r in range(1, state.config.num_players)]
    return sorted(legal)


def public_hand_sizes(state: Round) -> list[int]:
    """Hand sizes rebuilt from the public log alone: seven each, then plays, draws, swaps."""
    sizes = [HAND_SIZE] * state.config.num_players
    for event in state.log:
        if event.what == "play":
            sizes[event.seat] -= 1
        elif event.what == "draw":
            sizes[event.seat] += event.value
        elif event.what == "swap":
            sizes[event.seat], sizes[event.value] = sizes[event.value], sizes[event.seat]
    return sizes


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_104_cards_are_always_all_present(data: st.DataObject) -> None:
    state = new_round(data)
    assert_all_cards_present(state)
    while not state.is_over:
        state.apply(choose(data, state))
        assert_all_cards_present(state)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_decision_has_exactly_the_rule_books_legal_actions(data: st.DataObject) -> None:
    state = new_round(data)
    while not state.is_over:
        assert state.legal_actions() == expected_legal(state)
        assert state.legal_actions(), "a player with a decision must have a legal action"
        state.apply(choose(data, state))
    assert state.legal_mask() == 0


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_hand_sizes_are_public_and_right(data: st.DataObject) -> None:
    state = new_round(data)
    while True:
        assert public_hand_sizes(state) == [hand.bit_count() for hand in state.hands]
        assert state.hand_sizes() == public_hand_sizes(state)
        if state.is_over:
            break
        state.apply(choose(data, state))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_round_ends_by_going_out_or_truncation_and_scores_the_hands_left(
    data: st.DataObject,
) -> None:
    state = new_round(data)
    while not state.is_over:
        assert all(state.hand_sizes())  # nobody holds zero cards while the round goes on
        assert state.turns < state.config.max_turns
        state.apply(choose(data, state))
    if state.truncated:
        assert state.out == -1 and state.points == [0] * state.config.num_players
        assert state.turns == state.config.max_turns
    else:
        assert state.hand_sizes()[state.out] == 0 and state.points[state.out] == 0
        assert all(points > 0 for seat, points in enumerate(state.points) if seat != state.out)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_every_round_replays_from_its_deal_dealer_seed_and_actions(data: st.DataObject) -> None:
    state = new_round(data)
    reshuffle_seed = data.draw(st.integers(0, 2**32 - 1), label="reshuffle seed")
    state = Round(state.config, state.deal, state.dealer, np.random.default_rng(reshuffle_seed))
    while not state.is_over:
        state.apply(choose(data, state))
    again = replay(state.config, state.deal, state.history, state.dealer, reshuffle_seed)
    assert (again.log, again.hands, again.points) == (state.log, state.hands, state.points)


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_totals_never_decrease_over_a_game(data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(PLAYER_COUNTS), label="players")
    config = GameConfig(num_players=players, game_limit=data.draw(st.integers(1, 150)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    game = Game(config, Deal.random(config, rng), 0, rng)
    totals = list(game.totals)
    while not (game.is_over or game.is_truncated):
        if game.round.is_over:
            game.next_round(Deal.random(config, rng))
        else:
            game.apply(choose(data, game.round))
        assert all(after >= before for after, before in zip(game.totals, totals, strict=True))
        totals = list(game.totals)
    assert game.winners == [s for s in range(players) if game.totals[s] == min(game.totals)]
