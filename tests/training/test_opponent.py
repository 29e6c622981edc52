"""The pool's ``opponent`` kind: the frozen player of a spec in every seat but the learner's (the
tables a best response trains at, ``boon exploit``), for every game, batched or one table at a
time; and the trainer's flags that go with it."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.games.boon.search import SearchAgent
from agents.players.policy import NumpyPolicy, save_policy
from agents.registry import game_names, game_spec, register, unregister
from agents.specs import make_agent
from agents.training.recipe import recipe_of
from agents.training.selfplay import (
    HEURISTIC,
    LEARNER,
    OPPONENT,
    FrozenPlayer,
    SelfPlayVecEnv,
)
from agents.training.trainer import check_args, game_defaults

GAMES = game_names()


def _tables(
    game: str, num_envs: int, target: str | None, seed: int, pool: str = "opponent=1"
) -> Any:
    # The rollout env train.py builds for the game (its recipe's class and settings).
    spec = game_spec(game)
    args = replace(game_defaults(game), num_players=spec.default_players)
    make, settings = recipe_of(spec).rollouts(args, spec)
    return make(
        num_envs=num_envs,
        num_players=args.num_players,
        pool_weights=pool,
        seed=seed,
        opponent=target,
        **settings,
    )


def _policy_file(tmp_path: Path, game: str) -> str:
    # A small random policy of the game, saved as a model file: a ppo:PATH target.
    spec = game_spec(game)
    rng = np.random.default_rng(7)
    sizes = [spec.obs_size, 16, spec.num_actions]
    weights = [rng.normal(0, 0.5, (a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    policy = NumpyPolicy(weights, [np.zeros(b, np.float32) for b in sizes[1:]])
    path = save_policy(tmp_path / "target", policy, spec.default_players, None, game)
    return f"ppo:{path}"


def _learner_moves(env: Any, rng: np.random.Generator) -> np.ndarray:
    masks = env.action_masks()
    return np.argmax(masks + rng.random(masks.shape) * masks, axis=1)


def _watch_the_other_seats(env: Any, target: str) -> list[int]:
    """Check, at every engine step, that each table's acting seat that is not the learner's
    plays what ``target`` (a deterministic player) chooses there; returns the moves checked
    per step."""
    engine, step = env.engine, env.engine.step
    reference = make_agent(target, num_players=env.num_players, game=env.game.name)
    checked: list[int] = []

    def watched(actions: np.ndarray, tables: np.ndarray | None = None) -> Any:
        moving = np.ones(env.num_envs, bool) if tables is None else tables
        others = np.flatnonzero(moving & (engine.seat != env.seats))
        if others.size:
            shown = zip(engine.observe(others), engine.action_masks()[others], strict=True)
            assert actions[others].tolist() == [reference.act(o, m) for o, m in shown]
            checked.append(others.size)
        return step(actions, tables=tables)

    engine.step = watched
    return checked


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["heuristic", "ppo:PATH"])
def test_every_other_seat_plays_the_targets_moves(game: str, kind: str, tmp_path: Path) -> None:
    # Every move of theirs, BOYN's wild colours (actions 60-63, the sign bit of the legal
    # word) included: the target decides wherever it has a choice.
    target = kind if kind == "heuristic" else _policy_file(tmp_path, game)
    env = _tables(game, 8, target, seed=3)
    checked = _watch_the_other_seats(env, target)
    rng = np.random.default_rng(3)
    env.reset()
    rounds = 0
    for _ in range(40):
        # One learner per table, and the target in every other seat.
        assert ((env.players == LEARNER).sum(axis=1) == 1).all()
        assert (env.players[env.players != LEARNER] == OPPONENT).all()
        _, _, dones, infos = env.step(_learner_moves(env, rng))
        for row in np.flatnonzero(dones):
            assert infos[row]["round"]["opponents"] == [target] * (env.num_players - 1)
            rounds += 1
    assert rounds > 0 and sum(checked) > 100


@pytest.mark.parametrize("game", GAMES)
def test_the_pools_heuristic_kind_plays_the_heuristics_moves(game: str) -> None:
    env = _tables(game, 8, None, seed=4, pool="heuristic=1")
    checked = _watch_the_other_seats(env, "heuristic")
    rng = np.random.default_rng(4)
    env.reset()
    for _ in range(40):
        assert (env.players[env.players != LEARNER] == HEURISTIC).all()
        env.step(_learner_moves(env, rng))
    assert sum(checked) > 100


@pytest.mark.parametrize("game", GAMES)
def test_a_random_target_is_never_shown_an_observation(game: str) -> None:
    # Random play looks at the masks only: its seats cost no observation.
    env = _tables(game, 8, "random", seed=1)
    assert env.opponent.batched and not env.opponent.observes
    observed = []
    observe = env.engine.observe

    def counted(tables: Any = None, seats: Any = None) -> np.ndarray:
        observed.append(tables)
        return observe(tables, seats)

    env.engine.observe = counted
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(20):
        observed.clear()
        env.step(_learner_moves(env, rng))
        assert observed == [None], "only the learners' own observations are made"
        assert (env.players[env.players != LEARNER] == OPPONENT).all()


def test_the_pool_mixes_the_opponent_with_the_other_kinds() -> None:
    env = _tables("boon", 400, "random", seed=0, pool="opponent=0.5,heuristic=0.5")
    env.reset()
    others = env.players[env.players != LEARNER]
    assert 0.45 < np.mean(others == OPPONENT) < 0.55
    assert set(others.tolist()) == {OPPONENT, HEURISTIC}


def test_a_one_table_target_has_an_agent_per_seat_reset_every_round(monkeypatch) -> None:
    # search acts one table at a time: each seat of each table gets its own agent, reset with
    # a fresh seed when built and whenever its table starts a round; the others are untouched.
    resets: list[tuple[int, int | None]] = []
    reset = SearchAgent.reset

    def recorded(self: SearchAgent, seed: int | None = None) -> None:
        resets.append((id(self), seed))
        reset(self, seed)

    monkeypatch.setattr(SearchAgent, "reset", recorded)
    player = FrozenPlayer("search:samples=2", num_envs=2, num_players=4, game="boon")
    assert not player.batched and player.observes
    rng = np.random.default_rng(0)
    player.reset(rng)
    engine = game_spec("boon").env.vector_engine()(2, 4, seed=1)
    engine.reset()
    obs, masks = engine.observe(), engine.action_masks()

    def act(table: int, seat: int) -> int:
        # The agent that acts at (table, seat), by the reset it got when it was built.
        before = len(resets)
        action = player.act(obs[[table]], masks[[table]], np.array([table]), np.array([seat]), rng)
        assert masks[table, action[0]], "a legal move"
        return resets[before][0] if len(resets) > before else -1

    a, b, c = act(0, 1), act(1, 1), act(0, 2)
    assert len({a, b, c}) == 3, "one agent per seat of each table"
    assert act(0, 1) == -1, "the same agent acts again, not reset within its round"
    resets.clear()
    player.new_rounds(np.array([0]), rng)
    assert sorted(agent for agent, _ in resets) == sorted([a, c]), "table 0's agents only"
    player.new_rounds(np.array([1]), rng)
    assert [agent for agent, _ in resets[2:]] == [b]
    seeds = [seed for _, seed in resets]
    assert None not in seeds and len(set(seeds)) == len(seeds), "fresh seeds every round"


def test_a_one_table_target_plays_at_every_table_seeded_by_the_env() -> None:
    def play(seed: int) -> list[np.ndarray]:
        env = _tables("boon", 3, "search:samples=2", seed=seed)
        assert not env.opponent.batched
        rng = np.random.default_rng(0)
        out, rounds = [env.reset()], 0
        for _ in range(12):
            assert (env.players[env.players != LEARNER] == OPPONENT).all()
            obs, rewards, dones, infos = env.step(_learner_moves(env, rng))
            out += [obs, rewards]
            for row in np.flatnonzero(dones):
                assert infos[row]["round"]["opponents"] == ["search:samples=2"] * 3
                rounds += 1
        assert rounds > 0
        return out

    first = play(5)
    assert all(np.array_equal(a, b) for a, b in zip(first, play(5), strict=True))


def test_an_opponent_weight_needs_a_spec_and_the_spec_must_build() -> None:
    with pytest.raises(ValueError, match="opponent kind needs a player spec"):
        SelfPlayVecEnv(2, 4, "opponent=1", seed=0, game="bon")
    with pytest.raises(ValueError, match="unknown agent kind 'nope'"):
        SelfPlayVecEnv(2, 4, "opponent=1", seed=0, game="bon", opponent="nope")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"opponent": "heuristic"}, "--opponent heuristic sits only where --pool-weights"),
        ({"pool_weights": "opponent=1"}, "name the player with --opponent"),
        ({"pool_weights": "opponent=1", "opponent": "blind:ppo"}, "unknown agent kind 'blind'"),
        ({"pool_weights": "opponent=1", "opponent": "ppo", "num_players": 6}, "--num-players"),
        ({"pool_weights": "opponent=1", "opponent": "ppo:missing.npz"}, "missing.npz"),
        ({"max_seconds": -1.0}, "--max-seconds must be >= 0"),
        ({"log_every": -1}, "--log-every must be >= 0"),
    ],
)
def test_the_trainer_refuses_a_bad_opponent_or_budget(changes: dict, message: str) -> None:
    args = replace(game_defaults("bon"), **changes)
    with pytest.raises(ValueError, match=message):
        check_args(args)
    check_args(replace(args, **{k: getattr(game_defaults("bon"), k) for k in changes}))


def test_the_trainer_refuses_a_game_without_a_ppo_player() -> None:
    # Its model would be written and then be playable nowhere: refused before any work.
    from tests.helpers.toy.spec import TOY

    players = {kind: build for kind, build in TOY.players.items() if kind != "ppo"}
    register(replace(TOY, players=players))
    try:
        with pytest.raises(ValueError, match="has no 'ppo' agent kind"):
            check_args(game_defaults(TOY.name))
    finally:
        unregister(TOY.name)
