"""The search that reads the play, for a game of the registry (B.O.N): the public actions a seat
pieces together from its own observations, sampled worlds replayed from their deals, worlds
weighted by a model of the other seats, and the player that uses them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.games.bon.history import follow, replay
from agents.games.bon.search import heuristic, infostate, observe
from agents.games.bon.view import BonView
from agents.players.policy import NumpyPolicy
from agents.players.reading import PlayerModel, PlayReading, log_likelihoods, resample
from agents.players.search import SearchPlayer
from agents.specs import make_agent
from boon_env.games.bon.encoding import OBS_SIZE
from boon_env.games.bon.rules import NUM_ACTIONS, Deal, GameConfig, Round

BON_READING = PlayReading(follow=follow, replay=replay)


def _round(n: int, seed: int) -> Round:
    config = GameConfig(num_players=n)
    rng = np.random.default_rng(seed)
    return Round(config, Deal.random(config, rng), rng.permutation(3).tolist(), seed % n)


def _highest(state: Round) -> int:
    return state.legal_actions()[-1]


def _highest_action_policy() -> NumpyPolicy:
    """A deterministic policy: the highest legal action id, whatever it sees."""
    weights = np.zeros((OBS_SIZE, NUM_ACTIONS), np.float32)
    return NumpyPolicy([weights], [100 * np.arange(NUM_ACTIONS, dtype=np.float32)])


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**31), me=st.integers(0, 4))
def test_play_log_rebuilds_the_cards_played(n: int, seed: int, me: int) -> None:
    """A seat seeing only its own turns lists every card played so far, in order."""
    state, me, log = _round(n, seed), me % n, None
    rng = np.random.default_rng(seed)
    turns = 0
    while not state.is_over:
        if state.current == me:
            log = follow(log, observe(state, me))
            assert log.complete
            assert log.actions(BonView.from_round(state, me).trick) == state.history
            turns += 1
        state.apply(int(rng.choice(state.legal_actions())))
    assert turns == 7


def test_a_log_started_mid_round_is_incomplete() -> None:
    state = _round(4, 0)
    while sum(state.tricks_won) < 2 or state.current:
        state.apply(state.legal_actions()[0])
    log = follow(None, observe(state, 0))
    assert not log.complete and replay(infostate(observe(state, 0)).round, log) is None


def test_a_missed_turn_makes_the_log_incomplete() -> None:
    state, log = _round(3, 1), None
    while not state.is_over:
        if state.current == 0 and sum(state.tricks_won) != 2:  # seat 0 misses its third turn
            log = follow(log, observe(state, 0))
        state.apply(state.legal_actions()[0])
    assert log is not None and not log.complete


def _positions(n: int, seed: int, count: int):
    """``count`` (round, seat's log, seat's observation) at that seat's turns, random play."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        state, me, log = _round(n, int(rng.integers(2**31))), int(rng.integers(n)), None
        while not state.is_over and found < count:
            if state.current == me:
                obs = observe(state, me)
                log = follow(log, obs)
                yield state, log, obs
                found += 1
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_sampled_world_replays_from_its_deal_to_its_point(n: int) -> None:
    rng = np.random.default_rng(n)
    for _state, log, obs in _positions(n, seed=n, count=60):
        info = infostate(obs)
        for _ in range(5):
            world = info.sample(rng)
            start, actions = replay(world, log)
            for action in actions:
                start.apply(action)
            for name in ("hands", "passes", "tricks_won", "tower", "trick", "current", "voids"):
                assert getattr(start, name) == getattr(world, name), name
            assert start.legal_mask() == world.legal_mask()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_worlds_that_contradict_a_deterministic_player_get_tiny_weight(n: int) -> None:
    """Every seat plays the highest legal card; seat 0's worlds in which another seat could
    have played a higher one than it did weigh almost nothing."""
    policy = _highest_action_policy()
    state, log = _round(n, 10 + n), None
    while sum(state.tricks_won) < 3 or state.current:
        if state.current == 0:
            log = follow(log, observe(state, 0))
        state.apply(_highest(state))
    obs = observe(state, 0)
    log = follow(log, obs)
    rng = np.random.default_rng(0)
    worlds = [infostate(obs).sample(rng) for _ in range(80)]
    log_weights = log_likelihoods(
        worlds, log, BON_READING, observe, PlayerModel(policy, 1e-6, 1.0), 0
    )

    def consistent(world: Round) -> bool:
        start, actions = replay(world, log)
        for action in actions:
            if start.current != 0 and action != _highest(start):
                return False
            start.apply(action)
        return True

    fits = np.array([consistent(world) for world in worlds])
    assert fits.any() and not fits.all()
    weights = np.exp(log_weights - log_weights.max())
    assert weights[~fits].sum() / weights.sum() < 1e-4
    assert np.allclose(log_weights[fits], log_weights[fits].max(), atol=1e-3)
    assert fits[resample(log_weights, 50, rng)].all()


def test_a_world_where_a_logged_card_is_not_legal_gets_no_weight() -> None:
    state, log = _round(3, 5), None
    while sum(state.tricks_won) < 2 or state.current:
        if state.current == 0:
            log = follow(log, observe(state, 0))
        state.apply(state.legal_actions()[0])
    obs = observe(state, 0)
    log = follow(log, obs)
    world = infostate(obs).sample(np.random.default_rng(0))
    # Seat 1's first card swapped with a card of seat 2's hand: seat 1 never held it.
    first = next(card for card in log.tricks[0] if (world.deal.hands[1] >> card) & 1)
    other = (world.hands[2] & -world.hands[2]).bit_length() - 1
    hands = list(world.deal.hands)
    hands[1] ^= 1 << first | 1 << other
    hands[2] ^= 1 << first | 1 << other
    world.deal = Deal(
        tuple(hands), world.deal.hand_passes, world.deal.leftovers, world.deal.leftover_passes
    )
    model = PlayerModel(_highest_action_policy(), 0.1, 1.0)
    assert log_likelihoods([world], log, BON_READING, observe, model, 0)[0] == -np.inf


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_reading_search_follows_the_round_and_plays_legally(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent: SearchPlayer = make_agent(
        "search:samples=4,candidates=12,inference=ppo", seed=0, num_players=n, game="bon"
    )
    read = []

    def spy(*args: object) -> np.ndarray | None:
        log_weights = log_likelihoods(*args)  # type: ignore[arg-type]
        read.append(log_weights is not None)
        return log_weights

    monkeypatch.setattr("agents.players.search.log_likelihoods", spy)
    for seed in range(4):  # rounds one after another: each starts a new log
        state = _round(n, seed)
        while not state.is_over:
            if state.current == 0:
                legal = state.legal_mask()
                mask = np.array([legal >> a & 1 for a in range(NUM_ACTIONS)], dtype=np.int8)
                action = agent.act(observe(state, 0), mask)
                assert mask[action] == 1
                state.apply(action)
            else:
                state.apply(heuristic(state))
    assert read and all(read)  # every decision read the whole round


def test_a_game_whose_search_cannot_read_the_play_says_so() -> None:
    with pytest.raises(ValueError, match="inference=ppo: boyn's search cannot read the play"):
        make_agent("search:inference=ppo", num_players=3, game="boyn")
