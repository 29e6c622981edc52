"""The batched engine ``boon_env.games.bon.vector.VectorBon`` against the scalar rules and
``bon_v0``.

The vector engine is a second implementation of the rules, so the differential tests are its
guard: given the same deals and actions as ``boon_env.games.bon.rules.Game`` (its ``Round``) and
``bon_v0.raw_env``, it must give identical legal masks, bit-identical observations and
identical round points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env import bon_v0
from boon_env.core.pieces import action_mask
from boon_env.games.bon.encoding import OFFSETS, decode, encode
from boon_env.games.bon.rules import PASS, Deal, Game, GameConfig, RoundResult
from boon_env.games.bon.rules.tricks import MAX_PASS_CARDS, NUM_TRICKS
from boon_env.games.bon.vector import VectorBon
from tests.helpers.bon import SCRIPTED_ROUNDS, cards, tower

NUM_ACTIONS = PASS + 1

# ----------------------------------------------------------------------------- the mirror


@dataclass
class Mirror:
    """One table's current round, played by the scalar game and by ``bon_v0``."""

    game: Game
    env: bon_v0.raw_env | None

    @classmethod
    def of(cls, venv: VectorBon, table: int, with_env: bool) -> Mirror:
        deal = venv.deal(table)
        config = venv.config
        game = Game(
            config,
            Deal.from_cards(config, deal["hands"], deal["leftovers"]),
            tuple(deal["tower"]),
            deal["leader"],
        )
        env = None
        if with_env:
            env = bon_v0.raw_env(
                num_players=config.num_players, hidden_leftovers=venv.hidden_leftovers
            )
            env.reset(options=env_options(deal))
        return cls(game, env)


def env_options(deal: dict[str, Any]) -> dict[str, Any]:
    """The ``bon_v0`` reset options of a deal as :meth:`VectorBon.deal` gives it."""
    return {
        "deal": {"hands": deal["hands"], "leftovers": deal["leftovers"]},
        "tower": deal["tower"],
        "leader": deal["leader"],
    }


def choose(game: Game, rng: np.random.Generator, pass_bias: float) -> int:
    """A random legal action; with probability ``pass_bias`` a Pass card where one is legal (so
    that Pass leads, tricks opened by several Passes and late prime colours are common)."""
    legal = game.round.legal_actions()
    if PASS in legal and rng.random() < pass_bias:
        return PASS
    return legal[int(rng.integers(len(legal)))]


def assert_same_decision(
    venv: VectorBon,
    mirrors: list[Mirror],
    obs: np.ndarray | None,
    mask: np.ndarray,
    seat: np.ndarray,
    every_seat: bool,
) -> None:
    """The vector engine's outputs agree with every table's scalar round and env."""
    face_up = not venv.hidden_leftovers
    for table, mirror in enumerate(mirrors):
        state = mirror.game.round
        assert seat[table] == state.current, f"table {table}"
        assert np.array_equal(mask[table], action_mask(state.legal_mask(), NUM_ACTIONS)), table
        if obs is not None:
            expected = encode(mirror.game, state.current, face_up)
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
        n = venv.num_players
        tables = np.repeat(np.arange(venv.num_tables), n)
        seats = np.tile(np.arange(n), venv.num_tables)
        views = venv.observe(tables, seats)
        for row, (table, who) in enumerate(zip(tables, seats, strict=True)):
            expected = encode(mirrors[table].game, int(who), face_up)
            assert np.array_equal(views[row], expected), f"table {table}, seat {who}"


def assert_round_recorded(
    venv: VectorBon, table: int, game: Game, result: RoundResult, rewards: np.ndarray
) -> None:
    """The points and record of a round that just ended, and the next round's tower and
    leader."""
    state = game.round
    assert rewards[table].tolist() == list(result.round_points)
    record = venv.finished
    assert record.values[table].tolist() == list(result.round_points)
    assert record.tricks_won[table].tolist() == state.tricks_won
    assert record.tower[table].tolist() == list(state.tower)
    assert record.leader[table] == state.first_leader
    # The next round is dealt at once: the tower carries over, the first lead passes left.
    deal = venv.deal(table)
    assert deal["tower"] == list(state.tower)
    assert deal["leader"] == (state.first_leader + 1) % venv.num_players


def play_alongside(
    venv: VectorBon,
    steps: int,
    rng: np.random.Generator,
    pass_bias: np.ndarray,
    *,
    with_env: bool = True,
    every_seat: bool = False,
    deals: list[dict[str, Any]] | None = None,
) -> int:
    """Reset ``venv`` and play ``steps`` steps, every table mirrored, checking every decision
    and every round's points and record; returns the number of rounds played out."""
    obs, mask, seat = venv.reset(deals=deals)
    mirrors = [Mirror.of(venv, table, with_env) for table in range(venv.num_tables)]
    rounds = 0
    for _ in range(steps):
        assert_same_decision(venv, mirrors, obs, mask, seat, every_seat)
        moves = np.array([choose(m.game, rng, pass_bias[table]) for table, m in enumerate(mirrors)])
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
            if mirror.env is not None:
                points = [mirror.env.rewards[agent] for agent in mirror.env.possible_agents]
                assert rewards[table].tolist() == points
            assert_round_recorded(venv, table, mirror.game, result, rewards)
            mirrors[table] = Mirror.of(venv, table, with_env)
            rounds += 1
    assert_same_decision(venv, mirrors, obs, mask, seat, every_seat)
    assert venv.finished.rounds.sum() == rounds
    return rounds


# ----------------------------------------------------------------------------- differential


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    tables=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    pass_bias=st.floats(0.0, 1.0),
    observations=st.booleans(),
    hidden_leftovers=st.booleans(),
)
def test_vector_engine_matches_the_scalar_game_and_bon_v0(
    players: int,
    tables: int,
    seed: int,
    pass_bias: float,
    observations: bool,
    hidden_leftovers: bool,
) -> None:
    venv = VectorBon(
        tables, players, seed=seed, observations=observations, hidden_leftovers=hidden_leftovers
    )
    rng = np.random.default_rng(seed)
    steps = 2 * NUM_TRICKS * players + 3  # two rounds and a bit
    rounds = play_alongside(venv, steps, rng, np.full(tables, pass_bias), every_seat=True)
    assert rounds == 2 * tables


@pytest.mark.parametrize("with_env", [False, pytest.param(True, marks=pytest.mark.slow)])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_vector_engine_matches_the_scalar_game_over_thousands_of_rounds(
    players: int, with_env: bool
) -> None:
    # bon_v0 alongside (slow) adds its masks, observations and rewards to the comparison.
    tables = 256
    venv = VectorBon(tables, players, seed=players)
    rng = np.random.default_rng(players)
    # Pass biases from 0 to 1 across the tables: from Pass cards played at random to every Pass
    # card played as soon as possible.
    steps = 8 * NUM_TRICKS * players
    rounds = play_alongside(venv, steps, rng, np.linspace(0, 1, tables), with_env=with_env)
    assert rounds == 8 * tables  # 2048


def test_reset_starts_tables_from_the_given_deals() -> None:
    config = GameConfig(num_players=4)
    rng = np.random.default_rng(7)
    deals = []
    for table in range(6):
        hands, leftovers = Deal.random(config, rng).card_lists()
        top_first = [int(c) for c in rng.permutation(3)]
        deals.append(
            {"hands": hands, "leftovers": leftovers, "tower": top_first, "leader": table % 4}
        )
    venv = VectorBon(6, 4, seed=1)
    play_alongside(venv, 40, rng, np.full(6, 0.5), deals=deals)
    venv.reset(deals=deals)
    assert [venv.deal(table) for table in range(6)] == deals
    assert venv.seat.tolist() == [table % 4 for table in range(6)]


# ----------------------------------------------------------------------------- scripted rounds


def scripted_engine(players: int, hidden_leftovers: bool = False) -> VectorBon:
    """A one-table engine dealt the round of ``SCRIPTED_ROUNDS[players]``."""
    hands, leftovers, top_first, leader, *_ = SCRIPTED_ROUNDS[players]
    venv = VectorBon(1, players, seed=0, hidden_leftovers=hidden_leftovers)
    deal = {
        "hands": [cards(hand) for hand in hands],
        "leftovers": cards(leftovers),
        "tower": list(tower(top_first)),
        "leader": leader,
    }
    venv.reset(deals=[deal])
    return venv


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_scripted_round_scores_as_written(players: int) -> None:
    _hands, _leftovers, _top, leader, tricks, won, points = SCRIPTED_ROUNDS[players]
    venv = scripted_engine(players)
    assert venv.seat.tolist() == [leader]
    moves = cards(", ".join(tricks))
    for move in moves[:-1]:
        _obs, _mask, _seat, rewards, done = venv.step(np.array([move]))
        assert not done[0] and not rewards.any()
    _obs, _mask, seat, rewards, done = venv.step(np.array([moves[-1]]))
    assert done.tolist() == [True]
    assert rewards[0].tolist() == points
    record = venv.finished
    assert record.tricks_won[0].tolist() == won and record.values[0].tolist() == points
    assert record.leader.tolist() == [leader] and record.rounds.tolist() == [1]
    # The next round: the first lead passes left and the tower carries over.
    assert seat.tolist() == [(leader + 1) % players]
    assert venv.deal(0)["tower"] == record.tower[0].tolist()


def test_the_seeds_trick_goes_to_the_colour_highest_in_the_tower() -> None:
    # Tower blue, red, yellow; a Pass lead, red 5, blue 1, Pass: blue 1 (seat 2) wins and blue
    # moves to the bottom.
    venv = scripted_engine(4)
    for move in cards("pass, red 5, blue 1"):
        venv.step(np.array([move]))
    # Seat 3 holds no red: anything goes, a Pass card included.
    assert np.flatnonzero(venv.action_masks()[0]).tolist() == cards(
        "yellow 7, yellow 8, yellow 9, blue 6, blue 7, blue 8, pass"
    )
    _obs, _mask, seat, _rewards, _done = venv.step(np.array(cards("pass")))
    assert seat.tolist() == [2]
    seen = decode(venv.observe()[0])
    assert seen["tower"].argmax(axis=1).tolist() == list(tower("red, yellow, blue"))
    assert seen["tricks_won"][0].argmax() == 1  # seat 2 sees its own trick
    assert not seen["trick"].any() and not seen["prime"].any()


@pytest.mark.parametrize("hidden_leftovers", [False, True])
def test_the_leftovers_are_seen_only_face_up(hidden_leftovers: bool) -> None:
    seen = decode(scripted_engine(4, hidden_leftovers).observe()[0])
    if hidden_leftovers:
        assert not seen["leftovers"].any() and not seen["leftovers_face_up"].any()
    else:
        assert np.flatnonzero(seen["leftovers"]).tolist() == cards("red 6, red 7")
        assert seen["leftovers_face_up"].tolist() == [1]
    assert not seen["leftover_passes"].any()


# ----------------------------------------------------------------------------- bad deals
# What every engine refuses is checked in test_vector_contract.py; here, B.O.N's deal contents.


def fresh(players: int = 4, tables: int = 5, seed: int = 3) -> VectorBon:
    venv = VectorBon(tables, players, seed=seed)
    venv.reset()
    return venv


def public_state(venv: VectorBon) -> list[Any]:
    """Everything the engine shows, as comparable values."""
    record = venv.finished
    return [
        [venv.deal(table) for table in range(venv.num_tables)],
        venv.seat.tolist(),
        venv.legal.tolist(),
        venv.observe().tobytes(),
        [getattr(record, name).tolist() for name in record.__dataclass_fields__],
    ]


def walk(venv: VectorBon, steps: int, seed: int) -> list[Any]:
    """Outputs of ``steps`` steps of random legal play (moves from their own generator)."""
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        outputs = venv.step(venv.random_actions(rng))
        seen.append([None if x is None else x.tobytes() for x in outputs])
    return seen


def good_deals(players: int = 4, tables: int = 3) -> list[dict[str, Any]]:
    venv = fresh(players, tables)
    return [venv.deal(table) for table in range(tables)]


def with_change(table: int, **change: Any) -> list[dict[str, Any]]:
    deals = good_deals()
    deals[table] = {**deals[table], **change}
    return deals


def with_hand(table: int, seat: int, card: Any) -> list[dict[str, Any]]:
    """Good deals with ``table``'s hand ``seat`` holding ``card`` in place of its first one."""
    deals = good_deals()
    hands = [list(hand) for hand in deals[table]["hands"]]
    hands[seat][0] = card
    deals[table] = {**deals[table], "hands": hands}
    return deals


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        (
            [*good_deals()[:2], {k: v for k, v in good_deals()[2].items() if k != "tower"}],
            r"deals\[2\] must be a dict with exactly the keys 'hands', 'leftovers', 'tower'",
        ),
        (with_change(2, tower=[0, 1, 1]), r"deals\[2\]\['tower'\]: the tower must list"),
        (with_change(0, tower="red"), r"deals\[0\]\['tower'\]: the tower must list"),
        (with_change(0, leftovers=[]), r"deals\[0\]: deal leftovers has 0 cards, expected 2"),
        (with_hand(1, 3, 10), r"deals\[1\]: deal hand 3 holds 10, not a card of the 4-player"),
        (with_hand(2, 0, PASS), r"deals\[2\]: deal holds \d Pass cards, the 4-player deck"),
        (with_hand(2, 0, "red 1"), r"deals\[2\]: deal hand 0 holds 'red 1', not a card id"),
        (with_change(2, hands=[[0] * 7]), r"deals\[2\]: deal needs 4 hands"),
    ],
)
def test_bad_deals_are_refused_naming_the_table_and_change_nothing(
    deals: Any, message: str
) -> None:
    venv = fresh(4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.reset(seed=1, deals=deals)
    assert public_state(venv) == before
    assert walk(venv, 10, seed=0) == walk(fresh(4, 3), 10, seed=0)  # the generator untouched


def bitmask_deals() -> tuple[list[Deal], list[list[int]], list[int]]:
    config = GameConfig(num_players=4)
    deals = good_deals()
    return (
        [Deal.from_cards(config, d["hands"], d["leftovers"]) for d in deals],
        [d["tower"] for d in deals],
        [d["leader"] for d in deals],
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"leftovers": 0}, r"deals\[1\]: deal leftovers has 0 cards, expected 2"),
        ({"tower": (0, 0, 1)}, r"towers\[1\]: the tower must list"),
    ],
)
def test_bad_reset_deals_are_refused_naming_the_table_and_change_nothing(
    change: dict[str, Any], message: str
) -> None:
    deals, towers, leaders = bitmask_deals()
    if "leftovers" in change:
        old = deals[1]
        deals[1] = Deal(old.hands, old.hand_passes, change["leftovers"], 0)
    if "tower" in change:
        towers[1] = list(change["tower"])
    venv = fresh(4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.reset_deals(deals, towers, leaders)
    assert public_state(venv) == before


def test_hidden_leftovers_must_be_true_or_false() -> None:
    with pytest.raises(ValueError, match="hidden_leftovers must be True or False"):
        VectorBon(2, hidden_leftovers=1)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- contract


def test_first_towers_and_leaders_are_drawn() -> None:
    venv = VectorBon(200, 5, seed=4)
    venv.reset()
    deals = [venv.deal(table) for table in range(200)]
    assert {d["leader"] for d in deals} == set(range(5))
    assert len({tuple(d["tower"]) for d in deals}) == 6
    assert venv.seat.tolist() == [d["leader"] for d in deals]


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_every_seat_holds_what_it_was_dealt_less_what_it_played(players: int, seed: int) -> None:
    # RULES_BON.md's invariants over the engine's own deals: every dealt card is in its hand or
    # among the cards it played, a round has 7 tricks, and a round adds 0, 1 or 2 points.
    venv = VectorBon(4, players, seed=seed, observations=False)
    venv.reset()
    rng = np.random.default_rng(seed)
    dealt = [venv.deal(table) for table in range(4)]
    seats = np.arange(players)
    for _ in range(2 * NUM_TRICKS * players):
        _obs, _mask, _seat, rewards, done = venv.step(venv.random_actions(rng))
        record = venv.finished
        for table in np.flatnonzero(done):
            assert record.tricks_won[table].sum() == NUM_TRICKS
            assert set(rewards[table].tolist()) <= {0.0, 1.0, 2.0}
            dealt[table] = venv.deal(table)
        table = int(rng.integers(4))
        for seat, view in zip(seats, venv.observe(np.full(players, table), seats), strict=True):
            seen = decode(view)
            hand = np.flatnonzero(seen["hand"] + seen["played"][0]).tolist()
            passes = int(seen["hand_passes"].sum() + seen["passes_played"][0].sum())
            assert hand + [PASS] * passes == dealt[table]["hands"][seat]


def test_the_cards_words_are_the_observations_card_pieces() -> None:
    # The encoder writes a hand's cards word as the hand and hand_passes pieces at once, the
    # leftovers' word and face-up bit as three pieces, and prime and leader as one word.
    assert OFFSETS["hand_passes"] - OFFSETS["hand"] == PASS
    assert OFFSETS["leftovers"] - OFFSETS["hand_passes"] == MAX_PASS_CARDS
    assert OFFSETS["leftover_passes"] - OFFSETS["leftovers"] == PASS
    assert OFFSETS["tower"] - OFFSETS["leftovers_face_up"] == 1
    assert OFFSETS["leader"] - OFFSETS["prime"] == 3
    assert OFFSETS["played"] - OFFSETS["leader"] == 5
