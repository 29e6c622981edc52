"""Hypothesis checks of every invariant listed in RULES_BON.md, over seeds, player counts and
legal-move choices."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env.core.bits import mask_of
from boon_env.games.bon.rules import (
    COLOUR_OF,
    COLOURS,
    HAND_SIZE,
    NUM_TRICKS,
    PASS,
    Deal,
    Game,
    GameConfig,
    Round,
    random_tower,
    tower_after_trick,
)
from tests.helpers.boon import random_walk

players = st.sampled_from([3, 4, 5])
seeds = st.integers(0, 2**32 - 1)


def new_round(n: int, seed: int) -> Round:
    rng = np.random.default_rng(seed)
    config = GameConfig(num_players=n)
    return Round(config, Deal.random(config, rng), random_tower(rng), int(rng.integers(n)))


def assert_every_card_in_one_place(state: Round) -> None:
    """Hands, leftovers, the current trick and the won tricks hold the deck exactly once."""
    deal, config = state.deal, state.config
    places = [*state.hands, deal.leftovers, *(mask_of(t.cards) for t in state.tricks)]
    places.append(mask_of(state.trick))
    seen = 0
    for place in places:
        place &= ~(1 << PASS)  # Pass cards are counted below
        assert not seen & place, f"a card is in two places: {state!r}"
        seen |= place
    assert seen == config.deck
    passes = (
        sum(state.passes)
        + deal.leftover_passes
        + sum(t.cards.count(PASS) for t in state.tricks)
        + state.trick.count(PASS)
    )
    assert passes == config.pass_cards
    assert sum(state.passes_played) == passes - sum(state.passes) - deal.leftover_passes


@settings(max_examples=150, deadline=None)
@given(players, seeds, seeds)
def test_a_round_is_7_tricks_and_plays_every_dealt_card_once(n: int, seed: int, moves: int) -> None:
    state = new_round(n, seed)
    for now in random_walk(state, np.random.default_rng(moves)):
        assert_every_card_in_one_place(now)
        if not now.is_over:
            assert now.legal_mask(), "the player to act always has a legal card"
    assert len(state.tricks) == NUM_TRICKS
    played = [card for trick in state.tricks for card in trick.cards]
    assert len(played) == n * HAND_SIZE
    dealt = [c for hand in state.deal.card_lists()[0] for c in hand]
    assert sorted(played) == sorted(dealt)
    assert not any(state.hands) and not any(state.passes)
    assert sum(state.tricks_won) == NUM_TRICKS


@settings(max_examples=150, deadline=None)
@given(players, seeds, seeds)
def test_every_trick_holds_a_boast_card_and_its_winner_played_one(
    n: int, seed: int, moves: int
) -> None:
    state = new_round(n, seed)
    first_tower = state.tower
    for _ in random_walk(state, np.random.default_rng(moves)):
        assert sorted(state.tower) == list(COLOURS)
    for trick in state.tricks:
        assert any(card != PASS for card in trick.cards)
        winning = trick.cards[(trick.winner - trick.leader) % n]
        assert winning != PASS
    # The tower stays a permutation and changes only by moving a winning colour to the bottom.
    tower = first_tower
    for trick in state.tricks:
        winning = trick.cards[(trick.winner - trick.leader) % n]
        tower = tower_after_trick(tower, COLOUR_OF[winning])
    assert tower == state.tower


@settings(max_examples=40, deadline=None)
@given(players, seeds, st.integers(1, 6))
def test_scores_never_decrease_and_a_round_adds_0_1_or_2(n: int, seed: int, target: int) -> None:
    rng = np.random.default_rng(seed)
    config = GameConfig(num_players=n, target_score=target, max_rounds=30)
    game = Game(config, Deal.random(config, rng), random_tower(rng), 0)
    before = list(game.scores)
    while True:
        legal = game.round.legal_actions()
        result = game.apply(legal[int(rng.integers(len(legal)))])
        if result is None:
            continue
        assert all(p in (0, 1, 2) for p in result.round_points)
        assert [a - b for a, b in zip(game.scores, before, strict=True)] == list(
            result.round_points
        )
        before = list(game.scores)
        if game.is_over or game.is_truncated:
            break
        game.next_round(Deal.random(config, rng))
    if game.is_over:
        assert max(game.scores) >= target
        assert game.winners and all(game.scores[s] >= target for s in game.winners)
