"""The batched engine ``boon_env.games.boon.vector.VectorBoon`` against the scalar rules and
``boon_v0``.

The vector engine is a second implementation of the rules, so the differential tests are its
guard: given the same deals and actions as ``boon_env.games.boon.rules.Round`` and
``boon_v0.raw_env``, it must give identical legal masks, bit-identical observations and identical
round values.
"""

from __future__ import annotations

import doctest
import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env import boon_v0, vector
from boon_env.games.boon.encoding import OBS_SIZE, OFFSETS, action_mask, encode
from boon_env.games.boon.rules import (
    NUM_ACTIONS,
    PASS,
    PICK,
    Deal,
    GameConfig,
    Phase,
    Round,
    cards_of,
    leaster_winner,
    round_value,
)
from boon_env.games.boon.vector import VectorBoon
from tests.helpers.boon import BURY_29, BURY_30, SWEEP_BOON, SWEEP_HANDS, actions, cards

# The Leaster deal of test_env_contract, in card names.
BURY_30_HANDS, BURY_30_BOON = BURY_30

# ----------------------------------------------------------------------------- the mirror


@dataclass
class Mirror:
    """One table's current round, played by the scalar engine and by ``boon_v0``."""

    round: Round
    env: boon_v0.raw_env | None

    @classmethod
    def of(cls, venv: VectorBoon, table: int, with_env: bool) -> Mirror:
        deal = venv.deal(table)
        config = venv.config
        state = Round(config, Deal.from_cards(config, deal["hands"], deal["boon"]), deal["dealer"])
        env = None
        if with_env:
            env = boon_v0.raw_env(num_players=config.num_players)
            env.reset(
                options={
                    "deal": {"hands": deal["hands"], "boon": deal["boon"]},
                    "dealer": deal["dealer"],
                }
            )
        return cls(state, env)


def choose(state: Round, rng: np.random.Generator, pass_bias: float) -> int:
    """A random legal action; with probability ``pass_bias`` a pass where one is legal (so that
    Leasters, tied ones too, are common)."""
    legal = state.legal_actions()
    if PASS in legal and rng.random() < pass_bias:
        return PASS
    return legal[int(rng.integers(len(legal)))]


@dataclass
class Tally:
    """What kinds of rounds a differential run checked."""

    picker: int = 0
    leaster_won: int = 0
    leaster_tied: int = 0

    @property
    def rounds(self) -> int:
        return self.picker + self.leaster_won + self.leaster_tied


def assert_same_decision(
    venv: VectorBoon,
    mirrors: list[Mirror],
    obs: np.ndarray | None,
    mask: np.ndarray,
    seat: np.ndarray,
    every_seat: bool,
) -> None:
    """The vector engine's outputs agree with every table's scalar round and env."""
    n = venv.num_players
    victory_cards = [venv.config.starting_victory_cards] * n
    for table, mirror in enumerate(mirrors):
        state = mirror.round
        assert seat[table] == state.current, f"table {table}"
        assert np.array_equal(mask[table], action_mask(state.legal_mask())), f"table {table}"
        assert venv.phase[table] == state.phase
        if obs is not None:
            expected = encode(state, state.current, victory_cards)
            assert obs.dtype == np.float32
            assert np.array_equal(obs[table], expected), (
                f"table {table}: observation differs at {np.flatnonzero(obs[table] != expected)}"
            )
        if mirror.env is not None:
            agent = f"player_{state.current}"
            assert mirror.env.agent_selection == agent
            seen = mirror.env.observe(agent)
            assert np.array_equal(seen["action_mask"], mask[table])
            if obs is not None:
                assert np.array_equal(seen["observation"], obs[table])
    if every_seat:
        tables = np.repeat(np.arange(venv.num_tables), n)
        seats = np.tile(np.arange(n), venv.num_tables)
        views = venv.observe(tables, seats)
        for row, (table, who) in enumerate(zip(tables, seats, strict=True)):
            expected = encode(mirrors[table].round, int(who), victory_cards)
            assert np.array_equal(views[row], expected), f"table {table}, seat {who}"


def play_alongside(
    venv: VectorBoon,
    steps: int,
    rng: np.random.Generator,
    pass_bias: np.ndarray,
    *,
    with_env: bool = True,
    every_seat: bool = False,
    deals: list[dict[str, Any]] | None = None,
) -> Tally:
    """Reset ``venv`` and play ``steps`` steps, every table mirrored, checking every decision
    and every round's values, record and next dealer."""
    obs, mask, seat = venv.reset(deals=deals)
    mirrors = [Mirror.of(venv, table, with_env) for table in range(venv.num_tables)]
    tally = Tally()
    n = venv.num_players
    for _ in range(steps):
        assert_same_decision(venv, mirrors, obs, mask, seat, every_seat)
        moves = np.array(
            [choose(m.round, rng, pass_bias[table]) for table, m in enumerate(mirrors)]
        )
        obs, mask, seat, rewards, done = venv.step(moves)
        assert rewards.shape == (venv.num_tables, n) and rewards.dtype == np.float32
        for table, mirror in enumerate(mirrors):
            state = mirror.round
            state.apply(int(moves[table]))
            if mirror.env is not None:
                mirror.env.step(int(moves[table]))
            assert done[table] == state.is_over, f"table {table}"
            if not state.is_over:
                assert not rewards[table].any()
                continue
            assert tuple(rewards[table]) == round_value(state)
            record = venv.finished
            assert record.values[table].tolist() == rewards[table].tolist()
            assert record.points[table].tolist() == state.points
            assert record.tricks_won[table].tolist() == state.tricks_won
            assert record.dealer[table] == state.dealer
            assert record.picker[table] == (-1 if state.picker is None else state.picker)
            assert record.leaster[table] == state.leaster
            assert record.discards[table] == state.discards
            if state.leaster:
                winner = leaster_winner(state.points, state.tricks_won)
                assert record.leaster_winner[table] == (-1 if winner is None else winner)
                if winner is None:
                    tally.leaster_tied += 1
                else:
                    tally.leaster_won += 1
            else:
                assert record.leaster_winner[table] == -1
                tally.picker += 1
            # The table is dealt its next round at once, the deal passing left.
            assert venv.deal(table)["dealer"] == (state.dealer + 1) % n
            mirrors[table] = Mirror.of(venv, table, with_env)
    assert_same_decision(venv, mirrors, obs, mask, seat, every_seat)
    assert venv.finished.rounds.sum() == tally.rounds
    return tally


# ----------------------------------------------------------------------------- differential


@settings(max_examples=80, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    tables=st.integers(1, 8),
    seed=st.integers(0, 2**32 - 1),
    pass_bias=st.floats(0.0, 1.0),
    observations=st.booleans(),
)
def test_vector_engine_matches_the_scalar_engine_and_boon_v0(
    players: int, tables: int, seed: int, pass_bias: float, observations: bool
) -> None:
    venv = VectorBoon(tables, players, seed=seed, observations=observations)
    rng = np.random.default_rng(seed)
    biases = np.full(tables, pass_bias)
    tally = play_alongside(venv, 100, rng, biases, every_seat=observations)
    assert tally.rounds >= tables  # 100 steps finish at least one round per table


@pytest.mark.parametrize("players", [3, 4, 5])
def test_vector_engine_matches_the_scalar_engine_over_a_thousand_deals(players: int) -> None:
    tables = 256
    venv = VectorBoon(tables, players, seed=players)
    rng = np.random.default_rng(players)
    # Pass biases from 0 to 1 across the tables: picker rounds, won and tied Leasters.
    tally = play_alongside(venv, 160, rng, np.linspace(0, 1, tables), with_env=False)
    assert tally.rounds >= 1000
    assert tally.picker and tally.leaster_won and tally.leaster_tied, tally


def test_reset_starts_tables_from_the_given_deals() -> None:
    config = GameConfig(num_players=4)
    rng = np.random.default_rng(7)
    deals = []
    for table in range(6):
        deal = Deal.random(config, rng)
        deals.append(
            {
                "hands": [list(cards_of(hand)) for hand in deal.hands],
                "boon": list(cards_of(deal.boon)),
                "dealer": table % 4,
            }
        )
    venv = VectorBoon(6, 4, seed=1)
    play_alongside(venv, 60, rng, np.full(6, 0.5), deals=deals)
    venv.reset(deals=deals)
    assert [venv.deal(table) for table in range(6)] == deals
    assert venv.seat.tolist() == [(table % 4 + 1) % 4 for table in range(6)]


# ----------------------------------------------------------------------------- scripted rounds


def one_table(hands: tuple[str, ...], boon: str, dealer: int = 3) -> VectorBoon:
    """A four-player engine of one table dealt the hands and Boon written in card names."""
    venv = VectorBoon(1, 4, seed=0)
    deal = {"hands": [cards(hand) for hand in hands], "boon": cards(boon), "dealer": dealer}
    venv.reset(deals=[deal])
    return venv


def play_script(venv: VectorBoon, moves: str) -> tuple[Any, ...]:
    """Play the comma-separated moves at a one-table engine; returns the last step's outputs."""
    outputs: tuple[Any, ...] = ()
    for move in actions(moves):
        outputs = venv.step(np.array([move]))
    return outputs


def play_lowest(venv: VectorBoon) -> np.ndarray:
    """Finish the round of a one-table engine, every seat playing its lowest legal action;
    returns the round's rewards."""
    while True:
        lowest = np.flatnonzero(venv.action_masks()[0])[:1]
        _obs, _mask, _seat, rewards, done = venv.step(lowest)
        if done[0]:
            return rewards[0]


def test_a_picker_who_sweeps_every_trick_is_paid_two_by_everyone() -> None:
    venv = one_table(SWEEP_HANDS, SWEEP_BOON)
    play_script(venv, "pick")
    assert venv.phase.tolist() == [Phase.DISCARD] and venv.seat.tolist() == [0]
    enlarged = sorted(cards(SWEEP_HANDS[0]) + cards(SWEEP_BOON))
    assert np.flatnonzero(venv.action_masks()[0]).tolist() == enlarged
    _obs, mask, seat, _rewards, _done = play_script(venv, SWEEP_BOON)  # buries 43 points
    assert venv.phase.tolist() == [Phase.PLAY] and seat.tolist() == [0]
    assert np.flatnonzero(mask[0]).tolist() == cards(SWEEP_HANDS[0])
    assert play_lowest(venv).tolist() == [6.0, -2.0, -2.0, -2.0]
    record = venv.finished
    assert record.points[0].tolist() == [120, 0, 0, 0]  # 77 in tricks + 43 buried
    assert record.tricks_won[0].tolist() == [7, 0, 0, 0]
    assert record.picker.tolist() == [0] and record.leaster.tolist() == [False]
    assert record.discards[0] == sum(1 << card for card in cards(SWEEP_BOON))


def test_a_picker_at_29_points_owes_two_to_everyone_uncapped() -> None:
    hands, boon = BURY_29
    venv = one_table(hands, boon)
    play_script(venv, f"pick, {boon}")
    # The scalar game caps this at the 5 Victory Cards the picker holds (-5, 2, 2, 1); the
    # vector engine reports the round's uncapped value.
    assert play_lowest(venv).tolist() == [-6.0, 2.0, 2.0, 2.0]
    assert venv.finished.points[0].tolist() == [29, 91, 0, 0]


def test_a_leaster_pays_its_sole_qualified_player() -> None:
    venv = one_table(BURY_30_HANDS, BURY_30_BOON)
    _obs, mask, seat, _rewards, _done = play_script(venv, "pass, pass, pass, pass")
    assert venv.phase.tolist() == [Phase.PLAY] and seat.tolist() == [0]
    assert np.flatnonzero(mask[0]).tolist() == cards(BURY_30_HANDS[0])
    # Seat 1 takes every trick: the only player with a trick, it wins the Leaster.
    assert play_lowest(venv).tolist() == [-1.0, 3.0, -1.0, -1.0]
    record = venv.finished
    assert record.leaster.tolist() == [True] and record.picker.tolist() == [-1]
    assert record.leaster_winner.tolist() == [1]
    assert record.points[0].sum() == 120 - 30  # the Boon's 30 points count for nobody
    assert record.discards.tolist() == [0]


def test_a_finished_table_is_dealt_its_next_round_left_of_the_last_dealer() -> None:
    venv = one_table(SWEEP_HANDS, SWEEP_BOON, dealer=3)
    play_script(venv, f"pick, {SWEEP_BOON}")
    while True:
        lowest = np.flatnonzero(venv.action_masks()[0])[:1]
        obs, mask, seat, _rewards, done = venv.step(lowest)
        if done[0]:
            break
    deal = venv.deal(0)
    assert deal["dealer"] == 0
    assert deal["hands"] != [cards(hand) for hand in SWEEP_HANDS]
    # The outputs are already the new round's first decision: seat 1 picks or passes.
    assert seat.tolist() == [1] and venv.phase.tolist() == [Phase.PICK]
    assert np.flatnonzero(mask[0]).tolist() == [PICK, PASS]
    config = GameConfig(num_players=4)
    state = Round(config, Deal.from_cards(config, deal["hands"], deal["boon"]), 0)
    assert np.array_equal(obs[0], encode(state, 1, [5, 5, 5, 5]))


# ----------------------------------------------------------------------------- bad input


def fresh(players: int = 4, tables: int = 5, seed: int = 3) -> VectorBoon:
    venv = VectorBoon(tables, players, seed=seed)
    venv.reset()
    return venv


def public_state(venv: VectorBoon) -> list[Any]:
    """Everything the engine shows, as comparable values."""
    record = venv.finished
    return [
        [venv.deal(table) for table in range(venv.num_tables)],
        venv.seat.tolist(),
        venv.phase.tolist(),
        venv.legal.tolist(),
        venv.observe().tobytes(),
        [getattr(record, name).tolist() for name in record.__dataclass_fields__],
    ]


def walk(venv: VectorBoon, steps: int, seed: int) -> list[Any]:
    """Outputs of ``steps`` steps of random legal play (moves from their own generator)."""
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        outputs = venv.step(venv.random_actions(rng))
        seen.append([None if x is None else x.tobytes() for x in outputs])
    return seen


@pytest.mark.parametrize("bad_table", [0, 2, 4])
@pytest.mark.parametrize("steps", [0, 3, 12])
def test_an_illegal_action_at_any_table_is_refused_and_changes_nothing(
    bad_table: int, steps: int
) -> None:
    venv, twin = fresh(), fresh()
    walk(venv, steps, seed=1)
    walk(twin, steps, seed=1)
    before = public_state(venv)
    moves = venv.random_actions(np.random.default_rng(2))
    illegal = next(a for a in range(NUM_ACTIONS) if not venv.legal[bad_table] >> a & 1)
    moves[bad_table] = illegal
    legal_names = [a for a in range(NUM_ACTIONS) if venv.legal[bad_table] >> a & 1]
    with pytest.raises(ValueError, match=f"illegal action {illegal} .* at table {bad_table} ") as e:
        venv.step(moves)
    assert "legal actions: " + ", ".join(str(a) for a in legal_names[:1]) in str(e.value)
    assert all(f"{a} (" in str(e.value).split("legal actions:")[1] for a in legal_names)
    assert public_state(venv) == before
    # Nothing changed, the generator included: both engines go on identically.
    assert walk(venv, 40, seed=5) == walk(twin, 40, seed=5)


def test_several_illegal_actions_are_all_counted() -> None:
    venv = fresh()
    with pytest.raises(ValueError, match=r"at table 0 .* 4 more table"):
        venv.step(np.zeros(5, dtype=np.int64))  # card 0 is never legal in the pick phase


@pytest.mark.parametrize("action", [-1, 34, 63, 64, 2**40])
def test_an_action_that_is_no_action_id_is_refused(action: int) -> None:
    venv = fresh()
    moves = venv.random_actions(np.random.default_rng(0))
    moves[1] = action
    with pytest.raises(ValueError, match=f"illegal action {action} .*not an action id 0-33"):
        venv.step(moves)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (np.full(4, PASS), r"shape \(5,\)"),
        (np.full((5, 1), PASS), r"shape \(5,\)"),
        (np.full(5, float(PASS)), "integers, got dtype float64"),
        (np.ones(5, dtype=bool), "integers, got dtype bool"),
        ([PASS] * 4, r"shape \(5,\)"),
        ("pass", r"shape \(5,\)"),
    ],
)
def test_actions_of_the_wrong_shape_or_dtype_are_refused(actions: Any, message: str) -> None:
    venv = fresh()
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.step(actions)
    assert public_state(venv) == before


def test_actions_may_be_any_integer_array_or_a_list() -> None:
    venv = fresh()
    venv.step([PASS] * 5)
    venv.step(np.full(5, PASS, dtype=np.uint8))
    # Two passes after the seat left of the dealer: the third seat from the dealer decides.
    assert venv.seat.tolist() == [(dealer + 3) % 4 for dealer in dealers(venv)]


def dealers(venv: VectorBoon) -> np.ndarray:
    return np.array([venv.deal(table)["dealer"] for table in range(venv.num_tables)])


def good_deals(players: int = 4, tables: int = 3) -> list[dict[str, Any]]:
    venv = fresh(players, tables)
    return [venv.deal(table) for table in range(tables)]


def with_change(table: int, **change: Any) -> list[dict[str, Any]]:
    deals = good_deals()
    deals[table] = {**deals[table], **change}
    return deals


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        (good_deals()[:2], "deals has 2 entries, expected 3"),
        ({"hands": [], "boon": [], "dealer": 0}, "sequence of 3 deal dicts"),
        ([*good_deals()[:2], "deal"], r"deals\[2\] must be a dict"),
        (
            [*good_deals()[:2], {k: v for k, v in good_deals()[2].items() if k != "dealer"}],
            r"deals\[2\] must be a dict with exactly the keys",
        ),
        (with_change(1, dealer=4), r"deals\[1\]\['dealer'\] must be a seat 0-3"),
        (with_change(1, dealer=True), r"deals\[1\]\['dealer'\] must be a seat 0-3"),
        (with_change(0, boon=[0, 1, 2]), r"deals\[0\]: deal boon has 3 cards, expected 4"),
        (
            with_change(2, hands=[[0] * 7, *good_deals()[2]["hands"][1:]]),
            r"deals\[2\]: deal hand 0 repeats card 0",
        ),
        (with_change(2, hands=[["gold 1"]]), r"deals\[2\]: deal has 1 hands, expected 4"),
    ],
)
def test_bad_deals_are_refused_naming_the_table_and_change_nothing(
    deals: Any, message: str
) -> None:
    venv = fresh(4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.reset(deals=deals)
    assert public_state(venv) == before


def test_reset_deals_starts_the_same_rounds_as_reset_from_card_lists() -> None:
    config = GameConfig(num_players=4)
    deals = [Deal.from_cards(config, d["hands"], d["boon"]) for d in good_deals()]
    dealers = [d["dealer"] for d in good_deals()]
    by_lists, by_masks = fresh(4, 3), fresh(4, 3)
    expected = by_lists.reset(deals=good_deals())
    got = by_masks.reset_deals(deals, dealers)
    assert all(np.array_equal(a, b) for a, b in zip(expected, got, strict=True))
    assert public_state(by_masks) == public_state(by_lists)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"count": 2}, "got 2 deals and 3 dealers, expected 3 of each"),
        ({"deal": "deal"}, r"deals\[1\] must be a Deal"),
        ({"boon": 0}, r"deals\[1\]: deal boon has 0 cards, expected 4"),
        ({"dealer": 4}, r"dealers\[1\] must be a seat 0-3"),
        ({"dealer": True}, r"dealers\[1\] must be a seat 0-3"),
        ({"dealer": "1"}, r"dealers\[1\] must be a seat 0-3"),
    ],
)
def test_bad_bitmask_deals_are_refused_naming_the_table_and_change_nothing(
    change: dict[str, Any], message: str
) -> None:
    config = GameConfig(num_players=4)
    deals: list[Any] = [Deal.from_cards(config, d["hands"], d["boon"]) for d in good_deals()]
    dealers: list[Any] = [d["dealer"] for d in good_deals()]
    if "count" in change:
        deals = deals[: change["count"]]
    if "deal" in change:
        deals[1] = change["deal"]
    if "boon" in change:
        deals[1] = Deal(deals[1].hands, change["boon"])
    if "dealer" in change:
        dealers[1] = change["dealer"]
    venv = fresh(4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.reset_deals(deals, dealers)
    assert public_state(venv) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_tables": 0}, "num_tables must be an integer >= 1"),
        ({"num_tables": 2.0}, "num_tables must be an integer >= 1"),
        ({"num_tables": 2, "num_players": 6}, "num_players must be one of"),
        ({"num_tables": 2, "observations": "yes"}, "observations must be True or False"),
    ],
)
def test_a_bad_configuration_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VectorBoon(**kwargs)


def test_the_tables_must_be_dealt_before_use() -> None:
    venv = VectorBoon(2, 3)
    with pytest.raises(RuntimeError, match="reset"):
        venv.step(np.full(2, PASS))


@pytest.mark.parametrize(
    ("tables", "seats", "message"),
    [
        ([0, 5], None, "tables must lie in 0-4"),
        ([[0]], None, "tables must be a 1-D integer array"),
        ([0.0], None, "tables must be a 1-D integer array"),
        ([0, 1], [0, 4], "seats must lie in 0-3"),
        ([0, 1], [0], "seats must have one entry per table"),
    ],
)
def test_bad_observers_are_refused(tables: Any, seats: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fresh().observe(tables, seats)


@pytest.mark.parametrize("table", [-1, 5, 1.0, True])
def test_deal_of_a_table_out_of_range_is_refused(table: Any) -> None:
    with pytest.raises(ValueError, match="table must be an integer 0-4"):
        fresh().deal(table)


# ----------------------------------------------------------------------------- contract


def test_observations_of_chosen_tables_and_seats() -> None:
    venv = fresh(5, 6)
    walk(venv, 25, seed=0)
    everything = venv.observe()
    assert everything.shape == (6, OBS_SIZE) and everything.dtype == np.float32
    assert np.array_equal(venv.observe([4, 1]), everything[[4, 1]])
    assert venv.observe([]).shape == (0, OBS_SIZE)
    assert np.array_equal(venv.observe([2], [venv.seat[2]]), everything[[2]])


def test_masks_only_mode_gives_the_same_play_without_observations() -> None:
    with_obs = VectorBoon(16, 3, seed=11)
    masks_only = VectorBoon(16, 3, seed=11, observations=False)
    obs, mask, seat = with_obs.reset()
    none, mask_only, seat_only = masks_only.reset()
    assert none is None and obs.shape == (16, OBS_SIZE)
    rng = np.random.default_rng(0)
    for _ in range(100):
        assert np.array_equal(mask, mask_only) and np.array_equal(seat, seat_only)
        moves = with_obs.random_actions(rng)
        obs, mask, seat, rewards, done = with_obs.step(moves)
        none, mask_only, seat_only, rewards_only, done_only = masks_only.step(moves)
        assert none is None
        assert np.array_equal(rewards, rewards_only) and np.array_equal(done, done_only)
    # Observations are still there on request.
    assert np.array_equal(masks_only.observe(), obs)


def test_random_actions_are_legal_and_cover_every_legal_action() -> None:
    venv = fresh(4, 64)
    rng = np.random.default_rng(0)
    for _ in range(60):
        legal = venv.legal
        seen = np.zeros(venv.num_tables, dtype=np.int64)
        for _ in range(200):
            moves = venv.random_actions(rng)
            assert ((legal >> moves) & 1).all()
            seen |= 1 << moves
        assert seen.tolist() == legal.tolist()  # every legal action drawn at least once
        venv.step(venv.random_actions(rng))


def test_first_dealers_are_drawn_and_rewards_are_zero_sum() -> None:
    venv = VectorBoon(200, 5, seed=4)
    venv.reset()
    first = dealers(venv)
    assert set(first.tolist()) == set(range(5))
    assert venv.seat.tolist() == ((first + 1) % 5).tolist()
    rng = np.random.default_rng(0)
    for _ in range(80):
        _obs, _mask, _seat, rewards, _done = venv.step(venv.random_actions(rng))
        assert (rewards.sum(axis=1) == 0).all()


def disturb_global_random(seed: int) -> None:
    """Reseed and draw from ``random`` and ``np.random``, as other code in a process might."""
    random.seed(seed)
    np.random.seed(seed)
    random.random()
    np.random.rand(3)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_same_seed_same_deals_and_results_despite_global_random_use(players: int) -> None:
    def run(disturb: bool) -> list[Any]:
        venv = VectorBoon(8, players, seed=99)
        venv.reset()
        rng = np.random.default_rng(5)
        seen = [[venv.deal(table) for table in range(8)]]
        for step in range(120):
            if disturb:
                disturb_global_random(step)
            outputs = venv.step(venv.random_actions(rng))
            seen.append([x.tobytes() for x in outputs])
        return seen

    assert run(disturb=False) == run(disturb=True)
    other = VectorBoon(8, players, seed=100)
    other.reset()
    assert [other.deal(table) for table in range(8)] != run(False)[0]


def test_reset_with_a_seed_starts_over() -> None:
    venv = VectorBoon(4, 4, seed=1)
    first = [x.tobytes() for x in venv.reset(seed=8)]
    walk(venv, 30, seed=0)
    assert [x.tobytes() for x in venv.reset(seed=8)] == first


def test_card_pieces_start_on_32_bit_words() -> None:
    # The vector encoder builds the 0/1 part of the observation from 32-bit words.
    for name in ("hand", "boon", "discards", "trick", "played", "phase"):
        assert OFFSETS[name] % 32 == 0, name
    assert OFFSETS["points"] - OFFSETS["phase"] <= 64


def test_module_docstring_example_runs() -> None:
    result = doctest.testmod(vector)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_benchmark_runs_with_a_tiny_budget() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_vector.py"
    budget = "--tables 8 --steps 3 --obs-steps 3 --rounds 2 --env-rounds 1 --repeats 1"
    result = subprocess.run(
        [sys.executable, str(script), *budget.split(), "--players", "3", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(result.stdout)
    rows = {(row["players"], row["engine"]) for row in report["results"]}
    assert rows == {(n, e) for n in (3, 5) for e in ("scalar", "env()", "vector+obs", "vector")}
    assert all(row["decisions_per_second"] > 0 for row in report["results"])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_stepping_a_subset_of_tables_moves_only_those(players: int) -> None:
    # Every table of a big engine, stepped at random moments, plays its first round exactly as
    # a one-table engine given the same deal and actions; the tables left out do not move.
    count = 12
    venv = vector.VectorBoon(count, players, seed=players)
    venv.reset()
    singles = [vector.VectorBoon(1, players) for _ in range(count)]
    for i, single in enumerate(singles):
        single.reset(deals=[venv.deal(i)])
    rng = np.random.default_rng(players)
    alive = np.ones(count, dtype=bool)  # until its first round ends (later deals differ)
    stepped = 0
    while alive.any():
        chosen = alive & (rng.random(count) < 0.5)
        before, masks_before = venv.observe(), venv.action_masks()
        moves = venv.random_actions(rng)
        moves[~chosen] = -1  # ignored: those tables do not move
        _, mask, seat, rewards, done = venv.step(moves, tables=chosen)
        obs = venv.observe()
        for i in np.flatnonzero(chosen):
            _, mask_i, seat_i, rewards_i, done_i = singles[i].step(moves[i : i + 1])
            assert done[i] == done_i[0]
            np.testing.assert_array_equal(rewards[i], rewards_i[0])
            if not done[i]:
                np.testing.assert_array_equal(mask[i], mask_i[0])
                assert seat[i] == seat_i[0]
                np.testing.assert_array_equal(obs[i], singles[i].observe()[0])
            alive[i] &= not done[i]
            stepped += 1
        rest = ~chosen
        assert not done[rest].any() and not rewards[rest].any()
        np.testing.assert_array_equal(obs[rest], before[rest])
        np.testing.assert_array_equal(mask[rest], masks_before[rest])
    assert stepped > count * 10


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        (np.ones(4, dtype=bool), r"tables must be a \(5,\) bool array"),
        (np.ones(5, dtype=np.int64), "dtype int64"),
        ([True] * 5 + [False], r"shape \(6,\)"),
    ],
)
def test_a_bad_table_selection_is_refused_and_changes_nothing(tables: Any, message: str) -> None:
    venv = fresh()
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.step(venv.random_actions(np.random.default_rng(0)), tables=tables)
    assert public_state(venv) == before


def test_an_illegal_action_at_a_stepped_table_is_refused() -> None:
    venv = fresh()
    before = public_state(venv)
    moves = venv.random_actions(np.random.default_rng(0))
    moves[3] = 0  # card 0 is never legal in the pick phase
    chosen = np.zeros(5, dtype=bool)
    chosen[3] = True
    with pytest.raises(ValueError, match="at table 3 "):
        venv.step(moves, tables=chosen)
    assert public_state(venv) == before
