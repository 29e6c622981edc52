"""Hypothesis checks of every invariant in RULES.md, over player counts, seeds and moves.

Each round is driven by hypothesis: it draws the table, the deal's seed, the dealer and, at
every decision, the index of the legal move to play, so failures shrink to short games.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env.games.boon.rules import (
    GOLD,
    PASS,
    PICK,
    SUIT_MASK,
    SUIT_OF,
    TOTAL_POINTS,
    Deal,
    Game,
    GameConfig,
    Phase,
    Round,
    mask_of,
    points_of,
    replay,
)
from tests.helpers.boon import assert_cards_partition_deck, snapshot

PLAYERS = st.sampled_from([3, 4, 5])
SEEDS = st.integers(0, 2**32 - 1)
# A bias towards passing makes Leasters common enough to check them as often as picker rounds.
PASS_BIAS = st.floats(0.0, 1.0)


def new_round(data: st.DataObject) -> Round:
    config = GameConfig(num_players=data.draw(PLAYERS, label="players"))
    deal = Deal.random(config, np.random.default_rng(data.draw(SEEDS, label="seed")))
    dealer = data.draw(st.integers(0, config.num_players - 1), label="dealer")
    return Round(config, deal, dealer)


def choose(data: st.DataObject, state: Round) -> int:
    """A legal action of the player to act, its index drawn by hypothesis."""
    legal = state.legal_actions()
    assert legal, f"no legal action at a decision point: {state!r}"
    return legal[data.draw(st.integers(0, len(legal) - 1))]


def expected_trick_winner(leader: int, cards: tuple[int, ...], n: int) -> int:
    """The rule book's trick winner, computed independently of the engine."""
    golds = [c for c in cards if SUIT_OF[c] == GOLD]
    if golds:
        best = max(golds)
    else:
        led = SUIT_OF[cards[0]]
        best = max(c for c in cards if SUIT_OF[c] == led)
    return (leader + cards.index(best)) % n


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_card_is_in_exactly_one_place_at_every_step(data: st.DataObject) -> None:
    state = new_round(data)
    assert_cards_partition_deck(state)
    while not state.is_over:
        state.apply(choose(data, state))
        assert_cards_partition_deck(state)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_decision_point_has_a_legal_action_and_follows_the_rules(
    data: st.DataObject,
) -> None:
    state = new_round(data)
    while not state.is_over:
        legal = state.legal_mask()
        assert legal, "no legal action"
        hand = state.hands[state.current]
        if state.phase is Phase.PICK:
            assert state.legal_actions() == [PICK, PASS]
        elif state.phase is Phase.DISCARD:
            assert state.current == state.picker
            assert legal == hand
        else:
            assert legal & ~hand == 0  # only cards of one's own hand
            if state.trick:
                led = SUIT_MASK[SUIT_OF[state.trick[0]]]
                assert legal == (hand & led if hand & led else hand)
            else:
                assert legal == hand
        state.apply(choose(data, state))
    assert state.legal_mask() == 0
    assert state.current == -1


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_points_total_120_in_picker_rounds_and_120_minus_boon_in_leasters(
    data: st.DataObject,
) -> None:
    state = new_round(data)
    bias = data.draw(PASS_BIAS, label="pass bias")
    while not state.is_over:
        if state.phase is Phase.PICK:
            state.apply(PASS if data.draw(st.floats(0, 1)) < bias else PICK)
        else:
            state.apply(choose(data, state))
    config = state.config
    assert len(state.tricks) == config.num_tricks
    assert sum(state.tricks_won) == config.num_tricks
    for trick in state.tricks:
        assert trick.winner == expected_trick_winner(trick.leader, trick.cards, config.num_players)
    # The first trick is led left of the dealer, every other by the last trick's winner.
    assert state.tricks[0].leader == (state.dealer + 1) % config.num_players
    for before, after in zip(state.tricks, state.tricks[1:], strict=False):
        assert after.leader == before.winner
    for seat in range(config.num_players):
        won = sum(points_of(mask_of(t.cards)) for t in state.tricks if t.winner == seat)
        buried = points_of(state.discards) if seat == state.picker else 0
        assert state.points[seat] == won + buried
    if state.leaster:
        assert state.picker is None
        assert state.discards == 0
        assert sum(state.points) == TOTAL_POINTS - points_of(state.deal.boon)
    else:
        assert state.discards.bit_count() == config.boon_size
        assert sum(state.points) == TOTAL_POINTS


def expected_payout(state: Round, before: list[int]) -> list[int]:
    """The Victory Cards a finished round moves under RULES.md, computed independently."""
    n = state.config.num_players
    payout = [0] * n
    if state.leaster:
        qualified = [s for s in range(n) if state.tricks_won[s] > 0]
        fewest = min(state.points[s] for s in qualified)
        lowest = [s for s in qualified if state.points[s] == fewest]
        if len(lowest) == 1:
            for seat in range(n):
                if seat != lowest[0]:
                    payout[seat] = -min(1, before[seat])
                    payout[lowest[0]] -= payout[seat]
        return payout
    picker, points = state.picker, state.points[state.picker]
    stake = -2 if points < 30 else -1 if points <= 60 else 1 if points <= 90 else 2
    if stake > 0:
        for seat in range(n):
            if seat != picker:
                payout[seat] = -min(stake, before[seat])
                payout[picker] -= payout[seat]
        return payout
    paid = min(-stake * (n - 1), before[picker])
    full, extra = divmod(paid, n - 1)
    for offset in range(1, n):
        payout[(picker + offset) % n] = full + (1 if offset <= extra else 0)
    payout[picker] = -paid
    return payout


def play_game(config: GameConfig, rng: np.random.Generator) -> Game:
    """A whole game, moves drawn from ``rng``, checking the Victory Card invariants after
    every round."""
    game = Game(config, Deal.random(config, rng), dealer=int(rng.integers(config.num_players)))
    total = sum(game.victory_cards)
    while True:
        dealer = game.round.dealer
        before = list(game.victory_cards)
        result = None
        while result is None:
            legal = game.round.legal_actions()
            assert legal
            result = game.apply(legal[int(rng.integers(len(legal)))])
        assert list(result.payout) == expected_payout(game.round, before)
        assert sum(result.payout) == 0
        assert sum(game.victory_cards) == total
        assert min(game.victory_cards) >= 0
        if game.is_over or game.is_truncated:
            break
        game.next_round(Deal.random(config, rng))
        assert game.round.dealer == (dealer + 1) % config.num_players
    if game.is_over:
        assert min(game.victory_cards) == 0
        most = max(game.victory_cards)
        assert game.winners == [s for s, vc in enumerate(game.victory_cards) if vc == most]
    else:
        assert min(game.victory_cards) > 0
        assert game.rounds_played == config.max_rounds
    return game


@settings(max_examples=150, deadline=None)
@given(players=PLAYERS, seed=SEEDS, victory_cards=st.integers(1, 4))
def test_payments_are_zero_sum_and_nobody_goes_below_zero_over_whole_games(
    players: int, seed: int, victory_cards: int
) -> None:
    config = GameConfig(num_players=players, starting_victory_cards=victory_cards, max_rounds=60)
    game = play_game(config, np.random.default_rng(seed))
    assert len(game.settlements) == game.rounds_played


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_replaying_the_history_reproduces_the_state(data: st.DataObject) -> None:
    state = new_round(data)
    stop = data.draw(st.integers(0, 60), label="stop after")
    while not state.is_over and len(state.history) < stop:
        state.apply(choose(data, state))
    again = replay(state.config, state.deal, state.history, state.dealer)
    assert snapshot(again) == snapshot(state)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_clone_is_independent_of_its_original(data: st.DataObject) -> None:
    state = new_round(data)
    stop = data.draw(st.integers(0, 40), label="clone after")
    while not state.is_over and len(state.history) < stop:
        state.apply(choose(data, state))
    before = snapshot(state)
    copy = state.clone()
    assert snapshot(copy) == before
    while not copy.is_over:
        copy.apply(choose(data, copy))
    assert snapshot(state) == before  # the original did not move
    # ...and the original still plays on by itself, to the same end as a replay.
    while not state.is_over:
        state.apply(choose(data, state))
    assert snapshot(state) == snapshot(
        replay(state.config, state.deal, state.history, state.dealer)
    )


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_illegal_actions_are_refused_without_changing_anything(data: st.DataObject) -> None:
    state = new_round(data)
    stop = data.draw(st.integers(0, 50), label="stop after")
    while not state.is_over and len(state.history) < stop:
        state.apply(choose(data, state))
    illegal = [a for a in range(34) if not state.legal_mask() >> a & 1]
    before = snapshot(state)
    for bad in [*illegal, -1, 34]:
        try:
            state.apply(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"illegal action {bad} was accepted")
        assert snapshot(state) == before


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_round_rebuilt_from_its_hidden_state_plays_on_the_same(data: st.DataObject) -> None:
    state = new_round(data)
    stop = data.draw(st.integers(0, 50), label="rebuild after")
    while not state.is_over and len(state.history) < stop:
        state.apply(choose(data, state))
    if state.is_over:
        return
    rebuilt = Round.from_hidden_state(
        state.config,
        dealer=state.dealer,
        hands=list(state.hands),
        boon=state.boon,
        picker=state.picker,
        passed=state.passed,
        discards=state.discards,
        trick=list(state.trick),
        leader=state.leader,
        points=list(state.points),
        tricks_won=list(state.tricks_won),
        played=list(state.played),
        voids=list(state.voids),
    )
    assert (rebuilt.phase, rebuilt.picker, rebuilt.leaster) == (
        state.phase,
        state.picker,
        state.leaster,
    )
    while not state.is_over:
        assert (rebuilt.current, rebuilt.legal_mask()) == (state.current, state.legal_mask())
        move = choose(data, state)
        state.apply(move)
        rebuilt.apply(move)
    assert rebuilt.is_over
    assert rebuilt.points == state.points
    assert rebuilt.tricks_won == state.tricks_won
    assert rebuilt.voids == state.voids
