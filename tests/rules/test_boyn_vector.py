"""The batched engine ``boon_env.games.boyn.vector.VectorBoyn`` against the scalar rules and
``boyn_v0``.

The vector engine is a second implementation of the rules, so the differential tests are its
guard: given the same deals, reshuffle seeds and actions as ``boon_env.games.boyn.rules.Round`` and
``boyn_v0.raw_env``, it must give identical legal masks, bit-identical observations and
identical round results, reshuffles and special cards included.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.eval.arena import PlayedRound
from agents.games.boyn.arena import boyn_records
from boon_env import boyn_v0
from boon_env.games.boyn import vector
from boon_env.games.boyn.encoding import LAYOUT, SIZE_SCALE, encode
from boon_env.games.boyn.rules import (
    DRAW_RULES,
    PLAYER_COUNTS,
    Deal,
    GameConfig,
    Round,
    parse_action,
)
from boon_env.games.boyn.rules.cards import NUM_CARDS, parse_cards
from boon_env.games.boyn.vector import VectorBoyn
from tests.helpers.boyn import QUEEN_HANDS, make_deal

# ----------------------------------------------------------------------------- the mirror


@dataclass
class Mirror:
    """One table's current round, played by the scalar engine and by ``boyn_v0``."""

    round: Round
    env: boyn_v0.raw_env | None

    @classmethod
    def of(cls, venv: VectorBoyn, table: int, with_env: bool) -> Mirror:
        deal = venv.deal(table)
        config = venv.config
        cards = Deal.from_cards(config, deal["hands"], deal["stock"])
        state = Round(config, cards, deal["dealer"], np.random.default_rng(deal["seed"]))
        env = None
        if with_env:
            env = boyn_v0.raw_env(
                num_players=config.num_players,
                draw_rule=config.draw_rule,
                red_three_points=config.red_three_points,
                max_turns=config.max_turns,
            )
            env.reset(
                seed=deal["seed"],
                options={
                    "deal": {"hands": deal["hands"], "stock": deal["stock"]},
                    "dealer": deal["dealer"],
                },
            )
        return cls(state, env)


def legal_int(words: np.ndarray) -> int:
    """A row of ``VectorBoyn.legal`` as one Python int, the form of ``Round.legal_mask()``."""
    low, high = (int(word) & ((1 << 64) - 1) for word in words)
    return low | high << 64


def margins(points: list[int], out: int) -> list[float]:
    """The arena's values (``agents/games/boyn/arena.py``) of a round's points."""
    played = PlayedRound(0, 0, list(range(len(points))), {}, [], {"points": points, "out": out})
    return [record.value for record in boyn_records(played)]


@dataclass
class Tally:
    """What a differential run checked."""

    rounds: int = 0
    out: int = 0
    truncated: int = 0
    reshuffles: int = 0


def assert_same_decision(
    venv: VectorBoyn,
    mirrors: list[Mirror],
    obs: np.ndarray | None,
    mask: np.ndarray,
    seat: np.ndarray,
    every_seat: bool,
) -> None:
    """The vector engine's outputs agree with every table's scalar round and env."""
    n = venv.num_players
    zeros = [0] * n
    legal = venv.legal
    for table, mirror in enumerate(mirrors):
        state = mirror.round
        assert seat[table] == state.current, f"table {table}"
        assert legal_int(legal[table]) == state.legal_mask(), f"table {table}"
        if obs is not None:
            expected = encode(state, state.current, zeros)
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
            expected = encode(mirrors[table].round, int(who), zeros)
            assert np.array_equal(views[row], expected), f"table {table}, seat {who}"


def play_alongside(
    venv: VectorBoyn,
    steps: int,
    rng: np.random.Generator,
    *,
    with_env: bool = True,
    every_seat: bool = False,
    deals: list[dict[str, Any]] | None = None,
) -> Tally:
    """Reset ``venv`` and play ``steps`` steps of random legal moves, every table mirrored,
    checking every decision and every round's record, values and next dealer."""
    obs, mask, seat = venv.reset(deals=deals)
    mirrors = [Mirror.of(venv, table, with_env) for table in range(venv.num_tables)]
    tally = Tally()
    for _ in range(steps):
        assert_same_decision(venv, mirrors, obs, mask, seat, every_seat)
        moves = venv.random_actions(rng)
        obs, mask, seat, rewards, done = venv.step(moves)
        assert rewards.shape == (venv.num_tables, venv.num_players)
        assert rewards.dtype == np.float32
        record = venv.finished
        for table, mirror in enumerate(mirrors):
            state = mirror.round
            state.apply(int(moves[table]))
            if mirror.env is not None:
                mirror.env.step(int(moves[table]))
            assert done[table] == state.is_over, f"table {table}"
            if not state.is_over:
                assert not rewards[table].any()
                continue
            check_record(record, table, state, rewards[table], mirror.env)
            assert venv.truncated[table] == state.truncated
            tally.rounds += 1
            tally.out += state.out >= 0
            tally.truncated += state.truncated
            tally.reshuffles += state.reshuffles
            # The table is dealt its next round at once, the deal passing left.
            assert venv.deal(table)["dealer"] == (state.dealer + 1) % venv.num_players
            mirrors[table] = Mirror.of(venv, table, with_env)
    assert_same_decision(venv, mirrors, obs, mask, seat, every_seat)
    assert venv.finished.rounds.sum() == tally.rounds
    return tally


def check_record(
    record: vector.FinishedRounds,
    table: int,
    state: Round,
    rewards: np.ndarray,
    env: boyn_v0.raw_env | None,
) -> None:
    """The engine's record of a finished round is the scalar round's, its values the arena's."""
    assert record.out[table] == state.out
    assert record.points[table].tolist() == state.points
    assert record.turns[table] == state.turns
    assert record.reshuffles[table] == state.reshuffles
    assert record.dealer[table] == state.dealer
    values = margins(state.points, state.out)
    assert record.values[table].tolist() == values
    assert rewards.tolist() == np.array(values, dtype=np.float32).tolist()
    if env is not None:
        info = env.infos["player_0"]["round"]
        assert (info["out"], info["points"], info["turns"]) == (
            state.out,
            state.points,
            state.turns,
        )
        assert info["reshuffles"] == state.reshuffles


# ----------------------------------------------------------------------------- differential


@settings(max_examples=30, deadline=None)
@given(
    players=st.sampled_from(PLAYER_COUNTS),
    tables=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    draw_rule=st.sampled_from(DRAW_RULES),
    max_turns=st.sampled_from([15, 60, 1000]),
    observations=st.booleans(),
)
def test_vector_engine_matches_the_scalar_engine_and_boyn_v0(
    players: int, tables: int, seed: int, draw_rule: str, max_turns: int, observations: bool
) -> None:
    venv = VectorBoyn(
        tables,
        players,
        seed=seed,
        observations=observations,
        draw_rule=draw_rule,
        max_turns=max_turns,
    )
    play_alongside(venv, 60, np.random.default_rng(seed), every_seat=observations)


BULK = [
    pytest.param({}, 128, 200, id="default-rules"),
    pytest.param({"draw_rule": "one", "max_turns": 50}, 64, 150, id="draw-one-short"),
]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize(("rules", "tables", "steps"), BULK)
def test_vector_engine_matches_the_scalar_engine_over_many_rounds(
    players: int, rules: dict[str, Any], tables: int, steps: int
) -> None:
    venv = VectorBoyn(tables, players, seed=players, **rules)
    tally = play_alongside(venv, steps, np.random.default_rng(players), with_env=False)
    assert tally.rounds >= 200 and tally.out, tally
    if rules:
        assert tally.truncated, tally
    else:
        assert tally.reshuffles, tally


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("draw_rule", DRAW_RULES)
def test_vector_engine_matches_the_scalar_engine_over_thousands_of_rounds(
    players: int, draw_rule: str
) -> None:
    venv = VectorBoyn(256, players, seed=100 + players, draw_rule=draw_rule)
    tally = play_alongside(venv, 1500, np.random.default_rng(players), with_env=False)
    assert tally.rounds >= 2000 and tally.reshuffles, tally


def test_reset_starts_tables_from_the_given_deals() -> None:
    config = GameConfig(num_players=3)
    rng = np.random.default_rng(7)
    deals = []
    for table in range(5):
        deal = Deal.random(config, rng)
        deals.append(
            {
                "hands": [list(hand) for hand in deal.hands],
                "stock": list(deal.stock),
                "dealer": table % 3,
                "seed": 1000 + table,
            }
        )
    venv = VectorBoyn(5, 3, seed=1)
    play_alongside(venv, 80, rng, deals=deals)
    venv.reset(deals=deals)
    assert [venv.deal(table) for table in range(5)] == deals
    assert venv.seat.tolist() == [
        Round(config, Deal.from_cards(config, d["hands"], d["stock"]), d["dealer"], rng).current
        for d in deals
    ]


# ----------------------------------------------------------------------------- properties


@settings(max_examples=30, deadline=None)
@given(
    players=st.sampled_from(PLAYER_COUNTS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 150),
)
def test_every_card_is_somewhere_and_rewards_are_zero_sum(
    players: int, seed: int, steps: int
) -> None:
    # Seen from any seat: the hands' sizes, the discard pile and the stock hold the 104 cards.
    venv = VectorBoyn(4, players, seed=seed)
    venv.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        _obs, mask, _seat, rewards, done = venv.step(venv.random_actions(rng))
        assert mask.sum(axis=1).min() >= 1  # whoever decides has a legal action
        assert np.allclose(rewards.sum(axis=1), 0, atol=1e-4)
        assert not rewards[~done].any()
    seats = np.full(4, int(rng.integers(players)))
    for view in venv.observe(np.arange(4), seats):
        piece = LAYOUT.decode(view)
        cards = piece["hand_sizes"].sum() + piece["stock"].sum()
        assert round(float(cards) * SIZE_SCALE) + piece["discards"].sum() == NUM_CARDS


# ----------------------------------------------------------------------------- scripted


def one_table(
    hands: tuple[str, ...], stock: str = "", dealer: int | None = None, **rules: Any
) -> VectorBoyn:
    """A one-table engine dealt the hands and stock top written in card names; the last seat
    deals unless ``dealer`` says, so that seat 0 plays first."""
    venv = VectorBoyn(1, len(hands), seed=0, **rules)
    deal = make_deal(venv.config, hands, stock)
    seat = len(hands) - 1 if dealer is None else dealer
    hands_dealt = [list(hand) for hand in deal.hands]
    venv.reset(deals=[{"hands": hands_dealt, "stock": list(deal.stock), "dealer": seat, "seed": 0}])
    return venv


def hand_of(venv: VectorBoyn, seat: int) -> list[int]:
    """The kinds ``seat`` holds, from its observation (each as often as it is held)."""
    hand = LAYOUT.decode(venv.observe([0], [seat])[0])["hand"]
    return sorted(np.flatnonzero(hand[0]).tolist() + np.flatnonzero(hand[1]).tolist())


def test_a_queen_swaps_whole_hands_and_play_goes_on_from_its_seat() -> None:
    venv = one_table(QUEEN_HANDS, "5 of hearts")
    before = [hand_of(venv, seat) for seat in range(4)]
    _obs, _mask, seat, _rewards, _done = venv.step([parse_action("queen of hearts swap 2")])
    # Seat 0 now holds seat 2's seven cards, seat 2 the six seat 0 had left.
    left = list(before[0])
    left.remove(parse_cards("queen of hearts")[0])
    assert hand_of(venv, 0) == before[2]
    assert hand_of(venv, 2) == left
    assert seat.tolist() == [1]


def test_a_red_three_makes_the_next_player_draw_five_and_answer_the_old_card() -> None:
    hands = (
        "3 of hearts, 9 of clubs, 10 of clubs, king of clubs, 4 of clubs, 6 of clubs, 8 of clubs",
        "4 of spades, 4 of diamonds, 6 of diamonds, 8 of diamonds, 9 of diamonds, "
        "10 of diamonds, king of diamonds",
    )
    venv = one_table(hands, "5 of spades")
    _obs, mask, seat, _rewards, _done = venv.step([parse_action("3 of hearts")])
    assert seat.tolist() == [1]
    assert len(hand_of(venv, 1)) == 7 + 5
    # The 5 of spades is still the active card: the 4 of spades follows it.
    assert mask[0, parse_action("4 of spades")] == 1
    assert LAYOUT.decode(venv.observe()[0])["active_suit"].tolist() == [0, 0, 0, 1]


def test_a_round_truncated_while_it_is_dealt_is_recorded_and_the_next_is_dealt() -> None:
    # With one turn allowed, seat 0 draws one unplayable card and passes: the round ends at
    # once, worth nothing, and the table plays its next deal.
    hands = (
        "4 of clubs, 4 of clubs, 5 of clubs, 5 of clubs, 6 of clubs, 6 of clubs, 8 of clubs",
        "4 of spades, 4 of diamonds, 6 of diamonds, 8 of diamonds, 9 of diamonds, "
        "10 of diamonds, king of diamonds",
    )
    venv = one_table(hands, "9 of hearts, 10 of spades", draw_rule="one", max_turns=1)
    record = venv.finished
    assert record.rounds.tolist() == [1] and record.out.tolist() == [-1]
    assert venv.truncated.tolist() == [True]
    assert record.turns.tolist() == [1] and not record.values.any()
    assert venv.deal(0)["dealer"] == 0
    env = boyn_v0.raw_env(num_players=2, draw_rule="one", max_turns=1)
    deal = make_deal(env.config.rules, hands, "9 of hearts, 10 of spades")
    env.reset(options={"deal": {"hands": deal.hands, "stock": deal.stock}, "dealer": 1})
    assert all(env.truncations.values())


# ----------------------------------------------------------------------------- bad deals
# What every engine refuses is checked in test_vector_contract.py; here, BOYN's deal contents.


def fresh(players: int = 4, tables: int = 5, seed: int = 3) -> VectorBoyn:
    venv = VectorBoyn(tables, players, seed=seed)
    venv.reset()
    return venv


def public_state(venv: VectorBoyn) -> list[Any]:
    """Everything the engine shows, as comparable values."""
    record = venv.finished
    n = venv.num_players
    tables = np.repeat(np.arange(venv.num_tables), n)
    return [
        [venv.deal(table) for table in range(venv.num_tables)],
        venv.seat.tolist(),
        venv.legal.tolist(),
        venv.observe(tables, np.tile(np.arange(n), venv.num_tables)).tobytes(),
        [getattr(record, name).tolist() for name in record.__dataclass_fields__],
    ]


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
        (
            [*good_deals()[:2], {k: v for k, v in good_deals()[2].items() if k != "seed"}],
            r"deals\[2\] must be a dict with exactly the keys",
        ),
        (with_change(2, seed=-1), r"deals\[2\]\['seed'\] must be an integer"),
        (with_change(2, seed=2**63), r"deals\[2\]\['seed'\] must be an integer"),
        (with_change(2, seed=1.0), r"deals\[2\]\['seed'\] must be an integer"),
        (with_change(0, stock=[0, 1, 2]), r"deals\[0\]: deal stock must hold 76 cards"),
        (
            with_change(2, hands=[[0] * 7, *good_deals()[2]["hands"][1:]]),
            r"deals\[2\]: the deal holds .* every kind must be there exactly 2 times",
        ),
        (with_change(2, hands=[["ace of clubs"]]), r"deals\[2\]: deal must have 4 hands"),
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


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stock": ()}, r"deals\[1\]: deal stock must hold 76 cards"),
        ({"seed": None}, r"seeds\[1\] must be an integer"),
    ],
)
def test_bad_reset_deals_are_refused_naming_the_table_and_change_nothing(
    change: dict[str, Any], message: str
) -> None:
    config = GameConfig(num_players=4)
    deals: list[Any] = [Deal.from_cards(config, d["hands"], d["stock"]) for d in good_deals()]
    dealers: list[Any] = [d["dealer"] for d in good_deals()]
    seeds: list[Any] = [d["seed"] for d in good_deals()]
    if "stock" in change:
        deals[1] = Deal(deals[1].hands, change["stock"])
    if "seed" in change:
        seeds[1] = change["seed"]
    venv = fresh(4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.reset_deals(deals, dealers, seeds)
    assert public_state(venv) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_tables": 2, "draw_rule": "two"}, "draw_rule must be one of"),
        ({"num_tables": 2, "max_turns": 0}, "max_turns must be an integer >= 1"),
    ],
)
def test_a_bad_configuration_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VectorBoyn(**kwargs)


# ----------------------------------------------------------------------------- contract


def test_first_dealers_are_drawn() -> None:
    venv = VectorBoyn(200, 5, seed=4)
    venv.reset()
    dealers = {venv.deal(table)["dealer"] for table in range(200)}
    assert dealers == set(range(5))


def test_the_docs_example_runs() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "boyn.md").read_text()
    section = page.split("## The vector engine")[1]
    example = section.split("```python\n")[1].split("```")[0]
    exec(compile(example, "docs/boyn.md", "exec"), {})
