"""The contract every game's batch engine keeps (``boon_env.core.vector.VectorEngine``), checked
over every registered game: bad input is refused and changes nothing (the generator included),
the same seed gives the same play despite global random use, stepping a subset of tables moves
only those, ``reset_deals`` is ``reset`` from the game's ``Deal`` objects, and the module
docstrings run.

Each game's own file (``test_vector.py``, ``test_bon_vector.py``, ``test_boyn_vector.py``) keeps
what is the game's: the differential tests against its scalar rules and env, scripted rounds, and
the checks of its deal format.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from boon_env.core import vector as core_vector
from boon_env.core.pieces import action_mask
from boon_env.core.vector import MASK_WORD, VectorEngine, random_bits, unpack_masks
from boon_env.games import ENVS, env_spec
from tests.helpers.determinism import disturb_global_random


@dataclass(frozen=True)
class Game:
    """What the contract needs to know of a game beyond its registry entry."""

    name: str
    # reset_deals' arguments from the deal dicts deal(i) returns.
    bitmask_args: Callable[[list[dict[str, Any]]], list[list[Any]]]
    # The argument of reset_deals (by position) and the key of a deal dict that name a seat.
    seat_arg: tuple[int, str]
    seat_key: str

    @property
    def engine(self) -> type[VectorEngine]:
        return env_spec(self.name).vector_engine()

    @property
    def player_counts(self) -> list[int]:
        """The smallest, a middle and the largest table size."""
        counts = env_spec(self.name).player_counts
        return sorted({counts[0], counts[len(counts) // 2], counts[-1]})

    @property
    def obs_size(self) -> int:
        return int(env_spec(self.name).module("encoding").OBS_SIZE)


def _deals(name: str, deals: list[dict[str, Any]], other: str) -> list[Any]:
    rules = env_spec(name).module("rules")
    config = rules.GameConfig(num_players=len(deals[0]["hands"]))
    return [rules.Deal.from_cards(config, d["hands"], d[other]) for d in deals]


GAMES = {
    "boon": Game(
        "boon",
        lambda deals: [_deals("boon", deals, "boon"), [d["dealer"] for d in deals]],
        (1, "dealers"),
        "dealer",
    ),
    "bon": Game(
        "bon",
        lambda deals: [
            _deals("bon", deals, "leftovers"),
            [d["tower"] for d in deals],
            [d["leader"] for d in deals],
        ],
        (2, "leaders"),
        "leader",
    ),
    "boyn": Game(
        "boyn",
        lambda deals: [
            _deals("boyn", deals, "stock"),
            [d["dealer"] for d in deals],
            [d["seed"] for d in deals],
        ],
        (1, "dealers"),
        "dealer",
    ),
}
NAMES = list(ENVS)
BY_PLAYERS = [(name, n) for name in NAMES for n in GAMES[name].player_counts]


def test_every_registered_game_is_covered() -> None:
    assert set(GAMES) == set(ENVS)
    assert all(issubclass(GAMES[name].engine, VectorEngine) for name in NAMES)


# ----------------------------------------------------------------------------- helpers


def fresh(name: str, players: int = 4, tables: int = 5, seed: int = 3) -> Any:
    venv = GAMES[name].engine(tables, players, seed=seed)
    venv.reset()
    return venv


def public_state(venv: Any) -> list[Any]:
    """Everything the engine shows, every seat's observation included, as comparable values."""
    record = venv.finished
    n = venv.num_players
    tables = np.repeat(np.arange(venv.num_tables), n)
    return [
        [venv.deal(table) for table in range(venv.num_tables)],
        venv.seat.tolist(),
        venv.legal.tolist(),
        venv.action_masks().tolist(),
        getattr(venv, "phase", np.zeros(0)).tolist(),  # Boon's phases
        venv.observe(tables, np.tile(np.arange(n), venv.num_tables)).tobytes(),
        [getattr(record, name).tolist() for name in record.__dataclass_fields__],
    ]


def walk(venv: Any, steps: int, seed: int) -> list[Any]:
    """Outputs of ``steps`` steps of random legal play (moves from their own generator)."""
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        outputs = venv.step(venv.random_actions(rng))
        seen.append([None if x is None else x.tobytes() for x in outputs])
    return seen


def an_illegal_action(venv: Any, table: int) -> int:
    return int(np.flatnonzero(venv.action_masks()[table] == 0)[0])


def legal_int(legal: np.ndarray) -> int:
    """One table's legal bitmask (a word or a row of words) as a Python integer."""
    words = np.atleast_1d(legal).tolist()
    return sum((w % 2**MASK_WORD) << (MASK_WORD * i) for i, w in enumerate(words))


# ----------------------------------------------------------------------------- bad actions


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad_table", [0, 2, 4])
@pytest.mark.parametrize("steps", [0, 5, 12, 40])
def test_an_illegal_action_at_any_table_is_refused_and_changes_nothing(
    name: str, bad_table: int, steps: int
) -> None:
    venv, twin = fresh(name), fresh(name)
    walk(venv, steps, seed=1)
    walk(twin, steps, seed=1)
    before = public_state(venv)
    moves = venv.random_actions(np.random.default_rng(2))
    illegal = an_illegal_action(venv, bad_table)
    moves[bad_table] = illegal
    legal = np.flatnonzero(venv.action_masks()[bad_table])
    with pytest.raises(ValueError, match=f"illegal action {illegal} .* at table {bad_table} ") as e:
        venv.step(moves)
    listed = str(e.value).split("legal actions:")[1]
    assert listed.startswith(f" {legal[0]} (")
    assert all(f" {a} (" in listed for a in legal)
    assert "No table was changed" in str(e.value)
    assert public_state(venv) == before
    # Nothing changed, the generators included: both engines go on identically.
    assert walk(venv, 60, seed=5) == walk(twin, 60, seed=5)


@pytest.mark.parametrize("name", NAMES)
def test_several_illegal_actions_are_all_counted(name: str) -> None:
    venv = fresh(name)
    moves = np.array([an_illegal_action(venv, table) for table in range(5)])
    with pytest.raises(ValueError, match=r"at table 0 .* 4 more table\(s\)"):
        venv.step(moves)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("offset", [-1, 0, 29, 30, 39, 2**40])
def test_an_action_that_is_no_action_id_is_refused(name: str, offset: int) -> None:
    # Just past the ids, at and around the 64-bit word boundary, and far out.
    venv = fresh(name)
    count = venv.num_actions
    action = -1 if offset == -1 else count + offset if offset < 2**40 else offset
    before = public_state(venv)
    moves = venv.random_actions(np.random.default_rng(0))
    moves[1] = action
    match = f"illegal action {action} .*not an action id 0-{count - 1}"
    with pytest.raises(ValueError, match=match):
        venv.step(moves)
    assert public_state(venv) == before


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (np.zeros(4, dtype=np.int64), r"shape \(5,\)"),
        (np.zeros((5, 1), dtype=np.int64), r"shape \(5,\)"),
        (np.zeros(5), "integers, got dtype float64"),
        (np.ones(5, dtype=bool), "integers, got dtype bool"),
        ([0] * 4, r"shape \(5,\)"),
        ("play", r"shape \(5,\)"),
    ],
)
def test_actions_of_the_wrong_shape_or_dtype_are_refused(
    name: str, actions: Any, message: str
) -> None:
    venv = fresh(name)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.step(actions)
    assert public_state(venv) == before


@pytest.mark.parametrize("name", NAMES)
def test_actions_may_be_any_integer_array_or_a_list(name: str) -> None:
    venv, twin = fresh(name), fresh(name)
    moves = venv.random_actions(np.random.default_rng(0))
    expected = [x.tobytes() for x in twin.step(moves) if x is not None]
    assert [x.tobytes() for x in venv.step(moves.astype(np.uint8).tolist())] == expected


# ----------------------------------------------------------------------------- bad deals


def good_deals(name: str, players: int = 4, tables: int = 3) -> list[dict[str, Any]]:
    venv = fresh(name, players, tables)
    return [venv.deal(table) for table in range(tables)]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "case", ["short", "a dict", "not a dict", "a key missing", "seat 4", "seat True"]
)
def test_bad_deal_lists_are_refused_naming_the_table_and_change_nothing(
    name: str, case: str
) -> None:
    # What every game's deal dicts must be; each game's file checks the cards of its deals.
    deals: Any = good_deals(name)
    key = GAMES[name].seat_key
    if case == "short":
        deals, message = deals[:2], "deals has 2 entries, expected 3"
    elif case == "a dict":
        deals, message = deals[0], "deals must be a sequence of 3 deal dicts"
    elif case == "not a dict":
        deals[2], message = "deal", r"deals\[2\] must be a dict"
    elif case == "a key missing":
        deals[2] = {k: v for k, v in deals[2].items() if k != key}
        message = r"deals\[2\] must be a dict with exactly the keys 'hands', "
    else:
        deals[1] = {**deals[1], key: 4 if case == "seat 4" else True}
        message = rf"deals\[1\]\['{key}'\] must be a seat 0-3"
    venv = fresh(name, 4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.reset(seed=1, deals=deals)
    assert public_state(venv) == before
    assert walk(venv, 10, seed=0) == walk(fresh(name, 4, 3), 10, seed=0)  # generator untouched


@pytest.mark.parametrize("name", NAMES)
def test_reset_deals_starts_the_same_rounds_as_reset_from_card_lists(name: str) -> None:
    by_lists, by_deals = fresh(name, 4, 3), fresh(name, 4, 3)
    expected = by_lists.reset(deals=good_deals(name))
    got = by_deals.reset_deals(*GAMES[name].bitmask_args(good_deals(name)))
    assert all(np.array_equal(a, b) for a, b in zip(expected, got, strict=True))
    assert public_state(by_deals) == public_state(by_lists)
    assert walk(by_deals, 60, seed=0) == walk(by_lists, 60, seed=0)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("case", ["short", "not a Deal", "seat 4", "seat True", "seat '1'"])
def test_bad_reset_deals_are_refused_naming_the_table_and_change_nothing(
    name: str, case: str
) -> None:
    game = GAMES[name]
    args = game.bitmask_args(good_deals(name))
    position, seats = game.seat_arg
    if case == "short":
        args[0] = args[0][:2]
        message = r"got 2 deals(, 3 \w+)* and 3 \w+, expected 3 of each \(one per table\)"
    elif case == "not a Deal":
        args[0][1], message = "deal", r"deals\[1\] must be a Deal"
    else:
        args[position][1] = {"seat 4": 4, "seat True": True, "seat '1'": "1"}[case]
        message = rf"{seats}\[1\] must be a seat 0-3"
    venv = fresh(name, 4, 3)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.reset_deals(*args)
    assert public_state(venv) == before


# ----------------------------------------------------------------------------- other bad input


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_tables": 0}, "num_tables must be an integer >= 1"),
        ({"num_tables": 2.0}, "num_tables must be an integer >= 1"),
        ({"num_tables": True}, "num_tables must be an integer >= 1"),
        ({"num_tables": 2, "num_players": 7}, "num_players must be one of"),
        ({"num_tables": 2, "observations": "yes"}, "observations must be True or False"),
        ({"num_tables": 2, "observations": 1}, "observations must be True or False"),
    ],
)
def test_a_bad_configuration_is_refused(name: str, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAMES[name].engine(**kwargs)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "use",
    [
        lambda venv: venv.step(np.zeros(2, dtype=np.int64)),
        lambda venv: venv.observe(),
        lambda venv: venv.action_masks(),
        lambda venv: venv.random_actions(np.random.default_rng(0)),
        lambda venv: venv.seat,
        lambda venv: venv.legal,
        lambda venv: venv.finished,
        lambda venv: venv.deal(0),
    ],
)
def test_the_tables_must_be_dealt_before_use(name: str, use: Callable[[Any], Any]) -> None:
    venv = GAMES[name].engine(2, 4)
    with pytest.raises(RuntimeError, match="reset"):
        use(venv)


@pytest.mark.parametrize("name", NAMES)
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
def test_bad_observers_are_refused(name: str, tables: Any, seats: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fresh(name).observe(tables, seats)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("table", [-1, 5, 1.0, True])
def test_deal_of_a_table_out_of_range_is_refused(name: str, table: Any) -> None:
    with pytest.raises(ValueError, match="table must be an integer 0-4"):
        fresh(name).deal(table)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("tables", "message"),
    [
        (np.ones(4, dtype=bool), r"tables must be a \(5,\) bool array"),
        (np.ones(5, dtype=np.int64), "dtype int64"),
        ([True] * 5 + [False], r"shape \(6,\)"),
    ],
)
def test_a_bad_table_selection_is_refused_and_changes_nothing(
    name: str, tables: Any, message: str
) -> None:
    venv = fresh(name)
    before = public_state(venv)
    with pytest.raises(ValueError, match=message):
        venv.step(venv.random_actions(np.random.default_rng(0)), tables=tables)
    assert public_state(venv) == before


@pytest.mark.parametrize("name", NAMES)
def test_an_illegal_action_at_a_stepped_table_is_refused(name: str) -> None:
    venv = fresh(name)
    before = public_state(venv)
    moves = venv.random_actions(np.random.default_rng(0))
    chosen = np.zeros(5, dtype=bool)
    chosen[[1, 3]] = True
    moves[2] = -1  # ignored: table 2 does not move
    moves[3] = an_illegal_action(venv, 3)
    with pytest.raises(ValueError, match=r"at table 3 .*legal actions: [^;]*\. No table"):
        venv.step(moves, tables=chosen)
    assert public_state(venv) == before


# ----------------------------------------------------------------------------- stepping


@pytest.mark.parametrize(("name", "players"), BY_PLAYERS)
def test_stepping_a_subset_of_tables_moves_only_those(name: str, players: int) -> None:
    # Every table of a big engine, stepped at random moments, plays its first round exactly as
    # a one-table engine given the same deal and actions; the tables left out do not move.
    engine, count = GAMES[name].engine, 12
    venv = engine(count, players, seed=players)
    venv.reset()
    singles = [engine(1, players) for _ in range(count)]
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
    assert stepped > count * 5


@pytest.mark.parametrize("name", NAMES)
def test_what_subset_steps_keep_agrees_with_the_legal_bitmasks(name: str) -> None:
    # The masks and random_actions' bit counts that subset steps update table by table are
    # those of the legal bitmasks, after any mix of full, partial and empty steps.
    venv = fresh(name, 4, 32)
    rng = np.random.default_rng(0)
    for step in range(120):
        share = (1.0, 0.1, 0.6, 0.0)[step % 4]
        chosen = rng.random(32) < share
        _, mask, *_ = venv.step(venv.random_actions(rng), tables=None if share == 1 else chosen)
        legal = venv.legal
        np.testing.assert_array_equal(mask, unpack_masks(legal, venv.num_actions))
        np.testing.assert_array_equal(venv.action_masks(), mask)
        draws = np.random.default_rng(step)
        expected = random_bits(legal, draws.random(32), venv.num_actions)
        assert venv.random_actions(np.random.default_rng(step)).tolist() == expected.tolist()
    mask[:] = 0  # the caller's copy: the engine's own stays right
    np.testing.assert_array_equal(venv.action_masks(), unpack_masks(legal, venv.num_actions))


@pytest.mark.parametrize("name", NAMES)
def test_observations_of_chosen_tables_and_seats(name: str) -> None:
    venv = fresh(name, 5, 6)
    walk(venv, 25, seed=0)
    everything = venv.observe()
    assert everything.shape == (6, GAMES[name].obs_size) and everything.dtype == np.float32
    assert np.array_equal(venv.observe([4, 1]), everything[[4, 1]])
    assert venv.observe([]).shape == (0, GAMES[name].obs_size)
    assert np.array_equal(venv.observe([2], [venv.seat[2]]), everything[[2]])


@pytest.mark.parametrize("name", NAMES)
def test_masks_only_mode_gives_the_same_play_without_observations(name: str) -> None:
    engine = GAMES[name].engine
    with_obs = engine(16, 3, seed=11)
    masks_only = engine(16, 3, seed=11, observations=False)
    obs, mask, seat = with_obs.reset()
    none, mask_only, seat_only = masks_only.reset()
    assert none is None and obs.shape == (16, GAMES[name].obs_size)
    rng = np.random.default_rng(0)
    for _ in range(150):
        assert np.array_equal(mask, mask_only) and np.array_equal(seat, seat_only)
        moves = with_obs.random_actions(rng)
        obs, mask, seat, rewards, done = with_obs.step(moves)
        none, mask_only, seat_only, rewards_only, done_only = masks_only.step(moves)
        assert none is None
        assert np.array_equal(rewards, rewards_only) and np.array_equal(done, done_only)
    assert np.array_equal(masks_only.observe(), obs)  # observations are still there on request


@pytest.mark.parametrize("name", NAMES)
def test_random_actions_are_legal_and_cover_every_legal_action(name: str) -> None:
    venv = fresh(name, 4, 64)
    rng = np.random.default_rng(0)
    rows = np.arange(64)
    for _ in range(30):
        mask = venv.action_masks()
        seen = np.zeros_like(mask)
        for _ in range(300):
            moves = venv.random_actions(rng)
            assert mask[rows, moves].all()
            seen[rows, moves] = 1
        assert np.array_equal(seen, mask)  # every legal action drawn at least once
        venv.step(venv.random_actions(rng))


@pytest.mark.parametrize("name", NAMES)
def test_legal_masks_agree_with_the_mask_of_each_legal_bitmask(name: str) -> None:
    venv = fresh(name, 4, 32)
    walk(venv, 20, seed=3)
    for legal, mask in zip(venv.legal, venv.action_masks(), strict=True):
        assert np.array_equal(mask, action_mask(legal_int(legal), venv.num_actions))


# ----------------------------------------------------------------------------- determinism


@pytest.mark.parametrize(("name", "players"), BY_PLAYERS)
def test_same_seed_same_deals_and_results_despite_global_random_use(
    name: str, players: int
) -> None:
    engine = GAMES[name].engine

    def run(disturb: bool) -> list[Any]:
        venv = engine(8, players, seed=99)
        venv.reset()
        rng = np.random.default_rng(5)
        seen: list[Any] = [[venv.deal(table) for table in range(8)]]
        for step in range(150):
            if disturb:
                disturb_global_random(step)
            seen.append([x.tobytes() for x in venv.step(venv.random_actions(rng))])
        return seen

    assert run(disturb=False) == run(disturb=True)
    other = engine(8, players, seed=100)
    other.reset()
    assert [other.deal(table) for table in range(8)] != run(False)[0]


@pytest.mark.parametrize("name", NAMES)
def test_reset_with_a_seed_starts_over(name: str) -> None:
    venv = GAMES[name].engine(4, 4, seed=1)
    first = [x.tobytes() for x in venv.reset(seed=8)]
    walk(venv, 30, seed=0)
    assert [x.tobytes() for x in venv.reset(seed=8)] == first


# ----------------------------------------------------------------------------- docs


@pytest.mark.parametrize("name", NAMES)
def test_module_docstring_example_runs(name: str) -> None:
    result = doctest.testmod(env_spec(name).module("vector"))
    assert result.attempted > 0
    assert result.failed == 0


def test_the_shared_base_docstring_example_runs() -> None:
    result = doctest.testmod(core_vector)
    assert result.attempted > 0
    assert result.failed == 0
