"""High Card's batch engine (``tests.helpers.toy.vector.VectorToy``) against its scalar rules and
``toy_v0``, as every game's engine is held to its rules: given the same deals and actions as
``tests.helpers.toy.rules.Game`` and the toy's ``raw_env``, it gives identical legal masks,
bit-identical observations and identical round values, over thousands of random rounds."""

from __future__ import annotations

import doctest
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env.core.pieces import action_mask
from tests.helpers.determinism import disturb_global_random
from tests.helpers.toy import vector
from tests.helpers.toy.encoding import encode
from tests.helpers.toy.env import raw_env
from tests.helpers.toy.rules import HAND_SIZE, NUM_CARDS, Game, GameConfig, new_game
from tests.helpers.toy.vector import VectorToy


@dataclass
class Mirror:
    """One table's current round, played by the scalar game and by the PettingZoo env."""

    game: Game
    env: raw_env | None
    leader: int  # of the round's first trick

    @classmethod
    def of(cls, venv: VectorToy, table: int, with_env: bool) -> Mirror:
        deal = venv.deal(table)
        game = new_game(GameConfig(venv.num_players), deal["hands"], deal["leader"])
        env = None
        if with_env:
            env = raw_env(num_players=venv.num_players)
            env.reset(options={"deal": {"hands": deal["hands"]}, "leader": deal["leader"]})
        return cls(game, env, deal["leader"])


def assert_same_decision(
    venv: VectorToy, mirrors: list[Mirror], obs: np.ndarray | None, mask: np.ndarray, seat: Any
) -> None:
    """The engine's outputs agree with every table's scalar round and env, and every seat's
    observation with the scalar encoding."""
    for table, mirror in enumerate(mirrors):
        state = mirror.game.round
        assert seat[table] == state.current, f"table {table}"
        assert np.array_equal(mask[table], action_mask(state.legal_mask(), NUM_CARDS)), table
        if obs is not None:
            assert obs.dtype == np.float32
            assert np.array_equal(obs[table], encode(mirror.game, state.current)), table
        if mirror.env is not None:
            seen = mirror.env.observe(f"player_{state.current}")
            assert np.array_equal(seen["action_mask"], mask[table])
            assert np.array_equal(seen["observation"], encode(mirror.game, state.current))
    n = venv.num_players
    tables = np.repeat(np.arange(venv.num_tables), n)
    seats = np.tile(np.arange(n), venv.num_tables)
    views = venv.observe(tables, seats)
    for row, (table, who) in enumerate(zip(tables.tolist(), seats.tolist(), strict=True)):
        assert np.array_equal(views[row], encode(mirrors[table].game, who)), (table, who)


def play_alongside(
    venv: VectorToy,
    steps: int,
    rng: np.random.Generator,
    *,
    with_env: bool = True,
    deals: list[dict[str, Any]] | None = None,
) -> int:
    """Reset ``venv`` and play ``steps`` steps of random legal cards, every table mirrored,
    checking every decision and every round's values and record; the rounds played out."""
    obs, mask, seat = venv.reset(deals=deals)
    mirrors = [Mirror.of(venv, table, with_env) for table in range(venv.num_tables)]
    rounds = 0
    for _ in range(steps):
        assert_same_decision(venv, mirrors, obs, mask, seat)
        moves = venv.random_actions(rng)
        obs, mask, seat, rewards, done = venv.step(moves)
        assert rewards.shape == (venv.num_tables, venv.num_players)
        assert rewards.dtype == np.float32
        for table, mirror in enumerate(mirrors):
            result = mirror.game.apply(int(moves[table]))
            if mirror.env is not None:
                mirror.env.step(int(moves[table]))
            assert done[table] == (result is not None), f"table {table}"
            if result is None:
                assert not rewards[table].any()
                continue
            assert rewards[table].tolist() == np.float32(result).tolist()
            if mirror.env is not None:
                assert [mirror.env.rewards[a] for a in mirror.env.possible_agents] == result
            record = venv.finished
            assert record.values[table].tolist() == result  # float64, bit for bit
            assert record.tricks_won[table].tolist() == mirror.game.round.tricks_won
            assert record.leader[table] == mirror.leader
            # The next round is dealt at once, the lead passing left.
            assert venv.deal(table)["leader"] == (mirror.leader + 1) % venv.num_players
            mirrors[table] = Mirror.of(venv, table, with_env)
            rounds += 1
    assert_same_decision(venv, mirrors, obs, mask, seat)
    assert venv.finished.rounds.sum() == rounds
    return rounds


# ----------------------------------------------------------------------------- differential
@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 3]),
    tables=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    observations=st.booleans(),
)
def test_the_engine_matches_the_scalar_game_and_the_env(
    players: int, tables: int, seed: int, observations: bool
) -> None:
    venv = VectorToy(tables, players, seed=seed, observations=observations)
    steps = 2 * HAND_SIZE * players + 1  # two rounds and a bit
    rounds = play_alongside(venv, steps, np.random.default_rng(seed))
    assert rounds == 2 * tables


@pytest.mark.parametrize("players", [2, 3])
def test_the_engine_matches_the_scalar_game_over_thousands_of_rounds(players: int) -> None:
    venv = VectorToy(256, players, seed=players)
    rounds = play_alongside(
        venv, 8 * HAND_SIZE * players, np.random.default_rng(players), with_env=False
    )
    assert rounds == 8 * 256  # 2048


def test_reset_starts_tables_from_the_given_deals() -> None:
    deals = [
        {"hands": [[0, 5], [1, 2], [3, 4]], "leader": 2},
        {"hands": [[1, 3], [0, 4], [2, 5]], "leader": 0},
    ]
    venv = VectorToy(2, 3, seed=1)
    play_alongside(venv, 13, np.random.default_rng(0), deals=deals)
    venv.reset(deals=deals)
    assert [venv.deal(table) for table in range(2)] == deals
    assert venv.seat.tolist() == [2, 0]


def test_a_scripted_round_scores_as_written() -> None:
    # Seat 1 leads 2, seat 0 takes it with 5 and leads 0, which seat 1's 3 takes.
    venv = VectorToy(1, 2, seed=0)
    venv.reset(deals=[{"hands": [[0, 5], [2, 3]], "leader": 1}])
    for card, seat in ((2, 1), (5, 0), (0, 0)):
        assert venv.seat.tolist() == [seat]
        *_, rewards, done = venv.step(np.array([card]))
        assert not done[0] and not rewards.any()
    *_, rewards, done = venv.step(np.array([3]))
    assert done[0] and rewards.tolist() == [[0.0, 0.0]]
    assert venv.finished.tricks_won.tolist() == [[1, 1]]


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"hands": [[0, 5]], "leader": 0}, "hands must be 2 lists"),
        ({"hands": [[0, 5], [5, 1]], "leader": 0}, "dealt twice"),
        ({"hands": [[0, 6], [2, 1]], "leader": 0}, r"hands\[0\] must be 2 cards 0-5"),
        ({"hands": [[0, 5], [2, 1]], "leader": 2}, r"deals\[0\]\['leader'\] must be a seat"),
        ({"hands": [[0, 5], [2, 1]]}, "exactly the keys"),
    ],
)
def test_bad_deals_and_actions_are_refused_and_change_nothing(deal: dict, message: str) -> None:
    venv = VectorToy(1, 2, seed=3)
    venv.reset()
    before = venv.deal(0), venv.seat, venv.legal
    with pytest.raises(ValueError, match=message):
        venv.reset(deals=[deal])
    illegal = next(card for card in range(NUM_CARDS) if not venv.legal[0] >> card & 1)
    with pytest.raises(ValueError, match=f"illegal action {illegal} \\(card {illegal}\\)"):
        venv.step(np.array([illegal]))
    assert (venv.deal(0), venv.seat.tolist(), venv.legal.tolist()) == (
        before[0],
        before[1].tolist(),
        before[2].tolist(),
    )


def test_the_same_seed_gives_the_same_play_whatever_global_random_does() -> None:
    def play(disturb: int) -> list[list[float]]:
        venv = VectorToy(16, 3, seed=5)
        venv.reset()
        rng = np.random.default_rng(5)
        totals = []
        for step in range(30):
            disturb_global_random(disturb + step)
            totals.append(venv.step(venv.random_actions(rng))[3].sum(axis=0).tolist())
        return totals

    assert play(0) == play(100)


def test_the_module_docstring_runs() -> None:
    assert doctest.testmod(vector, raise_on_error=True).attempted > 0
