"""The batched engine ``boon_env.games.boon.vector.VectorBoon`` against the scalar rules and
``boon_v0``.

The vector engine is a second implementation of the rules, so the differential tests are its
guard: given the same deals and actions as ``boon_env.games.boon.rules.Round`` and
``boon_v0.raw_env``, it must give identical legal masks, bit-identical observations and identical
round values.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env import boon_v0
from boon_env.games.boon.encoding import OFFSETS, action_mask, encode
from boon_env.games.boon.rules import (
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


# ----------------------------------------------------------------------------- bad deals
# What every engine refuses is checked in test_vector_contract.py; here, Boon's deal contents.


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


def test_two_passes_hand_the_decision_two_seats_on() -> None:
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


def test_a_bad_bitmask_deal_is_refused_naming_the_table_and_changes_nothing() -> None:
    config = GameConfig(num_players=4)
    deals = [Deal.from_cards(config, d["hands"], d["boon"]) for d in good_deals()]
    dealers = [d["dealer"] for d in good_deals()]
    deals[1] = Deal(deals[1].hands, 0)
    venv = fresh(4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=r"deals\[1\]: deal boon has 0 cards, expected 4"):
        venv.reset_deals(deals, dealers)
    assert public_state(venv) == before


# ----------------------------------------------------------------------------- contract


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


def test_card_pieces_start_on_32_bit_words() -> None:
    # The vector encoder builds the 0/1 part of the observation from 32-bit words.
    for name in ("hand", "boon", "discards", "trick", "played", "phase"):
        assert OFFSETS[name] % 32 == 0, name
    assert OFFSETS["points"] - OFFSETS["phase"] <= 64


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
