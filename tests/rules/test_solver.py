"""The double-dummy solver: exact against brute-force minimax, its restated rules identical to
the rules package's, its band searches agreeing with its points, and its refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env.games.boon import solver
from boon_env.games.boon.rules import (
    PASS,
    PICK,
    SUIT_MASK,
    SUIT_OF,
    Deal,
    GameConfig,
    Phase,
    Round,
    picker_stake,
    round_value,
    trick_winner,
)

ROOT = Path(__file__).resolve().parents[2]
POSITIONS_PER_TABLE = 1000


def picked_round(n: int, rng: np.random.Generator) -> Round:
    """A round of ``n`` players in its play phase: a random seat picks, buries random cards."""
    config = GameConfig(num_players=n)
    state = Round(config, Deal.random(config, rng), dealer=int(rng.integers(n)))
    for _ in range(int(rng.integers(n))):
        state.apply(PASS)
    state.apply(PICK)
    for card in rng.choice(state.legal_actions(), config.boon_size, replace=False):
        state.apply(int(card))
    return state


def play_randomly(state: Round, cards_left: int, rng: np.random.Generator) -> Round:
    """``state`` after random legal cards until ``cards_left`` cards remain in the hands."""
    while sum(hand.bit_count() for hand in state.hands) > cards_left:
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def endgame(n: int, rng: np.random.Generator) -> Round:
    """A position with 1 to 4 tricks left, often in the middle of a trick."""
    tricks_left = int(rng.integers(1, 5))
    return play_randomly(picked_round(n, rng), n * tricks_left - int(rng.integers(n)), rng)


def minimax(state: Round, memo: dict | None = None) -> int:
    """The picker's final points under perfect play, by exhaustive minimax over the rules
    engine (no pruning; memoized on the position, so each position is expanded once)."""
    if state.phase is Phase.DONE:
        return state.points[state.picker]
    memo = {} if memo is None else memo
    key = (tuple(state.hands), tuple(state.trick), state.leader, state.points[state.picker])
    if key not in memo:
        values = []
        for card in state.legal_actions():
            after = state.clone()
            after.apply(card)
            values.append(minimax(after, memo))
        memo[key] = max(values) if state.current == state.picker else min(values)
    return memo[key]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_solve_equals_brute_force_minimax_on_endgames(n: int) -> None:
    rng = np.random.default_rng([2026, n])
    for index in range(POSITIONS_PER_TABLE):
        state = endgame(n, rng)
        assert solver.solve(state) == minimax(state), f"position {index}: {state!r}"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_band_searches_agree_with_the_points(n: int) -> None:
    rng = np.random.default_rng([7, n])
    for _ in range(12):
        state = play_randomly(picked_round(n, rng), n * int(rng.integers(3, 6)), rng)
        points = solver.solve(state)
        assert solver.solve_stake(state) == picker_stake(points)
        for threshold in (0, 29, 30, 31, 60, 61, 62, 90, 91, 92, 120, points, points + 1):
            assert solver.reaches(state, threshold) == (points >= threshold)
        value = solver.solve_value(state)
        stake = picker_stake(points)
        assert value[state.picker] == stake * (n - 1)
        assert sum(value) == 0


@pytest.mark.parametrize("n", [3, 4, 5])
def test_move_values_are_the_children_of_solve(n: int) -> None:
    rng = np.random.default_rng([11, n])
    for _ in range(10):
        state = play_randomly(picked_round(n, rng), n * 3 - int(rng.integers(n)), rng)
        values = solver.move_values(state)
        assert sorted(values) == state.legal_actions()
        pick = max if state.current == state.picker else min
        assert pick(values.values()) == solver.solve(state)


@settings(max_examples=25, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_playing_the_solved_moves_reaches_the_solved_points(n: int, seed: int) -> None:
    """Following the best move of each side's values ends the round on the solved points."""
    rng = np.random.default_rng(seed)
    state = play_randomly(picked_round(n, rng), n * 4, rng)
    expected = solver.solve(state)
    while state.phase is not Phase.DONE:
        values = solver.move_values(state)
        pick = max if state.current == state.picker else min
        state.apply(pick(values, key=values.__getitem__))
        assert solver.solve(state) == expected
    assert state.points[state.picker] == expected
    assert solver.solve_value(state) == round_value(state)


def test_a_full_deal_solves_within_its_bounds() -> None:
    rng = np.random.default_rng(3)
    for n in (3, 4, 5):
        state = picked_round(n, rng)
        points = solver.solve(state)
        assert 0 <= points <= 120
        assert solver.solve_stake(state) == picker_stake(points)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_compiled_rules_are_the_rules_packages(n: int) -> None:
    """The compiled core re-states which cards may follow and which card wins a trick: it
    must agree with Round.legal_mask and trick_winner on many positions."""
    rng = np.random.default_rng([5, n])
    checked = 0
    for _ in range(300):
        state = picked_round(n, rng)
        while state.phase is not Phase.DONE:
            led = state.trick[0] if state.trick else -1
            assert solver._legal(state.hands[state.current], led) == state.legal_mask()
            if state.trick:
                cards = np.array(state.trick, dtype=np.int64)
                assert solver._trick_winner(cards) == trick_winner(state.trick)
                mask = sum(1 << card for card in state.trick)
                winning = state.trick[trick_winner(state.trick)]
                assert solver._winning(mask, state.trick[0]) == winning
                checked += 1
            state.apply(int(rng.choice(state.legal_actions())))
    assert checked > 1000


def test_every_pair_of_cards_compares_as_the_rules_say() -> None:
    for led in range(32):
        for other in range(32):
            if other != led:
                cards = np.array([led, other], dtype=np.int64)
                assert solver._trick_winner(cards) == trick_winner([led, other])


def test_a_finished_round_is_its_picker_points() -> None:
    rng = np.random.default_rng(9)
    state = play_randomly(picked_round(4, rng), 0, rng)
    assert state.phase is Phase.DONE
    assert solver.solve(state) == state.points[state.picker]
    assert solver.solve_value(state) == round_value(state)


def test_it_refuses_rounds_it_cannot_solve() -> None:
    config = GameConfig(num_players=4)
    state = Round(config, Deal.random(config, np.random.default_rng(0)))
    with pytest.raises(ValueError, match=r"play phase.*PICK"):
        solver.solve(state)
    state.apply(PICK)
    with pytest.raises(ValueError, match=r"play phase.*DISCARD"):
        solver.solve_stake(state)
    leaster = Round(config, Deal.random(config, np.random.default_rng(0)))
    for _ in range(4):
        leaster.apply(PASS)
    with pytest.raises(ValueError, match="Leaster"):
        solver.solve(leaster)
    with pytest.raises(TypeError, match="Round"):
        solver.solve("not a round")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"round 1: .*Leaster"):
        solver.solve_many([endgame(4, np.random.default_rng(1)), leaster])


def test_solve_many_is_solve_of_each() -> None:
    rng = np.random.default_rng(4)
    states = [endgame(4, rng) for _ in range(20)]
    assert solver.solve_many(states).tolist() == [solver.solve(s) for s in states]


def test_without_numba_the_import_names_the_extra() -> None:
    code = (
        "import sys\nsys.modules['numba'] = None\n"
        "import boon_env, boon_env.games.boon.rules, boon_env.boon_v0\n"
        "try:\n    import boon_env.games.boon.solver\n"
        "except ImportError as error:\n    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "pip install 'boon-env[solver]'" in out.stdout


def test_the_module_example_runs() -> None:
    import doctest

    assert doctest.testmod(solver).failed == 0


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_solve_and_the_band_equal_brute_force_on_random_endings(n: int, seed: int) -> None:
    """The pruned search (bounds, table, merged cards, narrowing) equals unpruned minimax."""
    state = endgame(n, np.random.default_rng(seed))
    points = minimax(state)
    assert solver.solve(state) == points
    assert solver.solve_stake(state) == picker_stake(points)


@settings(max_examples=150, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_the_bounds_known_without_search_hold_the_brute_force_value(n: int, seed: int) -> None:
    """The sure points of the top gold cards (with what the other side must give to their
    tricks) and of a trick nobody can take any more bound the picker's points still to come
    (the trick in progress included) on both sides; at a trick boundary the cheaper bound of
    the top cards alone (the last card of a trick's) holds too, and is no tighter."""
    state = endgame(n, np.random.default_rng(seed))
    work = np.zeros(solver._WORK, dtype=np.int64)
    position = solver._load(state, work)
    value = minimax(state) - solver._known(state)
    lower, upper = solver._bounds(work, *position)
    assert lower <= value <= upper
    if not state.trick:
        least, most = solver._sure_points(work, position[0], 0, False)
        assert lower >= least and upper <= most
        assert least <= value <= most


def test_the_table_slot_depends_on_every_hand() -> None:
    """Positions that differ in one hand only spread over the table (a slot blind to some
    hands fills a few rows and evicts what the search needs)."""
    rng = np.random.default_rng(1)
    base = [int(word) for word in rng.integers(0, 2**31, size=5)]
    for seat in range(5):
        buckets = set()
        for hand in rng.integers(0, 2**31, size=200):
            hands = list(base)
            hands[seat] = int(hand)
            key = (hands[0] | hands[1] << 32, hands[2] | hands[3] << 32, 1 << 32 | hands[4])
            key = tuple(np.int64(word) for word in key)
            buckets.add(solver._bucket(key))
        assert len(buckets) > 190, f"seat {seat}: {len(buckets)} buckets for 200 hands"


def by_rank(hand: int, remaining: int) -> int:
    """``hand`` with the k-th lowest of the ``remaining`` cards renamed k."""
    left = [card for card in range(32) if remaining >> card & 1]
    return sum(1 << rank for rank, card in enumerate(left) if hand >> card & 1)


def same_ranks(cards: int, rng: np.random.Generator, pool: int = 2**32 - 1) -> int:
    """Other cards of ``pool``, as many of each suit as ``cards`` holds."""
    other = 0
    for suit_mask in SUIT_MASK:
        suit = [card for card in range(32) if (pool & suit_mask) >> card & 1]
        count = (cards & suit_mask).bit_count()
        other |= sum(1 << int(card) for card in rng.choice(suit, count, replace=False))
    return other


@settings(max_examples=300, deadline=None)
@given(remaining=st.integers(0, 2**32 - 1), choice=st.integers(0, 2**32 - 1))
def test_the_key_names_the_cards_left_by_rank(remaining: int, choice: int) -> None:
    """A hand's word of the table's key is the hand with the k-th lowest card left renamed k;
    the best move a row stores is carried over to the card of its suit and rank."""
    hand = remaining & choice
    below = tuple((remaining & (1 << 8 * byte) - 1).bit_count() for byte in (1, 2, 3))
    assert solver._by_rank(hand, remaining, below) == by_rank(hand, remaining)
    other = same_ranks(remaining, np.random.default_rng(choice))
    for card in range(32):
        if remaining >> card & 1:
            moved = solver._same_rank(card, remaining, other)
            assert other >> moved & 1
            assert SUIT_OF[moved] == SUIT_OF[card]
            suit = SUIT_MASK[SUIT_OF[card]]
            assert by_rank(1 << moved, other & suit) == by_rank(1 << card, remaining & suit)


def relabelled(state: Round, rng: np.random.Generator) -> Round:
    """``state`` (at a trick boundary) with the cards left of each suit swapped for as many
    other cards of the suit that were not buried, each seat holding the cards of the ranks
    it held: a position played alike, card for card, with other points."""
    remaining = 0
    for hand in state.hands:
        remaining |= hand
    new = same_ranks(remaining, rng, pool=state.config.deck & ~state.discards)
    hands = [0] * state.config.num_players
    for seat, hand in enumerate(state.hands):
        for rank, card in enumerate(card for card in range(32) if remaining >> card & 1):
            if hand >> card & 1:
                hands[seat] |= 1 << [c for c in range(32) if new >> c & 1][rank]
    other = state.clone()
    other.hands = hands
    return other


@settings(max_examples=80, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_positions_of_one_key_differ_by_at_most_the_shift(n: int, seed: int) -> None:
    """Two trick boundaries whose seats hold the same ranks of the cards left, in other cards,
    share the table's key, and their exact values differ by no more than the shift a stored
    bound is moved by (quasi-symmetry); the solver values both exactly."""
    rng = np.random.default_rng(seed)
    state = play_randomly(picked_round(n, rng), n * int(rng.integers(1, 4)), rng)
    other = relabelled(state, rng)
    works = [np.zeros(solver._WORK, dtype=np.int64) for _ in range(2)]
    rounds = (state, other)
    positions = [solver._load(round_, work) for round_, work in zip(rounds, works, strict=True)]
    keys = [solver._key(work, pos[0], pos[1]) for work, pos in zip(works, positions, strict=True)]
    assert keys[0] == keys[1]
    down, up = solver._shift(positions[0][0], positions[1][0])
    value = minimax(state) - solver._known(state)
    moved = minimax(other) - solver._known(other)
    assert value + down <= moved <= value + up
    assert solver.solve(other) == minimax(other)


def test_the_key_tells_suits_apart() -> None:
    """Hands of the same ranks among the cards left but of other suits (two clubs against a
    club and a spade) have different keys: the key counts each suit's cards left."""
    clubs, spades = SUIT_MASK[0], SUIT_MASK[1]
    two_clubs = clubs & -clubs | (clubs & clubs - 1) & -(clubs & clubs - 1)
    low_spade = spades & -spades
    second_spade = (spades & spades - 1) & -(spades & spades - 1)
    keys = []
    for hands in ([two_clubs, low_spade, 0], [clubs & -clubs | low_spade, second_spade, 0]):
        work = np.zeros(solver._WORK, dtype=np.int64)
        work[:3], work[solver._SEATS], work[solver._PICKER] = hands, 3, 0
        remaining = hands[0] | hands[1]
        below = tuple((remaining & (1 << 8 * byte) - 1).bit_count() for byte in (1, 2, 3))
        assert [solver._by_rank(hand, remaining, below) for hand in hands] == [3, 4, 0]
        keys.append(solver._key(work, remaining, 0))
    assert keys[0] != keys[1]
