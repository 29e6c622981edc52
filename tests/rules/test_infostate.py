"""``resample_from_infostate`` of every game: a sampled round shows the seat exactly what the
real one shows (its observation and, at its turn, its legal actions), play continues on it,
the real round is left untouched, and on small positions the sampler's frequencies match an
exact enumeration of the rounds it should draw from (chi-square)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from scipy.stats import chisquare

from boon_env.games.bon import encoding as bon_encoding
from boon_env.games.bon import rules as bon
from boon_env.games.bon.rules.infostate import round_at as bon_round_at
from boon_env.games.boon import encoding as boon_encoding
from boon_env.games.boon import rules as boon
from boon_env.games.boyn import encoding as boyn_encoding
from boon_env.games.boyn import rules as boyn
from boon_env.games.boyn.rules.infostate import round_at as boyn_round_at

SAMPLES = 6000
ALPHA = 0.001  # the tests are seeded: a pass or a fail is the same every run


# ------------------------------------------------------------------------------ the games
def boon_round(n: int, rng: np.random.Generator) -> boon.Round:
    config = boon.GameConfig(num_players=n)
    return boon.Round(config, boon.Deal.random(config, rng), dealer=int(rng.integers(n)))


def bon_round(n: int, rng: np.random.Generator) -> bon.Round:
    config = bon.GameConfig(num_players=n)
    deal = bon.Deal.random(config, rng)
    return bon.Round(config, deal, bon.random_tower(rng), int(rng.integers(n)))


def boyn_round(n: int, rng: np.random.Generator) -> boyn.Round:
    config = boyn.GameConfig(num_players=n)
    seed = int(rng.integers(2**31))
    return boyn.Round(
        config, boyn.Deal.random(config, rng), int(rng.integers(n)), rng=np.random.default_rng(seed)
    )


def boon_obs(state: boon.Round, seat: int) -> np.ndarray:
    return boon_encoding.encode(state, seat, [1] * state.config.num_players)


def bon_obs(state: bon.Round, seat: int, seen: bool = True) -> np.ndarray:
    game = SimpleNamespace(round=state, config=state.config, scores=[0] * state.config.num_players)
    return bon_encoding.encode(game, seat, seen)


def boyn_obs(state: boyn.Round, seat: int) -> np.ndarray:
    return boyn_encoding.encode(state, seat, [0] * state.config.num_players)


GAMES: dict[str, tuple[Any, Callable, Callable, tuple[int, ...]]] = {
    "boon": (boon, boon_round, boon_obs, (3, 4, 5)),
    "bon": (bon, bon_round, bon_obs, (3, 4, 5)),
    "boyn": (boyn, boyn_round, boyn_obs, (2, 3, 4, 5, 6)),
}


def random_positions(game: str, count: int, seed: int) -> list[Any]:
    """``count`` rounds of random play, each stopped at a random decision."""
    _, new_round, _, sizes = GAMES[game]
    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < count:
        state = new_round(int(rng.choice(sizes)), rng)
        stop = int(rng.integers(0, 60))
        for _ in range(stop):
            if state.is_over:
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_over:
            positions.append(state)
    return positions


# ---------------------------------------------------------------- what the seat sees
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_sampled_round_shows_the_seat_what_the_real_one_shows(game: str) -> None:
    rules, _, observe, _ = GAMES[game]
    rng = np.random.default_rng(7)
    for state in random_positions(game, 1500, seed=hash(game) % 1000):
        n = state.config.num_players
        for seat in {state.current, int(rng.integers(n))}:
            before = observe(state, seat)
            legal = state.legal_mask()
            sample = rules.resample_from_infostate(state, seat, rng)
            assert np.array_equal(observe(sample, seat), before)
            assert np.array_equal(observe(state, seat), before)  # the real round untouched
            assert state.legal_mask() == legal
            assert sample.current == state.current
            if seat == state.current:
                assert sample.legal_mask() == legal
            for _ in range(3):  # play goes on
                if sample.is_over:
                    break
                sample.apply(int(rng.choice(sample.legal_actions())))


def test_bons_face_down_leftovers_are_hidden_too() -> None:
    rng = np.random.default_rng(3)
    moved = 0
    for state in random_positions("bon", 300, seed=11):
        seat = state.current
        sample = bon.resample_from_infostate(state, seat, rng, leftovers_seen=False)
        assert np.array_equal(bon_obs(sample, seat, False), bon_obs(state, seat, False))
        assert sample.legal_mask() == state.legal_mask()
        moved += sample.deal.leftovers != state.deal.leftovers
    assert moved > 100  # the leftovers are drawn again, not copied


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bad_seat_or_a_finished_round_is_refused(game: str) -> None:
    rules, new_round, _, sizes = GAMES[game]
    rng = np.random.default_rng(0)
    state = new_round(sizes[0], rng)
    with pytest.raises(ValueError, match="seat must be a seat"):
        rules.resample_from_infostate(state, sizes[0], rng)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="the round is over"):
        rules.resample_from_infostate(state, 0, rng)


# ------------------------------------------------------------------- exact frequencies
def assert_matches(drawn: Counter, exact: dict[Any, Fraction]) -> None:
    """The sampled frequencies ``drawn`` fit the exact distribution (chi-square)."""
    assert set(drawn) <= set(exact), "a draw outside the consistent states"
    keys = sorted(exact, key=repr)
    total = sum(drawn.values())
    observed = [drawn[k] for k in keys]
    expected = [float(exact[k]) * total for k in keys]
    assert len(keys) > 2
    assert chisquare(observed, expected).pvalue > ALPHA


def bon_late_position(n: int, seed: int, tricks: int) -> bon.Round:
    """A B.O.N round after ``tricks`` tricks of random play in which someone showed a void."""
    rng = np.random.default_rng(seed)
    for _ in range(1000):
        state = bon_round(n, rng)
        while len(state.tricks) < tricks:
            state.apply(int(rng.choice(state.legal_actions())))
        if any(state.voids[s] for s in range(n) if s != state.current):
            return state
    raise AssertionError("no position with a void")


def bon_exact(state: bon.Round, seat: int, seen: bool) -> dict[Any, Fraction]:
    """Every consistent placement of the hidden cards, each Pass card a distinct card (as in
    a shuffle), counted and collapsed to (hands, Pass counts, leftovers)."""
    n = state.config.num_players
    holders = [s for s in range(n) if s != seat]
    sizes = [state.hands[s].bit_count() + state.passes[s] for s in holders]
    if not seen:
        sizes.append(bon.NUM_LEFTOVERS)
    cards = [c for c in range(bon.PASS) for s in holders if state.hands[s] >> c & 1]
    if not seen:
        cards += bon.boast_cards_of(state.deal.leftovers)
    passes = sum(state.passes[s] for s in holders) + (0 if seen else state.deal.leftover_passes)
    physical = cards + [bon.PASS + 1 + i for i in range(passes)]  # distinct Pass cards
    counts: Counter = Counter()
    for order in itertools.permutations(physical):
        start, places, fits = 0, [], True
        for h, size in enumerate(sizes):
            part = order[start : start + size]
            start += size
            if h < len(holders) and any(
                c < bon.PASS and state.voids[holders[h]] >> bon.COLOUR_OF[c] & 1 for c in part
            ):
                fits = False
                break
            places.append(
                (sum(1 << c for c in part if c < bon.PASS), sum(c > bon.PASS for c in part))
            )
        if fits:
            counts[tuple(places)] += 1
    total = sum(counts.values())
    return {key: Fraction(k, total) for key, k in counts.items()}


@pytest.mark.parametrize(
    ("n", "seed", "tricks", "seen"), [(3, 1, 5, True), (4, 2, 6, True), (3, 5, 6, False)]
)
def test_bons_sampler_draws_the_consistent_rounds_uniformly(
    n: int, seed: int, tricks: int, seen: bool
) -> None:
    state = bon_late_position(n, seed, tricks)
    seat = state.current
    exact = bon_exact(state, seat, seen)
    rng = np.random.default_rng(seed)
    drawn: Counter = Counter()
    holders = [s for s in range(n) if s != seat]
    for _ in range(SAMPLES):
        sample = bon.resample_from_infostate(state, seat, rng, leftovers_seen=seen)
        places = [(sample.hands[s], sample.passes[s]) for s in holders]
        if not seen:
            places.append((sample.deal.leftovers, sample.deal.leftover_passes))
        drawn[tuple(places)] += 1
    assert_matches(drawn, exact)


def test_boyns_sampler_draws_hands_and_stock_uniformly() -> None:
    # Two players near the end of the cards: 5 unseen cards, 2 in the other hand, 3 in the
    # stock; every order of the 5 (copies distinct) is one shuffle.
    config = boyn.GameConfig(num_players=2)
    mine = boyn.parse_cards(["ace of clubs", "king of hearts"])
    unseen = [
        boyn.parse_card(c)
        for c in ("2 of clubs", "2 of clubs", "5 of spades", "9 of hearts", "queen of diamonds")
    ]
    pile = [k for k in range(boyn.NUM_KINDS) for _ in range(boyn.COPIES)]
    for card in [*mine, *unseen]:
        pile.remove(card)
    state = boyn_round_at(
        config,
        seat=0,
        hand=boyn.hand_of(mine),
        discards=boyn.hand_of(pile),
        active_suit=boyn.CLUBS,
        active_rank=5,
        run=0,
        direction=1,
        dealer=1,
        hand_sizes=[2, 2],
        stock_size=3,
    )
    counts: Counter = Counter()
    for order in itertools.permutations(range(5)):
        cards = [unseen[i] for i in order]
        counts[(boyn.hand_of(cards[:2]), tuple(cards[2:]))] += 1
    exact = {key: Fraction(k, 120) for key, k in counts.items()}
    rng = np.random.default_rng(0)
    drawn = Counter(
        (sample.hands[1], tuple(sample.stock))
        for sample in (boyn.resample_from_infostate(state, 0, rng) for _ in range(SAMPLES))
    )
    assert_matches(drawn, exact)


def test_bons_round_at_rebuilds_a_round_that_plays_on() -> None:
    for state in random_positions("bon", 200, seed=5):
        rebuilt = bon_round_at(
            state.config,
            hands=state.hands,
            passes=state.passes,
            leftovers=state.deal.leftovers,
            leftover_passes=state.deal.leftover_passes,
            tower=state.tower,
            leader=state.leader,
            trick=state.trick,
            played=state.played,
            passes_played=state.passes_played,
            voids=state.voids,
            tricks_won=state.tricks_won,
        )
        for seat in range(state.config.num_players):
            assert np.array_equal(bon_obs(rebuilt, seat), bon_obs(state, seat))
        while not state.is_over:
            action = state.legal_actions()[0]
            assert rebuilt.legal_mask() == state.legal_mask()
            state.apply(action)
            rebuilt.apply(action)
        assert rebuilt.is_over and rebuilt.tricks_won == state.tricks_won
